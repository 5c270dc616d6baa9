"""Small secret rules written directly against the Rule protocol (engine/rules/base.py).

They let the round's tests say exactly which cards are legal, independently of the rule
language. ``AlternateColour`` is the worked example's rule (RULES.md, seed section 11).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.cards import Card


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


RULES_BY_ID = {"alternate-colour": AlternateColour(), "any": AnyCard(), "red-only": RedOnly(), "pair-start": PairStart()}


def resolve(text: str) -> AlternateColour | AnyCard | RedOnly | PairStart:
    """A stand-in for engine.rules.resolve_rule over this kit's rules."""
    try:
        return RULES_BY_ID[text]
    except KeyError:
        raise ValueError(f"unknown rule {text!r}") from None
