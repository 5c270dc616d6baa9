"""An index doubted because the next card's index stands in its box: fans and columns.

The index reader (:mod:`vision.index_reader`) says, besides a rank and a suit, whether its
box shows an index at all. It learnt that from whole boxes, where the right and lower parts
tell an index from two pips of a face. In a tight fan the next card's index stands in the
right part of the box, in a tight column in the lower part, and the reader doubts (an index
read right at 0.3-0.65 of "an index" in the studied deal 7 of the real bridge deals).

That doubt is explained when the glyphs that cause it are themselves an index of the same
deck lying as a fanned or stacked neighbour would (:func:`doubts_explained`):

- both read as a rank over a suit at least :data:`NEIGHBOUR_PAIR` sure and as "an index" at
  least :data:`DOUBT_FLOOR` (two pips of a face are read as no index at all);
- the two indices are turned alike (within :data:`NEIGHBOUR_TURN` degrees) and are of one size
  (within :data:`NEIGHBOUR_SIZE` times): one deck, laid by one hand;
- the neighbour's rank lies where a fanned card's index lies in the box (right of the index,
  at its height: :data:`FAN_BOX`) or where a stacked card's lies (below it: :data:`COLUMN_BOX`);
- it reads as another card (a face's pips in rows read as one card again and again).

A reading so explained is taken as an index at :data:`EXPLAINED_INDEX`, and only when it would
otherwise not stand: a reading that stands already keeps its own probability, so the
explanation never changes which of two readings of a glyph wins (:func:`vision.corners.
merge_corners` keeps the surer). Every other check of :mod:`vision.corners` still holds (the
suit's twin, the ink's colour, model 2.0's corner head, the card's size).

Chosen on the tuning sets only (bench/corner_accept.py --hard 400 --fans 150, deal 1 of the
bridge deals, the blackjack tuning photos; figures in bench/README.md, "A tight fan's
neighbour in the box"): lifting every doubt so explained to 1, and explaining with
neighbours anywhere in the box, read more but added wrong readings (a rank paired with its
neighbour's suit, a suit twin that the surer reading had beaten in the merge).

>>> import numpy as np
>>> from vision.corners import CornerProposal
>>> i = CornerProposal((100.0, 100.0), (0.0, 1.0), 1.0)
>>> fanned = CornerProposal((135.0, 102.0), (0.05, 1.0), 1.0)  # 35 box px right: the next card
>>> r = IndexReadings(np.eye(13)[[4, 8]], np.eye(4)[[3, 2]], np.array([0.3, 0.9]))
>>> doubts_explained([i, fanned], r, accept=0.4).tolist()
[True, False]
>>> float(with_doubts_explained([i, fanned], r, accept=0.4).index[0])
0.7
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from vision.index_reader import IndexReadings

DOUBT_FLOOR = 0.2
NEIGHBOUR_PAIR = 0.6
NEIGHBOUR_TURN = 15.0
NEIGHBOUR_SIZE = 1.25
# where the neighbour's rank centre lies, in corner-box pixels (u right, v down; the box is
# 72 x 96 with this index's rank at (18, 25) and its suit at (18, 58)): (u_min, u_max, v_min, v_max)
FAN_BOX = (32.0, 80.0, 5.0, 45.0)
COLUMN_BOX = (-8.0, 72.0, 72.0, 106.0)
EXPLAINED_INDEX = 0.7
_RANK_XY = (18.0, 25.0)  # vision.corners.RANK_XY


class Boxed(Protocol):
    """What :func:`doubts_explained` needs of a proposal (:class:`vision.corners.CornerProposal`)."""

    @property
    def down(self) -> tuple[float, float]: ...

    @property
    def scale(self) -> float: ...

    def box_to_image(self) -> npt.NDArray[np.float64]: ...


def doubts_explained(proposals: Sequence[Boxed], readings: IndexReadings, accept: float) -> npt.NDArray[np.bool_]:
    """Whether each reading's doubt of "an index" is explained by a fanned or stacked
    neighbour's index in its box, and would keep it from standing at ``accept``."""
    n = len(proposals)
    out = np.zeros(n, bool)
    if n < 2:
        return out
    pair = readings.rank.max(axis=1) * readings.suit.max(axis=1)
    indexish = (pair >= NEIGHBOUR_PAIR) & (readings.index >= DOUBT_FLOOR)
    doubted = indexish & (readings.index < EXPLAINED_INDEX) & (pair * readings.index < accept)
    if not doubted.any():
        return out
    maps = np.array([p.box_to_image() for p in proposals])  # [N, 2, 3]
    ranks = maps[:, :, :2] @ np.array(_RANK_XY) + maps[:, :, 2]  # [N, 2]: each rank's centre in the image
    down = np.array([p.down for p in proposals], np.float64)
    size = np.array([p.scale for p in proposals], np.float64)
    card = readings.rank.argmax(axis=1) * 4 + readings.suit.argmax(axis=1)
    turned_alike = math.cos(math.radians(NEIGHBOUR_TURN))
    for i in np.flatnonzero(doubted):
        to_box = np.linalg.inv(np.vstack([maps[i], (0.0, 0.0, 1.0)]))[:2]
        u, v = (ranks @ to_box[:, :2].T + to_box[:, 2]).T  # in this index's box
        where = _inside(u, v, FAN_BOX) | _inside(u, v, COLUMN_BOX)
        alike = (down @ down[i] >= turned_alike) & (np.maximum(size / size[i], size[i] / size) <= NEIGHBOUR_SIZE)
        neighbour = indexish & where & alike & (card != card[i])
        neighbour[i] = False
        out[i] = bool(neighbour.any())
    return out


def _inside(u: npt.NDArray[np.float64], v: npt.NDArray[np.float64], box: tuple[float, float, float, float]
            ) -> npt.NDArray[np.bool_]:
    return np.asarray((u >= box[0]) & (u <= box[1]) & (v >= box[2]) & (v <= box[3]))


def with_doubts_explained(proposals: Sequence[Boxed], readings: IndexReadings, accept: float) -> IndexReadings:
    """``readings`` with each doubt :func:`doubts_explained` explains taken as an index at
    :data:`EXPLAINED_INDEX`."""
    explained = doubts_explained(proposals, readings, accept)
    if not explained.any():
        return readings
    index = np.where(explained, np.maximum(readings.index, EXPLAINED_INDEX), readings.index)
    return IndexReadings(readings.rank, readings.suit, index)
