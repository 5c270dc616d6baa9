"""An index the second reader refused, read again against the photo's own print: the other
indices read in the same photo.

An index corner stands when two readers agree (:func:`vision.corners.second_reader_agrees`):
the index reader and model 2.0's corner head. On real photos of fanned and stacked cards the
head refuses right readings: on the studied bridge deal 7 it took a 2H for a 6C, a 7H for
a 10H and a 3S for an 8S, each read by the index reader and plain to a person. A person
unsure of one index compares it with the others on the table, and so does this module: the
cards of one photo are one print (one deck, or several of one design), and most of its
indices were read by both readers.

The witnesses of a glyph are the indices that stand elsewhere in the photo (further than a
rank from its suit: not the same index proposed again) of *other cards* sharing it: for X's
rank, an index of X's rank and another suit; for its suit, one of another rank. The same card
read twice is no witness: a second reading of one card is what the checks are there to stop.

A refused reading of card X, whose rival is the head's best card Y, stands when, for its
rank glyph and its suit glyph (:func:`glyph_patches`, each cut upright about where an index
puts it, :data:`vision.corner_proposals.RANK_XY` and ``SUIT_XY``):

- the glyph is like the same glyph of a witness: a normalised correlation, at the best shift
  of a few pixels, of at least :data:`LIKE`;
- where X and Y differ in it, an index of Y's rank (or suit) stands in the photo too, to be
  compared with; and over the parts where they differ, the glyph is liker X's than Y's by
  :data:`MARGIN` in all.

A reading whose rival is "no card" must only be like X's. A photo with no witness, or no
index of the rival's, leaves the refusal as it was.

The index reader's own doubt of "an index" (a face pip, a court picture's detail, the next
card's index in a tight fan) is lifted the same way (:func:`photo_print_lifts`): a reading
sure of its rank and suit but not of being an index is one when both its glyphs are like a
witness's (:data:`LIKE`); it is then checked as any other reading is.

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

__all__ = ["LIKE", "MARGIN", "glyph_patches", "photo_print_agrees", "photo_print_lifts"]

BgrImage = npt.NDArray[np.uint8]
Patch = npt.NDArray[np.float32]

REACH = 16.0  # box pixels either side of a glyph's centre: the glyph and the paper round it
PATCH_PX = 24  # a glyph's patch, pixels a side
SHIFT_PX = 3  # the shift searched either way, patch pixels (a proposal's centre is a few off)
# Chosen on the tuning sets only (bench/corner_accept.py --hard 400 --fans 150; deal 1 and the
# blackjack tuning photos had no refusal it changed): the right readings it let stand were
# like their own rank's glyphs at 0.82-0.99 and liker them than the rival's by 0.29-0.78; the one
# wrong one, a 7D in a dark tight fan read as a 4D, by 0.24. At 0.1 that reading stood. The
# doubts it lifted on the tuning sets were like their witnesses at 0.86-1.0; the three wrong
# ones among them, each a second reading of a card standing in the same tight fan, were like
# that card itself (0.86-0.99), which is why the same card is no witness.
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


def _witnesses(i: int, proposals: Sequence[CornerProposal], standing: npt.NDArray[np.intp]) -> list[int]:
    """The standing readings further from ``proposals[i]`` than its rank from its suit."""
    p = proposals[i]
    near = _PAIR_BOX * p.scale
    return [int(k) for k in standing
            if np.hypot(proposals[k].rank_xy[0] - p.rank_xy[0], proposals[k].rank_xy[1] - p.rank_xy[1]) > near]


def _like_witnesses(i: int, patches: Sequence[tuple[Patch, Patch]], cards: Sequence[Card],
                    others: Sequence[int]) -> tuple[float | None, float | None]:
    """How like the witnesses among ``others`` reading i's rank glyph and its suit glyph are
    (None: no witness): other cards of its rank, other cards of its suit."""
    card = cards[i]
    rank = _likeness(patches[i][0], [patches[k][0] for k in others
                                     if cards[k].rank == card.rank and cards[k].suit != card.suit])
    suit = _likeness(patches[i][1], [patches[k][1] for k in others
                                     if cards[k].suit == card.suit and cards[k].rank != card.rank])
    return rank, suit


def _patches(bgr: BgrImage, proposals: Sequence[CornerProposal]) -> list[tuple[Patch, Patch]]:
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY) if bgr.ndim == 3 else bgr
    return [glyph_patches(grey, p) for p in proposals]


def photo_print_agrees(bgr: BgrImage, proposals: Sequence[CornerProposal], cards: Sequence[Card],
                       agreed: npt.NDArray[np.bool_], rivals: Sequence[str]) -> npt.NDArray[np.bool_]:
    """Whether each refused reading (``agreed`` False) of ``cards[i]`` at ``proposals[i]``
    stands by the photo's own print against its rival ``rivals[i]`` (a card's name, or
    "none"), the agreed readings witnessing (see the module); False for the agreed ones
    (they need nothing)."""
    out = np.zeros(len(proposals), bool)
    agreed = np.asarray(agreed, bool)
    refused = np.flatnonzero(~agreed)
    if not len(refused) or not agreed.any():
        return out
    patches = _patches(bgr, proposals)
    for i in refused:
        card = cards[i]
        others = _witnesses(int(i), proposals, np.flatnonzero(agreed))
        rank_like, suit_like = _like_witnesses(int(i), patches, cards, others)
        if rank_like is None or suit_like is None or min(rank_like, suit_like) < LIKE:
            continue
        rival = None if rivals[i] in _NOT_A_CARD else Card.parse(rivals[i])
        if rival is None or rival == card:
            out[i] = True
            continue
        margin = _margin_over(patches, cards, others, int(i), rival, (rank_like, suit_like))
        out[i] = margin is not None and margin >= MARGIN
    return out


def _margin_over(patches: Sequence[tuple[Patch, Patch]], cards: Sequence[Card], others: Sequence[int], i: int,
                 rival: Card, likes: tuple[float, float]) -> float | None:
    """How much liker reading i's glyphs are their witnesses (``likes``) than the ``rival``'s
    glyphs among ``others``, summed over the parts (rank, suit) where the two cards differ;
    None where such a part of the rival's is not in the photo."""
    card, margin = cards[i], 0.0
    for part, (mine, theirs) in enumerate(((card.rank, rival.rank), (card.suit, rival.suit))):
        if mine == theirs:
            continue
        unlike = _likeness(patches[i][part], [patches[k][part] for k in others
                                              if (cards[k].rank, cards[k].suit)[part] == theirs])
        if unlike is None:
            return None
        margin += likes[part] - unlike
    return margin


def photo_print_lifts(bgr: BgrImage, proposals: Sequence[CornerProposal], cards: Sequence[Card],
                      standing: npt.NDArray[np.bool_], doubted: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Whether each ``doubted`` reading (sure of its rank and suit, not of being an index) is
    an index of the photo's print: both its glyphs like a witness's among the ``standing``
    readings (:data:`LIKE`; see the module)."""
    out = np.zeros(len(proposals), bool)
    standing, doubted = np.asarray(standing, bool), np.asarray(doubted, bool) & ~np.asarray(standing, bool)
    if not standing.any() or not doubted.any():
        return out
    patches = _patches(bgr, proposals)
    for i in np.flatnonzero(doubted):
        likes = _like_witnesses(int(i), patches, cards, _witnesses(int(i), proposals, np.flatnonzero(standing)))
        out[i] = all(like is not None and like >= LIKE for like in likes)
    return out
