"""Cards of a zone read by an index corner: the side branches' overlapped columns.

Players lay a long side branch as a column, each card half over the one before it, so
only the top of each card under another shows, its index among it. The zone's outline
finder (:mod:`vision.zone_cards`) sees such a column as one blob, or fits a card where the
column's lowest card lies. :func:`with_zone_corners` adds the cards read by an index alone
(:func:`vision.corners.read_corners`, with the cards read by their outline as the size
they must have) and settles the two:

- a card read whole keeps its reading; an index of the same card on it is that card, and an
  index of another card well inside it is part of its face (pips, its own index misread);
- an outline left unread that holds a read index (a column's blob, or the lowest card of
  a column fitted over the ones under it) is no card of its own: the indices are the cards;
- each index read gives a card of the deck's size on the table (``card_mm``), laid from
  that corner the way the index is turned: where it lies is then as sure as the index;
- a card whose implied outline leaves the crop is cut (:attr:`CardDetections.cut`), as an
  outline would be: it belongs to the next zone's crop (the crops overlap by a margin).

A column's card whose index no reader took (a design's glyph it doubts) still shows its top:
:func:`zone_under` reads it by what shows of it, completed to a card of the deck's size on the
table (:func:`vision.under.read_under`).

>>> import numpy as np
>>> from vision.classify import FakeClassifier
>>> crop = np.full((200, 300, 3), 200, np.uint8)
>>> none = CardDetections.empty()
>>> len(with_zone_corners(FakeClassifier(), crop, none, np.eye(3)))
0
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.corners import CornerReading, card_quad_of, read_corners
from vision.geometry import CARD_H_MM, CARD_W_MM
from vision.readings import CardDetections
from vision.under import cards_under, read_under

__all__ = ["ZoneCorners", "same_picture", "settle", "small_picture", "with_zone_corners", "zone_corners", "zone_under"]

BgrImage = npt.NDArray[np.uint8]
FloatArray = npt.NDArray[np.float64]

# an index lies on an outline when inside it grown by this share (an outline fitted short);
# well inside it, when inside it shrunk to this share (off its rim, where the card over a
# covered one may end a little short of the fit)
_ON_GROWN = 1.1
_INSIDE = 0.85
# a card read by an index alone lies with at least this share of it inside its zone: the
# layout's cards lie well inside theirs (the main line centred in its band, a column ending
# short of the zone's edge)
IN_ZONE = 0.8
# ... and along the table's length, within this of it (the layout's cards lie upright)
UPRIGHT_DEG = 25.0
# the zone's picture is compared in blocks this big (crop pixels: about 8 mm at 2 px/mm)
BLOCK_PX = 16
# a block differing by more than this share of the picture's mean level is a change: sensor
# noise and a few % of light drift stay under 0.05; a card laid on a pale cloth changes its
# blocks by 0.2 or more (its print, its shadow, its rim)
SAME_BLOCK = 0.12


def _to(m: FloatArray, pts: npt.ArrayLike) -> FloatArray:
    p = np.asarray(pts, np.float64).reshape(1, -1, 2)
    return np.asarray(cv2.perspectiveTransform(p, m)[0], np.float64)


def _on(quad: npt.NDArray[np.float32], xy: tuple[float, float], scale: float = _ON_GROWN) -> bool:
    centre = quad.mean(axis=0)
    grown = (centre + scale * (quad - centre)).astype(np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(grown, (float(xy[0]), float(xy[1])), False) >= 0


def _card_from_index(reading: CornerReading, crop_to_table: FloatArray, card_mm: tuple[float, float]
                     ) -> npt.NDArray[np.float32]:
    """The card an index implies, made the deck's size on the table: its top-left corner and
    its sides' directions from the index, its sides' lengths from ``card_mm``."""
    implied = _to(crop_to_table, card_quad_of(reading))
    corner = implied[0]
    right = implied[1] - implied[0]
    down = implied[3] - implied[0]
    right /= max(float(np.linalg.norm(right)), 1e-9)
    down /= max(float(np.linalg.norm(down)), 1e-9)
    w, h = card_mm
    quad_mm = np.array([corner, corner + w * right, corner + w * right + h * down, corner + h * down])
    return np.asarray(_to(np.asarray(np.linalg.inv(crop_to_table), np.float64), quad_mm), np.float32)


@dataclass(frozen=True)
class ZoneCorners:
    """The cards read by an index alone in one crop: card-sized outlines (crop pixels, ``cut``
    when leaving the crop), and each index's middle (crop pixels)."""

    cards: CardDetections
    index_xy: npt.NDArray[np.float32]  # (n, 2)

    @classmethod
    def empty(cls) -> ZoneCorners:
        return cls(CardDetections.empty(), np.zeros((0, 2), np.float32))


