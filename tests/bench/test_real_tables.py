"""bench/real_tables.py: how a photo's readings are scored against the labelled blackjack
photos (bench/data/blackjack-labels.json), on made-up readings; and the labels themselves."""

from __future__ import annotations

import hashlib
import json
from collections import Counter

import numpy as np

from bench.real_tables import BLACKJACK_LABELS, NEAR_PX, Tally, score_photo
from engine.cards import Card
from vision.readings import CardDetections

LABELS = {"cards": [{"card": "7S", "xy": [200, 200], "lies": "alone"},
                    {"card": "QH", "xy": [500, 200], "lies": "overlapped"},
                    {"card": "2D", "xy": [800, 200], "lies": "alone"}],
          "printed_cards": [[1000, 0, 1200, 400]]}


def _card_at(x: float, y: float, w: float = 140, h: float = 190) -> list[list[float]]:
    return [[x - w / 2, y - h / 2], [x + w / 2, y - h / 2], [x + w / 2, y + h / 2], [x - w / 2, y + h / 2]]


def _found(readings: list[tuple[str | None, float, float]]) -> CardDetections:
    return CardDetections(quad_xy=[_card_at(x, y) for _, x, y in readings],
                          label=[Card.parse(c) if c else None for c, _, _ in readings],
                          confidence=np.full(len(readings), 0.9, np.float32))


def test_given_right_wrong_and_printed_ace_readings_when_scored_then_each_counts_apart() -> None:
    tally = Tally()
    said = score_photo(_found([("7S", 205, 195), ("QH", 500 + NEAR_PX * 0.9, 200), ("7S", 810, 200),
                               ("AS", 1100, 200), (None, 800, 200)]), LABELS, tally)
    assert tally.cards == Counter({"alone": 2, "overlapped": 1})
    assert tally.read == Counter({"alone": 1, "overlapped": 1})  # the 2D was read as a 7S: not read
    assert tally.wrong == 1 and tally.printed == 1 and tally.photos == 1
    assert len(said) == 1 and said[0].startswith("7S at (810, 200)") and "2D" in said[0]


def test_given_a_reading_of_the_right_name_far_from_its_card_when_scored_then_it_is_wrong() -> None:
    tally = Tally()
    score_photo(_found([("2D", 200, 600)]), LABELS, tally)
    assert sum(tally.read.values()) == 0 and tally.wrong == 1


def test_the_blackjack_labels_name_real_cards_and_keep_each_hand_on_one_side_of_the_split() -> None:
    doc = json.loads(BLACKJACK_LABELS.read_text())
    photos = doc["photos"]
    assert len(photos) == 57
    sides: dict[str, set[str]] = {}
    for name, photo in photos.items():
        for card in photo["cards"]:
            Card.parse(card["card"])
            assert card["lies"] in ("alone", "overlapped", "hidden"), name
            assert 0 <= card["xy"][0] < 1920 and 0 <= card["xy"][1] < 1080, name
        sides.setdefault(photo["group"], set()).add(photo["split"])
        odd = hashlib.sha256(photo["group"].encode()).digest()[0] % 2
        assert photo["split"] == ("held out" if odd else "tuning"), name
    assert all(len(s) == 1 for s in sides.values())
    assert {s for group in sides.values() for s in group} == {"tuning", "held out"}
