"""Looking only where it matters (issue 7: >= 15 frames/s at 1920x1080 on two cores).

- :class:`ZoneMemory`: one zone's crop box, steady while the homography drifts by a pixel,
  and how much of the crop changed since the previous frame (for a reader that gives no
  occupancy of its own; vision/occupancy.py does this for the real reader).
- :func:`markers_in_boxes`: the mat's markers and the tokens looked for in a few boxes of
  the frame (around each mat marker where the homography puts it, and around the zones)
  instead of the whole frame.

The change is measured on a small grey thumbnail divided by its own mean, so the camera's
gain drifting from frame to frame (auto exposure) is not taken for a change.

>>> memory = ZoneMemory()
>>> still = np.full((120, 200, 3), 180, np.uint8)
>>> memory.look((0, 0, 200, 120), still)
1.0
>>> memory.look((0, 0, 200, 120), (still * 0.95).astype(np.uint8))  # only the light changed
0.0
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from calibration.markers import MarkerDetections, detect_markers

__all__ = ["BUSY_FRACTION", "ZoneMemory", "markers_in_boxes", "merge_boxes"]

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


@dataclass
class ZoneMemory:
    """One zone's crop over the frames: its steady box, and what changed in it."""

    box: Box | None = None
    _previous: npt.NDArray[np.float32] | None = None

    def steady_box(self, box: Box) -> Box:
        """The box to crop this frame: the last one while the new one is within a few
        pixels of it (the homography's smoothing moves it by a pixel now and then)."""
        if self.box is not None and max(abs(a - b) for a, b in zip(box, self.box)) <= BOX_JITTER_PX:
            return self.box
        return box

    def look(self, box: Box, crop_bgr: BgrImage) -> float:
        """Take this frame's crop; the share of the zone that changed since the last frame
        (1.0 when the crop moved or this is the first look)."""
        thumb = _thumbnail(crop_bgr)
        moved = box != self.box
        change = 1.0 if moved else _changed(thumb, self._previous)
        self.box, self._previous = box, thumb
        return change


def merge_boxes(boxes: list[Box]) -> list[Box]:
    """Boxes that overlap become the box around both, until none overlap."""
    out = list(boxes)
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                a, b = out[i], out[j]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    out[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return out


def markers_in_boxes(frame_bgr: BgrImage, boxes: list[Box], dictionary: str, scale: float = 1.0,
                     also: MarkerDetections | None = None) -> MarkerDetections:
    """The markers found inside the boxes (frame pixels), looked for in the crops resized by
    ``scale`` (0.5: a quarter of the pixels, for markers large enough), added to ``also``;
    a marker seen twice counts once."""
    ids: list[int] = [] if also is None else [int(i) for i in also.ids]
    corners: list[npt.NDArray[np.float64]] = [] if also is None else list(also.corners_px)
    for x0, y0, x1, y1 in merge_boxes(boxes):
        crop = np.ascontiguousarray(frame_bgr[y0:y1, x0:x1])
        if scale != 1.0:
            crop = np.asarray(cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA), np.uint8)
        found = detect_markers(crop, dictionary)
        for marker_id, quad in zip(found.ids.tolist(), found.corners_px):
            if int(marker_id) not in ids:
                ids.append(int(marker_id))
                corners.append(quad / scale + np.array([x0, y0], np.float64))
    if not ids:
        return MarkerDetections.empty()
    return MarkerDetections(np.array(ids, np.int64), np.stack(corners))
