"""Cards under others with no index showing: reported, never silently dropped.

A card of an overlapped column or a pile may show a strip of its paper round the cards
on it and no index: nobody can read it, but everybody sees that a card lies there. The
paper that shows and that no card found explains is that card (:func:`cards_under`):

1. the paper: pixels as bright as the cards read (:data:`PAPER_OF_READ` of their own
   paper's brightness) and as grey, with the print on it (holes in it smaller than a
   card) filled;
2. the cards found (read or not; an index read alone stands for its whole card) are
   taken away, each grown a little (:data:`GROW`: an outline fitted short);
3. what stays, when mostly thicker than a fourteenth of a card's width (a sliver left by an
   outline fitted a little short, a glint, a white chip's rim are thinner), is a card
   under another when it is a card's size or less (:data:`AREA`), lies by a card found
   (under it, or under the card under it) and stays clear of the picture's edge (a pale
   table top reaches it, and is no card).

Its quad is the smallest rectangle round the paper that shows; it is reported with
``under`` set and no label. An outline found but not read that holds a card read (by its
index) is the outline of a pile, the card on top and the ones under it
(:func:`with_cards_under`): the pile's outline gives way to the cards under it.

>>> import numpy as np
>>> len(cards_under(np.full((90, 160, 3), 200, np.uint8), CardDetections.empty()))
0
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.geometry import card_width
from vision.readings import CardDetections

__all__ = ["cards_under", "with_cards_under"]

BgrImage = npt.NDArray[np.uint8]

PAPER_OF_READ = 0.82  # paper is at least this share of the brightness of the read cards' paper
MAX_SATURATION = 70  # HSV: paper is grey, whatever the light's tint
GROW = 1.03  # each card found is taken away grown by this (about its centre)
OPEN_SHARE = 0.07  # the opening's size, as a share of a card's width
THICK_SHARE = 0.4  # this share of the paper that shows must be thicker than the opening
AREA = (0.06, 1.1)  # a card under another shows this share of a card's area
TOUCH_SHARE = 0.5  # it lies within this share of a card's width of a card found
HOLE_SHARE = 0.6  # a hole in the paper smaller than this share of a card is print on it
EDGE_PX = 3  # paper this close to the picture's edge belongs to no card under another


def _filled(paper: npt.NDArray[np.bool_], max_hole_px: float) -> npt.NDArray[np.bool_]:
    """``paper`` with its holes filled: the print on a card (pips, a picture) is no table."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats((~paper).astype(np.uint8), connectivity=4)
    h, w = paper.shape
    x, y, bw, bh, area = (stats[:, k] for k in range(5))
    inside = (x > 0) & (y > 0) & (x + bw < w) & (y + bh < h) & (area <= max_hole_px)
    inside[0] = False
    return np.asarray(paper | inside[labels], bool)


def with_cards_under(bgr: BgrImage, found: CardDetections) -> CardDetections:
    """``found`` without the outlines of piles (an outline not read that holds the centre of
    a card read), and the cards under others after them (:func:`cards_under`)."""
    read = [i for i in range(len(found)) if found.label[i] is not None and not found.cut[i]]
    piles = [i for i in range(len(found)) if found.label[i] is None and not found.face_down[i] and not found.cut[i]
             and any(i != j and _holds(found.quad_xy[i], found.quad_xy[j]) for j in read)]
    kept = found[[i for i in range(len(found)) if i not in piles]]
    under = cards_under(bgr, kept)
    return CardDetections.concatenate([kept, under]) if len(under) else kept


def _holds(outer: npt.NDArray[np.float32], inner: npt.NDArray[np.float32]) -> bool:
    c = inner.mean(axis=0)
    return cv2.pointPolygonTest(outer.reshape(-1, 1, 2), (float(c[0]), float(c[1])), False) >= 0


def cards_under(bgr: BgrImage, found: CardDetections) -> CardDetections:
    """The cards under others that ``found`` leaves out (``under`` set, no label), from the
    paper that shows round the cards of ``found`` with none of them there."""
    read = [i for i in range(len(found)) if found.label[i] is not None and not found.cut[i]]
    if not read:
        return CardDetections.empty()
    h, w = bgr.shape[:2]
    card_w = float(np.median([card_width(found.quad_xy[i]) for i in read]))
    card_area = card_w * card_w * 88.0 / 63.0
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    sat = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)[..., 1]
    levels = []
    for i in read:
        mask = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(mask, np.round(found.quad_xy[i]).astype(np.int32), 1)
        values = grey[mask > 0]
        if values.size:
            levels.append(float(np.percentile(values, 80)))
    paper_level = float(np.median(levels))
    paper = _filled((grey >= PAPER_OF_READ * paper_level) & (sat <= MAX_SATURATION), HOLE_SHARE * card_area)
    explained = np.zeros((h, w), np.uint8)
    for quad in found.quad_xy:
        centre = quad.mean(axis=0)
        cv2.fillConvexPoly(explained, np.round(centre + GROW * (quad - centre)).astype(np.int32), 1)
    rest = (paper & (explained == 0)).astype(np.uint8)
    k = max(3, int(round(OPEN_SHARE * card_w)) | 1)
    thick = cv2.morphologyEx(rest, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))) > 0
    reach = max(3, int(round(TOUCH_SHARE * card_w)) * 2 + 1)
    near_found = cv2.dilate(explained, np.ones((reach, reach), np.uint8)) > 0
    n, labels, stats, _ = cv2.connectedComponentsWithStats(rest, connectivity=8)
    quads = []
    for label in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[label])
        if not AREA[0] * card_area <= area <= AREA[1] * card_area:
            continue
        if x <= EDGE_PX or y <= EDGE_PX or x + bw >= w - EDGE_PX or y + bh >= h - EDGE_PX:
            continue
        part = labels == label
        if thick[part].mean() < THICK_SHARE or not near_found[part].any():
            continue  # a hairline round a card fitted short, or paper far from any card
        points = np.column_stack(np.nonzero(part)[::-1]).astype(np.float32)
        quads.append(cv2.boxPoints(cv2.minAreaRect(points)).astype(np.float32))
    if not quads:
        return CardDetections.empty()
    return CardDetections(quad_xy=np.stack(quads), under=np.ones(len(quads), bool))
