"""Frame sources: files, stills, a camera that fails to open or vanishes, a fake."""

import re
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import frames as frames_module
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


def _numbered(number: int) -> np.ndarray:
    """A small picture whose first pixel spells ``number`` (three bytes, high first)."""
    image = np.zeros((4, 6, 3), np.uint8)
    image[0, 0] = (number >> 16 & 255, number >> 8 & 255, number & 255)
    return image


def _number_of(image: np.ndarray) -> int:
    high, middle, low = (int(v) for v in image[0, 0])
    return high << 16 | middle << 8 | low


class PacedCapture(ScriptedCapture):
    """A camera at ``fps``: read() takes 1/fps, as a real camera's does, and gives frame
    number ``given`` (``good`` frames in all, then only failures)."""

    def __init__(self, fps: float = 200.0, good: int = 10**9) -> None:
        super().__init__(good)
        self.period_s, self.given = 1.0 / fps, 0

    def read(self):
        time.sleep(self.period_s)
        self.reads += 1
        if self.reads > self.good:
            return False, None
        image = _numbered(self.given)
        self.given += 1
        return True, image


class SteppedCapture(ScriptedCapture):
    """A camera that gives its next frame only once the test took the one before
    (:meth:`took`): a consumer faster than the camera, with no clock to race. ``script``:
    True gives a frame, False is a failed read; after the script every read fails."""

    def __init__(self, script: Sequence[bool]) -> None:
        super().__init__(good=0)
        self.script, self.given, self.turns = list(script), 0, threading.Semaphore(1)

    def took(self) -> None:
        self.turns.release()

    def read(self):
        self.reads += 1
        if self.reads > len(self.script) or not self.script[self.reads - 1]:
            return False, None
        assert self.turns.acquire(timeout=10), "the test never took the frame before"
        image = _numbered(self.given)
        self.given += 1
        return True, image


def _busy_until(capture: PacedCapture, given: int, timeout_s: float = 10.0) -> None:
    """A dealer busy judging while the camera gives ``given`` frames in all."""
    deadline = time.monotonic() + timeout_s
    while capture.given < given:
        assert time.monotonic() < deadline, f"the camera gave {capture.given} frames, not {given}"
        time.sleep(0.002)


def _reader_threads(source: CameraSource) -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == f"frames of {source.name}"]


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


def _gradient(h: int, w: int) -> np.ndarray:
    """A picture whose every quarter differs: blue grows left to right, green top to bottom."""
    out = np.zeros((h, w, 3), np.uint8)
    out[..., 0] = np.linspace(0, 255, w)[None, :]
    out[..., 1] = np.linspace(0, 255, h)[:, None]
    out[..., 2] = 90
    return out


def test_given_a_phone_heic_photo_when_read_then_it_is_decoded_with_its_colours(tmp_path: Path) -> None:
    from PIL import Image
    from pillow_heif import register_heif_opener

    register_heif_opener()
    bgr = _gradient(120, 160)
    path = tmp_path / "IMG_0001.HEIC"
    Image.fromarray(bgr[..., ::-1]).save(path, format="HEIF", quality=95)
    assert cv2.imdecode(np.fromfile(str(path), np.uint8), cv2.IMREAD_COLOR) is None  # OpenCV alone cannot
    image = read_image(path)
    assert image.shape == bgr.shape and image.dtype == np.uint8
    assert float(np.abs(image.astype(int) - bgr).mean()) < 6


@pytest.mark.parametrize(("suffix", "read"), [(".jpg", read_image), (".tif", read_image),
                                              (".jpg", frames_module._read_with_pillow)])
def test_given_a_photo_taken_upright_and_stored_sideways_when_read_then_it_is_upright(tmp_path: Path, suffix,
                                                                                     read) -> None:
    """A phone stores a portrait photo as landscape pixels with an orientation tag (6: turn
    it 90 degrees clockwise to view). (A HEIC photo carries its turn in the picture's own
    header, which libheif applies when it decodes.)"""
    from PIL import Image

    stored = _gradient(120, 160)
    im = Image.fromarray(stored[..., ::-1])
    exif = im.getexif()
    exif[0x0112] = 6
    path = tmp_path / f"portrait{suffix}"
    im.save(path, exif=exif, quality=95)
    image = read(path)
    upright = cv2.rotate(stored, cv2.ROTATE_90_CLOCKWISE)
    assert image.shape == upright.shape
    assert float(np.abs(image.astype(int) - upright).mean()) < 6


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


@pytest.mark.parametrize(("device", "message"), [
    (3, "camera 3 cannot be opened: is it plugged in, and not used by another program?"),
    ("http://10.0.0.9:8080/video", "stream http://10.0.0.9:8080/video cannot be opened: is the camera app "
                                   "running, on the same Wi-Fi, and is the address right?"),
])
def test_given_a_camera_that_does_not_open_when_streamed_then_a_clear_error(device, message) -> None:
    capture = ScriptedCapture(0, opened=False)
    source = CameraSource(device, capture_factory=lambda i: capture)
    with pytest.raises(CameraOpenError, match=f"^{re.escape(message)}$"):
        list(source.frames())
    assert capture.released and capture.reads == 0 and not _reader_threads(source)


