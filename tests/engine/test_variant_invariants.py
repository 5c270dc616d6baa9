"""1,000 random rounds of each variant keep its invariants (docs/rules-variants.md): cards
conserved, markers where the variant puts them, expulsion only after its threshold, scores
by its formula. Fixed seeds; bench/variants.py runs more."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.cards import DECK_SIZE
from engine.events import BecomeProphet, EndReason, VariantEnd, Verdict
from engine.layout import MARK_EVERY
from engine.round import Round
from engine.rules import resolve_rule
from engine.simulate import Temperament
from engine.variants import round_for
from engine.variants.abbott import AbbottRound
from engine.variants.kruskal import KruskalRound
from engine.variants.simulate import simulate_variant

ROUNDS = 1000
RULES = [resolve_rule(r) for r in ("alternate-colour", "suit-cycle", "step-up-1-3")]
NAMES = ["Ana", "Bo", "Cy", "Dee", "Eve", "Fay"]
MOOD = Temperament(claims_prophet=0.1, declares_no_play=0.15)


def _rounds(variant: str, hand: int | None):
    for seed in range(ROUNDS):
        rng = random.Random(seed)
        players = NAMES[: 3 + seed % 4]
        yield simulate_variant(RULES[seed % 3], variant, players, rng, mood=MOOD,
                               hand_size=hand if hand is None else hand + seed % 9)


def _check_howell_family(rnd: Round, threshold: tuple[int, int], replay: bool) -> None:
    """Marks on every 10th card; expulsion only once the table (no prophet) or the cards
    after the prophet's marker reach ``threshold``; G2-G4. With ``replay``, the log is
    folded again step by step and cards are conserved at every step."""
    live = round_for(rnd.rule, rnd.start) if replay else rnd
    assert isinstance(live, Round)
    total = rnd.start.decks * DECK_SIZE
    appointed: int | None = None
    table = len(rnd.start.starters)
    for event, outcome in zip(rnd.events[1:], rnd.turns, strict=True):
        before = table
        if replay:
            assert live.apply(event) == outcome  # type: ignore[arg-type]
            assert live.stock + sum(live.hands().values()) + live.table_count == total
        if isinstance(event, BecomeProphet):
            appointed = before
            continue
        table += len(outcome.cards) if outcome.verdict in (Verdict.ACCEPTED, Verdict.REJECTED) else (
            1 if outcome.verdict is Verdict.NOPLAY_WRONG else 0)
        want = before >= threshold[0] if appointed is None else before - appointed >= threshold[1]
        assert outcome.expulsion_on == want
        assert not outcome.expelled or outcome.expulsion_on
        if outcome.overthrown:
            appointed = None
    assert table == live.table_count
    assert live.stock + sum(live.hands().values()) + live.table_count == total
    laid = live.layout.laid
    assert [i + 1 for i, c in enumerate(laid) if c.marked] == list(range(MARK_EVERY, len(laid) + 1, MARK_EVERY))
    result = live.result()
    hands = result.hands
    top = max(hands.values())
    for name, score in result.scores.items():
        extra = 4 if name == result.emptied else 0
        if name == result.prophet:
            assert appointed is not None
            main_after = len(live.line) - len([c for c in laid[:appointed] if c.branch is None])
            extra += main_after + 2 * (live.table_count - appointed - main_after)
        assert score == top - hands[name] + extra
    best = max(result.scores.values())
    assert result.dealer == (best if result.prophet is None else min(best, 2 * (appointed or 0)))


def test_howell_rounds_keep_their_invariants() -> None:
    for rnd in _rounds("howell", 6):
        assert isinstance(rnd, Round) and rnd.ended is not None
        _check_howell_family(rnd, (30, 20), replay=len(rnd.players) == 3)  # E2


def test_wikipedia_rounds_expel_only_after_the_fourth_marker() -> None:
    expulsions = 0
    for rnd in _rounds("wikipedia", 8):
        assert isinstance(rnd, Round) and rnd.ended is not None
        _check_howell_family(rnd, (40, 40), replay=len(rnd.players) == 3)  # WK4: four white, or four black
        expulsions += sum(t.expelled for t in rnd.turns)
    assert expulsions > 0  # the threshold was reached and used


def test_express_rounds_are_one_card_turns_without_prophet_or_expulsion() -> None:
    for rnd in _rounds("express", 6):
        assert isinstance(rnd, Round) and rnd.ended in (EndReason.EMPTIED, EndReason.STOCK)
        assert all(len(t.cards) == 1 and not t.expelled for t in rnd.turns)  # EX2, EX5
        assert all(t.verdict in (Verdict.ACCEPTED, Verdict.REJECTED) for t in rnd.turns)  # EX3, EX4
        _check_howell_family(rnd, (10**9, 10**9), replay=len(rnd.players) == 3)


def test_abbott_rounds_conserve_cards_and_score_by_ab7_ab9_ab10() -> None:
    for rnd in _rounds("abbott-1959", 2):
        assert isinstance(rnd, AbbottRound) and rnd.ended in (EndReason.EMPTIED, VariantEnd.BLOCKED)
        dealt = rnd.start.hand_size * len(rnd.players) + len(rnd.start.starters)
        errors = {name: len(cards) for name, cards in rnd.errors.items()}
        assert sum(rnd.hands().values()) + sum(errors.values()) + len(rnd.line) == dealt
        first = rnd.first_scoring
        if any(rnd.hands().values()):  # AB9 before every hand is empty: scored from the errors then (AB7)
            assert first is None and rnd.ended is EndReason.EMPTIED
            first = errors
        assert first is not None
        result = rnd.result()
        assert result.dealer == sum(first.values()) - min(first.values()) * len(first)  # AB7
        if rnd.ended is EndReason.EMPTIED:
            winner = result.emptied
            assert winner is not None and errors[winner] == 0
            assert result.scores[winner] == 6 + sum(errors.values())  # AB9
        else:
            assert not rnd.sheddable()  # AB10
            fewest = min(errors.values())
            for name, n in errors.items():
                assert result.scores[name] == (sum(errors.values()) - 2 * n if n == fewest else 0)


def test_kruskal_rounds_turn_the_whole_deck_and_score_the_tokens() -> None:
    for rnd in _rounds("kruskal", None):
        assert isinstance(rnd, KruskalRound) and rnd.ended is VariantEnd.DECK  # KR7
        laid = [c.card for c in rnd.layout.laid]
        assert len(laid) == DECK_SIZE and max(Counter(laid).values()) == 1  # KR1: one deck, each card once
        points = Counter(name for hits in rnd.hits for name in hits)
        result = rnd.result()
        assert result.scores == {name: points[name] for name in rnd.players}  # KR5
        assert result.dealer == max(result.scores.values()) - min(result.scores.values())  # KR8
