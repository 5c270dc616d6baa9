"""Scores (G2-G4), as pure functions and at the end of real rounds."""

from __future__ import annotations

import pytest
from rulekit import cards, new_round

from engine.cards import Card
from engine.events import ProphetDecision
from engine.scoring import EMPTY_BONUS, ProphetInOffice, score_round


@pytest.mark.parametrize(("hands", "emptied", "scores"), [
    ({"A": 0, "B": 5, "C": 12}, "A", {"A": 16, "B": 7, "C": 0}),  # the worked example: H=12
    ({"A": 3, "B": 3, "C": 3}, None, {"A": 0, "B": 0, "C": 0}),
    ({"A": 0, "B": 1, "C": 2}, None, {"A": 2, "B": 1, "C": 0}),  # emptied without the bonus (F5)
])
def test_each_scores_h_minus_hand_plus_4_for_emptying(hands: dict[str, int], emptied: str | None,
                                                      scores: dict[str, int]) -> None:
    # given hands, when scored, then H - hand, +4 for a legal emptying (G2), and the dealer takes the best (G4)
    got, dealer = score_round(hands, emptied)
    assert got == scores
    assert dealer == max(scores.values())


@pytest.mark.parametrize(("main", "branch", "table", "dealer"), [
    (3, 2, 40, 16),  # Bo 12-5+3+2*2 = 14 < Ana's 12+4 = 16 < 2*40: the dealer takes 16
    (10, 5, 6, 12),  # Bo 7+10+10 = 27, capped at twice the table at the appointment: 2*6 = 12
])
def test_prophet_bonus_and_dealer_cap(main: int, branch: int, table: int, dealer: int) -> None:
    hands = {"Ana": 0, "Bo": 5, "Cy": 12, "Dee": 9}
    office = ProphetInOffice("Bo", main, branch, table)
    scores, got_dealer = score_round(hands, "Ana", office)
    assert scores["Bo"] == 12 - 5 + main + 2 * branch  # G3
    assert scores["Ana"] == 12 + EMPTY_BONUS
    assert got_dealer == min(max(scores.values()), 2 * table) == dealer  # G4


def test_no_players_no_scores() -> None:
    with pytest.raises(ValueError, match="no players"):
        score_round({})


def test_prophet_in_office_at_the_end_gets_the_bonus_from_the_round() -> None:
    # given Ana prophet with 2 main and 3 branch cards after her marker, when the round ends, then +2 +6 (G3)
    rnd = new_round(players=("Ana", "Bo", "Cy", "Dee"), start="AH", hand=3)
    rnd.attempt("Ana", cards("4C"))  # table 2 when Ana is appointed
    rnd.become_prophet("Ana")
    rnd.attempt("Bo", cards("5S 6H"), ProphetDecision.reject())  # branch of 2: Bo 3-2+4 = 5
    rnd.attempt("Cy", cards("7S"), ProphetDecision.reject())  # branch of 1: Cy 3-1+2 = 4
    rnd.no_play("Dee", cards("5C 6C 8H"), ProphetDecision.reject(Card.parse("8H")))  # N3: 8H, +5
    rnd.attempt("Bo", cards("9S 10H 2C 3H 4S"), ProphetDecision.agree())  # Bo empties the hand
    result = rnd.result()
    assert result.ended is not None and result.emptied == "Bo" and result.prophet == "Ana"
    h = max(result.hands.values())
    assert result.hands == {"Ana": 2, "Bo": 0, "Cy": 4, "Dee": 7}
    main_after, branch_after = 1 + 5, 3  # 8H and Bo's five; the branches 5S 6H and 7S
    assert result.scores == {"Ana": h - 2 + main_after + 2 * branch_after, "Bo": h + 4, "Cy": h - 4, "Dee": 0}
    assert result.dealer == min(max(result.scores.values()), 2 * 2)  # G4: 2 table cards at the appointment


def test_deposed_prophet_gets_no_bonus() -> None:
    rnd = new_round(players=("Ana", "Bo", "Cy", "Dee"), start="AH")
    rnd.attempt("Ana", cards("4C"))
    rnd.become_prophet("Ana")
    rnd.attempt("Bo", cards("5S"), ProphetDecision.agree())  # wrong: Ana deposed
    result = rnd.result()
    assert result.prophet is None
    assert result.scores["Ana"] == max(result.hands.values()) - result.hands["Ana"]
    assert result.dealer == max(result.scores.values())
