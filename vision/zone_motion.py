"""How much of a zone changed since the previous frame: the one motion measure of the table
reader (:mod:`vision.table_read`), for the live dealer and `eleusis read` alike.

:class:`ZoneMotion` keeps one zone's crop box, steady while the homography drifts by a pixel,
and how much of it changed since the previous frame (a hand, a card on its way, an arm on
its way to the layout), with the whole picture's own move taken out, so a camera that sways
or is held moves no card (:mod:`vision.picture_shift`).

The change is measured on a small grey thumbnail divided by its own mean, so the camera's
gain drifting from frame to frame (auto exposure) is not taken for a change.

>>> motion = ZoneMotion()
>>> still = np.full((120, 200, 3), 180, np.uint8)
>>> motion.look((0, 0, 200, 120), still)
1.0
>>> motion.look((0, 0, 200, 120), (still * 0.95).astype(np.uint8))  # only the light changed
0.0
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

__all__ = ["BUSY_FRACTION", "Box", "ZoneMotion"]

Box = tuple[int, int, int, int]  # x0, y0, x1, y1 in frame pixels
BgrImage = npt.NDArray[np.uint8]

# Thumbnails are this many times smaller than the crop on each side: a card still covers
# dozens of thumbnail pixels, and camera noise averages out.
_THUMB_DIVISOR = 8
# A thumbnail pixel counts as changed when it differs from the other frame by this share
# of the zone's mean level: a white card on the printed zone differs by ~20 %, a hand by
# more; camera noise after averaging by well under 2 %.
CHANGED_LEVEL = 0.08
# Share of a zone's thumbnail that changed since the previous frame above which something
# is moving over it (a hand, a card on its way): nothing is judged on such a frame.
BUSY_FRACTION = 0.01
# A zone's box that moves by at most this many pixels keeps its old place: the table
# homography is smoothed and drifts by a pixel, which is no change on the table.
BOX_JITTER_PX = 4
# A picture that moved less than this (pixels) since the last frame stood still: its crops
# are compared as they are (the picture's measured move is that noisy).
STILL_STEP_PX = 0.4


def _thumbnail(crop_bgr: BgrImage) -> npt.NDArray[np.float32]:
    grey = cv2.cvtColor(crop_bgr, cv2.COLOR_BGR2GRAY) if crop_bgr.ndim == 3 else crop_bgr
    h, w = grey.shape[:2]
    small = cv2.resize(grey, (max(1, w // _THUMB_DIVISOR), max(1, h // _THUMB_DIVISOR)), interpolation=cv2.INTER_AREA)
    thumb = small.astype(np.float32)
    return thumb / max(1.0, float(thumb.mean()))


def _changed(a: npt.NDArray[np.float32], b: npt.NDArray[np.float32] | None) -> float:
    if b is None or a.shape != b.shape:
        return 1.0
    return float(np.mean(np.abs(a - b) > CHANGED_LEVEL))


def _changed_moved(a: npt.NDArray[np.float32], b: npt.NDArray[np.float32], dx: float, dy: float) -> float:
    """:func:`_changed` of two thumbnails of a picture that moved by (dx, dy) of their pixels
    from ``b`` to ``a``: lined up by the whole pixels of the move, and compared where both
    saw the zone. The move is measured to a fraction of a pixel, and the rest of it is less
    than a pixel: a pixel counts as changed only when no pixel next to its old place had
    about its value (a card's edge, a fraction of a pixel off, is no change; a hand, over
    the mat or a card, is)."""
    h, w = a.shape[:2]
    sx, sy = int(round(dx)), int(round(dy))
    if 2 * (abs(sx) + 1) >= w or 2 * (abs(sy) + 1) >= h:
        return 1.0
    near = np.ones((3, 3), np.uint8)
    low, high = cv2.erode(b, near), cv2.dilate(b, near)
    # a's pixel (x, y) was at (x - sx, y - sy) in b; one pixel more is left out all round
    ya, yb = 1 + max(0, sy), h - 1 + min(0, sy)
    xa, xb = 1 + max(0, sx), w - 1 + min(0, sx)
    now = a[ya:yb, xa:xb]
    then_low, then_high = low[ya - sy:yb - sy, xa - sx:xb - sx], high[ya - sy:yb - sy, xa - sx:xb - sx]
    changed = (now < then_low - CHANGED_LEVEL) | (now > then_high + CHANGED_LEVEL)
    return float(np.mean(changed))


@dataclass
class ZoneMotion:
    """One zone's crop over the frames: its steady box, and what changed in it."""

    box: Box | None = None
    _previous: npt.NDArray[np.float32] | None = None

    def steady_box(self, box: Box) -> Box:
        """The box to crop this frame: the last one while the new one is within a few
        pixels of it (the homography's smoothing moves it by a pixel now and then); a box
        that moved further but is about as big keeps its size (the camera moved, it did
        not come nearer), so its crops can be compared."""
        if self.box is None:
            return box
        if max(abs(a - b) for a, b in zip(box, self.box)) <= BOX_JITTER_PX:
            return self.box
        w, h = self.box[2] - self.box[0], self.box[3] - self.box[1]
        if abs((box[2] - box[0]) - w) <= BOX_JITTER_PX and abs((box[3] - box[1]) - h) <= BOX_JITTER_PX:
            return (box[0], box[1], box[0] + w, box[1] + h)
        return box

    def look(self, box: Box, crop_bgr: BgrImage, picture_step: tuple[float, float] | None = None) -> float:
        """Take this frame's crop; the share of the zone that changed since the last frame
        (1.0 on the first look, or when the crop moved and the picture did not say how).

        ``picture_step``: how far the whole picture moved since the last frame (pixels; a
        camera that sways or is held, vision/picture_shift.py). The last crop is moved
        with it (and with the box, if the box moved) before the two are compared, and what
        slid into view is not compared: a camera's movement is no movement over the zone."""
        thumb = _thumbnail(crop_bgr)
        previous, last_box = self._previous, self.box
        self.box, self._previous = box, thumb
        if previous is None or last_box is None or previous.shape != thumb.shape:
            return 1.0
        if picture_step is None:
            return 1.0 if box != last_box else _changed(thumb, previous)
        dx = (picture_step[0] - (box[0] - last_box[0])) / _THUMB_DIVISOR
        dy = (picture_step[1] - (box[1] - last_box[1])) / _THUMB_DIVISOR
        if abs(dx) < STILL_STEP_PX / _THUMB_DIVISOR and abs(dy) < STILL_STEP_PX / _THUMB_DIVISOR:
            return _changed(thumb, previous)  # a camera that stands still (the measure's own noise)
        return _changed_moved(thumb, previous, dx, dy)
