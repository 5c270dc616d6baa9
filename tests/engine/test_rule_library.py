"""The rule library (R1): each rule judged on sequences checked by hand."""

from __future__ import annotations

import pytest

from engine.cards import Card, all_kinds, parse_cards
from engine.rules import LIBRARY, TIERS, resolve_rule
from engine.rules.base import Rule

MANDATORY = ("alternate-colour", "suit-cycle", "parity-alternate", "low-high", "step-up-1-3",
             "parity-colour", "rank-mod-4-suit", "higher-unless-face")

# (rule id, line so far, card tried, legal?) -- each row worked out by hand from the description.
CASES = [
    ("alternate-colour", "7H", "4C", True),
    ("alternate-colour", "7H", "QD", False),
    ("alternate-colour", "7H 4C", "9H", True),
    ("alternate-colour", "4C", "KS", False),
    ("suit-cycle", "2C", "9D", True),
    ("suit-cycle", "2D", "KH", True),
    ("suit-cycle", "2H", "AS", True),
    ("suit-cycle", "2S", "5C", True),
    ("suit-cycle", "2S", "5D", False),
    ("suit-cycle", "2C", "2C", False),
    ("parity-alternate", "AH", "2C", True),     # A=1 odd, then even
    ("parity-alternate", "JH", "QC", True),     # J=11 odd, Q=12 even
    ("parity-alternate", "QH", "KC", True),     # Q=12 even, K=13 odd
    ("parity-alternate", "KH", "AC", False),    # odd after odd
    ("parity-alternate", "10H", "4D", False),
    ("low-high", "7S", "8S", True),
    ("low-high", "AS", "KD", True),
    ("low-high", "7S", "7D", False),
    ("low-high", "8S", "7D", True),
    ("low-high", "KS", "AC", True),
    ("low-high", "8C", "QH", False),
    ("step-up-1-3", "5C", "6C", True),
    ("step-up-1-3", "5C", "8H", True),
    ("step-up-1-3", "5C", "9H", False),
    ("step-up-1-3", "5C", "5D", False),
    ("step-up-1-3", "5C", "4D", False),
    ("step-up-1-3", "KC", "AS", True),          # round from K to A
    ("step-up-1-3", "JC", "AS", True),          # J, Q, K, A: three up
    ("step-up-1-3", "QC", "3D", False),         # Q, K, A, 2, 3: four up
    ("step-up-1-3", "QC", "2D", True),
    ("parity-colour", "2C", "5H", True),
    ("parity-colour", "2C", "5S", False),
    ("parity-colour", "QS", "KD", True),         # Q=12 even: red
    ("parity-colour", "KD", "AS", True),         # K=13 odd: black
    ("parity-colour", "AD", "3H", False),
    ("rank-mod-4-suit", "4H", "9C", True),       # 4 mod 4 = 0: clubs
    ("rank-mod-4-suit", "AH", "9D", True),       # 1: diamonds
    ("rank-mod-4-suit", "10S", "9H", True),      # 10 mod 4 = 2: hearts
    ("rank-mod-4-suit", "JC", "9S", True),       # 11 mod 4 = 3: spades
    ("rank-mod-4-suit", "KC", "9D", True),       # 13 mod 4 = 1: diamonds
    ("rank-mod-4-suit", "QC", "9D", False),      # 12 mod 4 = 0: clubs only
    ("rank-mod-4-suit", "3C", "3C", False),      # 3: spades only
    ("higher-unless-face", "5D", "6D", True),
    ("higher-unless-face", "5D", "5S", False),
    ("higher-unless-face", "5D", "4S", False),
    ("higher-unless-face", "10D", "JS", True),
    ("higher-unless-face", "JD", "AS", True),    # after a face card any A-10
    ("higher-unless-face", "JD", "10S", True),
    ("higher-unless-face", "KD", "QS", False),   # after a face card no face card
    ("higher-unless-face", "QD", "KS", False),
]


@pytest.mark.parametrize(("rule_id", "line", "card", "expected"), CASES)
def test_library_rule_judges_hand_checked_case(rule_id: str, line: str, card: str, expected: bool) -> None:
    # given a library rule and a line, when a card is tried, then the verdict is the hand-checked one
    rule = LIBRARY[rule_id].rule
    assert rule.legal(parse_cards(line), Card.parse(card)) is expected


@pytest.mark.parametrize("rule_id", MANDATORY)
def test_mandatory_rule_lets_any_single_card_start(rule_id: str) -> None:
    # given one of the eight rules, when the line is empty, then every card may start it (C4)
    rule = resolve_rule(rule_id)
    assert rule.starter_count == 1
    assert all(rule.legal((), card) for card in all_kinds())


def test_library_has_thirty_rules_in_every_tier() -> None:
    # given the library, then it holds 30+ rules, each tier used, each a Rule (R1)
    assert len(LIBRARY) >= 30
    assert {r.tier for r in LIBRARY.values()} == set(TIERS)
    assert all(isinstance(r.rule, Rule) for r in LIBRARY.values())
    assert set(MANDATORY) <= set(LIBRARY)


def test_library_has_a_rule_with_a_starting_sequence() -> None:
    # given the library, then at least one rule fixes a starting sequence of several cards (C4)
    assert any(r.rule.starter_count > 1 for r in LIBRARY.values())