def test_given_a_camera_that_vanishes_when_streamed_then_frames_so_far_are_kept_and_loss_is_told() -> None:
    capture = SteppedCapture([True] * 4)
    source = CameraSource(1, max_failed_reads=3, retry_wait_s=0.0, capture_factory=lambda i: capture)
    seen = []
    with pytest.raises(CameraLost, match="camera 1 lost after 4 frames") as info:
        for frame in source.frames():
            seen.append(frame.index)
            capture.took()
    assert seen == [0, 1, 2, 3] and info.value.frames_read == 4 and capture.released
    assert isinstance(info.value, RuntimeError)


def test_given_a_camera_with_a_passing_hiccup_when_streamed_then_it_carries_on() -> None:
    capture = SteppedCapture([True, False, True, True])
    source = CameraSource(0, max_failed_reads=3, retry_wait_s=0.0, capture_factory=lambda i: capture)
    stream = source.frames()
    seen = []
    for _ in range(3):
        seen.append(next(stream).index)
        capture.took()
    assert seen == [0, 1, 2]


def test_given_a_webcam_then_full_hd_is_asked_and_what_came_is_reported() -> None:
    class Small(SteppedCapture):
        def __init__(self) -> None:
            super().__init__([True])
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


def test_given_a_camera_faster_than_the_dealer_when_streamed_then_the_newest_comes_and_older_are_dropped() -> None:
    # given a 200 fps camera and a dealer busy while it gives three more frames after each
    capture = PacedCapture(fps=200)
    source = CameraSource(0, capture_factory=lambda i: capture)
    stream = source.frames()
    seen, ages, times = [], [], []
    for _ in range(8):
        asked_at = capture.given
        frame = next(stream)
        seen.append(frame.index)
        ages.append(asked_at - 1 - frame.index)  # frames the camera had given since this one
        times.append(frame.time_s)
        assert _number_of(frame.bgr) == frame.index  # the index is the camera's own number
        _busy_until(capture, frame.index + 4)
    stream.close()
    # then each frame is newer than the last, with the frames it was too slow for dropped between
    assert all(later > earlier + 1 for earlier, later in zip(seen, seen[1:])), seen
    assert times == sorted(times)
    # and each was the newest when asked for: at most the one being handed over came after it
    assert max(ages) <= 1, ages
    # and the dropped frames are counted and told
    assert source.dropped == seen[-1] + 1 - len(seen)
    assert source.report() == (f"camera 0: asked for 1920x1080, got 6x4; {source.dropped} of {seen[-1] + 1} "
                               "frames dropped (a newer one came before they were asked for)")


def test_given_a_dealer_faster_than_the_camera_when_streamed_then_every_frame_comes() -> None:
    # given a camera that gives its next frame only after the dealer took the last one
    capture = SteppedCapture([True] * 20)
    source = CameraSource(0, max_failed_reads=1, retry_wait_s=0.0, capture_factory=lambda i: capture)
    seen = []
    with pytest.raises(CameraLost, match="camera 0 lost after 20 frames"):
        for frame in source.frames():
            seen.append(_number_of(frame.bgr))
            capture.took()
    # then none is dropped, and the report says nothing of dropping
    assert seen == list(range(20)) and source.dropped == 0
    assert source.report() == "camera 0: asked for 1920x1080, got 6x4"


def test_given_a_camera_that_vanishes_while_the_dealer_is_slow_then_its_last_frame_comes_then_the_loss() -> None:
    # given a 200 fps camera that gives 30 frames and then none, and a busy dealer
    capture = PacedCapture(fps=200, good=30)
    source = CameraSource(1, max_failed_reads=3, retry_wait_s=0.0, capture_factory=lambda i: capture)
    seen = []
    # when it is streamed
    with pytest.raises(CameraLost, match="camera 1 lost after 30 frames: 3 reads in a row gave no frame") as info:
        for frame in source.frames():
            seen.append(frame.index)
            _busy_until(capture, min(frame.index + 4, 30))
    # then the frames yielded are kept, frames were dropped between, and the last one came before the loss
    assert seen == sorted(set(seen)) and len(seen) < 30 and seen[-1] == 29
    assert info.value.frames_read == 30 and capture.released and not _reader_threads(source)


@pytest.mark.parametrize("how", ["close", "break", "error", "dropped"])
def test_given_a_stream_when_the_consumer_stops_early_then_the_reader_ends_and_the_camera_is_released(how) -> None:
    capture = PacedCapture(fps=200)
    source = CameraSource(7, capture_factory=lambda i: capture)
    # when the consumer takes a frame (the camera is read in a thread meanwhile), then stops
    if how == "close":
        stream = source.frames()
        next(stream)
        assert _reader_threads(source)
        stream.close()
    elif how == "break":
        for _frame in source.frames():
            assert _reader_threads(source)
            break
    elif how == "error":
        with pytest.raises(KeyError):
            for _frame in source.frames():
                assert _reader_threads(source)
                raise KeyError("the dealer's own error")
    else:  # the generator is dropped without being closed: the garbage collector closes it
        stream = source.frames()
        next(stream)
        assert _reader_threads(source)
        del stream
    # then the reader thread is gone and the camera released
    assert not _reader_threads(source) and capture.released
    reads = capture.reads
    time.sleep(0.05)
    assert capture.reads == reads  # nothing reads the camera any more


