"""The guided table check behind ``eleusis calibrate table``.

``check_table`` runs over frames (a video, a still, a camera): it tracks the mat,
measures the guide tiles, and judges the picture at the play zone: pixels per
millimetre, glare (the fraction of saturated pixels) and exposure. It says plainly,
zone by zone, whether card indices will be readable there and what to change if not
(``zone_sights``: the same test the live dealer applies before it reads a zone).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from calibration.camera import CameraProfile, default_camera
from calibration.layout import ZONE_MAIN_LINE, ZONE_PLAY, ZONE_SIDE_BRANCHES, Point, TableLayout
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
    "PLAY_READABLE_PX_PER_MM",
    "READABLE_PX_PER_MM",
    "WHOLE_CARD_ZONES",
    "TableCheck",
    "ZoneSight",
    "check_table",
    "frame_quality",
    "reader_px_per_mm",
    "zone_sights",
]

INDEX_HEIGHT_MM = 7.0  # the rank letter in a card's corner index, standard poker cards
# In the side branches the cards of a column overlap and only their corner index shows:
# the classifier (docs/model.md) sees the corner box, about 30 mm of the card's height, at
# 56 px, i.e. 1.9 px/mm; below 2 px/mm it sees an upscaled blur.
INDEX_MIN_PX = 14.0
READABLE_PX_PER_MM = INDEX_MIN_PX / INDEX_HEIGHT_MM  # 2 px/mm: an index alone is read
# In the play zone and the main line a card lies whole (one place of PLACE_MM each, apart),
# and the reader reads its face as well as its index: how coarse a picture it still reads is
# measured on the reader itself (bench/small_cards.py: 2,000 cards of each standard design
# at each scale, read at least READ_TARGET with at most WRONG_LIMIT wrong) and kept with
# the model, as ``readable_px_per_mm`` in its metadata; this is used without one.
PLAY_READABLE_PX_PER_MM = READABLE_PX_PER_MM
WHOLE_CARD_ZONES = (ZONE_PLAY, ZONE_MAIN_LINE)  # where cards lie apart, each read whole
# A card lies inside its zone, so its corner index is never nearer the zone's edge than
# this (a few mm of margin plus the index's own place on the card): resolution is judged there.
INDEX_INSET_MM = 12.0
GLARE_MAX_FRACTION = 0.01  # saturated pixels allowed in the play zone
# A flickering light seen by a rolling shutter: the play zone's brightness changes from frame
# to frame by a different amount on each camera row (log units, 90th percentile from the
# median row). A change of light for the whole frame gives every row the same change. The
# dealer takes bands out (vision/flicker.py, vision/occupancy.py); whole rounds were dealt
# right under bands up to 35 % deep (docs/vision.md), which this measure puts at 0.59-0.70
# (6 % deep: ~0.11, 15 %: ~0.3, 50 %: 0.8-0.93). Above BANDING_MAX it says so, above
# BANDING_UNREADABLE (deeper than any band the dealer was seen to take out) the cards will
# not be read reliably.
BANDING_MAX = 0.02
BANDING_UNREADABLE = 0.7
DARK_LEVEL = 80.0  # mean grey level of the (light) play zone below which it is too dark
BRIGHT_LEVEL = 235.0

FloatArray = npt.NDArray[np.float64]
ImageBGR = npt.NDArray[np.uint8]


def frame_quality(frame: ImageBGR, table_to_px: FloatArray, layout: TableLayout) -> tuple[float, float]:
    """(glare fraction, mean grey level) inside the play zone as seen in the frame."""
    inside = play_zone_mask(frame.shape, table_to_px, layout)
    if not inside.any():
        return 0.0, 0.0
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    return float(saturated(frame)[inside].mean()), float(grey[inside].mean())


def saturated(frame: ImageBGR) -> npt.NDArray[np.bool_]:
    """Pixels washed out to white."""
    return np.asarray(frame.min(axis=2) >= 250 if frame.ndim == 3 else frame >= 250, np.bool_)


def play_zone_mask(frame_shape: tuple[int, ...], table_to_px: FloatArray, layout: TableLayout) -> npt.NDArray[np.bool_]:
    """The frame's pixels inside the play zone."""
    poly = map_points(table_to_px, list(layout.zone(ZONE_PLAY).polygon_mm))
    mask = np.zeros(frame_shape[:2], dtype=np.uint8)
    cv2.fillPoly(mask, [np.round(poly).astype(np.int32)], 1)
    return mask > 0


