"""Frame sources: a video file, still images or a live camera, all as generators of BGR frames."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from calibration.errors import FrameSourceError

__all__ = ["camera_frames", "image_frames", "video_frames"]

ImageBGR = npt.NDArray[np.uint8]


def video_frames(path: str | Path, max_frames: int | None = None, step: int = 1) -> Iterator[ImageBGR]:
    """Every ``step``-th frame of a video file; raises FrameSourceError when it gives none."""
    p = Path(path)
    if not p.is_file():
        raise FrameSourceError(f"{str(p)!r}: no such video file")
    cap = cv2.VideoCapture(str(p))
    if not cap.isOpened():
        raise FrameSourceError(f"{str(p)!r}: cannot open it as a video")
    given = 0
    index = 0
    try:
        while max_frames is None or given < max_frames:
            ok, frame = cap.read()
            if not ok:
                break
            if index % step == 0:
                given += 1
                yield np.asarray(frame, dtype=np.uint8)
            index += 1
    finally:
        cap.release()
    if given == 0:
        raise FrameSourceError(f"{str(p)!r}: the video has no readable frame")


def image_frames(paths: Sequence[str | Path]) -> Iterator[ImageBGR]:
    """Still images, in order; raises FrameSourceError naming an unreadable one."""
    for path in paths:
        p = Path(path)
        frame = cv2.imread(str(p), cv2.IMREAD_COLOR) if p.is_file() else None
        if frame is None:
            raise FrameSourceError(f"{str(p)!r}: not a readable image (png, jpg, ...)")
        yield np.asarray(frame, dtype=np.uint8)


def camera_frames(index: int, max_frames: int | None = None,
                  size_wh: tuple[int, int] | None = (1280, 720)) -> Iterator[ImageBGR]:
    """Frames from a live camera (``cv2.VideoCapture(index)``)."""
    level = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)  # our message says it plainly
    try:
        cap = cv2.VideoCapture(index)
    finally:
        cv2.utils.logging.setLogLevel(level)
    if not cap.isOpened():
        raise FrameSourceError(f"camera {index}: cannot open it (is it plugged in, or used by another program?)")
    if size_wh is not None:
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, size_wh[0])
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size_wh[1])
    given = 0
    try:
        while max_frames is None or given < max_frames:
            ok, frame = cap.read()
            if not ok:
                if given == 0:
                    raise FrameSourceError(f"camera {index}: opened but gives no frames")
                break
            given += 1
            yield np.asarray(frame, dtype=np.uint8)
    finally:
        cap.release()
