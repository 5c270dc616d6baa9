"""Small geometry on card quads: corner order, overlap, sides.

A quad is a (4, 2) float array of image points. Card quads follow the order of
:mod:`vision.readings`: top-left, top-right, bottom-right, bottom-left of the card
upright in portrait, so corner 0 -> 1 is a short side.

>>> square = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], np.float32)
>>> round(quad_iou(square, square + [5, 0]), 3)
0.333
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.places import SAME_PLACE_MM

__all__ = [
    "CARD_ASPECT",
    "CARD_H_MM",
    "CARD_SIZE_TOLERANCE",
    "CARD_W_MM",
    "SAME_PLACE_MM",
    "card_sized_mm",
    "card_width",
    "clockwise",
    "corners_where_sides_meet",
    "match_quads",
    "portrait_order",
    "quad_iou",
    "side_lengths",
]

FloatArray = npt.NDArray[np.float32]

CARD_W_MM = 63.5  # a standard poker card
CARD_H_MM = 88.9
CARD_ASPECT = CARD_H_MM / CARD_W_MM  # 1.4
# Share of a side by which a quad measured on the table may differ from a card's and still
# be one card: a slanted view and a found outline a few pixels off stay well inside it;
# two overlapping cards, a token tile (60 x 60 mm) or the mat's own outline do not.
CARD_SIZE_TOLERANCE = 0.25
_NEXT = np.array([1, 2, 3, 0])


def clockwise(quad_xy: npt.ArrayLike) -> FloatArray:
    """The same four points, clockwise on screen (y down), starting nearest the top-left."""
    q = np.asarray(quad_xy, np.float32).reshape(4, 2)
    center = q.mean(axis=0)
    angle = np.arctan2(q[:, 1] - center[1], q[:, 0] - center[0])
    q = q[np.argsort(angle)]  # increasing angle = clockwise when y points down
    start = int(np.argmin(q[:, 0] + q[:, 1]))
    return q[(np.arange(4) + start) % 4]


def card_sized_mm(quad_mm: npt.ArrayLike, tolerance: float = CARD_SIZE_TOLERANCE) -> bool:
    """True when a quad in table millimetres has about a card's sides (63.5 x 88.9 mm),
    either way round: the one size check of a found card, for vision and the dealer.

    >>> card_sized_mm([[0, 0], [63, 0], [63, 88], [0, 88]]), card_sized_mm([[0, 0], [60, 0], [60, 60], [0, 60]])
    (True, False)
    """
    q = np.asarray(quad_mm, np.float64).reshape(4, 2)
    sides = np.linalg.norm(q - q[_NEXT], axis=1)
    short, long_ = sorted(((sides[0] + sides[2]) / 2.0, (sides[1] + sides[3]) / 2.0))
    return bool(abs(short / CARD_W_MM - 1.0) <= tolerance and abs(long_ / CARD_H_MM - 1.0) <= tolerance)


def side_lengths(quad_xy: npt.ArrayLike) -> FloatArray:
    """Lengths of sides 0-1, 1-2, 2-3, 3-0."""
    q = np.asarray(quad_xy, np.float32).reshape(4, 2)
    return np.asarray(np.linalg.norm(q - q[_NEXT], axis=1), dtype=np.float32)


def card_width(quad_xy: npt.ArrayLike) -> float:
    """The width of a card's outline, however it is turned: the mean of its shorter pair of
    opposite sides.

    >>> card_width([[0, 0], [0, 280], [200, 280], [200, 0]])
    200.0
    """
    q = np.asarray(quad_xy, np.float64).reshape(4, 2)
    sides = np.linalg.norm(q - q[_NEXT], axis=1)
    return float(min(sides[0] + sides[2], sides[1] + sides[3]) / 2)


def portrait_order(quad_xy: npt.ArrayLike, long_pair: int | None = None) -> FloatArray:
    """Clockwise corners with corner 0 -> 1 on a short side (the card in portrait).

    ``long_pair`` 0 says sides 0-1 and 2-3 of the clockwise quad are the card's long
    sides, 1 says sides 1-2 and 3-0 are; ``None`` picks the pair that looks longer in
    the image (right from above, a guess at a slant: see :mod:`vision.rectify`).
    """
    q = clockwise(quad_xy)
    sides = side_lengths(q)
    if long_pair is None:
        long_pair = 0 if sides[0] + sides[2] > sides[1] + sides[3] else 1
    return q[_NEXT] if long_pair == 0 else q


def quad_iou(a: npt.ArrayLike, b: npt.ArrayLike) -> float:
    """Intersection over union of two convex quads (0 when they do not overlap)."""
    qa = np.asarray(a, np.float32).reshape(4, 2)
    qb = np.asarray(b, np.float32).reshape(4, 2)
    if (qa[:, 0].max() <= qb[:, 0].min() or qb[:, 0].max() <= qa[:, 0].min()
            or qa[:, 1].max() <= qb[:, 1].min() or qb[:, 1].max() <= qa[:, 1].min()):
        return 0.0  # the boxes around them do not even meet
    qa, qb = clockwise(qa), clockwise(qb)
    area_a = abs(cv2.contourArea(qa))
    area_b = abs(cv2.contourArea(qb))
    inter, _ = cv2.intersectConvexConvex(qa, qb)
    union = area_a + area_b - inter
    return float(inter / union) if union > 0 else 0.0


def match_quads(truth: FloatArray, found: FloatArray, min_iou: float = 0.6
                ) -> list[tuple[int, int, float]]:
    """Greedy one-to-one matching by IoU: (truth index, found index, IoU) pairs."""
    pairs = []
    for i in range(len(truth)):
        for j in range(len(found)):
            iou = quad_iou(truth[i], found[j])
            if iou >= min_iou:
                pairs.append((iou, i, j))
    pairs.sort(reverse=True)
    used_t: set[int] = set()
    used_f: set[int] = set()
    out = []
    for iou, i, j in pairs:
        if i not in used_t and j not in used_f:
            used_t.add(i)
            used_f.add(j)
            out.append((i, j, iou))
    return sorted(out)


def corners_where_sides_meet(sides: Sequence[tuple[npt.ArrayLike, npt.ArrayLike]], quad_xy: npt.ArrayLike,
                             parallel: float = 1e-9) -> npt.NDArray[Any]:
    """The quad whose corner ``i`` is where side ``i - 1`` meets side ``i``, each side a line
    (a point, a direction); a corner whose two sides are parallel within ``parallel`` keeps
    its place in ``quad_xy`` (whose dtype the result keeps).

    >>> corners_where_sides_meet([((0, 0), (1, 0)), ((2, 0), (0, 1)), ((0, 3), (1, 0)), ((0, 0), (0, 1))],
    ...                          np.zeros((4, 2))).tolist()
    [[0.0, 0.0], [2.0, 0.0], [2.0, 3.0], [0.0, 3.0]]
    """
    out = np.array(quad_xy)
    for i in range(4):
        (p1, d1), (p2, d2) = ((np.asarray(p), np.asarray(d)) for p, d in (sides[(i - 1) % 4], sides[i]))
        det = d2[0] * d1[1] - d1[0] * d2[1]
        if abs(det) < parallel:
            continue
        dx, dy = p2[0] - p1[0], p2[1] - p1[1]
        t = (d2[0] * dy - d2[1] * dx) / det
        out[i] = p1 + t * d1
    return out
