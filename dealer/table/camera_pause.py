"""A camera that goes away pauses the round instead of ending it: a cable or a phone's stream comes back.

:func:`paused_frames` passes a camera's frames through. When the camera is lost
(:class:`~vision.errors.CameraLost`: unplugged, the phone's stream dropped) it says so,
tries to open the camera again every ``retry_s`` seconds, and goes on with the new
frames when it is back, saying that too. The turn machine is told both, as observations
(``tell``: :class:`dealer.table.turn_input.CameraLost` with the last frame's time, then
:class:`~dealer.table.turn_input.CameraBack` with the first new frame's): it pauses in its
phase and goes on there, judging nothing across the gap. If the camera stays away ``wait_s``
seconds, the loss is raised as it was: the round ends as it always did (scored as it
stands, exit 3).

The clock and the sleep are parameters, so tests pause and resume without waiting.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator

from dealer.speech.i18n import N_, _
from dealer.table import turn_input
from vision.errors import CameraError, CameraLost
from vision.frames import Frame

__all__ = ["CAMERA_BACK", "CAMERA_GONE", "DEFAULT_WAIT_S", "paused_frames"]

DEFAULT_WAIT_S = 120.0
CAMERA_GONE = N_("The camera is gone: the round is paused. Nobody plays until it is back.")
CAMERA_BACK = N_("The camera is back: the round goes on.")


def paused_frames(open_frames: Callable[[], Iterable[Frame]], first: Iterable[Frame],
                  say: Callable[[str], None], wait_s: float = DEFAULT_WAIT_S, retry_s: float = 1.0,
                  clock: Callable[[], float] = time.monotonic,
                  sleep: Callable[[float], None] = time.sleep,
                  tell: Callable[[turn_input.CameraLost | turn_input.CameraBack], None] | None = None,
                  ) -> Iterator[Frame]:
    """``first``'s frames, then, after each loss, those of ``open_frames()`` once it gives one.

    Frame times and numbers keep increasing across a pause (a reopened camera starts both
    again from 0), so the turn protocol's timing and the kept frames stay right.
    """
    frames: Iterable[Frame] = first
    offset, shift = 0.0, 0
    last_t, last_index = 0.0, -1
    while True:
        try:
            for frame in frames:
                if offset or shift:
                    frame = Frame(frame.index + shift, frame.time_s + offset, frame.bgr)
                last_t, last_index = frame.time_s, frame.index
                yield frame
            return
        except CameraLost as lost:
            say(_(CAMERA_GONE))
            if tell is not None:
                tell(turn_input.CameraLost(last_t))
            gone_at = clock()
            while True:
                if clock() - gone_at >= wait_s:
                    raise lost
                sleep(retry_s)
                try:
                    reopened = iter(open_frames())
                    frame = next(reopened)
                except (CameraError, StopIteration):
                    continue
                say(_(CAMERA_BACK))
                offset = last_t - frame.time_s + (clock() - gone_at)
                shift = last_index + 1 - frame.index
                if tell is not None:
                    tell(turn_input.CameraBack(frame.time_s + offset))
                frames = _chain_first(frame, reopened)
                break


def _chain_first(frame: Frame, rest: Iterator[Frame]) -> Iterator[Frame]:
    yield frame
    yield from rest
