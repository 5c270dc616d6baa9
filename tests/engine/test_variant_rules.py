"""The variants' rules one id at a time (docs/rules-variants.md): the shoe and hands,
wikipedia's markers and expulsion, express's one-card turns."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from rulekit import RedOnly

from engine.cards import Card, all_kinds, parse_cards
from engine.errors import IllegalActionError, TokensMissing, TooManyCopies
from engine.events import Attempt, BecomeProphet, ProphetDecision
from engine.variants import new_round
from engine.variants.spec import VARIANT_SPECS


@pytest.mark.parametrize(("variant", "players", "decks", "hand"), [
    ("wikipedia", 3, 2, 14), ("wikipedia", 6, 2, 14), ("wikipedia", 7, 3, 14),  # WK1
    ("express", 3, 1, 12), ("express", 4, 2, 12), ("express", 7, 2, 12), ("express", 8, 3, 12),  # EX1
    ("abbott-1959", 3, 1, 17), ("abbott-1959", 4, 1, 12), ("abbott-1959", 8, 2, 12),  # AB1: the seed's 12 for 8
    ("kruskal", 5, 1, 0), ("howell", 8, 3, 14),  # KR1; Howell's C1, C3
])
def test_the_shoe_and_the_hand_of_each_variant(variant: str, players: int, decks: int, hand: int) -> None:
    spec = VARIANT_SPECS[variant]
    assert (spec.decks_for(players), spec.hand_for(players)) == (decks, hand)


def _reds() -> Iterator[Card]:
    reds = [c for c in all_kinds() if c.is_red] * 2  # two decks (WK1)
    reds.remove(Card.parse("2H"))  # the starter
    yield from reds


class _Table:
    """A wikipedia round of RedOnly with hands of 30 and a supply of red cards to lay."""

    def __init__(self) -> None:
        self.rnd = new_round(RedOnly(), "wikipedia", ["A", "B", "C"], parse_cards("2H"), hand_size=30)
        self.reds = _reds()
        self.black = iter(c for c in all_kinds() if not c.is_red)

    def lay(self, count: int, decision: ProphetDecision | None = None) -> None:
        player = self.rnd.whose_turn
        assert player is not None
        self.rnd.apply(Attempt(player, tuple(next(self.reds) for _ in range(count)), decision))

    def miss(self, decision: ProphetDecision | None = None) -> bool:
        player = self.rnd.whose_turn
        assert player is not None
        return self.rnd.apply(Attempt(player, (next(self.black),), decision)).expelled


def test_wk4_no_expulsion_at_howells_30_cards_but_after_the_fourth_white_marker() -> None:
    table = _Table()
    for _ in range(3):
        table.lay(9)
    table.lay(2)
    assert table.rnd.table_count == 30 and not table.rnd.expulsion_on  # Howell's E2 would expel here
    assert not table.miss()
    table.lay(8)
    assert table.rnd.table_count == 39 and not table.rnd.expulsion_on
    table.lay(1)
    assert table.rnd.table_count == 40 and table.rnd.expulsion_on  # the fourth white marker (WK3, WK4)
    assert table.miss()


def test_wk4_wk5_with_a_prophet_only_black_markers_count_until_the_prophet_falls() -> None:
    table = _Table()
    table.lay(9)  # B: 10 on the table
    table.rnd.apply(BecomeProphet("B"))  # the black marker after 10 cards
    right = ProphetDecision.agree()
    for _ in range(4):
        table.lay(9, right)  # C and A by turns
    assert table.rnd.table_count == 46 and not table.rnd.expulsion_on  # four white markers, but a prophet (WK3)
    assert not table.miss(ProphetDecision.reject())  # 47: the prophet is right, no expulsion
    table.lay(3, right)
    assert table.rnd.table_count == 50 and table.rnd.expulsion_on  # 40 after the marker: four black markers
    # the prophet wrongly accepts a wrong card: deposed, the black markers go (WK5) ...
    assert not table.miss(ProphetDecision.agree())  # and F5 spares the one who exposed them
    assert table.rnd.prophet is None and table.rnd.expulsion_on  # ... and the white ones count again


def test_ex2_ex3_ex4_express_refuses_chains_no_play_and_a_prophet() -> None:
    rnd = new_round(RedOnly(), "express", ["A", "B", "C"], parse_cards("2H"))
    with pytest.raises(IllegalActionError, match=r"one card \(EX2\)"):
        rnd.apply(Attempt("B", parse_cards("3H 4H")))
    rnd.apply(Attempt("B", parse_cards("3H")))
    with pytest.raises(IllegalActionError, match=r"express has no prophet \(EX4\)"):
        rnd.apply(BecomeProphet("B"))
    assert rnd.apply(Attempt("C", parse_cards("3S"))).penalty == 2  # EX6


def test_kr4_every_player_shows_one_token() -> None:
    from engine.events import OracleTurn

    rnd = new_round(RedOnly(), "kruskal", ["A", "B", "C"], parse_cards("2H"))
    with pytest.raises(IllegalActionError, match=r"two tokens from A") as doubled:
        rnd.apply(OracleTurn(Card.parse("3H"), (("A", True), ("A", False), ("B", True), ("C", True))))
    assert doubled.value.refusal == TokensMissing((), ("A",))  # a value, said in each language
    with pytest.raises(IllegalActionError) as missing:
        rnd.apply(OracleTurn(Card.parse("3H"), (("A", True), ("B", True))))
    assert missing.value.refusal == TokensMissing(("C",), ())
    with pytest.raises(IllegalActionError) as copies:  # KR1: one deck
        rnd.apply(OracleTurn(Card.parse("2H"), (("A", True), ("B", True), ("C", True))))
    assert copies.value.refusal == TooManyCopies(Card.parse("2H"), 2, 1)
