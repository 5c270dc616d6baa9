"""Limits that keep every rule and record cheap (issue 9): what they refuse, with what
message, and that what they let through costs little memory and bounded work."""

from __future__ import annotations

import tracemalloc

import pytest

from engine.cards import Card, parse_cards
from engine.errors import RecordError
from engine.judging import judge_text
from engine.record import MAX_LINE_CHARS, parse_record
from engine.rules import LIBRARY, RuleSyntaxError, check_rule, parse_rule, resolve_rule
from engine.rules.checker import MAX_STEPS
from engine.rules.compiler import _is_prime
from engine.rules.language import MAX_VISITS

HEAD = "players: Ana Bo Cy\nrule: alternate-colour\nstart: KH\n"


@pytest.mark.parametrize(("text", "message"), [
    ("card.rank in 1..10000", "line 1, column 17: the number '10000' is larger than anything cards can count to"),
    ("card.rank == 0000000000007", None),  # leading zeros are not size
    ("card.rank == " + "9" * 5000, "line 1, column 14: the number '999999999999'... (5000 characters)"),
    ("card.red or " + "1" * 30 + "H", "line 1, column 13: '111111111111'... (31 characters) is neither"),
    ("card.red # " + "x" * 10_000, "line 1, column 10001: the rule is too long: 10011 characters"),
    (" + ".join(["count(line, sum(line, each.rank) > 3)"] * 12) + " > 0", "the rule is too costly"),
    ("count(line, any(line, each.rank == card.rank)) > 2 or card.red", None),  # two deep stays allowed
    (" + ".join(["count(line, sum(line, each.rank) > 3)"] * 3) + " > 0 or card.red",
     "line 1, column 1: the rule is too costly: one decision on a line of 40 cards takes about 10093 steps"),
])
def test_rule_limits(text: str, message: str | None) -> None:
    if message is None:
        parse_rule(text)
        return
    with pytest.raises(RuleSyntaxError) as caught:
        parse_rule(text)
    assert message in str(caught.value)


def test_a_constant_range_is_never_built() -> None:
    # given the widest range a rule may write, when compiled and judged, then it costs no memory
    tracemalloc.start()
    rule = parse_rule("card.rank in 1..9999 and card.rank not in {5, 7..8} and pos in 0..9999 mod 9999")
    verdicts = [rule.legal(parse_cards("2C 3D"), Card.parse(c)) for c in ("4H", "5H", "8S", "9S")]
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert verdicts == [True, False, False, True]
    assert peak < 200_000


def test_negative_constant_ranges_judge_like_numbers() -> None:
    rule = parse_rule("card.rank - prev.rank in -2..2")
    assert [rule.legal(parse_cards("7C"), Card.parse(c)) for c in ("4H", "5H", "9S", "10S")] == [
        False, True, True, False]


def test_prime_agrees_with_a_sieve_and_stays_fast_on_huge_numbers() -> None:
    limit = 1_100_000  # both sides of the switch from trial division to Miller-Rabin
    sieve = bytearray([1]) * limit
    sieve[0:2] = b"\0\0"
    for i in range(2, int(limit ** 0.5) + 1):
        if sieve[i]:
            sieve[i * i::i] = bytearray(len(sieve[i * i::i]))
    assert all(_is_prime(n) == bool(sieve[n]) for n in range(999_000, limit))
    assert _is_prime(2 ** 61 - 1) and not _is_prime(2 ** 61 + 1)  # Mersenne prime, and 3 divides the other
    assert _is_prime(1_000_000_007) and not _is_prime(1_000_000_007 * 998_244_353)
    rule = parse_rule("(card.rank * 9999 * 9999 * 9999 * 9999 + 1).prime or card.red")
    assert rule.legal((), Card.parse("AC")) in (True, False)


def test_a_costly_rule_is_checked_within_the_step_budget() -> None:
    # given a rule at the cost limit, when checked, then the checker stops at its budget and says so
    report = check_rule("count(line, sum(line, each.rank) > 3) > 0 or card.red")
    assert report.cut_short
    assert "the checker stopped early" in report.summary()
    assert report.lines_explored < 2063  # what a cheap rule gets
    cheap = check_rule("count(line, each.red) < 8 or card.rank > 4")
    assert not cheap.cut_short


def test_no_library_rule_comes_near_the_limits() -> None:
    for entry in LIBRARY.values():
        rule = entry.rule
        assert rule.cost(40) * 4 < MAX_VISITS, entry.id
    assert MAX_STEPS >= 40_000_000


def test_a_record_line_of_millions_of_cards_is_refused_before_it_is_split() -> None:
    text = HEAD + "Ana: play " + "7H " * 12_500_000
    tracemalloc.start()
    with pytest.raises(RecordError) as caught:
        parse_record(text)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert str(caught.value) == f"line 4: the line is {len(text) - len(HEAD)} characters long; a record line holds at most {MAX_LINE_CHARS}"
    assert peak < len(text) * 1.5  # one copy of the text (its lines), never a list of cards


@pytest.mark.parametrize(("header", "message"), [
    ("hand: " + "9" * 5000, "line 4: hand: '999999999999'... (5000 characters) is too large (at most 1000)"),
    ("decks: 21", "line 4: decks: '21' is too large (at most 20)"),
    ("decks: 0", "line 4: decks: '0' is not a positive whole number"),
    ("hand: ٣", "line 4: hand: '٣' is not a positive whole number"),
])
def test_record_numbers_are_bounded(header: str, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        parse_record(HEAD + header + "\n")
    assert str(caught.value) == message


def test_a_rule_that_cannot_decide_names_the_record_line() -> None:
    text = HEAD.replace("alternate-colour", "prev(3).red == card.red") + "Ana: play 4C\n"
    with pytest.raises(RecordError) as caught:
        judge_text(text, resolve_rule)
    assert str(caught.value).startswith("line 4: the rule cannot decide this turn: prev(3) does not exist")


@pytest.mark.parametrize(("tail", "message"), [
    ("Bo: play 4C\nCy: plax 4C\n", "line 4: it is Ana's turn, not Bo's (C5)"),  # impossible first
    ("Ana: plax 4C\nBo: play 4C\n", "line 4: 'plax' is not an action"),  # syntax first
    ("Ana: play 4C\nBo: play 5H\nCy: plax\n", "line 6: 'plax' is not an action"),  # only a syntax error
])
def test_judge_names_the_first_bad_line_whatever_its_kind(tail: str, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        judge_text(HEAD + tail, resolve_rule)
    assert str(caught.value).startswith(message)
