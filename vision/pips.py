"""Counting the pips on the face of a rectified number card: the card's own check of its index.

A number card from 2 to 10 carries as many suit pips in its middle as its rank says. When the
network's corner indices name a number card and its face head names another (it miscounts
the 9 and 10 of a design it never saw, most of all on a small card), the pips counted
here settle it: they must be exactly the rank the indices read (:meth:`vision.classify.
OnnxClassifier.classify`, ``pip_check`` in the model's metadata). A count that is not
clear (pips merged by blur, a picture, a decorated ace, a card partly covered) is None, and
settles nothing.

The count:

1. *ink*: each pixel's darkest channel (red and black pips alike) against the paper around it
   (a max filter wider than a pip): under INK_SHARE of it (a shadow scales ink and paper
   alike), or below it by INK_DROP of the paper's own level (glare adds light to both);
2. *blobs*: the ink's connected regions, less those that touch the crop's edge (the table,
   the card's rim), lie in a corner's index box, are not compact (frame lines, text) or
   whose centre lies outside the card's middle;
3. *the pips*: the most blobs of one size (within SAME_SIZE of each other); another blob
   of about their size (a pip cut, two merged) leaves the count in doubt;
4. *their layout*: every standard layout from 2 to 10 is the same turned half round about
   its centre, which is the card's middle, and mirrored across its long axis (a 7's extra
   pip, and a 9's, lies on that axis, off the middle or not). A card turned or framed a few
   % off keeps both; the pips left showing on a card partly covered, or a count with a pip
   lost, mostly do not.

>>> import cv2
>>> card = np.full((280, 200, 3), 235, np.uint8)
>>> for x, y in [(60, 60), (140, 60), (60, 140), (140, 140), (60, 220), (140, 220)]:
...     _ = cv2.circle(card, (x, y), 14, (40, 40, 200), -1)
>>> count_pips(card)
6
>>> half = card.copy()
>>> half[:, 100:] = 235  # the right column covered by paper: three pips in one column
>>> count_pips(half) is None
True
>>> count_pips(np.full((280, 200, 3), 235, np.uint8)) is None
True
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.preprocess import RECT_H, RECT_W

__all__ = ["count_pips"]

INK_SHARE = 0.6  # ink: the darkest channel under this share of the paper around it ...
INK_DROP = 0.4  # ... or under the paper by this share of the paper's median level
PAPER_REACH = 0.22  # the paper around a pixel: a max filter this share of the card's width
# where a pip's centre may lie (shares of width and height), and a corner's index box
# (width and height shares): a blob wholly inside it is the index's suit, not a pip
MIDDLE_X = (0.08, 0.92)
MIDDLE_Y = (0.04, 0.96)
INDEX_CORNER = (0.22, 0.40)
# a pip's area, as a share of the card's: at least MIN_PIP_AREA; a blob over MAX_PIP_AREA
# is a figure, a large ace, or pips run together: no count
MIN_PIP_AREA = 0.002
MAX_PIP_AREA = 0.03
MIN_FILL = 0.3  # a pip fills this share of its bounding box at least (a frame line does not)
MAX_ASPECT = 2.5  # and its box is no longer than this times its width
SAME_SIZE = 1.35  # the pips are within this ratio of one another's area
DOUBT = (0.5, 2.6)  # another blob this size against the pips' (a cut pip, two merged): doubt
# the layout: the pips' centre within CENTRE_TOL of the card's middle (shares of width and
# height); each pip's turned and mirrored image within PAIR_TOL of the card's width of a
# pip; the long axis turned MAX_TILT degrees at most; a 7's extra pip within ODD_PIP of
# the card's height of the others' centre
CENTRE_TOL = 0.07
PAIR_TOL = 0.07
MAX_TILT = 10
ODD_PIP = 0.25


def count_pips(card_bgr: npt.NDArray[np.uint8], layout: bool = True) -> int | None:
    """The pips on the face of a rectified card (BGR uint8, (280, 200, 3), upright or turned);
    None when there is no clear count (module notes). ``layout=False``: without step 4."""
    if card_bgr.shape != (RECT_H, RECT_W, 3):
        raise ValueError(f"count_pips needs a rectified card of shape ({RECT_H}, {RECT_W}, 3), got {card_bgr.shape}")
    h, w = card_bgr.shape[:2]
    darkest = card_bgr.min(axis=2).astype(np.float32)
    reach = max(3, int(PAPER_REACH * w) | 1)
    paper = cv2.GaussianBlur(cv2.dilate(darkest, np.ones((reach, reach), np.uint8)), (0, 0), reach / 4)
    level = float(np.median(paper))
    if level < 60:  # no paper: a back, a dark table
        return None
    ink = ((darkest < INK_SHARE * paper) | (paper - darkest >= INK_DROP * level)).astype(np.uint8)
    areas, centres = _pip_like_blobs(ink)
    if areas.size == 0 or areas.max() > MAX_PIP_AREA or areas.max() < MIN_PIP_AREA:
        return None
    pips = _one_size(areas)
    size = float(np.median(areas[pips]))
    if (~pips & (areas >= DOUBT[0] * size) & (areas <= DOUBT[1] * size)).any():
        return None
    count = int(pips.sum())
    if not 2 <= count <= 10 or (layout and not _standard_layout(centres[pips] * [w, h], count, w, h)):
        return None
    return count


def _pip_like_blobs(ink: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The areas (shares of the card) and centres (shares of width and height) of the ink's
    blobs that may be pips or leave a count in doubt (module notes, step 2)."""
    h, w = ink.shape
    n, _labels, stats, centres = cv2.connectedComponentsWithStats(ink, connectivity=8)
    st = stats[1:n].astype(np.float64)
    centre = centres[1:n] / [w, h]
    x0, y0, bw, bh, area = st[:, 0], st[:, 1], st[:, 2], st[:, 3], st[:, cv2.CC_STAT_AREA]
    x1, y1 = x0 + bw, y0 + bh
    on_edge = (x0 <= 0) | (y0 <= 0) | (x1 >= w) | (y1 >= h)
    middle = ((centre[:, 0] >= MIDDLE_X[0]) & (centre[:, 0] <= MIDDLE_X[1])
              & (centre[:, 1] >= MIDDLE_Y[0]) & (centre[:, 1] <= MIDDLE_Y[1]))
    cx, cy = INDEX_CORNER[0] * w, INDEX_CORNER[1] * h
    in_corner = ((x1 <= cx) | (x0 >= w - cx)) & ((y1 <= cy) | (y0 >= h - cy))
    compact = (area >= MIN_FILL * bw * bh) & (np.maximum(bw, bh) <= MAX_ASPECT * np.minimum(bw, bh))
    share = area / (h * w)
    keep = ~on_edge & middle & ~in_corner & compact & (share >= DOUBT[0] * MIN_PIP_AREA)
    return share[keep], centre[keep]


