"""A guess against the sealed rule: same or different over every line that could have been
played, with a shortest counterexample that checks out."""

from __future__ import annotations

import pytest

from engine.guesses import judge_guess
from engine.judging import judge_text
from engine.rules import LIBRARY, resolve_rule
from engine.rules.equivalence import compare_rules
from engine.rules.shape import rule_shape

SAME = [  # (a guess worded otherwise, the library rule it is)
    ("card.colour != prev.colour", "alternate-colour"),
    ("card.odd != prev.odd", "parity-alternate"),
    ("not (card.suit == prev.suit)", "different-suit"),
    ("card.face or card.red", "red-or-face"),
    ("card.red == card.even", "even-red-odd-black"),
    ("card.face or card.prime", "prime-or-face"),
    ("not prev.face or not card.face", "no-face-after-face"),
    ("card.rank == prev.rank or card.suit == prev.suit", "same-suit-or-rank"),
    ("if prev.rank in 8..K then card.rank in A..7 else card.rank in 8..K", "low-high"),
    ("if pos mod 2 == 1 then card.black else card.red", "colour-by-position"),
    ("pos < 2 or card.colour != prev.colour or card.colour != prev(2).colour", "no-three-of-a-colour"),
    ("card.suit == suit(pos mod 4)", "suit-by-position"),
]
DIFFERENT = [  # (a guess, the sealed rule): known to differ
    ("parity-colour", "alternate-colour"),
    ("different-suit", "suit-cycle"),
    ("within-2", "step-up-1-3"),
    ("card.rank > prev.rank", "higher-unless-face"),
    ("alternate-colour", "colour-by-position"),
    ("three-of-a-colour", "no-three-of-a-colour"),
    ("same-colour-or-higher", "same-suit-or-rank"),
    ("prime-or-face", "red-or-face"),
    ("card.rank - prev.rank in 1..4 mod 13", "step-up-1-3"),
    ("card.rank != prev.rank", "fresh-rank"),
]


def _rule(text: str):
    return LIBRARY[text].rule if text in LIBRARY else resolve_rule(text)


@pytest.mark.parametrize(("guess", "sealed"), SAME)
def test_a_rule_worded_otherwise_is_the_same(guess: str, sealed: str) -> None:
    answer = compare_rules(_rule(guess), _rule(sealed))
    assert answer.same and answer.counterexample is None
    assert answer.exact  # every pair here is finite-state (engine/rules/shape.py)


def test_rules_that_read_the_whole_line_are_searched_up_to_a_stated_length() -> None:
    rewrite = "pos == 0 or not any(last(min(pos, 3)), each.rank == card.rank)"
    answer = compare_rules(resolve_rule(rewrite), LIBRARY["fresh-rank"].rule)
    assert answer.same and not answer.exact and answer.complete_length >= 1


@pytest.mark.parametrize(("guess", "sealed"), DIFFERENT)
def test_a_different_rule_gets_a_shortest_counterexample_that_checks_out(guess: str, sealed: str) -> None:
    g, s = _rule(guess), _rule(sealed)
    answer = compare_rules(g, s)
    assert not answer.same
    example = answer.counterexample
    assert example is not None
    # the line is one the sealed rule builds, card by card ...
    for i, card in enumerate(example.line):
        assert s.legal(example.line[:i], card)
    # ... and after it the rules disagree about the card, as the answer says
    assert g.legal(example.line, example.card) is example.guess_allows
    assert s.legal(example.line, example.card) is not example.guess_allows
    # shortest: every shorter line the sealed rule builds gets the same answers (checked one level down)
    if example.line:
        shorter = example.line[:-1]
        from engine.cards import all_kinds
        assert all(g.legal(shorter, c) == s.legal(shorter, c) for c in all_kinds())


def test_the_counterexample_is_the_shortest() -> None:
    # fresh-rank and "not the same rank as the last card" agree until two cards back matter
    answer = compare_rules(resolve_rule("card.rank != prev.rank"), LIBRARY["fresh-rank"].rule)
    assert answer.counterexample is not None and len(answer.counterexample.line) == 2


