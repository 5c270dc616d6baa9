"""The rule language (R1): tokens, syntax errors, types, and what each construct means."""

from __future__ import annotations

import doctest
import importlib

import pytest

from engine.cards import Card, all_kinds, parse_cards
from engine.rules import (
    RuleEvaluationError,
    RuleSyntaxError,
    parse_rule,
    resolve_rule,
)
from engine.rules.base import Rule
from engine.rules.lexer import tokenize


@pytest.mark.parametrize(("text", "kinds", "texts"), [
    ("card == 10H", ["KEYWORD", "OP", "CARD", "END"], ["card", "==", "10H", ""]),
    ("card == th", ["KEYWORD", "OP", "CARD", "END"], ["card", "==", "TH", ""]),
    ("card == 7♥", ["KEYWORD", "OP", "CARD", "END"], ["card", "==", "7H", ""]),
    ("card.suit == ♠", ["KEYWORD", "OP", "NAME", "OP", "SUIT", "END"], ["card", ".", "suit", "==", "spades", ""]),
    ("A..K  # a comment", ["INT", "OP", "INT", "END"], ["A", "..", "K", ""]),
])
def test_tokenizer_reads_cards_ranks_and_comments(text: str, kinds: list[str], texts: list[str]) -> None:
    # given a rule text, when it is tokenized, then the kinds and texts are as written
    tokens = tokenize(text)
    assert [t.kind for t in tokens] == kinds
    assert [t.text for t in tokens] == texts


def test_tokens_know_their_line_and_column() -> None:
    # given a rule over two lines, when tokenized, then positions are 1-based line and column
    tokens = tokenize("card.red\n  or prev.red")
    where = {t.text: (t.line, t.column) for t in tokens}
    assert where["or"] == (2, 3)
    assert tokens[3].newline_before


SYNTAX_ERRORS = [
    ("card.rank ==", "line 1, column 13: expected a value"),
    ("if prev.red card.black", "line 1, column 13: expected 'then', found 'card'"),
    ("if prev.red then card.black", "line 1, column 28: expected 'else', found the end of the rule"),
    ("card.rank in 3", "line 1, column 14: expected a range such as 1..7 or a set such as {1, 11..13} after 'in', found '3'"),
    ("card.rank in {1, 2", "line 1, column 19: expected '}', found the end of the rule"),
    ("card.rank in {1 2}", "line 1, column 17: expected '}', found '2'"),
    ("foo > 2", "line 1, column 1: unknown name 'foo'"),
    ("card.red\nand $", "line 2, column 5: unexpected character '$'"),
    ("card.rank > 1X", "line 1, column 13: '1X' is neither a number nor a card"),
    ("start 2: card.red card.black", "line 1, column 19: expected ';' or a new line"),
    ("start 9: card.red; true", "line 1, column 7: a starter has 1 to 8 cards"),
    ("card.red)", "line 1, column 9: expected an operator or the end of the rule, found ')'"),
    ("   ", "line 1, column 1: the rule is empty"),
    ("__import__('os').system('ls')", "line 1, column 12: unexpected character \"'\""),
    ("open(card) or exec(card)", "line 1, column 1: unknown name 'open'"),
    ("card.rank not 3", "line 1, column 11: expected an operator or the end of the rule, found 'not'"),
    ("card.wings", "a card has no attribute 'wings'"),
    # type errors are syntax errors too: a rule that does not make sense is refused at once
    ("card.rank", "line 1, column 6: a rule must be true or false, but this is a number"),
    ("card.rank and card.red", "line 1, column 6: 'and' needs true/false, got a number"),
    ("card.suit > prev.suit", "'>' needs numbers, got a suit"),
    ("card.suit == 3", "'==' compares a suit with a number"),
    ("card.suit in 1..3", "a range lo..hi holds numbers, but the value is a suit"),
    ("card.rank in {1, hearts}", "the set holds a suit, but the value is a number"),
    ("if card.red then 1 else false", "'then' gives a number but 'else' gives true/false"),
    ("count(card, each.red) > 1", "count()'s first argument needs a sequence of cards, got a card"),
    ("count(line, each.rank) > 1", "count() needs true/false to test, got a number"),
    ("prev(0).red", "prev(0) makes no sense"),
    ("card.rank == 1 mod 0", "'mod 0' needs a positive number"),
    ("card.suit == hearts mod 2", "'mod' needs numbers, got a suit"),
    ("abs(1, 2) == 1", "abs() takes 1 argument(s), got 2"),
    ("line == line", "sequences cannot be compared"),
    ("each.red", "line 1, column 1: 'each' only means something inside count/any/all/sum"),
    ("count(line, each.red) > 0 and each.red", "line 1, column 31: 'each' only means"),
    ("count(last(each.rank), true) > 0", "line 1, column 12: 'each' only means"),
    ("any(line, any(line, any(line, each.red)))", "line 1, column 21: count/any/all/sum nest at most 2 deep"),
    ("start: card.red; pos", "line 1, column 18: a rule must be true or false"),
    ("(" * 100 + "true" + ")" * 100, "line 1, column 61: the rule is nested more than 60 deep"),
    ("not " * 100 + "true", "the rule is nested more than 60 deep"),
    ("1" + " + 1" * 400 + " > 0", "the rule is too long"),
    ("start: card.rank; true", "line 1, column 13: the start clause must be true or false"),
]


