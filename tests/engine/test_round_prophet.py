"""The prophet (F1-F7), with a round of 4 (Ana starts after AH) under alternate colours."""

from __future__ import annotations

import pytest
from rulekit import CardSource, cards, new_round

from engine.cards import Card
from engine.errors import IllegalActionError
from engine.events import EndReason, ProphetDecision, Verdict
from engine.round import Round

FOUR = ("Ana", "Bo", "Cy", "Dee")
ACCEPT, REJECT = ProphetDecision.agree(), ProphetDecision.reject()


def four() -> Round:
    return new_round(players=FOUR, start="AH")  # C5: an ace seats Ana first


def with_prophet() -> Round:
    """Ana plays 4C (accepted) and becomes prophet: Bo is next, the line ends 4C."""
    rnd = four()
    rnd.attempt("Ana", cards("4C"))
    rnd.become_prophet("Ana")
    return rnd


# ----- F1 -------------------------------------------------------------------------------


def test_prophet_right_after_own_turn() -> None:
    # given Ana just played, when she becomes prophet, then she holds the office with her hand set aside (F1, F2)
    rnd = with_prophet()
    assert rnd.prophet == "Ana" and rnd.hand_size("Ana") == 13
    assert rnd.state().marker == 2  # F2: the marker is at the end of the main line (AH 4C)
    assert rnd.turns[-1].verdict is Verdict.PROPHET


@pytest.mark.parametrize(("steps", "who", "match"), [
    ([], "Ana", "right after their own turn"),  # no turn yet
    ([("Ana", "4C"), ("Bo", "5H")], "Ana", "right after their own turn"),  # Bo acted since
    ([("Ana", "4C"), ("prophet", "Ana"), ("Bo", "5H")], "Bo", "prophet already"),
])
def test_prophet_refused(steps: list[tuple[str, str]], who: str, match: str) -> None:
    # given the steps, when `who` claims the office, then F1 refuses and nothing changes
    rnd = four()
    for player, arg in steps:
        if player == "prophet":
            rnd.become_prophet(arg)
        else:
            rnd.attempt(player, cards(arg), ACCEPT if rnd.prophet else None)
    with pytest.raises(IllegalActionError, match=match):
        rnd.become_prophet(who)
    assert rnd.prophet_refusal(who) is not None


def test_prophet_needs_two_active_players_besides() -> None:
    # given 3 players, Ana may be prophet (Bo and Cy remain) (F1)
    rnd = new_round()
    rnd.attempt("Ana", cards("4C"))
    assert rnd.prophet_refusal("Ana") is None


def test_prophet_refused_with_one_active_player_besides() -> None:
    # given 3 players and Cy expelled, when Ana claims the office, then F1 refuses (only Bo remains)
    src = CardSource()
    rnd = new_round(hand=40)
    rnd.attempt("Ana", src.legal_chain(rnd, 29))  # table 30: expulsion on (E2)
    rnd.attempt("Bo", src.legal_chain(rnd, 1))
    rnd.attempt("Cy", src.wrong(rnd))
    assert rnd.expelled == ("Cy",)
    rnd.attempt("Ana", src.legal_chain(rnd, 1))
    with pytest.raises(IllegalActionError, match="only 1 active"):
        rnd.become_prophet("Ana")


def test_an_expelled_player_cannot_become_prophet() -> None:
    src = CardSource()
    rnd = new_round(players=FOUR, start="AH", hand=30)
    rnd.attempt("Ana", src.legal_chain(rnd, 29))
    rnd.attempt("Bo", src.wrong(rnd))  # table was 30 before the turn: Bo is expelled (E3)
    with pytest.raises(IllegalActionError, match="expelled"):
        rnd.become_prophet("Bo")


