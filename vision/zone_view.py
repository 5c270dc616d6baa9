"""A zone of the table seen from straight above: the crop rectified through the table
homography to a fixed number of pixels per millimetre.

In this view every card is a rectangle of a card's size in millimetres whatever the
camera's tilt, the printed zone lies where the layout says, and the same table point
is the same pixel from frame to frame (so an empty zone can be learned, and change
between frames measured).

>>> crop_to_table = np.diag([0.5, 0.5, 1.0])  # 2 crop pixels per millimetre
>>> window = ZoneWindow.around([(0, 0), (100, 0), (100, 50), (0, 50)], margin_mm=0.0, px_per_mm=1.0)
>>> view = rectify(np.full((100, 200, 3), 200, np.uint8), crop_to_table, window)
>>> view.bgr.shape, bool(view.valid.all())
((50, 100, 3), True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

__all__ = ["RectifiedZone", "ZoneWindow", "crop_box", "rectify"]

FloatArray = npt.NDArray[np.float64]
BgrImage = npt.NDArray[np.uint8]

# The work resolution of the rectified view: 2 px/mm puts 127 px across a card's short
# side, ample to find its outline, and keeps a 300 x 150 mm zone at 90 000 px.
WORK_PX_PER_MM = 2.0
# Around a zone the view takes this much table (mm): a card laid over the zone's border
# still lies wholly in view.
ZONE_MARGIN_MM = 20.0


@dataclass(frozen=True, slots=True)
class ZoneWindow:
    """An axis-aligned box of the table in millimetres, seen at ``px_per_mm``."""

    x0_mm: float
    y0_mm: float
    x1_mm: float
    y1_mm: float
    px_per_mm: float = WORK_PX_PER_MM

    @classmethod
    def around(cls, polygon_mm: npt.ArrayLike, margin_mm: float = ZONE_MARGIN_MM,
               px_per_mm: float = WORK_PX_PER_MM) -> ZoneWindow:
        pts = np.asarray(polygon_mm, np.float64).reshape(-1, 2)
        lo, hi = pts.min(axis=0) - margin_mm, pts.max(axis=0) + margin_mm
        return cls(float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]), px_per_mm)

    @property
    def size_px(self) -> tuple[int, int]:
        """(width, height) of the view in pixels."""
        return (max(1, math.ceil((self.x1_mm - self.x0_mm) * self.px_per_mm)),
                max(1, math.ceil((self.y1_mm - self.y0_mm) * self.px_per_mm)))

    @property
    def table_to_view(self) -> FloatArray:
        s = self.px_per_mm
        return np.array([[s, 0.0, -self.x0_mm * s], [0.0, s, -self.y0_mm * s], [0.0, 0.0, 1.0]])

    def view_to_table(self, points_px: npt.ArrayLike) -> FloatArray:
        pts = np.asarray(points_px, np.float64).reshape(-1, 2)
        return np.asarray(pts / self.px_per_mm + [self.x0_mm, self.y0_mm], dtype=np.float64)

    def table_to_view_px(self, points_mm: npt.ArrayLike) -> FloatArray:
        pts = np.asarray(points_mm, np.float64).reshape(-1, 2)
        return np.asarray((pts - [self.x0_mm, self.y0_mm]) * self.px_per_mm, dtype=np.float64)

    def mask_of(self, polygon_mm: npt.ArrayLike, shrink_mm: float = 0.0) -> npt.NDArray[np.bool_]:
        """The view's pixels inside a table polygon (moved ``shrink_mm`` inward)."""
        w, h = self.size_px
        mask = np.zeros((h, w), np.uint8)
        pts = self.table_to_view_px(polygon_mm)
        cv2.fillPoly(mask, [np.round(pts).astype(np.int32)], 1)
        k = int(round(shrink_mm * self.px_per_mm))
        if k > 0:
            mask = np.asarray(cv2.erode(mask, np.ones((2 * k + 1, 2 * k + 1), np.uint8)), np.uint8)
        return mask.astype(bool)


@dataclass(frozen=True, eq=False)
class RectifiedZone:
    """The zone seen from above: its pixels, which of them the crop covered, and the way back."""

    bgr: BgrImage
    valid: npt.NDArray[np.bool_]
    window: ZoneWindow
    crop_to_view: FloatArray

    def to_crop(self, points_view_px: npt.ArrayLike) -> FloatArray:
        """View pixels -> crop pixels."""
        pts = np.asarray(points_view_px, np.float64).reshape(-1, 1, 2)
        back = np.linalg.inv(self.crop_to_view)
        return np.asarray(cv2.perspectiveTransform(pts, back).reshape(-1, 2), dtype=np.float64)

    def crop_px_per_mm(self) -> float:
        """About how many crop pixels a millimetre takes in the middle of the view (the
        finest detail the camera gives there)."""
        w, h = self.window.size_px
        centre = np.array([[w / 2, h / 2], [w / 2 + self.window.px_per_mm * 10, h / 2]])
        a, b = self.to_crop(centre)
        return float(np.linalg.norm(b - a) / 10.0)


def rectify(crop_bgr: BgrImage, crop_to_table: npt.ArrayLike, window: ZoneWindow) -> RectifiedZone:
    """``window`` of the table as seen in ``crop_bgr`` (its pixels -> table mm by ``crop_to_table``)."""
    m = window.table_to_view @ np.asarray(crop_to_table, np.float64)
    size = window.size_px
    bgr = cv2.warpPerspective(crop_bgr, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    h, w = crop_bgr.shape[:2]
    corners = np.array([[[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]]], np.float64)
    outline = cv2.perspectiveTransform(corners, m)[0]
    valid = np.zeros((size[1], size[0]), np.uint8)
    cv2.fillConvexPoly(valid, np.round(outline).astype(np.int32), 1)
    valid = np.asarray(cv2.erode(valid, np.ones((3, 3), np.uint8)), np.uint8)  # the crop's own edge is no card's
    return RectifiedZone(np.asarray(bgr, np.uint8), valid.astype(bool), window, m)


def crop_box(polygon_mm: npt.ArrayLike, table_to_px: npt.ArrayLike, frame_wh: tuple[int, int],
             margin_mm: float = ZONE_MARGIN_MM) -> tuple[int, int, int, int] | None:
    """The frame pixels (x0, y0, x1, y1) around a zone and ``margin_mm`` of table; None
    when less than 32 x 32 pixels of it are in view."""
    window = ZoneWindow.around(polygon_mm, margin_mm)
    box = np.array([[window.x0_mm, window.y0_mm], [window.x1_mm, window.y0_mm],
                    [window.x1_mm, window.y1_mm], [window.x0_mm, window.y1_mm]])
    px = cv2.perspectiveTransform(box.reshape(1, 4, 2), np.asarray(table_to_px, np.float64))[0]
    x0, y0 = np.floor(px.min(axis=0)).astype(int)
    x1, y1 = np.ceil(px.max(axis=0)).astype(int)
    w, h = frame_wh
    x0, y0, x1, y1 = max(0, int(x0)), max(0, int(y0)), min(w, int(x1)), min(h, int(y1))
    if x1 - x0 < 32 or y1 - y0 < 32:
        return None
    return (x0, y0, x1, y1)
