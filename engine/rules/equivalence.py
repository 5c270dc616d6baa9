"""Two rules compared over every line that could have been played (issue 30: the players'
guesses judged).

The main line only ever holds cards the sealed rule accepted, so two rules are the same
when, after every line the sealed rule builds (the first card included, C4), they allow
the same cards. The search goes breadth first, so the first disagreement found is a
shortest counterexample.

- Exact: when both rules' main tests look only at the card tried and the last k cards
  (no ``pos``, ``line`` or aggregates; :attr:`CompiledRule.window`), a line's future
  depends on its last K = max(k, starter counts) cards alone, so the search visits each
  reachable context of at most K cards once. That is finite (52^K contexts at most), and
  it is done when K <= :data:`EXACT_WINDOW`.
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

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card, all_kinds
from engine.rules.base import Rule
from engine.rules.errors import RuleError

__all__ = ["EXACT_WINDOW", "SEARCH_BUDGET", "SEARCH_LENGTH", "Comparison", "Counterexample", "compare_rules"]

EXACT_WINDOW = 2  # 52^2 contexts x 52 cards x 2 rules: well under a second
SEARCH_LENGTH = 4  # lines of up to this many cards, for rules that look at the whole line
SEARCH_BUDGET = 120_000  # decisions of each rule in a bounded search: about a second

_KINDS = all_kinds()


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


def _window(rule: Rule) -> int | None:
    window = getattr(rule, "window", None)
    return window if isinstance(window, int) else None


def _decide(rule: Rule, line: Sequence[Card], card: Card) -> bool | None:
    """The rule's verdict; None when it cannot decide (R1 lets the checker refuse it)."""
    try:
        return rule.legal(line, card)
    except RuleError:
        return None


def compare_rules(guess: Rule, sealed: Rule, *, length: int = SEARCH_LENGTH,
                  budget: int = SEARCH_BUDGET) -> Comparison:
    """Whether ``guess`` allows the same cards as ``sealed`` after every line ``sealed``
    builds, with a shortest counterexample when not (its line is a whole line from the
    first card)."""
    windows = (_window(guess), _window(sealed))
    depth = max(guess.starter_count, sealed.starter_count, *(w or 0 for w in windows))
    exact = None not in windows and depth <= EXACT_WINDOW
    # A search state: the context the rules see (the last ``depth`` cards when exact, else
    # the whole line) and the first whole line found that ends in it (breadth first: the shortest).
    level: list[tuple[tuple[Card, ...], tuple[Card, ...]]] = [((), ())]
    seen: set[tuple[Card, ...]] = {()}
    spent, size, covered = 0, 0, -1
    while level:
        if not exact and size > length:
            return Comparison(True, False, covered)
        following: list[tuple[tuple[Card, ...], tuple[Card, ...]]] = []
        for context, whole in level:
            if not exact and spent >= budget:  # a level begun is searched as far as the budget goes
                return Comparison(True, False, covered)
            for card in _KINDS:
                want = _decide(sealed, context, card)
                got = _decide(guess, context, card)
                spent += 1
                if want != got:
                    return Comparison(False, exact, covered, Counterexample(whole, card, bool(got)))
                if not want:
                    continue
                extended = context + (card,)
                if exact and len(extended) > depth:
                    extended = extended[1:]  # only the last K cards matter to either rule
                if extended not in seen:
                    seen.add(extended)
                    following.append((extended, whole + (card,)))
        covered = size
        size += 1
        level = following
    return Comparison(True, exact, covered)
