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

import numpy as np
import numpy.typing as npt

from engine.cards import DEFAULT_DECKS, Card
from vision.classify import CardReading, Classifier, combine_readings
from vision.consistency import flag_over_shoe
from vision.detect import DetectConfig, detect_cards, side_ratio
from vision.frames import Frame, FrameSource
from vision.readings import CardDetections
from vision.rectify import rectify_cards, rectify_whole_image, whole_image_quad

__all__ = ["CardReader", "ReaderConfig", "read_stream"]

BgrImage = npt.NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class ReaderConfig:
    detect: DetectConfig = field(default_factory=DetectConfig)
    # below this long/short ratio in the image, the card's long sides are not certain
    # (a slanted view shortens the sides along the line of sight): read both ways
    both_ways_below_ratio: float = 1.6
    decks: int = DEFAULT_DECKS


class CardReader:
    """Frames in, :class:`CardDetections` out; ``known`` cards count toward the shoe (C1)."""

    def __init__(self, classifier: Classifier, config: ReaderConfig = ReaderConfig(),
                 known: Iterable[Card] = ()) -> None:
        self.classifier = classifier
        self.config = config
        self.known = tuple(known)

    def read_frame(self, frame_bgr: BgrImage) -> CardDetections:
        found = detect_cards(frame_bgr, self.config.detect)
        return self.read_quads(frame_bgr, found)

    def read_quads(self, frame_bgr: BgrImage, found: CardDetections) -> CardDetections:
        """Classify the cards at given quads (cut ones stay unread)."""
        todo = np.flatnonzero(~found.cut)
        if todo.size == 0:
            return found
        quads = found.quad_xy[todo]
        first = self.classifier.classify(list(rectify_cards(frame_bgr, quads)))
        # a card whose long sides are uncertain (a slanted view) and that was not read
        # sure is read once more with its corners shifted by one; the model is never
        # sure of a card seen the wrong way round (squashed and turned), so a sure first
        # reading settles it, and two sure readings that disagree settle nothing
        again = [k for k, q in enumerate(quads)
                 if side_ratio(q) < self.config.both_ways_below_ratio and first[k].label is None]
        turned = self.classifier.classify(list(rectify_cards(frame_bgr, quads[again], quarter_turn=True))) \
            if again else []
        quad_xy = found.quad_xy.copy()
        labels = list(found.label)
        conf = found.confidence.copy()
        down = found.face_down.copy()
        second = dict(zip(again, turned))
        for k, index in enumerate(todo):
            reading = first[k]
            if k in second:
                other = second[k]
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


def read_stream(source: FrameSource, reader: CardReader) -> Iterator[tuple[Frame, CardDetections]]:
    """Each frame with its reading, as it comes: a camera lost mid-stream raises
    :class:`~vision.errors.CameraLost` only after every earlier reading was handed out."""
    for frame in source.frames():
        yield frame, reader.read_frame(frame.bgr)
