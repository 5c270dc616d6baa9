"""The rule checker (R1 and the fairness bound of seeds/003)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine.cards import Card
from engine.rules import FAIRNESS_MIN_KINDS, check_rule, parse_rule


@pytest.mark.parametrize(("text", "problem"), [
    ("card.rank > prev.rank", "unfair: only 0 of 52 kinds are legal after KC"),
    ("card.rank == 1", "unfair: only 4 of 52 kinds"),
    ("card.rank == prev.rank", "unfair: only 4 of 52 kinds"),
    ("false", "unfair: only 0 of 52 kinds"),
    ("true", "accepts everything"),
    ("start: card.red; true", "accepts everything"),  # the starter is dealt, not played
    ("card.rank > 0 or prev.red", "accepts everything"),
    ("prev(2).red != card.red", "cannot decide AC after AC: prev(2) does not exist at position 1"),
    ("start: false; true", "accepts nothing: no card may start the line"),
    ("start 2: pos == 0 and card.red; card.black", "the starting sequence cannot be completed after AD"),
    ("start: prev.red; true", "cannot decide AC after (empty line): prev does not exist at position 0"),
    # unfair only deep in the line: the adversarial walks find it
    ("count(line, each.red) < 8 or card.rank == 5", "unfair: only 4 of 52 kinds"),
    ("if pos mod 7 == 6 then card == KS or card == QH else card.red or card.black", "unfair: only 2 of 52"),
])
def test_checker_rejects_a_bad_rule(text: str, problem: str) -> None:
    # given a rule that is unfair, undecided, or accepts everything/nothing, when checked, then it is rejected
    report = check_rule(parse_rule(text))
    assert not report.ok
    assert any(problem in p for p in report.problems), report.problems


@pytest.mark.parametrize(("text", "min_legal", "max_legal"), [
    ("if prev.red then card.black else card.red", 26, 26),
    ("card.suit == next(prev.suit)", 13, 13),
    ("card.rank - prev.rank in 1..3 mod 13", 12, 12),
    ("card.suit != prev.suit", 39, 39),
    ("if prev.face then card.rank in A..10 else card.rank > prev.rank", 12, 48),  # after 10: J Q K
    ("card.rank == prev.rank or card.red", 28, 28),  # 26 red + the 2 black cards of the same rank
])
def test_checker_accepts_a_fair_rule_and_measures_it(text: str, min_legal: int, max_legal: int) -> None:
    # given a fair rule, when checked, then it passes and the fewest/most kinds legal are the true ones
    report = check_rule(parse_rule(text))
    assert report.ok, report.summary()
    assert (report.min_legal, report.max_legal) == (min_legal, max_legal)
    assert min_legal <= report.mean_legal <= max_legal
    assert report.first_cards == 52


def test_report_names_the_worst_line() -> None:
    # given higher-unless-face, when checked, then the worst line ends with a 10 (only J, Q, K follow)
    report = check_rule(parse_rule("if prev.face then card.rank in A..10 else card.rank > prev.rank"))
    assert report.worst_line[-1].rank == 10
    assert "most restrictive line found:" in report.summary()
    assert report.min_fraction == pytest.approx(12 / 52)


def test_checker_is_deterministic_for_a_seed() -> None:
    # given the same rule and seed, when checked twice, then the reports are equal
    text = "pos < 2 or card.rank + prev.rank + prev(2).rank == 0 mod 3"
    assert check_rule(parse_rule(text), seed=7) == check_rule(parse_rule(text), seed=7)


def test_fairness_bound_is_ten_kinds_and_can_be_changed() -> None:
    # given a rule leaving exactly 12 kinds, when the bound is 10 it passes, when 13 it fails
    rule = parse_rule("card.rank - prev.rank in 1..3 mod 13")
    assert FAIRNESS_MIN_KINDS == 10
    assert check_rule(rule).ok
    assert not check_rule(rule, min_kinds=13).ok


class _Flaky:
    """A hand-written Rule (not from the language) that answers differently each time."""

    text = "flaky"
    starter_count = 1

    def __init__(self) -> None:
        self.calls = 0

    def legal(self, line: Sequence[Card], card: Card) -> bool:
        self.calls += 1
        return card.is_red != (self.calls % 2 == 0) if line else True


class _Sloppy:
    text = "sloppy"
    starter_count = 1

    def legal(self, line: Sequence[Card], card: Card) -> bool:
        return 1 if line and card.is_red else 0  # type: ignore[return-value]


class _Crashing:
    text = "crashing"
    starter_count = 1

    def legal(self, line: Sequence[Card], card: Card) -> bool:
        return line[-1].rank // (card.rank - 5) > 0 if line else True


@pytest.mark.parametrize(("rule", "problem"), [
    (_Flaky(), "ambiguous: two different answers"),
    (_Sloppy(), "answers 0 (not True/False)"),
    (_Crashing(), "ZeroDivisionError"),
])
def test_checker_rejects_hand_written_rules_that_do_not_decide(rule: object, problem: str) -> None:
    # given a Rule written in Python that is ambiguous, sloppy or crashes, when checked, then it is rejected
    report = check_rule(rule)  # type: ignore[arg-type]
    assert not report.ok
    assert any(problem in p for p in report.problems), report.problems


def test_checker_takes_a_library_id_or_a_text() -> None:
    # given an id and the same rule as text, when checked, then the reports agree
    by_id = check_rule("suit-cycle")
    by_text = check_rule("card.suit == next(prev.suit)")
    assert by_id.ok and (by_id.min_legal, by_id.max_legal) == (by_text.min_legal, by_text.max_legal) == (13, 13)


@pytest.mark.parametrize(("text", "exhaustive", "min_legal", "max_legal"), [
    ("card.red or card.face", True, 32, 32),  # looks at no earlier card
    ("card.suit != prev.suit", True, 39, 39),  # the last card: 52 situations
    ("start 2: true; card.rank != prev.rank or card.rank != prev(2).rank", True, 48, 52),  # the last two
    ("pos < 2 or card.suit == prev(2).suit", False, 13, 52),  # pos: sampled
])
def test_rules_that_look_at_the_last_cards_only_are_explored_exhaustively(
        text: str, exhaustive: bool, min_legal: int, max_legal: int) -> None:
    # given a rule looking at the last 0-2 cards only, when checked, then every reachable history is judged
    report = check_rule(text)
    assert report.exhaustive is exhaustive
    assert (report.min_legal, report.max_legal) == (min_legal, max_legal)
    assert ("every reachable history" in report.summary()) is exhaustive
