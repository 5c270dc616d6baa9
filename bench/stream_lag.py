"""How old is the frame the dealer judges, from a 30 fps stream it handles 15 frames a second of?

    python3 bench/stream_lag.py [--seconds 10] [--fps 30] [--work-ms 66]

Not a test: the figures for docs/vision.md (a camera's newest frame). The camera is a
fake 30 fps stream of 1920x1080 pictures that keeps every frame, as FFmpeg and the
network keep a phone's MJPEG or RTSP stream: ``read()`` gives the oldest frame not yet
read, waiting until the camera takes it when it is not taken yet. The consumer spends
66 ms on each frame (the dealer's pace, about 15 frames a second; slept, not computed).
It is read two ways:

- sequential: one ``read()`` per frame, in the consumer's thread (CameraSource before);
- newest: CameraSource's reader thread, which hands on the newest frame.

Printed for each: the frames handled; the age of each when the consumer got it, in
camera frames (taken after it) and in milliseconds (since the camera took it), median
and worst; the frames dropped.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from vision.frames import BgrImage, CameraSource, Frame  # noqa: E402

SIZE_WH = (1920, 1080)


class BufferedStream:
    """A camera taking frame k at ``start + k / fps``, whose stream keeps every frame:
    ``read()`` gives the oldest one not yet read (a fresh 1920x1080 picture whose first
    pixel spells its number), waiting until it is taken."""

    def __init__(self, fps: float) -> None:
        self.fps = fps
        self.start = time.monotonic()
        self.next_number = 0
        self._picture = np.full((SIZE_WH[1], SIZE_WH[0], 3), 90, np.uint8)

    def taken_at(self, number: int) -> float:
        return self.start + number / self.fps

    def taken_by(self, now: float) -> int:
        """How many frames the camera has taken by ``now``."""
        return int((now - self.start) * self.fps) + 1

    def read(self) -> tuple[bool, BgrImage | None]:
        number = self.next_number
        wait_s = self.taken_at(number) - time.monotonic()
        if wait_s > 0:
            time.sleep(wait_s)
        self.next_number += 1
        picture = self._picture.copy()
        picture[0, 0] = (number >> 16 & 255, number >> 8 & 255, number & 255)
        return True, picture

    def isOpened(self) -> bool:  # noqa: N802 (cv2.VideoCapture's name)
        return True

    def release(self) -> None:
        return None

    def get(self, prop: int) -> float:
        return self.fps


def number_of(picture: BgrImage) -> int:
    high, middle, low = (int(v) for v in picture[0, 0])
    return high << 16 | middle << 8 | low


def sequential_frames(stream: BufferedStream) -> Iterator[Frame]:
    """One ``read()`` per frame asked for, in the consumer's thread: CameraSource before."""
    index = 0
    while True:
        ok, picture = stream.read()
        assert ok and picture is not None
        yield Frame(index, time.monotonic() - stream.start, picture)
        index += 1


@dataclass
class Ages:
    """The age of each frame the consumer got: in camera frames and in milliseconds."""

    frames: list[int]
    ms: list[float]

    def line(self) -> str:
        return (f"{len(self.frames)} frames handled; age median {statistics.median(self.frames):.0f} frames "
                f"({statistics.median(self.ms):.0f} ms), worst {max(self.frames)} frames ({max(self.ms):.0f} ms)")


def consume(frames: Iterator[Frame], stream: BufferedStream, seconds: float, work_s: float) -> Ages:
    """Take frames for ``seconds``, spending ``work_s`` on each, noting each one's age."""
    ages = Ages([], [])
    end = time.monotonic() + seconds
    for frame in frames:
        now = time.monotonic()
        number = number_of(frame.bgr)
        ages.frames.append(stream.taken_by(now) - 1 - number)
        ages.ms.append(1000 * (now - stream.taken_at(number)))
        if now >= end:
            break
        time.sleep(work_s)
    return ages


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0, help="how long each way is read")
    parser.add_argument("--fps", type=float, default=30.0, help="the camera's frames a second")
    parser.add_argument("--work-ms", type=float, default=66.0, help="the consumer's milliseconds per frame")
    args = parser.parse_args(argv)
    work_s = args.work_ms / 1000
    print(f"a {args.fps:g} fps {SIZE_WH[0]}x{SIZE_WH[1]} stream that keeps every frame, "
          f"{args.work_ms:g} ms per frame, {args.seconds:g} s each way")
    # each generator is closed as consume() returns (its last reference goes): the reader thread stops
    stream = BufferedStream(args.fps)
    ages = consume(sequential_frames(stream), stream, args.seconds, work_s)
    print(f"sequential read (before):  {ages.line()}; none dropped")
    stream = BufferedStream(args.fps)
    source = CameraSource("rtsp://bench/stream", capture_factory=lambda _device: stream)
    ages = consume(source.frames(), stream, args.seconds, work_s)
    print(f"newest-frame reader (now): {ages.line()}; {source.dropped} dropped")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
