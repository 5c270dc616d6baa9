"""dealer.make_demo: how the rendered players lay a batch in the play zone."""

from __future__ import annotations

import numpy as np

from calibration.layout import ZONE_PLAY, default_layout
from dealer.make_demo import _positions, _touching_positions, _zone_box
from vision.geometry import CARD_H_MM, CARD_W_MM


def _inside_zone(centre: tuple[float, float]) -> bool:
    x0, y0, x1, y1 = _zone_box(default_layout(), ZONE_PLAY)
    x, y = centre
    return x0 <= x - CARD_W_MM / 2 and x + CARD_W_MM / 2 <= x1 and y0 <= y - CARD_H_MM / 2 and y + CARD_H_MM / 2 <= y1


def test_given_a_batch_laid_touching_then_each_card_touches_the_last_and_they_are_not_lined_up() -> None:
    rng = np.random.default_rng(3)
    heights = []
    for n in (2, 3):
        for _ in range(20):
            centres = _touching_positions(n, 0.0, rng)
            assert len(centres) == n
            for (x0, y0), (x1, y1) in zip(centres, centres[1:]):
                assert CARD_W_MM - 2.0 <= x1 - x0 <= CARD_W_MM + 1.0  # up to 2 mm over it, or 1 mm apart
                heights.append(abs(y1 - y0))
            assert all(_inside_zone(c) for c in centres)
    assert max(heights) > 5.0  # not lined up


def test_given_a_batch_laid_apart_then_a_fingers_width_lies_between_cards() -> None:
    centres = _positions(3)
    assert all(x1 - x0 - CARD_W_MM >= 10.0 for (x0, _), (x1, _) in zip(centres, centres[1:]))
