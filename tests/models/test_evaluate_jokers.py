"""models.evaluate_jokers: the views a joker is read in."""

from __future__ import annotations

import numpy as np

from models.evaluate_jokers import views_of
from vision.preprocess import RECT_H, RECT_W


def test_given_a_joker_image_then_it_is_read_as_given_and_in_reframings_every_second_one_turned() -> None:
    image = np.zeros((350, 250, 3), np.uint8)
    image[:20, :20] = 255  # a mark in the top-left corner
    views = views_of(image, np.random.default_rng(1), count=6)
    assert len(views) == 6
    assert all(v.shape == (RECT_H, RECT_W, 3) and v.dtype == np.uint8 for v in views)
    assert views[0][:5, :5].mean() == 255  # as given: the mark stays top left
    assert views[1][-5:, -5:].mean() > 200 and views[1][:5, :5].mean() == 0  # turned: bottom right
