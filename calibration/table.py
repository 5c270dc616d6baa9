"""The table homography: frame pixels <-> table millimetres, from the mat's markers.

``estimate_homography`` fits one frame (RANSAC over every visible marker corner, so a
misplaced guide tile or a false detection is voted out). ``TableTracker`` keeps the
current homography over a stream of frames: it smooths small jitter, ignores a single
odd frame, re-anchors when the camera or the mat has truly moved (the new pose holds
for a few frames) and says when the mat is lost.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from calibration.layout import ZONE_PLAY, TableLayout
from calibration.markers import MarkerDetections

__all__ = [
    "TableHomography",
    "TableTracker",
    "TrackState",
    "TrackUpdate",
    "estimate_homography",
    "map_points",
    "px_per_mm_at",
    "zone_polygon_px",
]

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class TableHomography:
    """``table_to_px`` maps (x_mm, y_mm, 1) to frame pixels; ``px_to_table`` is its inverse."""

    table_to_px: FloatArray
    marker_ids: tuple[int, ...] = ()
    rms_px: float = 0.0

    @property
    def px_to_table(self) -> FloatArray:
        inv = np.linalg.inv(self.table_to_px)
        return np.asarray(inv / inv[2, 2], dtype=np.float64)

    def to_table_mm(self, points_px: npt.ArrayLike) -> FloatArray:
        return map_points(self.px_to_table, points_px)

    def to_px(self, points_mm: npt.ArrayLike) -> FloatArray:
        return map_points(self.table_to_px, points_mm)


def map_points(homography: FloatArray, points: npt.ArrayLike) -> FloatArray:
    """Apply a 3x3 homography to points of shape (..., 2)."""
    pts = np.asarray(points, dtype=np.float64)
    flat = pts.reshape(-1, 2)
    ones = np.ones((flat.shape[0], 1))
    mapped = np.hstack([flat, ones]) @ homography.T
    out = mapped[:, :2] / mapped[:, 2:3]
    return np.asarray(out.reshape(pts.shape), dtype=np.float64)


def px_per_mm_at(table_to_px: FloatArray, x_mm: float, y_mm: float, widest: bool = False) -> float:
    """Pixels per millimetre at a table point, in the direction the view squashes most
    (or, with ``widest``, the least)."""
    jac = np.empty((2, 2))
    base = map_points(table_to_px, [(x_mm, y_mm)])[0]
    for k, (dx, dy) in enumerate(((1.0, 0.0), (0.0, 1.0))):
        jac[:, k] = map_points(table_to_px, [(x_mm + dx, y_mm + dy)])[0] - base
    singular = np.linalg.svd(jac, compute_uv=False)
    return float(singular.max() if widest else singular.min())


def zone_polygon_px(table_to_px: FloatArray, polygon_mm: tuple[tuple[float, float], ...]) -> FloatArray:
    return map_points(table_to_px, list(polygon_mm))


def estimate_homography(detections: MarkerDetections, layout: TableLayout, min_markers: int = 2,
                        ransac_px: float = 4.0) -> TableHomography | None:
    """Fit the homography from the table markers in view; None with too few of them."""
    px_list, mm_list, ids = [], [], []
    for marker_id, corners in detections.as_dict().items():
        if marker_id not in layout.table_marker_ids:
            continue
        placement = layout.marker(marker_id)
        px_list.append(np.asarray(corners, dtype=np.float64))
        mm_list.append(np.asarray(placement.corners_mm, dtype=np.float64))
        ids.append(marker_id)
    if len(ids) < min_markers:
        return None
    src = np.concatenate(mm_list).astype(np.float32)
    dst = np.concatenate(px_list).astype(np.float32)
    hom, mask = cv2.findHomography(src, dst, cv2.RANSAC, ransac_px)
    if hom is None:
        return None
    inlier: npt.NDArray[np.bool_] = np.asarray(np.asarray(mask).reshape(-1, 4).all(axis=1), dtype=np.bool_)
    kept = [i for i, ok in zip(ids, inlier.tolist()) if ok]
    if len(kept) < min_markers:
        return None
    sel = np.repeat(inlier, 4)
    hom, _ = cv2.findHomography(src[sel], dst[sel], 0)
    if hom is None or abs(hom[2, 2]) < 1e-12:
        return None
    hom = hom / hom[2, 2]
    err = map_points(hom, src[sel]) - dst[sel]
    rms = float(math.sqrt(float(np.mean(np.sum(err * err, axis=1)))))
    return TableHomography(np.asarray(hom, dtype=np.float64), tuple(sorted(kept)), rms)


# The picture moved at least this much (pixels) since the last fit: the camera moved, and a
# new fit is followed at once (TableTracker.update's picture_moved_px) ...
FOLLOW_MOVED_PX = 1.0
# ... when the fit moved the play zone's middle as the picture moved, within this (pixels;
# the picture's move is measured to about a pixel) and a fifth of the move (the picture's
# middle and the zone's are not the same place, and a turn moves them apart).
FOLLOW_AGREE_PX = 2.0
# ... and only a move of this many pixels at most (measured as move_px is): a swaying or
# hand-held camera moves a few pixels a frame; a knock of tens of pixels is confirmed over
# three looks as before, with nothing read in between (the cards that lay in the play zone
# while the camera was knocked are not taken on the new picture's word alone).
FOLLOW_MOST_PX = 24.0


class TrackState(enum.Enum):
    SEARCHING = "searching"  # no homography yet
    LOCKED = "locked"  # a steady homography
    MOVED = "moved"  # the camera or the mat moved; re-anchored on this frame
    LOST = "lost"  # no markers for a while: readings must wait


@dataclass(frozen=True)
class TrackUpdate:
    state: TrackState
    homography: TableHomography | None
    markers_seen: int
    shift_px: float
    rejected_frame: bool
    message: str


class TableTracker:
    """Keeps the table homography over a stream of frames' marker detections.

    - a new fit within ``move_px`` of the current one (measured at the corners of the
      layout's zones) is blended in with weight ``smoothing`` (jitter goes away);
    - a fit further away is held back as an outlier, unless ``confirm_frames`` fits in a
      row agree with each other: then the camera or mat has moved and the tracker
      re-anchors at once (state MOVED);
    - with no fit for ``lost_after`` frames the state is LOST (the last homography is kept
      but must not be trusted);
    - when the picture itself is known to have moved since the last fit (``update``'s
      ``picture_moved``: a camera that sways or is held, vision/picture_shift.py), a fit
      that moved the play zone's middle the same way is followed at once, not blended: the
      camera is where the new fit says, and a blended homography would lag behind it. A
      fit that disagrees with the picture (a hand over some markers) is not.
    """

    def __init__(self, layout: TableLayout, smoothing: float = 0.35, move_px: float = 6.0,
                 confirm_frames: int = 3, lost_after: int = 15, min_markers: int = 2) -> None:
        if not 0.0 < smoothing <= 1.0:
            raise ValueError(f"smoothing must be in (0, 1], got {smoothing!r}")
        self.layout = layout
        self.smoothing = smoothing
        self.move_px = move_px
        self.confirm_frames = confirm_frames
        self.lost_after = lost_after
        self.min_markers = min_markers
        pts = np.array([p for z in layout.zones for p in z.polygon_mm]
                       + [c for m in layout.markers for c in m.corners_mm], dtype=np.float64)
        x0, y0 = pts.min(axis=0)
        x1, y1 = pts.max(axis=0)
        self._ref_mm = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float64)
        self._ref_px: FloatArray | None = None
        self._current: TableHomography | None = None
        self._pending: list[FloatArray] = []
        self._misses = 0
        self.state = TrackState.SEARCHING

    @property
    def homography(self) -> TableHomography | None:
        return self._current

    def _adopt(self, ref_px: FloatArray, fit: TableHomography) -> None:
        self._ref_px = ref_px
        hom = cv2.getPerspectiveTransform(self._ref_mm.astype(np.float32), ref_px.astype(np.float32))
        self._current = TableHomography(np.asarray(hom / hom[2, 2], dtype=np.float64), fit.marker_ids, fit.rms_px)

    def _moved_with_picture(self, fit: TableHomography, picture_moved: tuple[float, float] | None) -> bool:
        """Whether the picture moved (by at least FOLLOW_MOVED_PX) and ``fit`` moved the play
        zone's middle the same way as the picture, give or take FOLLOW_AGREE_PX and a fifth."""
        if picture_moved is None or self._current is None or math.hypot(*picture_moved) < FOLLOW_MOVED_PX:
            return False
        middle = np.asarray(self.layout.zone(ZONE_PLAY).polygon_mm, np.float64).mean(axis=0)
        was = map_points(self._current.table_to_px, [tuple(middle)])[0]
        now = map_points(fit.table_to_px, [tuple(middle)])[0]
        moved = now - was
        miss = float(np.hypot(*(moved - np.asarray(picture_moved, np.float64))))
        return miss <= FOLLOW_AGREE_PX + 0.2 * math.hypot(*picture_moved)

    def update(self, detections: MarkerDetections, picture_moved: tuple[float, float] | None = None
               ) -> TrackUpdate:
        fit = estimate_homography(detections, self.layout, self.min_markers)
        seen = len(fit.marker_ids) if fit else 0
        if fit is None:
            self._misses += 1
            if self._current is None:
                return TrackUpdate(TrackState.SEARCHING, None, 0, 0.0, False,
                                   "looking for the mat: fewer than "
                                   f"{self.min_markers} mat markers in view")
            if self._misses >= self.lost_after:
                self.state = TrackState.LOST
                return TrackUpdate(TrackState.LOST, self._current, 0, 0.0, False,
                                   f"mat lost: no mat markers for {self._misses} frames")
            return TrackUpdate(self.state, self._current, 0, 0.0, False, "mat markers hidden this frame")
        self._misses = 0
        new_ref = map_points(fit.table_to_px, self._ref_mm)
        if self._ref_px is None:
            self._adopt(new_ref, fit)
            self.state = TrackState.LOCKED
            return TrackUpdate(self.state, self._current, seen, 0.0, False,
                               f"mat found ({seen} markers)")
        shift = float(np.max(np.linalg.norm(new_ref - self._ref_px, axis=1)))
        followed = self._moved_with_picture(fit, picture_moved)
        if followed and self.move_px < shift <= FOLLOW_MOST_PX:
            self._adopt(new_ref, fit)
            self._pending.clear()
            self.state = TrackState.LOCKED
            return TrackUpdate(self.state, self._current, seen, shift, False,
                               f"the camera moved ({shift:.0f} px): the mat followed")
        if shift <= self.move_px or self.state == TrackState.LOST:
            blend = 1.0 if self.state == TrackState.LOST or followed else self.smoothing
            self._adopt((1.0 - blend) * self._ref_px + blend * new_ref, fit)
            self._pending.clear()
            self.state = TrackState.LOCKED
            return TrackUpdate(self.state, self._current, seen, shift, False, "mat steady")
        # a big jump: one odd frame, or a real move that the next frames confirm
        if self._pending and float(np.max(np.linalg.norm(new_ref - self._pending[-1], axis=1))) > self.move_px:
            self._pending.clear()
        self._pending.append(new_ref)
        if len(self._pending) >= self.confirm_frames:
            self._adopt(new_ref, fit)
            self._pending.clear()
            self.state = TrackState.MOVED
            return TrackUpdate(self.state, self._current, seen, shift, False,
                               f"the camera or the mat moved ({shift:.0f} px); re-anchored")
        return TrackUpdate(self.state, self._current, seen, shift, True,
                           f"ignored an odd frame ({shift:.0f} px off) until it repeats")
