"""Cards found by their own evidence on any table top: an index says where a card lies,
its outline says that a whole card lies there.

The outline reader (:mod:`vision.detect`) needs a card that stands out from the table as a
closed region. On a pale wood top or a white cloth the card's rim is a faint step that the
table's grain or weave drowns. The card's print does not depend on the table:

1. **Index.** Every pair of glyphs that reads as some card at a first look
   (:func:`vision.corners.first_look`: the one the corner reader then reads closer) says
   where that card's corner is, which way it lies and about how big it is
   (:func:`implied_quad`).
2. **Outline.** Profiles across each of the four sides of the implied card look for the
   step from paper to table (summed over the colour channels, so that a warm paper on a
   grey cloth shows). A side is there when most profiles step at one offset
   (:data:`SIDE_SUPPORT`): a rim is long and straight, print near it is not. The sides
   far from the index are searched wider, since a pair of glyphs measures the card only
   roughly; a far side's rim has the paper seen inside the near sides' rims inside it and
   their table outside it (the rim of a card lying next to it has them the other way
   round, a court card's printed frame has paper on both sides), and the four sides give
   a card's proportions (:func:`outline_of`).
3. **Whole.** The card so found is read whole by the classifier, as a card found by its
   outline is; it is kept when that reading names a card the index was read as at the
   first look (two views of one card agreeing).

A pair of glyphs on a patterned cloth reads as some card now and then, but it has no
paper rim round it, so no card is found there; the same check stands for an index read
alone (:func:`corner_shows`): a side that meets at its corner must show, or the two
sides in part.

Two more looks complete :func:`read_without_mat`, the reading of a photo without the mat:
the outlines sought again at a fixed edge strength (:func:`outlines_again`), and the cards
under others that show no index (:mod:`vision.under`).

>>> import numpy as np
>>> len(cards_by_index(None, np.full((90, 160, 3), 200, np.uint8)))
0
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from engine.cards import Card
from vision.corners import CornerProposal, FirstLook, class_probs, first_look, index_network
from vision.deck_shape import DeckShape
from vision.detect import side_ratio
from vision.geometry import corners_where_sides_meet, quad_iou
from vision.photo_size import read_at_card_size, sized_by_cards
from vision.preprocess import RECT_H, RECT_W
from vision.readings import CardDetections
from vision.under import with_cards_under

__all__ = ["OutlineFit", "cards_by_index", "corner_shows", "deck_shape_of", "implied_quad", "outline_of",
           "outlines_again", "read_photo", "read_without_mat"]

BgrImage = npt.NDArray[np.uint8]
FloatArray = npt.NDArray[np.float32]

# A proposal is a seed when the first look gives its best card this much: below the
# corner reader's accept rule (an index too small to read alone), above the scatter of
# glyph pairs that are no index
SEED_LOOK = 0.3
# the index's two best cards at the first look: the whole card must be read as one of them
SEED_NAMES = 2
# profiles across each side, and where along the side they lie (clear of the rounded corners)
PROFILES = 16
ALONG = (0.12, 0.88)
# how far the search reaches across a side, as a share of the implied card's width: the
# sides at the index (top, left) are where the index says; the far ones (right, bottom)
# move with the card's size, which a pair of glyphs gives within about a fifth
NEAR_REACH = 0.08
FAR_IN, FAR_OUT = 0.25, 0.3  # (an index's pair of glyphs tends to imply a card a little small)
# a side is there when this share of its profiles step at one offset
SIDE_SUPPORT = 0.6
# an index read alone stands where one side of its corner shows (SIDE_SUPPORT) or its two
# sides' shares add up to this (corner_shows): chosen on deal 1, the blackjack tuning photos,
# the studied deal 7 and rendered cloths (bench/README.md, "A corner that shows on two sides")
CORNER_SUPPORT = 1.0
BAND_PX = (3, 7)  # the paper inside a rim and the table outside it: this far from the step
# a step counts when the colour changes by this much across two pixels (sum over the three
# channels, grey levels) and by this many times the profile's own noise (its median change)
MIN_STEP = 12.0
NOISE_TIMES = 3.0
# long over short side of a card seen from above is 1.4; a slanted view squashes it
ASPECT = (1.15, 1.75)
SAME_CARD_IOU = 0.5  # two outlines overlapping this much are one card
# an outline read whole whose own index's outline covers less than this share of it is a
# pile's: the card on top lies inside it
PILE_SHARE = 0.93
# ... when that card is a card of the deck, as big as the other cards read whole (this share
# of their median area; one deck is one size): an outline fitted inside a lone card (its
# printed frame, a side fitted to a row of pips) is smaller, and the card keeps its own
PILE_TOP_SIZE = 0.9
SECOND_EDGE_HIGH = 20.0  # grey levels: Canny's high threshold for the second look for outlines


@dataclass(frozen=True)
class OutlineFit:
    """A card's outline checked side by side: the fitted quad (top-left, top-right,
    bottom-right, bottom-left of the implied card), and each side's share of profiles on
    its line (top, right, bottom, left)."""

    quad_xy: FloatArray
    support: tuple[float, float, float, float]

    @property
    def whole(self) -> bool:
        """All four sides show, and the card has a card's proportions."""
        if min(self.support) < SIDE_SUPPORT:
            return False
        return ASPECT[0] <= side_ratio(self.quad_xy) <= ASPECT[1]


