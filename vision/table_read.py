"""A still frame of the table read as the live dealer reads it: zone by zone.

When the mat's markers are in view (:func:`calibration.table.estimate_homography`),
each zone of the layout in view is cut out of the frame (:func:`vision.zone_view.crop_box`)
and read with :meth:`vision.pipeline.CardReader.read_zone`: the zone seen from above, its
printed look, colour and the card's size in millimetres (:mod:`vision.zone_cards`). A
still frame has no empty frames before it, so the empty zone is fitted to the print.
Token tiles (found by their markers) are no cards. Without the mat there is no table
to measure cards on: :func:`read_table_frame` returns None and the caller falls back to
the outline detector (:meth:`vision.pipeline.CardReader.read_frame`).

>>> from vision.classify import FakeClassifier
>>> from vision.pipeline import CardReader
>>> from calibration.layout import default_layout
>>> read_table_frame(CardReader(FakeClassifier()), np.zeros((360, 640, 3), np.uint8), default_layout()) is None
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from calibration.layout import TableLayout
from calibration.markers import detect_markers
from calibration.table import TableHomography, estimate_homography
from calibration.tokens import tokens_from_detections
from vision.pipeline import CardReader
from vision.readings import CardDetections
from vision.zone_view import crop_box

__all__ = ["TableReading", "read_table_frame"]


@dataclass(frozen=True)
class TableReading:
    """The cards of every zone in view (frame pixels) and where they lie."""

    cards: CardDetections
    zones: tuple[str, ...]  # the zone of each card, in order
    zones_seen: tuple[str, ...]  # the zones that were in view and looked at
    homography: TableHomography
    tokens: tuple[str, ...]  # the token tiles seen (their names)


def read_table_frame(reader: CardReader, frame_bgr: npt.NDArray[np.uint8], layout: TableLayout
                     ) -> TableReading | None:
    """The cards of each zone of ``layout`` in ``frame_bgr``; None when the mat is not found."""
    markers = detect_markers(frame_bgr, layout.dictionary)
    homography = estimate_homography(markers, layout)
    if homography is None:
        return None
    # a fresh reader: no empty look of another picture carries over
    fresh = CardReader(reader.classifier, reader.config, reader.known)
    sightings = tokens_from_detections(markers, layout, homography)
    token_px = [np.asarray(s.centre_px, np.float32) for s in sightings]
    height, width = frame_bgr.shape[:2]
    parts: list[CardDetections] = []
    zone_of: list[str] = []
    seen: list[str] = []
    for zone in layout.zones:
        box = crop_box(zone.polygon_mm, homography.table_to_px, (width, height))
        if box is None:
            continue
        seen.append(zone.name)
        x0, y0, x1, y1 = box
        crop = np.ascontiguousarray(frame_bgr[y0:y1, x0:x1])
        crop_to_table = homography.px_to_table @ np.array([[1.0, 0, x0], [0, 1.0, y0], [0, 0, 1.0]])
        inside = [s.centre_mm for s in sightings if s.centre_mm is not None and s.zone == zone.name]
        found = fresh.read_zone(crop, crop_to_table, zone.name, zone.polygon_mm, inside).cards
        if not len(found):
            continue
        found = dataclasses.replace(found, quad_xy=(found.quad_xy + np.array([x0, y0], np.float32)).astype(np.float32))
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
    return TableReading(cards, tuple(zone_of), tuple(seen), homography, tuple(s.name for s in sightings))
