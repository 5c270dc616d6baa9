"""The rule library (R1): each rule judged on sequences checked by hand."""

from __future__ import annotations

import pytest

from engine.cards import Card, all_kinds, parse_cards
from engine.rules import LIBRARY, TIERS, check_rule, resolve_rule
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
    ("different-suit", "2C", "5C", False),
    ("different-suit", "2C", "5D", True),
    ("same-suit-or-rank", "2C", "9C", True),
    ("same-suit-or-rank", "2C", "2H", True),
    ("same-suit-or-rank", "2C", "3D", False),
    ("red-or-face", "2C", "3D", True),
    ("red-or-face", "2C", "QS", True),
    ("red-or-face", "2C", "10S", False),
    ("even-red-odd-black", "2C", "4H", True),
    ("even-red-odd-black", "2C", "4S", False),
    ("even-red-odd-black", "2C", "KS", True),
    ("even-red-odd-black", "2C", "KD", False),
    ("prime-or-face", "2C", "QH", True),
    ("prime-or-face", "2C", "AH", False),
    ("prime-or-face", "2C", "9H", False),
    ("prime-or-face", "2C", "7H", True),
    ("no-face-after-face", "JC", "QH", False),
    ("no-face-after-face", "JC", "10H", True),
    ("no-face-after-face", "10C", "QH", True),
    ("colour-by-position", "2C", "5S", True),        # position 1: black
    ("colour-by-position", "2C", "5H", False),
    ("colour-by-position", "2C 5S", "9D", True),     # position 2: red
    ("colour-by-position", "2C 5S", "9C", False),
    ("different-suit-and-parity", "2C", "3D", True),
    ("different-suit-and-parity", "2C", "3C", False),
    ("different-suit-and-parity", "2C", "4D", False),
    ("different-suit-and-parity", "KH", "QS", True),
    ("within-2", "5C", "7D", True),
    ("within-2", "5C", "8D", False),
    ("within-2", "5C", "3D", True),
    ("within-2", "5C", "2D", False),
    ("within-2", "5C", "5H", True),
    ("within-2", "KC", "2D", True),                  # K, A, 2
    ("within-2", "AC", "QD", True),                  # A, K, Q
    ("within-2", "AC", "JD", False),
    ("prime-alternate", "2C", "4H", True),
    ("prime-alternate", "2C", "3H", False),
    ("prime-alternate", "4C", "JH", True),
    ("prime-alternate", "AC", "QH", False),          # A and Q are not prime
    ("same-colour-or-higher", "5H", "2D", True),
    ("same-colour-or-higher", "5H", "6S", True),
    ("same-colour-or-higher", "5H", "4S", False),
    ("same-colour-or-higher", "KS", "AC", True),
    ("face-odd-else-red", "JC", "3S", True),
    ("face-odd-else-red", "JC", "4H", False),
    ("face-odd-else-red", "10C", "4H", True),
    ("face-odd-else-red", "10C", "5S", False),
    ("every-third-face", "2C 3C 4C", "JH", True),    # position 3
    ("every-third-face", "2C 3C 4C", "10H", False),
    ("every-third-face", "2C 3C", "JH", False),      # position 2
    ("every-third-face", "2C 3C", "AH", True),
    ("suit-by-position", "2C", "9D", True),          # position 1: diamonds
    ("suit-by-position", "2C", "9C", False),
    ("suit-by-position", "2C 3D 4H 5S", "6C", True),  # position 4: clubs
    ("colour-pairs", "2C", "5S", True),              # position 1 pairs with 0
    ("colour-pairs", "2C", "5H", False),
    ("colour-pairs", "2C 5S", "9H", True),           # position 2 starts a new pair
    ("colour-pairs", "2C 5S", "9C", False),
    ("colour-pairs", "2C 5S 9H", "KD", True),
    ("no-three-of-a-colour", "2C 5S", "8C", False),
    ("no-three-of-a-colour", "2C 5S", "8H", True),
    ("no-three-of-a-colour", "2H 5S", "8S", True),
    ("no-three-of-a-colour", "2C", "8S", True),
    ("same-suit-as-two-back", "2C", "9H", True),     # the second card is free
    ("same-suit-as-two-back", "2C 9H", "5C", True),
    ("same-suit-as-two-back", "2C 9H", "5H", False),
    ("three-of-a-colour", "2C", "5S", True),
    ("three-of-a-colour", "2C 5S", "7C", True),
    ("three-of-a-colour", "2C 5S", "7D", False),
    ("three-of-a-colour", "2C 5S 7C", "8H", True),   # position 3 changes colour
    ("three-of-a-colour", "2C 5S 7C", "8S", False),
    ("red-up-black-down", "5H", "JC", True),         # 6 up
    ("red-up-black-down", "5H", "QC", False),        # 7 up
    ("red-up-black-down", "5H", "5C", False),
    ("red-up-black-down", "5S", "4D", True),         # 1 down
    ("red-up-black-down", "5S", "KD", True),         # 5, 4, 3, 2, A, K: 5 down
    ("red-up-black-down", "5S", "QD", True),         # 6 down
    ("red-up-black-down", "5S", "JD", False),        # 7 down
    ("colour-xor-higher", "5H", "9D", False),        # both
    ("colour-xor-higher", "5H", "2D", True),
    ("colour-xor-higher", "5H", "9S", True),
    ("colour-xor-higher", "5H", "2S", False),        # neither
    ("sum-of-three-mod-3", "2C", "5D", True),        # the second card is free
    ("sum-of-three-mod-3", "2C 4S", "3D", True),     # 2 + 4 + 3 = 9
    ("sum-of-three-mod-3", "2C 4S", "4D", False),    # 10
    ("sum-of-three-mod-3", "KC QC", "2D", True),     # 13 + 12 + 2 = 27
    ("fresh-rank", "2C 5H 9S 3D", "2D", True),
    ("fresh-rank", "2C 5H 9S 3D", "9C", False),
    ("fresh-rank", "2C", "2D", False),
    ("balance-colours", "2C 5S", "9H", True),        # more black: red
    ("balance-colours", "2C 5S", "9C", False),
    ("balance-colours", "2C 5H", "9C", True),        # a tie: anything
    ("balance-colours", "2C 5H", "9H", True),
    ("balance-colours", "2H 5H 7C", "9C", True),     # more red: black
    ("balance-colours", "2H 5H 7C", "9D", False),
    ("starter-cdh", "", "5C", True),
    ("starter-cdh", "", "5D", False),
    ("starter-cdh", "5C", "9D", True),
    ("starter-cdh", "5C", "9H", False),
    ("starter-cdh", "5C 9D", "2H", True),
    ("starter-cdh", "5C 9D", "2S", False),
    ("starter-cdh", "5C 9D 2H", "3S", True),
    ("starter-cdh", "5C 9D 2H", "3C", True),
    ("starter-cdh", "5C 9D 2H", "3D", False),
    ("starter-cdh", "5C 9D 2H", "3H", False),
    ("starter-ace-two", "", "AS", True),
    ("starter-ace-two", "", "2S", False),
    ("starter-ace-two", "AS", "2D", True),
    ("starter-ace-two", "AS", "3D", False),
    ("starter-ace-two", "AS 2D", "5C", True),
    ("starter-ace-two", "AS 2D", "5H", False),
]