def row_brightness(frame: ImageBGR, table_to_px: FloatArray, layout: TableLayout) -> dict[int, float]:
    """The play zone's mean log brightness on each camera row that crosses enough of it."""
    mask = play_zone_mask(frame.shape, table_to_px, layout).astype(np.uint8)
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    logs = np.log(grey.astype(np.float32) + 4.0) * mask
    counts = mask.sum(axis=1)
    rows = np.flatnonzero(counts >= 16)
    return {int(r): float(v) for r, v in zip(rows, logs[rows].sum(axis=1) / counts[rows], strict=True)}


def banding_between(before: dict[int, float], after: dict[int, float]) -> float | None:
    """How much the change between two frames differs from row to row (see BANDING_MAX);
    None when they share too few rows (the camera moved, or the zone is out of view)."""
    rows = sorted(before.keys() & after.keys())
    if len(rows) < 30:
        return None
    change = np.array([after[r] - before[r] for r in rows])
    change = np.convolve(change, np.ones(9) / 9.0, mode="valid")  # sensor noise and the print's grain
    return float(np.percentile(np.abs(change - np.median(change)), 90))


@dataclass(frozen=True)
class ZoneSight:
    """How the camera sees one zone: is it all in view, and how fine is the picture at
    its coarsest (farthest) and finest corner in view. ``readable``: a card index can be
    read anywhere in the zone."""

    name: str
    corners_in_view: int  # of the zone's corners
    corners: int
    coarsest_px_per_mm: float | None  # None when no corner is in view
    finest_px_per_mm: float | None
    needs_px_per_mm: float = READABLE_PX_PER_MM  # the coarsest picture the reader reads there

    @property
    def whole_in_view(self) -> bool:
        return self.corners_in_view == self.corners

    @property
    def readable(self) -> bool:
        return (self.whole_in_view and self.coarsest_px_per_mm is not None
                and self.coarsest_px_per_mm >= self.needs_px_per_mm)

    @property
    def too_coarse(self) -> bool:
        """Cards at the zone's coarsest corner in view are too small in the picture for the reader."""
        return self.coarsest_px_per_mm is not None and self.coarsest_px_per_mm < self.needs_px_per_mm

    @property
    def closer_share(self) -> float | None:
        """How near the camera must come for the reader, as a share of its present distance
        (< 1 when too coarse; the picture's scale goes as one over the distance)."""
        if self.coarsest_px_per_mm is None or self.needs_px_per_mm <= 0:
            return None
        return self.coarsest_px_per_mm / self.needs_px_per_mm

    @property
    def index_px(self) -> float | None:
        """The height of a card index at the zone's coarsest corner in view, in pixels."""
        return None if self.coarsest_px_per_mm is None else self.coarsest_px_per_mm * INDEX_HEIGHT_MM


def reader_px_per_mm(metadata: Path | None = None) -> float:
    """The coarsest picture (px/mm) at which the card reader reads a whole card as well as a
    near one, from the model's metadata (``readable_px_per_mm``, measured on the reader by
    bench/readable_scale.py); PLAY_READABLE_PX_PER_MM when the metadata has none."""
    if metadata is None:
        from vision.classify import default_model_paths

        return _reader_px_per_mm_cached(default_model_paths()[1])
    return _reader_px_per_mm_cached.__wrapped__(metadata)


