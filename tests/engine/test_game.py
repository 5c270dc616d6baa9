"""A game of rounds: everyone deals once and totals add up (G5)."""

from __future__ import annotations

import pytest
from rulekit import AnyCard, cards

from engine.game import Game, GameError
from engine.round import Round, RoundResult


def finished_round(seats: tuple[str, ...]) -> RoundResult:
    """A round with hands of 2: seat 0 starts (an ace, C5) and plays one; seat 1 empties the hand."""
    rnd = Round.new(AnyCard(), list(seats), cards("AH"), hand_size=2)
    rnd.attempt(seats[0], cards("3C"))
    rnd.attempt(seats[1], cards("4C 5C"))
    assert rnd.ended is not None
    return rnd.result()


@pytest.mark.parametrize(("persons", "machine", "index", "dealer", "seats"), [
    ("Ana Bo Cy Dee", False, 0, "Ana", "Bo Cy Dee"),
    ("Ana Bo Cy Dee", False, 2, "Cy", "Dee Ana Bo"),  # the role passes to the left (G5)
    ("Ana Bo Cy", True, 1, None, "Cy Ana Bo"),  # the would-be dealer plays (C2)
])
def test_seating_passes_the_deal_to_the_left(persons: str, machine: bool, index: int, dealer: str | None,
                                             seats: str) -> None:
    game = Game(persons.split(), machine_deals=machine)
    assert game.seating(index) == (dealer, tuple(seats.split()))


@pytest.mark.parametrize(("persons", "machine"), [(3, False), (10, False), (2, True), (9, True)])
def test_game_size(persons: int, machine: bool) -> None:
    with pytest.raises(GameError, match="C2"):
        Game([f"P{i}" for i in range(persons)], machine_deals=machine)


def test_totals_add_rounds_and_human_dealers_scores() -> None:
    # given 4 people dealing in turn, when every round is added, then totals sum player and dealer scores (G4, G5)
    game = Game(["Ana", "Bo", "Cy", "Dee"])
    expected = dict.fromkeys(game.persons, 0)
    while not game.complete:
        dealer, seats = game.next_seating()
        result = finished_round(seats)
        game.add(result)
        for name, score in result.scores.items():
            expected[name] += score
        assert dealer is not None
        expected[dealer] += result.dealer
    assert game.totals() == expected
    assert len(game.rounds) == 4
    with pytest.raises(GameError, match="over"):
        game.add(result)


def test_machine_dealer_score_goes_to_nobody() -> None:
    game = Game(["Ana", "Bo", "Cy"], machine_deals=True)
    _, seats = game.next_seating()
    result = finished_round(seats)
    game.add(result)
    assert game.totals() == result.scores
    assert sum(game.totals().values()) == sum(result.scores.values())


def test_a_round_with_the_wrong_seats_is_refused() -> None:
    game = Game(["Ana", "Bo", "Cy", "Dee"])
    with pytest.raises(GameError, match="seats Bo Cy Dee"):
        game.add(finished_round(("Ana", "Bo", "Cy")))


def test_tied_leaders_share_the_win() -> None:
    # given two identical rounds won by different seats, then leaders are ranked by totals (G5)
    game = Game(["Ana", "Bo", "Cy"], machine_deals=True)
    for _ in range(3):
        _, seats = game.next_seating()
        game.add(finished_round(seats))
    totals = game.totals()
    best = max(totals.values())
    assert game.leaders() == tuple(n for n in game.persons if totals[n] == best)
    assert len(set(totals.values())) == 1 and game.leaders() == ("Ana", "Bo", "Cy")  # seat 1 wins each round: each person once, a 3-way tie


def test_each_round_may_have_a_person_or_the_machine_as_god() -> None:
    # given a game where the machine deals by default, when Bo is God in round 2, then Bo does not play
    game = Game(["Ana", "Bo", "Cy", "Dee"], machine_deals=True, rounds=3)
    assert game.seating(1, person_deals=True) == ("Bo", ("Cy", "Dee", "Ana"))
    first = game.add(finished_round(game.seating(0)[1]))
    played = game.add(finished_round(game.seating(1, person_deals=True)[1]))
    # then add() tells God from the seats, and Bo takes the dealer's score (G4)
    assert first.dealer is None and played.dealer == "Bo" and "Bo" not in played.result.scores
    assert game.totals()["Bo"] == first.result.scores["Bo"] + played.result.dealer
    game.add(finished_round(game.seating(2)[1]))
    assert game.complete and len(game.rounds) == 3


def test_rounds_beyond_the_persons_pass_the_deal_round_again() -> None:
    game = Game(["Ana", "Bo", "Cy"], machine_deals=True, rounds=4)
    assert game.turn_to_deal(3) == "Ana" and game.seating(3) == (None, ("Bo", "Cy", "Ana"))
    with pytest.raises(GameError, match="this game has 4 rounds"):
        game.seating(4)