def implied_quad(proposal: CornerProposal) -> FloatArray:
    """The whole card an index implies: top-left, top-right, bottom-right, bottom-left of
    the card upright, image pixels (the index at its top-left)."""
    m = proposal.box_to_image()
    pts = np.array([[0, 0, 1], [RECT_W, 0, 1], [RECT_W, RECT_H, 1], [0, RECT_H, 1]], np.float64).T
    return np.asarray((m @ pts).T, np.float32)


def _side_support(bgr: BgrImage, a: npt.NDArray[np.float64], b: npt.NDArray[np.float64],
                  outward: npt.NDArray[np.float64], inner_px: float, outer_px: float
                  ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float32]]:
    """Profiles across side a-b: the offsets tried (pixels, outward positive), the share of
    profiles with a clear colour step at each offset (within a pixel), and the median
    colour across the profiles at each offset ([offsets, 3]).

    A card's rim is a long straight step: most profiles step at one offset. Print near
    the rim (a column of pips, the other index) steps in a few profiles only."""
    ts = np.linspace(ALONG[0], ALONG[1], PROFILES)
    offsets = np.arange(-inner_px, outer_px + 1.0, 1.0)
    base = a[None, :] + ts[:, None] * (b - a)[None, :]
    pts = base[:, None, :] + offsets[None, :, None] * outward[None, None, :]
    prof = cv2.remap(bgr, pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    # the colour change across two pixels, summed over the channels (a step from warm paper
    # to a grey cloth shows in the blue channel more than in the grey level)
    change = np.zeros(prof.shape[:2], np.float32)
    change[:, 1:-1] = np.abs(prof[:, 2:] - prof[:, :-2]).sum(axis=2)
    noise = np.median(change[:, 1:-1], axis=1, keepdims=True)
    clear = (change >= MIN_STEP) & (change >= NOISE_TIMES * np.maximum(noise, 1.0))
    near = clear | np.roll(clear, 1, axis=1) | np.roll(clear, -1, axis=1)
    near[:, 0] = near[:, -1] = False
    return offsets, near.mean(axis=0), np.median(prof, axis=0).astype(np.float32)


def _band(colours: npt.NDArray[np.float32], k: int, start: int, stop: int) -> npt.NDArray[np.float32]:
    """The mean colour from ``start`` to ``stop`` pixels past offset index ``k`` (clamped)."""
    lo, hi = sorted((k + start, k + stop))
    lo, hi = max(lo, 0), min(hi, len(colours) - 1)
    return np.asarray(colours[lo:hi + 1].mean(axis=0) if hi >= lo else colours[min(max(k, 0), len(colours) - 1)],
                      np.float32)


def _line(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64], outward: npt.NDArray[np.float64],
          offset: float) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    d = (b - a) / max(float(np.hypot(*(b - a))), 1e-6)
    return a + offset * outward, d


def _outward(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64], centre: npt.NDArray[np.float64]
             ) -> npt.NDArray[np.float64]:
    d = (b - a) / max(float(np.hypot(*(b - a))), 1e-6)
    out = np.array([d[1], -d[0]])
    return out if np.dot(out, (a + b) / 2 - centre) >= 0 else -out


