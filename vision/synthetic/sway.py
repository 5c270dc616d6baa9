"""A camera that is never quite still: a stand that sways, a phone held in the hand.

A table is flat, so two views of it differ by a homography; for the small movements of a
camera on a springy stand (or in a hand) a shift and a slight turn of the picture is that
homography to within a pixel. :class:`Sway` gives each frame its own: a slow swing (the
stand, or the arm, ``swing_px`` at most, one swing every ``period_s``), a drift that
wanders (``drift_px``), and a tremor that changes from frame to frame (``tremor_px``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

__all__ = ["Sway", "handheld", "moved_picture", "springy_stand"]


def moved_picture(bgr: npt.NDArray[np.uint8], dx: float, dy: float, turn_deg: float = 0.0) -> npt.NDArray[np.uint8]:
    """The picture shifted by (dx, dy) pixels and turned by ``turn_deg`` about its middle, as a
    camera that moved a little films it (the edges filled by reflection)."""
    h, w = bgr.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2.0, h / 2.0), turn_deg, 1.0)
    matrix[0, 2] += dx
    matrix[1, 2] += dy
    return np.asarray(cv2.warpAffine(bgr, matrix, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT),
                      np.uint8)


@dataclass
class Sway:
    """The picture's movement frame by frame, at ``fps`` (pixels of a 1920-wide frame)."""

    fps: float
    swing_px: float = 3.0
    period_s: float = 1.6
    drift_px: float = 0.0
    tremor_px: float = 0.5
    turn_deg_per_px: float = 0.01  # the picture turns a little as it moves
    seed: int = 0
    _rng: np.random.Generator = field(init=False, repr=False)
    _frame: int = field(default=0, init=False)
    _drift: npt.NDArray[np.float64] = field(default_factory=lambda: np.zeros(2), init=False, repr=False)
    _phase: float = field(default=0.0, init=False)

    def __post_init__(self) -> None:
        self._rng = np.random.default_rng(self.seed)
        self._phase = float(self._rng.uniform(0.0, 2.0 * math.pi))

    def offset(self) -> tuple[float, float, float]:
        """This frame's shift (dx, dy, pixels of a 1920-wide frame) and turn (degrees); the next call is the next frame."""
        t = self._frame / max(self.fps, 1e-6)
        self._frame += 1
        w = 2.0 * math.pi / max(self.period_s, 1e-6)
        swing = self.swing_px * np.array([math.sin(w * t + self._phase), 0.6 * math.sin(1.3 * w * t)])
        if self.drift_px > 0.0:  # a random walk pulled back towards the middle
            step = self._rng.normal(0.0, self.drift_px * 0.08, 2)
            self._drift = 0.97 * self._drift + step
        tremor = self._rng.normal(0.0, self.tremor_px, 2) if self.tremor_px > 0.0 else np.zeros(2)
        dx, dy = swing + self._drift + tremor
        return float(dx), float(dy), float(self.turn_deg_per_px * dx)

    def __call__(self, bgr: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        """The frame as this camera films it now (the scene's edges filled by reflection)."""
        scale = bgr.shape[1] / 1920.0
        dx, dy, turn = self.offset()
        return moved_picture(bgr, dx * scale, dy * scale, turn)


def springy_stand(fps: float, seed: int = 0) -> Sway:
    """A phone on a clamp or gooseneck: a swing of a few pixels, a little tremor."""
    return Sway(fps, swing_px=3.0, period_s=1.6, drift_px=0.0, tremor_px=0.6, seed=seed)


def handheld(fps: float, seed: int = 0) -> Sway:
    """A phone held over the table by a player: a wandering aim and a hand's tremor."""
    return Sway(fps, swing_px=6.0, period_s=2.5, drift_px=12.0, tremor_px=2.0, seed=seed)
