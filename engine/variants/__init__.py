"""The variants of Eleusis the engine deals (docs/rules-variants.md): each is data
(engine/variants/spec.py) plus a round machine. ``howell`` is engine/round.py's
:class:`~engine.round.Round` itself, unchanged; ``wikipedia`` and ``express`` change a few
of its rules; ``abbott-1959`` and ``kruskal`` are games of their own.

>>> from engine.rules import resolve_rule
>>> from engine.cards import parse_cards
>>> rnd = new_round(resolve_rule('alternate-colour'), 'wikipedia', ['Ana', 'Bo', 'Cy'], parse_cards('7H'))
>>> type(rnd).__name__, rnd.start.decks, rnd.start.hand_size, rnd.start.variant
('WikipediaRound', 2, 14, 'wikipedia')
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card
from engine.events import RoundStarted
from engine.round import Round
from engine.rules.base import Rule
from engine.variants.abbott import AbbottRound
from engine.variants.howell_family import ExpressRound, WikipediaRound
from engine.variants.kruskal import KruskalRound
from engine.variants.spec import DEFAULT_VARIANT, VARIANT_NAMES, VARIANT_SPECS, VariantSpec, spec_for

__all__ = ["DEFAULT_VARIANT", "VARIANT_NAMES", "VARIANT_SPECS", "AnyRound", "VariantSpec", "new_round",
           "round_for", "spec_for"]

AnyRound = Round | AbbottRound | KruskalRound

_MACHINES: dict[str, type[Round] | type[AbbottRound] | type[KruskalRound]] = {
    "howell": Round,
    "wikipedia": WikipediaRound,
    "express": ExpressRound,
    "abbott-1959": AbbottRound,
    "kruskal": KruskalRound,
}


def round_for(rule: Rule, start: RoundStarted) -> AnyRound:
    """The round machine of ``start.variant`` (a record's ``variant:``), set up from ``start``."""
    spec_for(start.variant)  # a clear ValueError for an unknown name
    return _MACHINES[start.variant](rule, start)


def new_round(rule: Rule, variant: str, players: Sequence[str], starters: Sequence[Card], *,
              rule_text: str | None = None, hand_size: int | None = None, decks: int | None = None) -> AnyRound:
    """A fresh round of ``variant`` with its own shoe and hands unless given (WK1, EX1, AB1, KR1)."""
    spec = spec_for(variant)
    count = len(players)
    start = RoundStarted(tuple(players), rule_text or rule.text, tuple(starters),
                         spec.hand_for(count) if hand_size is None else hand_size,
                         spec.decks_for(count) if decks is None else decks, variant)
    return round_for(rule, start)
