"""A thing that is no card lying on the table (a phone, a wallet), laid into a rendered picture.

The thing is lit as the table round it is in brightness, but keeps its own colour
(``albedo_bgr``), not the print's: under a lamp's gradient it darkens as the mat does, but
its colours' ratios are its own. (A grey thing on the black-and-white kit keeps the
print's ratios, as a shadow does.)

>>> crop = np.full((60, 80, 3), 200, np.uint8)
>>> out = with_thing(crop, np.eye(3), (10.0, 10.0, 30.0, 40.0), (0.5, 0.5, 0.5))
>>> int(out[20, 20, 0]), int(out[5, 5, 0]), int(crop[20, 20, 0])
(100, 200, 200)
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

__all__ = ["with_thing"]


def with_thing(bgr: npt.NDArray[np.uint8], px_to_table: npt.ArrayLike, box_mm: tuple[float, float, float, float],
               albedo_bgr: tuple[float, float, float]) -> npt.NDArray[np.uint8]:
    """A copy of ``bgr`` with a thing over the table box ``box_mm`` (x0, y0, x1, y1 in mm;
    ``px_to_table``: the picture's pixels -> table mm) of colour ``albedo_bgr`` (0..1 each)."""
    out = bgr.copy()
    x0, y0, x1, y1 = box_mm
    corners = np.array([[x0, y0, 1], [x1, y0, 1], [x1, y1, 1], [x0, y1, 1]]) @ np.linalg.inv(np.asarray(px_to_table)).T
    mask = np.zeros(out.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(corners[:, :2] / corners[:, 2:]).astype(np.int32), 1)
    brightness = out.astype(np.float32).mean(axis=2)
    inside = mask > 0
    out[inside] = np.clip(brightness[inside, None] * np.asarray(albedo_bgr), 0, 255).astype(np.uint8)
    return out
