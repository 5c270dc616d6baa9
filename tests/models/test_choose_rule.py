"""models/choose_rule.py: a candidate rule is scored with the run-time rule itself (issue 8)."""

from __future__ import annotations

import numpy as np
import pytest

from models.choose_rule import ALL_VIEWS, VIEW_SETS, rates, rule_model
from vision.classify import OnnxClassifier, default_model_paths


def _confident(n: int, k: int) -> np.ndarray:
    row = np.zeros(n, np.float32)
    row[k] = 20.0
    return row


def test_given_a_card_whose_framings_disagree_when_scored_with_views_then_it_is_not_read() -> None:
    if not default_model_paths()[0].is_file():
        pytest.skip("needs the trained model")
    model = OnnxClassifier()
    n = len(model.meta.classes)
    labels = np.array([3, 7, 9])
    as_given = np.stack([_confident(n, 3), _confident(n, 7), _confident(n, 12)])  # right, right, wrong
    views = np.stack([as_given.copy() for _ in ALL_VIEWS])
    views[:, 1] = _confident(n, 8)  # card 1: every other framing reads another card
    corners = np.stack([as_given, as_given], axis=1)
    heads = {"logits": as_given, "corner_logits": corners, "face_logits": as_given,
             "second_logits": as_given, "view_logits": views}
    without = rule_model(model, (), 0.94, 0.8, 0.7)
    assert rates(without, heads, labels, ()) == pytest.approx((2 / 3, 1 / 3))
    chosen = VIEW_SETS[-1]
    with_views = rule_model(model, chosen, 0.94, 0.8, 0.7)
    assert rates(with_views, heads, labels, chosen) == pytest.approx((1 / 3, 1 / 3))
