"""Drawing the table's zones, markers and tokens on a copy of a frame (never on the frame itself)."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from calibration.layout import (
    ZONE_MAIN_LINE,
    ZONE_PLAY,
    ZONE_SIDE_BRANCHES,
    TableLayout,
)
from calibration.table import TableHomography
from calibration.tokens import TokenSighting

__all__ = ["ZONE_COLOURS_BGR", "draw_table_overlay"]

ImageBGR = npt.NDArray[np.uint8]

ZONE_COLOURS_BGR = {
    ZONE_PLAY: (60, 200, 60),
    ZONE_SIDE_BRANCHES: (0, 165, 255),
    ZONE_MAIN_LINE: (255, 160, 40),
}
_ZONE_TITLES = {ZONE_PLAY: "PLAY ZONE", ZONE_SIDE_BRANCHES: "SIDE BRANCHES", ZONE_MAIN_LINE: "MAIN LINE"}


def draw_table_overlay(frame: ImageBGR, homography: TableHomography | None, layout: TableLayout,
                       tokens: Sequence[TokenSighting] = (), lines: Sequence[str] = ()) -> ImageBGR:
    """A copy of the frame with the zones, the markers used, the tokens and some text lines."""
    out = frame.copy()
    if homography is not None:
        for zone in layout.zones:
            pts = homography.to_px(list(zone.polygon_mm))
            colour = ZONE_COLOURS_BGR.get(zone.name, (200, 200, 200))
            cv2.polylines(out, [np.round(pts).astype(np.int32)], True, colour, 2, cv2.LINE_AA)
            anchor = pts.min(axis=0)
            x = int(np.clip(anchor[0] + 6, 0, out.shape[1] - 150))
            y = int(np.clip(anchor[1] + 22, 20, out.shape[0] - 5))
            _label(out, _ZONE_TITLES.get(zone.name, zone.name), (x, y), colour)
        for m in layout.markers:
            if m.marker_id in homography.marker_ids:
                pts = homography.to_px(list(m.corners_mm))
                cv2.polylines(out, [np.round(pts).astype(np.int32)], True, (0, 255, 255), 1, cv2.LINE_AA)
    for t in tokens:
        cx, cy = (round(v) for v in t.centre_px)
        cv2.circle(out, (cx, cy), 8, (255, 0, 255), 2, cv2.LINE_AA)
        _label(out, f"{t.word} ({t.zone or 'off zones'})", (cx + 10, cy), (255, 0, 255))
    for k, line in enumerate(lines):
        _label(out, line, (10, 24 + 22 * k), (255, 255, 255))
    return out


def _label(img: ImageBGR, text: str, org: tuple[int, int], colour: tuple[int, int, int]) -> None:
    """Text with a dark outline, readable on any background."""
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 5, cv2.LINE_AA)
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, 2, cv2.LINE_AA)
