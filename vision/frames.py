"""Where frames come from: one interface for a video file, stills, a live camera, a fake.

This is the one frame source of the project: ``eleusis play``, ``eleusis calibrate`` and
the tests all read frames through it. A :class:`FrameSource` has a ``name`` and a
``frames()`` generator of :class:`Frame`. The consumer handles each frame as it comes, so
when a camera vanishes (:class:`~vision.errors.CameraLost`) every reading made before
stays with it.

One error family: a source that cannot be opened (a missing video, an unreadable still,
a camera or stream that does not answer) raises :class:`~vision.errors.CameraOpenError`;
one that stops giving frames raises :class:`~vision.errors.CameraLost`. Both are a
:class:`~vision.errors.CameraError`.

A camera is a device number (``0``: the first webcam) or a URL: an http MJPEG or RTSP
stream such as a phone IP-camera app serves (read with OpenCV's FFmpeg backend). It is
read in a thread of its own, and ``frames()`` hands on the newest frame it gave: a
consumer slower than the camera drops frames, it never falls behind.
"""

from __future__ import annotations

import atexit
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Protocol, cast, runtime_checkable

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import CameraLost, CameraOpenError, ImageReadError

__all__ = [
    "CameraSource",
    "FakeSource",
    "Frame",
    "FrameSource",
    "ImageListSource",
    "VideoFileSource",
    "camera_from_text",
    "is_stream_url",
    "read_image",
]

# A webcam is asked for full HD: the card indices are small, every pixel helps. The
# camera may give less; the dealer says what it got (CameraSource.report).
ASKED_SIZE_WH = (1920, 1080)
# A network stream that does not answer within this time is reported, not waited on forever.
STREAM_TIMEOUT_MS = 8000
STREAM_SCHEMES = ("http://", "https://", "rtsp://", "rtsps://")
# Closing a camera's frames waits for its reader thread: a read in progress cannot be cut
# short (the capture is never released under it), but it gives up after STREAM_TIMEOUT_MS,
# so the wait is bounded by that and this margin. A thread left inside OpenCV's read when
# the interpreter finalizes aborts the whole process as the read returns ("FATAL: exception
# not rethrown", exit 134: a phone stream that stalls at the end of a round), so no reader
# is ever left running: closing joins it, and the program's exit stops and joins any reader
# whose frames were never closed (_stop_readers_at_exit).
READER_STOP_WAIT_S = 2.0
# A consumer waiting for a frame is woken by each new one; this bound only lets it hear
# Ctrl-C on Windows, where a lock wait without one is not interrupted.
WAIT_SLICE_S = 0.5

BgrImage = npt.NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class Frame:
    """One image of a stream: its number from 0, its time in seconds, BGR pixels."""

    index: int
    time_s: float
    bgr: BgrImage


@runtime_checkable
class FrameSource(Protocol):
    """Anything that yields frames: ``for frame in source.frames(): ...``."""

    @property
    def name(self) -> str: ...

    def frames(self) -> Iterator[Frame]: ...


MAX_IMAGE_PIXELS = 64_000_000  # a 50-megapixel phone photo fits; a header claiming 60000x60000 does not


@cache
def _pillow_with_heif() -> None:
    """Let Pillow open HEIF/HEIC, a phone's own photo format (an iPhone saves its photos as
    HEIC), which OpenCV does not decode: ``pillow-heif`` registers it, once a process."""
    from pillow_heif import register_heif_opener

    register_heif_opener()


def _check_pixel_count(path: Path) -> None:
    """Refuse an image whose header claims more pixels than a photo has, before decoding it
    (decoding would take width x height x 3 bytes)."""
    from PIL import Image

    _pillow_with_heif()

    try:
        with Image.open(path) as im:
            width, height = im.size
    except Image.DecompressionBombError:
        raise ImageReadError(f"{str(path)!r}: the image claims too many pixels to be a photo "
                             f"(at most {MAX_IMAGE_PIXELS // 1_000_000} megapixels are read)") from None
    except (OSError, ValueError, SyntaxError):
        return  # not a format Pillow knows: OpenCV decides below
    if width * height > MAX_IMAGE_PIXELS:
        raise ImageReadError(f"{str(path)!r}: the image is {width}x{height} pixels; at most "
                             f"{MAX_IMAGE_PIXELS // 1_000_000} megapixels are read")


