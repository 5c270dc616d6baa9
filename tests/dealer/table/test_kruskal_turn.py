"""Kruskal's round at the table, the pure machine (dealer/table/kruskal_turn.py) and the
session that deals it (dealer/table/kruskal_session.py): KR2-KR7 from looks at the table."""

from __future__ import annotations

from calibration.kruskal_tokens import Predictions
from dealer.table.happenings import Judged, RuleDisclosed, StarterDecided, TroubleReported
from dealer.table.kruskal_session import KruskalConfig, KruskalSession
from dealer.table.kruskal_turn import (
    WAIT_TOKENS_S,
    AwaitingCard,
    BothTokens,
    CardDown,
    CardTakenAway,
    CardTurned,
    Clearing,
    JudgeTurn,
    KruskalLook,
    OneCardAtATime,
    StarterTurned,
    TokensStillOut,
    Unreadable,
    WaitingForTokens,
    initial,
    step,
)
from engine.cards import Card
from engine.judging import judge_text
from engine.rules import resolve_rule

QC, H7 = Card.parse("QC"), Card.parse("7H")
NONE = Predictions({})


def run(state, looks):
    said = []
    for look in looks:
        state, out = step(state, look)
        said += out
    return state, said


def at(t0: float, seconds: float, cards=(), preds=NONE, hand=False, every=0.5):
    n = int(round(seconds / every))
    return [KruskalLook(t0 + k * every, tuple(cards), preds, hand) for k in range(n)]


def started():
    state, said = run(initial(3, settle_s=1.0), at(0, 2, (H7,)) + at(2, 2))
    assert said == [StarterTurned(H7, None)] and isinstance(state.phase, AwaitingCard)
    return state


def test_the_starter_is_taken_once_it_lies_still_and_the_next_card_once_the_zone_is_empty() -> None:
    state, said = run(initial(3, settle_s=1.0), at(0, 0.5, (H7,)))
    assert said == []  # not still long enough
    state, said = run(state, at(0.5, 2, (H7,)))
    assert said == [StarterTurned(H7, None)] and isinstance(state.phase, Clearing)
    state, said = run(state, at(2.5, 2))
    assert said == [] and isinstance(state.phase, AwaitingCard)


def test_a_card_is_judged_with_every_seats_token_once_they_lie_still() -> None:
    state = started()
    state, said = run(state, at(4, 2, (QC,)))
    assert said == [CardTurned(QC)] and isinstance(state.phase, CardDown)
    # two seats show theirs: nothing is judged
    state, said = run(state, at(6, 2, (QC,), Predictions({1: True, 2: False})))
    assert said == []
    # the third comes: judged after the strip lay still for settle_s
    shown = Predictions({1: True, 2: False, 3: True})
    state, said = run(state, at(8, 0.5, (QC,), shown))
    assert said == []
    state, said = run(state, at(8.5, 1.5, (QC,), shown))
    assert said == [JudgeTurn(QC, ((1, True), (2, False), (3, True)), None)]
    assert isinstance(state.phase, Clearing)


def test_a_hand_over_the_zone_holds_the_verdict() -> None:
    state = started()
    state, _ = run(state, at(4, 2, (QC,)))
    shown = Predictions({1: True, 2: True, 3: True})
    state, said = run(state, at(6, 3, (QC,), shown, hand=True))
    assert said == []
    state, said = run(state, at(9, 1.5, (QC,), shown))
    assert [type(i) for i in said] == [JudgeTurn]


def test_after_the_verdict_the_tokens_are_taken_back_before_the_next_card_is_looked_for() -> None:
    state = started()
    shown = Predictions({1: True, 2: True, 3: False})
    state, _ = run(state, at(4, 2, (QC,)) + at(6, 3, (QC,), shown))
    assert isinstance(state.phase, Clearing)
    # the card goes, the tokens stay; the next card comes: they are told to take them back, once
    state, said = run(state, at(9, 2, (), shown) + at(11, 3, (Card.parse("2S"),), shown))
    assert said == [TokensStillOut((1, 2, 3))]
    # tokens taken back: the card lying there is the next card
    state, said = run(state, at(14, 1, ()) + at(15, 2, (Card.parse("2S"),)))
    assert said == [CardTurned(Card.parse("2S"))]


