"""Saying so when the camera does not see the table (dealer/table/sight.py, issue 7): timers
of the turn machine's state, stepped by observations."""

from dealer.speech.turn_words import words
from dealer.table.sight import CARDS_BUSY_SAY_AFTER_S, SightTimers, seen, unseen
from dealer.table.turn import initial, step
from dealer.table.turn_input import TableSeen, TableUnseen, Unseen
from dealer.table.turn_intents import KeepsMoving, TableNotSeen, TableSeenAgain, TurnIntent


def _unseen(times: list[float], why: Unseen = Unseen.NO_MAT, timers: SightTimers = SightTimers(),
            after_s: float = 3.0) -> tuple[SightTimers, list[tuple[float, TurnIntent]]]:
    said = []
    for t in times:
        timers, intent = unseen(timers, TableUnseen(t, why), after_s=after_s)
        if intent is not None:
            said.append((t, intent))
    return timers, said


def _busy(frames: list[tuple[float, bool, bool]], camera: bool = False, busy_after_s: float = 12.0,
          timers: SightTimers = SightTimers()) -> tuple[SightTimers, list[float]]:
    """``frames``: (t, something moving over the zone, cards lie there); when it was said."""
    spoken = []
    for t, moving, cards in frames:
        timers, told = seen(timers, TableSeen(t, moving, camera, cards), busy_after_s=busy_after_s)
        spoken += [round(t, 1) for i in told if isinstance(i, KeepsMoving)]
    return timers, spoken


def test_a_moment_unseen_is_no_news() -> None:
    timers, said = _unseen([10.0, 11.0, 12.5])
    assert said == []
    assert seen(timers, TableSeen(13.0))[1] == []  # nothing was said, so nothing to take back


def test_the_mat_unseen_is_said_then_again_while_it_lasts_and_its_return() -> None:
    timers, said = _unseen([float(t) for t in range(0, 40)])
    assert [t for t, _ in said] == [3.0, 33.0]
    assert said[0][1] == TableNotSeen(Unseen.NO_MAT) and words(said[0][1]).startswith("I cannot see the mat")
    timers, told = seen(timers, TableSeen(41.0))
    assert told == [TableSeenAgain()] and words(told[0]) == "I can see the table again."
    # a new outage starts its own count
    assert _unseen([50.0, 53.0], timers=timers)[1] == [(53.0, TableNotSeen(Unseen.NO_MAT))]


def test_a_play_zone_half_out_of_view_says_so_and_what_to_do() -> None:
    _, said = _unseen([0.0, 1.5], Unseen.ZONE_OUT, after_s=1.0)
    text = words(said[0][1])
    assert text.startswith("I cannot see the whole play zone") and "calibration" in text


def test_something_moving_over_the_play_zone_for_long_is_said_with_its_likely_cause() -> None:
    # given a zone that something moves over, frame after frame, 3 frames a second
    timers, spoken = _busy([(t / 3.0, True, False) for t in range(0, 3 * 45)])
    # then nothing for the time a hand takes to lay cards, then once, then again 30 s later
    assert spoken == [12.0, 42.0]
    assert words(KeepsMoving(False)).startswith("Something keeps moving over the play zone")
    # and a pause in the movement starts the count again
    assert _busy([(45.0, False, False), (46.0, True, False), (57.0, True, False)], timers=timers)[1] == []


def test_something_moving_over_cards_laid_in_the_zone_is_said_sooner() -> None:
    # cards lie in the play zone and something keeps moving over them (a hand left resting
    # there, or a lamp the dealer takes for one): the players are waiting for a verdict, so
    # the dealer says why it waits well before they would go on (about 8 s; issue 7)
    _, spoken = _busy([(t / 3.0, True, t >= 9) for t in range(0, 3 * 12)])
    # counted from the first frame with cards under the movement, not from a hand hovering before
    assert spoken == [3.0 + CARDS_BUSY_SAY_AFTER_S] and CARDS_BUSY_SAY_AFTER_S < 8.0
    # a hand laying cards for a few seconds is no news
    assert _busy([(t / 3.0, True, True) for t in range(0, 3 * 5)])[1] == []


def test_a_camera_that_keeps_moving_is_named_as_the_cause() -> None:
    _, spoken = _busy([(0.0, True, False), (2.5, True, False)], camera=True, busy_after_s=2.0)
    text = words(KeepsMoving(True))
    assert spoken == [2.5] and text.startswith("The camera keeps moving") and "still" in text


def test_the_turn_machine_keeps_the_timers_and_says_it_through_its_intents() -> None:
    state, said = initial(started=True), []
    for t in range(0, 5):
        state, intents = step(state, TableUnseen(float(t), Unseen.NO_MAT))
        said += intents
    assert said == [TableNotSeen(Unseen.NO_MAT)] and state.table.said_at == 3.0
    state, intents = step(state, TableSeen(5.0))
    assert intents == (TableSeenAgain(),) and state.table == SightTimers()