def outline_of(bgr: BgrImage, quad: FloatArray) -> OutlineFit:
    """Fit the card's four sides near ``quad`` (the card an index implies, top-left first,
    the index at its top-left corner): each near side (top, left) at its best-supported
    offset nearest to where the index says (a card under this one shows its rim further
    out); the far ones (right, bottom) at the best-supported pair of offsets that gives
    the card a card's proportions (of two as good, the outer: a court card's printed
    frame lies inside the rim)."""
    q = np.asarray(quad, np.float64)
    width = float(np.hypot(*(q[1] - q[0])))
    height = float(np.hypot(*(q[3] - q[0])))
    centre = q.mean(axis=0)
    sides = [(q[i], q[(i + 1) % 4], _outward(q[i], q[(i + 1) % 4], centre)) for i in range(4)]
    chosen: dict[int, tuple[float, float]] = {}
    paper: list[npt.NDArray[np.float32]] = []
    table: list[npt.NDArray[np.float32]] = []
    for i in (0, 3):
        a, b, out = sides[i]
        offsets, support, colours = _side_support(bgr, a, b, out, NEAR_REACH * width, NEAR_REACH * width)
        there = np.flatnonzero(support >= SIDE_SUPPORT)
        # the step nearest to where the index says: a card under this one shows its rim
        # a little further out
        k = int(there[np.abs(offsets[there]).argmin()]) if len(there) else int(support.argmax())
        chosen[i] = (float(offsets[k]), float(support[k]))
        if len(there):
            paper.append(_band(colours, k, -BAND_PX[1], -BAND_PX[0]))
            table.append(_band(colours, k, BAND_PX[0], BAND_PX[1]))
    far = {i: _side_support(bgr, sides[i][0], sides[i][1], sides[i][2], FAR_IN * width, FAR_OUT * width)
           for i in (1, 2)}
    ok: dict[int, npt.NDArray[np.bool_]] = {}
    for i, (offsets, support, colours) in far.items():
        good = support >= SIDE_SUPPORT
        if paper:  # the far rim has the card's paper inside it and the table outside
            p, t = np.mean(paper, axis=0), np.mean(table, axis=0)
            for k in (int(v) for v in np.flatnonzero(good)):
                inside, outside = _band(colours, k, -BAND_PX[1], -BAND_PX[0]), _band(colours, k, *BAND_PX)
                good[k] = bool(np.abs(inside - p).sum() < np.abs(inside - t).sum()
                               and np.abs(outside - t).sum() < np.abs(outside - p).sum())
        ok[i] = good
    best: tuple[float, float, float, float] | None = None
    right_off, right_sup = far[1][0], far[1][1]
    bottom_off, bottom_sup = far[2][0], far[2][1]
    for r in np.flatnonzero(ok[1]):
        for c in np.flatnonzero(ok[2]):
            w = width + right_off[r] + chosen[3][0]
            h = height + bottom_off[c] + chosen[0][0]
            ratio = max(w, h) / max(min(w, h), 1e-6)
            if not ASPECT[0] <= ratio <= ASPECT[1]:
                continue
            key = (float(right_sup[r] + bottom_sup[c]), float(right_off[r] + bottom_off[c]))
            if best is None or key > (best[0], best[1]):
                best = (key[0], key[1], float(right_off[r]), float(bottom_off[c]))
    if best is None:
        chosen[1] = (float(right_off[right_sup.argmax()]), 0.0)
        chosen[2] = (float(bottom_off[bottom_sup.argmax()]), 0.0)
    else:
        chosen[1] = (best[2], float(right_sup[np.searchsorted(right_off, best[2])]))
        chosen[2] = (best[3], float(bottom_sup[np.searchsorted(bottom_off, best[3])]))
    lines = [_line(*sides[i][:2], sides[i][2], chosen[i][0]) for i in range(4)]
    fitted = corners_where_sides_meet(lines, q, parallel=1e-6)
    return OutlineFit(fitted.astype(np.float32), (chosen[0][1], chosen[1][1], chosen[2][1], chosen[3][1]))


def corner_shows(bgr: BgrImage, quad: FloatArray) -> bool:
    """Whether the corner of an index read alone shows as a card's corner: the top or the
    left side of the card it implies (``quad``, :func:`implied_quad`), next to the index,
    steps from paper to something else along most of its length, or the two together
    along as much as one side whole (:data:`CORNER_SUPPORT`). (Both sides ask too much of
    a card on a white cloth, whose rim is faint, and of a fanned card, whose left side
    lies on the card before it with its own index beside the rim; a pair of motifs on a
    patterned cloth has neither.)"""
    q = np.asarray(quad, np.float64)
    width = float(np.hypot(*(q[1] - q[0])))
    centre = q.mean(axis=0)
    supports = []
    for a, b in ((q[0], q[0] + 0.5 * (q[1] - q[0])), (q[0] + 0.35 * (q[3] - q[0]), q[0])):
        _, support, _ = _side_support(bgr, a, b, _outward(a, b, centre), NEAR_REACH * width, NEAR_REACH * width)
        supports.append(float(support.max()))
    return max(supports) >= SIDE_SUPPORT or sum(supports) >= CORNER_SUPPORT


