"""Possible index corners in a photo: pairs of glyphs that may be a rank over its suit.

A card under another shows little more than its index (rank over suit) at one corner.
:func:`propose_corners` finds such indices without asking the card to stand out from the
table: it looks for the card's own evidence, ink on paper. :mod:`vision.corners` reads them.

1. Ink: pixels much darker than the brightest paper around them (a local maximum of the
   grey level over a few glyph sizes), on paper pale for the light where it lies and of
   low saturation (:func:`vision.ink.ink_levels`: judged so in a dim, tinted or
   washed-out photo too). A cork or wood top is never that much brighter than its own dark
   grain, so it gives little ink.
2. Glyphs: connected pieces of ink of a size the picture allows, and the pieces the faint
   ink round the ink joins (a thin stroke blurred by the lens or the JPEG, a small red 3 or
   J, is ink only where it is thick); a reading that rests on a glyph only the faint ink
   gives stands from :data:`vision.corners.FAINT_ACCEPT`. A glyph joined to a rim's shadow
   or a frame line is one piece too big to be a glyph: its black core in the dark ink is
   one (see :data:`DARK_PAPER`). A glyph blurred into its neighbour at every fixed ratio
   stands apart as a region stable over a range of levels (MSER; see :data:`MSER_INK`).
3. Indices: two glyphs of like size (:data:`PAIR_SIZES`) but not of one shape (two pips are not an index;
   their colours are not compared: a thin dark-red stroke looks black), a glyph's height
   or two apart: a rank over its suit; or one piece about twice as long as it is wide, a
   rank and its suit that no level parts, read along its long axis (:data:`MERGED_LONG`).
   The line from rank to suit is the card's "down"; the card's body lies to its right
   (both indices of a card are printed this way, the second one turned 180 degrees), so
   the pair says where the card's corner is and how big the card is, whatever way it lies. The corner box it implies must lie on paper
   (:data:`PAPER_SHARE`): taken the wrong way up, it lies off the card.

>>> import numpy as np
>>> len(propose_corners(np.full((120, 160, 3), 200, np.uint8)))
0
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.ink import ink_levels
from vision.preprocess import CORNER_BOX_H, CORNER_BOX_W, RECT_H, RECT_W

__all__ = ["FIRST_VIEW", "INDEX_SHARE", "RANK_XY", "SUIT_XY", "CornerProposal", "View", "card_index_px", "glyph_pairs",
           "glyph_px_of", "on_paper", "propose_corners"]

BgrImage = npt.NDArray[np.uint8]
FloatArray = npt.NDArray[np.float32]

# Where a standard index sits in the corner box (72 x 96 of a 200 x 280 card): the rank's
# centre and the suit's centre, in box pixels (measured on rendered standard designs).
RANK_XY = (18.0, 25.0)
SUIT_XY = (18.0, 58.0)
_PAIR_BOX = SUIT_XY[1] - RANK_XY[1]  # rank-to-suit distance in box pixels
# The views of a proposal (vision.corners.VIEWS): the box cut at a scale about the one the pair
# implies, shifted and turned
View = tuple[float, float, float, float]  # scale, shift x, shift y (box pixels), turn (degrees)
FIRST_VIEW: View = (1.0, 0.0, 0.0, 0.0)
# two glyphs whose shape signatures differ by less than this are one shape (two pips of a
# card's face, which read as an index of some card); the rank and suit of an index differ
# by 0.3 or more (deal 1 and the rendered scenes), two pips by 0.25 or less in 1 of 10
SAME_SHAPE = 0.25
# the larger glyph of a rank and its suit is at most this many times the other across: some
# designs print a small suit under a tall rank (gnome `bellot`'s diamonds, 2.3 times smaller
# than their rank); at 2.2 such an index was never proposed, only its rank paired with a pip
# beside it. A glyph only the faint ink, the dark ink or a stable region gives may be a piece
# of a broken stroke, of any size: a pair with one keeps WEAK_PAIR_SIZES (in a dim photo the
# wider limit paired twice as many such pieces)
PAIR_SIZES = 2.7
WEAK_PAIR_SIZES = 2.2
# a proposal is looked at only when this share of its corner box is paper (the glyphs of a
# real index cover about a quarter of it), sampled on a grid inside the box
PAPER_SHARE = 0.5
# A glyph printed near a card's rim or inside a court card's frame joins, at the ink's ratio,
# the rim's shadow or the frame line: one piece of ink too big to be a glyph, and its index
# is never proposed. The glyph's black core is darker than either (vision.ink.DARK_RATIO) and
# stands apart there. A piece of the dark ink is a new glyph where the piece of ink round it
# is none and paper lies round it (DARK_PAPER of a square twice its extent: the cork or wood
# of a table darkens into many such pieces, with no paper round them); a reading resting on
# one stands from vision.corners.DARK_ACCEPT
DARK_PAPER = 0.4
# A rank and its suit printed close on a small or blurred card are one piece of ink at every
# fixed ratio (the ink, the faint ink, and red print at any level), so no pair of glyphs gives
# their index. Two more models find it:
# - regions stable over a range of grey levels (MSER, of the green channel, where black and red
#   ink are both dark; MSER_DELTA levels, variation up to MSER_VARIATION): the two glyphs stand
#   apart at their own level. A region is a new glyph where no glyph of the ink lies within 0.3
#   of its size, paper lies round it (DARK_PAPER) and it is darker than MSER_INK of the ring
#   round it; a reading resting on one stands from vision.corners.STABLE_ACCEPT;
# - a piece of ink MERGED_LONG[0] to [1] times as long as it is wide (a uniform bar of its
#   second moments; a rank or a pip alone is up to about 1.5) is read as a rank and a suit
#   along its long axis, either way up, their centres apart by twice the root of the spread
#   along the axis less the spread across it (two glyphs of the piece's width); a reading of
#   one stands from vision.corners.MERGED_ACCEPT.
# Chosen on the tuning sets only (bench/corner_accept.py --hard 400 --fans 150); the settings
# tried and what each read: bench/README.md, "A rank and its suit that the ink does not part"
MERGED_LONG = (1.6, 4.0)
MSER_DELTA = 4
MSER_VARIATION = 0.5
MSER_INK = 0.8
# A thin stroke broken clean through (the thin part of a small red 3 or 8 lost to the JPEG)
# is pieces of ink with paper between them, none of them its glyph, and the faint ink does not
# join them where the paper round the card is brighter than its own (a card in a fan's
# shadow is all faint ink). The ink grown by JOIN_REACH of the smallest glyph (closing a gap
# of twice that) joins them: a piece of the grown ink that joins two to JOIN_PIECES pieces of
# ink, at most JOIN_LONG times as long as wide (the dashes of a rim's shadow line join into
# long pieces) and with paper round it (DARK_PAPER) is a new glyph, weaker evidence as the
# faint ink's are (a reading on one stands from vision.corners.FAINT_ACCEPT). Chosen on the
# tuning sets only (bench/corner_accept.py --hard 400 --fans 150, proposed afresh): hard set
# 1,160 -> 1,165 with 12 wrong as before, tight fans 216 -> 217 with 3, the rest as before; a
# reach of 0.4 read the same, 0.125 (1 px) no more than without; bench/README.md, "A stroke
# broken through"
JOIN_REACH = 0.25
JOIN_PIECES = 3
JOIN_LONG = 2.0
_PAPER_SAMPLES = np.array([[x, y, 1.0] for x in np.linspace(6, CORNER_BOX_W - 6, 5)
                           for y in np.linspace(6, CORNER_BOX_H - 6, 6)]).T



@dataclass(frozen=True)
class CornerProposal:
    """A possible index: the rank's centre, the unit vector from rank to suit (the card's
    "down"), and the box scale (image pixels per corner-box pixel)."""

    rank_xy: tuple[float, float]
    down: tuple[float, float]
    scale: float
    # a glyph of it is not in the ink: only the faint ink, the dark ink or a stable region gives it
    faint: bool = False
    dark: bool = False  # a glyph of it is only in the dark ink (a glyph_pairs' dark core)
    stable: bool = False  # a glyph of it is only a region stable over levels (a glyph_pairs' MSER region)
    merged: bool = False  # its rank and suit are one piece of ink (a glyph_pairs' long glyph)

    def box_to_image(self, view: View = FIRST_VIEW) -> npt.NDArray[np.float64]:
        """The 2 x 3 affine map from corner-box pixels to image pixels in ``view`` (the box
        scaled and turned about the rank's centre and shifted by box pixels)."""
        scale, shift_x, shift_y, turn = view
        s = self.scale * scale
        c, t = math.cos(math.radians(turn)), math.sin(math.radians(turn))
        down = np.array([c * self.down[0] - t * self.down[1], t * self.down[0] + c * self.down[1]])
        right = np.array([down[1], -down[0]])  # the card's body lies this way: down turned a quarter back
        centre = np.array(self.rank_xy)
        origin = centre - (RANK_XY[0] + shift_x) * s * right - (RANK_XY[1] + shift_y) * s * down
        return np.array([[right[0] * s, down[0] * s, origin[0]], [right[1] * s, down[1] * s, origin[1]]])


# An index's height (rank top to suit bottom) over its card's; a rank or a suit is about
# GLYPH_OF_INDEX of the index's height
INDEX_SHARE = 53.0 / RECT_H
GLYPH_OF_INDEX = 0.4


def glyph_px_of(index_px: float) -> tuple[float, float]:
    """The glyph heights to look for where indices are about ``index_px`` tall: 0.45 to 2.6
    times a glyph's usual height (a small suit, a rank and suit in one piece). The index
    reader's training scenes are proposed over this range (``models/index_data.py``).

    >>> [round(v, 1) for v in glyph_px_of(card_index_px(165.0))]
    [7.9, 45.5]
    """
    glyph = GLYPH_OF_INDEX * index_px
    return max(4.0, 0.45 * glyph), 2.6 * glyph


def card_index_px(card_width_px: float) -> float:
    """The height of the index of a card ``card_width_px`` wide."""
    return card_width_px * RECT_H / RECT_W * INDEX_SHARE


def propose_corners(bgr: BgrImage, glyph_px: tuple[float, float] | None = None,
                    max_proposals: int = 4000) -> list[CornerProposal]:
    """Possible indices in ``bgr`` (rank over suit, any way up), as :class:`CornerProposal`.

    ``glyph_px``: the smallest and largest glyph (rank or suit) height in pixels; by
    default 0.6 % to 8 % of the picture's shorter side, at least 6 px.
    """
    pairs, pale, _ = glyph_pairs(bgr, glyph_px, max_proposals)
    return [p for p in pairs if on_paper(p, pale)]


def glyph_pairs(bgr: BgrImage, glyph_px: tuple[float, float] | None = None, max_proposals: int = 4000
                ) -> tuple[list[CornerProposal], npt.NDArray[np.bool_], FloatArray]:
    """Every pair of glyphs that may be an index (both ways up), before the paper check
    (:func:`on_paper`); the paper mask; and the glyphs' centres ([N, 2])."""
    h, w = bgr.shape[:2]
    short = min(h, w)
    lo, hi = glyph_px if glyph_px is not None else (max(6.0, 0.006 * short), max(12.0, 0.08 * short))
    window = int(2 * round(1.5 * hi) + 1)
    ink, faint, dark, pale = ink_levels(bgr, window)
    labels, keep, (xy, ext, shape) = _glyphs(ink.astype(np.uint8), lo, hi)
    n_ink = len(xy)
    # a thin stroke blurred by the lens or the JPEG (a red 3, a small J) breaks into pieces of
    # ink, none of them its glyph, where it thins: the faint ink round the ink joins them. A
    # piece of faint ink holding ink is a new glyph where it joins two or more pieces of ink,
    # or holds one that was no glyph
    grown_labels, grown_keep, (gxy, gext, gshape) = _glyphs(_grown(ink, faint), lo, hi)
    if len(gxy):
        grown_of = np.zeros(int(labels.max()) + 1, np.int64)  # the piece of grown ink each piece of ink lies in
        grown_of[labels[ink]] = grown_labels[ink]
        holds = np.bincount(grown_of[1:], minlength=int(grown_labels.max()) + 1)
        holds_glyph = np.bincount(grown_of[keep], minlength=int(grown_labels.max()) + 1)
        fresh = (holds[grown_keep] >= 2) | (holds_glyph[grown_keep] == 0)
        xy, ext, shape = (np.concatenate([xy, gxy[fresh]]), np.concatenate([ext, gext[fresh]]),
                          np.concatenate([shape, gshape[fresh]]))
    jxy, jext, jshape = _joined_glyphs(ink, labels, lo, hi, pale)
    xy, ext, shape = np.concatenate([xy, jxy]), np.concatenate([ext, jext]), np.concatenate([shape, jshape])
    n_grown = len(xy)
    # a glyph joined to a rim's shadow or a frame line: its black core, where the piece of ink
    # round it is no glyph and paper lies round it
    dark_labels, dark_keep, (dxy, dext, dshape) = _glyphs(dark.astype(np.uint8), lo, hi)
    if len(dxy):
        ink_of = np.zeros(int(dark_labels.max()) + 1, np.int64)  # the piece of ink each dark piece lies in
        ink_of[dark_labels[dark]] = labels[dark]
        fresh = (ink_of[dark_keep] > 0) & ~np.isin(ink_of[dark_keep], keep) & (_pale_share(pale, dxy, dext) >= DARK_PAPER)
        xy, ext, shape = (np.concatenate([xy, dxy[fresh]]), np.concatenate([ext, dext[fresh]]),
                          np.concatenate([shape, dshape[fresh]]))
    # a glyph blurred into its neighbour at every fixed ratio stands apart at its own level:
    # regions stable over a range of levels (MSER) where the ink found no glyph
    n_dark = len(xy)
    mxy, mext, mshape = _stable_glyphs(bgr, lo, hi, xy, pale)
    xy, ext, shape = np.concatenate([xy, mxy]), np.concatenate([ext, mext]), np.concatenate([shape, mshape])
    faint_glyph = np.arange(len(xy)) >= n_ink  # the glyphs only the faint ink, the dark ink or MSER gives
    dark_glyph = (np.arange(len(xy)) >= n_grown) & (np.arange(len(xy)) < n_dark)
    stable_glyph = np.arange(len(xy)) >= n_dark
    pairs = _near_pairs(xy, float(2.4 * hi)) if len(xy) >= 2 else []
    out: list[CornerProposal] = []
    for a, b in pairs:
        ea, eb = float(ext[a]), float(ext[b])
        limit = WEAK_PAIR_SIZES if faint_glyph[a] or faint_glyph[b] else PAIR_SIZES
        if not 1 / limit <= ea / eb <= limit:
            continue
        if float(np.abs(shape[a, :4] - shape[b, :4]).sum()) < SAME_SHAPE:
            continue  # two pips of a card's face: a rank is never its suit's shape
        d = float(np.hypot(*(xy[b] - xy[a])))
        size = max(ea, eb)
        if not 0.7 * size <= d <= 2.3 * size:
            continue
        for rank, suit in ((a, b), (b, a)):
            down = (xy[suit] - xy[rank]) / d
            out.append(CornerProposal((float(xy[rank][0]), float(xy[rank][1])),
                                      (float(down[0]), float(down[1])), d / _PAIR_BOX,
                                      bool(faint_glyph[a] or faint_glyph[b]), bool(dark_glyph[a] or dark_glyph[b]),
                                      bool(stable_glyph[a] or stable_glyph[b])))
        if len(out) >= max_proposals:
            break
    # a rank and its suit printed close and blurred into one piece of ink: a glyph about
    # twice as long as it is wide, read as the two halves of its long axis
    long = (shape[:, 6] >= MERGED_LONG[0] * shape[:, 7]) & (shape[:, 6] <= MERGED_LONG[1] * shape[:, 7])
    for g in np.flatnonzero(long & ~faint_glyph):
        if len(out) >= max_proposals:
            break
        # two glyphs of about the piece's width, centres d apart: the spread along the axis
        # is (d / 2)^2 more than across it
        d = 2.0 * math.sqrt(max(float(shape[g, 6]) ** 2 - float(shape[g, 7]) ** 2, 0.0) / 12.0)
        if d < lo:
            continue
        axis = shape[g, 4:6]
        for sign in (1.0, -1.0):
            down = sign * axis
            rank = xy[g] - 0.5 * d * down
            out.append(CornerProposal((float(rank[0]), float(rank[1])), (float(down[0]), float(down[1])), d / _PAIR_BOX,
                                      merged=True))
    return out, pale, xy


def _joined_glyphs(ink: npt.NDArray[np.bool_], labels: npt.NDArray[np.int32], lo: float, hi: float,
                   pale: npt.NDArray[np.bool_]) -> tuple[FloatArray, FloatArray, npt.NDArray[np.float64]]:
    """The glyphs of pieces of ``ink`` (labelled ``labels``) that only the ink grown by
    :data:`JOIN_REACH` of ``lo`` joins: a piece of the grown ink ``lo`` to ``hi`` across (less
    the growth) that holds two to :data:`JOIN_PIECES` pieces of ink, is compact
    (:data:`JOIN_LONG`) and has paper round it (:data:`DARK_PAPER` of ``pale``). Their centres
    ([N, 2]), extents ([N]) and shape signatures ([N, 8], of the grown piece).

    >>> ring = np.zeros((40, 40), np.uint8); _ = cv2.circle(ring, (20, 20), 8, 1, 2)
    >>> ink = ring.astype(bool); ink[19:22, :] = False  # an O broken through on both sides
    >>> labels = cv2.connectedComponents(ink.astype(np.uint8), connectivity=8)[1]
    >>> xy, ext, _ = _joined_glyphs(ink, labels, 8.0, 30.0, ~ink)
    >>> xy.round().tolist(), ext.tolist()
    ([[20.0, 20.0]], [19.0])
    """
    reach = max(1, int(round(JOIN_REACH * lo)))
    disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    grown = cv2.dilate(ink.astype(np.uint8), disk)
    grown_labels, keep, (xy, ext, shape) = _glyphs(grown, lo + 2 * reach, hi + 2 * reach)
    if not len(xy):
        return xy, ext, shape
    grown_of = np.zeros(int(labels.max()) + 1, np.int64)  # the grown piece each piece of ink lies in
    grown_of[labels[ink]] = grown_labels[ink]
    holds = np.bincount(grown_of[1:], minlength=int(grown_labels.max()) + 1)
    compact = shape[:, 6] <= JOIN_LONG * shape[:, 7]
    fresh = (holds[keep] >= 2) & (holds[keep] <= JOIN_PIECES) & compact & (_pale_share(pale, xy, ext) >= DARK_PAPER)
    return xy[fresh], ext[fresh] - 2 * reach, shape[fresh]


def _stable_glyphs(bgr: BgrImage, lo: float, hi: float, known: FloatArray, pale: npt.NDArray[np.bool_]
                   ) -> tuple[FloatArray, FloatArray, npt.NDArray[np.float64]]:
    """Dark maximally stable regions (MSER) of glyph size (``lo`` to ``hi`` pixels across, of a
    glyph's fill) in the green channel, where black and red ink are both dark: those away from
    the ``known`` glyph centres, on paper (:data:`DARK_PAPER` of ``pale``) and darker than
    :data:`MSER_INK` of the ring round them, one per place. Their centres ([N, 2]), extents
    ([N]) and shape signatures ([N, 8])."""
    green = np.ascontiguousarray(bgr[:, :, 1])
    mser = cv2.MSER_create(delta=MSER_DELTA, min_area=int(0.15 * lo * lo), max_area=int(0.9 * hi * hi),
                           max_variation=MSER_VARIATION)
    regions, boxes = mser.detectRegions(green)
    none = np.zeros((0, 2), np.float32), np.zeros(0, np.float32), np.zeros((0, 8))
    if not len(regions):
        return none
    boxes = np.asarray(boxes).reshape(-1, 4)
    extent = boxes[:, 2:].max(axis=1).astype(np.float32)
    fill = np.array([len(r) for r in regions], np.float32) / np.maximum(boxes[:, 2] * boxes[:, 3], 1)
    sized = np.flatnonzero((extent >= lo) & (extent <= hi) & (fill >= 0.12) & (fill <= 0.95))
    if not len(sized):
        return none
    xy = np.array([regions[i].mean(axis=0) for i in sized], np.float32)
    ext = extent[sized]
    away = np.ones(len(sized), bool)
    for start in range(0, len(known), 512):  # a glyph the ink gives already is no new glyph
        d = np.hypot(*(xy[:, None] - known[None, start:start + 512]).transpose(2, 0, 1)).min(axis=1)
        away &= d > 0.3 * ext
    candidates = np.flatnonzero(away & (_pale_share(pale, xy, ext) >= DARK_PAPER))
    placed: list[int] = []  # one region per place, the biggest: a glyph is stable at nested levels
    for i in candidates[np.argsort(-ext[candidates], kind="stable")]:
        if not placed or bool((np.hypot(*(xy[placed] - xy[i]).T) > 0.3 * ext[placed]).all()):
            placed.append(int(i))
    out: list[int] = []
    shapes = []
    for i in placed:
        pts = regions[sized[i]]
        x, y, w, h = (int(v) for v in boxes[sized[i]])
        mask = np.zeros((h + 2, w + 2), np.uint8)
        mask[pts[:, 1] - y + 1, pts[:, 0] - x + 1] = 1
        ring = cv2.dilate(mask, np.ones((5, 5), np.uint8)) - mask
        patch = green[max(y - 1, 0):y + h + 1, max(x - 1, 0):x + w + 1]
        if patch.shape != mask.shape or float(patch[mask > 0].mean()) > MSER_INK * float(patch[ring > 0].mean()):
            continue  # a pale region, or one hardly darker than round it
        shapes.append(_signature(mask))
        out.append(i)
    if not out:
        return none
    return xy[out], ext[out], np.array(shapes)


def _pale_share(pale: npt.NDArray[np.bool_], xy: FloatArray, ext: FloatArray) -> FloatArray:
    """The share of paper in a square twice each glyph's extent round its centre ([N]).

    >>> pale = np.zeros((20, 20), bool); pale[:, :10] = True
    >>> _pale_share(pale, np.array([[10.0, 10.0]], np.float32), np.array([4.0], np.float32)).tolist()
    [0.5]
    """
    total = cv2.integral(pale.astype(np.uint8))
    h, w = pale.shape
    x0 = np.clip(np.round(xy[:, 0] - ext), 0, w).astype(int)
    x1 = np.clip(np.round(xy[:, 0] + ext), 0, w).astype(int)
    y0 = np.clip(np.round(xy[:, 1] - ext), 0, h).astype(int)
    y1 = np.clip(np.round(xy[:, 1] + ext), 0, h).astype(int)
    area = np.maximum((x1 - x0) * (y1 - y0), 1)
    return np.asarray((total[y1, x1] - total[y0, x1] - total[y1, x0] + total[y0, x0]) / area, np.float32)


def _grown(ink: npt.NDArray[np.bool_], faint: npt.NDArray[np.bool_]) -> npt.NDArray[np.uint8]:
    """The pieces of faint ink that hold some ink (the ink grown into the faint ink round it,
    as an edge detector's hysteresis grows strong edges into weak ones)."""
    n, labels = cv2.connectedComponents((faint | ink).astype(np.uint8), connectivity=8)
    held = np.zeros(n, bool)
    held[labels[ink]] = True
    held[0] = False
    return held[labels].astype(np.uint8)


def _glyphs(mask: npt.NDArray[np.uint8], lo: float, hi: float
            ) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int64], tuple[FloatArray, FloatArray, npt.NDArray[np.float64]]]:
    """The glyphs of an ink mask: the pieces of ink ``lo`` to ``hi`` pixels across and of a
    glyph's fill. Returns the pieces' labels, the glyphs' labels, and their centres
    ([N, 2]), extents ([N]) and shape signatures ([N, 4])."""
    n, labels, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
    labels = np.asarray(labels, np.int32)
    extent = np.maximum(stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_HEIGHT]).astype(np.float32)
    area = stats[1:, cv2.CC_STAT_AREA].astype(np.float32)
    fill = area / np.maximum(stats[1:, cv2.CC_STAT_WIDTH] * stats[1:, cv2.CC_STAT_HEIGHT], 1)
    keep = np.flatnonzero((extent >= lo) & (extent <= hi) & (fill >= 0.12) & (fill <= 0.95)) + 1
    shape = _shape_signatures(labels, np.asarray(stats, np.int32), keep)
    return labels, keep, (centres[keep].astype(np.float32), extent[keep - 1], shape)


