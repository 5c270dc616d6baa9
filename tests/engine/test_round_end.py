"""Expulsion (E1-E3) and the end of the round (G1), under alternate colours."""

from __future__ import annotations

import pytest
from rulekit import CardSource, cards, new_round

from engine.cards import Card
from engine.events import EndReason, ProphetDecision, Verdict

ACCEPT, REJECT = ProphetDecision.agree(), ProphetDecision.reject()
FOUR = ("Ana", "Bo", "Cy", "Dee")

# ----- E1 -------------------------------------------------------------------------------


def test_every_tenth_table_card_is_marked() -> None:
    # given the starter, an accepted chain and rejected branches, then the 10th, 20th... laid are marked (E1)
    src = CardSource()
    rnd = new_round(hand=30)
    rnd.attempt("Ana", src.legal_chain(rnd, 8))  # table 9
    rnd.attempt("Bo", src.wrong(rnd, 3))  # table 12: the branch holds the 10th card
    rnd.attempt("Cy", src.legal_chain(rnd, 9))  # table 21
    laid = rnd.layout.laid
    assert [i + 1 for i, c in enumerate(laid) if c.marked] == [10, 20]
    tenth = rnd.layout.marked[0]
    assert tenth.branch == 0 and tenth.card == rnd.layout.branches[0].cards[0]
    assert rnd.layout.marked[1].branch is None
    assert rnd.layout.table_count == 21 == len(laid)


# ----- E2, E3 -----------------------------------------------------------------------------


@pytest.mark.parametrize(("chain", "expelled"), [(28, False), (29, True), (35, True)])
def test_expulsion_is_checked_before_the_turn(chain: int, expelled: bool) -> None:
    # given a table of 1+chain cards, when Bo's attempt is wrong, then expelled iff the table held 30 before (E2, E3)
    src = CardSource()
    rnd = new_round(hand=40)
    rnd.attempt("Ana", src.legal_chain(rnd, chain))
    outcome = rnd.attempt("Bo", src.wrong(rnd, 2))
    assert outcome.expelled is expelled and outcome.expulsion_on is expelled
    assert outcome.penalty == 4  # the usual penalty as well (E3)
    assert rnd.expelled == (("Bo",) if expelled else ())


def test_wrong_no_play_expels_and_right_no_play_does_not() -> None:
    src = CardSource()
    rnd = new_round(hand=40)
    rnd.attempt("Ana", src.legal_chain(rnd, 29))  # table 30; the line ends black
    right = rnd.no_play("Bo", src.hand(40, red=False))  # nothing red: right (N2)
    assert right.verdict is Verdict.NOPLAY_RIGHT and not right.expelled
    wrong = rnd.no_play("Cy", src.hand(39, red=False) + src.hand(1, red=True))  # a red card: wrong (N3)
    assert wrong.verdict is Verdict.NOPLAY_WRONG and wrong.expelled and wrong.penalty == 5


def test_expelled_players_never_come_back() -> None:
    src = CardSource()
    rnd = new_round(players=FOUR, start="AH", hand=40, decks=4)
    rnd.attempt("Ana", src.legal_chain(rnd, 29))
    rnd.attempt("Bo", src.wrong(rnd))
    order = []
    for _ in range(6):
        assert rnd.whose_turn is not None
        order.append(rnd.whose_turn)
        rnd.attempt(rnd.whose_turn, src.legal_chain(rnd, 1))
    assert order == ["Cy", "Dee", "Ana"] * 2
    assert rnd.hand_size("Bo") == 41  # kept for scoring (G2)


def test_prophet_threshold_counts_20_after_the_marker() -> None:
    # given a prophet appointed on a table of 30, then only 20 cards after the marker switch expulsion on (E2)
    src = CardSource()
    rnd = new_round(players=FOUR, start="AH", hand=40, decks=4)
    rnd.attempt("Ana", src.legal_chain(rnd, 29))  # table 30
    rnd.become_prophet("Ana")
    assert not rnd.expulsion_on
    out = rnd.attempt("Bo", src.wrong(rnd), REJECT)  # 1 after the marker
    assert not out.expelled and out.penalty == 2
    rnd.attempt("Cy", src.legal_chain(rnd, 18), ACCEPT)  # 19 after the marker
    out = rnd.attempt("Dee", src.wrong(rnd), REJECT)  # checked before: 19, off
    assert not out.expelled
    assert rnd.expulsion_on  # 20 now
    out = rnd.attempt("Bo", src.wrong(rnd), REJECT)
    assert out.expelled


