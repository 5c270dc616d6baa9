"""Robustness of the rule language: no text, however garbled, escapes the error tree.

Random texts built from the language's own words and signs either parse or raise
RuleSyntaxError; a rule that parses either answers True/False or raises
RuleEvaluationError. Never a TypeError, IndexError, RecursionError or ZeroDivisionError.
"""

from __future__ import annotations

import random

import pytest

from engine.cards import all_kinds
from engine.rules import RuleEvaluationError, RuleSyntaxError, parse_rule
from engine.rules.printer import format_rule

WORDS = ("card", "prev", "prev(2)", "line[-1]", "line[0]", "pos", "each", "line", "last(2)",
         "last(pos)", ".rank", ".suit", ".colour", ".red", ".black", ".even", ".odd", ".face", ".prime",
         "if", "then", "else", "and", "or", "xor", "not", "in", "not in", "mod", "%", "==", "!=", "<", ">=",
         "+", "-", "*", "(", ")", "{", "}", ",", "..", "0", "1", "3", "13", "K", "QH", "hearts", "red",
         "true", "false", "count(", "any(", "all(", "sum(", "len(", "abs(", "min(", "max(", "next(", "suit(",
         "start", "start 2:", ":", ";", "\n", "#", "$", "é")
KINDS = all_kinds()


def _random_text(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randrange(1, 14)))


def _mutated_library_text(rng: random.Random) -> str:
    from engine.rules import LIBRARY

    text = rng.choice(list(LIBRARY.values())).text
    i = rng.randrange(len(text) + 1)
    return text[:i] + rng.choice(WORDS) + text[i + rng.randrange(0, 4):]


def _extended_library_text(rng: random.Random) -> str:
    from engine.rules import LIBRARY

    text = rng.choice(list(LIBRARY.values())).text
    op = rng.choice(("and", "or", "xor", "and not"))
    ref = rng.choice(("card", "prev", "prev(2)", "prev(3)", "line[0]", "line[-4]"))
    test = rng.choice(("red", "black", "even", "odd", "face", "prime"))
    return f"{text} {op} {ref}.{test}"


@pytest.mark.parametrize("seed", range(8))
def test_garbled_rule_texts_stay_inside_the_error_tree(seed: int) -> None:
    # given 300 random and mutated texts, when parsed and judged on random lines, then only our errors occur
    rng = random.Random(seed)
    parsed = 0
    for n in range(300):
        text = (_random_text, _mutated_library_text, _extended_library_text)[n % 3](rng)
        try:
            rule = parse_rule(text)
        except RuleSyntaxError as exc:
            assert str(exc).startswith(f"line {exc.line}, column {exc.column}: ")
            continue
        parsed += 1
        assert parse_rule(format_rule(rule.tree)).starter_count == rule.starter_count
        for _ in range(5):
            line = tuple(rng.choice(KINDS) for _ in range(rng.randrange(0, 6)))
            try:
                assert rule.legal(line, rng.choice(KINDS)) in (True, False)
            except RuleEvaluationError:
                pass
    assert parsed >= 100  # the extended library texts always parse, so evaluation is exercised too
