"""From a frame of the table and its homography to the cards of each zone: the one path the
live dealer (dealer/table/observer.py) and `eleusis read` (:func:`read_table_frame`) share.

:class:`TableReader` cuts each zone of the layout out of the frame with a margin
(:func:`vision.zone_view.crop_box`, kept steady while the homography drifts by a pixel),
measures how much of it changed since the previous frame (:mod:`vision.zone_motion`: the one
motion measure), and reads it with :meth:`vision.pipeline.CardReader.read_zone`: the zone
seen from above, its printed look, colour and the card's size in millimetres
(:mod:`vision.zone_cards`), and what else lies there (:mod:`vision.occupancy`: a thing, an
arm reaching across). Each zone's cards come back in frame pixels.

A still frame has no frames before it, so the empty zone is fitted to the print. Token
tiles (found by their markers) are no cards. Without the mat there is no table to measure
cards on: :func:`read_table_frame` returns None and the caller falls back to the outline
detector (:meth:`vision.pipeline.CardReader.read_frame`).

>>> from vision.classify import FakeClassifier
>>> from vision.pipeline import CardReader
>>> from calibration.layout import default_layout
>>> read_table_frame(CardReader(FakeClassifier()), np.zeros((360, 640, 3), np.uint8), default_layout()) is None
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import cv2
import numpy as np
import numpy.typing as npt

from calibration.layout import TableLayout
from calibration.markers import detect_markers
from calibration.table import TableHomography, estimate_homography
from calibration.tokens import tokens_from_detections
from vision.occupancy import Occupancy
from vision.pipeline import CardReader, ZoneReading
from vision.readings import CardDetections
from vision.zone_motion import BUSY_FRACTION, Box, ZoneMotion
from vision.zone_view import ZONE_MARGIN_MM, crop_box

__all__ = ["RegionReader", "TableReader", "TableReading", "ZoneReader", "ZoneSeen", "read_table_frame"]

BgrImage = npt.NDArray[np.uint8]


class ZoneReader(Protocol):
    """Vision's per-zone call (:meth:`vision.pipeline.CardReader.read_zone`): the cards of one
    zone's crop (crop pixels), read, and what else lies there."""

    def read_zone(self, crop_bgr: BgrImage, crop_to_table: npt.ArrayLike, zone: str,
                  polygon_mm: npt.ArrayLike, token_centres_mm: Iterable[tuple[float, float]] = ()
                  ) -> ZoneReading: ...


@runtime_checkable
class RegionReader(Protocol):
    """A reader that knows the truth of a box of the frame (tests): cards in frame pixels."""

    def read_region(self, frame_bgr: BgrImage, box_xyxy: Box) -> CardDetections: ...


@dataclass(frozen=True)
class ZoneSeen:
    """One zone in one frame: where it was cut out, its cards (frame pixels), what else lies
    there (None from a reader that knows the truth), and whether something moved over it."""

    name: str
    box: Box
    cards: CardDetections
    occupancy: Occupancy | None
    moving: bool  # changed since the previous frame (a hand, a card on its way), or an arm across it

    @property
    def arm(self) -> bool:
        """An arm reaches across the zone (:attr:`vision.occupancy.Occupancy.arm`)."""
        return self.occupancy is not None and self.occupancy.arm


