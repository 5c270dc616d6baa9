"""`eleusis calibrate table|camera` on rendered videos and stills of the mat (made in tmp_path)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.camera import CHARUCO
from calibration.layout import default_layout
from calibration.profile import load_table_profile
from vision.synthetic import (
    Lighting,
    PinholeView,
    TokenPlacement,
    render_flat_view,
    render_table_scene as render_scene,
)
import dealer.app.commands.calibrate as calibrate_command
from dealer.app.cli import main

LAYOUT = default_layout()
CLOSE = PinholeView(tilt_deg=72, distance_mm=380, target_mm=(132.5, 95.0), yaw_deg=4)
FAR = PinholeView(tilt_deg=72, distance_mm=1600, target_mm=(132.5, 20.0))  # under the reader's 0.8 px/mm


def write_video(path: Path, view: PinholeView, count: int = 8, codec: str = "MJPG",
                nudge_after: int | None = None) -> Path:
    rng = np.random.default_rng(3)
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*codec), 10, view.size_wh)
    assert writer.isOpened()
    for k in range(count):
        v = view
        if nudge_after is not None and k >= nudge_after:  # someone bumps the camera
            v = PinholeView(view.tilt_deg - 3, view.distance_mm + 20, view.target_mm, view.yaw_deg + 3)
        light = Lighting(gain=0.92, blur_sigma_px=0.7, noise_sigma=2.5, gradient=(0.1, -0.1))
        tokens = (TokenPlacement("no_play", (60.0, 95.0), 12.0),)
        writer.write(render_scene(LAYOUT, v, tokens=tokens, lighting=light, rng=rng).frame_bgr)
    writer.release()
    return path


@pytest.mark.parametrize(("codec", "suffix"), [("MJPG", ".avi"), ("mp4v", ".mp4")])
def test_given_a_recorded_video_when_checked_headless_then_a_profile_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], codec: str, suffix: str) -> None:
    video = write_video(tmp_path / f"mat{suffix}", CLOSE, codec=codec)
    out, picture = tmp_path / "table.json", tmp_path / "zones.png"
    code = main(["calibrate", "table", "--video", str(video), "--headless", "--out", str(out),
                 "--annotated", str(picture)])
    said = capsys.readouterr().out
    assert code == 0, said
    assert "Cards laid in the play zone will be readable." in said and "px/mm" in said
    profile = load_table_profile(out)
    assert profile.readable and profile.px_per_mm > 2.0
    assert json.loads(out.read_text())["version"] == 1
    drawn = cv2.imread(str(picture))
    assert drawn is not None and drawn.shape == (720, 1280, 3)


def test_given_a_camera_too_far_then_it_says_to_come_closer_and_exits_1(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    video = write_video(tmp_path / "far.avi", FAR, count=4)
    code = main(["calibrate", "table", "--video", str(video), "--headless", "--out", str(tmp_path / "t.json")])
    said = capsys.readouterr().out
    assert code == 1
    assert "will NOT be readable" in said and "closer" in said and "higher resolution" in said
    assert (tmp_path / "t.json").exists()  # the mat was found: the profile is still written


def test_given_a_nudged_camera_then_the_check_follows_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    video = write_video(tmp_path / "nudged.avi", CLOSE, count=10, nudge_after=4)
    code = main(["calibrate", "table", "--video", str(video), "--headless", "--out", str(tmp_path / "t.json")])
    said = capsys.readouterr().out
    assert code == 0 and "moved 1 time" in said


def test_given_a_still_then_it_is_checked_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    still = tmp_path / "table.jpg"
    cv2.imwrite(str(still), render_scene(LAYOUT, CLOSE, lighting=Lighting(blur_sigma_px=0.6)).frame_bgr)
    assert main(["calibrate", "table", "--image", str(still), "--headless", "--out", str(tmp_path / "t.json")]) == 0
    assert "Mat found in 1 of 1 frame(s)" in capsys.readouterr().out


def test_given_a_picture_without_the_mat_then_no_profile_and_exit_1(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    still = tmp_path / "empty.png"
    cv2.imwrite(str(still), np.full((720, 1280, 3), 100, np.uint8))
    assert main(["calibrate", "table", "--image", str(still), "--headless", "--out", str(tmp_path / "t.json")]) == 1
    assert "not found" in capsys.readouterr().out and not (tmp_path / "t.json").exists()


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["calibrate", "table", "--video", "{tmp}/missing.avi", "--headless"], "no such file"),
        (["calibrate", "table", "--image", "{tmp}/notes.txt", "--headless"], "not a readable image"),
        (["calibrate", "table", "--image", "{tmp}/notes.txt", "--headless", "--camera-profile", "{tmp}/notes.txt"],
         "not JSON"),
        (["calibrate", "table", "--image", "{tmp}/notes.txt", "--headless", "--frames", "0"], "--frames"),
        (["calibrate", "camera", "--images", "{tmp}/notes.txt"], "not a readable image"),
    ],
)
def test_given_bad_input_then_a_clear_message_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         argv: list[str], needle: str) -> None:
    (tmp_path / "notes.txt").write_text("not an image")
    code = main([a.replace("{tmp}", str(tmp_path)) for a in argv])
    err = capsys.readouterr().err
    assert code == 2 and needle in err and "Traceback" not in err


def test_given_board_images_when_the_camera_is_calibrated_then_a_profile_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = np.random.default_rng(5)
    board = CHARUCO.image(4.0)
    w, h = CHARUCO.size_mm
    paths = []
    for k in range(7):
        view = PinholeView(tilt_deg=float(rng.uniform(50, 90)), yaw_deg=float(rng.uniform(-35, 35)),
                           distance_mm=float(rng.uniform(380, 460)), target_mm=(w / 2, h / 2))
        path = tmp_path / f"board{k}.png"
        cv2.imwrite(str(path), render_flat_view(board, 4.0, view, Lighting(blur_sigma_px=0.5), rng).frame_bgr)
        paths.append(str(path))
    out = tmp_path / "cam.json"
    assert main(["calibrate", "camera", "--images", *paths, "--out", str(out)]) == 0
    assert "Camera calibrated from 7 views" in capsys.readouterr().out
    focal = json.loads(out.read_text())["camera_matrix"][0][0]
    assert focal == pytest.approx(PinholeView().camera_matrix[0, 0], rel=0.05)


def test_given_no_target_then_help_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calibrate"]) == 2
    assert "table" in capsys.readouterr().err


def test_given_a_camera_that_is_not_there_then_exit_2_with_a_plain_message(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calibrate", "table", "--camera", "97", "--headless"]) == 2
    err = capsys.readouterr().err
    assert "camera 97 cannot be opened" in err and "Traceback" not in err


def test_given_a_display_when_previewed_then_the_zones_are_shown_and_s_checks_now(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    video = write_video(tmp_path / "mat.avi", CLOSE, count=6)
    shown: list[np.ndarray] = []
    keys = iter([-1, -1, ord("s")])
    monkeypatch.setattr(calibrate_command, "_has_display", lambda: True)  # as if a display answered
    monkeypatch.setattr(cv2, "imshow", lambda _title, img: shown.append(img))
    monkeypatch.setattr(cv2, "waitKey", lambda _ms: next(keys, -1))
    monkeypatch.setattr(cv2, "destroyAllWindows", lambda: None)
    out = tmp_path / "t.json"
    assert main(["calibrate", "table", "--video", str(video), "--out", str(out)]) == 0
    assert len(shown) == 3  # the check ran when s was pressed, on the frames shown so far
    assert "Mat found in 3 of 3 frame(s)" in capsys.readouterr().out and out.exists()
