"""Corner boxes for training the index reader (:mod:`models.index_net`), seeded.

A sample is what :func:`vision.corners.read_corners` hands the reader at run time: a corner
box cut by :func:`vision.corners.corner_boxes` (the run-time function itself) around a
:class:`vision.corners.CornerProposal`. Each scene is one card of a rendered design lying
at any turn on a procedural table (:class:`models.synth.TextureBank`), small (the index
8-44 px tall, and in :data:`SMALL_SHARE` of the scenes 11-19 px, the size real photos show
most), printed on paper that need not be white, sometimes under another card of its deck
(an overlapped column, a fanned row, or a card lying over its top corner), sometimes dim or
out of focus, then spoiled by :func:`models.synth.augment_photo` (light, white balance,
gamma, blur, noise, JPEG). From each scene come:

- positives: each index of the card that shows (covered under :data:`COVERED_OK`), cut at
  the proposer's own anchor (where :func:`vision.corners.propose_corners` puts the rank and
  suit of that design's index, measured once per card on a clean render) with the
  proposer's errors (scale 0.85-1.2, a shift of a few box pixels, a small turn), and the
  proposer's own proposals on the spoiled scene that land on an index;
- negatives ("no index"): the proposer's other proposals (pairs of pips, court art, table
  grain, a pair taken the wrong way up), an index covered by the other card, boxes shifted
  off the anchor or half off the card, and boxes anywhere on the scene.

Labels: rank 0-12 (A..K), suit 0-3 (``engine.cards`` order), -1 for a negative.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from engine.cards import Card
from models.synth import AugmentConfig, TextureBank, augment_photo, ink_variant
from vision.corner_proposals import _PAIR_BOX as _PAIR
from vision.corner_proposals import INDEX_SHARE, RANK_XY, CornerProposal, glyph_px_of, propose_corners
from vision.corners import corner_boxes
from vision.fans import paint_outside
from vision.preprocess import CORNER_H, CORNER_W, RECT_H

__all__ = ["CARD_PX", "INDEX_SHARE", "MIN_FOUND", "IndexSet", "card_anchors", "found_anchors", "make_index_set",
           "paint_beside_index"]

Design = dict[str, np.ndarray]
CARD_LABELS = tuple(str(Card.from_index(i)) for i in range(52))
COVERED_OK = 0.12  # an index this much covered still reads (a positive)
COVERED_GONE = 0.45  # covered this much it is no index (a negative); in between: not used
MAX_SCENE = (320, 240)  # augment_photo's noise bank bounds a scene (h, w)
PHOTO = AugmentConfig(min_scale=1.0, max_noise=12.0, jpeg_quality=(30, 95))
CARD_PX = (42.0, 230.0)  # card heights in the scenes: the index (about 19 % of it) 8-44 px tall
# Real photos show most indices 12-18 px tall (a fanned hand on a 1200 px photo, a webcam's
# table), where the reader is least sure: this share of the scenes draws the card from
# SMALL_PX (an index of 11-19 px) instead of the whole of CARD_PX.
SMALL_PX = (60.0, 100.0)
SMALL_SHARE = 0.4
P_TONE = 0.35  # cards printed on cream or grey paper, or lit warm: the paper is not white in a photo
P_DIM = 0.2  # a dim room: the scene darkened before the camera's noise and JPEG, which then weigh more
P_SOFT = 0.2  # a card out of focus: blurred before the camera's own blur and JPEG
MIN_FOUND = 13  # a design whose indices the proposer finds on fewer clean cards has no index it proposes
# The index's glyph area in box pixels (x0, y0, x1, y1): what a covering card must leave
INDEX_AREA = (4.0, 8.0, 34.0, 76.0)
# The index's column in a cut box (CORNER_W x CORNER_H pixels): its glyphs lie left of
# BESIDE_X and above BELOW_Y (the whole of a "10" at the largest view); the rest of the box
# is the card's face or a neighbour's ink
BESIDE_X = 20
BELOW_Y = 46
PAPER_PERCENTILE = 80  # the paper's colour in a box: this percentile of its index column


@dataclass(frozen=True)
class IndexSet:
    """Boxes uint8 [N, CORNER_H, CORNER_W, 3] (BGR), ``rank`` and ``suit`` [N] (-1: no index),
    ``height`` [N]: the index's height in image pixels (rank top to suit bottom, roughly)."""

    boxes: np.ndarray
    rank: np.ndarray
    suit: np.ndarray
    height: np.ndarray

    @staticmethod
    def concat(parts: list[IndexSet]) -> IndexSet:
        return IndexSet(*(np.concatenate([getattr(p, f) for p in parts]) for f in ("boxes", "rank", "suit", "height")))


