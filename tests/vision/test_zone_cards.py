"""vision.zone_cards: cards laid touching in the play zone are found one by one.

Players lay a batch of cards side by side, often touching and not lined up. The blob of
two touching cards is neither one card nor an even row; it is cut where its outline steps
(``_split_at_steps``), and only when every piece is a card.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.geometry import quad_iou
from vision.zone_cards import find_cards, log_colour
from vision.zone_view import RectifiedZone, ZoneWindow, rectify

ZONE_BGR = (200, 214, 196)
CARD_BGR = (235, 232, 228)
PX_PER_MM = 2.0
CARD_PX = (126, 176)  # 63 x 88 mm


def _view(rects: list[tuple[int, int, int, int]], extra: tuple[tuple[int, int, int, int], ...] = ()) -> RectifiedZone:
    """A zone seen from above at 2 px/mm with card-coloured rectangles (x, y, w, h) in it."""
    zone = np.full((300, 400, 3), ZONE_BGR, np.uint8)
    for x, y, w, h in [*rects, *extra]:
        cv2.rectangle(zone, (x, y), (x + w - 1, y + h - 1), CARD_BGR, -1)
    return rectify(zone, np.diag([1 / PX_PER_MM, 1 / PX_PER_MM, 1.0]), ZoneWindow(0, 0, 200, 150))


def _find(view: RectifiedZone) -> list[np.ndarray]:
    """The cards found as the observer finds them: the empty zone's look is known."""
    return find_cards(view, empty_log=log_colour(_view([]).bgr))


def _truth(x: int, y: int, w: int, h: int) -> np.ndarray:
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)


@pytest.mark.parametrize(("offset_px", "gap_px"), [(30, 0), (-24, 0), (60, -3), (16, 1)])
def test_given_two_cards_touching_side_by_side_not_lined_up_then_each_is_found(offset_px: int, gap_px: int) -> None:
    w, h = CARD_PX
    first = (60, 40, w, h)
    second = (60 + w + gap_px, 40 + max(offset_px, 0), w, h)
    if offset_px < 0:  # the first card lower down
        first = (60, 40 - offset_px, w, h)
    found = _find(_view([first, second]))
    assert len(found) == 2, f"{len(found)} cards found"
    for rect in (first, second):
        best = max(quad_iou(q.astype(np.float32), _truth(*rect)) for q in found)
        assert best > 0.85, f"card at {rect}: best IoU {best:.2f}"


def test_given_two_cards_touching_one_above_the_other_shifted_then_each_is_found() -> None:
    view = _view([(80, 10, CARD_PX[0], CARD_PX[1])])  # warm-up: one card is one card
    assert len(_find(view)) == 1
    # two cards rotated a quarter turn, stacked (each 176 x 126 px), the second shifted by 20 mm
    first, second = (20, 20, 176, 126), (60, 146, 176, 126)
    found = _find(_view([first, second]))
    assert len(found) == 2, f"{len(found)} cards found"
    for rect in (first, second):
        assert max(quad_iou(q.astype(np.float32), _truth(*rect)) for q in found) > 0.85


def test_given_a_card_with_a_card_sized_blob_of_another_shape_beside_it_then_no_piece_is_made_up() -> None:
    w, h = CARD_PX
    card = (60, 70, w, h)
    # beside it, touching, a square 60 x 60 mm: the cut leaves a piece that is no card,
    # so the blob is not explained as cards and nothing but (at most) the real card is found
    found = _find(_view([card], extra=((60 + w, 100, 120, 120),)))
    assert len(found) <= 1
    for q in found:
        assert quad_iou(q.astype(np.float32), _truth(*card)) > 0.85
