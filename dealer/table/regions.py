"""Looking only where it matters (so the dealer keeps up at 1920x1080 on two cores):
:func:`markers_in_boxes`, the mat's markers and the tokens looked for in a few boxes of the
frame (around each mat marker where the homography puts it, and around the zones) instead
of the whole frame. How much of a zone changed is :mod:`vision.zone_motion`'s.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from calibration.markers import MarkerDetections, detect_markers
from vision.zone_motion import Box

__all__ = ["markers_in_boxes", "merge_boxes"]

BgrImage = npt.NDArray[np.uint8]


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
                     also: MarkerDetections | None = None, min_side_px: float | None = None) -> MarkerDetections:
    """The markers found inside the boxes (frame pixels), looked for in the crops reduced by
    ``scale`` (0.5: a quarter of the pixels, for markers large enough; corners refined at
    full resolution: calibration.markers.detect_markers), added to ``also``;
    a marker seen twice counts once. ``min_side_px``: no marker is smaller (frame pixels)."""
    ids: list[int] = [] if also is None else [int(i) for i in also.ids]
    corners: list[npt.NDArray[np.float64]] = [] if also is None else list(also.corners_px)
    for x0, y0, x1, y1 in merge_boxes(boxes):
        crop = np.ascontiguousarray(frame_bgr[y0:y1, x0:x1])
        found = detect_markers(crop, dictionary, min_side_px=min_side_px, scale=scale)
        for marker_id, quad in zip(found.ids.tolist(), found.corners_px):
            if int(marker_id) not in ids:
                ids.append(int(marker_id))
                corners.append(quad + np.array([x0, y0], np.float64))
    if not ids:
        return MarkerDetections.empty()
    return MarkerDetections(np.array(ids, np.int64), np.stack(corners))