def found_anchors(design: Design) -> dict[str, tuple[float, float, float]]:
    """The cards of ``design`` whose top-left index the proposer finds on a clean render:
    where it anchors it, as the rank's centre (x, y) and the box scale, all in units of the
    card's height.

    The proposer puts the rank glyph's centroid at :data:`vision.corners.RANK_XY` and sizes
    the box by the rank-to-suit distance, whatever the design."""
    found: dict[str, tuple[float, float, float]] = {}
    for label in CARD_LABELS:
        card = design[label]
        h, w = card.shape[:2]
        pad = 24
        canvas = np.full((h + 2 * pad, w + 2 * pad, 3), 90, np.uint8)
        alpha = card[:, :, 3:4].astype(np.float32) / 255
        region = canvas[pad:pad + h, pad:pad + w].astype(np.float32)
        canvas[pad:pad + h, pad:pad + w] = (card[:, :, :3] * alpha + region * (1 - alpha)).astype(np.uint8)
        best, best_d = None, 0.12 * h
        for p in propose_corners(canvas, glyph_px=(0.03 * h, 0.16 * h)):
            if p.down[1] < 0.95:
                continue
            x, y = p.rank_xy[0] - pad, p.rank_xy[1] - pad
            if not (0 <= x < 0.3 * w and 0 <= y < 0.3 * h and 0.6 <= p.scale * RECT_H / h <= 1.6):
                continue
            d = math.hypot(x - RANK_XY[0] / RECT_H * h, y - RANK_XY[1] / RECT_H * h)
            if d < best_d:
                best, best_d = (x / h, y / h, p.scale / h), d
        if best is not None:
            found[label] = best
    return found


def card_anchors(design: Design, found: dict[str, tuple[float, float, float]] | None = None
                 ) -> dict[str, tuple[float, float, float]]:
    """For each card of ``design``: where the proposer anchors its top-left index
    (:func:`found_anchors`, measured unless given as ``found``).

    A design prints every index alike, so a card whose proposal is missing or strays from
    the design's median (a rank paired with a pip, a "10" split in two) takes the median; a
    design with fewer than :data:`MIN_FOUND` proposals falls back to the standard index
    place (such a design is no use for training: see :data:`MIN_FOUND`)."""
    if found is None:
        found = found_anchors(design)
    if len(found) < MIN_FOUND:
        median = (RANK_XY[0] / RECT_H, RANK_XY[1] / RECT_H, 1.0 / RECT_H)
    else:
        median = tuple(float(v) for v in np.median(np.array(list(found.values())), axis=0))  # type: ignore[assignment]
    out = {}
    for label in CARD_LABELS:
        a = found.get(label)
        pair = _PAIR * median[2]
        ok = a is not None and 0.87 <= a[2] / median[2] <= 1.15 and math.hypot(a[0] - median[0], a[1] - median[1]) <= 0.3 * pair
        out[label] = a if ok and a is not None else median
    return out


def _warp_card(card: np.ndarray, height: float, turn_deg: float, centre: tuple[float, float]
               ) -> tuple[np.ndarray, np.ndarray]:
    """The card shrunk smoothly to ``height`` px, then an affine map (2 x 3) from the
    shrunk card's pixels to the scene turned ``turn_deg`` about the card's centre."""
    h, w = card.shape[:2]
    k = height / h
    small = cv2.resize(card, (max(2, round(w * k)), max(2, round(h * k))), interpolation=cv2.INTER_AREA)
    sh, sw = small.shape[:2]
    c, s = math.cos(math.radians(turn_deg)), math.sin(math.radians(turn_deg))
    rot = np.array([[c, -s], [s, c]])
    m = np.zeros((2, 3))
    m[:, :2] = rot
    m[:, 2] = np.array(centre) - rot @ np.array([sw / 2, sh / 2])
    return small, m