@pytest.mark.parametrize(("text", "message"), SYNTAX_ERRORS)
def test_bad_rule_text_is_refused_with_line_and_column(text: str, message: str) -> None:
    # given a bad rule text, when parsed, then RuleSyntaxError says where and what
    with pytest.raises(RuleSyntaxError) as caught:
        parse_rule(text)
    assert message in str(caught.value)
    assert str(caught.value).startswith("line ")
    assert isinstance(caught.value, ValueError)


# (rule text, main line so far, card tried, legal?) -- worked out by hand
SEMANTICS = [
    # single-card predicates
    ("card.red", "2C", "5D", True),
    ("card.black", "2C", "5D", False),
    ("card.colour == red", "2C", "5H", True),
    ("card.color == black", "2C", "5H", False),
    ("card.suit == hearts", "2C", "5H", True),
    ("card.suit == ♣", "2C", "5H", False),
    ("card.even", "2C", "QH", True),
    ("card.odd", "2C", "KH", True),
    ("card.face", "2C", "JH", True),
    ("card.face", "2C", "10H", False),
    ("card.prime", "2C", "JH", True),
    ("card.prime", "2C", "9H", False),
    ("card.prime", "2C", "AH", False),
    ("card.rank in 2..5", "2C", "5H", True),
    ("card.rank in 2..5", "2C", "6H", False),
    ("card.rank not in {A, J..K}", "2C", "QH", False),
    ("card.rank not in {A, J..K}", "2C", "10H", True),
    ("card.rank mod 3 == 1", "2C", "10H", True),
    ("card.rank % 3 == 1", "2C", "9H", False),
    ("card == QH", "2C", "QH", True),
    ("card != QH", "2C", "QD", True),
    ("card.suit.red", "2C", "QD", True),
    ("(card.rank + prev.rank).prime", "2C", "5D", True),  # 7
    ("(card.rank + prev.rank).prime", "2C", "7D", False),  # 9
    ("(card.rank + prev.rank).prime", "10C", "7D", True),  # 17
    ("(card.rank + prev.rank).prime", "KC", "KD", False),  # 26
    ("(card.rank - prev.rank).prime", "KC", "AD", False),  # -12
    ("(card.rank + prev.rank - 1).prime", "AC", "AD", False),  # 1
    ("card.rank = 4", "2C", "4S", True),  # '=' reads as '=='
    ("card.rank ≠ 4 and card.rank ≤ 9 and card.rank ≥ 3", "2C", "5S", True),
    ("card.rank ≠ 4 and card.rank ≤ 9 and card.rank ≥ 3", "2C", "4S", False),
    ("card.suit == heart and card.rank < king", "2C", "QH", True),
    ("card.suit == spades or card.rank in {ace, jack, queen}", "2C", "KH", False),
    ("If Prev.RED Then Card.Black Else card.red", "2C 4D", "4S", True),  # keywords in any case
    ("Card.Rank IN 1..3 AND Prev.RED", "2C 4D", "3S", True),
    ("Card.Rank IN 1..3 AND Prev.RED", "2C 4S", "3S", False),
    # relations to the previous cards
    ("card.suit == prev.suit", "2C 9H", "KH", True),
    ("card.colour != prev.colour", "2C 9H", "KD", False),
    ("card.rank > prev.rank", "2C 9H", "10D", True),
    ("card.rank < prev.rank", "2C 9H", "10D", False),
    ("card.rank - prev.rank in 1..3 mod 13", "2C QH", "AD", True),  # Q K A: two up
    ("card.rank == prev.rank + 1 mod 13", "2C KH", "AD", True),  # 1 = 14 (mod 13)
    # R1: 'in ... mod n' is congruence: the range is reduced as well as the value
    ("card.rank - prev.rank in -2..2 mod 13", "2C AC", "QD", True),  # 12 - 1 = 11 = -2 (mod 13)
    ("card.rank - prev.rank in -2..2 mod 13", "2C AC", "KD", True),  # 12 = -1
    ("card.rank - prev.rank in -2..2 mod 13", "2C AC", "JD", False),  # 10 = -3
    ("card.rank - prev.rank not in -2..2 mod 13", "2C AC", "QD", False),
    ("card.rank - prev.rank in {-1, 13} mod 13", "2C AC", "KD", True),  # 12 = -1
    ("card.rank - prev.rank in {-1, 13} mod 13", "2C AC", "AD", True),  # 0 = 13
    ("card.rank in 20..40 mod 13", "2C", "AD", True),  # a range of 13 or more holds everywhere
    ("card.rank in 3..1 mod 13", "2C", "2D", False),  # an empty range stays empty
    ("card.rank - prev.rank in -2..prev.rank mod 13", "2C AC", "QD", True),  # a range worked out per card
    ("card.rank - prev.rank in {prev.rank - 3} mod 13", "2C AC", "QD", True),  # -2 = 11
    ("card.rank == prev.rank + 1 mod 13", "2C KH", "2D", False),
    ("card.suit == next(prev.suit)", "2C 9S", "4C", True),
    ("card.suit == next(next(prev.suit))", "2C 9S", "4D", True),
    ("card.suit == suit(prev.rank)", "2C 9S", "4D", True),  # 9 mod 4 = 1: diamonds
    ("card.rank + prev.rank + prev(2).rank == 0 mod 3", "2C 4S", "3D", True),  # 9
    ("card.rank + prev.rank + prev(2).rank == 0 mod 3", "2C 4S", "4D", False),  # 10
    ("card.rank + prev.rank == 1 mod 2", "2C 4S", "KD", True),  # 17 odd
    ("abs(card.rank - prev.rank) <= 2", "2C 4S", "6D", True),
    ("abs(card.rank - prev.rank) <= 2", "2C 4S", "7D", False),
    ("card.rank == max(prev.rank, prev(2).rank)", "9C 4S", "9D", True),
    ("card.rank == min(prev.rank, prev(2).rank, 3)", "9C 4S", "3D", True),
    ("card.rank > line[-2].rank", "9C 4S", "10D", True),
    ("card.suit == line[0].suit", "9C 4S 5H", "10C", True),
    ("card.suit == line[0].suit", "9C 4S 5H", "10H", False),
    ("card.rank == -(-prev.rank)", "9C 4S", "4H", True),
    ("card.rank * 2 == prev.rank", "9C 4S", "2H", True),
    # if/then/else on the previous card, and/or/not/xor
    ("if prev.red then card.black else card.red", "2C 9H", "KS", True),
    ("if prev.red then card.black else card.red", "2C 9H", "KD", False),
    ("if prev.face then card.rank <= 10 else if prev.rank < 5 then card.face else true", "2C 3H", "9D", False),
    ("if prev.face then card.rank <= 10 else if prev.rank < 5 then card.face else true", "2C 7H", "9D", True),
    ("card.red and card.face", "2C", "QD", True),
    ("card.red or card.face", "2C", "QS", True),
    ("card.red xor card.face", "2C", "QD", False),
    ("card.red xor card.face", "2C", "QS", True),
    ("not card.red", "2C", "QS", True),
    ("not not card.red", "2C", "QS", False),
    ("card.red or card.face and card.even", "2C", "QS", True),  # and binds tighter than or
    ("card.red or card.face and card.even", "2C", "KS", False),
    # position in the line: every other card, periodic patterns
    ("if pos mod 2 == 0 then card.red else card.black", "2C", "5S", True),
    ("if pos mod 2 == 0 then card.red else card.black", "2C 5S", "5S", False),
    ("card.suit == suit(pos)", "2C 5S 7D", "8S", True),  # pos 3: spades
    ("pos mod 3 != 0 or card.face", "2C 5S 7D", "8S", False),
    # runs: pairs, three of a colour
    ("pos < 2 or not all(last(2), each.colour == card.colour)", "2C 5S", "8S", False),
    ("pos < 2 or not all(last(2), each.colour == card.colour)", "2C 5S", "8D", True),
    ("pos < 2 or not all(last(2), each.colour == card.colour)", "2C", "8S", True),
    ("if pos mod 2 == 1 then card.rank == prev.rank else true", "2C", "2S", True),
    ("if pos mod 2 == 1 then card.rank == prev.rank else true", "2C", "3S", False),
    # aggregates over the main line
    ("not any(line, each == card)", "2C 5S 7D", "5S", False),
    ("not any(line, each == card)", "2C 5S 7D", "5H", True),
    ("count(line, each.red) < 2 or card.black", "2C 5H 7D", "5H", False),
    ("count(line, each.red) < 2 or card.black", "2C 5H 7C", "5H", True),
    ("count(last(2), each.red) == 1", "2C 5H 7C", "5H", True),
    ("sum(line, each.rank) + card.rank == 0 mod 5", "2C 5H", "3C", True),  # 10
    ("len(line) == pos and len(last(1)) == 1", "2C 5H", "3C", True),
    ("all(line, each.rank < card.rank)", "2C 5H", "6C", True),
    ("all(line, each.rank < card.rank)", "2C 5H", "5C", False),
    ("any(line, count(line, each.red) == 1 and each.black)", "2C 5H", "5C", True),
]


