"""The shape of the photo's cards and the table's plane they lie on, seen through the cards
read whole; a card read by an index alone is laid out on that plane.

A card read by an index alone shows only part of itself: the pair of glyphs says where its
corner lies and which way it turns, the rest of it is known from the deck. One deck's cards
are one size and one shape (a poker card is 1.4 times as long as wide, a bridge card 1.56),
and all of them lie flat on one table. A card read whole is a rectangle of that shape on the
table, so its four corners give the homography from the table's plane to the picture, the
view's slant and perspective included (up to where on the table the card lies, which does
not matter). The card read by an index is laid in the frame of each of the nearest cards
read whole, its corner and turn mapped onto the table, a card of the deck's shape laid there
at right angles, and mapped back (:meth:`DeckShape.laid_from_corner`); the corners it gets
in those frames are pooled by their median.

The deck's shape is what its cards read whole show, except that no deck in play is squatter
than a poker card (:data:`SQUATTEST`): cards that look squatter are seen from a slant along
their length. (A deck seen from a slant across its length looks longer than it is; the shape
so measured is then a little long.)

>>> import numpy as np
>>> card = lambda x, w, h: np.array([[x, 0], [x + w, 0], [x + w, h], [x, h]], np.float32)
>>> shape = DeckShape.of_cards([card(0, 100, 156), card(200, 100, 156)])
>>> round(shape.aspect, 2)
1.56
>>> shape.laid_from_corner(card(500, 80, 112)).round().tolist()
[[500.0, 0.0], [600.0, 0.0], [600.0, 156.0], [500.0, 156.0]]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.detect import side_ratio

__all__ = ["DeckShape", "NEAREST", "SQUATTEST", "WIDTH_RANGE"]

FloatArray = npt.NDArray[np.float32]

# no deck in play is squatter than a poker card (88.9 x 63.5 mm; bridge 88.9 x 57.2, tarot longer)
SQUATTEST = 88.9 / 63.5
# a card read by an index is laid in the frames of this many cards read whole, the nearest
# (one may be a pile's outline read as its top card, or an outline fitted askew)
NEAREST = 3
# a frame that lays the card this much narrower or wider than its index implies is a misfit's
# (a pile's outline, a perspective extrapolated far from a card fitted askew), not the table's:
# a pair of glyphs gives its card's width within about a fifth
WIDTH_RANGE = (0.6, 1.7)


@dataclass(frozen=True)
class DeckShape:
    """The deck's aspect (long over short side on the table) and, for each card read whole,
    its centre and the homography from the card's own frame (0..1 across, 0..aspect down)
    to the picture."""

    aspect: float
    centres: tuple[tuple[float, float], ...]
    views: tuple[npt.NDArray[np.float64], ...]

    @classmethod
    def of_cards(cls, quads: Sequence[npt.ArrayLike]) -> DeckShape | None:
        """From the outlines of cards read whole (each card's corners in order round it);
        None from fewer than two."""
        if len(quads) < 2:
            return None
        qs = [np.asarray(q, np.float64).reshape(4, 2) for q in quads]
        aspect = max(SQUATTEST, float(np.median([side_ratio(q) for q in qs])))
        frame = np.array([[0, 0], [1, 0], [1, aspect], [0, aspect]], np.float32)
        views = []
        for q in qs:
            short_first = q if np.hypot(*(q[1] - q[0])) <= np.hypot(*(q[2] - q[1])) else np.roll(q, -1, axis=0)
            views.append(np.asarray(cv2.getPerspectiveTransform(frame, short_first.astype(np.float32)), np.float64))
        return cls(aspect, tuple((float(q[:, 0].mean()), float(q[:, 1].mean())) for q in qs), tuple(views))

    def laid_from_corner(self, quad: npt.ArrayLike) -> FloatArray:
        """The card whose index implies ``quad`` (its first corner the index's, its first
        side across the card, its last down it), laid from that corner on the table: down
        the way the index reads, across at right angles to it there, the deck's size and
        shape; ``quad`` itself where no card read whole gives a view of that corner."""
        q = np.asarray(quad, np.float64).reshape(4, 2)
        near = np.argsort([np.hypot(c[0] - q[0, 0], c[1] - q[0, 1]) for c in self.centres])[:NEAREST]
        laid = [corners for k in near if (corners := self._laid_in(self.views[k], q)) is not None]
        if not laid:
            return np.asarray(q, np.float32)
        return np.asarray(np.median(laid, axis=0), np.float32)

    def _laid_in(self, view: npt.NDArray[np.float64], q: npt.NDArray[np.float64]) -> npt.NDArray[np.float64] | None:
        """``q``'s card laid in the frame of one card read whole (``view``: its frame to the
        picture); None where the corner lies beyond that view's horizon, or where the card
        laid is far narrower or wider than its index implies (:data:`WIDTH_RANGE`)."""
        back = np.asarray(np.linalg.inv(view), np.float64)
        centre = view @ np.array([0.5, self.aspect / 2, 1.0])
        back = back if (back @ centre)[2] > 0 else -back  # the card's own centre lies before the horizon
        down = (q[3] - q[0]) / max(float(np.hypot(*(q[3] - q[0]))), 1e-12)
        step = 0.05 * float(np.hypot(*(q[1] - q[0])))  # a short step: the turn where the index is
        corner, below, beside = (_through(back, p) for p in (q[0], q[0] + step * down, q[1]))
        if corner is None or below is None or beside is None:
            return None
        d = (below - corner) / max(float(np.hypot(*(below - corner))), 1e-12)
        across = np.array([-d[1], d[0]])
        across = across if across @ (beside - corner) >= 0 else -across
        on_table = [corner, corner + across, corner + across + self.aspect * d, corner + self.aspect * d]
        mapped = [_through(view, p) for p in on_table]
        if any(p is None for p in mapped):
            return None
        laid = np.asarray(mapped)
        width = float(np.hypot(*(laid[1] - laid[0]))) / max(float(np.hypot(*(q[1] - q[0]))), 1e-12)
        return laid if WIDTH_RANGE[0] <= width <= WIDTH_RANGE[1] else None


def _through(homography: npt.NDArray[np.float64], p: npt.ArrayLike) -> npt.NDArray[np.float64] | None:
    """``p`` mapped by ``homography``; None where it maps beyond the horizon."""
    x, y, w = homography @ np.array([*np.asarray(p, np.float64), 1.0])
    return None if w <= 1e-9 else np.array([x / w, y / w])
