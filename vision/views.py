"""Test-time views of a rectified card: the same card read again, framed a little differently.

Issue 8: the classifier is far too sensitive to framing on designs it never saw (a crop 6 %
tighter per side halved its right readings), and its confident wrong readings do not
survive a change of framing the way right ones do. An accept rule with views (see
:meth:`vision.classify.OnnxClassifier.accepted`) reads each card in every view, averages
the calibrated probabilities, and takes a card only when every view names it.

A :class:`View` is a zoom about the card's centre (``scale`` > 1 zooms in: a tighter crop;
< 1 zooms out and repeats the border) and/or a half turn. A half turn needs no new
preprocessing: the two corner boxes swap and the face turns (:func:`turn_feeds`, exact).

>>> import numpy as np
>>> from vision.preprocess import preprocess
>>> card = np.random.default_rng(0).integers(0, 256, (280, 200, 3), dtype=np.uint8)
>>> turned = preprocess([np.ascontiguousarray(card[::-1, ::-1])])
>>> bool(np.array_equal(turn_feeds(preprocess([card]))["corners"], turned["corners"]))
True
>>> views_from_metadata([{"scale": 1.03}, {"turned": True}], "meta.json", "still_image_rule.views")
(View(scale=1.03, turned=False), View(scale=1.0, turned=True))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import ModelLoadError
from vision.preprocess import (CORNER_BOX_H, CORNER_BOX_W, CORNER_H, CORNER_W, FACE_H, FACE_W, RECT_H, RECT_W,
                               feeds_of)

__all__ = ["View", "describe_views", "reframe", "turn_feeds", "view_feeds", "views_from_metadata", "zoomed_feeds"]

MAX_ZOOM = 0.25  # a view more than 25 % in or out is another crop, not a re-framing


@dataclass(frozen=True, slots=True)
class View:
    """One more look at a card: zoomed ``scale`` times about its centre, turned half round or not."""

    scale: float = 1.0
    turned: bool = False


def describe_views(views: Sequence[View]) -> str:
    """``"turned, x1.06, x0.94"``; ``"none"`` for no views."""
    words = [" ".join((["turned"] if v.turned else []) + ([f"x{v.scale:g}"] if v.scale != 1 else [])) for v in views]
    return ", ".join(words) or "none"


def views_from_metadata(raw: Any, where: str, key: str) -> tuple[View, ...]:
    """The views listed under ``key`` of the metadata file ``where``: ``[{"scale": 1.03}, {"turned": true}]``.

    Anything else raises :class:`ModelLoadError` naming the file and the key.
    """
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise ModelLoadError(f"{where!r}: {key} must be a list of views like {{\"scale\": 1.03}}, got {raw!r}")
    views = []
    for i, item in enumerate(raw):
        if not isinstance(item, Mapping) or set(item) - {"scale", "turned"}:
            raise ModelLoadError(f"{where!r}: {key}[{i}] must be {{\"scale\": number, \"turned\": true/false}}, "
                                 f"got {item!r}")
        scale, turned = item.get("scale", 1.0), item.get("turned", False)
        if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not isinstance(turned, bool):
            raise ModelLoadError(f"{where!r}: {key}[{i}]: scale must be a number and turned true or false, "
                                 f"got {item!r}")
        if not 1 - MAX_ZOOM <= float(scale) <= 1 + MAX_ZOOM or (float(scale) == 1.0 and not turned):
            raise ModelLoadError(f"{where!r}: {key}[{i}]: a view zooms by {1 - MAX_ZOOM}..{1 + MAX_ZOOM} "
                                 f"and differs from the card as given, got {item!r}")
        views.append(View(float(scale), turned))
    return tuple(views)


def reframe(card: npt.NDArray[np.uint8], scale: float) -> npt.NDArray[np.uint8]:
    """``card`` (rectified, (280, 200, 3)) zoomed ``scale`` times about its centre, border repeated."""
    cx, cy = (RECT_W - 1) / 2, (RECT_H - 1) / 2
    matrix = np.array([[scale, 0, (1 - scale) * cx], [0, scale, (1 - scale) * cy]], np.float32)
    return np.asarray(cv2.warpAffine(card, matrix, (RECT_W, RECT_H), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE), np.uint8)


def zoomed_feeds(cards: Sequence[npt.NDArray[np.uint8]], scale: float) -> dict[str, npt.NDArray[np.float32]]:
    """``preprocess([reframe(card, scale) ...])``, made faster: the face and the two corner
    boxes of the zoomed card are resized straight from the matching boxes of the card
    (rounded to whole pixels, the border repeated where a box reaches past the card)."""
    pad = int(np.ceil(max(0.0, 1 / scale - 1) * max(RECT_W, RECT_H) / 2)) + 1

    def box(x0: float, x1: float, y0: float, y1: float) -> tuple[slice, slice]:
        """Zoomed-card box (pixel edges) -> rows and columns of the padded card."""
        def at(v: float, half: float) -> int:
            return int(round(half + (v - half) / scale)) + pad
        return slice(at(y0, RECT_H / 2), at(y1, RECT_H / 2)), slice(at(x0, RECT_W / 2), at(x1, RECT_W / 2))

    face_box = box(0, RECT_W, 0, RECT_H)
    top_left = box(0, CORNER_BOX_W, 0, CORNER_BOX_H)
    bottom_right = box(RECT_W - CORNER_BOX_W, RECT_W, RECT_H - CORNER_BOX_H, RECT_H)
    faces, corners = [], []
    for card in cards:
        big = cv2.copyMakeBorder(card, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
        faces.append(cv2.resize(big[face_box], (FACE_W, FACE_H), interpolation=cv2.INTER_AREA))
        corners.append(np.stack([
            cv2.resize(big[top_left], (CORNER_W, CORNER_H), interpolation=cv2.INTER_AREA),
            cv2.resize(np.ascontiguousarray(big[bottom_right][::-1, ::-1]), (CORNER_W, CORNER_H),
                       interpolation=cv2.INTER_AREA)]))
    return feeds_of(np.stack(faces), np.stack(corners))


def turn_feeds(feeds: Mapping[str, npt.NDArray[np.float32]]) -> dict[str, npt.NDArray[np.float32]]:
    """The feeds of the same cards turned half round: the corner boxes swap, the face turns."""
    return {"corners": np.ascontiguousarray(feeds["corners"][:, ::-1]),
            "face": np.ascontiguousarray(feeds["face"][:, :, ::-1, ::-1])}


def view_feeds(cards: Sequence[npt.NDArray[np.uint8]], feeds: Mapping[str, npt.NDArray[np.float32]],
               views: Sequence[View]) -> dict[str, npt.NDArray[np.float32]]:
    """The network inputs of every view of every card, view after view (``len(views) * len(cards)`` rows).

    ``feeds`` are the cards' own inputs (:func:`vision.preprocess.preprocess`); a zoom is
    made once (:func:`zoomed_feeds`) whether or not a turned view shares it.
    """
    by_scale: dict[float, Mapping[str, npt.NDArray[np.float32]]] = {1.0: feeds}
    parts = []
    for view in views:
        if view.scale not in by_scale:
            by_scale[view.scale] = zoomed_feeds(cards, view.scale)
        base = by_scale[view.scale]
        parts.append(turn_feeds(base) if view.turned else dict(base))
    return {name: np.concatenate([p[name] for p in parts]) for name in ("corners", "face")}
