"""From a camera frame to a :class:`~dealer.table_protocol.TableView`.

Per frame: the mat markers give the table homography (calibration.table.TableTracker),
the tokens are found by their markers (calibration.tokens), the cards by vision
(``CardReader``), and every card centre is mapped to table millimetres to decide which
zone it lies in. Only the play zone matters to the turn protocol; the main line and the
side branches are kept for the layout watch.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Protocol

import cv2
import numpy as np
import numpy.typing as npt

from calibration.layout import ZONE_MAIN_LINE, ZONE_PLAY, ZONE_SIDE_BRANCHES, TableLayout
from calibration.markers import detect_markers
from calibration.table import TableTracker, TrackState
from calibration.tokens import tokens_from_detections
from dealer.table_protocol import SeenCard, TableView, Token
from vision.readings import CardDetections

__all__ = ["CardReader", "Observation", "TableObserver"]

_TOKENS = {"noplay": Token.NO_PLAY, "no_play": Token.NO_PLAY, "prophet": Token.PROPHET,
           "accept": Token.ACCEPT, "reject": Token.REJECT}


class CardReader(Protocol):
    """Vision's per-frame call: detect, rectify and classify every card."""

    def read_frame(self, frame_bgr: npt.NDArray[np.uint8],
                   image_to_table: npt.ArrayLike | None = None) -> CardDetections: ...


@dataclass(frozen=True)
class Observation:
    """One frame, understood: the view for the protocol plus what else lies on the table."""

    view: TableView | None  # None while the mat is not located
    message: str
    line_cards: tuple[SeenCard, ...] = ()  # main-line zone
    branch_cards: tuple[SeenCard, ...] = ()  # side-branch zone
    readings: list[dict[str, object]] = field(default_factory=list)  # play-zone cards, for the recording
    zones_in_view: frozenset[str] = frozenset()  # zones whose whole area the camera sees


_LINE_ZONES = frozenset({ZONE_MAIN_LINE, ZONE_SIDE_BRANCHES})
CARD_MM = (63.0, 88.0)  # a standard poker-size card


def _card_sized(quad_mm: npt.NDArray[np.float64], tolerance: float = 0.25) -> bool:
    """True when a quad, measured on the table, has about a card's sides (63 x 88 mm)."""
    sides = np.linalg.norm(np.roll(quad_mm, -1, axis=0) - quad_mm, axis=1)
    short, long_ = sorted(((sides[0] + sides[2]) / 2.0, (sides[1] + sides[3]) / 2.0))
    return bool(abs(short / CARD_MM[0] - 1.0) <= tolerance and abs(long_ / CARD_MM[1] - 1.0) <= tolerance)


def token_of(name: str) -> Token | None:
    return _TOKENS.get(name.lower().replace(" ", "_"))


