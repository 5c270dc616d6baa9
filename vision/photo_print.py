"""An index the second reader refused, read again against the photo's own print: the other
indices read in the same photo.

An index corner stands when two readers agree (:func:`vision.corners.second_reader_agrees`):
the index reader and model 2.0's corner head. On real photos of fanned and stacked cards the
head refuses right readings: on the studied bridge deal 7 it took a 2H for a 6C, a 7H for
a 10H and a 3S for an 8S, each read by the index reader and plain to a person. A person
unsure of one index compares it with the others on the table, and so does this module: the
cards of one photo are one print (one deck, or several of one design), and most of its
indices were read by both readers.

A refused reading of card X, whose rival is the head's best card Y, stands when, for its
rank glyph and its suit glyph (:func:`glyph_patches`, each cut upright about where an index
puts it, :data:`vision.corner_proposals.RANK_XY` and ``SUIT_XY``):

- the glyph is like the same glyph of an agreed index of X's rank (or suit) elsewhere in the
  photo: a normalised correlation, at the best shift of a few pixels, of at least
  :data:`LIKE`;
- where X and Y differ in it, an agreed index of Y's rank (or suit) is in the photo too, to
  be compared with; and over the parts where they differ, the glyph is liker X's than Y's
  by :data:`MARGIN` in all.

A reading whose rival is "no card" must only be like X's. A photo with no agreed index of
the card's rank or suit, or none of its rival's, leaves the refusal as it was.

>>> import numpy as np
>>> from engine.cards import Card
>>> from vision.corner_proposals import CornerProposal
>>> photo_print_agrees(np.full((60, 60, 3), 255, np.uint8), [CornerProposal((20.0, 20.0), (0.0, 1.0), 0.5)],
...                    [Card.parse("7H")], np.array([False]), ["10H"]).tolist()
[False]
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from engine.cards import Card
from vision.corner_proposals import _PAIR_BOX, RANK_XY, SUIT_XY, CornerProposal

__all__ = ["LIKE", "MARGIN", "glyph_patches", "photo_print_agrees"]

BgrImage = npt.NDArray[np.uint8]
Patch = npt.NDArray[np.float32]

REACH = 16.0  # box pixels either side of a glyph's centre: the glyph and the paper round it
PATCH_PX = 24  # a glyph's patch, pixels a side
SHIFT_PX = 3  # the shift searched either way, patch pixels (a proposal's centre is a few off)
# Chosen on the tuning sets only (bench/corner_accept.py --hard 400 --fans 150; deal 1 and the
# blackjack tuning photos had no refusal it changed): the right readings it let stand were
# like their own rank's glyphs at 0.82-0.99 and liker them than the rival's by 0.29-0.78; the one
# wrong one, a 7D in a dark tight fan read as a 4D, by 0.24. At 0.1 that reading stood.
LIKE = 0.8
MARGIN = 0.3
_NOT_A_CARD = ("none", "back")


def glyph_patches(grey: npt.NDArray[np.uint8], proposal: CornerProposal) -> tuple[Patch, Patch]:
    """The rank's and the suit's patch of ``proposal`` in ``grey``, upright, :data:`PATCH_PX`
    a side, each :data:`REACH` box pixels either side of where an index puts the glyph."""
    to_image = np.vstack([proposal.box_to_image(), [0.0, 0.0, 1.0]])
    step = 2 * REACH / PATCH_PX  # box pixels a patch pixel
    out = []
    for centre in (RANK_XY, SUIT_XY):
        to_box = np.array([[step, 0.0, centre[0] - REACH], [0.0, step, centre[1] - REACH], [0.0, 0.0, 1.0]])
        out.append(np.asarray(cv2.warpAffine(grey, (to_image @ to_box)[:2], (PATCH_PX, PATCH_PX),
                                             flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                             borderMode=cv2.BORDER_REPLICATE), np.float32))
    return out[0], out[1]


def _likeness(patch: Patch, others: Sequence[Patch]) -> float | None:
    """The best normalised correlation of ``patch`` with the middle of any of ``others``
    shifted up to :data:`SHIFT_PX` either way; None without others."""
    if not others:
        return None
    inner = slice(SHIFT_PX, PATCH_PX - SHIFT_PX)
    return max(float(cv2.matchTemplate(patch, other[inner, inner], cv2.TM_CCOEFF_NORMED).max()) for other in others)


def photo_print_agrees(bgr: BgrImage, proposals: Sequence[CornerProposal], cards: Sequence[Card],
                       agreed: npt.NDArray[np.bool_], rivals: Sequence[str]) -> npt.NDArray[np.bool_]:
    """Whether each refused reading (``agreed`` False) of ``cards[i]`` at ``proposals[i]``
    stands by the photo's own print against its rival ``rivals[i]`` (a card's name, or
    "none"), compared with the agreed readings of the same photo (see the module); False
    for the agreed ones (they need nothing)."""
    out = np.zeros(len(proposals), bool)
    refused = np.flatnonzero(~np.asarray(agreed, bool))
    if not len(refused) or not np.any(agreed):
        return out
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY) if bgr.ndim == 3 else bgr
    patches = [glyph_patches(grey, p) for p in proposals]
    for i in refused:
        card, p = cards[i], proposals[i]
        rival = None if rivals[i] in _NOT_A_CARD else Card.parse(rivals[i])
        near = _PAIR_BOX * p.scale  # an agreed reading of this very index is no other index
        others = [k for k in np.flatnonzero(agreed)
                  if np.hypot(proposals[k].rank_xy[0] - p.rank_xy[0], proposals[k].rank_xy[1] - p.rank_xy[1]) > near]
        margin, stands = 0.0, True
        for part, (of, mine) in enumerate(((lambda c: c.rank, card.rank), (lambda c: c.suit, card.suit))):
            like = _likeness(patches[i][part], [patches[k][part] for k in others if of(cards[k]) == mine])
            if like is None or like < LIKE:
                stands = False
                break
            if rival is not None and of(rival) != mine:
                unlike = _likeness(patches[i][part], [patches[k][part] for k in others if of(cards[k]) == of(rival)])
                if unlike is None:
                    stands = False
                    break
                margin += like - unlike
        differs = rival is not None and (rival.rank != card.rank or rival.suit != card.suit)
        out[i] = stands and (not differs or margin >= MARGIN)
    return out