def _lies_in(quad_mm: FloatArray, polygon_mm: FloatArray) -> bool:
    """Whether a card (table mm) lies with at least :data:`IN_ZONE` of it inside the zone."""
    pts = np.array([[a, b] for a in np.linspace(0.05, 0.95, 5) for b in np.linspace(0.05, 0.95, 7)])
    at = (quad_mm[0] + pts[:, :1] * (quad_mm[1] - quad_mm[0]) + pts[:, 1:] * (quad_mm[3] - quad_mm[0]))
    poly = polygon_mm.astype(np.float32).reshape(-1, 1, 2)
    inside = [cv2.pointPolygonTest(poly, (float(x), float(y)), False) >= 0 for x, y in at]
    return float(np.mean(inside)) >= IN_ZONE


def _upright(quad_mm: FloatArray) -> bool:
    """Whether a card lies along the table's length (its long side within :data:`UPRIGHT_DEG`
    of the y axis, either way up), as the main line's and a column's cards lie."""
    down = quad_mm[3] - quad_mm[0]
    return bool(abs(float(down[1])) >= np.cos(np.radians(UPRIGHT_DEG)) * float(np.linalg.norm(down)))


def zone_corners(classifier: Any, crop_bgr: BgrImage, read: CardDetections, crop_to_table: npt.ArrayLike,
                 card_mm: tuple[float, float] = (CARD_W_MM, CARD_H_MM), polygon_mm: npt.ArrayLike | None = None
                 ) -> ZoneCorners:
    """The indices read in a zone's crop (:func:`vision.corners.read_corners`, the cards
    ``read`` by their outline giving the size), each as a card of the deck's size. With the
    zone's ``polygon_mm``, only cards that lie in it, upright as the layout's cards lie: a
    card read by an index alone has no outline to tell where it lies, and a pair of glyphs
    on another card's face read as an index implies a card across the zone's edge or
    turned (a main-line card's own glyphs read as a 3C between the line and the branches)."""
    readings = read_corners(classifier, crop_bgr, whole=read)
    to_table = np.asarray(crop_to_table, np.float64)
    if readings and polygon_mm is not None:
        polygon = np.asarray(polygon_mm, np.float64).reshape(-1, 2)
        placed = [(r, _to(to_table, card_quad_of(r))) for r in readings]
        readings = [r for r, q in placed if _upright(q) and _lies_in(_to(to_table, _card_from_index(r, to_table, card_mm)),
                                                                     polygon)]
    if not readings:
        return ZoneCorners.empty()
    h, w = crop_bgr.shape[:2]
    quads = np.stack([_card_from_index(r, to_table, card_mm) for r in readings])
    cut = np.any((quads < 0) | (quads > np.array([w - 1, h - 1], np.float32)), axis=(1, 2))
    cards = CardDetections(quad_xy=quads, label=[r.card for r in readings],
                           confidence=np.array([r.confidence for r in readings], np.float32), cut=cut)
    return ZoneCorners(cards, np.array([r.index_xy for r in readings], np.float32).reshape(-1, 2))


