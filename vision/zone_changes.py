"""What changed in a zone's picture since it was last looked at: the layout's zones lie still
most of the time, so they are looked at again only when their picture changed, and a card
whose part of the picture did not change keeps the reading it had.

A zone's *small copy* is its crop in grey, in blocks of :data:`BLOCK_PX` pixels, in log
units. Two copies of one crop differ in a block when the block's change is more than
:data:`CHANGED_LOG` away from the change of its row of blocks: the camera's gain drifting
(auto exposure) changes every row alike, and a flickering light's bands change each row of
the camera alike (vision/flicker.py), while a hand or a card laid changes some blocks of a
row and not the others.

:func:`standing` settles a fresh reading of a zone with the one before it: a card of the
reading before whose blocks are all unchanged stands (its reading, not a fresh one that may
have lost it), unless a fresh look at the same place reads what it left unread.

>>> blank = np.full((64, 128, 3), 180, np.uint8)
>>> before = small_copy(blank)
>>> bool(changed_blocks(small_copy((blank * 0.9).astype(np.uint8)), before).any())  # the light only
False
>>> card = blank.copy(); card[8:40, 16:40] = 60
>>> int(changed_blocks(small_copy(card), before).sum())  # a dark card over 3 x 4 blocks
12
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from vision.readings import CardDetections

__all__ = ["BLOCK_PX", "CHANGED_LOG", "changed_blocks", "small_copy", "standing"]

FloatImage = npt.NDArray[np.float32]
Mask = npt.NDArray[np.bool_]

# a zone's crop is compared in blocks this big (crop pixels: 4 to 7 mm on the table, as the
# layout is seen from 2 to 1.15 px/mm), about a card index's height: a card laid shows its
# index and pips in some block whole
BLOCK_PX = 8
# a block whose log level changed this much more than its row's (about 12 %) changed: a
# block's sensor noise averages to well under 1 %, the light's drift and a flickering light's
# bands change its whole row alike; a card's index or pip over a bare block changes it by a
# third or more, a hand by more
CHANGED_LOG = 0.12
# blocks darker than this share of their row's median level are compared as that dark
DARK_SHARE = 0.25
# a card whose centre lies within this share of its short side from a card of the reading
# before lies at that card's place (cards of an overlapped column lie a third of a card and
# more apart)
SAME_PLACE_SHARE = 0.25


def small_copy(crop_bgr: npt.NDArray[np.uint8]) -> FloatImage:
    """The crop in grey, in blocks of :data:`BLOCK_PX`, in log units; a block darker than
    :data:`DARK_SHARE` of its row's median level counts as that dark (in the dark, the sensor's
    noise is a large share of a block's level: the room beyond the mat, a black marker; the
    row's level follows the light, its bands included)."""
    grey = cv2.cvtColor(crop_bgr, cv2.COLOR_BGR2GRAY) if crop_bgr.ndim == 3 else crop_bgr
    h, w = grey.shape[:2]
    small = cv2.resize(grey, (max(1, w // BLOCK_PX), max(1, h // BLOCK_PX)), interpolation=cv2.INTER_AREA)
    level = small.astype(np.float32)
    floor = np.maximum(DARK_SHARE * np.median(level, axis=1, keepdims=True), 1.0)
    return np.asarray(np.log(np.maximum(level, floor)), np.float32)


def changed_blocks(now: FloatImage, then: FloatImage | None) -> Mask | None:
    """The blocks that changed from ``then`` to ``now`` (two :func:`small_copy` of one crop),
    each against its row's change; None when they cannot be compared (no copy before, or a
    crop of another size)."""
    if then is None or then.shape != now.shape:
        return None
    change = now - then
    change -= np.median(change, axis=1, keepdims=True)
    return np.asarray(np.abs(change) > CHANGED_LOG)


def _touches(quad_xy: npt.NDArray[np.float32], origin: tuple[int, int], changed: Mask) -> bool:
    """Whether a card (frame pixels) covers a changed block, or the block beside one (the
    card's rim and shadow), or leaves the copy."""
    h, w = changed.shape
    blocks = (np.asarray(quad_xy, np.float64) - np.array(origin, np.float64)) / BLOCK_PX
    if (blocks < -1).any() or (blocks[:, 0] > w + 1).any() or (blocks[:, 1] > h + 1).any():
        return True
    mask = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(mask, np.round(blocks).astype(np.int32), 1)
    near = cv2.dilate(mask, np.ones((3, 3), np.uint8)) > 0
    return bool((changed & near).any())


def _known(cards: CardDetections, i: int) -> bool:
    """A card read (its face, or its back)."""
    return cards.label[i] is not None or bool(cards.face_down[i])


def standing(before: CardDetections, fresh: CardDetections, changed: Mask, origin: tuple[int, int]
             ) -> CardDetections:
    """``fresh`` (a zone's cards read now, frame pixels) settled with ``before`` (its cards at
    the look before): each card of ``before`` whose blocks did not change (``changed``, the
    blocks of the crop whose top-left is ``origin``) still lies there as it was read, in place
    of a fresh card at its place, unless that one is read and it was not; the fresh cards
    elsewhere are added."""
    stood = [i for i in range(len(before)) if not _touches(before.quad_xy[i], origin, changed)]
    if not stood:
        return fresh
    centres_before = before.quad_xy.mean(axis=1)
    centres_fresh = fresh.quad_xy.mean(axis=1) if len(fresh) else np.zeros((0, 2), np.float32)
    taken: set[int] = set()
    rows: list[CardDetections] = []
    for k in range(len(fresh)):
        at = _place_of(centres_fresh[k], [(i, centres_before[i], _short_side(before.quad_xy[i]))
                                           for i in stood if i not in taken])
        if at is None:
            rows.append(fresh[[k]])
            continue
        taken.add(at)
        better = _known(fresh, k) and not _known(before, at)
        rows.append(fresh[[k]] if better else before[[at]])
    rows += [before[[i]] for i in stood if i not in taken]
    return CardDetections.concatenate(rows) if rows else CardDetections.empty()


def _short_side(quad: npt.NDArray[np.float32]) -> float:
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    return float(sides.min())


def _place_of(centre: npt.NDArray[np.float32], candidates: Sequence[tuple[int, npt.NDArray[np.float32], float]]
              ) -> int | None:
    """The card of the reading before at the place of a card centred at ``centre``, if any."""
    best: tuple[float, int] | None = None
    for i, at, side in candidates:
        distance = float(np.linalg.norm(centre - at))
        if distance <= SAME_PLACE_SHARE * side and (best is None or distance < best[0]):
            best = (distance, i)
    return None if best is None else best[1]
