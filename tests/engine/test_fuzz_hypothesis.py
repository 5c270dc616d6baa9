"""Property-based fuzzing (issue 9 item 7) of the record parser, the rule language (parser,
compiler, evaluation, checker) and judging: whatever the text, only the project's own
errors come out (RecordError, RuleSyntaxError, RuleEvaluationError), never a traceback of
another kind. Bounded: a fixed number of examples, derandomized, a deadline that only
catches a hang."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import Card, all_kinds
from engine.errors import RecordError
from engine.judging import judge_text
from engine.record import format_record, parse_record
from engine.rules import RuleEvaluationError, RuleSyntaxError, check_rule, parse_rule, resolve_rule
from engine.rules.checker import RuleReport

FUZZ = settings(max_examples=150, deadline=timedelta(seconds=10), derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow])
KINDS = all_kinds()

# Pieces of the rule language, so that random texts often parse and reach the compiler.
RULE_WORDS = ["card", "prev", "prev(2)", "prev(0)", "prev(pos)", "line[-1]", "line[0]", "line[99]", "pos", "each",
              "line", "last(2)", "last(pos)", "last(-1)", ".rank", ".suit", ".colour", ".red", ".black", ".even",
              ".odd", ".face", ".prime", "if", "then", "else", "and", "or", "xor", "not", "in", "not in", "mod", "%",
              "==", "!=", "<", "<=", ">", ">=", "=", "≠", "+", "-", "*", "(", ")", "{", "}", "[", "]", ",", "..", "0",
              "1", "3", "13", "9999", "10000", "K", "QH", "10S", "7♥", "♣", "hearts", "red", "king", "true", "false",
              "count(", "any(", "all(", "sum(", "len(", "abs(", "min(", "max(", "next(", "suit(", "start", "start 2:",
              ":", ";", "\n", "#", "$", "é", "\x00", "\ud800"]
rule_texts = st.one_of(
    st.lists(st.sampled_from(RULE_WORDS), min_size=1, max_size=25).map(" ".join),
    st.text(max_size=200),
    st.text(alphabet="()[]{}.,+-*%<>=!0123456789 cardprevlinposeachmodin", max_size=120),
)
lines = st.lists(st.sampled_from(KINDS), max_size=12).map(tuple)


@FUZZ
@given(rule_texts, lines, st.sampled_from(KINDS))
def test_any_rule_text_parses_or_is_refused_and_any_rule_decides_or_says_why(
        text: str, line: tuple[Card, ...], card: Card) -> None:
    try:
        rule = parse_rule(text)
    except RuleSyntaxError as exc:
        assert str(exc).startswith(f"line {exc.line}, column {exc.column}: ")
        return
    try:
        verdict = rule.legal(line, card)
    except RuleEvaluationError:
        return
    assert verdict is True or verdict is False


@settings(max_examples=25, deadline=timedelta(seconds=60), derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.lists(st.sampled_from(RULE_WORDS[:-3]), min_size=1, max_size=18).map(" ".join))
def test_the_checker_reports_on_any_rule_that_parses(text: str) -> None:
    try:
        rule = parse_rule(text)
    except RuleSyntaxError:
        return
    report = check_rule(rule, walks=4, adversarial=1, depth=12, max_steps=2_000_000)
    assert isinstance(report, RuleReport)
    assert report.ok or report.problems


# Pieces of a game record.
NAMES = ["Ana", "Bo", "Cy", "Dee", "ana", "Ana:", "players", "rule", "|", "#x", "é", ""]
CARDS = ["7H", "QD", "10S", "AC", "KH", "1H", "11C", "7X", "", "♥", "7♥", "4C,5H"]
RECORD_LINES = [
    "players: Ana Bo Cy", "players: Ana Bo", "players: Ana Bo Cy Dee Ed Fy Gu Hal Io", "players:",
    "rule: alternate-colour", "rule: card.red", "rule: prev(3).red", "rule: false", "rule: ", "rule:",
    "  or card.black", "start: KH", "start: KH QD", "start:", "start: 7X", "hand: 3", "hand: 0", "hand: 99999",
    "hand: -1", "decks: 1", "decks: 2", "decks: 0", "# a comment", "", "   ", "\ufeffplayers: Ana Bo Cy",
]


@st.composite
def record_texts(draw: st.DrawFn) -> str:
    out = []
    for _ in range(draw(st.integers(0, 14))):
        kind = draw(st.integers(0, 3))
        if kind == 0:
            out.append(draw(st.sampled_from(RECORD_LINES)))
        elif kind == 1:
            who = draw(st.sampled_from(NAMES))
            verb = draw(st.sampled_from(["play", "noplay", "prophet", "PLAY", "plax", ""]))
            cards = " ".join(draw(st.lists(st.sampled_from(CARDS), max_size=4)))
            suffix = draw(st.sampled_from(["", " | prophet accept", " | prophet reject", " | prophet reject 7H",
                                           " | prophet", " | x", "|"]))
            out.append(f"{who}: {verb} {cards}{suffix}")
        elif kind == 2:
            out.append(draw(st.text(max_size=40)))
        else:
            out.append(draw(st.sampled_from(RECORD_LINES)) + draw(st.text(max_size=8)))
    return draw(st.sampled_from(["\n", "\r\n", "\r"])).join(out)


@FUZZ
@given(st.one_of(record_texts(), st.text(max_size=300)))
def test_any_record_text_parses_or_names_its_line(text: str) -> None:
    try:
        record = parse_record(text)
    except RecordError as exc:
        assert str(exc).startswith(f"line {exc.line}: ") and exc.line >= 1
        return
    again = parse_record(format_record(record.events))  # what parses prints back and re-reads the same
    assert again.events == record.events


@FUZZ
@given(record_texts())
def test_any_record_is_judged_or_names_its_first_bad_line(text: str) -> None:
    try:
        judgement = judge_text("players: Ana Bo Cy\nrule: alternate-colour\nstart: KH\n" + text, resolve_rule)
    except RecordError as exc:
        assert exc.line >= 1
        return
    assert judgement.round.result() is not None
