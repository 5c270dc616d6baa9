"""The guided table check behind ``eleusis calibrate table``.

``check_table`` runs over frames (a video, a still, a camera): it tracks the mat,
measures the guide tiles, and judges the picture at the play zone: pixels per
millimetre, glare (the fraction of saturated pixels) and exposure. It says plainly
whether card indices will be readable and what to change if not.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from calibration.camera import CameraProfile, default_camera
from calibration.layout import ZONE_MAIN_LINE, ZONE_PLAY, TableLayout
from calibration.markers import detect_markers
from calibration.table import (
    TableHomography,
    TableTracker,
    TrackState,
    estimate_homography,
    map_points,
    px_per_mm_at,
)

__all__ = [
    "GLARE_MAX_FRACTION",
    "INDEX_HEIGHT_MM",
    "INDEX_MIN_PX",
    "TableCheck",
    "check_table",
    "frame_quality",
]

INDEX_HEIGHT_MM = 7.0  # the rank letter in a card's corner index, standard poker cards
# The height the reader needs: the classifier (docs/model.md) sees the corner box, about
# 30 mm of the card's height, at 56 px, i.e. 1.9 px/mm; below 2 px/mm it sees an upscaled blur.
INDEX_MIN_PX = 14.0
GLARE_MAX_FRACTION = 0.01  # saturated pixels allowed in the play zone
DARK_LEVEL = 80.0  # mean grey level of the (light) play zone below which it is too dark
BRIGHT_LEVEL = 235.0

FloatArray = npt.NDArray[np.float64]
ImageBGR = npt.NDArray[np.uint8]


def frame_quality(frame: ImageBGR, table_to_px: FloatArray, layout: TableLayout) -> tuple[float, float]:
    """(glare fraction, mean grey level) inside the play zone as seen in the frame."""
    poly = map_points(table_to_px, list(layout.zone(ZONE_PLAY).polygon_mm))
    mask = np.zeros(frame.shape[:2], dtype=np.uint8)
    cv2.fillPoly(mask, [np.round(poly).astype(np.int32)], 255)
    inside = mask > 0
    if not inside.any():
        return 0.0, 0.0
    saturated = frame.min(axis=2) >= 250 if frame.ndim == 3 else frame >= 250  # washed out to white
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    return float(saturated[inside].mean()), float(grey[inside].mean())


def _line_end_px_per_mm(check: TableCheck, layout: TableLayout) -> float | None:
    """The smallest px/mm at the main-line zone's corners in view; None when none is in view."""
    if check.homography is None or check.frame_size_wh is None or ZONE_MAIN_LINE not in {z.name for z in layout.zones}:
        return None
    corners = layout.zone(ZONE_MAIN_LINE).polygon_mm
    px = map_points(check.homography.table_to_px, list(corners))
    w, h = check.frame_size_wh
    seen = [c for c, p in zip(corners, px) if 0 <= p[0] < w and 0 <= p[1] < h]
    if not seen:
        return None
    return min(px_per_mm_at(check.homography.table_to_px, x, y) for x, y in seen)


@dataclass
class TableCheck:
    """What the check found; ``advice`` lists plain sentences (empty when all is well)."""

    frames_seen: int = 0
    frames_located: int = 0
    frame_size_wh: tuple[int, int] | None = None
    markers_seen: tuple[int, ...] = ()
    homography: TableHomography | None = None
    px_per_mm: float | None = None
    glare_fraction: float = 0.0
    mean_level: float = 0.0
    guides_measured: dict[int, tuple[tuple[float, float], ...]] = field(default_factory=dict)
    moves: int = 0
    slant: float = 1.0  # how much the view squashes the play zone: 1 looks straight down
    px_per_mm_line_end: float | None = None  # at the far corners of the main line (the layout watch)
    advice: list[str] = field(default_factory=list)

    @property
    def found(self) -> bool:
        return self.homography is not None

    @property
    def index_px(self) -> float | None:
        return None if self.px_per_mm is None else self.px_per_mm * INDEX_HEIGHT_MM

    @property
    def exposure(self) -> str:
        if self.mean_level < DARK_LEVEL:
            return "too dark"
        if self.mean_level > BRIGHT_LEVEL:
            return "too bright"
        return "good"

    @property
    def readable(self) -> bool:
        return (self.found and self.index_px is not None and self.index_px >= INDEX_MIN_PX
                and self.glare_fraction <= GLARE_MAX_FRACTION and self.exposure == "good")

    def report_lines(self) -> list[str]:
        if not self.found:
            return [f"The mat was not found in {self.frames_seen} frame(s): no PLAY sheet markers in view."] + self.advice
        assert self.px_per_mm is not None and self.index_px is not None
        lines = [
            (f"Mat found in {self.frames_located} of {self.frames_seen} frame(s); markers seen: "
            f"{', '.join(str(i) for i in self.markers_seen)}."),
            (f"Resolution at the play zone: {self.px_per_mm:.2f} px/mm: a card index "
            f"({INDEX_HEIGHT_MM:g} mm) is {self.index_px:.1f} px high (needs {INDEX_MIN_PX:g})."),
            (f"Glare: {100 * self.glare_fraction:.1f}% of the play zone is saturated "
            f"(at most {100 * GLARE_MAX_FRACTION:g}%)."),
            f"Exposure: {self.exposure} (mean level {self.mean_level:.0f} of 255).",
        ]
        if self.px_per_mm_line_end is None:
            lines.append("The main line's corners are out of view: the layout watch cannot check them.")
        else:
            far_px = self.px_per_mm_line_end * INDEX_HEIGHT_MM
            lines.append(f"At the far corners of the main line: {self.px_per_mm_line_end:.2f} px/mm "
                         f"(an index {far_px:.1f} px high): "
                         + ("the layout watch can read it." if far_px >= INDEX_MIN_PX else
                            "the layout watch may not read every card there; keep the line nearer the camera."))
        if self.moves:
            lines.append(f"The camera or the mat moved {self.moves} time(s) during the check.")
        for marker_id in sorted(self.guides_measured):
            lines.append(f"Guide tile {marker_id} measured at "
                         f"({_centre(self.guides_measured[marker_id])[0]:.0f}, "
                         f"{_centre(self.guides_measured[marker_id])[1]:.0f}) mm.")
        lines.append("Card indices will be readable." if self.readable
                     else "Card indices will NOT be readable reliably:")
        return lines + [f"- {a}" for a in self.advice]


