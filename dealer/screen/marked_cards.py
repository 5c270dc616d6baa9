"""A picture with each card found drawn on it and what was read there: what
`eleusis read --marked` writes beside a photo, and what the review keeps of each play.

A list of cards and pixel positions does not settle a dispute over a photo of a layout; the
photo itself, each card outlined and named, does. The name is written at the card's index
corner (the reading's top-left), which is the part of an overlapped card that shows.

>>> import numpy as np
>>> from vision.readings import CardDetections
>>> marked_cards(np.zeros((60, 80, 3), np.uint8), CardDetections.empty()).shape
(60, 80, 3)
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from engine.cards import Card
from vision.geometry import card_width
from vision.readings import CardDetections

__all__ = ["READ", "NAMED", "UNSURE", "UNDER", "OTHER", "label_of", "marked_cards"]

BgrImage = npt.NDArray[np.uint8]

# outline colours (BGR): a card read, a card the players named where the dealer was unsure,
# a card found but not read, a card under another with no index showing, a back or a card
# cut by the picture's edge
READ = (40, 200, 40)
NAMED = (0, 140, 255)
UNSURE = (0, 0, 230)
UNDER = (200, 60, 200)
OTHER = (160, 160, 160)
# the label's height follows the card's: this share of its width per unit of OpenCV's font scale
FONT_PER_WIDTH = 1 / 250
FONT_SCALE = (0.6, 1.2)  # legible on a 1280 x 720 frame, whatever the cards' size


def label_of(cards: CardDetections, i: int, name: Card | None = None) -> tuple[str, tuple[int, int, int]]:
    """What card ``i`` is marked with, and in which colour. ``name``: the card the players
    named where the dealer was unsure (live play)."""
    if cards.is_read[i]:
        return f"{cards.label[i]} {float(cards.confidence[i]):.2f}", READ
    if name is not None:
        return f"{name} named", NAMED
    if cards.under[i]:
        return "under another", UNDER
    if cards.face_down[i]:
        return "face down", OTHER
    if cards.cut[i]:
        return "cut", OTHER
    if cards.over_shoe[i]:
        return f"{cards.label[i]}? (C1)", UNSURE
    return "unsure", UNSURE


def marked_cards(bgr: BgrImage, cards: CardDetections, names: Sequence[Card | None] = ()) -> BgrImage:
    """A copy of ``bgr`` with each of ``cards`` outlined in its colour and labelled
    (:func:`label_of`); ``names[i]``, where given, is what the players named card ``i``."""
    out = np.ascontiguousarray(bgr.copy())
    h, w = out.shape[:2]
    marks = [label_of(cards, i, names[i] if i < len(names) else None) for i in range(len(cards))]
    sizes = [float(np.clip(card_width(quad) * FONT_PER_WIDTH, *FONT_SCALE)) for quad in cards.quad_xy]
    for quad, (_text, colour), scale in zip(cards.quad_xy, marks, sizes, strict=True):
        thick = max(1, round(1.5 * scale)) + 1
        cv2.polylines(out, [np.round(quad).astype(np.int32).reshape(-1, 1, 2)], True, colour, thick, cv2.LINE_AA)
    for i, ((text, colour), scale) in enumerate(zip(marks, sizes, strict=True)):  # the labels over every outline
        quad = np.asarray(cards.quad_xy[i], np.float64)
        thick = max(1, round(1.5 * scale))
        (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
        # the index corner, a little inside the card; the centre for a card with no index showing
        at = quad.mean(axis=0) if cards.under[i] else quad[0] + 0.12 * (quad[2] - quad[0])
        x = int(np.clip(at[0] - tw / 2, 2, max(2, w - tw - 2)))
        y = int(np.clip(at[1] + th / 2, th + 2, max(th + 2, h - base - 2)))
        box = out[max(0, y - th - 2):y + base + 2, max(0, x - 2):x + tw + 2]
        box[:] = (box * 0.35).astype(np.uint8)  # a dark plate under the label, the photo faint through it
        cv2.putText(out, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick, cv2.LINE_AA)
    return out
