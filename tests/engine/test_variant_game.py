"""A game's totals the variant's way: wikipedia pays 10 points to each person who never
dealt when the game stops early (WK10); Howell pays nothing (G5)."""

from __future__ import annotations

import pytest

from engine.events import EndReason
from engine.game import Game, GameError
from engine.round import RoundResult


def _result(seats: tuple[str, ...], scores: list[int], dealer: int) -> RoundResult:
    return RoundResult("alternate-colour", EndReason.EMPTIED, dict.fromkeys(seats, 0), dict(zip(seats, scores)),
                       dealer, None, None, ())


def _two_rounds(variant: str) -> Game:
    game = Game(["Ana", "Bo", "Cy", "Dee"], machine_deals=True, variant=variant)
    game.add(_result(("Bo", "Cy", "Dee", "Ana"), [3, 0, 5, 1], 5))  # Ana's turn to deal
    game.add(_result(("Cy", "Dee", "Ana", "Bo"), [2, 2, 0, 7], 7))  # Bo's
    return game


def test_wikipedia_pays_who_never_dealt_when_the_game_stops_early() -> None:
    game = _two_rounds("wikipedia")
    assert game.totals() == {"Ana": 1, "Bo": 10, "Cy": 2, "Dee": 7}
    assert game.compensation() == {"Cy": 10, "Dee": 10}
    assert game.final_totals() == {"Ana": 1, "Bo": 10, "Cy": 12, "Dee": 17}
    assert game.leaders(final=True) == ("Dee",) and game.leaders() == ("Bo",)


def test_howell_and_a_complete_game_pay_no_compensation() -> None:
    assert _two_rounds("howell").compensation() == {}
    game = _two_rounds("wikipedia")
    game.add(_result(("Dee", "Ana", "Bo", "Cy"), [0, 0, 0, 0], 0))
    game.add(_result(("Ana", "Bo", "Cy", "Dee"), [0, 0, 0, 0], 0))
    assert game.complete and game.compensation() == {} and game.final_totals() == game.totals()


def test_an_unknown_variant_is_refused() -> None:
    with pytest.raises(GameError, match="'mao' is not a variant"):
        Game(["Ana", "Bo", "Cy"], variant="mao")