class TableObserver:
    def __init__(self, layout: TableLayout, reader: CardReader, tracker: TableTracker | None = None) -> None:
        self.layout = layout
        self.reader = reader
        self.tracker = tracker or TableTracker(layout)

    def observe(self, frame_bgr: npt.NDArray[np.uint8], t: float, index: int) -> Observation:
        markers = detect_markers(frame_bgr, self.layout.dictionary)
        update = self.tracker.update(markers)
        homography = update.homography
        if homography is None or update.state is TrackState.LOST:
            return Observation(None, update.message)
        tokens_in_play: dict[Token, tuple[float, float]] = {}
        prophet_out = False
        sightings = tokens_from_detections(markers, self.layout, homography)
        token_px = [s.centre_px for s in sightings]
        for sighting in sightings:
            token = token_of(sighting.name)
            if token is None or sighting.centre_mm is None:
                continue
            if token is Token.PROPHET:
                prophet_out = True  # F2: anywhere on the table
            elif sighting.zone == ZONE_PLAY:
                tokens_in_play[token] = sighting.centre_mm
        in_view = self._zones_in_view(homography, frame_bgr.shape[1], frame_bgr.shape[0])
        detections = self._read_zones(frame_bgr, homography, {ZONE_PLAY} | (in_view & _LINE_ZONES))
        zones: dict[str, list[SeenCard]] = {ZONE_PLAY: [], ZONE_MAIN_LINE: [], ZONE_SIDE_BRANCHES: []}
        readings: list[dict[str, object]] = []
        if len(detections):
            centres_px = detections.quad_xy.mean(axis=1)
            centres_mm = homography.to_table_mm(centres_px)
            for i in range(len(detections)):
                if detections.cut[i] or not _card_sized(homography.to_table_mm(detections.quad_xy[i])):
                    continue
                if any(cv2.pointPolygonTest(detections.quad_xy[i], p, False) >= 0 for p in token_px):
                    continue  # a token tile is about a card's size: it is no card
                x_mm, y_mm = (float(v) for v in centres_mm[i])
                zone = self.layout.zone_at(x_mm, y_mm)
                if zone not in zones:
                    continue
                label = detections.label[i]
                over = bool(detections.over_shoe[i])
                seen = SeenCard(None if label is None or over else str(label), x_mm, y_mm,
                                float(detections.confidence[i]))
                zones[zone].append(seen)
                if zone == ZONE_PLAY:
                    readings.append({"card": seen.label, "confidence": round(seen.confidence, 3),
                                     "x_mm": round(x_mm, 1), "corners": detections.quad_xy[i].round(1).tolist()})
        readings.sort(key=lambda r: float(r["x_mm"]))  # type: ignore[arg-type]  # left to right, as played (P1)
        view = TableView(t=t, play_cards=tuple(zones[ZONE_PLAY]), tokens_in_play=tokens_in_play,
                         prophet_token_out=prophet_out, frame=index)
        return Observation(view, update.message, tuple(zones[ZONE_MAIN_LINE]),
                           tuple(zones[ZONE_SIDE_BRANCHES]), readings, in_view)

    def _read_zones(self, frame_bgr: npt.NDArray[np.uint8], homography, names: set[str]) -> CardDetections:  # type: ignore[no-untyped-def]
        """Read the cards inside each zone's box (with a margin of half a card), in frame pixels.

        Looking only where cards may lie keeps the mat's own outline (a white sheet of
        about a card's proportions) and the room out of the detector, and saves time.
        """
        height, width = frame_bgr.shape[:2]
        parts = []
        for name in sorted(names):
            poly = np.asarray(self.layout.zone(name).polygon_mm, dtype=np.float64)
            lo, hi = poly.min(axis=0), poly.max(axis=0)
            box_mm = np.array([[lo[0], lo[1]], [hi[0], lo[1]], [hi[0], hi[1]], [lo[0], hi[1]]])
            centre = box_mm.mean(axis=0)
            box_mm = centre + (box_mm - centre) + np.sign(box_mm - centre) * 20.0
            px = homography.to_px(box_mm)
            x0, y0 = np.floor(px.min(axis=0)).astype(int)
            x1, y1 = np.ceil(px.max(axis=0)).astype(int)
            x0, y0, x1, y1 = max(0, x0), max(0, y0), min(width, x1), min(height, y1)
            if x1 - x0 < 32 or y1 - y0 < 32:
                continue
            read_region = getattr(self.reader, "read_region", None)
            if read_region is not None:  # a reader that crops for itself (a test's ground truth)
                parts.append(read_region(frame_bgr, (x0, y0, x1, y1)))
                continue
            # the crop's own pixels -> table mm: the detector then knows each card's long sides
            crop_to_table = homography.px_to_table @ np.array([[1.0, 0, x0], [0, 1.0, y0], [0, 0, 1.0]])
            found = self.reader.read_frame(np.ascontiguousarray(frame_bgr[y0:y1, x0:x1]), crop_to_table)
            if len(found):
                shifted = found.quad_xy + np.array([x0, y0], np.float32)
                parts.append(dataclasses.replace(found, quad_xy=shifted))
        return CardDetections.concatenate(parts)

    def _zones_in_view(self, homography, width: int, height: int) -> frozenset[str]:  # type: ignore[no-untyped-def]
        seen = set()
        for zone in self.layout.zones:
            corners = homography.to_px(np.asarray(zone.polygon_mm, dtype=np.float64))
            inside = (corners[:, 0] >= 0) & (corners[:, 0] < width) & (corners[:, 1] >= 0) & (corners[:, 1] < height)
            if bool(inside.all()):
                seen.add(zone.name)
        return frozenset(seen)
