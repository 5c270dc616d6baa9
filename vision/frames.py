"""Where frames come from: one interface for a video file, stills, a live camera, a fake.

A :class:`FrameSource` has a ``name`` and a ``frames()`` generator of :class:`Frame`.
The consumer handles each frame as it comes, so when a camera vanishes
(:class:`~vision.errors.CameraLost`) every reading made before stays with it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
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
    "read_image",
]

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


def read_image(path: str | Path) -> BgrImage:
    """Read an image file as BGR uint8, or raise :class:`ImageReadError` naming it."""
    p = Path(path)
    if not p.is_file():
        raise ImageReadError(f"{str(path)!r}: no such file")
    data = np.fromfile(str(p), dtype=np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise ImageReadError(f"{str(path)!r}: not an image OpenCV can decode")
    return np.ascontiguousarray(image)


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
            yield Frame(i, i / self._fps, read_image(path))


class _Capture(Protocol):
    """The part of ``cv2.VideoCapture`` used here (a fake can stand in for tests)."""

    def isOpened(self) -> bool: ...

    def read(self) -> tuple[bool, BgrImage | None]: ...

    def release(self) -> None: ...

    def get(self, prop: int) -> float: ...


class VideoFileSource:
    """Frames of a video file; the stream ends at the end of the file."""

    def __init__(self, path: str | Path, capture_factory: Callable[[str], _Capture] | None = None) -> None:
        self._path = Path(path)
        self._factory: Callable[[str], _Capture] = capture_factory or cast(Callable[[str], _Capture],
                                                                            cv2.VideoCapture)

    @property
    def name(self) -> str:
        return f"video {str(self._path)!r}"

    def frames(self) -> Iterator[Frame]:
        if not self._path.is_file():
            raise CameraOpenError(f"{self.name}: no such file")
        capture = self._factory(str(self._path))
        try:
            if not capture.isOpened():
                raise CameraOpenError(f"{self.name}: cannot be opened as a video")
            fps = capture.get(cv2.CAP_PROP_FPS) or 30.0
            index = 0
            while True:
                ok, image = capture.read()
                if not ok or image is None:
                    return
                yield Frame(index, index / fps, image)
                index += 1
        finally:
            capture.release()


class CameraSource:
    """A live camera by index (``cv2.VideoCapture(0)``).

    A camera that cannot be opened raises :class:`CameraOpenError`; one that gives no
    frame ``max_failed_reads`` times in a row raises :class:`CameraLost` with the
    number of frames it gave before.
    """

    def __init__(self, index: int, width: int | None = None, height: int | None = None,
                 max_failed_reads: int = 10, retry_wait_s: float = 0.05,
                 capture_factory: Callable[[int], _Capture] | None = None) -> None:
        self._index = index
        self._size = (width, height)
        self._max_failed = max_failed_reads
        self._wait_s = retry_wait_s
        self._factory: Callable[[int], _Capture] = capture_factory or cast(Callable[[int], _Capture],
                                                                            cv2.VideoCapture)

    @property
    def name(self) -> str:
        return f"camera {self._index}"

    def frames(self) -> Iterator[Frame]:
        capture = self._factory(self._index)
        try:
            if not capture.isOpened():
                raise CameraOpenError(
                    f"{self.name} cannot be opened: is it plugged in, and not used by another program?")
            width, height = self._size
            if width and height and hasattr(capture, "set"):
                capture.set(
                    cv2.CAP_PROP_FRAME_WIDTH, width)
                capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
            start = time.monotonic()
            index = 0
            failed = 0
            while True:
                ok, image = capture.read()
                if not ok or image is None:
                    failed += 1
                    if failed >= self._max_failed:
                        raise CameraLost(self.name, index, f"{failed} reads in a row gave no frame")
                    time.sleep(self._wait_s)
                    continue
                failed = 0
                yield Frame(index, time.monotonic() - start, image)
                index += 1
        finally:
            capture.release()


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
