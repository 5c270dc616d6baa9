"""How far the whole picture moved since an earlier frame: a camera that sways or is held.

The dealer looks for the mat's markers only now and then (they are slow to find, and a
camera on a stand does not move); between two looks it reads the zones through the
homography it has. A camera on a springy stand, or a phone held over the table, moves the
picture a pixel or two every frame: read through a homography half a second old, the
zones slide under the cards, and every frame looks like a hand moving over the play zone.

:class:`PictureShift` tells, for a millisecond or two a frame, how far the picture moved
since the frame before (phase correlation of the two pictures, shrunk and in grey), and
in all since it was last reset. A hand moving over the table does not move the picture: the table
around it stays where it was, and that is what the correlation finds.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

__all__ = ["PictureShift", "Shift"]

_WIDTH = 320  # the picture is compared at this width: a shift is found to about 0.1 px here
_MIN_RESPONSE = 0.3  # a weaker correlation peak is no measure (a blank, dark or washed-out picture: ~0)


@dataclass(frozen=True)
class Shift:
    """How the picture moved: since the previous frame (``step``) and since the last
    :meth:`PictureShift.reset` (``since_reset``), frame pixels, x and y."""

    step: tuple[float, float]
    since_reset: tuple[float, float]

    @property
    def since_reset_px(self) -> float:
        return float(np.hypot(*self.since_reset))


class PictureShift:
    """Frame after frame, how far the picture moved; see the module's words.

    Each frame is compared with the frame of the last reset (one correlation a frame), so
    the measure's small errors do not add up; the step since the previous frame is the
    difference of two such measures."""

    def __init__(self, width: int = _WIDTH) -> None:
        self._width = width
        self._reference: npt.NDArray[np.float32] | None = None
        self._previous_small: npt.NDArray[np.float32] | None = None
        self._window: npt.NDArray[np.float32] | None = None
        self._scale = 1.0
        self._last: tuple[float, float] | None = None  # the previous frame's move since the reference
        self._reset_asked = False

    def _small(self, frame_bgr: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
        h, w = frame_bgr.shape[:2]
        self._scale = w / float(self._width)
        size = (self._width, max(8, int(round(h / self._scale))))
        grey = cv2.cvtColor(cv2.resize(frame_bgr, size, interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
        small = grey.astype(np.float32)
        small -= float(small.mean())  # the window's own outline, alike in any two pictures, is no match
        if self._window is None or self._window.shape != small.shape:
            self._window = np.asarray(cv2.createHanningWindow((size[0], size[1]), cv2.CV_32F), np.float32)
        return small

    def reset(self) -> None:
        """Count the movement from the frame last measured on (the mat was looked for on it)."""
        self._reset_asked = True

    def measure(self, frame_bgr: npt.NDArray[np.uint8]) -> Shift | None:
        """How the picture moved since the previous frame, and since the reset; None when it
        cannot be told (the first frame, another picture size, nothing to measure by)."""
        small = self._small(frame_bgr)
        reference, last = self._reference, self._last
        if self._reset_asked or reference is None or reference.shape != small.shape:
            # the frame measured last becomes the reference: moves count from it
            self._reset_asked = False
            reference, last = self._previous_small, (0.0, 0.0)
            self._reference = reference
        self._previous_small = small
        if reference is None or reference.shape != small.shape:
            self._last = None
            return None
        # copies: OpenCV multiplies the pictures by the window in place, and the reference
        # is measured against again and again
        (dx, dy), response = cv2.phaseCorrelate(reference.copy(), small.copy(), self._window)
        if response < _MIN_RESPONSE:
            self._last = None
            return None
        total = (float(dx) * self._scale, float(dy) * self._scale)
        self._last = total
        if last is None:
            return None
        return Shift((total[0] - last[0], total[1] - last[1]), total)
