"""Cards and the shoe (C1)."""

import pytest

from engine.cards import Card, CardParseError, Colour, Suit, copies_over_shoe, parse_cards, shoe


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("7H", 7, Suit.HEARTS),
        ("10H", 10, Suit.HEARTS),
        ("TH", 10, Suit.HEARTS),
        ("QD", 12, Suit.DIAMONDS),
        ("7♥", 7, Suit.HEARTS),
        ("q♦", 12, Suit.DIAMONDS),
        ("as", 1, Suit.SPADES),
        (" kc ", 13, Suit.CLUBS),
    ],
)
def test_parse_accepts_the_usual_spellings(text: str, rank: int, suit: Suit) -> None:
    card = Card.parse(text)
    assert (card.rank, card.suit) == (rank, suit)


@pytest.mark.parametrize(("text", "canonical"), [("th", "10H"), ("q♦", "QD"), ("a♠", "AS"), ("10c", "10C")])
def test_prints_canonical_form_and_repr_round_trips(text: str, canonical: str) -> None:
    card = Card.parse(text)
    assert str(card) == canonical
    assert eval(repr(card), {"Card": Card}) == card


@pytest.mark.parametrize("text", ["1X", "1H", "11H", "", "H", "QQ", "0S", "14C", "7HH"])
def test_rejects_non_cards_quoting_the_input(text: str) -> None:
    with pytest.raises(CardParseError, match=repr(text).replace("[", r"\[")):
        Card.parse(text)


def test_card_parse_error_is_a_value_error() -> None:
    assert issubclass(CardParseError, ValueError)


def test_properties_colour_parity_face() -> None:
    assert Card.parse("7H").colour is Colour.RED and Card.parse("7S").colour is Colour.BLACK
    assert Card.parse("QD").is_even and not Card.parse("KD").is_even and not Card.parse("AD").is_even
    assert [c.is_face for c in parse_cards("10S JS QS KS")] == [False, True, True, True]


def test_index_round_trip_covers_52_kinds() -> None:
    assert {Card.from_index(i).index for i in range(52)} == set(range(52))


def test_suit_cycle_goes_c_d_h_s() -> None:
    assert [s.next() for s in Suit] == [Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES, Suit.CLUBS]


def test_shoe_has_three_decks_by_default() -> None:
    cards = shoe()
    assert len(cards) == 156 and cards.count(Card.parse("7H")) == 3
    assert len(shoe(1)) == 52


def test_copies_over_shoe_flags_a_fourth_copy_only() -> None:
    assert copies_over_shoe(parse_cards("7H 7H 7H")) == {}
    assert copies_over_shoe(parse_cards("7H 7H 7H 7H 2C")) == {Card.parse("7H"): 4}
    assert copies_over_shoe(parse_cards("7H 7H"), decks=1) == {Card.parse("7H"): 2}
