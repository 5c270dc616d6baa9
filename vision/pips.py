"""Counting the pips on the face of a rectified number card: the card's own check of its index.

A number card from 2 to 10 carries as many suit pips in its middle as its rank says. When the
network's corner indices name a number card and its face head names another (it miscounts
the 9 and 10 of a design it never saw, most of all on a small card), the pips counted
here settle it: they must be exactly the rank the indices read (:meth:`vision.classify.
OnnxClassifier.classify`, ``pip_check`` in the model's metadata). A count that is not
clear (pips merged by blur, a picture, a decorated ace) is None, and settles nothing.

The count: ink (each pixel's darkest channel well under the paper's, so red and black
pips alike) in the card's middle, away from its border and the two corner indices,
cut into connected blobs; the blobs about as large as the largest are the pips.

>>> import cv2
>>> card = np.full((280, 200, 3), 235, np.uint8)
>>> for x, y in [(60, 60), (140, 60), (60, 140), (140, 140), (60, 220), (140, 220)]:
...     _ = cv2.circle(card, (x, y), 14, (40, 40, 200), -1)
>>> count_pips(card)
6
>>> count_pips(np.full((280, 200, 3), 235, np.uint8)) is None
True
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.preprocess import RECT_H, RECT_W

__all__ = ["count_pips"]

# The middle of the card where pips lie, as shares of its width and height: inside the
# border, and clear of the corner index (rank over suit) at the top left and bottom right
MIDDLE_X = (0.13, 0.87)
MIDDLE_Y = (0.06, 0.94)
INDEX_BOX = (0.15, 0.30)  # the corner index's box, width and height shares, kept out
INK_SHARE = 0.6  # ink: the darkest channel under this share of the paper's
# A pip is a blob at least this share of the largest blob's area, and at most MAX_PIP_AREA
# of the card's (a picture's figure is larger); smaller blobs are specks, stems and index bits
PIP_AREA_SHARE = 0.45
MIN_PIP_AREA = 0.002
MAX_PIP_AREA = 0.03


def count_pips(card_bgr: npt.NDArray[np.uint8]) -> int | None:
    """The pips on the face of a rectified card (BGR uint8, (280, 200, 3), upright or turned);
    None when there is no clear count (no pip, or blobs of unlike sizes or too large)."""
    if card_bgr.shape != (RECT_H, RECT_W, 3):
        raise ValueError(f"count_pips needs a rectified card of shape ({RECT_H}, {RECT_W}, 3), got {card_bgr.shape}")
    darkest = card_bgr.min(axis=2).astype(np.float32)
    paper = float(np.percentile(darkest, 90))
    if paper < 60:  # no paper: a back, a dark table
        return None
    ink = (darkest < INK_SHARE * paper).astype(np.uint8)
    h, w = ink.shape
    x0, x1 = round(MIDDLE_X[0] * w), round(MIDDLE_X[1] * w)
    y0, y1 = round(MIDDLE_Y[0] * h), round(MIDDLE_Y[1] * h)
    middle = np.zeros_like(ink)
    middle[y0:y1, x0:x1] = ink[y0:y1, x0:x1]
    bw, bh = round(INDEX_BOX[0] * w), round(INDEX_BOX[1] * h)
    middle[:bh, :bw] = 0
    middle[h - bh:, w - bw:] = 0
    n, _labels, stats, _centres = cv2.connectedComponentsWithStats(middle, connectivity=8)
    areas = stats[1:n, cv2.CC_STAT_AREA].astype(np.float64) / (h * w)
    if areas.size == 0 or areas.max() < MIN_PIP_AREA:
        return None
    if areas.max() > MAX_PIP_AREA:
        return None  # a figure, a large ace, pips run together: no count
    pips = areas >= PIP_AREA_SHARE * areas.max()
    # blobs between a speck and a pip leave the count in doubt
    doubtful = (areas >= MIN_PIP_AREA / 2) & ~pips
    return None if doubtful.any() else int(pips.sum())
