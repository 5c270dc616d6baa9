"""Shared helpers: a camera framing the whole layout, as a player would set it up."""

from __future__ import annotations

import numpy as np

from calibration.layout import TableLayout
from vision.synthetic import PinholeView
from calibration.table import map_points

LAYOUT_CENTRE_MM = (132.0, -70.0)


def framed_view(layout: TableLayout, tilt_deg: float, yaw_deg: float = 0.0, margin_px: float = 30.0,
                size_wh: tuple[int, int] = (1280, 720)) -> PinholeView:
    """The closest camera (in 25 mm steps) that keeps every table marker in the frame."""
    corners = [c for m in layout.markers for c in m.corners_mm]
    w, h = size_wh
    for distance in range(450, 2000, 25):
        view = PinholeView(tilt_deg=tilt_deg, yaw_deg=yaw_deg, distance_mm=float(distance),
                           target_mm=LAYOUT_CENTRE_MM, size_wh=size_wh)
        pts = map_points(view.table_to_px, corners)
        if (pts.min(axis=0) > margin_px).all() and (pts[:, 0] < w - margin_px).all() \
                and (pts[:, 1] < h - margin_px).all():
            return view
    raise AssertionError(f"no distance frames the layout at tilt {tilt_deg}")


def max_error_mm(estimated_px_to_mm: np.ndarray, true_table_to_px: np.ndarray,
                 points_mm: list[tuple[float, float]]) -> float:
    """Worst distance (mm) between table points and their round trip through the true
    projection and the estimated inverse."""
    px = map_points(true_table_to_px, points_mm)
    back = map_points(estimated_px_to_mm, px)
    return float(np.linalg.norm(back - np.asarray(points_mm), axis=1).max())