def test_troubles_are_said_once_a_picture() -> None:
    state = started()
    state, said = run(state, at(4, 3, (QC, Card.parse("2S"))))
    assert said == [OneCardAtATime(2)]
    state, said = run(state, at(7, 3, (None,)))
    assert said == [Unreadable()]
    state, said = run(state, at(10, 2, (QC,)) + at(12, 3, (QC,), Predictions({1: True}, both=(2,))))
    assert said == [CardTurned(QC), BothTokens((2,))]
    state, said = run(state, at(15, WAIT_TOKENS_S, (QC,), Predictions({1: True})))
    assert said == [WaitingForTokens((2, 3))]
    state, said = run(state, at(15 + WAIT_TOKENS_S, 2))
    assert said == [CardTakenAway(QC)] and isinstance(state.phase, AwaitingCard)


def _session_round(rule: str, turns: list[tuple[str, tuple[bool, ...]]]) -> tuple[KruskalSession, list]:
    session = KruskalSession(KruskalConfig(("Ana", "Bo", "Cy"), rule, settle_s=1.0, spoken_cards=False))
    out = session.begin()
    t = 0.0
    for look in at(t, 2, (H7,)) + at(2, 2):
        out += session.observe(look)
    t = 4.0
    for card, said in turns:
        preds = Predictions({k + 1: main for k, main in enumerate(said)})
        for look in at(t, 2, (Card.parse(card),)) + at(t + 2, 2, (Card.parse(card),), preds) + at(t + 4, 2):
            out += session.observe(look)
        t += 6.0
    return session, out


def test_the_session_deals_the_worked_example_as_judge_does() -> None:
    # docs/rules-variants.md, kruskal's worked example: Ana 5, Bo 2, Cy 3, the oracle 3
    turns = [("QC", (True, False, True)), ("2S", (False, False, True)), ("9D", (True, True, True)),
             ("KH", (False, True, False)), ("4S", (True, False, False))]
    session, out = _session_round("alternate-colour", turns)
    assert [h.card for h in out if isinstance(h, StarterDecided)] == [H7]
    judged = [h for h in out if isinstance(h, Judged)]
    assert [h.outcome.verdict.value for h in judged] == ["accepted", "rejected", "accepted", "rejected", "accepted"]
    assert "The oracle turns QC: the main line. Right: Ana and Cy. Points: Ana 1, Bo 0, Cy 1." in judged[0].text
    assert session.round is not None and session.round.result().scores == {"Ana": 5, "Bo": 2, "Cy": 3}
    # the game record it writes is judged the same way by `eleusis judge`
    out += session.finish()
    assert isinstance(out[-1], RuleDisclosed)
    judgement = judge_text(session.game_record(), resolve_rule)
    assert judgement.round.result().scores == {"Ana": 5, "Bo": 2, "Cy": 3} and judgement.round.result().dealer == 3


def test_a_second_copy_of_a_card_is_trouble_never_a_verdict() -> None:
    session, out = _session_round("alternate-colour", [("QC", (True, True, True)), ("QC", (True, True, True))])
    assert len([h for h in out if isinstance(h, Judged)]) == 1
    assert any(isinstance(h, TroubleReported) and "QC" in h.text for h in out)


def test_until_the_reveal_the_game_record_keeps_the_rule_sealed() -> None:
    session, _ = _session_round("alternate-colour", [("QC", (True, True, True))])
    record = session.game_record()
    assert "rule: sealed " in record and "alternate-colour" not in record
    assert "oracle: turn QC | Ana main, Bo main, Cy main" in record


def test_a_refused_starter_goes_back_and_the_next_card_is_a_starter_with_no_tokens() -> None:
    # C4: "a red first card": the black QC goes back to the stock, 7H starts the line
    session = KruskalSession(KruskalConfig(("Ana", "Bo", "Cy"), "start: card.red; card.colour != prev.colour",
                                           settle_s=1.0, spoken_cards=False))
    out = session.begin()
    for look in at(0, 2, (QC,)) + at(2, 2) + at(4, 2, (H7,)) + at(6, 2):
        out += session.observe(look)
    decided = [(h.card, h.taken) for h in out if isinstance(h, StarterDecided)]
    assert decided == [(QC, False), (H7, True)]
    assert session.round is not None and session.round.line == (H7,)
    assert not any("Show your tokens" in h.text for h in out)
    # and the next card is judged with the tokens
    preds = Predictions({1: True, 2: True, 3: False})
    for look in at(8, 2, (Card.parse("2S"),)) + at(10, 2, (Card.parse("2S"),), preds):
        out += session.observe(look)
    assert [h.outcome.verdict.value for h in out if isinstance(h, Judged)] == ["accepted"]