@lru_cache(maxsize=4)
def _reader_px_per_mm_cached(metadata: Path) -> float:
    try:
        value = json.loads(Path(metadata).read_text(encoding="utf-8")).get("readable_px_per_mm")
    except (OSError, ValueError, AttributeError):
        return PLAY_READABLE_PX_PER_MM
    return float(value) if isinstance(value, (int, float)) and value > 0 else PLAY_READABLE_PX_PER_MM


def zone_sights(table_to_px: FloatArray, size_wh: tuple[int, int], layout: TableLayout,
                play_needs: float | None = None) -> dict[str, ZoneSight]:
    """Every zone of ``layout`` as the camera sees it (frame ``size_wh``); a zone is readable
    when all its corners are in view and, at the coarsest of them (INDEX_INSET_MM inside,
    where the nearest card index can lie), the reader reads there: ``play_needs`` px/mm where
    cards lie whole (WHOLE_CARD_ZONES; default: :func:`reader_px_per_mm`),
    READABLE_PX_PER_MM where only indices show."""
    play_needs = reader_px_per_mm() if play_needs is None else play_needs
    w, h = size_wh
    sights: dict[str, ZoneSight] = {}
    for zone in layout.zones:
        corners = list(zone.polygon_mm)
        px = map_points(table_to_px, corners)
        seen = [c for c, p in zip(corners, px) if 0 <= p[0] < w and 0 <= p[1] < h]
        cx, cy = zone.centre_mm
        inset = [(x - INDEX_INSET_MM * np.sign(x - cx), y - INDEX_INSET_MM * np.sign(y - cy)) for x, y in seen]
        scales = [px_per_mm_at(table_to_px, float(x), float(y)) for x, y in inset]
        sights[zone.name] = ZoneSight(zone.name, len(seen), len(corners), min(scales) if scales else None,
                                      max(scales) if scales else None,
                                      play_needs if zone.name in WHOLE_CARD_ZONES else READABLE_PX_PER_MM)
    return sights


_ZONE_WORDS = {ZONE_PLAY: "the play zone", ZONE_SIDE_BRANCHES: "the side branches", ZONE_MAIN_LINE: "the main line"}
_ALL_IN_VIEW = {ZONE_PLAY: "the whole play zone is in view", ZONE_SIDE_BRANCHES: "the side branches are all in view",
                ZONE_MAIN_LINE: "the whole main line is in view"}


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
    banding: float = 0.0  # a flickering light's bands from frame to frame (BANDING_MAX)
    guides_measured: dict[int, tuple[Point, Point, Point, Point]] = field(default_factory=dict)
    moves: int = 0
    slant: float = 1.0  # how much the view squashes the play zone: 1 looks straight down
    zones: dict[str, ZoneSight] = field(default_factory=dict)
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
        """Cards laid anywhere in the play zone will be read: the dealer can deal."""
        play = self.zones.get(ZONE_PLAY)
        return (self.found and play is not None and play.readable
                and self.glare_fraction <= GLARE_MAX_FRACTION and self.exposure == "good"
                and self.banding <= BANDING_UNREADABLE)

    @property
    def px_per_mm_line_end(self) -> float | None:
        """The coarsest picture at the main line's corners in view (None: none in view)."""
        line = self.zones.get(ZONE_MAIN_LINE)
        return None if line is None else line.coarsest_px_per_mm

    def _play_needs(self) -> float:
        play = self.zones.get(ZONE_PLAY)
        return play.needs_px_per_mm if play is not None else reader_px_per_mm()

    def report_lines(self) -> list[str]:
        if not self.found:
            return [f"The mat was not found in {self.frames_seen} frame(s): no PLAY sheet markers in view."] + self.advice
        assert self.px_per_mm is not None and self.index_px is not None
        lines = [
            (f"Mat found in {self.frames_located} of {self.frames_seen} frame(s); markers seen: "
            f"{', '.join(str(i) for i in self.markers_seen)}."),
            (f"Resolution at the play zone's centre: {self.px_per_mm:.2f} px/mm: a card index "
            f"({INDEX_HEIGHT_MM:g} mm) is {self.index_px:.1f} px high."),
            (f"Glare: {100 * self.glare_fraction:.1f}% of the play zone is saturated "
            f"(at most {100 * GLARE_MAX_FRACTION:g}%)."),
            f"Exposure: {self.exposure} (mean level {self.mean_level:.0f} of 255).",
            (f"Flicker: the play zone's rows change by {100 * self.banding:.1f}% against one another from "
             f"frame to frame (best under {100 * BANDING_MAX:g}%, at most {100 * BANDING_UNREADABLE:g}%)."),
            ("Zone by zone, at the zone's farthest corner (the reader reads a whole card, in the play zone "
             f"and the main line, down to {self._play_needs():.2f} px/mm, measured on it; where cards overlap, "
             f"in the side branches, it reads an index alone from {READABLE_PX_PER_MM:.1f} px/mm, "
             f"{INDEX_MIN_PX:g} px high):"),
        ]
        lines += [f"- {_zone_line(sight)}" for sight in self.zones.values()]
        if self.moves:
            lines.append(f"The camera or the mat moved {self.moves} time(s) during the check.")
        for marker_id in sorted(self.guides_measured):
            lines.append(f"Guide tile {marker_id} measured at "
                         f"({_centre(self.guides_measured[marker_id])[0]:.0f}, "
                         f"{_centre(self.guides_measured[marker_id])[1]:.0f}) mm.")
        unreadable = [_ZONE_WORDS.get(z.name, z.name) for z in self.zones.values()
                      if z.name != ZONE_PLAY and not z.readable]
        if self.readable:
            lines.append("Cards laid in the play zone will be readable." + (
                f" The layout watch cannot read {' or '.join(unreadable)}: it checks only what it can read there."
                if unreadable else " The layout watch can read the main line and the side branches."))
        else:
            lines.append("Cards in the play zone will NOT be readable reliably:")
        return lines + [f"- {a}" for a in self.advice]


