"""Corner order and overlap of card quads."""

import numpy as np
import pytest

from vision.geometry import (
    clockwise,
    match_quads,
    portrait_order,
    quad_iou,
    side_lengths,
)

SQUARE = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], np.float32)


@pytest.mark.parametrize("perm", [[0, 1, 2, 3], [2, 0, 3, 1], [3, 2, 1, 0], [1, 3, 0, 2]])
def test_given_corners_in_any_order_when_sorted_then_clockwise_from_top_left(perm) -> None:
    assert np.array_equal(clockwise(SQUARE[perm]), SQUARE)


@pytest.mark.parametrize(
    ("quad", "first_side"),
    [
        ([[0, 0], [30, 0], [30, 20], [0, 20]], 20.0),  # landscape: the short side comes first
        ([[0, 0], [20, 0], [20, 30], [0, 30]], 20.0),  # portrait already
    ],
)
def test_given_a_rectangle_when_put_in_portrait_order_then_side_0_1_is_short(quad, first_side) -> None:
    ordered = portrait_order(np.array(quad, np.float32))
    assert side_lengths(ordered)[0] == pytest.approx(first_side)
    assert side_lengths(ordered)[1] > side_lengths(ordered)[0]


@pytest.mark.parametrize(("shift", "iou"), [(0, 1.0), (5, 1 / 3), (10, 0.0), (20, 0.0)])
def test_given_two_squares_when_overlapping_then_iou_is_the_overlap_share(shift, iou) -> None:
    assert quad_iou(SQUARE, SQUARE + [shift, 0]) == pytest.approx(iou, abs=1e-6)


def test_given_two_sets_when_matching_then_each_quad_is_used_once() -> None:
    truth = np.stack([SQUARE, SQUARE + 100])
    found = np.stack([SQUARE + 101, SQUARE + 1, SQUARE + 2])
    pairs = match_quads(truth, found, 0.6)
    assert [(i, j) for i, j, _ in pairs] == [(0, 1), (1, 0)]
