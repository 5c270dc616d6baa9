"""A camera's own habits in the renders: automatic exposure and white balance that follow
what it films, and a camera that is never quite still (vision/synthetic/auto_camera.py,
sway.py); and a bridge-size deck (CardPlacement.size_mm)."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.layout import default_layout
from vision.synthetic import CardPlacement, PinholeView, render_table_scene
from vision.synthetic.auto_camera import AutoCamera
from vision.synthetic.sway import Sway, handheld, springy_stand

MAT = np.full((270, 480, 3), (40, 90, 40), np.uint8)  # a green mat filling the view


def _with_hand(image: np.ndarray) -> np.ndarray:
    out = image.copy()
    out[60:220, 150:330] = (120, 150, 210)  # skin over the middle of the view
    return out


def _film(camera: AutoCamera, frames: list[np.ndarray]) -> list[np.ndarray]:
    return [camera(f) for f in frames]


def test_given_the_first_frame_then_the_camera_gives_it_as_it_is() -> None:
    assert np.array_equal(AutoCamera(fps=30.0)(MAT), MAT)


def test_given_a_bright_hand_then_the_camera_darkens_and_cools_the_mat_and_recovers_after_it_left() -> None:
    camera = AutoCamera(fps=30.0)
    filmed = _film(camera, [MAT] + [_with_hand(MAT)] * 30 + [MAT] * 90)
    mat_seen = np.array([f[10, 10].astype(float) for f in filmed])
    under_hand = mat_seen[1:31]
    assert np.all(np.diff(under_hand[:, 1]) <= 0)  # darker frame after frame while the hand is there
    assert under_hand[-1, 1] < 0.85 * 90  # by a good part, not a flicker
    assert under_hand[-1, 2] / under_hand[-1, 1] < 40 / 90 * 0.95  # and less red: the skin's cast taken back
    assert mat_seen[40, 1] < mat_seen[-1, 1]  # a third of a second after the hand left it is still drifting
    assert np.abs(mat_seen[-1] - [40, 90, 40]).max() <= 3  # 3 s later it is back


def test_given_another_frame_rate_then_the_drift_takes_the_same_time() -> None:
    slow, fast = AutoCamera(fps=3.0), AutoCamera(fps=30.0)
    after_slow = _film(slow, [MAT] + [_with_hand(MAT)] * 3)[-1]  # one second of hand
    after_fast = _film(fast, [MAT] + [_with_hand(MAT)] * 30)[-1]
    assert abs(int(after_slow[10, 10, 1]) - int(after_fast[10, 10, 1])) <= 3


def _centroid(image: np.ndarray) -> np.ndarray:
    grey = image[:, :, 1].astype(np.float64)
    ys, xs = np.mgrid[0:grey.shape[0], 0:grey.shape[1]]
    return np.asarray([(xs * grey).sum() / grey.sum(), (ys * grey).sum() / grey.sum()], np.float64)


def test_given_a_swaying_camera_then_each_frame_moves_by_its_offset() -> None:
    import cv2

    disc = np.zeros((1080, 1920, 3), np.uint8)
    cv2.circle(disc, (960, 540), 12, (255, 255, 255), -1)
    dot = np.asarray(cv2.GaussianBlur(disc, (0, 0), 4.0), np.uint8)
    sway = Sway(fps=30.0, swing_px=8.0, tremor_px=1.0, turn_deg_per_px=0.0, seed=1)
    twin = Sway(fps=30.0, swing_px=8.0, tremor_px=1.0, turn_deg_per_px=0.0, seed=1)
    moves = []
    for _ in range(8):
        dx, dy, _turn = twin.offset()
        moved = _centroid(sway(dot)) - _centroid(dot)
        assert moved == pytest.approx([dx, dy], abs=0.1)
        moves.append((dx, dy))
    assert len({(round(x), round(y)) for x, y in moves}) >= 3  # it does move, frame to frame


@pytest.mark.parametrize(("preset", "most_px", "steps_px"), [(springy_stand, 6.0, (0.2, 3.5)), (handheld, 40.0, (1.5, 15.0))])
def test_given_a_preset_then_it_moves_as_much_as_it_says(preset, most_px, steps_px) -> None:  # type: ignore[no-untyped-def]
    sway = preset(30.0, 5)
    offsets = np.array([sway.offset()[:2] for _ in range(600)])
    steps = np.linalg.norm(np.diff(offsets, axis=0), axis=1)
    assert np.abs(offsets).max() <= most_px
    assert steps_px[0] <= float(np.median(steps)) <= steps_px[1]
    again = preset(30.0, 5)
    assert np.array_equal(offsets, np.array([again.offset()[:2] for _ in range(600)]))  # the same seed, the same film


def test_given_a_bridge_size_card_then_it_is_laid_narrower() -> None:
    view = PinholeView(tilt_deg=90.0, distance_mm=500.0, target_mm=(132.5, 93.0), size_wh=(640, 480))
    centre = (132.5, 93.0)

    def white_width(size_mm: tuple[float, float]) -> int:
        scene = render_table_scene(default_layout(), view, cards=(CardPlacement("2C", centre, 0.0, np.full(
            (352, 228, 3), 255, np.uint8), None, size_mm),), kit_print="bw")
        y = int(round(view.to_px([centre])[0][1]))
        row = scene.frame_bgr[y].astype(int).sum(axis=1)
        return int((row >= 3 * 250).sum())

    poker, bridge = white_width((63.5, 88.9)), white_width((57.0, 89.0))
    assert bridge / poker == pytest.approx(57.0 / 63.5, abs=0.04)