def _zone_line(sight: ZoneSight) -> str:
    words = _ZONE_WORDS.get(sight.name, sight.name)
    if sight.coarsest_px_per_mm is None or sight.index_px is None or sight.finest_px_per_mm is None:
        return f"{words}: out of view: not readable."
    where = "" if sight.whole_in_view else f" ({sight.corners_in_view} of {sight.corners} corners in view)"
    verdict = "readable" if sight.readable else ("NOT readable: not all in view" if not sight.whole_in_view
                                                 and sight.coarsest_px_per_mm >= sight.needs_px_per_mm
                                                 else "NOT readable")
    return (f"{words}: {sight.coarsest_px_per_mm:.2f} to {sight.finest_px_per_mm:.2f} px/mm{where}, "
            f"an index {sight.index_px:.1f} px high at the far corner (the reader needs "
            f"{sight.needs_px_per_mm:.2f} px/mm there): {verdict}.")


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


def _closer(px_per_mm: float, size_wh: tuple[int, int] | None, needs: float) -> str:
    factor = px_per_mm / needs
    return (f"bring the camera closer, to about {100 * math.floor(100 * factor) / 100:.0f}% of its present "
            f"distance, or use a higher resolution ({_resolution_advice(size_wh, 1.0 / factor)})")


def _advise(check: TableCheck) -> list[str]:
    advice: list[str] = []
    if not check.found:
        return ["Put the whole PLAY sheet in view, flat and unhidden, and light it evenly."]
    assert check.homography is not None and check.px_per_mm is not None
    play = check.zones.get(ZONE_PLAY)
    if play is not None and not play.whole_in_view:
        advice.append("Aim the camera so the whole play zone is in view.")
    elif play is not None and play.coarsest_px_per_mm is not None and not play.readable:
        advice.append(f"For the play zone: {_closer(play.coarsest_px_per_mm, check.frame_size_wh, play.needs_px_per_mm)}.")
    if check.slant < 0.6:
        advice.append("The camera looks at the table at a low slant: raise it so it looks down more steeply.")
    if check.glare_fraction > GLARE_MAX_FRACTION:
        advice.append("Less light from the side: glare washes out part of the play zone. Move the lamp, "
                      "dim it, or turn the mat.")
    if check.banding > BANDING_MAX:
        advice.append(("The light flickers: dark bands roll across the picture (a lamp on mains power seen by "
                       "the camera's rolling shutter)" + (": too deep for the dealer to take out. " if
                                                          check.banding > BANDING_UNREADABLE else
                                                          "; the dealer takes them out, but a steady picture is "
                                                          "safer. ") +
                       "Set the webcam's power-line frequency to your mains (Linux: v4l2-ctl -c "
                       "power_line_frequency=1 for 50 Hz, 2 for 60 Hz), or use a lamp that does not flicker."))
    if check.exposure == "too dark":
        advice.append("More light on the table (or a longer exposure): the play zone is too dark.")
    elif check.exposure == "too bright":
        advice.append("Less light or a shorter exposure: the play zone is washed out.")
    for name in (ZONE_SIDE_BRANCHES, ZONE_MAIN_LINE):
        sight = check.zones.get(name)
        if sight is None or sight.readable:
            continue
        words = _ZONE_WORDS[name]
        if not sight.whole_in_view:
            advice.append(f"Optional, for the layout watch: turn or raise the camera so {_ALL_IN_VIEW[name]}.")
        elif sight.coarsest_px_per_mm is not None:
            factor = sight.coarsest_px_per_mm / sight.needs_px_per_mm
            advice.append(f"Optional, for the layout watch to read {words}: use a higher resolution "
                          f"({_resolution_advice(check.frame_size_wh, 1.0 / factor)}), or bring the camera "
                          f"closer (to about {100 * math.floor(100 * factor) / 100:.0f}% of its distance) "
                          "if the whole layout still fits in view.")
    return advice


