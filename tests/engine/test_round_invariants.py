"""Invariants over random complete rounds: no card is lost or made (C1, C3, N2, N4), the fold
is exact at every step, and the end is reached only by G1."""

from __future__ import annotations

import random

import pytest
from rulekit import AlternateColour, AnyCard, PairStart, RedOnly

from engine.cards import DECK_SIZE
from engine.events import EndReason, Verdict
from engine.round import Round
from engine.rules.base import Rule
from engine.simulate import Temperament, simulate_round

CASES = [(AlternateColour(), seed) for seed in range(8)] + [(AnyCard(), 1), (RedOnly(), 2), (PairStart(), 3)]


@pytest.mark.parametrize(("rule", "seed"), CASES)
def test_cards_are_conserved_at_every_step(rule: Rule, seed: int) -> None:
    # given a random complete round, when its log is replayed step by step,
    # then stock + hands + table = the shoe at every step, and each step's state matches a fresh fold
    mood = Temperament(claims_prophet=0.15, declares_no_play=0.2)
    rnd = simulate_round(rule, ["Ana", "Bo", "Cy", "Dee", "Eve"][: 3 + seed % 3], random.Random(seed),
                         hand_size=10 + seed, mood=mood)
    assert rnd.ended in set(EndReason)
    live = Round(rule, rnd.start)
    total = rnd.start.decks * DECK_SIZE
    for step, event in enumerate(rnd.events[1:], start=1):
        live.apply(event)  # type: ignore[arg-type]
        assert live.stock + sum(live.hands().values()) + live.table_count == total, f"step {step}"
        assert min(live.hands().values()) >= 0 and live.stock >= 0
        if step % 7 == 0:
            assert Round.replay(rule, rnd.events[: step + 1]).state() == live.state()
    assert live.state() == rnd.state()


@pytest.mark.parametrize("seed", range(6))
def test_the_end_is_one_of_g1(seed: int) -> None:
    rnd = simulate_round(AlternateColour(), ["Ana", "Bo", "Cy", "Dee"], random.Random(100 + seed))
    last = rnd.turns[-1]
    result = rnd.result()
    if rnd.ended is EndReason.EMPTIED:
        assert result.hands[last.player] == 0 and last.emptied
        assert (result.emptied == last.player) == last.legally_emptied
    elif rnd.ended is EndReason.STOCK:
        assert rnd.stock == 0
    else:
        assert rnd.ended is EndReason.EXPELLED
        active = set(rnd.players) - set(rnd.expelled) - {rnd.prophet}
        assert not active
    assert last.ended is rnd.ended
    assert all(t.ended is None for t in rnd.turns[:-1])
    assert sum(t.verdict is Verdict.PROPHET for t in rnd.turns) == len(rnd.state().been_prophet)  # F4: once each


def test_random_rounds_reach_every_end_and_verdict() -> None:
    # given random rounds with one deck or three, then every G1 end and every verdict happens somewhere
    ends, verdicts = set(), set()
    for seed in range(40):
        decks = 1 if seed % 2 else 3
        rnd = simulate_round(AlternateColour(), ["Ana", "Bo", "Cy"], random.Random(seed), decks=decks,
                             hand_size=12 if decks == 1 else 14, mood=Temperament(claims_prophet=0.2))
        total = decks * DECK_SIZE
        assert rnd.stock + sum(rnd.hands().values()) + rnd.table_count == total
        ends.add(rnd.ended)
        verdicts |= {t.verdict for t in rnd.turns}
    assert ends == set(EndReason)
    assert verdicts == set(Verdict)