def _centre(corners: tuple[tuple[float, float], ...]) -> tuple[float, float]:
    arr = np.asarray(corners)
    c = arr.mean(axis=0)
    return float(c[0]), float(c[1])


_STANDARD_SIZES = ((1280, 720), (1920, 1080), (2560, 1440), (3840, 2160))


def _resolution_advice(size_wh: tuple[int, int] | None, factor: float) -> str:
    """'x1.5 more pixels across: 1920x1080 instead of 1280x720', or just the factor."""
    text = f"x{math.ceil(factor * 10) / 10:.1f} more pixels across"
    if size_wh is None:
        return text
    for w, h in _STANDARD_SIZES:
        if w >= size_wh[0] * factor:
            return f"{text}: {w}x{h} instead of {size_wh[0]}x{size_wh[1]}"
    return f"{text}: more than a 4K camera gives; bring the camera closer instead"


def _advise(check: TableCheck) -> list[str]:
    advice: list[str] = []
    if not check.found:
        return ["Put the whole PLAY sheet in view, flat and unhidden, and light it evenly."]
    assert check.homography is not None and check.px_per_mm is not None
    need = INDEX_MIN_PX / INDEX_HEIGHT_MM
    if check.px_per_mm < need:
        factor = check.px_per_mm / need
        advice.append(
            f"Bring the camera closer, to about {100 * math.floor(100 * factor) / 100:.0f}% of its present "
            f"distance, or use a higher resolution ({_resolution_advice(check.frame_size_wh, 1.0 / factor)}).")
    if check.slant < 0.6:
        advice.append("The camera looks at the table at a low slant: raise it so it looks down more steeply.")
    if check.glare_fraction > GLARE_MAX_FRACTION:
        advice.append("Less light from the side: glare washes out part of the play zone. Move the lamp, "
                      "dim it, or turn the mat.")
    if check.exposure == "too dark":
        advice.append("More light on the table (or a longer exposure): the play zone is too dark.")
    elif check.exposure == "too bright":
        advice.append("Less light or a shorter exposure: the play zone is washed out.")
    return advice


def check_table(frames: Iterable[ImageBGR], layout: TableLayout, camera: CameraProfile | None = None,
                max_frames: int = 90) -> tuple[TableCheck, ImageBGR | None]:
    """Run the check; returns it with the last frame where the mat was found (for drawing)."""
    tracker = TableTracker(layout)
    anchors_only = layout.with_markers(tuple(m for m in layout.markers if m.role == "anchor"))
    check = TableCheck()
    seen_ids: set[int] = set()
    glare: list[float] = []
    levels: list[float] = []
    guide_samples: dict[int, list[FloatArray]] = {}
    last: ImageBGR | None = None
    for frame in frames:
        if check.frames_seen >= max_frames:
            break
        check.frames_seen += 1
        if camera is None:
            camera = default_camera((frame.shape[1], frame.shape[0]))
        frame = camera.for_size((frame.shape[1], frame.shape[0])).undistort(frame)
        check.frame_size_wh = (frame.shape[1], frame.shape[0])
        detections = detect_markers(frame, layout.dictionary)
        update = tracker.update(detections)
        if update.state == TrackState.MOVED:
            check.moves += 1
        if update.homography is None or update.state == TrackState.LOST or update.markers_seen == 0:
            continue
        check.frames_located += 1
        seen_ids.update(update.homography.marker_ids)
        last = frame
        g, lvl = frame_quality(frame, update.homography.table_to_px, layout)
        glare.append(g)
        levels.append(lvl)
        anchor_fit = estimate_homography(detections, anchors_only)
        if anchor_fit is not None:
            for marker_id, corners in detections.as_dict().items():
                if marker_id in layout.table_marker_ids and layout.marker(marker_id).role == "guide":
                    guide_samples.setdefault(marker_id, []).append(anchor_fit.to_table_mm(corners))
    check.homography = tracker.homography if check.frames_located else None
    check.markers_seen = tuple(sorted(seen_ids))
    if check.homography is not None:
        cx, cy = layout.zone(ZONE_PLAY).centre_mm
        check.px_per_mm = px_per_mm_at(check.homography.table_to_px, cx, cy)
        widest = px_per_mm_at(check.homography.table_to_px, cx, cy, widest=True)
        check.px_per_mm_line_end = _line_end_px_per_mm(check, layout)
        check.slant = check.px_per_mm / widest if widest > 0 else 1.0
        check.glare_fraction = float(np.median(glare))
        check.mean_level = float(np.median(levels))
        for marker_id, samples in guide_samples.items():
            mean = np.median(np.stack(samples), axis=0)
            check.guides_measured[marker_id] = tuple((float(x), float(y)) for x, y in mean)
    check.advice = _advise(check)
    return check, last
