"""How far the whole picture moved (vision/picture_shift.py): a camera that sways or is
held moves it; a hand over the table does not."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.layout import default_layout
from vision.picture_shift import PictureShift
from vision.synthetic import CardPlacement, HandPlacement, PinholeView, render_table_scene
from vision.synthetic.sway import moved_picture

VIEW = PinholeView(tilt_deg=62.0, distance_mm=500.0, target_mm=(132.5, 60.0), size_wh=(1280, 720))
CARDS = (CardPlacement("4C", (90.0, 95.0), 3.0), CardPlacement("QH", (170.0, 95.0), -4.0))


def _table(hands: tuple[HandPlacement, ...] = ()) -> np.ndarray:
    return render_table_scene(default_layout(), VIEW, (), CARDS, rng=np.random.default_rng(1), hands=hands).frame_bgr


@pytest.mark.parametrize(("dx", "dy"), [(3.0, 0.0), (0.0, -5.0), (-8.0, 6.0)])
def test_given_a_camera_that_moved_then_the_step_is_its_move(dx: float, dy: float) -> None:
    table = _table()
    shift = PictureShift()
    assert shift.measure(table) is None  # the first frame: nothing to compare with
    step = shift.measure(moved_picture(table, dx, dy))
    assert step is not None
    assert step.step == pytest.approx((dx, dy), abs=1.0)
    assert step.since_reset_px == pytest.approx(np.hypot(dx, dy), abs=1.0)


def test_given_moves_then_they_add_up_until_reset() -> None:
    table = _table()
    shift = PictureShift()
    shift.measure(table)
    shift.measure(moved_picture(table, 2.0, 0.0))
    total = shift.measure(moved_picture(table, 4.0, 0.0))
    assert total is not None and total.since_reset_px == pytest.approx(4.0, abs=1.2)
    shift.reset()
    again = shift.measure(moved_picture(table, 4.0, 0.0))
    assert again is not None and again.since_reset_px < 0.5  # the same picture since the reset


def test_given_a_hand_over_a_still_table_then_the_picture_did_not_move() -> None:
    shift = PictureShift()
    shift.measure(_table())
    step = shift.measure(_table((HandPlacement((130.0, 90.0), 10.0),)))
    assert step is not None and step.since_reset_px < 0.8


def test_given_a_picture_of_nothing_but_noise_then_no_measure() -> None:
    # a blank view (a lens cap, a dark room): only sensor noise, which no move explains
    rng = np.random.default_rng(2)
    shift = PictureShift()
    for _ in range(2):
        noise = np.clip(rng.normal(128, 4, (720, 1280, 3)), 0, 255).astype(np.uint8)
        measured = shift.measure(noise)
    assert measured is None


def test_given_a_still_camera_for_many_frames_then_the_measure_does_not_drift() -> None:
    # each frame its own sensor noise and exposure, as a camera gives a still table
    rng = np.random.default_rng(5)
    table = _table().astype(np.float32)
    shift = PictureShift()
    measured = None
    for _ in range(60):
        frame = np.clip(table * rng.uniform(0.97, 1.03) + rng.normal(0, 3, table.shape), 0, 255).astype(np.uint8)
        measured = shift.measure(frame) or measured
    assert measured is not None and measured.since_reset_px < 0.6
