"""A whole card's own indices, read by the index reader: a third reader for a card found whole.

The classifier reads a rectified card from its two index corners and its face together
(:mod:`vision.classify`). On a design it never saw it is often right but unsure: the face
of an unknown design splits its heads, and its rule refuses the card. The index reader
(:mod:`vision.index_reader`, a separate network trained on index boxes alone) reads the
same card's indices where they lie, with its own checks (:func:`vision.corners.read_corners`:
suit twins, model 2.0's corner head on the same box; not the ink's colour, which the whole
card's reading judges: a deck printed in one ink or in four). When it reads the
card the classifier ranks first at the card's own corner, and no other card on it, two
readers that looked at the card differently agree (:meth:`vision.classify.OnnxClassifier.index_settle`).

An index counts as the card's own when its rank lies within :data:`OWN_CORNER` of the
card's width and height from the top-left corner, upright, or from the bottom-right
corner, upside down (a card is the same both ways up). An index of another card anywhere
on it (a neighbour's laid over the card) says the crop is not one whole card: an outline
round the bottom card of an overlapped column shows that card's index at its corner and
the indices of the cards over it inside.

>>> import numpy as np
>>> from vision.classify import FakeClassifier
>>> index_cards(FakeClassifier(), np.full((280, 200, 3), 200, np.uint8))
IndexCards(own=[], elsewhere=[])
"""

from __future__ import annotations

import dataclasses
from typing import Any, NamedTuple

import cv2
import numpy as np
import numpy.typing as npt

from engine.cards import Card
from vision.corners import RESIZE_OVER, CornerProposal, propose_corners, read_corners
from vision.ink import unveiled
from vision.preprocess import RECT_H, RECT_W

__all__ = ["OWN_CORNER", "IndexCards", "at_own_corner", "index_cards"]

# the share of the card's width and height from a corner within which its index's rank lies
# (the calibration samples: the ranks read lie within 0.16 of the width for 90 % of them and
# within 0.17 of the height for 99 %; the margin is for a crop framed loosely round its card)
OWN_CORNER = 0.3
# the glyphs of an index on a rectified card (200 x 280): a rank 12-25 px tall on standard
# designs, 6 px on the tiniest made-up index, 40 px on the jumbo ones
GLYPH_PX = (6.0, 40.0)
PAD = 20  # the card's rim copied outwards, so that an index at the very edge has paper round it
UPRIGHT = 0.7  # an index's down direction along the card's long side at least this much


def at_own_corner(proposal: CornerProposal, pad: int = PAD) -> bool:
    """Whether ``proposal`` (in the padded picture's pixels) is an index at the card's own
    top-left corner, upright, or its bottom-right corner, upside down.

    >>> at_own_corner(CornerProposal((38.0, 48.0), (0.0, 1.0), 0.8)), at_own_corner(CornerProposal((38.0, 48.0), (0.0, -1.0), 0.8))
    (True, False)
    """
    x, y = proposal.rank_xy[0] - pad, proposal.rank_xy[1] - pad
    near_w, near_h = OWN_CORNER * RECT_W, OWN_CORNER * RECT_H
    top_left = x < near_w and y < near_h and proposal.down[1] >= UPRIGHT
    bottom_right = x > RECT_W - near_w and y > RECT_H - near_h and proposal.down[1] <= -UPRIGHT
    return bool(top_left or bottom_right)


class IndexCards(NamedTuple):
    """The cards the index reader reads on a rectified card: at its own index corners
    (none, one, or two when its corners disagree), and elsewhere on it."""

    own: list[Card]
    elsewhere: list[Card]

    def confirm(self, card: Card) -> bool:
        """Whether these readings confirm ``card``: it is read at the card's own corners and
        no other card is read anywhere on it."""
        return self.own == [card] and all(c == card for c in self.elsewhere)


def index_cards(classifier: Any, rectified: npt.NDArray[np.uint8]) -> IndexCards:
    """The :class:`IndexCards` of ``rectified``. ``classifier``: an
    :class:`vision.classify.OnnxClassifier` whose model has a corner head (its second
    reader); any other reads nothing."""
    padded = cv2.copyMakeBorder(rectified, PAD, PAD, PAD, PAD, cv2.BORDER_REPLICATE)
    bgr = unveiled(np.asarray(padded, np.uint8))
    proposals = propose_corners(bgr, glyph_px=GLYPH_PX)
    # a pair of glyphs measures its card only roughly (a design's rank and suit set wide
    # apart, a rank of two digits), and this card's size is known: each pair is also read
    # as the index of a card filling the crop
    proposals += [dataclasses.replace(p, scale=1.0) for p in proposals if abs(p.scale - 1.0) > RESIZE_OVER]
    # the card's colour is the whole card's reading's to judge (its face, its pips): a deck
    # printed in one ink or in four shows a red suit's index in another ink
    found = read_corners(classifier, bgr, proposals=proposals, ink=False)
    out = IndexCards([], [])
    for reading in found:
        where = out.own if at_own_corner(reading.proposal) else out.elsewhere
        if reading.card not in where:
            where.append(reading.card)
    return out
