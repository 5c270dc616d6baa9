"""Random complete rounds with real hands, for benchmarks, tests and example records.

The players are random but the cards are real: a shuffled shoe of 3 decks (C1), hands
of 14 (C3), starters dealt by C4, and every draw taken from the top of the stock, so the
stock the engine counts must always equal the stock simulated here (checked each turn).

>>> from engine.rules import resolve_rule
>>> rnd = simulate_round(resolve_rule('alternate-colour'), ['Ana', 'Bo', 'Cy', 'Dee'], random.Random(7))
>>> rnd.ended is not None
True
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import DEFAULT_DECKS, Card, shoe
from engine.deal import deal_starters
from engine.events import DEFAULT_HAND, ProphetDecision, TurnOutcome, Verdict
from engine.round import Round
from engine.rules.base import Rule

__all__ = ["Temperament", "play_turns", "simulate_round"]


@dataclass(frozen=True, slots=True)
class Temperament:
    """How the simulated table behaves (probabilities per turn)."""

    plays_legal: float = 0.6  # plays a card it knows to be legal, when it has one
    extends_chain: float = 0.3  # adds another legal card to a legal attempt
    declares_no_play: float = 0.12  # declares "no play" instead of a random attempt
    claims_prophet: float = 0.06  # becomes prophet when F1 allows
    prophet_right: float = 0.85  # a prophet's call is right
    max_turns: int = 2000  # a guard; rounds end long before (the stock runs out)


def _remove(hand: list[Card], cards: Sequence[Card]) -> None:
    for card in cards:
        hand.remove(card)


def _legal_chain(rule: Rule, line: list[Card], hand: list[Card], rng: random.Random, mood: Temperament,
                 chains: bool = True) -> list[Card]:
    chain: list[Card] = []
    pool = list(hand)
    ext = list(line)
    while pool:
        legal = [c for c in pool if rule.legal(ext, c)]
        if not legal:
            break
        card = rng.choice(legal)
        chain.append(card)
        ext.append(card)
        pool.remove(card)
        if not chains or rng.random() >= mood.extends_chain:
            break
    return chain


def _chain_legal(rule: Rule, line: Sequence[Card], cards: Sequence[Card]) -> bool:
    ext = list(line)
    for card in cards:
        if not rule.legal(ext, card):
            return False
        ext.append(card)
    return True


def simulate_round(
    rule: Rule,
    players: Sequence[str],
    rng: random.Random,
    *,
    rule_text: str | None = None,
    hand_size: int = DEFAULT_HAND,
    decks: int = DEFAULT_DECKS,
    mood: Temperament | None = None,
) -> Round:
    """Play one complete round at random (with real cards) and return it, ended."""
    mood = mood or Temperament()
    cards = list(shoe(decks))
    rng.shuffle(cards)
    hands = {name: cards[i * hand_size:(i + 1) * hand_size] for i, name in enumerate(players)}
    starters, rest = deal_starters(rule, cards[len(players) * hand_size:])
    stock = deque(rest)
    rnd = Round.new(rule, list(players), starters, rule_text=rule_text, hand_size=hand_size, decks=decks)

    play_turns(rnd, rule, hands, stock, rng, mood)
    return rnd


def play_turns(rnd: Round, rule: Rule, hands: dict[str, list[Card]], stock: deque[Card], rng: random.Random,
               mood: Temperament, *, chains: bool = True, no_play: bool = True, prophet: bool = True) -> None:
    """Play ``rnd`` at random to its end from real ``hands`` and ``stock``: Howell's round, or a
    variant of it without chains, "no play" or a prophet (engine/variants/simulate.py)."""

    def draw(name: str, count: int) -> None:
        for _ in range(count):
            hands[name].append(stock.popleft())

    for _ in range(mood.max_turns):
        player = rnd.whose_turn
        if player is None:
            break
        hand = hands[player]
        line = list(rnd.line)
        in_office = rnd.prophet
        chain = _legal_chain(rule, line, hand, rng, mood, chains) if rng.random() < mood.plays_legal else []
        outcome: TurnOutcome
        if not chain and no_play and rng.random() < mood.declares_no_play:
            shown = list(hand)
            rng.shuffle(shown)
            decision = None
            if in_office is not None:
                legal = [c for c in shown if rule.legal(line, c)]
                right = rng.random() < mood.prophet_right
                if legal and right:
                    decision = ProphetDecision.reject(rng.choice(legal))
                elif not legal and right or legal and not right and rng.random() < 0.5:
                    decision = ProphetDecision.agree()
                else:
                    decision = ProphetDecision.reject(rng.choice(shown))
            outcome = rnd.no_play(player, shown, decision)
            if outcome.verdict is Verdict.NOPLAY_RIGHT:
                stock.extend(hand)  # N2: the hand goes to the bottom of the stock
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
            if in_office is not None:
                truly = _chain_legal(rule, line, chain)
                right = rng.random() < mood.prophet_right
                decision = ProphetDecision.agree() if truly == right else ProphetDecision.reject()
            outcome = rnd.attempt(player, chain, decision)
            _remove(hand, chain)
            draw(player, outcome.penalty)
        if outcome.overthrown and outcome.prophet is not None:
            draw(outcome.prophet, outcome.prophet_penalty)
        assert len(stock) == rnd.stock, "the engine's stock count drifted from the real stock"
        if (prophet and rnd.ended is None and rng.random() < mood.claims_prophet
                and rnd.prophet_refusal(player) is None):
            rnd.become_prophet(player)
