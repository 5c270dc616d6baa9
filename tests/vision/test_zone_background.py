"""A zone's background (vision/zone_background.py): three explicit states, and a look learned
from still empty frames, followed by a running mean, replaced in a step by a shadow."""

from __future__ import annotations

import numpy as np
import pytest

from vision.zone_background import Background, BackgroundConfig, LookState

SHAPE = (6, 8, 3)


def _frame(level: float) -> np.ndarray:
    return np.full(SHAPE, level, np.float32)


def _state(bg: Background) -> LookState:
    return bg.state  # read afresh (a check of ``bg.state`` would narrow its type for the rest)


def _learned(level: float = 5.0) -> Background:
    bg = Background(BackgroundConfig(learn_after_frames=2, learn_rate=0.3, learn_shadow_frames=2))
    bg.seen()
    for _ in range(2):
        bg.learn(_frame(level), quiet=True, still=True, shadow=False)
    return bg


def test_the_look_goes_from_none_to_the_print_to_learned_and_back_when_forgotten() -> None:
    bg = Background(BackgroundConfig(learn_after_frames=3))
    assert bg.state is LookState.NO_LOOK and bg.reference is None
    bg.seen()
    assert _state(bg) is LookState.PRINT and bg.reference is None and not bg.learned
    assert not bg.learn(_frame(5.0), quiet=True, still=True, shadow=False)
    assert not bg.learn(_frame(5.0), quiet=True, still=True, shadow=False)
    assert _state(bg) is LookState.PRINT  # two quiet frames of three
    bg.learn(_frame(5.0), quiet=True, still=True, shadow=False)
    assert bg.learned and bg.reference is not None and float(bg.reference.mean()) == pytest.approx(5.0)
    bg.forget()
    assert _state(bg) is LookState.NO_LOOK and bg.reference is None


def test_a_moving_frame_starts_the_count_of_quiet_frames_again() -> None:
    bg = Background(BackgroundConfig(learn_after_frames=2))
    bg.seen()
    bg.learn(_frame(5.0), quiet=True, still=True, shadow=False)
    bg.learn(_frame(5.0), quiet=False, still=False, shadow=False)  # a hand passed
    bg.learn(_frame(5.0), quiet=True, still=True, shadow=False)
    assert bg.state is LookState.PRINT
    bg.interrupted()  # an arm across the zone
    bg.learn(_frame(5.0), quiet=True, still=True, shadow=False)
    assert bg.state is LookState.PRINT


def test_the_rooms_drift_is_followed_and_a_shadow_replaces_the_look_in_a_step() -> None:
    bg = _learned(5.0)
    assert not bg.learn(_frame(6.0), quiet=True, still=True, shadow=False)
    assert bg.reference is not None and float(bg.reference.mean()) == pytest.approx(5.3)  # 30 % of the new frame
    bg.learn(_frame(4.0), quiet=False, still=False, shadow=False)  # the shadow comes
    assert not bg.learn(_frame(4.0), quiet=True, still=True, shadow=True)  # its first still frame
    assert bg.learn(_frame(4.0), quiet=True, still=True, shadow=True)  # replaced, not averaged
    assert float(bg.reference.mean()) == pytest.approx(4.0)


def test_a_shadow_while_cards_lie_there_is_learned_round_them_and_the_look_under_them_is_stale() -> None:
    bg = _learned(5.0)
    cards = np.zeros(SHAPE[:2], bool)
    cards[2:4, 3:6] = True
    for _ in range(2):
        replaced = bg.learn(_frame(4.5), quiet=False, still=True, shadow=True, known=cards)
    assert replaced and bg.reference is not None
    assert np.allclose(bg.reference[~cards], 4.5) and np.allclose(bg.reference[cards], 5.0)
    assert bg.stale is not None and np.array_equal(bg.stale, cards)


def test_what_was_left_beside_a_new_edge_keeps_the_old_look_lit_by_the_edge() -> None:
    bg = _learned(5.0)
    phone = np.zeros(SHAPE[:2], bool)
    phone[1:3, 1:3] = True
    frame = _frame(4.6)
    frame[phone] = 3.0  # a dark phone in the shade
    for _ in range(2):
        bg.learn(frame, quiet=True, still=True, shadow=True, kept=phone, kept_as=_frame(4.6))
    assert bg.reference is not None and np.allclose(bg.reference, 4.6)


def test_a_clipped_colour_keeps_the_looks_own_value_and_a_colour_clipped_in_the_look_takes_the_frames() -> None:
    bg = Background(BackgroundConfig(learn_after_frames=1, learn_rate=0.5))
    bg.seen()
    clipped = np.zeros(SHAPE, bool)
    clipped[0, 0, 2] = True  # the look's red clipped in one pixel
    bg.learn(_frame(5.0), quiet=True, still=True, shadow=False, clipped=clipped)
    now = np.zeros(SHAPE, bool)
    now[5, 7, 1] = True  # this frame's green clipped in another
    bg.learn(_frame(6.0), quiet=True, still=True, shadow=False, clipped=now)
    assert bg.reference is not None
    assert np.allclose(bg.reference[5, 7], 5.0)  # no measure there: the look's own
    assert np.allclose(bg.reference[0, 0], 6.0)  # the look said only "at least": the frame's
    assert float(bg.reference[3, 3, 0]) == pytest.approx(5.5)  # elsewhere the running mean
    assert bg.clipped is not None and not bg.clipped.any()


def test_a_zone_watch_looks_against_no_look_then_the_print_then_the_learned_look() -> None:
    from vision.occupancy import ZoneWatch

    watch = ZoneWatch([(0, 0), (200, 0), (200, 100), (0, 100)])
    zone = np.full((280, 480, 3), (200, 214, 196), np.uint8)  # 2 px/mm, 20 mm margin
    to_table = np.array([[0.5, 0, -20], [0, 0.5, -20], [0, 0, 1.0]])
    assert _state(watch.background) is LookState.NO_LOOK
    first = watch.look(zone, to_table).occupancy
    assert _state(watch.background) is LookState.PRINT and not first.still and not first.empty_learned
    looks = [watch.look(zone, to_table).occupancy for _ in range(2)]  # still and empty: learned
    assert _state(watch.background) is LookState.LEARNED and watch.empty_learned
    assert looks[-1].still and not looks[-1].occupied
    watch.forget()  # the camera moved
    assert _state(watch.background) is LookState.NO_LOOK and not watch.empty_learned
