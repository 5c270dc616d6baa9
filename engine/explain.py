"""Why a verdict fell, once the rule is revealed (G6): for reviews and disputes.

>>> from engine.rules import resolve_rule
>>> from engine.events import Attempt, NoPlay
>>> rule = resolve_rule('alternate-colour')
>>> explain(rule, parse_cards('7H 4C'), Attempt('Bo', parse_cards('QC')))
'QC cannot follow 4C under the rule (P2), so the whole attempt is a side branch (P4).'
>>> explain(rule, parse_cards('7H'), Attempt('Ana', parse_cards('4C 9D')))
'Each card follows the rule: 4C after 7H, 9D after 4C (P2, P3).'
>>> explain(rule, parse_cards('7H 4C'), NoPlay('Cy', parse_cards('2C 4H 6S')))
'4H could follow 4C, so the no play was wrong (N3).'
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card, parse_cards  # noqa: F401 (doctest)
from engine.events import Attempt, BecomeProphet, NoPlay
from engine.rules.base import Rule

__all__ = ["explain", "first_illegal"]


def first_illegal(rule: Rule, line: Sequence[Card], cards: Sequence[Card]) -> int | None:
    """Index of the first card of a chain that breaks the rule (P2), or None."""
    current = list(line)
    for i, card in enumerate(cards):
        if not rule.legal(current, card):
            return i
        current.append(card)
    return None


def explain(rule: Rule, line: Sequence[Card], action: Attempt | NoPlay | BecomeProphet) -> str:
    """One sentence saying why the action was judged as it was, given the main line before it."""
    if isinstance(action, BecomeProphet):
        return f"{action.player} took office as prophet (F1, F2)."
    end = str(line[-1]) if line else "the start of the line"
    if isinstance(action, Attempt):
        bad = first_illegal(rule, line, action.cards)
        if bad is None:
            steps = []
            before = end
            for card in action.cards:
                steps.append(f"{card} after {before}")
                before = str(card)
            return f"Each card follows the rule: {', '.join(steps)} (P2, P3)."
        before = end if bad == 0 else str(action.cards[bad - 1])
        return (f"{action.cards[bad]} cannot follow {before} under the rule (P2), "
                "so the whole attempt is a side branch (P4).")
    legal = [card for card in action.hand if rule.legal(line, card)]
    if not legal:
        return f"No card of the hand could follow {end}, so the no play was right (N2)."
    return f"{legal[0]} could follow {end}, so the no play was wrong (N3)."
