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
corner, upside down (a card is the same both ways up).

The glyph pairs that propose an index are found in the ink (:mod:`vision.corner_proposals`);
a design whose index touches a frame line or the crop's edge gives them none (its rank is
one piece of ink with the line). A card's indices lie where every card's do, though: with
``in_place``, a card whose own corners gave no pair is read in boxes over the places an index
can lie (:func:`read_in_place`), and it counts as read there when *both* corners name the
same card surely (:data:`IN_PLACE_SURE`): a box searched over many places can find something
index-like once, but two corners printed half a turn apart do not agree by chance. An index of another card anywhere
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
from vision.corner_proposals import FIRST_VIEW
from vision.corners import (RESIZE_OVER, CornerProposal, index_network, index_readings, propose_corners,
                            read_corners, second_reader_agrees, twins_unsettled)
from vision.index_reader import IndexReader, default_index_reader
from vision.ink import unveiled
from vision.preprocess import RECT_H, RECT_W

__all__ = ["IN_PLACE_SURE", "OWN_CORNER", "IndexCards", "at_own_corner", "index_cards", "read_in_place"]

# the share of the card's width and height from a corner within which its index's rank lies
# (the calibration samples: the ranks read lie within 0.16 of the width for 90 % of them and
# within 0.17 of the height for 99 %; the margin is for a crop framed loosely round its card)
OWN_CORNER = 0.3
# the glyphs of an index on a rectified card (200 x 280): a rank 12-25 px tall on standard
# designs, 6 px on the tiniest made-up index, 40 px on the jumbo ones
GLYPH_PX = (6.0, 40.0)
PAD = 20  # the card's rim copied outwards, so that an index at the very edge has paper round it
UPRIGHT = 0.7  # an index's down direction along the card's long side at least this much
# Where an index's rank can lie on a rectified card (px from its corner; its box's scale): the
# ranks of the calibration designs lie within 0.16 of the width and 0.17 of the height, a crop
# framed a few % off moves them by ~10 px, and an index is printed from about 0.75 to 1.2 of
# the standard size. Searched 6 px apart: the index reader reads a box a few px off its anchor.
IN_PLACE_X = tuple(float(x) for x in range(10, 47, 6))
IN_PLACE_Y = tuple(float(y) for y in range(14, 57, 6))
IN_PLACE_SCALES = (0.75, 0.9, 1.05, 1.2)
# how sure (rank x suit x "an index", the mean over vision.corners.VIEWS at the best place)
# each corner must be, with its suit's twin not close behind (vision.corners.twins_unsettled)
IN_PLACE_SURE = 0.5
# model 2.0's corner head must not name another card in the boxes read in place
IN_PLACE_SECOND_READER = True


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


def _padded(rectified: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    padded = cv2.copyMakeBorder(rectified, PAD, PAD, PAD, PAD, cv2.BORDER_REPLICATE)
    return unveiled(np.asarray(padded, np.uint8))


def _in_place_boxes(bottom_right: bool) -> list[CornerProposal]:
    """The boxes over the places a card's own index can lie (in the padded picture)."""
    out = []
    for scale in IN_PLACE_SCALES:
        for x in IN_PLACE_X:
            for y in IN_PLACE_Y:
                if bottom_right:
                    out.append(CornerProposal((PAD + RECT_W - x, PAD + RECT_H - y), (0.0, -1.0), scale))
                else:
                    out.append(CornerProposal((PAD + x, PAD + y), (0.0, 1.0), scale))
    return out


_BOXES = (_in_place_boxes(False), _in_place_boxes(True))


def read_in_place(rectified: npt.NDArray[np.uint8], reader: IndexReader | None = None,
                  padded: npt.NDArray[np.uint8] | None = None) -> tuple[Card | None, Card | None]:
    """The card the index reader reads surely at each own corner of ``rectified`` (top-left,
    bottom-right), looking in boxes over every place an index can lie (:data:`IN_PLACE_X`...):
    the best place by a first look, read again in :data:`vision.corners.VIEWS`; None where
    no card reaches :data:`IN_PLACE_SURE` or the suit's twin is close behind.
    ``padded``: ``rectified`` as :func:`index_cards` pads it, when made already.

    >>> read_in_place(np.full((280, 200, 3), 200, np.uint8))
    (None, None)
    """
    reader = reader or default_index_reader()
    bgr = _padded(rectified) if padded is None else padded
    return _read_corner_in_place(reader, bgr, _BOXES[0])[0], _read_corner_in_place(reader, bgr, _BOXES[1])[0]


def _read_corner_in_place(reader: IndexReader, bgr: npt.NDArray[np.uint8], boxes: list[CornerProposal]
                          ) -> tuple[Card | None, CornerProposal]:
    """The card read surely at the best of ``boxes`` (None if none), and that box."""
    first = index_readings(reader, bgr, boxes, (FIRST_VIEW,))
    best = boxes[int(np.argmax(first.sureness()))]
    again = index_readings(reader, bgr, [best])
    sure = float(again.sureness()[0]) >= IN_PLACE_SURE and not bool(twins_unsettled(again)[0])
    return (again.cards()[0] if sure else None), best


def index_cards(classifier: Any, rectified: npt.NDArray[np.uint8], in_place: bool = False) -> IndexCards:
    """The :class:`IndexCards` of ``rectified``. ``classifier``: an
    :class:`vision.classify.OnnxClassifier` whose model has a corner head (its second
    reader); any other reads nothing. ``in_place``: where no glyph pair was read at the
    card's own corners, the card both own corners read in place (:func:`read_in_place`)."""
    if index_network(classifier) is None:
        return IndexCards([], [])
    bgr = _padded(rectified)
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
    if in_place and not out.own:
        # both corners must name the card (the second is looked at only when the first named
        # one), and model 2.0's corner head must not name another card in either box, as for
        # a glyph pair (vision.corners.second_reader_agrees)
        reader = default_index_reader()
        card, top_left = _read_corner_in_place(reader, bgr, _BOXES[0])
        if card is not None:
            other, bottom_right = _read_corner_in_place(reader, bgr, _BOXES[1])
            if other == card and (not IN_PLACE_SECOND_READER or bool(
                    second_reader_agrees(index_network(classifier), bgr, [top_left, bottom_right], [card, card]).all())):
                out.own.append(card)
    return out