def read_image(path: str | Path) -> BgrImage:
    """Read an image file as BGR uint8, upright as its camera's orientation tag says, or
    raise :class:`ImageReadError` naming it. OpenCV decodes what it knows (JPEG, PNG, WebP,
    TIFF ...); a phone's HEIC photo, which it does not, is decoded by Pillow."""
    p = Path(path)
    if not p.is_file():
        raise ImageReadError(f"{str(path)!r}: no such file")
    _check_pixel_count(p)
    data = np.fromfile(str(p), dtype=np.uint8)
    try:
        image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    except cv2.error:
        image = None
    if image is None:
        image = _read_with_pillow(p)
    if image is None:
        raise ImageReadError(f"{str(path)!r}: not an image OpenCV or Pillow can decode (JPEG, PNG, WebP, HEIC ...)")
    return np.ascontiguousarray(image)


def _read_with_pillow(path: Path) -> BgrImage | None:
    """``path`` decoded by Pillow (HEIF/HEIC included) and turned upright, as BGR; None when
    Pillow cannot decode it either."""
    from PIL import Image, ImageOps

    _pillow_with_heif()
    try:
        with Image.open(path) as im:
            upright = ImageOps.exif_transpose(im).convert("RGB")
    except (OSError, ValueError, SyntaxError):
        return None
    return np.asarray(cv2.cvtColor(np.asarray(upright, np.uint8), cv2.COLOR_RGB2BGR), np.uint8)


class ImageListSource:
    """Still images as a stream, one frame each, at a nominal ``fps``."""

    def __init__(self, paths: Sequence[str | Path], fps: float = 1.0) -> None:
        self._paths = [Path(p) for p in paths]
        self._fps = fps

    @property
    def name(self) -> str:
        return f"images[{len(self._paths)}]"

    def frames(self) -> Iterator[Frame]:
        for i, path in enumerate(self._paths):
            try:
                image = read_image(path)
            except ImageReadError as exc:
                missing = not Path(path).is_file()
                raise CameraOpenError(str(exc) if missing else f"{str(path)!r}: not a readable image (png, jpg, ...)") \
                    from exc
            yield Frame(i, i / self._fps, image)


class _Capture(Protocol):
    """The part of ``cv2.VideoCapture`` used here (a fake can stand in for tests)."""

    def isOpened(self) -> bool: ...

    def read(self) -> tuple[bool, BgrImage | None]: ...

    def release(self) -> None: ...

    def get(self, prop: int) -> float: ...


class VideoFileSource:
    """Frames of a video file; the stream ends at the end of the file.

    ``step`` keeps every step-th frame (their index stays the file's frame number).
    """

    def __init__(self, path: str | Path, capture_factory: Callable[[str], _Capture] | None = None,
                 step: int = 1) -> None:
        self._path = Path(path)
        self._step = max(1, step)
        self._factory: Callable[[str], _Capture] = capture_factory or cast(Callable[[str], _Capture],
                                                                            cv2.VideoCapture)

    @property
    def name(self) -> str:
        return f"video {str(self._path)!r}"

    def frames(self) -> Iterator[Frame]:
        if not self._path.is_file():
            raise CameraOpenError(f"{str(self._path)!r}: no such file")
        capture = self._factory(str(self._path))
        try:
            if not capture.isOpened():
                raise CameraOpenError(f"{str(self._path)!r}: cannot be opened as a video")
            fps = capture.get(cv2.CAP_PROP_FPS) or 30.0
            index = 0
            while True:
                ok, image = capture.read()
                if not ok or image is None:
                    if index == 0:
                        raise CameraOpenError(f"{str(self._path)!r}: the video has no readable frame")
                    return
                if index % self._step == 0:
                    yield Frame(index, index / fps, image)
                index += 1
        finally:
            capture.release()


