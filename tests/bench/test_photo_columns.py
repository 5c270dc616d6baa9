"""bench/photo_columns.py scores a column's readings: a card read where it lies, covered or
whole; any other reading wrong."""

from __future__ import annotations

import numpy as np

from bench.photo_columns import score
from engine.cards import Card
from vision.readings import CardDetections
from vision.synthetic.columns import OverlapScene


def _card(x: float, y: float) -> np.ndarray:
    return np.array([[x, y], [x + 63, y], [x + 63, y + 88], [x, y + 88]], np.float32)


def test_given_a_column_s_readings_when_scored_then_covered_and_whole_count_apart_and_misplaced_names_are_wrong() -> None:
    quads = np.stack([_card(100, 100), _card(100, 140), _card(100, 180)])
    scene = OverlapScene(np.zeros((400, 300, 3), np.uint8), (Card.parse("9S"), Card.parse("4H"), Card.parse("KD")),
                         quads, quads[:, 0] + 10, quads[:, 2] - 10, (True, True, True))
    found = CardDetections(quad_xy=np.stack([_card(101, 101), _card(100, 180), _card(100, 140), _card(200, 300)]),
                           label=[Card.parse("9S"), Card.parse("KD"), Card.parse("2C"), None])
    read, wrong = score(found, scene)
    assert read == {"covered": 1, "whole": 1}  # 9S under the others, KD on top; the 4H not read
    assert len(wrong) == 1 and wrong[0].startswith("2C")  # a 2C where the 4H lies; the unread outline is no reading
