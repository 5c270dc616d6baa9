"""Secret rules (R1, R2): the rule language, the library and the checker.

Public API (other modules code against these names):

>>> rule = resolve_rule('suit-cycle')
>>> from engine.cards import Card, parse_cards
>>> rule.legal(parse_cards('QC'), Card.parse('3D'))
True
>>> resolve_rule('card.rank > prev.rank').legal(parse_cards('5S'), Card.parse('4S'))
False
"""

from __future__ import annotations

from engine.rules.base import Rule
from engine.rules.checker import FAIRNESS_MIN_KINDS, RuleReport, check_rule
from engine.rules.errors import RuleError, RuleEvaluationError, RuleSyntaxError
from engine.rules.language import CompiledRule, parse_rule
from engine.rules.library import LIBRARY, TIERS, LibraryRule
from engine.rules.printer import format_rule

__all__ = [
    "FAIRNESS_MIN_KINDS",
    "LIBRARY",
    "TIERS",
    "CompiledRule",
    "LibraryRule",
    "Rule",
    "RuleError",
    "RuleEvaluationError",
    "RuleReport",
    "RuleSyntaxError",
    "check_rule",
    "format_rule",
    "parse_rule",
    "resolve_rule",
]


def resolve_rule(text_or_id: str) -> CompiledRule:
    """A library id such as ``alternate-colour`` gives that rule; anything else is parsed as
    rule text (raises RuleSyntaxError)."""
    key = text_or_id.strip()
    if key in LIBRARY:
        return LIBRARY[key].rule
    return parse_rule(text_or_id)