def cards_by_index(reader: Any, bgr: BgrImage, whole: CardDetections | None = None,
                   looked: FirstLook | None = None) -> CardDetections:
    """The cards found by an index and checked by their outline that are not among the
    cards read in ``whole`` (the cards found by their outline), read whole by ``reader``
    (:class:`vision.pipeline.CardReader`); cards whose outline shows but whose whole
    reading does not agree with the index come back unread."""
    return _by_index(reader, bgr, whole if whole is not None else CardDetections.empty(), looked)[0]


def _by_index(reader: Any, bgr: BgrImage, whole: CardDetections, looked: FirstLook | None = None
              ) -> tuple[CardDetections, CardDetections]:
    """(:func:`cards_by_index`, ``whole`` with each card read whole whose own index's
    outline is a good deal smaller, yet a card of the deck's size, taken to that outline:
    the outline found round a pile is read as its top card, and the cards under it show
    round that card's own rim)."""
    classifier = index_network(getattr(reader, "classifier", None))
    if classifier is None:
        return CardDetections.empty(), whole
    looked = looked or first_look(bgr)
    classes = list(classifier.meta.classes)
    kept = looked.kept
    mean = class_probs(looked.readings, classes)
    n_cards = sum(1 for c in classes if c not in ("back", "none"))
    fits: list[tuple[float, OutlineFit, frozenset[Card]]] = []
    tightened = whole.quad_xy.copy()
    read_areas = {i: _area(whole.quad_xy[i]) for i in range(len(whole))
                  if whole.label[i] is not None and not whole.cut[i]}
    for proposal, probs in zip(kept, mean, strict=True):
        best = float(probs[:n_cards].max())
        if best < SEED_LOOK:
            continue
        quad = implied_quad(proposal)
        on = [i for i in range(len(whole)) if whole.label[i] is not None and _centre_on(whole.quad_xy[i], quad)]
        fit = outline_of(bgr, quad)
        names = frozenset(Card.parse(classes[int(k)]) for k in np.argsort(-probs[:n_cards])[:SEED_NAMES])
        if on:  # a card read whole already (an outline not read may be a pile's)
            i = on[0]
            others = [a for j, a in read_areas.items() if j != i]
            if fit.whole and whole.label[i] in names and _area(fit.quad_xy) < PILE_SHARE * _area(tightened[i]) \
                    and _centre_on(whole.quad_xy[i], fit.quad_xy) \
                    and (not others or _area(fit.quad_xy) >= PILE_TOP_SIZE * float(np.median(others))):
                tightened[i] = _same_order(fit.quad_xy, whole.quad_xy[i])
            continue
        if fit.whole:
            fits.append((best, fit, names))
    whole = whole.with_quads(tightened)
    fits.sort(key=lambda f: -f[0])
    chosen: list[tuple[OutlineFit, frozenset[Card]]] = []
    for _best, fit, names in fits:
        twin = next((k for k, (c, _n) in enumerate(chosen) if quad_iou(c.quad_xy, fit.quad_xy) > SAME_CARD_IOU), None)
        if twin is None:
            chosen.append((fit, names))
        else:  # the card's other index, or the same one proposed twice: what either says
            chosen[twin] = (chosen[twin][0], chosen[twin][1] | names)
    if not chosen:
        return CardDetections.empty(), whole
    found = reader.read_quads(bgr, CardDetections(quad_xy=np.stack([f.quad_xy for f, _ in chosen])))
    labels = found.label.copy()
    for k, (_fit, names) in enumerate(chosen):
        if labels[k] is not None and labels[k] not in names:
            labels[k] = None  # the whole card and its index disagree: neither is sure
    return CardDetections(quad_xy=found.quad_xy, label=labels, confidence=found.confidence,
                          face_down=found.face_down, cut=found.cut, over_shoe=found.over_shoe,
                          maybe=found.maybe), whole


def _area(quad: FloatArray) -> float:
    return float(abs(cv2.contourArea(np.asarray(quad, np.float32))))


def _same_order(quad: FloatArray, like: FloatArray) -> FloatArray:
    """``quad``'s corners in the order of ``like``'s (each to the nearest), so that the
    card read stays the card read the same way up."""
    order = [int(np.argmin(np.hypot(*(np.asarray(quad) - p).T))) for p in like]
    return np.asarray(quad, np.float32)[order] if len(set(order)) == 4 else np.asarray(quad, np.float32)