def _paste(scene: np.ndarray, small: np.ndarray, m: np.ndarray) -> np.ndarray:
    """Lay ``small`` (BGRA) over ``scene`` through ``m``; returns the card's coverage mask."""
    size = (scene.shape[1], scene.shape[0])
    warped = cv2.warpAffine(small, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                            borderValue=(0, 0, 0, 0))
    alpha = warped[:, :, 3:4].astype(np.float32) / 255
    scene[:] = (warped[:, :, :3] * alpha + scene * (1 - alpha)).astype(np.uint8)
    return alpha[:, :, 0]


def _proposal(card_m: np.ndarray, k: float, anchor: tuple[float, float, float], card_h: float, card_w: float,
              far: bool) -> CornerProposal:
    """The proposal of the card's top-left index (or, ``far``, its bottom-right one turned
    180 degrees), in scene pixels, for a card of ``card_h`` x ``card_w`` source pixels shrunk by ``k``."""
    ax, ay, scale = anchor[0] * card_h, anchor[1] * card_h, anchor[2] * card_h
    down = np.array([0.0, 1.0])
    if far:
        ax, ay, down = card_w - ax, card_h - ay, -down
    xy = card_m @ np.array([ax * k, ay * k, 1.0])
    d = card_m[:, :2] @ down
    return CornerProposal((float(xy[0]), float(xy[1])), (float(d[0]), float(d[1])), float(scale * k))


def _jitter(rng: np.random.Generator, p: CornerProposal, scale: tuple[float, float], shift: float, turn: float
            ) -> CornerProposal:
    s = float(rng.uniform(*scale))
    a = math.radians(float(rng.normal(0, turn)))
    c, t = math.cos(a), math.sin(a)
    down = (c * p.down[0] - t * p.down[1], t * p.down[0] + c * p.down[1])
    right = (down[1], -down[0])
    dx, dy = rng.normal(0, shift, 2) * p.scale
    xy = (p.rank_xy[0] + dx * right[0] + dy * down[0], p.rank_xy[1] + dx * right[1] + dy * down[1])
    return CornerProposal(xy, down, p.scale * s)


def _covered(p: CornerProposal, mask: np.ndarray) -> float:
    """The share of the index area of ``p`` under a covering card (``mask`` of that card)."""
    m = p.box_to_image()
    xs, ys = np.meshgrid(np.linspace(INDEX_AREA[0], INDEX_AREA[2], 6), np.linspace(INDEX_AREA[1], INDEX_AREA[3], 8))
    pts = m @ np.stack([xs.ravel(), ys.ravel(), np.ones(xs.size)])
    x, y = np.round(pts[0]).astype(int), np.round(pts[1]).astype(int)
    inside = (x >= 0) & (y >= 0) & (x < mask.shape[1]) & (y < mask.shape[0])
    cov = np.zeros(x.shape)
    cov[inside] = mask[y[inside], x[inside]]
    return float(cov.mean())


def _same(p: CornerProposal, q: CornerProposal, shift: float, turn_deg: float, scale: float) -> bool:
    """Whether ``p`` lies within ``shift`` box px, ``turn_deg`` and a factor ``scale`` of ``q``."""
    d = math.hypot(p.rank_xy[0] - q.rank_xy[0], p.rank_xy[1] - q.rank_xy[1]) / q.scale
    cos = p.down[0] * q.down[0] + p.down[1] * q.down[1]
    return d <= shift and cos >= math.cos(math.radians(turn_deg)) and 1 / scale <= p.scale / q.scale <= scale


