"""An index doubted because the next card's index stands in its box: fans and columns.

The index reader (:mod:`vision.index_reader`) says, besides a rank and a suit, whether its
box shows an index at all. It learnt that from whole boxes, where the right and lower parts
tell an index from two pips of a face. In a tight fan the next card's index stands in the
right part of the box, in a tight column in the lower part, and the reader doubts (an index
read right at 0.3-0.65 of "an index" in the studied deal 7 of the real bridge deals).

A neighbour may explain that doubt when its glyphs are themselves an index of the same deck
lying as a fanned or stacked card's would (:func:`neighbours_in_box`):

- both read as a rank over a suit at least :data:`NEIGHBOUR_PAIR` sure, and the neighbour as
  "an index" at least :data:`NEIGHBOUR_INDEX` (two pips of a face are read as no index at all).
  The doubted reading may be refused as an index outright: the neighbour's glyphs in its box
  are what the reader judges "an index" by, so its own word on that is no evidence here;
- the two indices are turned alike (within :data:`NEIGHBOUR_TURN` degrees) and are of one size
  (within :data:`NEIGHBOUR_SIZE` times): one deck, laid by one hand;
- the neighbour's rank lies where a fanned card's index lies in the box (right of the index's
  column, anywhere above the part a stacked card fills: a hand is spread level, rising or
  falling; :data:`FAN_BOX`) or where a stacked card's lies (below it: :data:`COLUMN_BOX`);
- it reads as another card (a face's pips in rows read as one card again and again).

It does explain it when the box read again with that part painted the paper's colour
(:func:`painted`) names the same card: in a crowded box the neighbour can lend the reading
its suit as well as the doubt (a red 8 read with the next card's club beside it as the 8 of
clubs, in the studied deal 3). A reading so explained is taken as an index at
:data:`EXPLAINED_INDEX`, and only when it would otherwise not stand (its card under the
accept threshold, or no likelier than "no index"): a reading that stands already keeps its
own probability, and one explained stays less sure than most readings it
may clash with (:func:`vision.corners.merge_corners` keeps the surer). Every other check of
:mod:`vision.corners` still holds (the suit's twin, the ink's colour, model 2.0's corner
head, the card's size).

The thresholds were chosen on the tuning sets (bench/corner_accept.py --hard 400 --fans 150,
deal 1 of the bridge deals, the blackjack tuning photos; figures in bench/README.md, "A
tight fan's neighbour in the box"): lifting every doubt so explained to 1, and explaining
with neighbours anywhere in the box, read more but added wrong readings (a rank paired with
its neighbour's suit; a suit twin, once lifted to 1, winning the merge).

>>> import numpy as np
>>> from vision.corners import CornerProposal
>>> i = CornerProposal((100.0, 100.0), (0.0, 1.0), 1.0)
>>> fanned = CornerProposal((135.0, 102.0), (0.05, 1.0), 1.0)  # 35 box px right: the next card
>>> r = IndexReadings(np.eye(13)[[4, 8]], np.eye(4)[[3, 2]], np.array([0.3, 0.9]))
>>> [a.tolist() for a in neighbours_in_box([i, fanned], r, accept=0.4)]
[[True, False], [False, False]]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from vision.corner_proposals import RANK_XY
from vision.index_reader import IndexReadings

# the neighbour is "an index" at least this (two pips of a face are read as no index at all);
# rank x suit at least NEIGHBOUR_PAIR, for the doubted reading, its neighbour and the painted
# re-reading. The doubted reading itself has no floor of "an index": chosen on the tuning sets
# (bench/README.md, "A tight fan's neighbour in the box"), where a floor of 0.2 (as for the
# neighbour) left 6 indices of the hard set and 1 of the tight fans unread, and stopped no wrong one
NEIGHBOUR_INDEX = 0.2
NEIGHBOUR_PAIR = 0.6
NEIGHBOUR_TURN = 15.0
NEIGHBOUR_SIZE = 1.25
# where the neighbour's rank centre lies, in corner-box pixels (u right, v down; the box is
# 72 x 96 with this index's rank at (18, 25) and its suit at (18, 58)): (u_min, u_max, v_min, v_max).
# A glyph half in the box counts (8 px beyond its edges). A fanned card's index lies right of
# this index's column, as high or low as a hand spread rising or falling puts it, above the part
# a stacked card's fills.
FAN_BOX = (32.0, 80.0, -8.0, 72.0)
COLUMN_BOX = (-8.0, 72.0, 72.0, 106.0)
EXPLAINED_INDEX = 0.7
# the share of the box's width (height) from which a fanned (stacked) neighbour is painted out
PAINT_FROM = (0.5, 0.75)


class Boxed(Protocol):
    """What :func:`neighbours_in_box` needs of a proposal (:class:`vision.corners.CornerProposal`)."""

    @property
    def down(self) -> tuple[float, float]: ...

    @property
    def scale(self) -> float: ...

    def box_to_image(self) -> npt.NDArray[np.float64]: ...


def neighbours_in_box(proposals: Sequence[Boxed], readings: IndexReadings, accept: float
                      ) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Which readings' doubt of "an index" a fanned neighbour's index in the box (the first
    array) or a stacked one's (the second) may explain, where the doubt would keep the
    reading from standing: its card under ``accept``, or no likelier than "no index"
    (:func:`vision.corners.accepted_corners` takes the likelier)."""
    n = len(proposals)
    fan, column = np.zeros(n, bool), np.zeros(n, bool)
    if n < 2:
        return fan, column
    pair = readings.rank.max(axis=1) * readings.suit.max(axis=1)
    indexish = (pair >= NEIGHBOUR_PAIR) & (readings.index >= NEIGHBOUR_INDEX)
    sure = pair * readings.index
    would_not_stand = (sure < accept) | (sure <= 1 - readings.index)
    doubted = (pair >= NEIGHBOUR_PAIR) & (readings.index < EXPLAINED_INDEX) & would_not_stand
    if not doubted.any():
        return fan, column
    maps = np.array([p.box_to_image() for p in proposals])  # [N, 2, 3]
    ranks = maps[:, :, :2] @ np.array(RANK_XY) + maps[:, :, 2]  # [N, 2]: each rank's centre in the image
    down = np.array([p.down for p in proposals], np.float64)
    size = np.array([p.scale for p in proposals], np.float64)
    card = readings.rank.argmax(axis=1) * 4 + readings.suit.argmax(axis=1)
    turned_alike = math.cos(math.radians(NEIGHBOUR_TURN))
    for i in np.flatnonzero(doubted):
        to_box = np.linalg.inv(np.vstack([maps[i], (0.0, 0.0, 1.0)]))[:2]
        u, v = (ranks @ to_box[:, :2].T + to_box[:, 2]).T  # in this index's box
        alike = (down @ down[i] >= turned_alike) & (np.maximum(size / size[i], size[i] / size) <= NEIGHBOUR_SIZE)
        neighbour = indexish & alike & (card != card[i])
        neighbour[i] = False
        fan[i] = bool((neighbour & _inside(u, v, FAN_BOX)).any())
        column[i] = bool((neighbour & _inside(u, v, COLUMN_BOX)).any())
    return fan, column


