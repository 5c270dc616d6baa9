"""From a camera frame to a :class:`~dealer.table_protocol.TableView`.

Per frame: the mat markers give the table homography (calibration.table.TableTracker),
the tokens are found by their markers (calibration.tokens), the cards by vision
(``CardReader``), and every card centre is mapped to table millimetres to decide which
zone it lies in. Only the play zone matters to the turn protocol; the main line and the
side branches are kept for the layout watch.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

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

    def read_frame(self, frame_bgr: npt.NDArray[np.uint8]) -> CardDetections: ...


@dataclass(frozen=True)
class Observation:
    """One frame, understood: the view for the protocol plus what else lies on the table."""

    view: TableView | None  # None while the mat is not located
    message: str
    line_cards: tuple[SeenCard, ...] = ()  # main-line zone
    branch_cards: tuple[SeenCard, ...] = ()  # side-branch zone
    readings: list[dict[str, object]] = field(default_factory=list)  # play-zone cards, for the recording
    zones_in_view: frozenset[str] = frozenset()  # zones whose whole area the camera sees


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
        for sighting in tokens_from_detections(markers, self.layout, homography):
            token = token_of(sighting.name)
            if token is None or sighting.centre_mm is None:
                continue
            if token is Token.PROPHET:
                prophet_out = True  # F2: anywhere on the table
            elif sighting.zone == ZONE_PLAY:
                tokens_in_play[token] = sighting.centre_mm
        detections = self.reader.read_frame(frame_bgr)
        zones: dict[str, list[SeenCard]] = {ZONE_PLAY: [], ZONE_MAIN_LINE: [], ZONE_SIDE_BRANCHES: []}
        readings: list[dict[str, object]] = []
        if len(detections):
            centres_px = detections.quad_xy.mean(axis=1)
            centres_mm = homography.to_table_mm(centres_px)
            for i in range(len(detections)):
                if detections.cut[i]:
                    continue
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
                                     "corners": detections.quad_xy[i].round(1).tolist()})
        view = TableView(t=t, play_cards=tuple(zones[ZONE_PLAY]), tokens_in_play=tokens_in_play,
                         prophet_token_out=prophet_out, frame=index)
        return Observation(view, update.message, tuple(zones[ZONE_MAIN_LINE]),
                           tuple(zones[ZONE_SIDE_BRANCHES]), readings,
                           self._zones_in_view(homography, frame_bgr.shape[1], frame_bgr.shape[0]))

    def _zones_in_view(self, homography, width: int, height: int) -> frozenset[str]:  # type: ignore[no-untyped-def]
        seen = set()
        for zone in self.layout.zones:
            corners = homography.to_px(np.asarray(zone.polygon_mm, dtype=np.float64))
            inside = (corners[:, 0] >= 0) & (corners[:, 0] < width) & (corners[:, 1] >= 0) & (corners[:, 1] < height)
            if bool(inside.all()):
                seen.add(zone.name)
        return frozenset(seen)
