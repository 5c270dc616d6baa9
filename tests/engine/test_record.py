"""The game record text: parsing, printing, round trips (issue 2, P1-N3 and F3 syntax)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from rulekit import AlternateColour, cards

from engine.cards import Card
from engine.errors import RecordError
from engine.events import Attempt, BecomeProphet, NoPlay, ProphetDecision, RoundStarted
from engine.record import format_action, format_record, parse_record
from engine.simulate import Temperament, simulate_round

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.eleusis"))

HEAD = "players: Ana Bo Cy\nrule: alternate-colour\nstart: KH\n"


def test_headers_and_actions() -> None:
    # given a record with every kind of line, when parsed, then events mirror the lines
    text = """
    # a comment line
    players: Ana Bo Cy Dee   # seats
    rule: alternate-colour
    start: 7♥
    hand: 10
    decks: 2

    Cy: play 4c 9H
    Cy: prophet
    Dee: play QD | prophet reject
    Ana: noplay 2S 3s | Prophet Reject 3S
    Bo: noplay TS | prophet accept
    """
    record = parse_record(text)
    assert record.start == RoundStarted(("Ana", "Bo", "Cy", "Dee"), "alternate-colour", cards("7H"), 10, 2)
    assert [line.action for line in record.actions] == [
        Attempt("Cy", cards("4C 9H")),
        BecomeProphet("Cy"),
        Attempt("Dee", cards("QD"), ProphetDecision.reject()),
        NoPlay("Ana", cards("2S 3S"), ProphetDecision.reject(Card.parse("3S"))),
        NoPlay("Bo", cards("10S"), ProphetDecision.agree()),
    ]
    assert [line.number for line in record.actions] == [9, 10, 11, 12, 13]
    assert record.header_lines == {"players": 3, "rule": 4, "start": 5, "hand": 6, "decks": 7}


def test_defaults_are_14_cards_and_3_decks() -> None:
    start = parse_record(HEAD).start
    assert (start.hand_size, start.decks) == (14, 3)  # C1, C3


@pytest.mark.parametrize(("text", "line", "message"), [
    (HEAD + "Ana play 4C\n", 4, "expected 'header: value'"),
    (HEAD + "Ana: jump 4C\n", 4, "'jump' is not an action"),
    (HEAD + "Ana: play 4X\n", 4, "'4X' is not a card"),
    (HEAD + "Ana: play\n", 4, "at least one card (P1)"),
    (HEAD + "Ana: noplay\n", 4, "whole hand (N1)"),
    (HEAD + "Ana:\n", 4, "no action"),
    (HEAD + "Ana: prophet now\n", 4, "takes nothing"),
    (HEAD + "Ana: play 4C | prophet maybe\n", 4, "'maybe'"),
    (HEAD + "Ana: play 4C | oracle accept\n", 4, "prophet accept"),
    (HEAD + "Ana: play 4C | prophet reject 4C\n", 4, "takes no card for a play"),
    (HEAD + "Ana: noplay 4C 5C | prophet reject\n", 4, "names exactly one card"),
    (HEAD + "Ana: noplay 4C | prophet accept 4C\n", 4, "takes no card"),
    (HEAD + "Ana: play 4C\nhand: 10\n", 5, "after the first turn"),
    (HEAD + "rule: low-high\n", 4, "given twice (first on line 2)"),
    ("players: Ana Bo Cy\nstart: KH\nAna: play 4C\n", 3, "'rule:' is missing"),
    ("players: Ana Bo Cy\nrule: alternate-colour\n", 2, "'start:' is missing"),
    (HEAD + "hand: ten\n", 4, "'ten' is not a positive whole number"),
    (HEAD + "decks: 0\n", 4, "'0' is not a positive"),
    ("players: Ana Bo Cy\nrule: alternate-colour\nstart:\n", 3, "no starter card"),
    ("players: Ana rule Cy\nrule: x\nstart: KH\n", 1, "'rule' cannot be a player name"),
    ("players: Ana Bo Cy\nrule:\nstart: KH\n", 2, "library id or a rule text"),
])
def test_syntax_errors_name_the_line(text: str, line: int, message: str) -> None:
    # given a malformed record, when parsed, then RecordError names the line and the fault
    with pytest.raises(RecordError) as info:
        parse_record(text)
    assert info.value.line == line
    assert str(info.value).startswith(f"line {line}: ")
    assert message in str(info.value)


@pytest.mark.parametrize("action", [
    Attempt("Ana", cards("4C 9H")),
    Attempt("Ana", cards("10H"), ProphetDecision.agree()),
    Attempt("Ana", cards("QD"), ProphetDecision.reject()),
    NoPlay("Bo", cards("2D 4H 10S")),
    NoPlay("Bo", cards("2D 4H"), ProphetDecision.reject(Card.parse("4H"))),
    NoPlay("Bo", cards("2D"), ProphetDecision.agree()),
    BecomeProphet("Cy"),
])
def test_each_action_round_trips(action: object) -> None:
    line = format_action(action)  # type: ignore[arg-type]
    assert parse_record(HEAD + line).actions[0].action == action


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_examples_round_trip(path: Path) -> None:
    # given a shipped record, when printed and parsed again, then the events are the same, and printing is stable
    record = parse_record(path.read_text(encoding="utf-8"))
    printed = format_record(record.events)
    assert parse_record(printed).events == record.events
    assert format_record(parse_record(printed).events) == printed


@pytest.mark.parametrize("seed", range(12))
def test_random_rounds_round_trip_through_text(seed: int) -> None:
    # given a random complete round, when its log is printed as a record and parsed, then the log comes back
    rnd = simulate_round(AlternateColour(), ["Ana", "Bo", "Cy", "Dee"], random.Random(seed),
                         hand_size=8 + seed, mood=Temperament(claims_prophet=0.2))
    text = format_record(rnd.events)
    assert parse_record(text).events == rnd.events


def test_a_rule_of_several_lines_continues_on_indented_lines() -> None:
    text = "players: A B C\nrule: start 2: card.rank == pos + 1\n   card.colour != prev.colour  # note\nstart: AH 2S\n"
    record = parse_record(text)
    assert record.start.rule == "start 2: card.rank == pos + 1\ncard.colour != prev.colour"
    assert parse_record(format_record(record.events)).start == record.start


def test_comments_are_written_after_actions() -> None:
    events = parse_record(HEAD + "Ana: play 4C\nBo: play 5S\n").events
    text = format_record(events, ["accepted", None])
    assert "Ana: play 4C  # accepted\nBo: play 5S\n" in text
    assert parse_record(text).events == events


def test_printing_needs_a_start() -> None:
    with pytest.raises(TypeError):
        format_record([Attempt("Ana", cards("4C"))])