def _scene(rng: np.random.Generator, bank: TextureBank, design: Design, anchors: dict[str, tuple[float, float, float]],
           label: str, card_px: tuple[float, float]) -> tuple[np.ndarray, list[tuple[CornerProposal, float]], float]:
    """One spoiled scene: the card's two index proposals with how covered each is, and the
    index height in px."""
    card = ink_variant(rng, design[label])
    if rng.random() < P_TONE:
        card = card.copy()
        tone = np.array([rng.uniform(0.78, 0.97), rng.uniform(0.88, 1.0), rng.uniform(0.95, 1.0)])
        card[:, :, :3] = (card[:, :, :3] * tone).astype(np.uint8)
    card_h_px = float(np.exp(rng.uniform(math.log(card_px[0]), math.log(card_px[1]))))
    k = card_h_px / card.shape[0]
    turn = float(rng.uniform(0, 360)) if rng.random() < 0.6 else float(rng.normal(0, 8) + 90 * rng.integers(4))
    sh, sw = MAX_SCENE
    scene = bank.crop(rng, sh, sw)
    # the card's top-left index somewhere in the middle of the scene
    anchor = anchors[label]
    small, m = _warp_card(card, card_h_px, turn, (0.0, 0.0))
    idx = _proposal(m, 1.0, anchor, small.shape[0], small.shape[1], far=False)
    target = (rng.uniform(0.3, 0.7) * sw, rng.uniform(0.3, 0.7) * sh)
    m[:, 2] += np.array(target) - np.array(idx.rank_xy)
    _paste(scene, small, m)
    props = [_proposal(m, 1.0, anchor, small.shape[0], small.shape[1], far) for far in (False, True)]
    cover = np.zeros(scene.shape[:2], np.float32)
    r = rng.random()
    if r < 0.5:  # another card of the deck over this one
        other = design[CARD_LABELS[int(rng.integers(52))]]
        where = rng.random()
        spread = 12.0 if 0.45 <= where < 0.7 else 6.0  # a fanned hand turns each card on from the last
        o_small, om = _warp_card(other, card_h_px * rng.uniform(0.97, 1.03), turn + float(rng.normal(0, spread)),
                                 (0.0, 0.0))
        oh, ow = o_small.shape[:2]
        if where < 0.45:  # further down the column: the top index shows, or just about
            off = (rng.uniform(-0.15, 0.25) * ow, rng.uniform(0.12, 0.8) * oh)
        elif where < 0.7:  # further right in a row
            off = (rng.uniform(0.12, 0.8) * ow, rng.uniform(-0.15, 0.2) * oh)
        else:  # lying over the top corner: the index covered, or cut by the edge
            off = (rng.uniform(-0.9, 0.3) * ow, rng.uniform(-0.9, 0.1) * oh)
        om[:, 2] = m[:, 2] + m[:, :2] @ np.array(off)
        cover = np.maximum(cover, _paste(scene, o_small, om))
    if rng.random() < P_DIM:
        scene = (scene * rng.uniform(0.35, 0.65)).astype(np.uint8)
    if rng.random() < P_SOFT:  # as much as leaves the index readable to a person: a share of its height
        scene = cv2.GaussianBlur(scene, (0, 0), min(1.5, rng.uniform(0.04, 0.09) * card_h_px * INDEX_SHARE))
    scene = augment_photo(rng, scene, PHOTO)
    height = card_h_px * INDEX_SHARE
    return scene, [(p, _covered(p, cover)) for p in props], height


def _cut(scene: np.ndarray, props: list[CornerProposal]) -> np.ndarray:
    if not props:
        return np.zeros((0, CORNER_H, CORNER_W, 3), np.uint8)
    return corner_boxes(scene, props, ((1.0, 0.0, 0.0, 0.0),))[:, 0]


def paint_beside_index(boxes: np.ndarray, share: float, rng: np.random.Generator) -> np.ndarray:
    """A copy of ``boxes`` (uint8 [N, CORNER_H, CORNER_W, 3]) where about ``share`` of them have
    everything beside and below the index's column painted the box's paper colour.

    In a tight fan or column the next card's index stands inside the box, and a reader taught
    only on boxes with their context reads it with the index (a 3C beside a 4C as 5C). Taught
    also on boxes where that context is gone, it must read the rank and suit from the column
    alone. Positives and negatives are painted alike, so a painted box is no sign of an index.

    >>> box = np.full((2, 56, 40, 3), 250, np.uint8); box[:, 10:20, 30:35] = 0  # ink beside
    >>> out = paint_beside_index(box, 1.0, np.random.default_rng(0))
    >>> int(out[:, :, BESIDE_X:].min()), int(box[:, :, BESIDE_X:].min())
    (250, 0)
    """
    out = boxes.copy()
    which = np.flatnonzero(rng.random(len(out)) < share)
    if len(which):
        column = np.zeros(boxes.shape[1:3], bool)
        column[:BELOW_Y, :BESIDE_X] = True
        out[which] = paint_outside(boxes[which], column, PAPER_PERCENTILE)
    return out


