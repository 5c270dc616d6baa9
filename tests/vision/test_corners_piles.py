"""vision.corners: an outline holding other cards' indices and none of its own is a pile.

On the poker-table hands bench an 8C and a 2C of a hand were found as one region by the
outline reader, and that region was read whole as a 4C, while both cards were read by
their own indices. A card's face prints only its own indices: the region's whole reading
is of no card of the pile and does not stand. A pile read as its top card keeps its reading
(that card's index shows on it), and a single misread pip pair on a card does not make it a
pile. Where the card a pile was read as lies whole at one end of it (a column's top card
whose own index was not read), the reading stands on that card's own outline.
"""

from __future__ import annotations

import numpy as np

from engine.cards import Card
from vision.classify import CardReading
from vision.corners import CornerProposal, CornerReading, piles_unread, top_card_within, with_corner_cards
from vision.geometry import side_lengths
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


def _no_top_card(_quad: np.ndarray, _name: Card) -> None:
    return None


def test_given_a_hand_read_whole_as_a_card_neither_index_names_when_settled_then_its_reading_is_taken_back() -> None:
    settled = piles_unread([_reading("8C", UNDER), _reading("2C", OVER)], _read_whole("4C"), _no_top_card)
    assert settled.label[0] is None
    assert np.array_equal(settled.quad_xy, PILE[None])  # the outline stays: something lies there


def test_given_a_pile_read_as_its_top_card_when_settled_then_the_reading_stands() -> None:
    whole = _read_whole("2C")
    settled = piles_unread([_reading("8C", UNDER), _reading("2C", OVER), _reading("9D", OUTSIDE)], whole,
                           _no_top_card)
    assert settled.label[0] == Card.parse("2C")


def test_given_one_other_index_or_others_outside_when_settled_then_the_card_keeps_its_reading() -> None:
    whole = _read_whole("4C")
    assert piles_unread([_reading("8C", UNDER)], whole, _no_top_card).label[0] == Card.parse("4C")
    settled = piles_unread([_reading("8C", UNDER), _reading("9D", OUTSIDE)], whole, _no_top_card)
    assert settled.label[0] == Card.parse("4C")


def test_given_the_twin_at_the_card_s_own_index_when_counted_then_it_is_no_card_of_a_pile() -> None:
    # the card's own top-left index with its small suit misread, and one other card's index
    whole = _read_whole("8S")
    assert piles_unread([_reading("8C", UNDER), _reading("2C", OVER)], whole, _no_top_card).label[0] == Card.parse("8S")


def test_given_a_pile_read_as_a_card_lying_whole_at_one_end_when_settled_then_it_stands_there() -> None:
    top = np.array([[100, 200], [400, 200], [400, 410], [100, 410]], np.float32)
    settled = piles_unread([_reading("8C", UNDER), _reading("2C", OVER)], _read_whole("4C"), lambda _q, _n: top)
    assert settled.label[0] == Card.parse("4C")
    assert np.array_equal(settled.quad_xy[0], top)


class _ReadsRed:
    """A classifier stand-in that reads the ace of hearts where the crop is red all over."""

    def classify(self, cards: list[np.ndarray]) -> list[CardReading]:
        red = [bool((c[..., 2] > 150).mean() > 0.95) for c in cards]
        return [CardReading(Card.parse("AH"), 0.99) if r else CardReading.unsure() for r in red]


def _column(across: bool) -> tuple[np.ndarray, np.ndarray]:
    """A picture of a column, 100 x 160 px: a strip of the cards under it, then its top card
    (100 x 140, red) at the far end; turned a quarter when ``across``. Its outline too."""
    bgr = np.full((300, 300, 3), 90, np.uint8)
    bgr[50:210, 60:160] = (200, 120, 40)  # the strip of the cards under it
    bgr[70:210, 60:160] = (40, 40, 220)  # the top card
    outline = np.array([[60, 50], [160, 50], [160, 210], [60, 210]], np.float32)
    if across:
        bgr = np.ascontiguousarray(np.rot90(bgr))  # (x, y) -> (y, 299 - x)
        outline = np.stack([outline[:, 1], 299 - outline[:, 0]], axis=1)
        outline = np.roll(outline, -1, axis=0)
    return bgr, outline


def test_given_a_column_s_outline_when_its_top_card_is_looked_for_then_its_own_outline_comes_back() -> None:
    for across in (False, True):
        bgr, outline = _column(across)
        top = top_card_within(_ReadsRed(), bgr, outline, Card.parse("AH"))
        assert top is not None, across
        width, height = side_lengths(top)[:2]
        assert abs(width - 100) < 2 and abs(height - 140) < 2, (across, top)  # upright: its width first
        assert top_card_within(_ReadsRed(), bgr, outline, Card.parse("AS")) is None  # read as another card


class _Reads:
    """A classifier stand-in whose corner reading is given (read_corners is replaced) and
    that reads no card whole."""

    def classify(self, cards: list[np.ndarray]) -> list[CardReading]:
        return [CardReading.unsure() for _ in cards]


def test_given_the_hand_through_with_corner_cards_when_read_then_the_two_cards_and_no_third(monkeypatch) -> None:
    import vision.corners as corners

    readings = [_reading("8C", UNDER), _reading("2C", OVER)]
    monkeypatch.setattr(corners, "read_corners", lambda *a, **k: readings)
    found = with_corner_cards(_Reads(), np.zeros((500, 600, 3), np.uint8), _read_whole("4C"))
    assert [c for c in found.label if c is not None] == [Card.parse("8C"), Card.parse("2C")]