def test_given_a_capture_whose_read_fails_with_an_error_then_the_error_is_raised_to_the_consumer() -> None:
    class Broken(ScriptedCapture):
        def read(self):
            raise cv2.error("the decoder broke")

    capture = Broken(0)
    source = CameraSource("rtsp://10.0.0.2/live", capture_factory=lambda i: capture)
    with pytest.raises(cv2.error, match="the decoder broke"):
        next(source.frames())
    assert capture.released and not _reader_threads(source)


def test_given_a_lost_camera_when_its_frames_are_asked_again_then_it_is_reopened_and_counted_on() -> None:
    # given a camera lost after 2 frames, then back (the dealer's pause reopens the same source)
    captures = [SteppedCapture([True] * 2), SteppedCapture([True] * 3)]
    opened = list(captures)
    source = CameraSource(0, max_failed_reads=1, retry_wait_s=0.0, capture_factory=lambda i: captures.pop(0))
    runs = []
    for capture in opened:
        seen = []
        with pytest.raises(CameraLost):
            for frame in source.frames():
                seen.append(frame.index)
                capture.took()
        runs.append(seen)
    # then each opening numbers its frames from 0, and the source counts them all
    assert runs == [[0, 1], [0, 1, 2]] and source.handed == 5 and source.dropped == 0
    assert all(c.released for c in opened)


def test_given_a_read_that_hangs_when_the_stream_is_closed_then_it_returns_and_the_capture_is_released_after(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.frames

    monkeypatch.setattr(vision.frames, "READER_STOP_WAIT_S", 0.05)
    monkeypatch.setattr(vision.frames, "STREAM_TIMEOUT_MS", 50)  # closing waits this and the above

    class Hanging(ScriptedCapture):
        """One frame, then a read that hangs until ``go_on`` (a stream that stalls)."""

        def __init__(self) -> None:
            super().__init__(good=0)
            self.reading, self.go_on, self.released_while_reading = threading.Event(), threading.Event(), False

        def read(self):
            self.reads += 1
            if self.reads > 1:
                self.reading.set()
                self.go_on.wait(10)
                self.reading.clear()
            return True, _numbered(self.reads - 1)

        def release(self) -> None:
            self.released_while_reading, self.released = self.reading.is_set(), True

    capture = Hanging()
    source = CameraSource("http://10.0.0.9:8080/video", capture_factory=lambda i: capture)
    stream = source.frames()
    next(stream)
    assert capture.reading.wait(5)
    # when the consumer closes the stream while the camera's read hangs
    stream.close()
    # then closing returns, and the capture is not released under the read
    threads = _reader_threads(source)
    assert threads and not capture.released
    # and once the read returns, the thread releases it and ends
    capture.go_on.set()
    threads[0].join(5)
    assert not threads[0].is_alive() and capture.released and not capture.released_while_reading


class StallingCapture(ScriptedCapture):
    """A phone stream whose Wi-Fi drops: ``good`` frames, then a read that hangs ``stall_s``
    (longer than closing used to wait) before it gives up, as OpenCV's read timeout does."""

    def __init__(self, good: int, stall_s: float) -> None:
        super().__init__(good)
        self.stall_s = stall_s
        self.stalled = threading.Event()

    def read(self):
        if self.reads >= self.good:
            self.reads += 1
            self.stalled.set()
            time.sleep(self.stall_s)
            return False, None
        return super().read()


def test_given_a_stream_that_stalls_when_its_frames_are_closed_then_the_reader_has_ended_before_close_returns(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.frames

    # closing waits a stream's read timeout and then a little (scaled down: 0.6 s + 0.3 s)
    monkeypatch.setattr(vision.frames, "STREAM_TIMEOUT_MS", 600)
    monkeypatch.setattr(vision.frames, "READER_STOP_WAIT_S", 0.3)
    # given a stream whose read hangs after two frames (a phone on Wi-Fi that dropped), longer
    # than the little wait alone, as long as OpenCV's read timeout lets it
    capture = StallingCapture(2, stall_s=0.6)
    source = CameraSource("http://phone:8080/video", capture_factory=lambda d: capture)
    stream = source.frames()
    frame = next(stream)
    while frame.index < 1:
        frame = next(stream)
    assert capture.stalled.wait(5.0)
    # when the consumer closes the frames while the read hangs
    stream.close()
    # then the read was let finish and the reader thread is gone: none is left inside
    # OpenCV to abort the process as it exits (exit 134), and the capture was released by it
    assert not _reader_threads(source)
    assert capture.released
