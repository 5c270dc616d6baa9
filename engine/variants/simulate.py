"""Random complete rounds of any variant with real cards, for the invariant tests and
bench/variants.py; the Howell-like variants are played by engine/simulate.py's turns.

>>> from engine.rules import resolve_rule
>>> rnd = simulate_variant(resolve_rule('alternate-colour'), 'abbott-1959', ['A', 'B', 'C'], random.Random(3), hand_size=4)
>>> rnd.ended is not None
True
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence

from engine.cards import Card, shoe
from engine.deal import deal_starters
from engine.events import Attempt, OracleTurn
from engine.rules.base import Rule
from engine.simulate import Temperament, play_turns
from engine.variants import AnyRound, new_round
from engine.variants.abbott import AbbottRound
from engine.variants.kruskal import KruskalRound
from engine.variants.spec import spec_for

__all__ = ["simulate_variant"]


def simulate_variant(rule: Rule, variant: str, players: Sequence[str], rng: random.Random, *,
                     hand_size: int | None = None, mood: Temperament | None = None) -> AnyRound:
    """Play one round of ``variant`` at random and return it (ended unless the guard stops it)."""
    mood = mood or Temperament()
    spec = spec_for(variant)
    decks = spec.decks_for(len(players))
    hand = spec.hand_for(len(players)) if hand_size is None else hand_size
    cards = list(shoe(decks))
    rng.shuffle(cards)
    hands = {name: cards[i * hand:(i + 1) * hand] for i, name in enumerate(players)}
    starters, rest = deal_starters(rule, cards[len(players) * hand:])
    rnd = new_round(rule, variant, players, starters, hand_size=hand, decks=decks)
    if isinstance(rnd, KruskalRound):
        for card in rest:
            tokens = tuple((name, rng.random() < 0.5) for name in players)
            rnd.apply(OracleTurn(card, tokens))
        return rnd
    if isinstance(rnd, AbbottRound):
        _abbott(rnd, hands, rng, mood)
        return rnd
    play_turns(rnd, rule, hands, deque(rest), rng, mood, chains=spec.chains, no_play=spec.no_play,
               prophet=spec.prophet)
    return rnd


def _abbott(rnd: AbbottRound, hands: dict[str, list[Card]], rng: random.Random, mood: Temperament) -> None:
    for _ in range(mood.max_turns):
        player = rnd.whose_turn
        if player is None:
            return
        pool = hands[player] or list(rnd.errors[player])
        legal = [c for c in pool if rnd.rule.legal(rnd.line, c)]
        card = rng.choice(legal) if legal and rng.random() < mood.plays_legal else rng.choice(pool)
        rnd.apply(Attempt(player, (card,)))
        if hands[player]:
            hands[player].remove(card)