@pytest.mark.parametrize(("text", "line", "card", "expected"), SEMANTICS)
def test_rule_construct_judges_as_worked_out_by_hand(text: str, line: str, card: str, expected: bool) -> None:
    # given a rule text with no start clause, when a card is tried after a line, then the verdict holds
    rule = parse_rule(text)
    assert rule.legal(parse_cards(line), Card.parse(card)) is expected
    # the same verdict when the line is a list rather than a tuple
    assert rule.legal(list(parse_cards(line)), Card.parse(card)) is expected


def test_range_mod_n_means_what_within_2_means_for_every_pair() -> None:
    # given 'within two ranks, round the corner' written as a range mod 13 and as the library's set (R1),
    # when every card is tried after every card, then both give the same verdict (A then Q is allowed)
    as_range = parse_rule("card.rank - prev.rank in -2..2 mod 13")
    as_set = resolve_rule("within-2")
    per_card = parse_rule("card.rank - prev.rank in -2..(prev.rank - prev.rank + 2) mod 13")  # not constant
    for before in all_kinds():
        for card in all_kinds():
            line = (Card.parse("2C"), before)
            assert as_range.legal(line, card) == as_set.legal(line, card), (before, card)
            assert per_card.legal(line, card) == as_set.legal(line, card), (before, card)
    assert as_range.legal(parse_cards("2C AC"), Card.parse("QC"))


