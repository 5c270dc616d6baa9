"""Saying so when the camera does not see the table (dealer/table/sight.py, issue 7)."""

from dealer.table.observer import PLAY_ZONE_NOT_WHOLE
from dealer.table.sight import CARDS_BUSY_SAY_AFTER_S, TableSight


def test_a_moment_unseen_is_no_news() -> None:
    sight = TableSight(say_after_s=3.0)
    assert [sight.unseen(t, "mat markers hidden this frame") for t in (10.0, 11.0, 12.5)] == [None, None, None]
    assert sight.seen(13.0) is None  # nothing was said, so nothing to take back


def test_the_mat_unseen_is_said_then_again_while_it_lasts_and_its_return() -> None:
    sight = TableSight(say_after_s=3.0, say_again_s=30.0)
    said = [sight.unseen(float(t), "mat lost: no mat markers for 15 frames") for t in range(0, 40)]
    spoken = [(t, s) for t, s in enumerate(said) if s]
    assert [t for t, _ in spoken] == [3, 33]
    assert spoken[0][1].startswith("I cannot see the mat")
    assert sight.seen(41.0) == "I can see the table again."
    # a new outage starts its own count
    assert sight.unseen(50.0, "mat lost") is None and sight.unseen(53.0, "mat lost") is not None


def test_a_play_zone_half_out_of_view_says_so_and_what_to_do() -> None:
    sight = TableSight(say_after_s=1.0)
    sight.unseen(0.0, f"{PLAY_ZONE_NOT_WHOLE} (2 of 4 corners)")
    text = sight.unseen(1.5, f"{PLAY_ZONE_NOT_WHOLE} (2 of 4 corners)")
    assert text is not None and text.startswith("I cannot see the whole play zone") and "calibration" in text


def test_something_moving_over_the_play_zone_for_long_is_said_with_its_likely_cause() -> None:
    # given a zone that something moves over, frame after frame, 3 frames a second
    sight = TableSight(busy_after_s=12.0, say_again_s=30.0)
    said = [(t / 3.0, sight.busy(t / 3.0, True, camera_moving=False)) for t in range(0, 3 * 45)]
    spoken = [(round(t, 1), s) for t, s in said if s]
    # then nothing for the time a hand takes to lay cards, then once, then again 30 s later
    assert [t for t, _ in spoken] == [12.0, 42.0]
    assert spoken[0][1].startswith("Something keeps moving over the play zone")
    # and a pause in the movement starts the count again
    assert sight.busy(45.0, False, camera_moving=False) is None
    assert sight.busy(46.0, True, camera_moving=False) is None and sight.busy(57.0, True, camera_moving=False) is None


def test_something_moving_over_cards_laid_in_the_zone_is_said_sooner() -> None:
    # cards lie in the play zone and something keeps moving over them (a hand left resting
    # there, or a lamp the dealer takes for one): the players are waiting for a verdict, so
    # the dealer says why it waits well before they would go on (about 8 s; issue 7)
    sight = TableSight(busy_after_s=12.0)
    said = [(t / 3.0, sight.busy(t / 3.0, True, camera_moving=False, cards_lie=t >= 9)) for t in range(0, 3 * 12)]
    spoken = [round(t, 1) for t, s in said if s]
    # counted from the first frame with cards under the movement, not from a hand hovering before
    assert spoken == [3.0 + CARDS_BUSY_SAY_AFTER_S] and CARDS_BUSY_SAY_AFTER_S < 8.0
    # a hand laying cards for a few seconds is no news
    sight = TableSight(busy_after_s=12.0)
    assert not any(sight.busy(t / 3.0, True, camera_moving=False, cards_lie=True) for t in range(0, 3 * 5))


def test_a_camera_that_keeps_moving_is_named_as_the_cause() -> None:
    sight = TableSight(busy_after_s=2.0)
    sight.busy(0.0, True, camera_moving=True)
    text = sight.busy(2.5, True, camera_moving=True)
    assert text is not None and text.startswith("The camera keeps moving") and "still" in text