def test_deposed_prophet_brings_back_the_general_threshold() -> None:
    # given a prophet on a table of 30, when the prophet is deposed, then from the next turn 30 applies again (E2)
    src = CardSource()
    rnd = new_round(players=FOUR, start="AH", hand=40, decks=4)
    rnd.attempt("Ana", src.legal_chain(rnd, 29))
    rnd.become_prophet("Ana")
    out = rnd.attempt("Bo", src.wrong(rnd), ACCEPT)  # Ana wrong: deposed; Bo free (F5)
    assert out.overthrown and not out.expelled
    assert rnd.expulsion_on
    assert rnd.attempt("Cy", src.wrong(rnd)).expelled


def test_a_new_prophet_restarts_the_count() -> None:
    src = CardSource()
    rnd = new_round(players=FOUR, start="AH", hand=40, decks=4)
    rnd.attempt("Ana", src.legal_chain(rnd, 1))
    rnd.become_prophet("Ana")
    rnd.attempt("Bo", src.legal_chain(rnd, 25), ACCEPT)  # 25 after Ana's marker
    assert rnd.expulsion_on
    rnd.attempt("Cy", src.legal_chain(rnd, 1), REJECT)  # Ana deposed
    rnd.attempt("Dee", src.legal_chain(rnd, 1))
    rnd.attempt("Ana", src.legal_chain(rnd, 1))
    rnd.attempt("Bo", src.legal_chain(rnd, 1))
    rnd.become_prophet("Bo")
    assert rnd.table_count >= 30 and not rnd.expulsion_on  # 0 after Bo's marker


# ----- G1 -------------------------------------------------------------------------------


def test_accepted_last_card_ends_the_round() -> None:
    rnd = new_round(hand=2)
    out = rnd.attempt("Ana", cards("4C 5H"))
    assert out.legally_emptied and out.ended is EndReason.EMPTIED
    assert rnd.ended is EndReason.EMPTIED and rnd.whose_turn is None
    assert rnd.result().emptied == "Ana"


def test_every_player_expelled_ends_the_round() -> None:
    src = CardSource()
    rnd = new_round(hand=40)
    rnd.attempt("Ana", src.legal_chain(rnd, 29))
    rnd.attempt("Bo", src.wrong(rnd))
    rnd.attempt("Cy", src.wrong(rnd))
    assert rnd.ended is None
    out = rnd.attempt("Ana", src.wrong(rnd))
    assert out.ended is EndReason.EXPELLED and rnd.expelled == ("Ana", "Bo", "Cy")


def test_every_player_but_the_prophet_expelled_ends_the_round() -> None:
    src = CardSource()
    rnd = new_round(hand=40)
    rnd.attempt("Ana", src.legal_chain(rnd, 1))
    rnd.become_prophet("Ana")
    rnd.attempt("Bo", src.legal_chain(rnd, 20), ACCEPT)
    rnd.attempt("Cy", src.wrong(rnd), REJECT)
    out = rnd.attempt("Bo", src.wrong(rnd), REJECT)
    assert out.ended is EndReason.EXPELLED and rnd.prophet == "Ana"
    assert rnd.result().prophet == "Ana"  # still in office: G3 applies


@pytest.mark.parametrize(("play", "penalty"), [("QD", 2), ("QD 5H", 3)])
def test_short_stock_gives_what_is_left_and_ends(play: str, penalty: int) -> None:
    # given one deck: stock 52-42-1=9; Ana's wrong 3 cards leave 3 (G1)
    rnd = new_round(decks=1)
    rnd.attempt("Ana", cards("2H 3H 4H"))
    assert rnd.stock == 3
    out = rnd.attempt("Bo", cards(play))
    assert out.penalty == penalty
    assert out.ended is (EndReason.STOCK if penalty < 2 * len(cards(play)) else None)


def test_stock_exactly_covering_the_draw_goes_on() -> None:
    rnd = new_round(decks=1)
    rnd.attempt("Ana", cards("2H 3H 4H"))  # stock 3
    out = rnd.attempt("Bo", cards("QD"))  # draws 2, stock 1
    assert out.ended is None and rnd.stock == 1