def is_stream_url(text: str) -> bool:
    """True for a network stream address (http MJPEG, RTSP), as a phone camera app gives."""
    return text.strip().lower().startswith(STREAM_SCHEMES)


def camera_from_text(text: str) -> int | str:
    """``--camera``'s value: a device number, or a stream URL; anything else is a ValueError.

    >>> camera_from_text("0"), camera_from_text(" http://192.168.1.7:8080/video ")
    (0, 'http://192.168.1.7:8080/video')
    >>> camera_from_text("webcam")
    Traceback (most recent call last):
    ...
    ValueError: --camera 'webcam': give a device number (0 is the first webcam) or a stream URL (http://..., rtsp://...)
    """
    value = text.strip()
    if value.isdigit():
        return int(value)
    if is_stream_url(value):
        return value
    raise ValueError(f"--camera {text!r}: give a device number (0 is the first webcam) "
                     "or a stream URL (http://..., rtsp://...)")


def _without_password(url: str) -> str:
    """A stream URL as it may be printed: ``rtsp://user:secret@host`` loses its secret.

    >>> _without_password("rtsp://me:pw@10.0.0.2:554/live")
    'rtsp://me:***@10.0.0.2:554/live'
    """
    scheme, sep, rest = url.partition("://")
    netloc, slash, path = rest.partition("/")
    if "@" in netloc:
        userinfo, host = netloc.rsplit("@", 1)
        user = userinfo.split(":", 1)[0]
        netloc = f"{user}:***@{host}"
    return f"{scheme}{sep}{netloc}{slash}{path}"


def _open_capture(device: int | str) -> _Capture:
    """cv2.VideoCapture for a webcam number or a stream URL (FFmpeg, with time limits)."""
    level = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)  # our own message says it plainly
    try:
        if isinstance(device, str):
            params = [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, STREAM_TIMEOUT_MS, cv2.CAP_PROP_READ_TIMEOUT_MSEC,
                      STREAM_TIMEOUT_MS]
            return cast(_Capture, cv2.VideoCapture(device, cv2.CAP_FFMPEG, params))
        return cast(_Capture, cv2.VideoCapture(device))
    finally:
        cv2.utils.logging.setLogLevel(level)