def test_a_player_is_prophet_at_most_once() -> None:
    # given Ana was prophet and was overthrown, when she plays and claims again, then F1/F4 refuse
    rnd = with_prophet()
    rnd.attempt("Bo", cards("5H"), REJECT)  # 5H is legal: Ana is wrong (F4)
    assert rnd.prophet is None
    rnd.attempt("Cy", cards("6S"))
    rnd.attempt("Dee", cards("7D"))
    rnd.attempt("Ana", cards("8C"))
    with pytest.raises(IllegalActionError, match="been prophet"):
        rnd.become_prophet("Ana")
    # and someone else still may (the office is free again)
    rnd.attempt("Bo", cards("9H"))
    rnd.become_prophet("Bo")
    assert rnd.prophet == "Bo"


# ----- F2, F3 ---------------------------------------------------------------------------


def test_turns_skip_the_prophet() -> None:
    rnd = with_prophet()
    order = []
    for card in ("5H", "6S", "7D", "8C", "9H"):
        order.append(rnd.whose_turn)
        assert rnd.whose_turn is not None
        rnd.attempt(rnd.whose_turn, cards(card), ACCEPT)
    assert order == ["Bo", "Cy", "Dee", "Bo", "Cy"]
    with pytest.raises(IllegalActionError, match="F2"):
        rnd.attempt("Ana", cards("10S"), ACCEPT)


