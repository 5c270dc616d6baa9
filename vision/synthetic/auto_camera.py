"""A camera's automatic exposure and white balance, frame after frame.

Every webcam and phone adjusts its exposure and white balance on its own. At a card table
that matters: a hand or an arm over a close view darkens (or lightens) the picture and
tints it towards skin, so the camera raises its gain and cools its colours while the hand
is there; when the hand leaves, the picture drifts back over the next second, right when
the dealer is waiting for the play zone to settle. White cards laid on a dark mat make it
lower its gain for as long as they lie there.

:class:`AutoCamera` models this as a camera does: it meters the picture (centre-weighted,
like most webcams' default metering), and moves its gain towards what would bring the
metered brightness back to what it saw at first, and its colour gains towards grey,
each with its own time constant (exposure about a third of a second, white balance about
a second), and only part of the way (``exposure_strength``, ``balance_strength``): a real
camera compensates, it does not cancel.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

__all__ = ["AutoCamera"]

_METER_WH = (48, 27)  # the picture metered at this size (a camera meters a coarse grid)


def _metering_weights() -> npt.NDArray[np.float32]:
    """Centre-weighted: the middle counts about three times the corners."""
    w, h = _METER_WH
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((xs - (w - 1) / 2) / (w / 2)) ** 2 + ((ys - (h - 1) / 2) / (h / 2)) ** 2
    weights = 1.0 + 2.0 * np.exp(-r2 / 0.5)
    return np.asarray(weights / weights.sum(), np.float32)


@dataclass
class AutoCamera:
    """The camera's own exposure and white balance, applied to each frame (BGR uint8).

    The first frame sets what the camera aims for (it had settled on the scene before the
    recording began). ``fps`` turns the time constants into per-frame steps.
    """

    fps: float
    exposure_tau_s: float = 0.35
    balance_tau_s: float = 1.0
    exposure_strength: float = 0.8  # how much of a brightness change the camera takes back
    balance_strength: float = 0.6  # how much of a colour cast it takes back
    gain_range: tuple[float, float] = (0.6, 1.7)
    _weights: npt.NDArray[np.float32] = field(default_factory=_metering_weights, init=False, repr=False)
    _aim: npt.NDArray[np.float64] | None = field(default=None, init=False, repr=False)  # metered BGR at first
    gains: npt.NDArray[np.float64] = field(default_factory=lambda: np.ones(3), init=False)

    def _meter(self, bgr: npt.NDArray[np.uint8]) -> npt.NDArray[np.float64]:
        small = cv2.resize(bgr, _METER_WH, interpolation=cv2.INTER_AREA).astype(np.float32)
        return np.asarray((small * self._weights[:, :, None]).sum(axis=(0, 1)), np.float64) + 1.0

    def _step(self, tau_s: float) -> float:
        return 1.0 - math.exp(-1.0 / (max(self.fps, 1e-6) * max(tau_s, 1e-6)))

    def __call__(self, bgr: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        """The frame as this camera gives it: metered as the scene is, with the gains it has
        reached so far (they move towards the new aim from frame to frame)."""
        metered = self._meter(bgr)
        if self._aim is None:
            self._aim = metered
        aim = self._aim
        # exposure: one gain for the whole picture, towards the brightness it aimed for
        want_exposure = (aim.mean() / metered.mean()) ** self.exposure_strength
        # white balance: each colour towards the balance it aimed for (grey world, in part)
        cast = (metered / metered.mean()) / (aim / aim.mean())
        want_balance = cast ** (-self.balance_strength)
        exposure = float(np.clip(self.gains.mean(), *self.gain_range))
        balance = self.gains / max(self.gains.mean(), 1e-6)
        exposure += self._step(self.exposure_tau_s) * (want_exposure - exposure)
        balance = balance + self._step(self.balance_tau_s) * (want_balance - balance)
        self.gains = np.clip(exposure * balance / max(balance.mean(), 1e-6), *self.gain_range)
        out = bgr.astype(np.float32) * self.gains.astype(np.float32)
        return np.asarray(np.clip(out, 0, 255), np.uint8)