class _NewestFrameReader:
    """Reads a capture in its own thread as fast as the camera gives frames, keeping only the newest.

    Once started the capture is the thread's alone: only it calls ``read()``, and it calls
    ``release()`` when it stops (told to by :meth:`stop`, or after the camera is lost).
    :meth:`next_after` hands the consumer the newest frame, waiting while none is newer than
    the one it has; a lost camera (or an error of ``read()``) is raised there, in the
    consumer's thread, once the last frame that came before it was handed on.
    """

    def __init__(self, capture: _Capture, name: str, max_failed_reads: int, retry_wait_s: float) -> None:
        self._capture = capture
        self._name = name
        self._max_failed = max_failed_reads
        self._wait_s = retry_wait_s
        self._changed = threading.Condition()
        self._stopping = threading.Event()
        self._newest: Frame | None = None
        self._failure: Exception | None = None
        self._start_s = 0.0
        self.given = 0  # frames the camera gave so far: the next frame's number
        self.thread = threading.Thread(target=self._run, name=f"frames of {name}", daemon=True)

    def start(self) -> None:
        """Start reading; frame times count from now."""
        self._start_s = time.monotonic()
        with _LIVE_LOCK:
            _LIVE_READERS.add(self)
        self.thread.start()

    def next_after(self, index: int) -> Frame:
        """The newest frame numbered above ``index``, once there is one; or the camera's loss."""
        with self._changed:
            while True:
                newest = self._newest
                if newest is not None and newest.index > index:
                    return newest
                if self._failure is not None:
                    raise self._failure
                # woken by each new frame; the time limit only lets Ctrl-C through on Windows
                self._changed.wait(WAIT_SLICE_S)

    def stop(self, wait_s: float) -> None:
        """Tell the thread to stop and wait for it ``wait_s`` at most. A read in progress ends
        first (a stream's gives up after STREAM_TIMEOUT_MS); the thread then releases the
        capture itself, so it is never released under a read."""
        self._stopping.set()
        if threading.current_thread() is not self.thread:  # the garbage collector may run in it
            self.thread.join(wait_s)

    def _run(self) -> None:
        try:
            self._read_until_stopped()
        except Exception as exc:  # handed to the consumer, raised in its thread
            self._fail(exc)
        finally:
            self._capture.release()
            with _LIVE_LOCK:
                _LIVE_READERS.discard(self)

    def _read_until_stopped(self) -> None:
        failed = 0
        while not self._stopping.is_set():
            ok, image = self._capture.read()
            if ok and image is not None:
                failed = 0
                self._keep(image)
                continue
            failed += 1
            if failed >= self._max_failed:
                self._fail(CameraLost(self._name, self.given, f"{failed} reads in a row gave no frame"))
                return
            self._stopping.wait(self._wait_s)

    def _keep(self, image: BgrImage) -> None:
        frame = Frame(self.given, time.monotonic() - self._start_s, image)
        with self._changed:
            self._newest = frame
            self.given += 1
            self._changed.notify_all()

    def _fail(self, failure: Exception) -> None:
        with self._changed:
            self._failure = failure
            self._changed.notify_all()


# The readers whose thread runs; each removes itself as its thread ends.
_LIVE_READERS: set[_NewestFrameReader] = set()
_LIVE_LOCK = threading.Lock()


def reader_stop_wait_s() -> float:
    """How long closing a camera's frames may wait for a read in progress to give up."""
    return STREAM_TIMEOUT_MS / 1000 + READER_STOP_WAIT_S


def _stop_readers_at_exit() -> None:
    """Stop every reader still running and wait for it, before the interpreter finalizes."""
    with _LIVE_LOCK:
        running = list(_LIVE_READERS)
    for reader in running:
        reader.stop(reader_stop_wait_s())


# Run at the program's exit before the interpreter is torn down (the threading module
# calls these as it joins its threads; a plain atexit hook would run too late).
getattr(threading, "_register_atexit", atexit.register)(_stop_readers_at_exit)


