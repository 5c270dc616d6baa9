"""vision.corners: an outline holding other cards' indices and none of its own is a pile.

On the poker-table hands bench an 8C and a 2C of a hand were found as one region by the
outline reader, and that region was read whole as a 4C, while both cards were read by
their own indices. A card's face prints only its own indices: the region's whole reading
is of no card of the pile and does not stand. A pile read as its top card keeps its reading
(that card's index shows on it), and a single misread pip pair on a card does not make it a
pile.
"""

from __future__ import annotations

import numpy as np

from engine.cards import Card
from vision.corners import CornerProposal, CornerReading, piles_unread, with_corner_cards
from vision.readings import CardDetections

# one region round two cards of a hand, nearly square: 300 x 330 px at (100, 80)
PILE = np.array([[100, 80], [400, 80], [400, 410], [100, 410]], np.float32)
UNDER = CornerProposal((100 + 18, 80 + 25), (0.0, 1.0), 1.0)  # the first card's top-left index
OVER = CornerProposal((200 + 18, 130 + 25), (0.0, 1.0), 1.0)  # the card laid over it, shifted
OUTSIDE = CornerProposal((500.0, 100.0), (0.0, 1.0), 1.0)  # a card lying apart


def _read_whole(name: str) -> CardDetections:
    return CardDetections(quad_xy=PILE[None], label=[Card.parse(name)], confidence=np.array([0.8], np.float32))


def _reading(name: str, where: CornerProposal) -> CornerReading:
    return CornerReading(Card.parse(name), 0.98, where)


def test_given_a_hand_read_whole_as_a_card_neither_index_names_when_settled_then_its_reading_is_taken_back() -> None:
    settled = piles_unread([_reading("8C", UNDER), _reading("2C", OVER)], _read_whole("4C"))
    assert settled.label[0] is None
    assert np.array_equal(settled.quad_xy, PILE[None])  # the outline stays: something lies there


def test_given_a_pile_read_as_its_top_card_when_settled_then_the_reading_stands() -> None:
    whole = _read_whole("2C")
    settled = piles_unread([_reading("8C", UNDER), _reading("2C", OVER), _reading("9D", OUTSIDE)], whole)
    assert settled.label[0] == Card.parse("2C")


def test_given_one_other_index_or_others_outside_when_settled_then_the_card_keeps_its_reading() -> None:
    whole = _read_whole("4C")
    assert piles_unread([_reading("8C", UNDER)], whole).label[0] == Card.parse("4C")
    assert piles_unread([_reading("8C", UNDER), _reading("9D", OUTSIDE)], whole).label[0] == Card.parse("4C")


def test_given_the_twin_at_the_card_s_own_index_when_counted_then_it_is_no_card_of_a_pile() -> None:
    # the card's own top-left index with its small suit misread, and one other card's index
    whole = _read_whole("8S")
    assert piles_unread([_reading("8C", UNDER), _reading("2C", OVER)], whole).label[0] == Card.parse("8S")


class _Reads:
    """A classifier stand-in whose corner reading is given (read_corners is replaced)."""


def test_given_the_hand_through_with_corner_cards_when_read_then_the_two_cards_and_no_third(monkeypatch) -> None:
    import vision.corners as corners

    readings = [_reading("8C", UNDER), _reading("2C", OVER)]
    monkeypatch.setattr(corners, "read_corners", lambda *a, **k: readings)
    found = with_corner_cards(_Reads(), np.zeros((500, 600, 3), np.uint8), _read_whole("4C"))
    assert [c for c in found.label if c is not None] == [Card.parse("8C"), Card.parse("2C")]