def test_expelled_by_a_penalty_the_stock_cannot_cover() -> None:
    # given expulsion on and an empty stock, then Bo is still expelled and the round ends (G1 [decided])
    src = CardSource()
    rnd = new_round(hand=40, decks=3)  # stock 156-120-1 = 35
    rnd.attempt("Ana", src.legal_chain(rnd, 29))
    rnd.attempt("Bo", src.wrong(rnd, 10))  # draws 20, stock 15
    rnd.attempt("Cy", src.legal_chain(rnd, 1))
    rnd.attempt("Ana", src.wrong(rnd, 8))  # wants 16: gets 15, ends
    assert rnd.ended is EndReason.STOCK and rnd.stock == 0
    assert "Ana" in rnd.expelled and rnd.turns[-1].penalty == 15


def test_unpunished_wrong_last_card_ends_without_bonus() -> None:
    # given Bo holding 1 card, when his wrong card exposes the prophet, then the round ends, no bonus (G1 [decided], F5)
    rnd = new_round(players=FOUR, start="AH", hand=1)
    rnd.attempt("Ana", cards("4C"), None)
    assert rnd.ended is EndReason.EMPTIED  # Ana emptied her one card legally
    rnd = new_round(players=FOUR, start="AH", hand=3)
    rnd.attempt("Ana", cards("4C"))
    rnd.become_prophet("Ana")
    rnd.attempt("Bo", cards("5H 6S"), ACCEPT)
    rnd.attempt("Cy", cards("7D 8C"), ACCEPT)
    rnd.attempt("Dee", cards("9H 10S"), ACCEPT)
    out = rnd.attempt("Bo", cards("JS"), ACCEPT)  # wrong, Ana accepted: F5
    assert out.overthrown and out.penalty == 0 and out.ended is EndReason.EMPTIED
    assert not out.legally_emptied
    result = rnd.result()
    assert result.emptied is None and result.prophet is None
    assert result.hands == {"Ana": 2 + 5, "Bo": 0, "Cy": 1, "Dee": 1}
    assert result.scores["Bo"] == 7  # H - 0, without the 4 (G2)


def test_exposing_turn_that_empties_deposes_the_prophet_first() -> None:
    # given Bo's last card is legal and Ana rejects it, then Ana draws 5 and has no bonus; Bo gets 4 more (G1 [decided])
    rnd = new_round(players=FOUR, start="AH", hand=2)
    rnd.attempt("Ana", cards("4C"))
    rnd.become_prophet("Ana")
    out = rnd.attempt("Bo", cards("5H 6S"), REJECT)
    assert out.overthrown and out.legally_emptied and out.ended is EndReason.EMPTIED
    result = rnd.result()
    assert result.prophet is None and result.hands["Ana"] == 1 + 5
    assert result.scores == {"Ana": 0, "Bo": 6 + 4, "Cy": 4, "Dee": 4}


def test_unpunished_wrong_no_play_of_a_last_legal_card_ends() -> None:
    # given Bo holds one legal card and declares no play, Ana wrongly agrees: the dealer plays it, Bo is empty (F5, F6)
    rnd = new_round(players=FOUR, start="AH", hand=2)
    rnd.attempt("Ana", cards("4C"))
    rnd.become_prophet("Ana")
    rnd.attempt("Bo", cards("5H"), ACCEPT)
    out = rnd.no_play("Cy", cards("6S 7D"), ACCEPT)  # 7D? after 5H only black: 6S legal
    assert out.card == Card.parse("6S") and out.overthrown and rnd.hand_size("Cy") == 1
    out = rnd.no_play("Dee", cards("8C 9S"))  # no prophet now; after 6S: red wanted, none: right
    assert out.verdict is Verdict.NOPLAY_RIGHT and out.ended is EndReason.EMPTIED and out.legally_emptied
    rnd = new_round(players=FOUR, start="AH", hand=2)
    rnd.attempt("Ana", cards("4C"))
    rnd.become_prophet("Ana")
    rnd.attempt("Bo", cards("5H"), ACCEPT)
    rnd.attempt("Cy", cards("6S"), ACCEPT)
    rnd.attempt("Dee", cards("7D"), ACCEPT)
    out = rnd.no_play("Bo", cards("8C"), ACCEPT)  # 8C is legal after 7D: Ana wrong
    assert out.overthrown and out.penalty == 0 and out.ended is EndReason.EMPTIED and not out.legally_emptied