class CameraSource:
    """A live camera: a device number (``cv2.VideoCapture(0)``) or a stream URL.

    A webcam is asked for ``size_wh`` (1920x1080 by default); :meth:`report` says what it
    gave. A camera that cannot be opened raises :class:`CameraOpenError`; one that gives
    no frame ``max_failed_reads`` times in a row raises :class:`CameraLost` with the
    number of frames it gave before.

    The camera is read in a thread of its own as fast as it gives frames, and ``frames()``
    yields the newest one not yet yielded: a consumer slower than the camera judges a
    picture at most about a frame old, never a backlog. A frame's ``index`` stays the
    camera's own number, so the frames dropped in between show as gaps; ``dropped``
    counts them and :meth:`report` states it.
    """

    def __init__(self, device: int | str, size_wh: tuple[int, int] | None = ASKED_SIZE_WH,
                 max_failed_reads: int = 10, retry_wait_s: float = 0.05,
                 capture_factory: Callable[[int | str], _Capture] | None = None) -> None:
        self._device = device
        self._asked = size_wh if isinstance(device, int) else None  # a stream's size is the sender's
        self._max_failed = max_failed_reads
        self._wait_s = retry_wait_s
        self._factory: Callable[[int | str], _Capture] = capture_factory or _open_capture
        self.got_wh: tuple[int, int] | None = None
        self.handed = 0  # frames yielded
        self.dropped = 0  # frames the camera gave that a newer one replaced before they were asked for

    @property
    def name(self) -> str:
        if isinstance(self._device, str):
            return f"stream {_without_password(self._device)}"
        return f"camera {self._device}"

    def report(self) -> str:
        """What was asked and what came, once the first frame is in (for the player to see),
        then how many frames were dropped for newer ones, if any were."""
        if self.got_wh is None:
            return f"{self.name}: no frame yet"
        return f"{self.name}: {self._size_words()}{self._dropped_words()}"

    def _size_words(self) -> str:
        assert self.got_wh is not None
        got = f"{self.got_wh[0]}x{self.got_wh[1]}"
        if self._asked is None:
            return got
        if self._asked == self.got_wh:
            return f"{got}, as asked"
        return f"asked for {self._asked[0]}x{self._asked[1]}, got {got}"

    def _dropped_words(self) -> str:
        if not self.dropped:
            return ""
        return (f"; {self.dropped} of {self.dropped + self.handed} frames dropped "
                "(a newer one came before they were asked for)")

    def frames(self) -> Iterator[Frame]:
        # A webcam is read by the thread too, not only a stream: CAP_PROP_BUFFERSIZE is a
        # request only V4L2 (Linux) honours, other backends (Media Foundation, AVFoundation)
        # keep a queue of their own, and even one V4L2 buffer holds the frame taken just
        # after the previous read, up to a whole dealer step old. The thread decodes the
        # frames it drops, as the dealer's own reads did, on another core.
        reader = _NewestFrameReader(self._opened(), self.name, self._max_failed, self._wait_s)
        reader.start()
        try:
            last = -1
            while True:
                frame = reader.next_after(last)
                self.dropped += frame.index - last - 1
                self.handed += 1
                last = frame.index
                if self.got_wh is None:
                    self.got_wh = (int(frame.bgr.shape[1]), int(frame.bgr.shape[0]))
                yield frame
        finally:
            reader.stop(reader_stop_wait_s())

    def _opened(self) -> _Capture:
        """The capture, open, a webcam asked for its size and one buffer; else CameraOpenError."""
        capture = self._factory(self._device)
        try:
            if not capture.isOpened():
                raise CameraOpenError(self._open_failure())
            if self._asked is not None and hasattr(capture, "set"):
                capture.set(cv2.CAP_PROP_FRAME_WIDTH, self._asked[0])
                capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self._asked[1])
                # should the reader thread itself fall behind (decoding on a busy machine), the
                # driver holds one old frame, not V4L2's default four (others ignore it)
                capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        except BaseException:
            capture.release()
            raise
        return capture

    def _open_failure(self) -> str:
        if isinstance(self._device, str):
            return (f"{self.name} cannot be opened: is the camera app running, on the same Wi-Fi, "
                    "and is the address right?")
        return f"{self.name} cannot be opened: is it plugged in, and not used by another program?"


class FakeSource:
    """Frames given in advance, for tests; ``lose_after`` simulates a camera that vanishes.

    >>> import numpy as np
    >>> src = FakeSource([np.zeros((4, 4, 3), np.uint8)] * 3, lose_after=2)
    >>> seen = []
    >>> try:
    ...     for f in src.frames():
    ...         seen.append(f.index)
    ... except CameraLost as exc:
    ...     print(exc)
    camera fake lost after 2 frames: simulated loss
    >>> seen
    [0, 1]
    """

    def __init__(self, images: Iterable[BgrImage], fps: float = 30.0,
                 lose_after: int | None = None, name: str = "fake") -> None:
        self._images = images
        self._fps = fps
        self._lose_after = lose_after
        self._name = name

    @property
    def name(self) -> str:
        return f"camera {self._name}"

    def frames(self) -> Iterator[Frame]:
        count = 0
        for image in self._images:
            if self._lose_after is not None and count >= self._lose_after:
                break
            yield Frame(count, count / self._fps, image)
            count += 1
        if self._lose_after is not None:
            raise CameraLost(self.name, count, "simulated loss")
