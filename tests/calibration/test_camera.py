"""Camera intrinsics: defaults from the frame size, and ChArUco calibration on rendered views."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from calibration.camera import (
    CHARUCO,
    CameraProfile,
    calibrate_from_frames,
    default_camera,
)
from calibration.errors import (
    CalibrationFailedError,
    ProfileFileError,
    UnsupportedVersionError,
)
from vision.synthetic import Lighting, PinholeView, render_flat_view

BOARD_PX_PER_MM = 4.0


def board_views(count: int, seed: int = 0, hfov_deg: float = 60.0) -> list[np.ndarray]:
    """The kit's ChArUco page seen from several angles by a pinhole camera of known focal length."""
    rng = np.random.default_rng(seed)
    board = CHARUCO.image(BOARD_PX_PER_MM)
    w, h = CHARUCO.size_mm
    frames = []
    for _ in range(count):
        view = PinholeView(tilt_deg=float(rng.uniform(45, 90)), yaw_deg=float(rng.uniform(-40, 40)),
                           distance_mm=float(rng.uniform(380, 480)), hfov_deg=hfov_deg,
                           target_mm=(w / 2 + float(rng.uniform(-25, 25)), h / 2 + float(rng.uniform(-25, 25))))
        frames.append(render_flat_view(board, BOARD_PX_PER_MM, view, Lighting(blur_sigma_px=0.5, noise_sigma=2.0),
                                       rng, background_bgr=(90, 90, 90)).frame_bgr)
    return frames


@pytest.mark.parametrize(("size_wh", "hfov_deg"), [((1280, 720), 65.0), ((1920, 1080), 65.0), ((640, 480), 90.0)])
def test_given_no_calibration_then_the_default_has_no_distortion_and_a_focal_from_the_width(
        size_wh: tuple[int, int], hfov_deg: float) -> None:
    cam = default_camera(size_wh, hfov_deg)
    assert not cam.calibrated and not np.any(cam.dist_coeffs)
    assert cam.camera_matrix[0, 2] == size_wh[0] / 2 and cam.camera_matrix[1, 2] == size_wh[1] / 2
    assert cam.focal_px == pytest.approx(size_wh[0] / 2 / np.tan(np.radians(hfov_deg) / 2))


def test_given_views_of_the_board_when_calibrated_then_the_focal_length_is_recovered() -> None:
    frames = board_views(8, hfov_deg=60.0)
    truth = PinholeView(hfov_deg=60.0).camera_matrix
    profile = calibrate_from_frames(frames)
    assert profile.calibrated and profile.views >= 6
    assert profile.focal_px == pytest.approx(truth[0, 0], rel=0.03)
    assert profile.camera_matrix[0, 2] == pytest.approx(truth[0, 2], abs=15)
    assert profile.rms_px is not None and profile.rms_px < 1.0


def test_given_too_few_board_views_then_calibration_says_how_many_it_needs() -> None:
    blank = [np.full((720, 1280, 3), 128, np.uint8)] * 3
    with pytest.raises(CalibrationFailedError, match="0 of 3 frames"):
        calibrate_from_frames(blank)


def test_given_frames_of_two_sizes_then_calibration_refuses() -> None:
    frames = [np.zeros((720, 1280, 3), np.uint8), np.zeros((480, 640, 3), np.uint8)]
    with pytest.raises(CalibrationFailedError, match="640x480"):
        calibrate_from_frames(frames)


def test_given_a_profile_when_saved_and_loaded_then_it_is_the_same(tmp_path: Path) -> None:
    cam = default_camera((1280, 720))
    cam.save(tmp_path / "cam.json")
    back = CameraProfile.load(tmp_path / "cam.json")
    assert back.size_wh == cam.size_wh and np.allclose(back.camera_matrix, cam.camera_matrix)
    assert back.for_size((640, 360)).focal_px == pytest.approx(cam.focal_px / 2)


def test_given_another_version_then_loading_names_the_file_and_version(tmp_path: Path) -> None:
    data = default_camera((1280, 720)).to_dict()
    data["version"] = 99
    (tmp_path / "cam.json").write_text(json.dumps(data))
    with pytest.raises(UnsupportedVersionError, match=r"cam\.json.*version 99"):
        CameraProfile.load(tmp_path / "cam.json")


def test_given_a_missing_file_then_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ProfileFileError, match="nope.json"):
        CameraProfile.load(tmp_path / "nope.json")