def settle(read: CardDetections, corners: ZoneCorners) -> CardDetections:
    """``read`` (found by outline) and the cards of ``corners`` that are not one of them, as
    the module says; ``read`` itself when the corners add nothing."""
    xy = [(float(x), float(y)) for x, y in corners.index_xy]
    # an index of the card read whole there is that card; an index well inside a card read
    # whole as another is part of that card's face (its pips, its own index misread), since
    # the index of a card under another shows beside the card over it, not on it
    fresh = [k for k in range(len(corners.cards))
             if not any((read.label[i] == corners.cards.label[k] and _on(read.quad_xy[i], xy[k]))
                        or (read.label[i] is not None and _on(read.quad_xy[i], xy[k], _INSIDE))
                        for i in range(len(read)))]
    if not fresh:
        return read
    # an unread outline holding a read index is the column's blob, or a card fitted over
    # the ones under it: the indices tell the cards
    keep = [i for i in range(len(read))
            if read.label[i] is not None or read.face_down[i] or not any(_on(read.quad_xy[i], xy[k]) for k in fresh)]
    kept = read[np.asarray(keep, np.int64)] if len(keep) < len(read) else read
    return CardDetections.concatenate([kept, corners.cards[np.asarray(fresh, np.int64)]])


def with_zone_corners(classifier: Any, crop_bgr: BgrImage, read: CardDetections, crop_to_table: npt.ArrayLike,
                      card_mm: tuple[float, float] = (CARD_W_MM, CARD_H_MM)) -> CardDetections:
    """``read`` (a zone's cards found by their outline, crop pixels) with the cards read by
    an index alone, settled as the module says. A classifier without a corner reader
    (:func:`vision.corners.read_corners`) adds nothing."""
    return settle(read, zone_corners(classifier, crop_bgr, read, crop_to_table, card_mm))


def zone_under(classifier: Any, crop_bgr: BgrImage, found: CardDetections, crop_to_table: npt.ArrayLike,
               card_mm: tuple[float, float] = (CARD_W_MM, CARD_H_MM), polygon_mm: npt.ArrayLike | None = None
               ) -> CardDetections:
    """The cards under others in a zone (a column's cards, only their tops showing, whose
    index no reader took) read by what shows of them, completed to a card of ``card_mm`` on
    the table (:func:`vision.under.read_under`); with the zone's ``polygon_mm``, only those
    that lie in it, upright, as a card read by an index alone must. The cards not read are
    left out: what the layout watch knows of a column is what it reads."""
    under = cards_under(crop_bgr, found)
    if not len(under):
        return CardDetections.empty()
    to_table = np.asarray(crop_to_table, np.float64)
    read = read_under(classifier, crop_bgr, found, under, to_table, card_mm)
    keep = [k for k in range(len(read)) if read.label[k] is not None
            and (polygon_mm is None or (_upright(_to(to_table, read.quad_xy[k]))
                                        and _lies_in(_to(to_table, read.quad_xy[k]),
                                                     np.asarray(polygon_mm, np.float64).reshape(-1, 2))))]
    if not keep:
        return CardDetections.empty()
    read = read[np.asarray(keep, np.int64)]
    h, w = crop_bgr.shape[:2]
    cut = np.any((read.quad_xy < 0) | (read.quad_xy > np.array([w - 1, h - 1], np.float32)), axis=(1, 2))
    return CardDetections(quad_xy=read.quad_xy, label=list(read.label), confidence=read.confidence, cut=cut)


def same_picture(a: npt.NDArray[np.float32] | None, b: npt.NDArray[np.float32]) -> bool:
    """Whether two :func:`small_picture` of one zone show the same: no block differs by more
    than :data:`SAME_BLOCK` of the picture's level (the light's gain drifts; a card laid or
    moved changes its blocks by a third or more)."""
    return a is not None and a.shape == b.shape and float(np.abs(a - b).max()) <= SAME_BLOCK


def small_picture(crop_bgr: BgrImage) -> npt.NDArray[np.float32]:
    """A zone's crop in grey, in blocks of :data:`BLOCK_PX`, divided by its mean level."""
    grey = cv2.cvtColor(crop_bgr, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape
    small = cv2.resize(grey, (max(1, w // BLOCK_PX), max(1, h // BLOCK_PX)), interpolation=cv2.INTER_AREA)
    small = small.astype(np.float32)
    return np.asarray(small / max(float(small.mean()), 1.0), np.float32)
