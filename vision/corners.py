"""Cards read by their index corner alone: overlapped columns, fans and pairs.

A card under another shows little more than its index (rank over suit) at one corner.
:func:`vision.corner_proposals.propose_corners` finds such indices without asking the card
to stand out from the table: it looks for the card's own evidence, ink on paper (glyphs,
and pairs of glyphs that may be a rank over its suit).

Each proposal is cut out upright as the corner box of a rectified card
(:data:`vision.preprocess.CORNER_BOX_W` x ``CORNER_BOX_H`` of 200 x 280) and read by the
index reader (:mod:`vision.index_reader`: a network that reads a rank, a suit and whether
the box shows an index at all): a first look at both ways up, since which glyph is the
rank is not known, then :data:`VIEWS` (a few scales) of the better one. A reading stands
when the rank, the suit and "an index" are sure together (the product of their
probabilities reaches :data:`CORNER_ACCEPT`; a doubt of "an index" that the next card's
index in a tight fan or column explains does not count: :mod:`vision.fans`), its suit's twin is not close behind
(:func:`twins_unsettled`: a club read with a spade's probability close behind is a duel not
settled), its ink is its card's colour (:func:`ink_agrees`: a red rank with a black suit is
two cards' glyphs), model 2.0's corner head does not name another card
(:func:`second_reader_agrees`: two readers must agree before a wrong reading can stand),
and the card its index implies is the size of the photo's other cards (:func:`agree_in_size`:
two pips of a card's face look like an index of a card twice as big; an unsure index is read
again at the others' size); the two indices of one card, and
the same index proposed twice, are one card (:func:`merge_corners`).

>>> import numpy as np
>>> len(propose_corners(np.full((120, 160, 3), 200, np.uint8)))
0
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import cv2
import numpy as np
import numpy.typing as npt

from engine.cards import Card, Suit
from vision.corner_proposals import (
    _PAIR_BOX,
    FIRST_VIEW,
    RANK_XY,
    SUIT_XY,
    CornerProposal,
    View,
    glyph_pairs,
    on_paper,
    propose_corners,
)
from vision.fans import with_doubts_explained
from vision.geometry import CARD_ASPECT, card_width
from vision.index_reader import IndexReader, IndexReadings, default_index_reader
from vision.ink import evenly_lit, redness
from vision.photo_print import photo_print_agrees, photo_print_lifts
from vision.preprocess import (
    CORNER_BOX_H,
    CORNER_BOX_W,
    CORNER_H,
    CORNER_W,
    FACE_H,
    FACE_W,
    RECT_H,
    RECT_W,
    feeds_of,
)
from vision.readings import CardDetections
from vision.rectify import rectify_cards

__all__ = [
    "CORNER_ACCEPT",
    "DARK_ACCEPT",
    "FAINT_ACCEPT",
    "CornerProposal",
    "CornerReading",
    "CornerReader",
    "FirstLook",
    "agree_in_size",
    "at_own_index",
    "card_quad_of",
    "card_width_of",
    "corner_boxes",
    "corner_detections",
    "corner_probs",
    "first_look",
    "index_network",
    "with_corner_cards",
    "glyph_pairs",
    "share_a_glyph",
    "ink_agrees",
    "ink_redness",
    "merge_corners",
    "not_read_whole",
    "piles_unread",
    "top_card_within",
    "on_paper",
    "propose_corners",
    "read_corners",
    "twins_unsettled",
    "typical_width",
]

BgrImage = npt.NDArray[np.uint8]
FloatArray = npt.NDArray[np.float32]

# The views of a proposal: the box cut at a scale about the one the pair implies (shifts
# and turns can be given too). No one view reads a 15 px index surely (deal 1: the card
# shown gets 0.5-0.7 on average in every view tried); the mean of several does. On deal 1,
# 3 scales read as many as 9 views (3 scales x 3 shifts or turns), at a third of the cost.
VIEWS: tuple[View, ...] = tuple((s, 0.0, 0.0, 0.0) for s in (0.9, 1.0, 1.12))
# the first look (one view, both ways up) keeps a proposal whose rank x suit reaches this
FIRST_LOOK = 0.4
# a corner is read when the index reader's rank x suit x "an index" (the mean over the
# views) reaches this: chosen on the tuning sets only (deal 1 of the bridge deals, the
# blackjack tuning photos; rendered columns and fans of the calibration designs, 61 of 63
# read): no wrong reading from 0.3 to 0.6, the most read from 0.3 to 0.5.
# bench/real_tables.py reports the held-out photos.
CORNER_ACCEPT = 0.4
# model 2.0's corner head refuses a reading when its own best card is another one with at
# least this probability (0: whenever its best card is another)
DISAGREE = 0.0
# One deck on one table: the cards of a photo are about one size. Two pips of a card's face
# read as an index imply a card about twice its real size (pips are bigger than the index),
# so an index whose implied card is more than SIZE_SPREAD times wider than the photo's
# typical card is no index. Smaller is allowed: a far card in a slanted view is two thirds
# the size of a near one, and a court card's compact index implies a card a little small.
# The typical card: the median width of the cards read whole and of the indices read at
# least SURE_SIZE.
SIZE_SPREAD = 1.5
SURE_SIZE = 0.8
RESIZE_OVER = 0.1  # an unsure index sized this share off the typical card is read again at its size
# two glyph centres this share of a rank-to-suit distance apart or closer are one glyph
# (merge_corners): the centres of one piece of ink coincide, and a proposal read again at
# the photo's typical size keeps its rank's centre but moves its suit's a little
SAME_GLYPH = 0.5
# A glyph joined to a rim's shadow or a frame line gives its index only through its black
# core in the dark ink (vision.corner_proposals.DARK_PAPER); a reading resting on one
# stands from DARK_ACCEPT. Chosen on the tuning sets only (bench/corner_accept.py --hard
# 400 --fans 150): at 0.5 such readings added 2 wrong (0.5 and 0.69) to 123 right
DARK_ACCEPT = 0.7
# a reading that rests on a glyph only the faint ink gives (glyph_pairs) stands from this:
# chosen on the tuning sets only (bench/corner_accept.py --hard 400 --fans 150: at 0.4 such
# readings added 3 wrong, at 0.42-0.46, and no more right ones than at 0.5)
FAINT_ACCEPT = 0.5
# A rank and its suit that the ink does not part are found as regions stable over levels
# or as one long piece (vision.corner_proposals.MSER_DELTA, MERGED_LONG); a reading
# resting on either stands from STABLE_ACCEPT or MERGED_ACCEPT. Chosen on the tuning sets
# only (bench/corner_accept.py --hard 400 --fans 150); the settings tried and what each
# read: bench/README.md, "A rank and its suit that the ink does not part"
MERGED_ACCEPT = 0.8
STABLE_ACCEPT = 0.8
# A club and a spade (a heart and a diamond) differ in a few pixels of a 15 px index; a
# reading whose suit's twin has this probability or more (the index reader's suit head,
# the mean over VIEWS) is a duel the reader did not settle, and does not stand: chosen on
# the tuning sets only (bench/corner_accept.py --hard 400: 0.35-0.4 refuse the same 3 wrong
# readings, suit twins all, for 2-3 right ones; none of deal 1 or the blackjack photos)
SUIT_TWIN = 0.35
_TWIN = np.array([suit.twin.index for suit in Suit])  # the twin of each suit in the order C, D, H, S
# One index is printed in one ink: a heart's or a diamond's index red, a club's or a spade's
# black. The index reader judges shapes more than colour (a black spade read as a heart, a
# red rank read with a neighbour's black suit), so the ink's own colour is asked: its
# redness, R - (G + B) / 2 of its colour divided by the paper's (so a warm, dim or cold light
# leaves it alone), the median over the dark pixels (below INK_DARK of the paper in every
# channel) within 12 box pixels of the rank's and of the suit's centre. A red reading's suit
# must reach RED_SUIT and its rank RED_RANK; a black reading's suit and rank must stay
# below BLACK_SUIT and BLACK_RANK. Glyph ink not found is no evidence either way. Chosen on
# the tuning sets only (bench/corner_accept.py --hard 400: 23 wrong readings to 14, as many
# read): right readings' suits 0.22 or more when red in 95 % of them (deal 1 0.29, blackjack
# 0.22), 0.1 or less when black in 95 % (0.28 at most); real red ranks 0.07 or more, black 0.07
# or less, but the real 7H on a white cloth under a daylight panel 0.01-0.03 (at 0.03 a layout
# round, `bench/table_rounds.py --layout`, lost it: 78 of 79): a red rank need only reach 0.01,
# and the hard set keeps 14 wrong (15 with no rank check at all).
RED_SUIT, BLACK_SUIT = 0.1, 0.3
RED_RANK, BLACK_RANK = 0.01, 0.35
INK_DARK = 0.6
_INK_GRID = np.array([[x, y] for x in np.arange(-12, 12.1, 1.5) for y in np.arange(-12, 12.1, 1.5)
                      if x * x + y * y <= 144.0])


@dataclass(frozen=True)
class CornerReading:
    """An index read: the card, its probability, and where it lies (the proposal)."""

    card: Card
    confidence: float
    proposal: CornerProposal

    @property
    def index_xy(self) -> tuple[float, float]:
        """The middle of the index (between the rank and the suit), image pixels."""
        return _index_xy(self.proposal)


def _index_xy(p: CornerProposal) -> tuple[float, float]:
    half = 0.5 * _PAIR_BOX * p.scale
    return (p.rank_xy[0] + half * p.down[0], p.rank_xy[1] + half * p.down[1])


class CornerReader(Protocol):
    """What :func:`read_corners` needs of a classifier: the model's outputs for its feeds."""

    def heads_of_feeds(self, feeds: Any) -> dict[str, npt.NDArray[np.float32]]: ...



