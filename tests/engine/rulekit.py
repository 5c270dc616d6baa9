"""Small secret rules written directly against the Rule protocol (engine/rules/base.py).

They let the round's tests say exactly which cards are legal, independently of the rule
language. ``AlternateColour`` is the worked example's rule (docs/rules.md, "The worked example").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.cards import Card, Suit, parse_cards
from engine.round import Round
from engine.rules.base import Rule


@dataclass(frozen=True)
class AlternateColour:
    """After a red card only black, after a black card only red; any card starts."""

    text: str = "alternate-colour"
    starter_count: int = 1

    def legal(self, line: Sequence[Card], card: Card) -> bool:
        return not line or line[-1].is_red != card.is_red


@dataclass(frozen=True)
class AnyCard:
    """Every card is legal."""

    text: str = "any card"
    starter_count: int = 1

    def legal(self, line: Sequence[Card], card: Card) -> bool:
        return True


@dataclass(frozen=True)
class RedOnly:
    """Only red cards, from the first one on (C4: black starters go back)."""

    text: str = "red only"
    starter_count: int = 1

    def legal(self, line: Sequence[Card], card: Card) -> bool:
        return card.is_red


@dataclass(frozen=True)
class PairStart:
    """The line starts with two cards of the same rank, then any card of another rank."""

    text: str = "pair start"
    starter_count: int = 2

    def legal(self, line: Sequence[Card], card: Card) -> bool:
        if len(line) == 1:
            return card.rank == line[0].rank
        return not line or card.rank != line[-1].rank


@dataclass(frozen=True)
class Predicate:
    """A rule from a function of (line, card), for one-off tests."""

    test: Callable[[Sequence[Card], Card], bool]
    text: str = "predicate"
    starter_count: int = 1

    def legal(self, line: Sequence[Card], card: Card) -> bool:
        return self.test(line, card)


RULES_BY_ID: dict[str, Rule] = {"alternate-colour": AlternateColour(), "any": AnyCard(), "red-only": RedOnly(), "pair-start": PairStart()}


def resolve(text: str) -> Rule:
    """A stand-in for engine.rules.resolve_rule over this kit's rules."""
    try:
        return RULES_BY_ID[text]
    except KeyError:
        raise ValueError(f"unknown rule {text!r}") from None


_REDS = tuple(Card(rank, suit) for suit in (Suit.HEARTS, Suit.DIAMONDS) for rank in range(1, 14))
_BLACKS = tuple(Card(rank, suit) for suit in (Suit.CLUBS, Suit.SPADES) for rank in range(1, 14))


def alternating(count: int, first_red: bool, offset: int = 0) -> tuple[Card, ...]:
    """``count`` cards alternating in colour, each kind at most once per 26 of a colour.

    >>> [str(c) for c in alternating(4, True)]
    ['AH', 'AC', '2H', '2C']
    """
    out = []
    for i in range(count):
        red = (i % 2 == 0) == first_red
        pool = _REDS if red else _BLACKS
        out.append(pool[(offset + i // 2) % 26])
    return tuple(out)


def new_round(
    start: str = "KH",
    players: Sequence[str] = ("Ana", "Bo", "Cy"),
    rule: Rule | None = None,
    hand: int = 14,
    decks: int = 3,
) -> Round:
    """A round with AlternateColour by default; with 3 players a KH start seats Ana first (C5)."""
    return Round.new(rule or AlternateColour(), list(players), parse_cards(start), hand_size=hand, decks=decks)


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


class CardSource:
    """Hands out red and black cards round-robin over the 26 kinds of each colour, so a
    long test round never shows a 4th copy (C1) unless it means to."""

    def __init__(self) -> None:
        self._next = {True: 0, False: 0}

    def card(self, red: bool) -> Card:
        pool = _REDS if red else _BLACKS
        i = self._next[red]
        self._next[red] = i + 1
        return pool[(i * 7) % 26]  # 7 is prime to 26: every kind once per 26 draws

    def chain(self, count: int, first_red: bool) -> tuple[Card, ...]:
        """``count`` cards alternating in colour, starting with ``first_red``."""
        return tuple(self.card((i % 2 == 0) == first_red) for i in range(count))

    def legal_chain(self, rnd: Round, count: int) -> tuple[Card, ...]:
        """A chain AlternateColour accepts after ``rnd``'s line."""
        return self.chain(count, not rnd.line[-1].is_red)

    def wrong(self, rnd: Round, count: int = 1) -> tuple[Card, ...]:
        """An attempt AlternateColour rejects after ``rnd``'s line: same colour as the end."""
        return tuple(self.card(rnd.line[-1].is_red) for _ in range(count))

    def hand(self, count: int, red: bool) -> tuple[Card, ...]:
        return tuple(self.card(red) for _ in range(count))
