"""A zone's crop from frame to frame (vision/zone_motion.py ZoneMotion): a hand over it is a
change; the camera's own movement, measured on the whole picture, is not."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.layout import default_layout
from vision.zone_motion import BUSY_FRACTION, ZoneMotion
from vision.synthetic import CardPlacement, HandPlacement, PinholeView, render_table_scene
from vision.synthetic.sway import moved_picture

VIEW = PinholeView(tilt_deg=62.0, distance_mm=480.0, target_mm=(132.5, 60.0), size_wh=(1920, 1080))
CARDS = (CardPlacement("4C", (90.0, 95.0), 3.0), CardPlacement("QH", (170.0, 95.0), -4.0))
BOX = (420, 380, 1500, 940)  # around the play zone


def _table(hands: tuple[HandPlacement, ...] = ()) -> np.ndarray:
    return render_table_scene(default_layout(), VIEW, (), CARDS, rng=np.random.default_rng(1), hands=hands).frame_bgr


def _crop(frame: np.ndarray, box: tuple[int, int, int, int] = BOX) -> np.ndarray:
    return np.ascontiguousarray(frame[box[1]:box[3], box[0]:box[2]])


@pytest.mark.parametrize(("dx", "dy", "told"), [(1.6, -0.7, (1.5, -0.5)), (3.0, 2.0, (3.4, 1.7)), (-5.0, 0.0, (-4.6, 0.3))])
def test_given_a_camera_that_moved_and_its_measure_then_the_zone_is_still(dx, dy, told) -> None:  # type: ignore[no-untyped-def]
    table = _table()
    memory = ZoneMotion()
    memory.look(BOX, _crop(table), (0.0, 0.0))
    # measured to a few tenths of a pixel, as vision/picture_shift.py does
    assert memory.look(BOX, _crop(moved_picture(table, dx, dy)), told) < BUSY_FRACTION
    # without the measure, the same frames look like something moving over the zone
    blind = ZoneMotion()
    blind.look(BOX, _crop(table))
    assert blind.look(BOX, _crop(moved_picture(table, dx, dy))) > BUSY_FRACTION


def test_given_a_camera_that_moved_and_a_hand_then_the_hand_is_still_seen() -> None:
    memory = ZoneMotion()
    memory.look(BOX, _crop(_table()), (0.0, 0.0))
    handed = moved_picture(_table((HandPlacement((130.0, 80.0), 10.0),)), 2.0, 1.0)
    assert memory.look(BOX, _crop(handed), (2.0, 1.0)) > BUSY_FRACTION


def test_given_the_box_followed_the_camera_then_its_move_is_taken_into_account() -> None:
    # the box moved 8 px right with the homography, as the picture did: nothing moved on the table
    table = _table()
    memory = ZoneMotion()
    memory.look(BOX, _crop(table), (0.0, 0.0))
    moved_box = memory.steady_box((BOX[0] + 8, BOX[1] + 1, BOX[2] + 9, BOX[3] + 1))
    assert moved_box == (BOX[0] + 8, BOX[1] + 1, BOX[2] + 8, BOX[3] + 1)  # its size kept
    assert memory.look(moved_box, _crop(moved_picture(table, 8.0, 1.0), moved_box), (8.0, 1.0)) < BUSY_FRACTION