def on_paper(proposal: CornerProposal, pale: npt.NDArray[np.bool_]) -> bool:
    """Whether the proposal's corner box lies on paper: an index is printed in a card's
    corner, so around its glyphs the box is the card's own paper. A pair of glyphs taken
    the wrong way up puts the box off the card (onto the table, unless another card lies
    there), and so does a pair sized far too big."""
    m = proposal.box_to_image()
    xy = m @ _PAPER_SAMPLES
    x, y = np.round(xy[0]).astype(int), np.round(xy[1]).astype(int)
    inside = (x >= 0) & (y >= 0) & (x < pale.shape[1]) & (y < pale.shape[0])
    on = np.zeros(x.shape, bool)
    on[inside] = pale[y[inside], x[inside]]
    return float(on.mean()) >= PAPER_SHARE


def _shape_signatures(labels: npt.NDArray[np.int32], stats: npt.NDArray[np.int32],
                      keep: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """Each glyph's shape, whatever its size and turn: the first four Hu moments of its
    mask, as signed logarithms (what ``cv2.matchShapes`` compares), then its long axis
    (a unit vector), its length along it and its width across it (pixels, of a uniform bar
    with the glyph's second moments): [N, 8]."""
    out = np.zeros((len(keep), 8))
    for k, label in enumerate(keep):
        x, y, w, h = (int(v) for v in stats[label, :4])
        out[k] = _signature((labels[y:y + h, x:x + w] == label).astype(np.uint8))
    return out


def _signature(mask: npt.NDArray[np.uint8]) -> npt.NDArray[np.float64]:
    """One glyph's [8] of :func:`_shape_signatures`, from its mask."""
    m = cv2.moments(mask, binaryImage=True)
    hu = cv2.HuMoments(m).ravel()[:4]
    cov = np.array([[m["mu20"], m["mu11"]], [m["mu11"], m["mu02"]]]) / max(m["m00"], 1.0)
    spread, axes = np.linalg.eigh(cov)
    return np.concatenate([np.sign(hu) * np.log10(np.maximum(np.abs(hu), 1e-30)), axes[:, 1],
                           np.sqrt(12.0 * np.maximum(spread[::-1], 0.0))])


def _near_pairs(xy: FloatArray, reach: float) -> list[tuple[int, int]]:
    """Every pair (a, b), a < b, of points at most ``reach`` apart (a sweep along x)."""
    order = np.argsort(xy[:, 0], kind="stable")
    xs = xy[order, 0]
    ends = np.searchsorted(xs, xs + reach, side="right")
    pairs: list[tuple[int, int]] = []
    for i in range(len(order)):
        near = order[i + 1:ends[i]]
        if not len(near):
            continue
        close = near[np.hypot(*(xy[near] - xy[order[i]]).T) <= reach]
        pairs.extend((min(int(order[i]), int(j)), max(int(order[i]), int(j))) for j in close)
    return pairs
