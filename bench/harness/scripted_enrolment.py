"""Decks shown for enrolment at a table, as `eleusis calibrate deck` asks (tests, bench).

Each enrolment step (:func:`dealer.table.enrolment.enrolment_steps`) becomes the
table states players go through: a hand comes over the play zone, lays the step's cards
left to right, leaves them lying, comes back for them and leaves the zone empty. The states
are :class:`bench.harness.make_demo.Step`, rendered by :class:`bench.harness.make_demo.StepRenderer` on
the printed mat (its light, table and camera); ``back`` is a card laid face down, drawn from
the faces' ``"back"`` entry (see :func:`with_back`).

>>> from dealer.table.enrolment import enrolment_steps
>>> states = enrolment_timeline(enrolment_steps(1)[:1])
>>> [(s.cards, s.hand) for s in states]
[((), True), (('AC', '2C', '3C'), True), (('AC', '2C', '3C'), False), (('AC', '2C', '3C'), True), ((), False)]
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import cv2
import numpy as np

from dealer.table.enrolment import EnrolmentStep
from bench.harness.make_demo import Step, StepRenderer, filmed
from vision.synthetic.cards import CardFace

__all__ = ["enrolment_frames", "enrolment_timeline", "with_back"]

LAY_S = 0.7  # a hand over the zone, laying the cards
LIE_S = 2.0  # the cards lie still, no hand: long enough for STEADY_FRAMES at 3 frames a second
EMPTY_S = 1.0  # the zone cleared before the next step


def enrolment_timeline(steps: Sequence[EnrolmentStep]) -> tuple[Step, ...]:
    """The table states of showing ``steps`` one after the other."""
    states: list[Step] = []
    for step in steps:
        cards = step.labels
        states += [Step((), seconds=0.4, hand=True, note=step.prompt), Step(cards, seconds=LAY_S, hand=True),
                   Step(cards, seconds=LIE_S), Step(cards, seconds=0.4, hand=True), Step((), seconds=EMPTY_S)]
    return tuple(states)


def enrolment_frames(renderer: StepRenderer, steps: Sequence[EnrolmentStep], fps: float = 3.0
                     ) -> Iterator[tuple[np.ndarray, float]]:
    """Frames (and their times in seconds) of a camera filming ``steps`` being shown."""
    for k, (_state, frame) in enumerate(filmed(renderer, (Step((), seconds=1.0), *enrolment_timeline(steps)), fps)):
        yield frame, k / fps


def with_back(faces: Mapping[str, CardFace], back: Path | np.ndarray | None) -> dict[str, CardFace]:
    """``faces`` and a ``"back"`` face: the picture at ``back`` (a file, BGR(A) image), else a
    plain patterned back, for decks photographed without theirs."""
    out = dict(faces)
    if isinstance(back, Path):
        back = cv2.imread(str(back), cv2.IMREAD_UNCHANGED)
    if back is None:
        any_face = next(iter(faces.values()))
        h, w = any_face.image_bgr.shape[:2]
        back = np.full((h, w, 3), (40, 40, 150), np.uint8)
        cv2.rectangle(back, (w // 12, h // 14), (w - w // 12, h - h // 14), (235, 235, 235), max(2, w // 40))
        for y in range(h // 8, h - h // 8, max(4, h // 20)):
            cv2.line(back, (w // 8, y), (w - w // 8, y + h // 20), (200, 200, 240), max(1, w // 80))
    image = np.asarray(back, np.uint8)
    if image.ndim == 3 and image.shape[2] == 4:
        alpha = image[:, :, 3].astype(np.float32) / 255.0
        image = np.ascontiguousarray(image[:, :, :3])
    else:
        from vision.synthetic.cards import cut_out

        cut = cut_out(image)
        image, alpha = cut.image_bgr, cut.alpha
    out["back"] = CardFace(None, image, alpha)
    return out