def corner_boxes(bgr: BgrImage, proposals: Sequence[CornerProposal],
                 views: Sequence[View] = VIEWS) -> npt.NDArray[np.uint8]:
    """Each proposal's corner box cut upright in each view: uint8 [N, V, CORNER_H, CORNER_W, 3]."""
    out = np.zeros((len(proposals), len(views), CORNER_H, CORNER_W, 3), np.uint8)
    # box pixels -> output pixels
    shrink = np.array([[CORNER_W / CORNER_BOX_W, 0, 0], [0, CORNER_H / CORNER_BOX_H, 0], [0, 0, 1]])
    for i, prop in enumerate(proposals):
        for k, view in enumerate(views):
            s = view[0]
            m = np.vstack([prop.box_to_image(view), [0, 0, 1]])
            to_out = (shrink @ np.linalg.inv(m))[:2]
            source: BgrImage = bgr
            if prop.scale * s * CORNER_BOX_W / CORNER_W > 2.0:  # shrinking a lot: smooth first
                sigma = 0.4 * prop.scale * s * CORNER_BOX_W / CORNER_W
                x0, y0, x1, y1 = _bounds(m, bgr.shape, pad=int(3 * sigma) + 2)
                if x1 <= x0 or y1 <= y0:
                    continue
                part = np.asarray(cv2.GaussianBlur(bgr[y0:y1, x0:x1], (0, 0), sigma), np.uint8)
                to_out = to_out @ np.array([[1, 0, x0], [0, 1, y0], [0, 0, 1]], np.float64)
                source = part
            out[i, k] = cv2.warpAffine(source, to_out, (CORNER_W, CORNER_H), flags=cv2.INTER_LINEAR,
                                       borderMode=cv2.BORDER_REPLICATE)
    return out


