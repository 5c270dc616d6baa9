"""The size a photo is read at, and the glyphs looked for in it: a phone's 12-megapixel photo
is far larger than the readers need, and its cards may fill it or be small in it.

The readers' inputs are small: a card rectified to 200 x 280 px (:data:`vision.preprocess.RECT_W`)
and an index box of 40 x 56 px; the index reader was trained on indices 8-44 px tall
(``models/index_data.py``), and the index corner's thresholds were chosen on the bridge
deals, whose cards are about 150-165 px wide. A layout photographed close by a phone at
4032 x 3024 shows its cards 300-600 px wide: every step costs several times what it costs at
half the size, and the indices (40-60 px tall) are as large as the largest the index reader
saw, or larger. And without a size known, the index proposer looks for glyphs of a share of
the picture's size (:func:`vision.corners.propose_corners`), which misses the indices of a
whole table taken from afar, small cards in a large picture.

So a photo longer than :data:`WORK_PX` is first read at that length (:data:`cv2.INTER_AREA`).
That reading stands when the cards read there are at least :data:`ENOUGH_CARD_PX` wide (the
bridge deals read as well at 1.3-1.7 times their size, and a few fewer at 0.6). Otherwise the
photo is read again where its cards are :data:`READ_CARD_PX` wide (at its own size where they
are narrower: a 48-megapixel photo of a table is not read whole), with its glyphs and shadows
sized by those cards (:func:`sized_by_cards`): the glyphs of their index
(:func:`vision.corner_proposals.glyph_px_of`), and a shadow as it would be in a photo of a
few cards (:func:`vision.ink.shadows_lifted` sizes its parts by the picture: a photographer's
shadow over a whole table taken from afar is small in the picture, and was not lifted). Every
outline is given back in the photo's own pixels. A photo within the work size is read as it is.

>>> import numpy as np
>>> from engine.cards import Card
>>> seen = []
>>> def read(image, card_px):  # finds a card 300 px wide in any picture
...     seen.append((image.shape[:2], card_px))
...     return CardDetections(np.array([[[0, 0], [300, 0], [300, 420], [0, 420]]], np.float32), [Card.parse("7D")])
>>> found = read_at_card_size(np.zeros((3000, 4000, 3), np.uint8), read)
>>> seen, found.quad_xy[0, 2].tolist()
([((1500, 2000), None)], [600.0, 840.0])
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
import numpy.typing as npt

from vision.corner_proposals import card_index_px, glyph_px_of
from vision.geometry import card_width
from vision.readings import CardDetections

__all__ = ["ENOUGH_CARD_PX", "PICTURE_PER_CARD", "READ_CARD_PX", "SMALL_CARD_PX", "WORK_PX", "card_width_px",
           "read_at_card_size", "scaled", "sized_by_cards"]

BgrImage = npt.NDArray[np.uint8]
Read = Callable[[BgrImage, "float | None"], CardDetections]  # a picture, its cards' width where known
# the longest side a photo is read at first: every real photo the readers were checked on
# is within it (bridge deals 1200 px, blackjack tables 1920 px, a webcam 1280 px)
WORK_PX = 2000
# cards at least this wide (the median over the cards read) read as well at the work size
ENOUGH_CARD_PX = 120.0
# where they are narrower, the photo is read again at most so large that they are this wide
# (the bridge deals' own size, at which the index corner's thresholds were chosen)
READ_CARD_PX = 160.0
# cards narrower than this in the photo itself are missed markedly more often, and nothing in
# the photo can make up for it: the tuning bridge deal 1 shrunk reads 41 of 44 indices with its
# cards 134 px wide, 40 at 109, 39 at 96, 38 at 84, 34 at 69 and 25 at 56; the studied deal 7
# 34-38 of 51 from 108 to 182 px wide, 31 at 89 and 23 at 72 (none wrong; bench/README.md,
# "Small photos")
SMALL_CARD_PX = 90.0
# a picture's shorter side over its cards' width in the photos the light's model was made on
# (vision.ink.shadows_lifted; the bridge deals: 1200 px, cards about READ_CARD_PX wide)
PICTURE_PER_CARD = 1200 / READ_CARD_PX


def sized_by_cards(card_px: float | None) -> tuple[tuple[float, float] | None, float | None]:
    """For cards ``card_px`` wide (None: not known), the glyph heights to look for
    (:func:`vision.corner_proposals.propose_corners`'s ``glyph_px``) and the picture size the
    shadows are sized by (:func:`vision.ink.shadows_lifted`'s ``short_px``); None, None (a
    share of the picture's own size) where the width is not known.

    >>> glyphs, short = sized_by_cards(160.0)
    >>> [round(v, 1) for v in glyphs], short
    ([7.6, 44.1], 1200.0)
    """
    if card_px is None:
        return None, None
    return glyph_px_of(card_index_px(card_px)), PICTURE_PER_CARD * card_px


def card_width_px(found: CardDetections) -> float | None:
    """The median width in pixels (the shorter pair of sides) of the cards ``found`` read (a
    strip of a card under another, or one cut by the frame, measures no card); None when none
    was read."""
    read = found[found.is_read]
    if not len(read):
        return None
    return float(np.median([card_width(q) for q in read.quad_xy]))


def scaled(found: CardDetections, k: float) -> CardDetections:
    """``found`` with every outline multiplied by ``k`` (the rest as it is)."""
    return found.with_quads(found.quad_xy * np.float32(k))


def read_at_card_size(bgr: BgrImage, read: Read, work_px: int = WORK_PX,
                      enough_card_px: float = ENOUGH_CARD_PX) -> CardDetections:
    """``read(bgr, None)``, or for a photo longer than ``work_px`` ``read`` of it shrunk to
    that length where the cards read there are still ``enough_card_px`` wide, else of the
    photo shrunk to where they are ``READ_CARD_PX`` wide (or at its own size), ``read``
    given their width there (see the module)."""
    long_side = max(bgr.shape[:2])
    if long_side <= work_px:
        return read(bgr, None)
    k = work_px / long_side
    found = read(_resized(bgr, k), None)
    width = card_width_px(found)
    if width is None:
        return read(bgr, None)
    if width >= enough_card_px:
        return scaled(found, 1 / k)
    again = min(1.0, READ_CARD_PX * k / width)
    image = bgr if again == 1.0 else _resized(bgr, again)
    found = read(image, width / k * again)
    return found if again == 1.0 else scaled(found, 1 / again)


def _resized(bgr: BgrImage, k: float) -> BgrImage:
    return np.asarray(cv2.resize(bgr, (round(bgr.shape[1] * k), round(bgr.shape[0] * k)),
                                 interpolation=cv2.INTER_AREA), np.uint8)