@pytest.mark.parametrize(("text", "starter_count", "line", "card", "expected"), [
    ("card.red", 1, "", "2S", True),  # no start clause: any card starts the line (C4)
    ("start: card.red; card.black", 1, "", "2S", False),
    ("start: card.red; card.black", 1, "", "2H", True),
    ("start: card.red; card.black", 1, "2H", "2H", False),
    ("start 3: card.rank == pos + 1; true", 3, "AS", "2C", True),
    ("start 3: card.rank == pos + 1; true", 3, "AS 2C", "4C", False),
    ("start 3: card.rank == pos + 1; true", 3, "AS 2C 3D", "4C", True),
    ("start 2: card.red and (pos == 0 or card.suit == prev.suit)\ncard.rank > prev.rank", 2, "5H", "2H", True),
    ("start 2: card.red and (pos == 0 or card.suit == prev.suit)\ncard.rank > prev.rank", 2, "5H", "2D", False),
    ("start 2: card.red and (pos == 0 or card.suit == prev.suit)\ncard.rank > prev.rank", 2, "5H 2H", "AH", False),
])
def test_start_clause_decides_the_first_cards(text: str, starter_count: int, line: str, card: str,
                                              expected: bool) -> None:
    # given a rule with (or without) a start clause, when the first cards are tried, then it decides (C4)
    rule = parse_rule(text)
    assert rule.starter_count == starter_count
    assert rule.legal(parse_cards(line), Card.parse(card)) is expected


