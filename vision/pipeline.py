"""One call per frame: detect, rectify, classify (one batch), check against the shoe.

>>> import numpy as np
>>> from vision.classify import FakeClassifier
>>> reader = CardReader(FakeClassifier())
>>> len(reader.read_frame(np.zeros((360, 640, 3), np.uint8)))
0
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from engine.cards import DEFAULT_DECKS, Card
from vision.classify import CardReading, Classifier, combine_readings
from vision.consistency import flag_over_shoe
from vision.detect import DetectConfig, detect_cards, side_ratio
from vision.frames import Frame, FrameSource
from vision.geometry import CARD_SIZE_TOLERANCE, card_sized_mm
from vision.occupancy import Occupancy, OccupancyConfig, ZoneWatch
from vision.readings import CardDetections
from vision.rectify import rectify_cards, rectify_whole_image, whole_image_quad

__all__ = ["CardReader", "ReaderConfig", "ZoneReading", "read_stream"]

BgrImage = npt.NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class ReaderConfig:
    detect: DetectConfig = field(default_factory=DetectConfig)
    # below this long/short ratio in the image, the card's long sides are not certain
    # (a slanted view shortens the sides along the line of sight): read both ways
    both_ways_below_ratio: float = 1.6
    # the second look sees a squashed card when the first guess was right; a model may
    # be sure of a wrong card there now and then (model v2: 1 of 52 real cards), so a
    # stricter bar can be set for it. Measured at 30-45 degrees of tilt: 0.995 cost 16
    # of 174 right readings and saved no wrong one, so it is off by default.
    second_look_threshold: float = 0.0
    decks: int = DEFAULT_DECKS
    # with a table homography: a quad whose sides differ from a card's by more than
    # this share is not one card (two overlapping, a token, a box) and is not read
    size_tolerance: float = CARD_SIZE_TOLERANCE
    zones: OccupancyConfig = field(default_factory=OccupancyConfig)


@dataclass(frozen=True)
class ZoneReading:
    """The cards read in one zone crop (crop pixels) and what else lies there."""

    cards: CardDetections
    occupancy: Occupancy


class CardReader:
    """Frames in, :class:`CardDetections` out; ``known`` cards count toward the shoe (C1)."""

    def __init__(self, classifier: Classifier, config: ReaderConfig = ReaderConfig(),
                 known: Iterable[Card] = ()) -> None:
        self.classifier = classifier
        self.config = config
        self.known = tuple(known)
        self._watches: dict[str, ZoneWatch] = {}
        self._last_read: dict[str, tuple[tuple[npt.NDArray[np.float64], ...], CardDetections]] = {}

    def read_zone(self, crop_bgr: BgrImage, crop_to_table: npt.ArrayLike, zone: str,
                  polygon_mm: npt.ArrayLike, token_centres_mm: Iterable[tuple[float, float]] = ()
                  ) -> ZoneReading:
        """Find and read the cards of one zone, with the zone's printed place known.

        ``crop_bgr`` shows the zone (and ~20 mm round it: :func:`vision.zone_view.crop_box`),
        ``crop_to_table`` maps its pixels to table mm, ``polygon_mm`` is the zone's printed
        outline. Each zone (by name) keeps its own empty look from frame to frame
        (:class:`vision.occupancy.ZoneWatch`); while nothing moves, the last reading is
        given again without reading the cards again.
        """
        polygon = np.asarray(polygon_mm, np.float64).reshape(-1, 2)
        watch = self._watches.get(zone)
        if watch is None or watch.polygon_mm.shape != polygon.shape or not np.allclose(watch.polygon_mm, polygon):
            watch = self._watches[zone] = ZoneWatch(polygon, self.config.zones)
        look = watch.look(crop_bgr, crop_to_table, tuple(token_centres_mm))
        last = self._last_read.get(zone)
        if last is not None and last[0] is look.cards_px:
            return ZoneReading(last[1], look.occupancy)
        h, w = crop_bgr.shape[:2]
        quads = np.array(look.cards_px, np.float32).reshape(-1, 4, 2)
        cut = np.any((quads < 0) | (quads > np.array([w - 1, h - 1], np.float32)), axis=(1, 2))
        found = CardDetections(quad_xy=quads, cut=cut) if len(quads) else CardDetections.empty()
        read = self.read_quads(crop_bgr, found, crop_to_table) if len(found) else found
        self._last_read[zone] = (look.cards_px, read)
        return ZoneReading(read, look.occupancy)

    def read_frame(self, frame_bgr: BgrImage, image_to_table: npt.ArrayLike | None = None
                   ) -> CardDetections:
        """Find and read the cards of one frame.

        ``image_to_table``, the homography from image pixels to table millimetres (from
        the table calibration), settles which sides of each card are the long ones, and
        leaves unread any quad that is not the size of a card (two cards overlapping).
        """
        found = detect_cards(frame_bgr, self.config.detect)
        return self.read_quads(frame_bgr, found, image_to_table)

    def read_quads(self, frame_bgr: BgrImage, found: CardDetections,
                   image_to_table: npt.ArrayLike | None = None) -> CardDetections:
        """Classify the cards at given quads (cut ones, and with a homography the ones
        that are not card-sized, stay unread)."""
        todo = np.flatnonzero(~found.cut)
        if todo.size == 0:
            return found
        sure_sides = image_to_table is not None
        if sure_sides:
            found, card_sized = _orient_on_table(found, np.asarray(image_to_table, np.float64),
                                                 self.config.size_tolerance)
            todo = todo[card_sized[todo]]
            if todo.size == 0:
                return flag_over_shoe(found, self.known, self.config.decks)
        quads = found.quad_xy[todo]
        first = self.classifier.classify(list(rectify_cards(frame_bgr, quads)))
        # a card whose long sides are uncertain (a slanted view) and that was not read
        # sure is read once more with its corners shifted by one; the model is never
        # sure of a card seen the wrong way round (squashed and turned), so a sure first
        # reading settles it, and two sure readings that disagree settle nothing
        again = [] if sure_sides else [
            k for k, q in enumerate(quads)
            if side_ratio(q) < self.config.both_ways_below_ratio and first[k].label is None]
        turned = self.classifier.classify(list(rectify_cards(frame_bgr, quads[again], quarter_turn=True))) \
            if again else []
        quad_xy = found.quad_xy.copy()
        labels = found.label.copy()
        conf = found.confidence.copy()
        down = found.face_down.copy()
        second = dict(zip(again, turned))
        for k, index in enumerate(todo):
            reading = first[k]
            if k in second:
                other = second[k]
                if other.label is not None and other.confidence < self.config.second_look_threshold:
                    other = CardReading.unsure(other.best, other.confidence)
                reading = combine_readings(first[k], other)
                if reading is other and (other.label is not None or other.face_down):
                    quad_xy[index] = np.roll(quad_xy[index], -1, axis=0)
            labels[index] = reading.label
            conf[index] = reading.confidence
            down[index] = reading.face_down
        read = dataclasses.replace(found, quad_xy=quad_xy, label=labels, confidence=conf, face_down=down)
        return flag_over_shoe(read, self.known, self.config.decks)

    def read_single(self, image_bgr: BgrImage) -> CardDetections:
        """One card filling the image (a crop): no detection, the whole image is the card."""
        reading: CardReading = self.classifier.classify([rectify_whole_image(image_bgr)])[0]
        dets = CardDetections(quad_xy=whole_image_quad(image_bgr)[None], label=[reading.label],
                              confidence=np.array([reading.confidence], np.float32),
                              face_down=[reading.face_down])
        return flag_over_shoe(dets, self.known, self.config.decks)


def _orient_on_table(found: CardDetections, image_to_table: npt.NDArray[np.float64], tolerance: float
                     ) -> tuple[CardDetections, npt.NDArray[np.bool_]]:
    """Put each quad's short side first as measured on the table, and say which are card-sized."""
    quads = found.quad_xy.copy()
    sized = np.zeros(len(quads), bool)
    for i, quad in enumerate(quads):
        mm = cv2.perspectiveTransform(quad.reshape(1, 4, 2).astype(np.float64), image_to_table)[0]
        sides = np.linalg.norm(mm - mm[[1, 2, 3, 0]], axis=1)
        first_pair, second_pair = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
        if first_pair > second_pair:
            quads[i] = quad[[1, 2, 3, 0]]
        sized[i] = card_sized_mm(mm, tolerance)
    return dataclasses.replace(found, quad_xy=quads), sized


def read_stream(source: FrameSource, reader: CardReader) -> Iterator[tuple[Frame, CardDetections]]:
    """Each frame with its reading, as it comes: a camera lost mid-stream raises
    :class:`~vision.errors.CameraLost` only after every earlier reading was handed out."""
    for frame in source.frames():
        yield frame, reader.read_frame(frame.bgr)
