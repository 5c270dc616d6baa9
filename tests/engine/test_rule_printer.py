"""The rule printer: parse -> print -> parse gives the same tree (STYLE: every text format
has a parser and a printer, tested by round trip)."""

from __future__ import annotations

import doctest
from dataclasses import fields, is_dataclass
from typing import Any

import pytest
from test_rule_language import SEMANTICS

import engine.rules.printer
from engine.rules import LIBRARY
from engine.rules.parser import parse
from engine.rules.printer import format_rule
from engine.rules.tree import RuleTree


def shape(value: Any) -> Any:
    """A tree without its positions, for comparing trees parsed from different texts."""
    if isinstance(value, tuple):
        return tuple(shape(v) for v in value)
    if is_dataclass(value):
        return (type(value).__name__,) + tuple(
            shape(getattr(value, f.name)) for f in fields(value) if f.name not in ("line", "column"))
    return value


TRICKY = [
    "card.rank == (prev.rank mod 13)",          # a remainder on the right, not a congruence
    "card.rank == prev.rank + 1 mod 13",         # a congruence
    "card.rank mod 3 == prev.rank mod 5",        # both: a remainder on the left, a congruence
    "(card.rank + prev.rank).odd",
    "not (card.red and card.face) or card.black",
    "not card.red and card.face",
    "-(-prev.rank) == 1",
    "card.rank - (prev.rank - 1) > 0",
    "card.rank - prev.rank - 1 > 0",
    "(if card.red then 1 else 2) == 1",
    "if if card.red then card.face else card.odd then true else if prev.red then card.black else false",
    "if card.red then if prev.red then card.face else card.odd else card.even",
    "card.rank == 1 mod (2 + 3)",
    "card.rank in {1, 2..3, -1, prev.rank % 4}",
    "card.rank not in (prev.rank mod 5)..K mod 13",
    "card.red xor (card.face xor card.odd)",
    "(card.red or card.face) and card.odd",
    "card == QH or card.suit == ♥ or card.rank == king",
    "sum(last(min(pos, 3)), each.rank * 2) == 0 mod 4",
    "line[-2].suit == line[0].suit and prev(pos).red",
    "start 3: card.suit == suit(pos); card.suit != prev.suit",
    "start: card.red\ncard.black",
]
TEXTS = [e.text for e in LIBRARY.values()] + [row[0] for row in SEMANTICS] + TRICKY


@pytest.mark.parametrize("text", TEXTS)
def test_printed_rule_parses_back_to_the_same_tree(text: str) -> None:
    # given a rule text, when parsed, printed and parsed again, then the trees agree and printing is stable
    tree = parse(text)
    printed = format_rule(tree)
    again = parse(printed)
    assert isinstance(again, RuleTree)
    assert shape(again) == shape(tree), printed
    assert format_rule(again) == printed


def test_printer_doctests() -> None:
    assert doctest.testmod(engine.rules.printer).failed == 0
