"""An arm reaching across a zone: what the light does not explain, and reaches from one side
of the zone to the opposite one (a player putting cards on the layout beyond the play zone).

A card cannot span a zone (the play zone is 257 x 114 mm, a card 63.5 x 88.9 mm), and a
hand laying cards reaches in from one side only; a shadow's edge across the zone is light
(its colours' ratios those of the print), so only the part of a thing with a colour of its
own is followed across.

>>> zone = np.ones((40, 80), bool)
>>> sides = side_bands(zone, 2.0)
>>> arm = np.zeros_like(zone); arm[:, 30:40] = True       # top to bottom
>>> reaches_across(arm, sides) is not None
True
>>> hand = np.zeros_like(zone); hand[20:, 30:40] = True   # from the bottom, half way
>>> reaches_across(hand, sides) is None
True
>>> seen = zone.copy(); seen[:10] = False                   # the camera sees the view's top no more
>>> reaches_across(arm & seen, view_edges(seen, 2.0)) is not None
True
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.chroma import chroma_spread
from vision.zone_cards import colour_shift

__all__ = ["coloured", "reaches_across", "side_bands", "view_edges"]

FloatImage = npt.NDArray[np.float32]
Mask = npt.NDArray[np.bool_]
Sides = tuple[Mask, Mask, Mask, Mask]


def side_bands(zone: Mask, width_px: float) -> Sides:
    """The zone's pixels within ``width_px`` of its top, bottom, left and right sides (its
    bounding box's: the zones are rectangles of the table, axis-aligned in the view)."""
    ys, xs = np.nonzero(zone)
    h, w = zone.shape
    if xs.size == 0:
        none = np.zeros((h, w), bool)
        return none, none, none, none
    rows, cols = np.arange(h)[:, None], np.arange(w)[None, :]
    k = max(1.0, width_px)
    return (zone & (rows <= ys.min() + k), zone & (rows >= ys.max() - k),
            zone & (cols <= xs.min() + k), zone & (cols >= xs.max() - k))


def view_edges(valid: Mask, width_px: float) -> Sides:
    """The seen pixels (``valid``) within ``width_px`` of the view's top, bottom, left and
    right edges, where the view ends or the camera's picture does (out of view beyond)."""
    h, w = valid.shape
    rows, cols = np.arange(h)[:, None], np.arange(w)[None, :]
    k = max(1.0, width_px)
    seen_col, seen_row = valid.any(axis=0), valid.any(axis=1)
    top = np.where(seen_col, valid.argmax(axis=0), h)[None, :]
    bottom = np.where(seen_col, h - 1 - valid[::-1].argmax(axis=0), -1)[None, :]
    left = np.where(seen_row, valid.argmax(axis=1), w)[:, None]
    right = np.where(seen_row, w - 1 - valid[:, ::-1].argmax(axis=1), -1)[:, None]
    return (valid & (rows <= top + k), valid & (rows >= bottom - k),
            valid & (cols <= left + k), valid & (cols >= right - k))


def reaches_across(things: Mask, sides: Sides) -> Mask | None:
    """The patches of ``things`` (8-connected) that touch two opposite ``sides`` of the
    zone (top and bottom, or left and right); None when none does."""
    if not things.any():
        return None
    n, labels = cv2.connectedComponents(things.astype(np.uint8), connectivity=8)
    touching = [np.zeros(n, bool) for _ in sides]
    for side, band in zip(touching, sides, strict=True):
        side[np.unique(labels[band])] = True
    across = (touching[0] & touching[1]) | (touching[2] & touching[3])
    across[0] = False
    if not across.any():
        return None
    arm: Mask = across[labels]
    return arm


def coloured(seen: FloatImage, empty: FloatImage, odd: Mask, reference: Mask, chroma_bar: float,
             disc: npt.NDArray[np.uint8]) -> Mask:
    """Where ``odd`` differs from ``empty`` (log colours) in its colours' ratios by
    ``chroma_bar`` or more, once the frame-wide change of each colour (measured over
    ``reference``) is taken away, in patches at least ``disc`` wide: no light (a shadow
    darkens or lightens the print with its ratios kept)."""
    delta = cv2.subtract(seen, empty)
    shift = colour_shift(delta, reference)
    # the shift a scalar to OpenCV ((4,) doubles): numpy's float32 values, several times faster
    shifted: npt.NDArray[np.float32] = np.asarray(cv2.subtract(delta, np.append(shift, 0.0).astype(np.float64)),
                                                  np.float32)
    chroma = chroma_spread(shifted) >= chroma_bar
    opened: Mask = cv2.morphologyEx((chroma & odd).astype(np.uint8), cv2.MORPH_OPEN, disc) > 0
    return opened
