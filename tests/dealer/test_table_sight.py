"""Saying so when the camera does not see the table (dealer/table_sight.py, issue 7)."""

from dealer.observer import PLAY_ZONE_NOT_WHOLE
from dealer.table_sight import TableSight


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
