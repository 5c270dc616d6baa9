"""Two rules compared over every line that could have been played: how a player's guess is
judged against the sealed rule.

The main line only ever holds cards the sealed rule accepted, so two rules are the same
when, after every line the sealed rule builds (the first card included, C4), they allow
the same cards. The search goes breadth first, so the first disagreement found is a
shortest counterexample.

- Exact: when both rules are finite-state (engine/rules/shape.py: they look at the card
  tried, the last k cards, and the position only below a threshold or modulo m), a
  line's future depends on its length below the threshold, or modulo the period above
  it, and its last k cards. The search visits each such state once (one line of the
  shortest length standing for it), which is done when there are at most
  :data:`EXACT_STATES` of them.
- Both searches try one card of each kind the two rules can tell apart
  (engine/rules/shape.py ``card_features``): rules that read only colours try two cards,
  rules that read ranks thirteen. A line of such cards stands for every line alike in
  what the rules read, so the answers stay exact and the counterexample shortest.
- Otherwise, every line the sealed rule allows up to :data:`SEARCH_LENGTH` cards, within
  :data:`SEARCH_BUDGET` decisions; the answer says up to which length it covered every
  line (a longer level begun is searched as far as the budget goes, shortest lines first).

>>> from engine.rules import resolve_rule
>>> same = compare_rules(resolve_rule('card.colour != prev.colour'), resolve_rule('alternate-colour'))
>>> same.same, same.exact
(True, True)
>>> differ = compare_rules(resolve_rule('card.red != prev.red or card.face'), resolve_rule('alternate-colour'))
>>> differ.same, differ.counterexample
(False, Counterexample(line=(Card.parse('AC'),), card=Card.parse('JC'), guess_allows=True))
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card, all_kinds
from engine.rules.base import Rule
from engine.rules.errors import RuleError
from engine.rules.compiler import card_attribute
from engine.rules.shape import Shape, card_features, rule_shape

__all__ = ["EXACT_STATES", "SEARCH_BUDGET", "SEARCH_LENGTH", "Comparison", "Counterexample", "compare_rules",
           "representatives"]

EXACT_STATES = 6_000  # 52^2 contexts twice over: about as many decisions as a bounded search
SEARCH_LENGTH = 4  # lines of up to this many cards, for rules that look at the whole line
SEARCH_BUDGET = 120_000  # decisions of each rule in a bounded search: about a second

_KINDS = all_kinds()
DECK_KINDS = len(_KINDS)


@dataclass(frozen=True, slots=True)
class Counterexample:
    """After ``line`` (a line the sealed rule built), the guess allows ``card`` and the rule
    does not (``guess_allows``), or the other way round."""

    line: tuple[Card, ...]
    card: Card
    guess_allows: bool


@dataclass(frozen=True, slots=True)
class Comparison:
    """``same``: no line searched tells the rules apart. ``exact``: the search covered every
    possible line (window rules); otherwise it covered every line of up to ``length`` cards
    (``complete_length``: the longest length covered in full)."""

    same: bool
    exact: bool
    complete_length: int
    counterexample: Counterexample | None = None


def _joint(guess: Rule, sealed: Rule) -> Shape | None:
    """One shape that serves both rules, or None when either is not finite-state."""
    shapes = (rule_shape(guess), rule_shape(sealed))
    if shapes[0] is None or shapes[1] is None:
        return None
    starts = max(guess.starter_count, sealed.starter_count)
    back = max(s.back for s in shapes if s is not None)
    below = max(starts, back, *(s.below for s in shapes if s is not None))
    period = math.lcm(*(s.period for s in shapes if s is not None))
    return Shape(back, below, period)


def representatives(*rules: Rule) -> tuple[Card, ...]:
    """One card of each kind the rules can tell apart, in deck order (the first of each):
    all 52 when a rule reads some card whole."""
    features: set[str] = set()
    for rule in rules:
        read = card_features(rule)
        if read is None:
            return _KINDS
        features |= read
    getters = [card_attribute(name) for name in sorted(features)]
    kinds: dict[tuple[object, ...], Card] = {}
    for card in _KINDS:
        kinds.setdefault(tuple(get(card) for get in getters), card)
    return tuple(kinds.values())


def _states(shape: Shape, kinds: int = DECK_KINDS) -> int:
    """At most how many states an exact search visits, trying ``kinds`` cards."""
    contexts = int(kinds ** shape.back)  # int ** int is typed as possibly a float
    short = sum(min(int(kinds ** n), contexts) for n in range(shape.below))
    return short + shape.period * contexts


def _decide(rule: Rule, line: Sequence[Card], card: Card) -> bool | None:
    """The rule's verdict; None when it cannot decide (R1 lets the checker refuse it)."""
    try:
        return rule.legal(line, card)
    except RuleError:
        return None


def _state_of(line: tuple[Card, ...], shape: Shape | None, starts: int) -> tuple[object, int]:
    """A line's search state, and the length of the line the rules are asked about for it
    (the same decisions as ``line`` itself when the shape holds)."""
    if shape is None or len(line) < starts:
        return line, len(line)  # the whole line: a bounded search, or the start clause deciding
    size = len(line)
    if size >= shape.below:
        size = shape.below + (size - shape.below) % shape.period
    return (size, line[len(line) - min(shape.back, len(line)):]), size


def _stand_in(line: tuple[Card, ...], size: int, back: int) -> tuple[Card, ...]:
    """``size`` cards ending in ``line``'s last ``back``: the cards before those are never read."""
    if size == len(line):
        return line
    recent = line[len(line) - min(back, len(line)):]
    return (_KINDS[0],) * (size - len(recent)) + recent


def compare_rules(guess: Rule, sealed: Rule, *, length: int = SEARCH_LENGTH,
                  budget: int = SEARCH_BUDGET) -> Comparison:
    """Whether ``guess`` allows the same cards as ``sealed`` after every line ``sealed``
    builds, with a shortest counterexample when not (its line is a whole line from the
    first card)."""
    cards = representatives(guess, sealed)
    joint = _joint(guess, sealed)
    exact = joint is not None and _states(joint, len(cards)) <= EXACT_STATES
    shape = joint if exact else None
    starts = max(guess.starter_count, sealed.starter_count)
    back = 0 if shape is None else shape.back
    # A search state: what the rules see of a line, and the first whole line found for it
    # (breadth first: the shortest).
    level: list[tuple[tuple[Card, ...], tuple[Card, ...]]] = [((), ())]
    seen: set[object] = {_state_of((), shape, starts)[0]}
    spent, size, covered = 0, 0, -1
    while level:
        if not exact and size > length:
            return Comparison(True, False, covered)
        following: list[tuple[tuple[Card, ...], tuple[Card, ...]]] = []
        for asked, whole in level:
            if not exact and spent >= budget:  # a level begun is searched as far as the budget goes
                return Comparison(True, False, covered)
            for card in cards:
                want = _decide(sealed, asked, card)
                got = _decide(guess, asked, card)
                spent += 1
                if want != got:
                    return Comparison(False, exact, covered, Counterexample(whole, card, bool(got)))
                if not want:
                    continue
                extended = whole + (card,)
                key, size_asked = _state_of(extended, shape, starts)
                if key not in seen:
                    seen.add(key)
                    following.append((_stand_in(extended, size_asked, back), extended))
        covered = size
        size += 1
        level = following
    return Comparison(True, exact, covered)
