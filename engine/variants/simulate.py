"""Random complete rounds of any variant with real cards, for the invariant tests and
bench/variants.py (engine/simulate.py does the same for Howell's round alone).

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
from engine.events import Attempt, BecomeProphet, NoPlay, OracleTurn, ProphetDecision, TurnOutcome, Verdict
from engine.round import Round
from engine.rules.base import Rule
from engine.simulate import Temperament
from engine.variants import AnyRound, new_round
from engine.variants.abbott import AbbottRound
from engine.variants.kruskal import KruskalRound
from engine.variants.spec import spec_for

__all__ = ["simulate_variant"]


def _chain_legal(rule: Rule, line: Sequence[Card], cards: Sequence[Card]) -> bool:
    ext = list(line)
    for card in cards:
        if not rule.legal(ext, card):
            return False
        ext.append(card)
    return True


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
    _howell_family(rnd, rule, hands, deque(rest), rng, mood, spec.chains, spec.no_play, spec.prophet)
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


def _howell_family(rnd: Round, rule: Rule, hands: dict[str, list[Card]], stock: deque[Card], rng: random.Random,
                   mood: Temperament, chains: bool, no_play: bool, prophet_allowed: bool) -> None:
    def draw(name: str, count: int) -> None:
        for _ in range(count):
            hands[name].append(stock.popleft())

    for _ in range(mood.max_turns):
        player = rnd.whose_turn
        if player is None:
            return
        hand, line, prophet = hands[player], list(rnd.line), rnd.prophet
        chain: list[Card] = []
        if rng.random() < mood.plays_legal:
            ext, pool = list(line), list(hand)
            while pool and (not chain or chains and rng.random() < mood.extends_chain):
                legal = [c for c in pool if rule.legal(ext, c)]
                if not legal:
                    break
                chain.append(rng.choice(legal))
                ext.append(chain[-1])
                pool.remove(chain[-1])
        outcome: TurnOutcome
        if not chain and no_play and rng.random() < mood.declares_no_play:
            shown = list(hand)
            rng.shuffle(shown)
            decision = None
            if prophet is not None:
                legal = [c for c in shown if rule.legal(line, c)]
                right = rng.random() < mood.prophet_right
                if legal and right:
                    decision = ProphetDecision.reject(rng.choice(legal))
                elif not legal and right or legal and rng.random() < 0.5:
                    decision = ProphetDecision.agree()
                else:
                    decision = ProphetDecision.reject(rng.choice(shown))
            outcome = rnd.apply(NoPlay(player, tuple(shown), decision))
            if outcome.verdict is Verdict.NOPLAY_RIGHT:
                stock.extend(hand)
                hand.clear()
                draw(player, outcome.new_hand)
            else:
                assert outcome.card is not None
                hand.remove(outcome.card)
                draw(player, outcome.penalty)
        else:
            if not chain:
                chain = rng.sample(hand, min(len(hand), rng.choice((1, 1, 1, 2)) if chains else 1))
            decision = None
            if prophet is not None:
                right = rng.random() < mood.prophet_right
                truly = _chain_legal(rule, line, chain)
                decision = ProphetDecision.agree() if truly == right else ProphetDecision.reject()
            outcome = rnd.apply(Attempt(player, tuple(chain), decision))
            for card in chain:
                hand.remove(card)
            draw(player, outcome.penalty)
        if outcome.overthrown and outcome.prophet is not None:
            draw(outcome.prophet, outcome.prophet_penalty)
        assert len(stock) == rnd.stock, "the engine's stock count drifted from the real stock"
        if (prophet_allowed and rnd.ended is None and rng.random() < mood.claims_prophet
                and rnd.prophet_refusal(player) is None):
            rnd.apply(BecomeProphet(player))