def test_a_guess_is_held_against_the_round_verdicts() -> None:
    text = "players: Ana Bo Cy\nrule: alternate-colour\nstart: 7H\nAna: play QD\nBo: play 4C 9H\nCy: noplay 8D 2H\n"
    judgement = judge_text(text.replace("Cy: noplay 8D 2H\n", ""), resolve_rule)
    right = judge_guess("card.colour != prev.colour", judgement, resolve_rule)
    assert right.clash is None and right.comparison.same
    # "any card after a red one" agrees with Bo's chain but not with Ana's rejected QD after 7H
    loose = judge_guess("prev.red or card.red", judgement, resolve_rule)
    assert loose.clash is not None and (loose.clash.line, loose.clash.player) == (4, "Ana")
    assert loose.clash.happened is False and loose.clash.guess_says is True
    assert not loose.comparison.same


@pytest.mark.parametrize("rule_id", [k for k, v in LIBRARY.items() if rule_shape(v.rule) is not None])
def test_a_finite_state_rule_decides_a_long_line_as_its_stand_in(rule_id: str) -> None:
    # the exact search asks about a short stand-in for each line (its length below the
    # threshold or modulo the period, and its last k cards): the answers must be the same
    import random

    from engine.cards import all_kinds
    from engine.rules.equivalence import _stand_in, _state_of

    rule = LIBRARY[rule_id].rule
    shape = rule_shape(rule)
    rng = random.Random(rule_id)
    for _ in range(20):
        line: tuple = ()
        for _ in range(rng.randrange(1, 14)):
            legal = [c for c in all_kinds() if rule.legal(line, c)]
            if not legal:
                break
            line += (rng.choice(legal),)
        assert shape is not None
        _key, size = _state_of(line, shape, rule.starter_count)
        stand_in = _stand_in(line, size, shape.back)
        assert [rule.legal(line, c) for c in all_kinds()] == [rule.legal(stand_in, c) for c in all_kinds()]


@pytest.mark.parametrize("rule_id", sorted(LIBRARY))
def test_a_card_of_the_same_kind_gets_the_same_verdict(rule_id: str) -> None:
    # the search tries one card of each kind the rule tells apart (its card_features):
    # a line of stand-ins must get the same verdicts as the real line, every card tried
    import random

    from engine.cards import all_kinds
    from engine.rules.equivalence import representatives
    from engine.rules.shape import card_features

    rule = LIBRARY[rule_id].rule
    features = card_features(rule)
    kinds = representatives(rule)
    if features is None:
        assert len(kinds) == 52
        return
    from engine.rules.compiler import card_attribute

    def kind_of(card):  # the representative of the card's kind
        key = [card_attribute(name)(card) for name in sorted(features)]
        return next(k for k in kinds if [card_attribute(name)(k) for name in sorted(features)] == key)

    rng = random.Random(rule_id)
    for _ in range(15):
        line: tuple = ()
        for _ in range(rng.randrange(0, 10)):
            legal = [c for c in all_kinds() if rule.legal(line, c)]
            if not legal:
                break
            line += (rng.choice(legal),)
        stand_in = tuple(kind_of(c) for c in line)
        for card in all_kinds():
            assert rule.legal(line, card) == rule.legal(stand_in, kind_of(card)), (line, card)


def test_colour_rules_are_searched_over_two_cards_and_exactly() -> None:
    from engine.rules.equivalence import representatives

    sealed = LIBRARY["no-three-of-a-colour"].rule
    assert len(representatives(sealed)) == 2 and len({c.colour for c in representatives(sealed)}) == 2
    # period 3 against two back: 8,165 states of whole cards, a handful of colours
    answer = compare_rules(LIBRARY["three-of-a-colour"].rule, sealed)
    assert answer.exact and not answer.same
    worded = compare_rules(
        resolve_rule("pos < 2 or not (prev.colour == card.colour and line[-2].colour == card.colour)"), sealed)
    assert worded.same and worded.exact
    # a rule that reads a card whole is tried with all 52
    assert len(representatives(resolve_rule("not any(line, each == card)"), sealed)) == 52