def _one_size(areas: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_]:
    """The most blobs of pip size within SAME_SIZE of one another (ties: the larger)."""
    big_enough = areas >= MIN_PIP_AREA
    best: tuple[tuple[int, float], npt.NDArray[np.bool_]] | None = None
    for ref in areas[big_enough]:
        members = big_enough & (np.abs(np.log(areas / ref)) <= np.log(SAME_SIZE))
        key = (int(members.sum()), float(np.median(areas[members])))
        if best is None or key > best[0]:
            best = (key, members)
    assert best is not None
    return best[1]


def _standard_layout(pips: npt.NDArray[np.float64], count: int, w: int, h: int) -> bool:
    """Whether the pips (px) lie as a standard layout of ``count`` does (module notes, step 4).
    A 7's and a 9's odd pip may lie off the middle, on the axis (a 9 of four rows a side with
    its odd pip between the upper two, as gnome-bellot prints it)."""
    if count in (7, 9):  # the extra pip on the mirror axis of the others, near their centre
        for k in range(len(pips)):
            rest = np.delete(pips, k, axis=0)
            centre = rest.mean(axis=0)
            if (np.hypot(*(pips[k] - centre)) <= ODD_PIP * h and _standard_layout(rest, count - 1, w, h)
                    and _mirrored(pips, centre, PAIR_TOL * w)):
                return True
        return False
    centre = pips.mean(axis=0)
    if abs(centre[0] - w / 2) > CENTRE_TOL * w or abs(centre[1] - h / 2) > CENTRE_TOL * h:
        return False
    return _paired(2 * centre - pips, pips, PAIR_TOL * w) and _mirrored(pips, centre, PAIR_TOL * w)


def _paired(moved: npt.NDArray[np.float64], pips: npt.NDArray[np.float64], tol: float) -> bool:
    """Whether each of ``moved`` lies within ``tol`` px of one of ``pips``."""
    d = np.hypot(*(moved[:, None, :] - pips[None, :, :]).transpose(2, 0, 1))
    return bool((d.min(axis=1) <= tol).all())


def _mirrored(pips: npt.NDArray[np.float64], centre: npt.NDArray[np.float64], tol: float) -> bool:
    """Whether each pip has its mirror image across an axis through ``centre``, within
    MAX_TILT degrees of the card's long side (a pip on the axis is its own image)."""
    rel = pips - centre
    for degrees in np.arange(-MAX_TILT, MAX_TILT + 0.5, 1.0):
        t = np.deg2rad(degrees)
        axis = np.array([np.sin(t), np.cos(t)])
        along = rel @ axis
        if _paired(centre + 2 * along[:, None] * axis - rel, pips, tol):
            return True
    return False
