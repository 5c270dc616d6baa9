"""The table layout: one source of truth for the geometry, saved as versioned JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from calibration.errors import ProfileFileError, UnsupportedVersionError
from calibration.layout import (
    LAYOUT_VERSION,
    ZONE_MAIN_LINE,
    ZONE_PLAY,
    ZONE_SIDE_BRANCHES,
    MarkerPlacement,
    TableLayout,
    default_layout,
)


def test_given_the_kit_layout_when_saved_and_loaded_then_it_is_equal(tmp_path: Path) -> None:
    layout = default_layout()
    path = tmp_path / "layout.json"
    layout.save(path)
    assert TableLayout.load(path) == layout
    assert json.loads(path.read_text())["version"] == LAYOUT_VERSION


@pytest.mark.parametrize("version", [0, LAYOUT_VERSION + 1, "1", None])
def test_given_another_version_when_loaded_then_the_error_names_file_and_version(tmp_path: Path,
                                                                                version: object) -> None:
    data = default_layout().to_dict()
    data["version"] = version
    path = tmp_path / "old-layout.json"
    path.write_text(json.dumps(data))
    with pytest.raises(UnsupportedVersionError) as info:
        TableLayout.load(path)
    assert "old-layout.json" in str(info.value)
    assert repr(version) in str(info.value)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "expected a JSON object"),
        ('{"format": "something-else", "version": 1}', "format"),
    ],
)
def test_given_a_bad_file_when_loaded_then_a_clear_error(tmp_path: Path, text: str, needle: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(ProfileFileError) as info:
        TableLayout.load(path)
    assert needle in str(info.value) and "bad.json" in str(info.value)


def test_given_a_missing_field_when_loaded_then_the_error_says_so(tmp_path: Path) -> None:
    data = default_layout().to_dict()
    del data["markers"][0]["corners_mm"]
    with pytest.raises(ProfileFileError, match="corners_mm"):
        TableLayout.from_dict(data, "here")


def test_given_a_token_and_a_marker_sharing_an_id_then_the_layout_is_refused() -> None:
    layout = default_layout()
    clash = MarkerPlacement.square(layout.tokens[0].marker_id, 0, 0, 30)
    with pytest.raises(ProfileFileError, match=str(layout.tokens[0].marker_id)):
        layout.with_markers(layout.markers + (clash,))


@pytest.mark.parametrize(
    ("x_mm", "y_mm", "zone"),
    [
        (132.0, 95.0, ZONE_PLAY),
        (10.0, 20.0, None),  # on a corner marker of the PLAY sheet
        (132.0, -100.0, ZONE_SIDE_BRANCHES),
        (-100.0, -300.0, ZONE_MAIN_LINE),
        (132.0, 400.0, None),
    ],
)
def test_given_a_table_point_then_its_zone(x_mm: float, y_mm: float, zone: str | None) -> None:
    assert default_layout().zone_at(x_mm, y_mm) == zone


def test_given_the_kit_then_every_token_has_its_own_marker_word_and_symbol() -> None:
    layout = default_layout()
    names = {t.name for t in layout.tokens}
    assert names == {"no_play", "prophet", "accept", "reject"}
    ids = [t.marker_id for t in layout.tokens] + [m.marker_id for m in layout.markers]
    assert len(ids) == len(set(ids))
    assert len({t.word for t in layout.tokens}) == 4 and len({t.symbol for t in layout.tokens}) == 4


def test_given_the_play_sheet_then_it_fits_a4_and_letter_landscape_with_margins() -> None:
    w, h = default_layout().sheet_size_mm
    for paper_w, paper_h in ((297.0, 210.0), (279.4, 215.9)):
        assert paper_w - w >= 2 * 7.0 and paper_h - h >= 2 * 7.0
    for m in default_layout().markers:
        if m.role == "anchor":
            xs = [c[0] for c in m.corners_mm]
            ys = [c[1] for c in m.corners_mm]
            assert 0.0 <= min(xs) and max(xs) <= w and 0.0 <= min(ys) and max(ys) <= h


# -- the protocol fits the mat (issue 7 item 4) ---------------------------------------------
from calibration.layout import (  # noqa: E402
    CHAIN_MAX,
    GUIDE_GAP_MM,
    GUIDE_TILE_MARGIN_MM,
    NO_PLAY_BATCH,
    PLACE_MM,
    PROPHET_CHAIN_MAX,
    TOKEN_TILE_MM,
    main_line_folded,
    main_line_slots,
)
from vision.geometry import CARD_H_MM, CARD_W_MM  # noqa: E402

FINGER_MM = 15.0  # room to spare: a finger between things, and some left over


def _zone_width(name: str) -> float:
    xs = [p[0] for p in default_layout().zone(name).polygon_mm]
    return max(xs) - min(xs)


@pytest.mark.parametrize("cards, tokens", [(NO_PLAY_BATCH, 1), (PROPHET_CHAIN_MAX, 1), (CHAIN_MAX, 0)],
                         ids=["no-play batch and its token", "attempt and the prophet's token", "longest attempt"])
def test_given_what_the_protocol_lays_in_the_play_zone_then_it_fits_with_room_to_spare(cards: int, tokens: int) -> None:
    things = cards + tokens
    needed = cards * CARD_W_MM + tokens * TOKEN_TILE_MM[0] + (things + 1) * FINGER_MM
    assert needed <= _zone_width(ZONE_PLAY), f"{cards} cards and {tokens} token(s) need {needed:.0f} mm"
    assert things * PLACE_MM <= _zone_width(ZONE_PLAY)
    ys = [p[1] for p in default_layout().zone(ZONE_PLAY).polygon_mm]
    assert CARD_H_MM + 2 * 10.0 <= max(ys) - min(ys)  # the zone's depth: a card lies in it with room


def test_given_a_line_started_at_either_edge_of_its_zone_then_no_card_touches_a_guide_tile() -> None:
    layout = default_layout()
    for zone_name in (ZONE_MAIN_LINE, ZONE_SIDE_BRANCHES):
        xs = [p[0] for p in layout.zone(zone_name).polygon_mm]
        ys = [p[1] for p in layout.zone(zone_name).polygon_mm]
        # a card whose centre is anywhere in the zone, turned a little (its reach: half its diagonal)
        reach = 0.5 * (CARD_W_MM ** 2 + CARD_H_MM ** 2) ** 0.5
        for m in layout.markers:
            if m.role != "guide":
                continue
            tx = [c[0] for c in m.corners_mm]
            ty = [c[1] for c in m.corners_mm]
            tile = (min(tx) - GUIDE_TILE_MARGIN_MM, min(ty) - GUIDE_TILE_MARGIN_MM,
                    max(tx) + GUIDE_TILE_MARGIN_MM, max(ty) + GUIDE_TILE_MARGIN_MM)
            gap_x = max(tile[0] - max(xs), min(xs) - tile[2])
            assert gap_x >= GUIDE_GAP_MM >= 20.0, (m.marker_id, zone_name)
            # a card at the very first or last place of the line stays clear of the tile
            for centre_x in (min(xs) + PLACE_MM / 2, max(xs) - PLACE_MM / 2):
                distance = max(tile[0] - centre_x, centre_x - tile[2])
                assert distance - reach >= 0.0 or distance - CARD_W_MM / 2 >= GUIDE_GAP_MM, (m.marker_id, centre_x)


def test_given_the_main_line_at_the_edge_of_the_mat_then_it_folds_and_always_fits() -> None:
    slots = main_line_slots(default_layout())
    assert slots * PLACE_MM <= _zone_width(ZONE_MAIN_LINE)
    for places in range(1, 60):
        on_table = places - main_line_folded(places)
        assert 1 <= on_table <= slots
        assert main_line_folded(places) == 0 or on_table > slots // 2