def check_table(frames: Iterable[ImageBGR], layout: TableLayout, camera: CameraProfile | None = None,
                max_frames: int = 90) -> tuple[TableCheck, ImageBGR | None]:
    """Run the check; returns it with the last frame where the mat was found (for drawing)."""
    tracker = TableTracker(layout)
    anchors_only = layout.with_markers(tuple(m for m in layout.markers if m.role == "anchor"))
    check = TableCheck()
    seen_ids: set[int] = set()
    glare: list[float] = []
    still_white: npt.NDArray[np.bool_] | None = None  # washed out in every frame located so far
    levels: list[float] = []
    guide_samples: dict[int, list[FloatArray]] = {}
    bands: list[float] = []
    rows_before: dict[int, float] | None = None
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
        white = saturated(frame)  # glare stays where it is; a flickering light's bright band rolls on
        still_white = white if still_white is None or still_white.shape != white.shape else still_white & white
        levels.append(lvl)
        rows = row_brightness(frame, update.homography.table_to_px, layout)
        banding = None if rows_before is None else banding_between(rows_before, rows)
        if banding is not None:
            bands.append(banding)
        rows_before = rows
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
        assert check.frame_size_wh is not None
        check.zones = zone_sights(check.homography.table_to_px, check.frame_size_wh, layout)
        check.slant = check.px_per_mm / widest if widest > 0 else 1.0
        check.glare_fraction = float(np.median(glare))
        if still_white is not None and len(glare) >= 2 and check.moves == 0 and last is not None:
            # with the camera still: glare is what is washed out in every frame (bands that
            # clip a moving stripe are the flicker's, measured and advised on as such)
            zone = play_zone_mask(last.shape, check.homography.table_to_px, layout)
            check.glare_fraction = float(still_white[zone].mean()) if zone.any() else 0.0
        check.mean_level = float(np.median(levels))
        check.banding = float(np.median(bands)) if bands else 0.0  # a hand passing is one frame in a few
        for marker_id, samples in guide_samples.items():
            tl, tr, br, bl = ((float(x), float(y)) for x, y in np.median(np.stack(samples), axis=0))
            check.guides_measured[marker_id] = (tl, tr, br, bl)  # the detector's corner order
    check.advice = _advise(check)
    return check, last