def _centre_on(quad: FloatArray, other: FloatArray) -> bool:
    c = np.asarray(other, np.float64).mean(axis=0)
    return cv2.pointPolygonTest(np.asarray(quad, np.float32).reshape(-1, 1, 2), (float(c[0]), float(c[1])), False) >= 0



def outlines_again(reader: Any, bgr: BgrImage, whole: CardDetections) -> CardDetections:
    """The cards read sure from a second look for outlines at a fixed edge strength
    (:data:`SECOND_EDGE_HIGH`) that are not among ``whole``.

    The outline reader sets its edge strength from the frame's own contrast: on a white
    cloth, whose weave is the frame's strongest contrast, it is so low that the weave's
    edges break the cards' regions; a fixed, stronger threshold keeps the rim and drops
    the weave."""
    from vision.detect import detect_cards

    again = detect_cards(bgr, dataclasses.replace(reader.config.detect, edge_high=SECOND_EDGE_HIGH))
    fresh = [i for i in range(len(again))
             if not any(_centre_on(whole.quad_xy[k], again.quad_xy[i]) or _centre_on(again.quad_xy[i], whole.quad_xy[k])
                        for k in range(len(whole)))]
    if not fresh:
        return CardDetections.empty()
    read: CardDetections = reader.read_quads(bgr, again[fresh])
    return read[read.is_read]


def deck_shape_of(cards: CardDetections) -> DeckShape | None:
    """The size and shape of the ``cards`` read and not cut by the picture's edge, and the
    table they lie on (:class:`vision.deck_shape.DeckShape`); None when fewer than two tell it."""
    return DeckShape.of_cards([cards.quad_xy[i] for i in range(len(cards))
                               if cards.label[i] is not None and not cards.cut[i]])


def read_without_mat(reader: Any, bgr: BgrImage) -> CardDetections:
    """All the cards of a photo with no mat in view, as `eleusis read` reads it, at the size
    :func:`vision.photo_size.read_at_card_size` chooses (a phone's photo shrunk): see
    :func:`read_photo`."""
    return read_at_card_size(bgr, lambda image, card_px: read_photo(reader, image, card_px))


def read_photo(reader: Any, bgr: BgrImage, card_px: float | None = None) -> CardDetections:
    """All the cards of a photo with no mat in view, at its own size (``card_px``: the
    cards' width where known, which sizes the glyphs looked for and the shadows lifted:
    :func:`vision.photo_size.sized_by_cards`): the cards
    found by their outline (:func:`vision.closeup.read_closeup`, and :func:`outlines_again`;
    a pile's outline read as its top card taken to that card's own), then those found by an
    index and checked by their outline (:func:`cards_by_index`), then those read by an
    index alone (:func:`vision.corners.with_corner_cards`) whose corner shows
    (:func:`corner_shows`), each on its outline where the whole of it shows (else of the
    size and shape of the cards read whole: :class:`vision.deck_shape.DeckShape`); last, the
    cards under others that show no index (:func:`vision.under.with_cards_under`)."""
    from vision.closeup import read_closeup
    from vision.corners import with_corner_cards
    from vision.ink import evenly_lit

    glyph_px, short_px = sized_by_cards(card_px)
    bgr = evenly_lit(bgr, short_px)  # a washed-out photo read as a clear one, a shadow lifted
    whole = read_closeup(reader, bgr)
    whole = CardDetections.concatenate([whole, outlines_again(reader, bgr, whole)])
    looked = first_look(bgr, glyph_px=glyph_px)  # one look at the glyph pairs, for both uses
    by_index, whole = _by_index(reader, bgr, whole, looked)
    whole = CardDetections.concatenate([whole, by_index])
    both = with_corner_cards(reader.classifier, bgr, whole, looked)
    alone = [len(whole) + k for k in range(len(both) - len(whole))
             if corner_shows(bgr, both.quad_xy[len(whole) + k])]
    out = both[list(range(len(whole))) + alone]
    # an index read alone implies its card's outline only roughly: where the whole
    # outline shows, it is the card's; elsewhere the card is of the size and shape of the
    # cards read whole (one deck), laid from the index's corner on their table
    quads = out.quad_xy.copy()
    shape = deck_shape_of(both[np.arange(len(whole))])  # as settled: a pile's reading taken back
    for k in range(len(whole), len(out)):
        fit = outline_of(bgr, quads[k])
        if fit.whole:
            quads[k] = fit.quad_xy
        elif shape is not None:
            quads[k] = shape.laid_from_corner(quads[k])
    out = out.with_quads(quads)
    return with_cards_under(bgr, out)