class TableReader:
    """The zones of one table, frame after frame: each keeps its crop box, its motion and
    (in the zone reader) its empty look."""

    def __init__(self, reader: ZoneReader | RegionReader, layout: TableLayout,
                 margin_mm: float = ZONE_MARGIN_MM) -> None:
        self.reader = reader
        self.layout = layout
        self.margin_mm = margin_mm  # a card laid across a zone's edge has its corners in the margin
        self._motion: dict[str, ZoneMotion] = {}

    def read(self, frame_bgr: BgrImage, homography: TableHomography, names: Iterable[str],
             tokens_mm: Sequence[tuple[float, float]] = (), picture_step: tuple[float, float] | None = None
             ) -> list[ZoneSeen]:
        """The zones ``names`` (those in view) in this frame, in that order; ``tokens_mm``: the token tiles'
        centres (each zone is told those inside it); ``picture_step``: how far the whole
        picture moved since the last frame (a camera that sways: no movement over a zone)."""
        height, width = frame_bgr.shape[:2]
        out: list[ZoneSeen] = []
        for name in names:
            polygon = self.layout.zone(name).polygon_mm
            box = crop_box(polygon, homography.table_to_px, (width, height), self.margin_mm)
            if box is None:
                continue
            motion = self._motion.setdefault(name, ZoneMotion())
            box = motion.steady_box(box)
            x0, y0, x1, y1 = box
            crop = np.ascontiguousarray(frame_bgr[y0:y1, x0:x1])
            # measured on the crop divided by its mean level: the camera's gain drifting
            # between frames (auto exposure) is no movement, nor is the picture's own move
            moving = motion.look(box, crop, picture_step) > BUSY_FRACTION
            if isinstance(self.reader, RegionReader):  # a reader that crops for itself (a test's ground truth)
                out.append(ZoneSeen(name, box, self.reader.read_region(frame_bgr, box), None, moving))
                continue
            # the crop's own pixels -> table mm: the zone is seen from above, cards by their size
            crop_to_table = homography.px_to_table @ np.array([[1.0, 0, x0], [0, 1.0, y0], [0, 0, 1.0]])
            inside = [p for p in tokens_mm if self.layout.zone_at(*p) == name]
            reading = self.reader.read_zone(crop, crop_to_table, name, polygon, inside)
            found = reading.cards
            if len(found):
                found = dataclasses.replace(found, quad_xy=(found.quad_xy + np.array([x0, y0], np.float32)
                                                            ).astype(np.float32))
            # an arm across the zone (to the layout beyond it) is a hand over it: nothing is judged
            out.append(ZoneSeen(name, box, found, reading.occupancy, moving or reading.occupancy.arm))
        return out


@dataclass(frozen=True)
class TableReading:
    """The cards of every zone in view (frame pixels) and where they lie."""

    cards: CardDetections
    zones: tuple[str, ...]  # the zone of each card, in order
    zones_seen: tuple[str, ...]  # the zones that were in view and looked at
    homography: TableHomography
    tokens: tuple[str, ...]  # the token tiles seen (their names)


def read_table_frame(reader: CardReader, frame_bgr: BgrImage, layout: TableLayout) -> TableReading | None:
    """The cards of each zone of ``layout`` in ``frame_bgr``; None when the mat is not found."""
    markers = detect_markers(frame_bgr, layout.dictionary)
    homography = estimate_homography(markers, layout)
    if homography is None:
        return None
    # a fresh reader: no empty look of another picture carries over
    fresh = TableReader(CardReader(reader.classifier, reader.config, reader.known), layout)
    sightings = tokens_from_detections(markers, layout, homography)
    token_px = [np.asarray(s.centre_px, np.float32) for s in sightings]
    tokens_mm = [s.centre_mm for s in sightings if s.centre_mm is not None]
    parts: list[CardDetections] = []
    zone_of: list[str] = []
    seen = fresh.read(frame_bgr, homography, [z.name for z in layout.zones], tokens_mm)
    for zone in seen:
        found = zone.cards
        if not len(found):
            continue
        centres = homography.to_table_mm(found.center_xy)
        keep = []
        for i in range(len(found)):
            quad = found.quad_xy[i].reshape(-1, 1, 2)
            if any(cv2.pointPolygonTest(quad, (float(p[0]), float(p[1])), False) >= 0 for p in token_px):
                continue  # a token tile is about a card's size: it is no card
            # the crops of neighbouring zones overlap: each card counts in the zone holding its centre
            if layout.zone_at(float(centres[i][0]), float(centres[i][1])) != zone.name:
                continue
            keep.append(i)
        if keep:
            parts.append(found[np.asarray(keep, np.int64)])
            zone_of.extend([zone.name] * len(keep))
    cards = CardDetections.concatenate(parts) if parts else CardDetections.empty()
    return TableReading(cards, tuple(zone_of), tuple(z.name for z in seen), homography,
                        tuple(s.name for s in sightings))
