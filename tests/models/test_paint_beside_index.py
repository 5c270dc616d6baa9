"""models.index_data.paint_beside_index: the index reader's training boxes with a neighbour's
ink painted out (the index read from its own column). No torch needed."""

from __future__ import annotations

import numpy as np

from models.index_data import BELOW_Y, BESIDE_X, paint_beside_index
from vision.preprocess import CORNER_H, CORNER_W


def _boxes(n: int) -> np.ndarray:
    """Boxes of cream paper, a rank and suit in the index column, a neighbour's ink beside and below."""
    boxes = np.full((n, CORNER_H, CORNER_W, 3), (215, 235, 240), np.uint8)
    boxes[:, 6:18, 5:14] = 20  # the rank
    boxes[:, 24:32, 6:13] = (30, 30, 200)  # the suit
    boxes[:, 8:20, 26:34] = 10  # the next card's rank, beside
    boxes[:, 48:54, 4:12] = 10  # the card below's ink
    return boxes


def test_given_boxes_with_a_neighbours_ink_when_all_painted_then_only_the_index_column_keeps_its_ink() -> None:
    boxes = _boxes(4)
    painted = paint_beside_index(boxes, 1.0, np.random.default_rng(3))
    assert np.array_equal(painted[:, :BELOW_Y, :BESIDE_X], boxes[:, :BELOW_Y, :BESIDE_X])  # the index untouched
    assert painted[:, :, BESIDE_X:].min() >= 200 and painted[:, BELOW_Y:].min() >= 200  # no ink left beside or below
    assert np.array_equal(painted[0, 0, -1], boxes[0, 0, 0])  # painted the paper's own colour
    assert boxes[:, :, BESIDE_X:].min() == 10  # the boxes given are not changed


def test_given_a_share_when_painted_then_about_that_share_of_the_boxes_is_painted_and_the_rest_kept() -> None:
    boxes = _boxes(2000)
    painted = paint_beside_index(boxes, 0.3, np.random.default_rng(4))
    changed = np.any(painted != boxes, axis=(1, 2, 3))
    assert 0.25 < changed.mean() < 0.35
    assert np.array_equal(painted[~changed], boxes[~changed])
    assert not np.any(paint_beside_index(boxes[:50], 0.0, np.random.default_rng(4)) != boxes[:50])