def _inside(u: npt.NDArray[np.float64], v: npt.NDArray[np.float64], box: tuple[float, float, float, float]
            ) -> npt.NDArray[np.bool_]:
    return np.asarray((u >= box[0]) & (u <= box[1]) & (v >= box[2]) & (v <= box[3]))


def paint_outside(boxes: npt.NDArray[np.uint8], keep: npt.NDArray[np.bool_], percentile: float
                  ) -> npt.NDArray[np.uint8]:
    """A copy of ``boxes`` (uint8 [N, H, W, 3]) with every pixel outside ``keep`` ([H, W]) painted
    each box's paper colour: the ``percentile`` of its kept pixels, channel by channel. Run time
    (:func:`painted`) and the index reader's training (:func:`models.index_data.paint_beside_index`)
    paint a neighbour out alike.

    >>> box = np.full((1, 4, 4, 3), 200, np.uint8); box[0, :, 2:] = 0
    >>> keep = np.zeros((4, 4), bool); keep[:, :2] = True
    >>> int(paint_outside(box, keep, 90)[0, :, 2:].min())
    200
    """
    out = boxes.copy()
    if len(out):
        paper = np.percentile(boxes[:, keep].astype(np.float32), percentile, axis=1).astype(np.uint8)  # [N, 3]
        out[:, ~keep] = paper[:, None, :]
    return out


def painted(boxes: npt.NDArray[np.uint8], fan: npt.NDArray[np.bool_], column: npt.NDArray[np.bool_]
            ) -> npt.NDArray[np.uint8]:
    """Corner boxes (uint8 [N, V, H, W, 3], as :func:`vision.corners.corner_boxes` cuts them)
    with the part where a fanned neighbour's index stands (right of :data:`PAINT_FROM`'s share
    of the width) or a stacked one's (below its share of the height) painted the paper's
    colour: the brightest tenth of the rest of the box."""
    out = boxes.copy()
    height, width = boxes.shape[2:4]
    x0 = int(round(PAINT_FROM[0] * width))
    y0 = int(round(PAINT_FROM[1] * height))
    for i in np.flatnonzero(fan | column):
        keep = np.ones((height, width), bool)
        if fan[i]:
            keep[:, x0:] = False
        if column[i]:
            keep[y0:] = False
        out[i] = paint_outside(boxes[i], keep, 90)
    return out


def with_doubts_explained(proposals: Sequence[Boxed], readings: IndexReadings, accept: float,
                          cut: Callable[[npt.NDArray[np.intp]], npt.NDArray[np.uint8]],
                          read: Callable[[npt.NDArray[np.uint8]], IndexReadings]) -> IndexReadings:
    """``readings`` with each doubt a neighbour explains (:func:`neighbours_in_box`) taken as
    an index at :data:`EXPLAINED_INDEX`, where the box read again with the neighbour painted
    out (:func:`painted`) names the same card at least :data:`NEIGHBOUR_PAIR` sure.

    ``cut`` cuts the boxes of the proposals at the positions it is given, in their views (uint8
    [N, V, H, W, 3]); ``read`` reads one
    view's boxes (the index reader's :meth:`vision.index_reader.IndexReader.read`)."""
    fan, column = neighbours_in_box(proposals, readings, accept)
    which = np.flatnonzero(fan | column)
    if not len(which):
        return readings
    boxes = painted(cut(which), fan[which], column[which])
    again = IndexReadings.mean([read(np.ascontiguousarray(boxes[:, k])) for k in range(boxes.shape[1])])
    same = ((again.rank.argmax(axis=1) == readings.rank[which].argmax(axis=1))
            & (again.suit.argmax(axis=1) == readings.suit[which].argmax(axis=1))
            & (again.rank.max(axis=1) * again.suit.max(axis=1) >= NEIGHBOUR_PAIR))
    index = readings.index.copy()
    index[which[same]] = np.maximum(index[which[same]], EXPLAINED_INDEX)
    return IndexReadings(readings.rank, readings.suit, index)
