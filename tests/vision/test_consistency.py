"""C1: with 3 decks a fourth copy of a card is a misreading, flagged, never a card."""

import numpy as np
import pytest

from engine.cards import parse_cards
from vision.consistency import flag_over_shoe
from vision.readings import CardDetections


def _visible(text: str, cut: list[bool] | None = None) -> CardDetections:
    cards = list(parse_cards(text))
    return CardDetections(np.zeros((len(cards), 4, 2)), label=cards,
                          confidence=np.full(len(cards), 0.99, np.float32), cut=cut)


@pytest.mark.parametrize(
    ("visible", "known", "decks", "flagged"),
    [
        ("7H 7H 7H", "", 3, [False, False, False]),
        ("7H 7H 7H 7H 2C", "", 3, [True, True, True, True, False]),
        ("7H 2C", "7H 7H 7H", 3, [True, False]),
        ("7H 2C", "7H 7H", 3, [False, False]),
        ("7H 7H", "", 1, [True, True]),
        ("QS KS", "QS", 1, [True, False]),
    ],
)
def test_given_copies_when_checked_against_the_shoe_then_every_copy_over_it_is_flagged(
        visible, known, decks, flagged) -> None:
    out = flag_over_shoe(_visible(visible), parse_cards(known), decks)
    assert out.over_shoe.tolist() == flagged
    assert out.read_cards() == [c for c, f in zip(parse_cards(visible), flagged) if not f]


def test_given_a_cut_card_when_checked_then_it_neither_counts_nor_is_flagged() -> None:
    out = flag_over_shoe(_visible("7H 7H 7H 7H", cut=[False, False, False, True]))
    assert out.over_shoe.tolist() == [False, False, False, False]


def test_given_detections_when_checked_then_the_input_is_untouched() -> None:
    dets = _visible("7H 7H 7H 7H")
    flag_over_shoe(dets)
    assert not dets.over_shoe.any()