@pytest.mark.parametrize(("text", "line", "message"), [
    ("prev(2).red", "5H", "prev(2) does not exist at position 1"),
    ("start: prev.red; true", "", "prev does not exist at position 0"),
    ("count(last(3), each.red) > 0", "5H 6H", "last(3) needs 3 cards but the line has 2"),
    ("line[5].red", "5H 6H", "line[5] does not exist at position 2"),
    ("prev(pos + 1).red", "5H 6H", "prev(3) does not exist at position 2"),
    ("card.rank == 1 mod (prev.rank - 5)", "5H", "'mod 0' needs a positive number"),
    ("card.rank mod (prev.rank - 6) == 1", "5H", "'mod -1' needs a positive number"),
])
def test_rule_that_cannot_decide_raises_evaluation_error(text: str, line: str, message: str) -> None:
    # given a rule that looks at a card that is not there, when judged, then RuleEvaluationError says why
    rule = parse_rule(text)
    with pytest.raises(RuleEvaluationError) as caught:
        rule.legal(parse_cards(line), Card.parse("2C"))
    assert message in str(caught.value)
    assert "rule line 1, column" in str(caught.value)


def test_guarded_prev_decides_the_second_card() -> None:
    # given prev(2) behind a pos guard, when the second card is tried, then the guard decides it
    rule = parse_rule("pos < 2 or card.suit == prev(2).suit")
    assert all(rule.legal(parse_cards("5H"), card) for card in all_kinds())


def test_compiled_rule_is_a_rule_and_keeps_its_text() -> None:
    # given a rule text with comments and new lines, then the compiled rule keeps the text as written
    text = "# alternate colours\nif prev.red then card.black\nelse card.red"
    rule = parse_rule(text)
    assert isinstance(rule, Rule)
    assert rule.text == text
    assert eval(repr(rule), {"parse_rule": parse_rule}).text == text


def test_cached_verdicts_match_fresh_ones() -> None:
    # given a last-card rule (cached) and the same rule made uncachable by a pos term, when every pair
    # of cards is judged, then both agree
    cached = parse_rule("card.rank - prev.rank in 1..3 mod 13 or card.suit == next(prev.suit)")
    fresh = parse_rule("pos >= 0 and (card.rank - prev.rank in 1..3 mod 13 or card.suit == next(prev.suit))")
    for last in all_kinds():
        for card in all_kinds():
            assert cached.legal((last,), card) is fresh.legal((Card.parse("2C"), last), card)


def test_resolve_rule_takes_an_id_or_a_text() -> None:
    # given a library id and a rule text, when resolved, then the id gives the library rule
    assert resolve_rule(" alternate-colour ").text == "if prev.red then card.black else card.red"
    assert resolve_rule("card.red").text == "card.red"
    with pytest.raises(RuleSyntaxError):
        resolve_rule("alternate-colours")


@pytest.mark.parametrize("module", ["engine.rules", "engine.rules.errors", "engine.rules.lexer",
                                    "engine.rules.parser", "engine.rules.language", "engine.rules.library",
                                    "engine.rules.checker"])
def test_doctests_pass(module: str) -> None:
    # given a module's docstring examples, when run, then they all pass
    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0


def _doc_blocks() -> list[str]:
    from pathlib import Path

    doc = Path(__file__).resolve().parents[2] / "docs" / "rule-language.md"
    parts = doc.read_text(encoding="utf-8").split("```")
    return [parts[i] for i in range(1, len(parts), 2)]


def test_one_minute_examples_of_the_docs_parse_and_pass_the_checker() -> None:
    # given the "In one minute" examples of docs/rule-language.md, when parsed and checked, then all are fine
    from engine.rules import check_rule

    block = next(b for b in _doc_blocks() if "alternate colours" in b)
    examples = [line for line in block.splitlines() if line.strip()]
    assert len(examples) >= 8
    for text in examples:
        report = check_rule(parse_rule(text), walks=4, adversarial=1)
        assert report.ok, f"{text}: {report.problems}"


def test_start_clause_example_of_the_docs_is_one_rule() -> None:
    # given the docs' three-line rule with a starting sequence, then it parses with starter_count 3
    block = next(b for b in _doc_blocks() if "start 3:" in b)
    text = "\n".join(line for line in block.splitlines() if "start: card.red" not in line)
    assert parse_rule(text).starter_count == 3


def test_syntax_error_survives_pickling() -> None:
    # given a syntax error, when pickled and unpickled (e.g. across processes), then it is the same
    import pickle

    with pytest.raises(RuleSyntaxError) as caught:
        parse_rule("card.red and")
    again = pickle.loads(pickle.dumps(caught.value))
    assert (str(again), again.line, again.column) == (str(caught.value), 1, 13)