def test_every_action_needs_the_prophets_decision() -> None:
    rnd = with_prophet()
    with pytest.raises(IllegalActionError, match="missing"):
        rnd.attempt("Bo", cards("5H"))
    with pytest.raises(IllegalActionError, match="takes no card"):
        rnd.attempt("Bo", cards("5H"), ProphetDecision.reject(Card.parse("5H")))
    with pytest.raises(IllegalActionError, match="missing"):
        rnd.no_play("Bo", cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 2D"))


# ----- F4, F5, F7: attempts ----------------------------------------------------------------


@pytest.mark.parametrize(("play", "decision", "verdict", "penalty", "bo_hand", "ana_hand", "prophet", "main"), [
    ("5H", ACCEPT, Verdict.ACCEPTED, 0, 13, 13, "Ana", "AH 4C 5H"),  # F7: right, nothing more
    ("5S", REJECT, Verdict.REJECTED, 2, 14 - 1 + 2, 13, "Ana", "AH 4C"),  # F7: usual penalty (P4)
    ("5S 6H", REJECT, Verdict.REJECTED, 4, 14 - 2 + 4, 13, "Ana", "AH 4C"),
    ("5H", REJECT, Verdict.ACCEPTED, 0, 13, 18, None, "AH 4C 5H"),  # F4: prophet wrong, +5, deposed
    ("5S", ACCEPT, Verdict.REJECTED, 0, 13, 18, None, "AH 4C"),  # F4, F5: the exposer draws nothing
    ("5H 6S", REJECT, Verdict.ACCEPTED, 0, 12, 18, None, "AH 4C 5H 6S"),
    ("5H 6H", ACCEPT, Verdict.REJECTED, 0, 12, 18, None, "AH 4C"),  # F5: placed by its true verdict
])
def test_prophet_on_an_attempt(play: str, decision: ProphetDecision, verdict: Verdict, penalty: int,
                               bo_hand: int, ana_hand: int, prophet: str | None, main: str) -> None:
    # given Ana prophet after 4C, when Bo plays and Ana decides, then F4/F5/F7 apply
    rnd = with_prophet()
    outcome = rnd.attempt("Bo", cards(play), decision)
    assert outcome.verdict is verdict
    assert (rnd.hand_size("Bo"), rnd.hand_size("Ana"), rnd.prophet) == (bo_hand, ana_hand, prophet)
    assert rnd.line == cards(main)
    assert outcome.overthrown == (prophet is None)
    assert outcome.prophet_penalty == (5 if prophet is None else 0)
    assert outcome.penalty == penalty


def test_overthrown_prophet_returns_at_their_seat() -> None:
    # given Ana deposed by Dee's turn, then Ana plays next, at her seat (F4)
    rnd = with_prophet()
    rnd.attempt("Bo", cards("5H"), ACCEPT)
    rnd.attempt("Cy", cards("6S"), ACCEPT)
    rnd.attempt("Dee", cards("7S"), ACCEPT)  # wrong, and Ana accepted it
    assert rnd.prophet is None and rnd.whose_turn == "Ana"
    assert rnd.state().marker is None


def test_exposer_is_not_expelled() -> None:
    # given expulsion on after the marker (20 laid), when Bo's wrong attempt exposes the prophet, then no expulsion (F5, E3)
    src = CardSource()
    rnd = new_round(players=FOUR, start="AH", hand=30)
    rnd.attempt("Ana", src.legal_chain(rnd, 1))
    rnd.become_prophet("Ana")
    rnd.attempt("Bo", src.legal_chain(rnd, 20), ACCEPT)
    assert rnd.expulsion_on
    outcome = rnd.attempt("Cy", src.wrong(rnd), ACCEPT)
    assert outcome.overthrown and not outcome.expelled and outcome.penalty == 0
    assert rnd.expelled == ()


# ----- F6: "no play" ----------------------------------------------------------------------

NO_RED = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 2C"  # after 4C nothing is legal
TWO_RED = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS 5H 6D"  # 5H and 6D are legal after 4C


@pytest.mark.parametrize(("hand", "decision", "verdict", "card", "bo", "ana", "prophet"), [
    (NO_RED, ACCEPT, Verdict.NOPLAY_RIGHT, None, 10, 13, "Ana"),  # F7 with N2
    (NO_RED, ProphetDecision.reject(Card.parse("2C")), Verdict.NOPLAY_RIGHT, None, 10, 18, None),  # F4, F6
    (TWO_RED, ACCEPT, Verdict.NOPLAY_WRONG, "5H", 13, 18, None),  # F6: the dealer picks, no penalty
    (TWO_RED, ProphetDecision.reject(Card.parse("6D")), Verdict.NOPLAY_WRONG, "6D", 13 + 5, 13, "Ana"),  # F6, F7
    (TWO_RED, ProphetDecision.reject(Card.parse("AS")), Verdict.NOPLAY_WRONG, "5H", 13, 18, None),  # F6
])
def test_prophet_on_a_no_play(hand: str, decision: ProphetDecision, verdict: Verdict, card: str | None,
                              bo: int, ana: int, prophet: str | None) -> None:
    # given Ana prophet and the line ending 4C, when Bo declares no play, then the true result is carried out (F6)
    rnd = with_prophet()
    outcome = rnd.no_play("Bo", cards(hand), decision)
    assert outcome.verdict is verdict
    assert outcome.card == (Card.parse(card) if card else None)
    assert (rnd.hand_size("Bo"), rnd.hand_size("Ana"), rnd.prophet) == (bo, ana, prophet)
    assert rnd.line[-1] == (Card.parse(card) if card else Card.parse("4C"))
    assert outcome.penalty == (5 if verdict is Verdict.NOPLAY_WRONG and prophet else 0)


def test_prophet_must_name_a_card_of_the_shown_hand() -> None:
    rnd = with_prophet()
    with pytest.raises(IllegalActionError, match="not in the shown hand"):
        rnd.no_play("Bo", cards(TWO_RED), ProphetDecision.reject(Card.parse("7H")))
    with pytest.raises(IllegalActionError, match="must name"):
        rnd.no_play("Bo", cards(TWO_RED), REJECT)


def test_declarers_new_hand_comes_before_the_prophets_5() -> None:
    # given one deck and hands of 17: the stock is empty after the deal (52-51-1)
    rnd = new_round(hand=17, decks=1)
    assert rnd.stock == 0
    rnd.attempt("Ana", cards("4C"))
    rnd.become_prophet("Ana")
    hand = cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AC 2C 3C 5C")  # nothing red: N2
    # when Bo's right no play is wrongly rejected, then Bo's 13 come first, Ana gets the 4 left (F4 [decided])
    outcome = rnd.no_play("Bo", hand, ProphetDecision.reject(Card.parse("2C")))
    assert (outcome.new_hand, outcome.prophet_penalty, rnd.stock) == (13, 4, 0)
    assert rnd.hand_size("Ana") == 16 + 4
    assert outcome.ended is EndReason.STOCK  # G1: the prophet's draw could not be covered
    assert rnd.prophet is None and rnd.result().prophet is None  # deposed first, no bonus (G1, G3)
