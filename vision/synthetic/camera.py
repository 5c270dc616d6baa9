"""The one synthetic camera: a pinhole looking at the table at a tilt.

Every rendered scene (loose cards on a table, the printed mat with its tokens and
cards) is photographed by :class:`PinholeView`. Table millimetres follow the layout's
convention (:mod:`calibration.layout`): x to the right, y towards the players (and the
camera).

>>> view = PinholeView(tilt_deg=90.0, distance_mm=500.0, target_mm=(0.0, 0.0), size_wh=(640, 480))
>>> [round(float(v), 1) for v in view.to_px([(0.0, 0.0)])[0]]
[320.0, 240.0]
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from calibration.layout import PLAY_SHEET_H_MM, PLAY_SHEET_W_MM

__all__ = ["PinholeView", "camera_homography"]

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class PinholeView:
    """A camera looking at ``target_mm`` on the table from ``distance_mm`` away.

    ``tilt_deg`` is the angle between the optical axis and the table: 90 looks straight
    down, 30 is a low, slanted view from the players' side (+y). ``yaw_deg`` turns the
    camera about the vertical through the target.
    """

    tilt_deg: float = 60.0
    distance_mm: float = 650.0
    target_mm: tuple[float, float] = (PLAY_SHEET_W_MM / 2.0, PLAY_SHEET_H_MM / 2.0 - 40.0)
    yaw_deg: float = 0.0
    hfov_deg: float = 65.0
    size_wh: tuple[int, int] = (1280, 720)

    @property
    def camera_matrix(self) -> FloatArray:
        w, h = self.size_wh
        f = (w / 2.0) / math.tan(math.radians(self.hfov_deg) / 2.0)
        return np.array([[f, 0.0, w / 2.0], [0.0, f, h / 2.0], [0.0, 0.0, 1.0]])

    @property
    def table_to_px(self) -> FloatArray:
        """Homography from table mm (x right, y towards the camera) to frame pixels."""
        th = math.radians(self.tilt_deg)
        tx, ty = self.target_mm
        # world: x right, y towards the players, z into the table (so height is -z)
        centre = np.array([tx, ty + self.distance_mm * math.cos(th), -self.distance_mm * math.sin(th)])
        forward = np.array([0.0, -math.cos(th), math.sin(th)])
        right = np.array([1.0, 0.0, 0.0])
        down = np.cross(forward, right)
        rot = np.vstack([right, down, forward])
        t = -rot @ centre
        h0 = self.camera_matrix @ np.column_stack([rot[:, 0], rot[:, 1], t])
        yaw = math.radians(self.yaw_deg)
        c, s = math.cos(yaw), math.sin(yaw)
        about_target = np.array([[c, -s, tx - c * tx + s * ty], [s, c, ty - s * tx - c * ty], [0, 0, 1]])
        hom = h0 @ about_target
        return np.asarray(hom / hom[2, 2], dtype=np.float64)

    def to_px(self, points_mm: npt.ArrayLike) -> FloatArray:
        """Table millimetres -> frame pixels, for an (n, 2) array of points."""
        pts = np.asarray(points_mm, np.float64).reshape(-1, 2)
        p = np.column_stack([pts, np.ones(len(pts))]) @ self.table_to_px.T
        return np.asarray(p[:, :2] / p[:, 2:3], dtype=np.float64)


def camera_homography(tilt_deg: float, size_wh: tuple[int, int], distance_mm: float,
                      focal_px: float | None = None) -> FloatArray:
    """Homography for the loose-card scenes: table mm with Y pointing *away* from the
    camera (the mirror of the layout's y), the camera aimed at the table origin.

    The same :class:`PinholeView`, with the focal length given in pixels
    (``0.8 * width`` unless told).
    """
    w, _ = size_wh
    f = focal_px if focal_px is not None else 0.8 * w
    view = PinholeView(tilt_deg=tilt_deg, distance_mm=distance_mm, target_mm=(0.0, 0.0),
                       hfov_deg=math.degrees(2.0 * math.atan(w / 2.0 / f)), size_wh=size_wh)
    hom = view.table_to_px @ np.diag([1.0, -1.0, 1.0])
    return np.asarray(hom / hom[2, 2], dtype=np.float64)
