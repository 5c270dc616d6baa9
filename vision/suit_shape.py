"""The shapes of an enrolled deck's own suit glyphs: tell a club from a spade, a heart from a
diamond, by the pips and index suits of the card itself.

A 5 of clubs and a 5 of spades of one deck differ only in the shape of their pips, a small
part of the face: the network and the whole-print duel (:mod:`vision.deck_print`, a pip a few
px wide at its resolution) can agree on the wrong one of the two. Two votes, at the rectified
card's full resolution, each > 0 for the suit read and < 0 for its twin:

- :meth:`SuitShapes.margin`, the glyphs' *shapes*: at enrolment every glyph (a blob of ink:
  a pip, an index suit, a rank digit) of the deck's number cards is kept, per suit, as a mask
  at a normalised size (its box's longer side scaled to GLYPH_PX, centred, both ways up);
  glyphs both suits of a colour have alike (the digits) are set apart. At read time each
  glyph of the card that is like a suit glyph of the deck (best soft IoU >= MIN_LIKE) and
  more like a suit's than a digit votes for the suit whose glyphs it overlaps more: the
  difference of its two best overlaps, weighted by its size.
- :meth:`SuitShapes.print_margin`, the glyphs *in place*: each glyph of the enrolled card read
  that its twin does not share is looked for near its enrolled place in the card, and the
  card's ink there is correlated with the card's own glyph and with its twin's.

The ink is found as in the print: against the card's own paper (a max filter wider than a
pip), so a shadow or a warm lamp cancels, and as the darkest channel's ratio, so red pips
count as ink like black ones.

>>> import numpy as np, cv2
>>> def card(shape):
...     c = np.full((280, 200, 3), 235, np.uint8)
...     for x, y in ((60, 80), (140, 80), (100, 140), (60, 200), (140, 200)):
...         if shape == "square":
...             cv2.rectangle(c, (x - 12, y - 12), (x + 12, y + 12), (20, 20, 20), -1)
...         else:
...             cv2.circle(c, (x, y), 13, (20, 20, 20), -1)
...     return c
>>> shapes = SuitShapes.build([card("square"), card("disc")], ["5S", "5C"])
>>> round(shapes.margin(card("disc"), "5C"), 2) > 0.1, round(shapes.margin(card("disc"), "5S"), 2) < -0.1
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

__all__ = ["SuitShapes", "glyphs", "TWIN"]

FloatArray = npt.NDArray[np.float32]

TWIN = {"C": "S", "S": "C", "H": "D", "D": "H"}  # the suit of the same colour
GLYPH_PX = 20  # a glyph's mask: its box's longer side scaled to this, centred in a square
PAPER_PX = 41  # the paper is found by a max filter this wide (px of the rectified card): wider than a pip
MIN_INK = 0.25  # a pixel is ink when it is this much darker than its paper (its darkest channel) ...
INK_SHARE = 0.45  # ... and at least this share of the card's strong ink (its 99.5th percentile)
MIN_AREA = 12  # px of the rectified card: smaller blobs are noise
MIN_LIKE = 0.55  # a glyph votes when its best overlap with either suit's glyphs is at least this
SHARED = 0.85  # an enrolled glyph this like one of the twin suit's (a rank digit) is dropped
EDGE_PX = 4
# the second vote (SuitShapes.print_margin): each glyph of the card read, with PATCH_PAD px of
# paper, is looked for within SEARCH_PX of its enrolled place (the rectifier is a few % off),
# and compared with the twin's ink at the same place; a glyph the twin has alike (a rank digit,
# correlation >= SAME_PLACE) votes for neither
PATCH_PAD = 3
SEARCH_PX = 10
SAME_PLACE = 0.9
  # blobs touching the crop's border (the table, a neighbour) are not glyphs


def _ink(card: npt.NDArray[np.uint8]) -> FloatArray:
    """How much darker than its paper each pixel is in its darkest channel: [H, W], 0..1."""
    x = card.astype(np.float32) + 4.0
    small = cv2.resize(x, (card.shape[1] // 2, card.shape[0] // 2), interpolation=cv2.INTER_AREA)
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (PAPER_PX // 2 | 1, PAPER_PX // 2 | 1))
    paper = cv2.GaussianBlur(cv2.dilate(small, k), (0, 0), PAPER_PX / 8)
    paper = cv2.resize(paper, (card.shape[1], card.shape[0]), interpolation=cv2.INTER_LINEAR)
    ratio = np.minimum(x / np.maximum(paper, 1.0), 1.0)
    return np.asarray(1.0 - ratio.min(axis=2), np.float32)


def _blobs(ink: FloatArray) -> tuple[npt.NDArray[np.int32], list[tuple[int, int, int, int, int]]]:
    """The glyph blobs of a card's ink: the label image and each glyph's (label, x, y, w, h);
    not noise (MIN_AREA), not touching the crop's border (the table, a neighbour), not court
    art or a frame line (longer than 0.3 of the card's width), not a scratch (< 3 px)."""
    strong = float(np.percentile(ink, 99.5))
    binary = (ink >= max(MIN_INK, INK_SHARE * strong)).astype(np.uint8)
    n, lab, stats, _ = cv2.connectedComponentsWithStats(binary, connectivity=8)
    h, w = binary.shape
    out = []
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        if area < MIN_AREA or x < EDGE_PX or y < EDGE_PX or x + bw > w - EDGE_PX or y + bh > h - EDGE_PX:
            continue
        if max(bw, bh) > 0.3 * w or min(bw, bh) < 3:
            continue
        out.append((i, x, y, bw, bh))
    return np.asarray(lab, np.int32), out


def glyphs(card: npt.NDArray[np.uint8]) -> tuple[FloatArray, FloatArray]:
    """The glyphs of a rectified BGR card: their masks [G, GLYPH_PX, GLYPH_PX] (0..1) and
    their sizes [G] (the box's longer side, px)."""
    lab, blobs = _blobs(_ink(card))
    masks: list[FloatArray] = []
    sizes: list[float] = []
    for i, x, y, bw, bh in blobs:
        side = max(bw, bh)
        square = np.zeros((side, side), np.float32)
        oy, ox = (side - bh) // 2, (side - bw) // 2
        square[oy:oy + bh, ox:ox + bw] = lab[y:y + bh, x:x + bw] == i
        masks.append(cv2.resize(square, (GLYPH_PX, GLYPH_PX), interpolation=cv2.INTER_AREA))
        sizes.append(float(side))
    if not masks:
        return np.zeros((0, GLYPH_PX, GLYPH_PX), np.float32), np.zeros(0, np.float32)
    return np.stack(masks).astype(np.float32), np.asarray(sizes, np.float32)


def _overlap(a: FloatArray, b: FloatArray) -> FloatArray:
    """Soft IoU of each mask of ``a`` [A, D] with each of ``b`` [B, D]: [A, B]."""
    inter = np.minimum(a[:, None, :], b[None, :, :]).sum(axis=-1)
    union = np.maximum(a[:, None, :], b[None, :, :]).sum(axis=-1)
    return np.asarray(inter / np.maximum(union, 1e-6), np.float32)


@dataclass(frozen=True)
class SuitShapes:
    """The enrolled deck's glyph masks by suit: ``masks[suit]`` [M, GLYPH_PX * GLYPH_PX] (each
    glyph both ways up), the glyphs both suits share, and the enrolled crops (for
    :meth:`print_margin`)."""

    masks: dict[str, FloatArray]
    crops: dict[str, npt.NDArray[np.uint8]] = field(default_factory=dict)  # the enrolled crop of each card
    # the glyphs both suits of a colour have alike (rank digits): a glyph more like one of these
    # than like either suit's own glyphs votes for neither
    shared: FloatArray = field(default_factory=lambda: np.zeros((0, GLYPH_PX * GLYPH_PX), np.float32))
    _pairs: dict[str, list[tuple[tuple[int, int, int, int], FloatArray, FloatArray]]] = field(
        default_factory=dict, repr=False, compare=False)  # the glyph patches of each card and its twin, made once

    @classmethod
    def build(cls, crops: Sequence[npt.NDArray[np.uint8]], labels: Sequence[str]) -> SuitShapes:
        """From the enrolled crops of one deck (labels ``5C``...): the glyphs of its number cards
        (2 to 10) by suit, less those the twin suit has alike (kept apart, as ``shared``)."""
        masks: dict[str, list[FloatArray]] = {}
        for crop, label in zip(crops, labels):
            suit, rank = label[-1:], label[:-1]
            if suit not in TWIN or rank not in {"2", "3", "4", "5", "6", "7", "8", "9", "10"}:
                continue
            for m in glyphs(crop)[0]:
                masks.setdefault(suit, []).extend([m.reshape(-1), m[::-1, ::-1].reshape(-1)])
        stacked = {k: np.stack(v).astype(np.float32) for k, v in masks.items()}
        kept: dict[str, FloatArray] = {}
        shared: list[FloatArray] = []
        for suit, twin in TWIN.items():  # a glyph both suits have (a rank digit) tells them not apart
            if suit in stacked:
                keep = (_overlap(stacked[suit], stacked[twin]).max(axis=1) < SHARED if twin in stacked
                        else np.ones(len(stacked[suit]), bool))
                kept[suit] = stacked[suit][keep]
                shared.append(stacked[suit][~keep])
        return cls(kept, {str(label): crop for crop, label in zip(crops, labels)},
                   np.concatenate(shared) if shared else np.zeros((0, GLYPH_PX * GLYPH_PX), np.float32))

    def knows(self, label: str) -> bool:
        """Whether the glyphs of ``label``'s suit and of its twin were enrolled."""
        suit = label[-1:]
        return suit in TWIN and suit in self.masks and TWIN[suit] in self.masks

    def votes(self, card: npt.NDArray[np.uint8], label: str) -> tuple[FloatArray, FloatArray]:
        """Each glyph's vote for the suit of ``label`` against its twin (its best overlap with
        the one suit's glyphs less the other's) and its weight (its size; 0 when it looks like
        no suit glyph of the deck): ([G], [G])."""
        suit = label[-1:]
        twin = TWIN.get(suit)
        if twin is None or suit not in self.masks or twin not in self.masks:
            return np.zeros(0, np.float32), np.zeros(0, np.float32)
        g, s = glyphs(card)
        if len(g) == 0:
            return np.zeros(0, np.float32), np.zeros(0, np.float32)
        flat = g.reshape(len(g), -1)
        mine = _overlap(flat, self.masks[suit]).max(axis=1)
        theirs = _overlap(flat, self.masks[twin]).max(axis=1)
        digit = _overlap(flat, self.shared).max(axis=1) if len(self.shared) else np.zeros(len(flat), np.float32)
        weight = np.where((np.maximum(mine, theirs) >= MIN_LIKE) & (np.maximum(mine, theirs) > digit), s, 0.0
                          ).astype(np.float32)
        return np.asarray(mine - theirs, np.float32), weight

    def margin(self, card: npt.NDArray[np.uint8], label: str) -> float:
        """The glyphs' weighted mean vote for ``label``'s suit against its twin (0: no evidence)."""
        vote, weight = self.votes(card, label)
        total = float(weight.sum())
        return float((vote * weight).sum() / total) if total > 0 else 0.0

    def _patches(self, label: str) -> list[tuple[tuple[int, int, int, int], FloatArray, FloatArray]]:
        """The boxes (x0, y0, x1, y1) of the glyphs of ``label``'s enrolled crop that differ from
        its twin's at the same place, with the ink of both there (made once, on first use)."""
        if label not in self._pairs:
            twin = label[:-1] + TWIN[label[-1]]
            mine, theirs = _ink(self.crops[label]), _ink(self.crops[twin])
            out = []
            for x0, y0, x1, y1 in _boxes(mine):
                a, b = mine[y0:y1, x0:x1].copy(), theirs[y0:y1, x0:x1].copy()
                if float(a.std()) > 1e-3 and float(b.std()) > 1e-3 and \
                        float(cv2.matchTemplate(a, b, cv2.TM_CCOEFF_NORMED)[0, 0]) >= SAME_PLACE:
                    continue  # the same glyph in both (a rank digit): it votes for neither
                out.append(((x0, y0, x1, y1), a, b))
            self._pairs[label] = out
        return self._pairs[label]

    def print_margin(self, card: npt.NDArray[np.uint8], label: str) -> float | None:
        """How much better the card's ink fits ``label``'s own enrolled glyphs than its twin's,
        each glyph found within SEARCH_PX of its enrolled place (normalised correlation, the
        card either way up: the way both fit better), weighted by the glyph's area; None when
        the twin was not enrolled."""
        twin = label[:-1] + TWIN.get(label[-1:], "?")
        if label not in self.crops or twin not in self.crops:
            return None
        patches = self._patches(label)
        ink = _ink(card)
        h, w = ink.shape
        best: tuple[float, float] | None = None
        for img in (ink, np.ascontiguousarray(ink[::-1, ::-1])):
            fit = vote = weight = 0.0
            for (x0, y0, x1, y1), mine, theirs in patches:
                region = img[max(0, y0 - SEARCH_PX):min(h, y1 + SEARCH_PX),
                             max(0, x0 - SEARCH_PX):min(w, x1 + SEARCH_PX)]
                if float(region.std()) < 1e-3:
                    continue
                a, b = (float(cv2.matchTemplate(region, t, cv2.TM_CCOEFF_NORMED).max()) if float(t.std()) > 1e-3
                        else 0.0 for t in (mine, theirs))
                fit += max(a, b)
                vote += (a - b) * mine.size
                weight += mine.size
            if weight > 0 and (best is None or fit > best[0]):
                best = (fit, vote / weight)
        return 0.0 if best is None else best[1]


def _boxes(ink: FloatArray) -> list[tuple[int, int, int, int]]:
    """The boxes (x0, y0, x1, y1) of the glyphs of a clean crop's ink, PATCH_PAD px wider each way."""
    h, w = ink.shape
    return [(max(0, x - PATCH_PAD), max(0, y - PATCH_PAD), min(w, x + bw + PATCH_PAD), min(h, y + bh + PATCH_PAD))
            for _, x, y, bw, bh in _blobs(ink)[1]]