@pytest.mark.parametrize(("rule_id", "line", "card", "expected"), CASES)
def test_library_rule_judges_hand_checked_case(rule_id: str, line: str, card: str, expected: bool) -> None:
    # given a library rule and a line, when a card is tried, then the verdict is the hand-checked one
    rule = LIBRARY[rule_id].rule
    assert rule.legal(parse_cards(line), Card.parse(card)) is expected


# (rule id, a whole main line that the rule accepts card by card) -- checked by hand
WHOLE_LINES = [
    ("alternate-colour", "7H 4C 9H QS 2D AC"),
    ("suit-cycle", "KS 2C 9D 4H AS JC"),
    ("parity-alternate", "AH 2C KD QS 3H 10C"),
    ("low-high", "3H 9C AD KS 7H 8C"),
    ("step-up-1-3", "JD KS AH 4C 5C 7D"),
    ("parity-colour", "2C 5H QS 9D 3C 4S"),
    ("rank-mod-4-suit", "4S 7C 8S 2C 6H 9H"),
    ("higher-unless-face", "3C 7D JS 2H 9C QD 10C"),
    ("starter-cdh", "9C 3D QH AS 7C 4H"),
    ("three-of-a-colour", "KH 2D 9H 4C 8S AC 3D"),
]


@pytest.mark.parametrize(("rule_id", "cards"), WHOLE_LINES)
def test_library_rule_accepts_hand_checked_line(rule_id: str, cards: str) -> None:
    # given a line built by hand to follow the rule, when each card is tried after the ones before,
    # then each is legal
    rule = LIBRARY[rule_id].rule
    line = parse_cards(cards)
    for i, card in enumerate(line):
        assert rule.legal(line[:i], card), f"{card} after {line[:i]}"


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


def test_every_library_rule_has_hand_checked_cases() -> None:
    # given the table of hand-checked cases, then each library rule appears with a legal and an illegal card
    for rule_id in LIBRARY:
        verdicts = {expected for rid, _, _, expected in CASES if rid == rule_id}
        assert verdicts == {True, False}, f"{rule_id} lacks hand-checked cases"


@pytest.mark.parametrize("rule_id", sorted(LIBRARY))
def test_library_rule_passes_the_checker(rule_id: str) -> None:
    # given a library rule, when checked, then it is fair: it decides everything and keeps 10+ kinds legal
    report = check_rule(LIBRARY[rule_id].rule, walks=12, adversarial=2)
    assert report.ok, report.summary()
    assert report.min_legal >= 10


def test_library_entries_are_complete() -> None:
    # given the library, then each entry has a one-line description and a source, and its id is its key
    for rule_id, entry in LIBRARY.items():
        assert entry.id == rule_id
        assert entry.description and "\n" not in entry.description
        assert entry.source
        assert entry.rule.text == entry.text
