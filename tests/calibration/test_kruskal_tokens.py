"""Kruskal's TRUE/FALSE tokens (KR4): one pair per seat told apart by their markers, printed
in the kit at true size, and read from a rendered table: which seat shows which token."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from calibration.kit import kit_pages, write_kit_pdf
from calibration.kruskal_tokens import (
    KRUSKAL_SEATS,
    PREDICTION_STRIP,
    Predictions,
    kruskal_tokens,
    read_predictions,
    seat_of,
    strip_place,
)
from calibration.layout import default_layout
from calibration.markers import detect_markers
from calibration.table import TableTracker
from tests.calibration.test_kit import _render, _sides_mm


def test_every_seat_has_a_true_and_a_false_token_with_markers_of_their_own() -> None:
    tokens = kruskal_tokens()
    assert len(tokens) == 2 * KRUSKAL_SEATS
    assert sorted(seat_of(t) for t in tokens) == sorted((s, m) for s in range(1, 9) for m in (True, False))
    ids = [t.marker_id for t in tokens]
    assert len(set(ids)) == len(ids) and max(ids) < 50  # DICT_4X4_50
    layout = default_layout()
    assert not set(ids) & (layout.table_marker_ids | {t.marker_id for t in layout.tokens})
    assert {t.word for t in tokens} == {"TRUE", "FALSE"}
    with pytest.raises(ValueError, match="1 to 8 seats"):
        kruskal_tokens(9)


def test_each_seats_place_lies_in_the_strip_and_clear_of_the_others() -> None:
    for seats in (3, 8):
        places = [strip_place(s, seats) for s in range(1, seats + 1)]
        assert all(PREDICTION_STRIP.contains(x, y) for x, y in places)
        xs = [x for x, _ in places]
        assert all(b - a >= 66.0 for a, b in zip(xs, xs[1:]))  # a tile's width apart
        # the strip lies in front of the PLAY sheet, in no zone of the mat
        assert all(default_layout().zone_at(x, y) is None for x, y in places)


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
def test_the_kit_prints_two_seats_a_page_at_true_size(tmp_path: Path) -> None:
    path = tmp_path / "kit.pdf"
    write_kit_pdf(path, "a4")
    titles = [p.title for p in kit_pages()]
    for seat in (1, 7):
        page = titles.index(f"Kruskal tokens, seats {seat} and {seat + 1}") + 1
        expected = {t.marker_id: t for t in kruskal_tokens() if seat_of(t)[0] in (seat, seat + 1)}
        found = detect_markers(_render(path, page, tmp_path / f"p{page}"), allowed_ids=frozenset(range(50))).as_dict()
        assert set(found) == set(expected)
        for marker_id, corners in found.items():
            assert _sides_mm(corners) == pytest.approx([expected[marker_id].marker_size_mm] * 4, abs=0.5)


def _rendered(tokens: list[tuple[str, tuple[float, float]]]) -> tuple[np.ndarray, Predictions]:
    from bench.harness.kruskal_table import KRUSKAL_VIEW, kruskal_layout
    from vision.synthetic import TokenPlacement, render_table_scene

    scene = render_table_scene(kruskal_layout(), KRUSKAL_VIEW,
                               tuple(TokenPlacement(n, at, a) for (n, at), a in zip(tokens, (4, -7, 0, 9, -3, 6))))
    markers = detect_markers(scene.frame_bgr)
    tracker = TableTracker(default_layout())
    tracker.update(markers)
    assert tracker.homography is not None
    return scene.frame_bgr, read_predictions(markers, tracker.homography, 4)


def test_a_rendered_table_says_which_seat_shows_which_token() -> None:
    # given seat 1 showing TRUE, seat 2 FALSE, seat 3 both, and seat 4's TRUE on the mat, not in the strip
    _frame, read = _rendered([("seat1_true", strip_place(1, 4)), ("seat2_false", strip_place(2, 4)),
                              ("seat3_true", strip_place(3, 4)), ("seat3_false", strip_place(4, 4)),
                              ("seat4_true", (132.5, 95.0))])
    # then the reading names each seat's prediction, and who shows none
    assert read.shown == {1: True, 2: False}
    assert read.both == (3,) and read.elsewhere == (4,)
    assert read.missing(4) == (3, 4)
