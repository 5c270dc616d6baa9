"""Frame sources: files, stills, a camera that fails to open or vanishes, a fake."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.errors import CameraLost, CameraOpenError, ImageReadError
from vision.frames import (
    CameraSource,
    FakeSource,
    FrameSource,
    ImageListSource,
    VideoFileSource,
    read_image,
)


class ScriptedCapture:
    """Stands in for cv2.VideoCapture: gives ``good`` frames, then only failures."""

    def __init__(self, good: int, opened: bool = True) -> None:
        self.good, self.opened, self.reads, self.released = good, opened, 0, False

    def isOpened(self) -> bool:
        return self.opened

    def read(self):
        self.reads += 1
        if self.reads <= self.good:
            return True, np.full((4, 6, 3), self.reads, np.uint8)
        return False, None

    def release(self) -> None:
        self.released = True

    def get(self, prop: int) -> float:
        return 25.0


def _frame(value: int) -> np.ndarray:
    return np.full((24, 32, 3), value, np.uint8)


@pytest.mark.parametrize("source", [
    FakeSource([_frame(1)]),
    ImageListSource([]),
    CameraSource(0, capture_factory=lambda i: ScriptedCapture(1)),
    VideoFileSource("x.avi"),
])
def test_given_any_source_then_it_is_a_frame_source(source) -> None:
    assert isinstance(source, FrameSource) and source.name


def test_given_still_images_when_streamed_then_one_frame_each_in_order(tmp_path: Path) -> None:
    paths = []
    for value in (10, 200):
        path = tmp_path / f"img{value}.png"
        cv2.imwrite(str(path), _frame(value))
        paths.append(path)
    frames = list(ImageListSource(paths).frames())
    assert [f.index for f in frames] == [0, 1] and [int(f.bgr[0, 0, 0]) for f in frames] == [10, 200]


@pytest.mark.parametrize(("content", "message"), [(None, "no such file"), (b"not a png", "not an image")])
def test_given_a_bad_image_file_when_read_then_the_error_names_it(tmp_path: Path, content, message) -> None:
    path = tmp_path / "bad.png"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(ImageReadError, match=f"bad.png.*{message}"):
        read_image(path)


def test_given_a_video_file_when_streamed_then_all_its_frames_come_and_it_ends(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (32, 24))
    for value in (0, 100, 200):
        writer.write(_frame(value))
    writer.release()
    frames = list(VideoFileSource(path).frames())
    assert len(frames) == 3 and abs(int(frames[1].bgr.mean()) - 100) < 8
    assert frames[2].time_s == pytest.approx(0.2)


def test_given_a_missing_video_when_streamed_then_it_cannot_be_opened(tmp_path: Path) -> None:
    with pytest.raises(CameraOpenError, match="missing.avi"):
        list(VideoFileSource(tmp_path / "missing.avi").frames())


def test_given_a_camera_that_does_not_open_when_streamed_then_a_clear_error() -> None:
    capture = ScriptedCapture(0, opened=False)
    with pytest.raises(CameraOpenError, match="camera 3 cannot be opened"):
        list(CameraSource(3, capture_factory=lambda i: capture).frames())
    assert capture.released


def test_given_a_camera_that_vanishes_when_streamed_then_frames_so_far_are_kept_and_loss_is_told() -> None:
    capture = ScriptedCapture(good=4)
    source = CameraSource(1, max_failed_reads=3, retry_wait_s=0.0, capture_factory=lambda i: capture)
    seen = []
    with pytest.raises(CameraLost, match="camera 1 lost after 4 frames") as info:
        for frame in source.frames():
            seen.append(frame.index)
    assert seen == [0, 1, 2, 3] and info.value.frames_read == 4 and capture.released
    assert isinstance(info.value, RuntimeError)


def test_given_a_camera_with_a_passing_hiccup_when_streamed_then_it_carries_on() -> None:
    class Hiccup(ScriptedCapture):
        def read(self):
            self.reads += 1
            return (False, None) if self.reads == 2 else (True, _frame(self.reads))

    source = CameraSource(0, max_failed_reads=3, retry_wait_s=0.0, capture_factory=lambda i: Hiccup(0))
    stream = source.frames()
    assert [next(stream).index for _ in range(3)] == [0, 1, 2]


def test_given_a_webcam_then_full_hd_is_asked_and_what_came_is_reported() -> None:
    class Small(ScriptedCapture):
        def __init__(self) -> None:
            super().__init__(good=2)
            self.asked: dict[int, float] = {}

        def set(self, prop: int, value: float) -> bool:
            self.asked[prop] = value
            return True

    capture = Small()
    source = CameraSource(0, capture_factory=lambda i: capture)
    assert source.report() == "camera 0: no frame yet"
    next(source.frames())
    assert capture.asked == {cv2.CAP_PROP_FRAME_WIDTH: 1920, cv2.CAP_PROP_FRAME_HEIGHT: 1080,
                             cv2.CAP_PROP_BUFFERSIZE: 1}  # the newest frame, not one 4 frames old
    assert source.report() == "camera 0: asked for 1920x1080, got 6x4"


def test_given_a_stream_url_then_nothing_is_asked_and_a_password_is_never_shown() -> None:
    from vision.frames import camera_from_text

    opened: list[object] = []
    source = CameraSource(camera_from_text("rtsp://me:secret@10.0.0.2:554/live"),
                          capture_factory=lambda d: opened.append(d) or ScriptedCapture(1))
    next(source.frames())
    assert opened == ["rtsp://me:secret@10.0.0.2:554/live"]
    assert source.report() == "stream rtsp://me:***@10.0.0.2:554/live: 6x4" and "secret" not in source.name
