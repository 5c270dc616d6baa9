"""One call per frame: detect, rectify, classify (one batch), check against the shoe.

>>> import numpy as np
>>> from vision.classify import FakeClassifier
>>> reader = CardReader(FakeClassifier())
>>> len(reader.read_frame(np.zeros((360, 640, 3), np.uint8)))
0
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from calibration.layout import ZONE_MAIN_LINE, ZONE_SIDE_BRANCHES
from engine.cards import DEFAULT_DECKS, Card
from vision.classify import CardReading, Classifier, combine_readings, union_of_maybe
from vision.consistency import flag_over_shoe
from vision.detect import DetectConfig, detect_cards, side_ratio
from vision.frames import Frame, FrameSource
from vision.geometry import CARD_SIZE_TOLERANCE, SAME_PLACE_MM, card_sized_mm
from vision.occupancy import Occupancy, OccupancyConfig, ZoneWatch
from vision.readings import CardDetections
from vision.rectify import rectify_cards, rectify_whole_image, whole_image_quad
from vision.zone_corners import ZoneCorners, same_picture, settle, small_picture, zone_corners, zone_under

__all__ = ["CardReader", "ReaderConfig", "ZoneReading", "pool_looks", "read_stream"]

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
    # a card lying still at one place is read in every frame until it is read sure, at
    # most this many times (each read ~1 ms); the looks are pooled (:func:`pool_looks`)
    looks_per_card: int = 8
    # a card is the same card at the same place when its centre moved less than this (mm)
    same_place_mm: float = SAME_PLACE_MM
    # an unsure card is looked at again with its outline grown by this much (mm): a side
    # found a little inside the rim trims the index (on average 0.5 mm on the real
    # photos, ~0 on rendered decks; single sides up to 1.5 mm)
    grow_mm: float = 1.0
    # zones where cards overlap (a side branch laid as a column): their cards are also read
    # by an index corner alone (vision/zone_corners.py), once the zone is still after a change
    corner_zones: frozenset[str] = frozenset({ZONE_MAIN_LINE, ZONE_SIDE_BRANCHES})


@dataclass(frozen=True)
class ZoneReading:
    """The cards read in one zone crop (crop pixels) and what else lies there."""

    cards: CardDetections
    occupancy: Occupancy


def _kind(reading: CardReading) -> str | None:
    """What a look is sure of: a card, a back, or nothing."""
    if reading.label is not None:
        return str(reading.label)
    return "back" if reading.face_down else None


def pool_looks(looks: Sequence[CardReading]) -> CardReading:
    """One card lying still at one place, read in several frames (sensor noise, light and
    a neighbour's shadow differ a little each time): its reading.

    A card is read when some look was sure of it, no look was sure of anything else
    (another card, a back), and it was the best class of at least half of the looks;
    otherwise it stays unsure. A card the model is sure of only now and then (its
    confidence hovers about the threshold) is read; one the looks disagree on never is.

    >>> from engine.cards import Card
    >>> unsure, sure = CardReading.unsure("AS", 0.9), CardReading(Card.parse("AS"), 0.96, best="AS")
    >>> pool_looks([unsure, sure, unsure]).label
    Card.parse('AS')
    >>> pool_looks([unsure, sure, CardReading(Card.parse("4S"), 0.97, best="4S")]).label is None
    True
    >>> pool_looks([CardReading.unsure("4S", 0.6), sure, CardReading.unsure("4S", 0.7)]).label is None
    True
    """
    if not looks:
        return CardReading.unsure()
    kinds = {k for k in map(_kind, looks) if k is not None}
    maybe = union_of_maybe(looks)  # an unsure card may be anything one of its looks allowed
    if len(kinds) != 1:
        latest = looks[-1]
        if not kinds:
            return dataclasses.replace(latest, maybe=maybe)
        return CardReading.unsure(latest.best, max(r.confidence for r in looks), maybe=maybe)
    kind = kinds.pop()
    sure = max((r for r in looks if _kind(r) == kind), key=lambda r: r.confidence)
    if sure.label is not None and 2 * sum(r.best == kind for r in looks) < len(looks):
        return CardReading.unsure(sure.best, sure.confidence, maybe=maybe)
    return sure


@dataclass(eq=False)  # one place is itself only (its centre is an array)
class _Place:
    """A card found at one place of a zone, and its looks so far."""

    centre_mm: npt.NDArray[np.float64]
    looks: list[CardReading]


class CardReader:
    """Frames in, :class:`CardDetections` out; ``known`` cards count toward the shoe (C1)."""

    def __init__(self, classifier: Classifier, config: ReaderConfig = ReaderConfig(),
                 known: Iterable[Card] = ()) -> None:
        self.classifier = classifier
        self.config = config
        self.known = tuple(known)
        self._watches: dict[str, ZoneWatch] = {}
        self._last_read: dict[str, CardDetections] = {}
        self._places: dict[str, list[_Place]] = {}
        self._cornered: dict[str, bool] = {}  # the zone's last reading has had its index corners read
        # per zone: its picture when its index corners were last read, and what they read
        self._corner_pass: dict[str, tuple[npt.NDArray[np.float32], ZoneCorners, CardDetections]] = {}

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
        if last is not None and look.kept:
            # nothing moved: the same cards, not read again unless one is still unsure
            read = self._read_again(zone, crop_bgr, last, crop_to_table)
            read = self._corners(zone, crop_bgr, read, crop_to_table, look.occupancy)
            self._last_read[zone] = read
            return ZoneReading(read, look.occupancy)
        h, w = crop_bgr.shape[:2]
        quads = np.array(look.cards_px, np.float32).reshape(-1, 4, 2)
        cut = np.any((quads < 0) | (quads > np.array([w - 1, h - 1], np.float32)), axis=(1, 2))
        found = CardDetections(quad_xy=quads, cut=cut) if len(quads) else CardDetections.empty()
        read, looks = self._classify(crop_bgr, found, crop_to_table) if len(found) else (found, {})
        extra = self._grown_looks(crop_bgr, read, [i for i, r in looks.items() if _kind(r) is None], crop_to_table)
        read = self._pool(zone, read, looks, crop_to_table, extra)
        self._cornered[zone] = False
        read = self._corners(zone, crop_bgr, read, crop_to_table, look.occupancy)
        self._last_read[zone] = read
        return ZoneReading(read, look.occupancy)

    def _corners(self, zone: str, crop_bgr: BgrImage, read: CardDetections, crop_to_table: npt.ArrayLike,
                 occupancy: Occupancy) -> CardDetections:
        """In a zone of ``corner_zones``, the cards read by an index alone added when the zone
        is still (a hand moving over it makes every frame a change, and nothing is judged
        then), and the cards under others read by what shows of them
        (vision.zone_corners.zone_under). They are read again only when the zone's picture
        changed since they were (vision.zone_corners.same_picture): reading them costs some
        0.3-1 s of a processor."""
        if zone not in self.config.corner_zones or self._cornered.get(zone, True) or not occupancy.still \
                or occupancy.arm:
            return read
        self._cornered[zone] = True
        picture = small_picture(crop_bgr)
        last = self._corner_pass.get(zone)
        card_mm, polygon_mm = self.config.zones.cards.card_mm, self._watches[zone].polygon_mm
        cached = last is not None and same_picture(last[0], picture)
        corners = last[1] if cached else zone_corners(self.classifier, crop_bgr, read, crop_to_table, card_mm,
                                                      polygon_mm)
        found = settle(read, corners)
        under = last[2] if cached else zone_under(self.classifier, crop_bgr, found, crop_to_table, card_mm, polygon_mm)
        if not cached:  # compared with the picture the corners were read on, not the last one
            self._corner_pass[zone] = (picture, corners, under)
        if len(under):
            found = CardDetections.concatenate([found, under])
        return read if found is read else flag_over_shoe(found, self.known, self.config.decks)

    def _read_again(self, zone: str, crop_bgr: BgrImage, read: CardDetections,
                    crop_to_table: npt.ArrayLike) -> CardDetections:
        """A still zone: read once more the cards not yet read sure (each up to
        ``looks_per_card`` times), and pool their looks."""
        places = self._places.get(zone, [])
        centres = _centres_mm(read, crop_to_table)
        todo = [i for i in range(len(read))
                if read.label[i] is None and not read.cut[i] and not read.face_down[i]
                and any(np.linalg.norm(p.centre_mm - centres[i]) < self.config.same_place_mm
                        and 0 < len(p.looks) < self.config.looks_per_card for p in places)]
        if not todo:
            return read
        again, looks = self._classify(crop_bgr, read[np.asarray(todo, np.int64)], crop_to_table)
        extra = self._grown_looks(crop_bgr, again, list(looks), crop_to_table)
        labels, conf, down = read.label.copy(), read.confidence.copy(), read.face_down.copy()
        quad_xy, maybe = read.quad_xy.copy(), read.maybe.copy()
        for k, i in enumerate(todo):
            if k not in looks:
                continue
            pooled = self._remember(zone, centres[i], [looks[k], *extra.get(k, [])])
            labels[i], conf[i], down[i], maybe[i] = pooled.label, pooled.confidence, pooled.face_down, pooled.maybe
            quad_xy[i] = again.quad_xy[k]
        out = dataclasses.replace(read, quad_xy=quad_xy, label=labels, confidence=conf, face_down=down,
                                  over_shoe=np.zeros(len(read), bool), maybe=maybe)
        return flag_over_shoe(out, self.known, self.config.decks)

    def _grown_looks(self, crop_bgr: BgrImage, read: CardDetections, unsure: list[int],
                     crop_to_table: npt.ArrayLike) -> dict[int, list[CardReading]]:
        """Another look at each unsure card, its outline grown by ``grow_mm`` on every side:
        a side found a little inside the card (a rounded corner, a soft rim) trims its
        index, and the model was trained on whole cards."""
        if not unsure or self.config.grow_mm <= 0:
            return {}
        to_table = np.asarray(crop_to_table, np.float64)
        grown = np.array([_grown_quad(read.quad_xy[i], to_table, self.config.grow_mm) for i in unsure], np.float32)
        _, looks = self._classify(crop_bgr, CardDetections(quad_xy=grown), to_table)
        return {i: [looks[k]] for k, i in enumerate(unsure) if k in looks}

    def _pool(self, zone: str, read: CardDetections, looks: dict[int, CardReading],
              crop_to_table: npt.ArrayLike, extra: dict[int, list[CardReading]] | None = None) -> CardDetections:
        """Add this frame's looks to each card's place (a card no longer found is
        forgotten) and give each card its pooled reading."""
        centres = _centres_mm(read, crop_to_table)
        places = self._places.get(zone, [])
        kept: list[_Place] = []
        labels, conf, down = read.label.copy(), read.confidence.copy(), read.face_down.copy()
        maybe = read.maybe.copy()
        for i in range(len(read)):
            if i not in looks:
                continue
            place = next((p for p in places if p not in kept
                          and np.linalg.norm(p.centre_mm - centres[i]) < self.config.same_place_mm), None)
            new = [looks[i], *(extra or {}).get(i, [])]
            kinds = {k for k in map(_kind, new) if k is not None}
            if place is None or (kinds and any(_kind(r) not in (None, *kinds) for r in place.looks)):
                # something moved (this is a fresh look) and a sure look names another card
                # than before: another card now lies at that place (cards of a batch swapped
                # between two frames), its looks start afresh
                place = _Place(centres[i], [])
            place.looks = [*place.looks, *new][-self.config.looks_per_card:]
            place.centre_mm = centres[i]
            kept.append(place)
            pooled = pool_looks(place.looks)
            labels[i], conf[i], down[i], maybe[i] = pooled.label, pooled.confidence, pooled.face_down, pooled.maybe
        self._places[zone] = kept
        out = dataclasses.replace(read, label=labels, confidence=conf, face_down=down,
                                  over_shoe=np.zeros(len(read), bool), maybe=maybe)
        return flag_over_shoe(out, self.known, self.config.decks)

    def _remember(self, zone: str, centre_mm: npt.NDArray[np.float64], new: list[CardReading]) -> CardReading:
        for place in self._places.get(zone, []):
            if np.linalg.norm(place.centre_mm - centre_mm) < self.config.same_place_mm:
                place.looks = [*place.looks, *new][-self.config.looks_per_card:]
                return pool_looks(place.looks)
        return pool_looks(new)

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
        read, _ = self._classify(frame_bgr, found, image_to_table)
        return flag_over_shoe(read, self.known, self.config.decks)

    def _classify(self, frame_bgr: BgrImage, found: CardDetections, image_to_table: npt.ArrayLike | None
                  ) -> tuple[CardDetections, dict[int, CardReading]]:
        """The cards read (before the shoe check) and the reading of each card that was
        read (by index: cut cards, and with a homography those not card-sized, are not)."""
        todo = np.flatnonzero(~found.cut)
        if todo.size == 0:
            return found, {}
        sure_sides = image_to_table is not None
        if sure_sides:
            found, card_sized = _orient_on_table(found, np.asarray(image_to_table, np.float64),
                                                 self.config.size_tolerance)
            todo = todo[card_sized[todo]]
            if todo.size == 0:
                return found, {}
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
        maybe = found.maybe.copy()
        second = dict(zip(again, turned))
        looks: dict[int, CardReading] = {}
        for k, index in enumerate(todo):
            reading = first[k]
            if k in second:
                other = second[k]
                if other.label is not None and other.confidence < self.config.second_look_threshold:
                    other = CardReading.unsure(other.best, other.confidence, maybe=frozenset({other.label}))
                reading = combine_readings(first[k], other)
                if reading is other and (other.label is not None or other.face_down):
                    quad_xy[index] = np.roll(quad_xy[index], -1, axis=0)
            labels[index] = reading.label
            conf[index] = reading.confidence
            down[index] = reading.face_down
            maybe[index] = reading.maybe if reading.label is None else None
            looks[int(index)] = reading
        return dataclasses.replace(found, quad_xy=quad_xy, label=labels, confidence=conf, face_down=down,
                                   maybe=maybe), looks

    def read_single(self, image_bgr: BgrImage) -> CardDetections:
        """One card filling the image (a crop): no detection, the whole image is the card."""
        reading: CardReading = self.classifier.classify([rectify_whole_image(image_bgr)])[0]
        dets = CardDetections(quad_xy=whole_image_quad(image_bgr)[None], label=[reading.label],
                              confidence=np.array([reading.confidence], np.float32),
                              face_down=[reading.face_down])
        return flag_over_shoe(dets, self.known, self.config.decks)


def _orient_on_table(found: CardDetections, image_to_table: npt.NDArray[np.float64], tolerance: float
                     ) -> tuple[CardDetections, npt.NDArray[np.bool_]]:
    """Put each quad's corners clockwise on screen (a quad given the other way round would be
    rectified as the card's mirror image, which the network reads worse and a deck profile
    not at all) with its short side first as measured on the table, and say which are
    card-sized."""
    quads = found.quad_xy.copy()
    sized = np.zeros(len(quads), bool)
    for i, quad in enumerate(quads):
        if cv2.contourArea(quad, oriented=True) < 0:  # anticlockwise on screen (y down): walk the sides back
            quads[i] = quad = quad[[1, 0, 3, 2]]
        mm = cv2.perspectiveTransform(quad.reshape(1, 4, 2).astype(np.float64), image_to_table)[0]
        sides = np.linalg.norm(mm - mm[[1, 2, 3, 0]], axis=1)
        first_pair, second_pair = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
        if first_pair > second_pair:
            quads[i] = quad[[1, 2, 3, 0]]
        sized[i] = card_sized_mm(mm, tolerance)
    return dataclasses.replace(found, quad_xy=quads), sized


def _grown_quad(quad: npt.NDArray[np.float32], crop_to_table: npt.NDArray[np.float64], mm: float
                ) -> npt.NDArray[np.float64]:
    """A card's corners moved ``mm`` outward along both of its sides (on the table)."""
    on_table = cv2.perspectiveTransform(quad.reshape(1, 4, 2).astype(np.float64), crop_to_table)[0]
    out = on_table.copy()
    for k in range(4):
        for j in ((k + 1) % 4, (k + 3) % 4):
            d = on_table[k] - on_table[j]
            out[k] += mm * d / max(float(np.linalg.norm(d)), 1e-9)
    back = cv2.perspectiveTransform(out.reshape(1, 4, 2), np.linalg.inv(crop_to_table))[0]
    return np.asarray(back, np.float64)


def _centres_mm(found: CardDetections, crop_to_table: npt.ArrayLike) -> npt.NDArray[np.float64]:
    if not len(found):
        return np.zeros((0, 2))
    pts = found.center_xy.reshape(1, -1, 2).astype(np.float64)
    return np.asarray(cv2.perspectiveTransform(pts, np.asarray(crop_to_table, np.float64))[0], np.float64)


def read_stream(source: FrameSource, reader: CardReader) -> Iterator[tuple[Frame, CardDetections]]:
    """Each frame with its reading, as it comes: a camera lost mid-stream raises
    :class:`~vision.errors.CameraLost` only after every earlier reading was handed out."""
    for frame in source.frames():
        yield frame, reader.read_frame(frame.bgr)