def make_index_set(designs: list[Design], anchors: list[dict[str, tuple[float, float, float]]], scenes: int,
                   seed: int, proposer_negatives: int = 3, card_px: tuple[float, float] = CARD_PX,
                   small_share: float = SMALL_SHARE) -> IndexSet:
    """Boxes from ``scenes`` scenes of the ``designs`` (seeded; see the module docstring),
    the cards ``card_px`` tall (drawn log-uniform), or for ``small_share`` of the scenes
    :data:`SMALL_PX` tall."""
    rng = np.random.default_rng(seed)
    bank = TextureBank(seed=int(rng.integers(2**31)), count=24)
    boxes, ranks, suits, heights = [], [], [], []

    def add(scene: np.ndarray, props: list[CornerProposal], card: Card | None, height: float) -> None:
        if not props:
            return
        boxes.append(_cut(scene, props))
        ranks.extend([card.rank - 1 if card else -1] * len(props))
        suits.extend([card.suit.index if card else -1] * len(props))
        heights.extend([height] * len(props))

    for _ in range(scenes):
        d = int(rng.integers(len(designs)))
        label = CARD_LABELS[int(rng.integers(52))]
        card = Card.parse(label)
        px = SMALL_PX if rng.random() < small_share else card_px
        scene, truth, height = _scene(rng, bank, designs[d], anchors[d], label, px)
        shows = [p for p, c in truth if c <= COVERED_OK]
        gone = [p for p, c in truth if c >= COVERED_GONE]
        pos = [_jitter(rng, p, (0.85, 1.2), 1.5, 4.0) for p in shows]
        neg = [_jitter(rng, p, (0.85, 1.2), 1.5, 4.0) for p in gone if rng.random() < 0.7]
        for p in shows:  # off the anchor: the glyphs are not where an index's are
            if rng.random() < 0.4:
                q = _jitter(rng, p, (0.7, 1.5), 0.0, 4.0)
                ang = rng.uniform(0, 2 * math.pi)
                dist = rng.uniform(14, 40)
                q = CornerProposal((q.rank_xy[0] + dist * q.scale * math.cos(ang), q.rank_xy[1] + dist * q.scale * math.sin(ang)),
                                   q.down, q.scale)
                neg.append(q)
            if rng.random() < 0.25:  # the right glyphs the wrong way up
                neg.append(CornerProposal(p.rank_xy, (-p.down[0], -p.down[1]), p.scale * rng.uniform(0.85, 1.2)))
        found = propose_corners(scene, glyph_px=glyph_px_of(height), max_proposals=400)
        other = []
        for p in found:
            near = [t for t, c in truth if _same(p, t, 12.0, 30.0, 1.5)]
            if not near:
                other.append(p)
            elif any(_same(p, t, 4.0, 12.0, 1.2) for t, c in truth if c <= COVERED_OK) and rng.random() < 0.5:
                pos.append(p)  # the proposer's own cut of a showing index
        for i in rng.permutation(len(other))[:proposer_negatives]:
            neg.append(other[int(i)])
        if rng.random() < 0.3:  # anywhere on the scene, at the card's size
            s = pos[0].scale if pos else truth[0][0].scale
            a = rng.uniform(0, 2 * math.pi)
            xy = (rng.uniform(0, scene.shape[1]), rng.uniform(0, scene.shape[0]))
            q = CornerProposal(xy, (math.cos(a), math.sin(a)), s * rng.uniform(0.7, 2.0))
            if not any(_same(q, t, 10.0, 40.0, 2.0) for t, _ in truth):
                neg.append(q)
        add(scene, pos, card, height)
        add(scene, neg, None, height)
    if not boxes:
        return IndexSet(np.zeros((0, CORNER_H, CORNER_W, 3), np.uint8), np.zeros(0, np.int64), np.zeros(0, np.int64),
                        np.zeros(0, np.float32))
    return IndexSet(np.concatenate(boxes), np.array(ranks, np.int64), np.array(suits, np.int64),
                    np.array(heights, np.float32))