def _bounds(m: npt.NDArray[np.float64], shape: tuple[int, ...], pad: int) -> tuple[int, int, int, int]:
    corners = m @ np.array([[0, CORNER_BOX_W, CORNER_BOX_W, 0], [0, 0, CORNER_BOX_H, CORNER_BOX_H], [1, 1, 1, 1]])
    x0, y0 = np.floor(corners[:2].min(axis=1)).astype(int) - pad
    x1, y1 = np.ceil(corners[:2].max(axis=1)).astype(int) + pad
    return max(int(x0), 0), max(int(y0), 0), min(int(x1), shape[1]), min(int(y1), shape[0])


def _softmax(z: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    z64 = z.astype(np.float64) - z.max(axis=-1, keepdims=True)
    e = np.exp(z64)
    return np.asarray(e / e.sum(axis=-1, keepdims=True))


def corner_probs(classifier: CornerReader, boxes: npt.NDArray[np.uint8], batch: int = 256
                 ) -> npt.NDArray[np.float64]:
    """The model's probabilities for each box: [N, V, C] for boxes [N, S, H, W, 3].

    Each box is fed as both corners of a card whose face is the box itself, and read by
    every head that reads the index: the corner head (``corner_logits``, temperature 1),
    the card head (``logits``, the model's temperature) and, when the model has one, the
    second-opinion model (``second_logits``): V = S x the heads. None of them is sure
    of a 15 px index alone; together they agree on a real one and scatter on anything else.
    """
    n, s = boxes.shape[:2]
    flat = boxes.reshape(n * s, CORNER_H, CORNER_W, 3)
    meta = getattr(classifier, "meta", None)
    temperature = float(getattr(meta, "temperature", 1.0))
    second = getattr(meta, "second_opinion", None)
    parts = []
    for start in range(0, len(flat), batch):
        chunk = flat[start:start + batch]
        faces = np.stack([cv2.resize(c, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA) for c in chunk])
        corners = np.repeat(chunk[:, None], 2, axis=1)
        heads = classifier.heads_of_feeds(feeds_of(faces, corners))
        views = [_softmax(np.asarray(heads["corner_logits"], np.float32)[:, 0])]
        views.append(_softmax(np.asarray(heads["logits"], np.float32) / temperature))
        if second is not None and "second_logits" in heads:
            views.append(_softmax(np.asarray(heads["second_logits"], np.float32) / float(second[1])))
        parts.append(np.stack(views, axis=1))  # [B, heads, C]
    if not parts:
        return np.zeros((n, 0, 0))
    probs = np.concatenate(parts)
    return probs.reshape(n, s * probs.shape[1], -1)


def index_readings(reader: IndexReader, bgr: BgrImage, proposals: Sequence[CornerProposal],
                   views: Sequence[View] = VIEWS) -> IndexReadings:
    """The index reader's readings of each proposal, the mean over ``views``."""
    boxes = corner_boxes(bgr, proposals, views)
    per_view = [reader.read(np.ascontiguousarray(boxes[:, k])) for k in range(len(views))]
    return IndexReadings.mean(per_view)


def score_proposals(reader: IndexReader, bgr: BgrImage, proposals: Sequence[CornerProposal]
                    ) -> tuple[list[CornerProposal], IndexReadings]:
    """The proposals worth a closer look and the index reader's readings of them over
    :data:`VIEWS`.

    A first look (:data:`FIRST_VIEW`) reads each proposal; one whose rank and suit are
    read less sure than :data:`FIRST_LOOK` is dropped. Of the two ways up of one pair of
    glyphs, the one whose rank and suit are read better stays, and so does the one the
    reader takes more for an index: a heart over a 3 upside down can read as a sure ace of
    clubs that is no index, the 3 over its heart as a less sure 3H that is one."""
    if not proposals:
        return [], IndexReadings.mean([reader.read(np.zeros((0, CORNER_H, CORNER_W, 3), np.uint8))])
    first = index_readings(reader, bgr, proposals, (FIRST_VIEW,))
    # the glyphs read as a rank and a suit, whether or not the box is sized and placed as an
    # index's: a mis-sized index is read again at the photo's typical size (read_corners)
    score = first.rank.max(axis=1) * first.suit.max(axis=1)
    best_of_pair: dict[tuple[tuple[int, int], ...], int] = {}
    most_index: dict[tuple[tuple[int, int], ...], int] = {}
    for i, prop in enumerate(proposals):
        if score[i] < FIRST_LOOK:
            continue
        suit = (prop.rank_xy[0] + _PAIR_BOX * prop.scale * prop.down[0],
                prop.rank_xy[1] + _PAIR_BOX * prop.scale * prop.down[1])
        key = tuple(sorted([(round(prop.rank_xy[0]), round(prop.rank_xy[1])), (round(suit[0]), round(suit[1]))]))
        if key not in best_of_pair or score[i] > score[best_of_pair[key]]:
            best_of_pair[key] = i
        if key not in most_index or first.index[i] > first.index[most_index[key]]:
            most_index[key] = i
    kept = [proposals[i] for i in sorted(set(best_of_pair.values()) | set(most_index.values()))]
    return kept, index_readings(reader, bgr, kept)


@dataclass(frozen=True)
class FirstLook:
    """The glyph pairs of a photo worth a closer look and the index reader's readings of
    them (:func:`score_proposals`): found once, used both to seed cards found by their
    index (:mod:`vision.by_index`) and to read indices alone (:func:`read_corners`)."""

    kept: list[CornerProposal]
    readings: IndexReadings


def first_look(bgr: BgrImage, reader: IndexReader | None = None,
               glyph_px: tuple[float, float] | None = None) -> FirstLook:
    """:class:`FirstLook` of ``bgr`` (taken as :func:`read_corners` takes it, evenly lit:
    :func:`vision.ink.evenly_lit`); ``glyph_px``: as :func:`propose_corners` takes it."""
    bgr = evenly_lit(bgr)
    kept, readings = score_proposals(reader or default_index_reader(), bgr, propose_corners(bgr, glyph_px))
    return FirstLook(kept, readings)


def second_reader_agrees(classifier: Any, bgr: BgrImage, proposals: Sequence[CornerProposal],
                         cards: Sequence[Card]) -> npt.NDArray[np.bool_]:
    """Whether model 2.0's corner head (``corner_logits``, the mean over :data:`VIEWS`) lets
    each proposal be read as its card: it refuses when it names another card with a
    probability of :data:`DISAGREE` or more and above the card's own (two readers must
    agree before a wrong reading can stand), unless the photo's own print, the indices it
    lets stand, says the card and not the head's (:func:`vision.photo_print.photo_print_agrees`)."""
    if not proposals:
        return np.zeros(0, bool)
    probs = corner_probs(classifier, corner_boxes(bgr, proposals))
    heads = probs.shape[1] // len(VIEWS)
    corner = probs.reshape(len(proposals), len(VIEWS), heads, -1)[:, :, 0].mean(axis=1)
    classes = classifier.meta.classes
    column = {name: k for k, name in enumerate(classes)}
    out = np.zeros(len(proposals), bool)
    for i, card in enumerate(cards):
        own = float(corner[i, column[str(card)]])
        best = int(corner[i].argmax())
        out[i] = best == column[str(card)] or float(corner[i, best]) < max(DISAGREE, own)
    return out | photo_print_agrees(bgr, proposals, cards, out, [classes[int(k)] for k in corner.argmax(axis=1)])


def class_probs(readings: IndexReadings, classes: Sequence[str]) -> npt.NDArray[np.float64]:
    """The readings as [N, C] probabilities over the classifier's ``classes`` (cards from
    :meth:`IndexReadings.card_probs`, ``none`` for no index, ``back`` never)."""
    cards = readings.card_probs()
    out = np.zeros((len(readings), len(classes)))
    for k, name in enumerate(classes):
        if name == "none":
            out[:, k] = 1 - readings.index
        elif name != "back":
            out[:, k] = cards[:, Card.parse(name).index]
    return out


def _checked(classifier: Any, bgr: BgrImage, proposals: Sequence[CornerProposal], readings: IndexReadings,
             accept: float, lift: bool = True, ink: bool = True) -> npt.NDArray[np.float64]:
    """[N, C] for :func:`accepted_corners`: the index reader's probabilities, with the
    readings on weaker evidence under its threshold (a faint, dark, stable or merged glyph:
    :data:`FAINT_ACCEPT` and the others), and those sure enough to stand but unsure between
    suit twins (:data:`SUIT_TWIN`), of ink not their card's colour (:func:`ink_agrees`) or
    refused by the second reader, set to nothing. With ``lift``, a reading sure of its rank
    and suit but doubted as an index is checked as the others are where the photo's own
    print says it is one (:func:`vision.photo_print.photo_print_lifts`). Without ``ink``, the
    ink's colour is not asked (:func:`read_corners`)."""
    mean = class_probs(readings, classifier.meta.classes)
    sureness = readings.sureness()
    # a glyph only the faint ink, the dark ink or a stable region shows, or a rank and suit
    # in one piece, is weaker evidence: the reading needs the most any of them asks
    needs = np.full(len(proposals), accept)
    for weaker, sure_from in (("faint", FAINT_ACCEPT), ("dark", DARK_ACCEPT), ("stable", STABLE_ACCEPT),
                              ("merged", MERGED_ACCEPT)):
        marked = np.array([getattr(p, weaker) for p in proposals], bool)
        needs = np.where(marked, np.maximum(needs, sure_from), needs)
    mean[(needs > accept) & (sureness < needs)] = 0.0
    sure = np.flatnonzero(sureness >= needs)
    if not len(sure):
        return mean
    cards = readings.cards()

    def looked_at(kept: npt.NDArray[np.intp]) -> tuple[list[CornerProposal], list[Card]]:
        return [proposals[int(i)] for i in kept], [cards[int(i)] for i in kept]

    kept = sure[~twins_unsettled(readings)[sure]]
    if len(kept) and ink:  # the ink first (cheap): the second reader looks only at what it leaves
        kept = kept[ink_agrees(bgr, *looked_at(kept))]
    if len(kept):
        kept = kept[second_reader_agrees(classifier, bgr, *looked_at(kept))]
    mean[np.setdiff1d(sure, kept)] = 0.0
    if not lift or not len(kept):
        return mean
    standing = np.isin(np.arange(len(proposals)), kept)
    glyphs_sure = readings.rank.max(axis=1) * readings.suit.max(axis=1) >= needs
    lifted = np.flatnonzero(photo_print_lifts(bgr, proposals, cards, standing, glyphs_sure & (sureness < needs)))
    if len(lifted):  # an index after all: its reading checked as any other, the doubt set aside
        again = IndexReadings(readings.rank[lifted], readings.suit[lifted], np.ones(len(lifted)))
        mean[lifted] = _checked(classifier, bgr, [proposals[int(i)] for i in lifted], again, accept, lift=False, ink=ink)
    return mean


def ink_redness(bgr: BgrImage, proposal: CornerProposal) -> tuple[float, float]:
    """The redness of the rank's ink and of the suit's ink (:func:`vision.ink.redness`, see
    :data:`RED_SUIT`): about 0 for black ink, 0.2-0.8 for red; NaN where no dark pixel lies
    within 12 box pixels of the glyph's centre."""
    m = proposal.box_to_image()
    glyphs = np.stack([_INK_GRID + RANK_XY, _INK_GRID + SUIT_XY]) @ m[:, :2].T + m[:, 2]
    rank, suit = redness(bgr, glyphs, INK_DARK)
    return rank, suit


def ink_agrees(bgr: BgrImage, proposals: Sequence[CornerProposal], cards: Sequence[Card]) -> npt.NDArray[np.bool_]:
    """Whether each proposal's ink is its card's colour (:data:`RED_SUIT`): a rank and a
    suit of two inks are two cards' glyphs, or a suit read as its other colour's shape.

    >>> white = np.full((80, 80, 3), 255, np.uint8)
    >>> white[22:34, 14:26] = (0, 0, 0); white[38:50, 14:26] = (40, 40, 220)  # a black rank over a red suit
    >>> p = CornerProposal((20.0, 28.0), (0.0, 1.0), 16 / _PAIR_BOX)
    >>> ink_agrees(white, [p, p], [Card.parse("6H"), Card.parse("6S")]).tolist()
    [False, False]
    """
    out = np.ones(len(proposals), bool)
    for i, (prop, card) in enumerate(zip(proposals, cards, strict=True)):
        rank, suit = ink_redness(bgr, prop)
        if card.is_red:
            out[i] = not (suit < RED_SUIT or rank < RED_RANK)
        else:
            out[i] = not (suit > BLACK_SUIT or rank > BLACK_RANK)
    return out


def twins_unsettled(readings: IndexReadings) -> npt.NDArray[np.bool_]:
    """Whether each reading's suit has its twin (club and spade, heart and diamond) close
    behind: the twin's probability reaches :data:`SUIT_TWIN`.

    >>> r = IndexReadings(np.eye(13)[[0, 0]], np.array([[0.55, 0.0, 0.0, 0.45], [0.9, 0.05, 0.05, 0.0]]),
    ...                   np.ones(2))
    >>> twins_unsettled(r).tolist()
    [True, False]
    """
    return np.asarray(readings.suit[np.arange(len(readings)), _TWIN[readings.suit.argmax(axis=1)]] >= SUIT_TWIN)


def index_network(classifier: Any) -> Any | None:
    """The network whose corner head checks an index ``classifier`` reads alone: the classifier
    itself when it is a model with one (``corner_logits``), or its own ``index_network`` (an
    enrolled deck's reader: its base model, :class:`vision.deck_profile.ProfiledClassifier`);
    None when there is none, and then no index is read alone.

    >>> index_network(object()) is None
    True
    """
    network = getattr(classifier, "index_network", classifier)
    if network is None or not hasattr(network, "heads_of_feeds") \
            or "corner_logits" not in getattr(network, "output_names", ()):
        return None
    return network


def read_corners(classifier: Any, bgr: BgrImage, proposals: Sequence[CornerProposal] | None = None,
                 accept: float = CORNER_ACCEPT, whole: CardDetections | None = None,
                 reader: IndexReader | None = None, looked: FirstLook | None = None,
                 ink: bool = True) -> list[CornerReading]:
    """The indices read in ``bgr`` (one per card: :func:`merge_corners`), of cards the size
    of the others (:func:`agree_in_size`, with the cards ``whole`` read by their outline).
    ``looked``: the photo's first look when it was taken already (:func:`first_look`,
    with the same ``reader``), else ``proposals`` (by default :func:`propose_corners`'s)
    are looked at here.

    ``reader`` reads each index (:mod:`vision.index_reader`; the shipped one by default) and
    ``classifier``'s network (:func:`index_network`: a model with a corner head,
    ``corner_logits``) must not name another card (:func:`second_reader_agrees`); a
    classifier without one reads no corners.

    ``ink``: each index's ink must be its card's colour (:func:`ink_agrees`). A caller that
    knows the card's colour from more than its index (a whole card, read by its face too)
    may leave that out: a deck printed in one ink or in four shows a red suit in another ink."""
    classifier = index_network(classifier)
    if classifier is None:
        return []
    reader = reader or default_index_reader()
    bgr = evenly_lit(bgr)
    if looked is not None and proposals is None:
        kept, readings = looked.kept, looked.readings
    else:
        kept, readings = score_proposals(reader, bgr, propose_corners(bgr) if proposals is None else list(proposals))
    classes = classifier.meta.classes
    mean = _checked(classifier, bgr, kept, _explained(reader, bgr, kept, readings, accept), accept, ink=ink)
    read = accepted_corners(kept, mean, classes, accept, whole)
    typical = typical_width(read, whole)
    if typical is None or not len(mean):
        return read
    # the index's size is the deck's, and a pair of glyphs measures it only roughly (a glyph
    # merged with its neighbour, a rank of two digits): an unsure index sized off the others
    # is read again at their size
    cards = np.array([name not in ("back", "none") for name in classes])
    unsure = [p for p, m in zip(kept, mean, strict=True) if m[cards].max() < accept
              and abs(RECT_W * p.scale / typical - 1) > RESIZE_OVER]
    if not unsure:
        return read
    resized = [dataclasses.replace(p, scale=typical / RECT_W) for p in unsure]
    again = _checked(classifier, bgr, resized, _explained(reader, bgr, resized, index_readings(reader, bgr, resized),
                                                          accept), accept, ink=ink)
    return accepted_corners(list(kept) + resized, np.concatenate([mean, again]), classes, accept, whole)


def _explained(reader: IndexReader, bgr: BgrImage, proposals: Sequence[CornerProposal], readings: IndexReadings,
               accept: float) -> IndexReadings:
    """``readings`` with the doubts of "an index" that a fanned or stacked neighbour's index in
    the box explains not counted (:func:`vision.fans.with_doubts_explained`)."""
    return with_doubts_explained(proposals, readings, accept,
                                 lambda which: corner_boxes(bgr, [proposals[int(i)] for i in which]), reader.read)


def accepted_corners(proposals: Sequence[CornerProposal], mean: npt.NDArray[np.float64], classes: Sequence[str],
                     accept: float = CORNER_ACCEPT, whole: CardDetections | None = None) -> list[CornerReading]:
    """The proposals whose best card (in ``mean``, [N, C]) reaches ``accept`` and whose card
    is the size of the others, one per card."""
    found: list[CornerReading] = []
    for i in np.flatnonzero(mean.max(axis=1) >= accept) if len(mean) else []:
        name = classes[int(mean[i].argmax())]
        if name not in ("back", "none"):
            found.append(CornerReading(Card.parse(name), float(mean[i].max()), proposals[int(i)]))
    return merge_corners(agree_in_size(found, whole))


def card_width_of(reading: CornerReading) -> float:
    """The width in image pixels of the card an index implies."""
    return float(RECT_W * reading.proposal.scale)


def agree_in_size(readings: Sequence[CornerReading], whole: CardDetections | None = None) -> list[CornerReading]:
    """The readings whose implied card is at most :data:`SIZE_SPREAD` times the photo's
    typical card width (see there); all of them when fewer than two cards tell it."""
    typical = typical_width(readings, whole)
    if typical is None:
        return list(readings)
    return [r for r in readings if card_width_of(r) <= SIZE_SPREAD * typical]


def typical_width(readings: Sequence[CornerReading], whole: CardDetections | None = None) -> float | None:
    """The median width in image pixels of the cards read whole and of the indices read at
    least :data:`SURE_SIZE`; None when fewer than two cards tell it."""
    widths = [card_width_of(r) for r in readings if r.confidence >= SURE_SIZE]
    if whole is not None:
        for i in range(len(whole)):
            if whole.label[i] is not None:
                widths.append(card_width(whole.quad_xy[i]))
    return float(np.median(widths)) if len(widths) >= 2 else None


def merge_corners(readings: Sequence[CornerReading]) -> list[CornerReading]:
    """One reading per index and per card, the most confident first.

    One glyph is printed in one index: two readings of different cards clash when they
    share a glyph (:func:`share_a_glyph`), and then neither stands (a doubt between two
    cards at one index). The indices of fanned or overlapped neighbours lie side by side
    as separate glyphs, so both stand. Two readings of one card within a rank-to-suit
    distance are one index; two indices of one card lie at the card's opposite corners:
    the same card, turned 180 degrees, about the card's diagonal away, as either index sizes
    the card (a pair of glyphs gives its card's size only roughly)."""
    order = sorted(readings, key=lambda r: -r.confidence)
    kept: list[CornerReading] = []
    refused: list[CornerReading] = []
    for r in order:
        if any(k.card != r.card and share_a_glyph(k, r) for k in kept + refused):
            refused.append(r)
            continue
        if any(k.card == r.card and _one_card(k, r) for k in kept):
            continue
        kept.append(r)
    # an index where two cards were read with confidence is not read
    return [k for k in kept if not any(f.card != k.card and share_a_glyph(f, k) for f in refused)]


def _glyphs_xy(r: CornerReading) -> FloatArray:
    """The centres of a reading's rank and suit glyphs, image pixels ([2, 2])."""
    rank = np.asarray(r.proposal.rank_xy, np.float64)
    return np.stack([rank, rank + _PAIR_BOX * r.proposal.scale * np.asarray(r.proposal.down, np.float64)])


def share_a_glyph(a: CornerReading, b: CornerReading) -> bool:
    """Whether a glyph of ``a`` and a glyph of ``b`` are one: their centres lie within
    :data:`SAME_GLYPH` of the smaller rank-to-suit distance.

    >>> six, nine = CornerProposal((100.0, 100.0), (0.0, 1.0), 0.5), CornerProposal((100.0, 116.5), (0.0, 1.0), 0.5)
    >>> share_a_glyph(CornerReading(Card.parse("6S"), 0.9, six), CornerReading(Card.parse("9S"), 0.8, nine))
    True
    >>> beside = CornerProposal((120.0, 100.0), (0.0, 1.0), 0.5)  # the index of a fanned neighbour
    >>> share_a_glyph(CornerReading(Card.parse("6S"), 0.9, six), CornerReading(Card.parse("9S"), 0.8, beside))
    False
    """
    reach = SAME_GLYPH * _PAIR_BOX * min(a.proposal.scale, b.proposal.scale)
    ga, gb = _glyphs_xy(a), _glyphs_xy(b)
    return bool((np.hypot(*(ga[:, None] - gb[None]).transpose(2, 0, 1)) <= reach).any())


def _one_index(a: CornerReading, b: CornerReading) -> bool:
    return bool(np.hypot(*np.subtract(a.index_xy, b.index_xy)) <= 1.2 * _PAIR_BOX * min(a.proposal.scale,
                                                                                          b.proposal.scale))


def _one_card(a: CornerReading, b: CornerReading) -> bool:
    """Whether two readings of one card's name are one card: one index, or its two indices
    at opposite corners as either of them sizes the card."""
    return _one_index(a, b) or _other_corner(a, b) or _other_corner(b, a)


def _other_corner(a: CornerReading, b: CornerReading) -> bool:
    """Whether ``b``'s index is where ``a``'s card has its other index (turned 180 degrees)."""
    if np.dot(a.proposal.down, b.proposal.down) > -0.8:
        return False
    quad = card_quad_of(a)
    far = np.asarray(quad[2], np.float64)  # the card's bottom-right corner, seen from a's index
    m = a.proposal.box_to_image()
    rank_from_corner = np.hypot(*(m[:, :2] @ np.array(RANK_XY)))
    return bool(np.hypot(*(np.asarray(b.proposal.rank_xy) - far)) <= rank_from_corner * 1.6 + 0.15 * np.hypot(
        *(quad[2] - quad[0])))


def card_quad_of(reading: CornerReading) -> FloatArray:
    """The whole card's outline implied by an index (top-left, top-right, bottom-right,
    bottom-left of the card upright), image pixels; the card may be partly covered."""
    m = reading.proposal.box_to_image()
    pts = np.array([[0, 0, 1], [RECT_W, 0, 1], [RECT_W, RECT_H, 1], [0, RECT_H, 1]], np.float64).T
    return np.asarray((m @ pts).T, np.float32)


def corner_detections(readings: Sequence[CornerReading]) -> CardDetections:
    """Corner readings as :class:`CardDetections` (each card's implied outline)."""
    if not readings:
        return CardDetections.empty()
    return CardDetections(quad_xy=np.stack([card_quad_of(r) for r in readings]),
                          label=[r.card for r in readings],
                          confidence=np.array([r.confidence for r in readings], np.float32))


def with_corner_cards(classifier: Any, bgr: BgrImage, whole: CardDetections, looked: FirstLook | None = None,
                      reader: IndexReader | None = None) -> CardDetections:
    """``whole`` (the cards found by their outline) and, after them, the cards read by an
    index alone that are not one of them: an index of a card read whole lies on it (on
    its outline grown by a tenth, for an outline fitted a little short).

    An index of *another* card on a card read whole stays: an outline around an overlapped
    column is often one card's outline grown over the cards under it (read by its top
    index), and the indices under it are those cards. Not the suit twin of the card read
    whole at that card's own index (:func:`at_own_index`): that is its index, its small suit
    misread (a column's next index lies a step further on). An outline holding the indices
    of two other cards and none of its own is a pile, its whole reading taken back unless
    that card lies whole at one end of it (:func:`piles_unread`)."""
    readings = read_corners(classifier, bgr, whole=whole, looked=looked, reader=reader)
    whole = piles_unread(readings, whole, lambda quad, name: top_card_within(classifier, bgr, quad, name))
    fresh = not_read_whole(readings, whole)
    if not fresh:
        return whole
    return CardDetections.concatenate([whole, corner_detections(fresh)])


# an outline read whole that holds the indices of this many other cards and none of its own
# name is a pile: two cards or more found as one region (a poker hand), read as no card of it
PILE_CARDS = 2


def piles_unread(readings: Sequence[CornerReading], whole: CardDetections,
                 top_card: Callable[[FloatArray, Card], FloatArray | None]) -> CardDetections:
    """``whole`` with the reading of each pile's outline taken back (its label None), or
    taken to its top card's own outline.

    A card's face prints its own two indices; an outline holding the indices of
    :data:`PILE_CARDS` other cards read, and no index of the card it was read as, is the
    outline of cards laid over each other, found as one region. Read whole, such a region
    may look like a card none of them is (an 8C and a 2C in a hand read as a 4C). A pile
    read as its top card keeps its reading: that card's own index shows on it, or, where
    its index was not read, the card itself lies whole at one end of the outline
    (``top_card``: the card's outline there, or None; :func:`top_card_within`). A suit
    twin read at the card's own index is that index misread (:func:`not_read_whole`), no
    card."""
    labels = whole.label.copy()
    quads = whole.quad_xy.copy()
    for i in range(len(whole)):
        name = whole.label[i]
        if name is None:
            continue
        quad = whole.quad_xy[i].reshape(-1, 1, 2)
        on = [r for r in readings if cv2.pointPolygonTest(quad, r.index_xy, False) >= 0]
        if any(r.card == name for r in on):
            continue
        if len({r.card for r in on if not _own_twin(name, whole.quad_xy[i], r)}) >= PILE_CARDS:
            top = top_card(whole.quad_xy[i], name)
            if top is None:
                labels[i] = None
            else:
                quads[i] = top
    if all(a is b for a, b in zip(labels, whole.label, strict=True)) and np.array_equal(quads, whole.quad_xy):
        return whole
    return dataclasses.replace(whole, label=labels).with_quads(quads)


# a pile's outline within this share of a card's length of the card itself has no end to
# look at apart (:func:`top_card_within`)
TOP_CARD_SLACK = 0.05


def top_card_within(classifier: Any, bgr: BgrImage, quad: FloatArray, name: Card) -> FloatArray | None:
    """The outline of the card ``name`` lying whole at one end of a pile's outline ``quad``
    (the outline's short side one side of the card, its long or its short one), when
    ``classifier`` reads the card there; else None. A column's top card lies at one end of
    the column, a hand's card at one end of the hand."""
    q = np.asarray(quad, np.float64)
    across, down = float(np.hypot(*(q[1] - q[0]))), float(np.hypot(*(q[3] - q[0])))
    long_side, short_side = max(across, down), min(across, down)
    candidates = []
    for length in (CARD_ASPECT * short_side, short_side / CARD_ASPECT):  # the card lengthwise, crosswise
        share = length / max(long_side, 1e-6)
        if share >= 1.0 - TOP_CARD_SLACK:
            continue  # the card is the whole outline: nothing to look at apart
        for start in (0.0, 1.0 - share):
            s0, s1, t0, t1 = (start, start + share, 0.0, 1.0) if across >= down else (0.0, 1.0, start, start + share)
            rect = np.array([_bilinear(q, s, t) for s, t in ((s0, t0), (s1, t0), (s1, t1), (s0, t1))], np.float32)
            if (s1 - s0) * across > (t1 - t0) * down:
                rect = np.roll(rect, -1, axis=0)  # a card lying across: its own top-left first
            candidates.append(rect)
    readings = classifier.classify(list(rectify_cards(bgr, np.stack(candidates))))
    found = [rect for rect, r in zip(candidates, readings, strict=True) if r.label == name]
    return found[0] if found else None


def _bilinear(q: npt.NDArray[np.float64], s: float, t: float) -> tuple[float, float]:
    """The point at (``s``, ``t``) of the quad ``q`` (0..1 from its first corner along its
    first side, then along its last)."""
    p = (1 - s) * (1 - t) * q[0] + s * (1 - t) * q[1] + s * t * q[2] + (1 - s) * t * q[3]
    return float(p[0]), float(p[1])


def not_read_whole(readings: Sequence[CornerReading], whole: CardDetections) -> list[CornerReading]:
    """The ``readings`` that are no index of a card read ``whole``: neither one of that card
    lying on it nor one of its suit twin at its own index (:func:`with_corner_cards`)."""
    return [r for r in readings if not any(
        (whole.label[i] == r.card and _on(whole.quad_xy[i], r.index_xy))
        or _own_twin(whole.label[i], whole.quad_xy[i], r)
        for i in range(len(whole)))]


def _own_twin(name: Card | None, quad: FloatArray, reading: CornerReading) -> bool:
    """Whether ``reading`` names the suit twin of the card ``name`` read whole on ``quad`` at
    that card's own index: its own index, its small suit misread."""
    return _is_twin(name, reading.card) and at_own_index(quad, reading.proposal)


# a reading lies at a card's own index when its rank is within this share of the card's
# width of where that card's rank lies (RANK_XY in its corner box) and it reads the same
# way up within OWN_INDEX_TURN degrees: designs place their index a little differently, a
# column's next card lies a fifth of a card's width or more further on
OWN_INDEX_REACH = 0.1
OWN_INDEX_TURN = 30.0


def at_own_index(quad: FloatArray, proposal: CornerProposal) -> bool:
    """Whether ``proposal`` (a pair of glyphs) lies where the card of outline ``quad`` (4 x 2,
    top-left first, clockwise) prints an index: at its top-left corner, upright, or at its
    bottom-right, upside down.

    >>> quad = np.array([[0, 0], [200, 0], [200, 280], [0, 280]], np.float32)
    >>> p = CornerProposal((18.0, 25.0), (0.0, 1.0), 1.0)
    >>> at_own_index(quad, p), at_own_index(quad + [0, 60], p)
    (True, False)
    """
    q = np.asarray(quad, np.float64)
    across, down = (q[1] - q[0]) / RECT_W, (q[3] - q[0]) / RECT_H
    width = float(np.hypot(*(q[1] - q[0])))
    rank = np.asarray(proposal.rank_xy, np.float64)
    heading = np.asarray(proposal.down, np.float64)
    for corner, sign in ((q[0], 1.0), (q[2], -1.0)):
        own = corner + sign * (RANK_XY[0] * across + RANK_XY[1] * down)
        way = sign * down / max(float(np.hypot(*down)), 1e-9)
        if (np.hypot(*(rank - own)) <= OWN_INDEX_REACH * width
                and float(heading @ way) >= np.cos(np.radians(OWN_INDEX_TURN))):
            return True
    return False


def _is_twin(a: Card | None, b: Card) -> bool:
    return a is not None and a.rank == b.rank and a.suit == b.suit.twin


def _on(quad: FloatArray, xy: tuple[float, float]) -> bool:
    centre = quad.mean(axis=0)
    grown = (centre + 1.1 * (quad - centre)).astype(np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(grown, xy, False) >= 0
