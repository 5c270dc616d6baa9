"""Overlapping cards with known truth: columns (an Eleusis side branch laid short) and fans.

Each card is a face picture (upright portrait, e.g. a rendered design) laid on a table
texture (:func:`vision.synthetic.loose.table_texture`), every later card on top of the
earlier ones. The truth says, for each card, where its top-left index lies and whether it
still shows (no later card covers it): those are the cards a person reads at a glance.

>>> import numpy as np
>>> from engine.cards import Card
>>> face = np.full((280, 200, 3), 235, np.uint8)
>>> scene = render_overlaps([(Card.parse("7H"), face), (Card.parse("8S"), face)], np.random.default_rng(1),
...                         size_wh=(400, 300), layout="column")
>>> scene.bgr.shape, scene.index_shows
((300, 400, 3), (True, True))
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from engine.cards import Card
from vision.synthetic.loose import table_texture

__all__ = ["INDEX_BOX", "OverlapScene", "render_overlaps"]

BgrImage = npt.NDArray[np.uint8]
FloatArray = npt.NDArray[np.float32]

# the index (rank over suit) of a 200 x 280 face: x0, y0, x1, y1
INDEX_BOX = (4, 6, 34, 72)
_FACE_W, _FACE_H = 200, 280


@dataclass(frozen=True)
class OverlapScene:
    bgr: BgrImage
    cards: tuple[Card, ...]  # in the order laid (later ones on top)
    quad_xy: FloatArray  # (n, 4, 2): each card's outline, top-left first, clockwise
    index_xy: FloatArray  # (n, 2): the middle of each card's top-left index
    other_index_xy: FloatArray  # (n, 2): the middle of its bottom-right index (turned)
    index_shows: tuple[bool, ...]  # that index is not covered by a later card


def _alpha() -> npt.NDArray[np.float32]:
    radius = 10
    alpha = np.zeros((_FACE_H, _FACE_W), np.uint8)
    cv2.rectangle(alpha, (radius, 0), (_FACE_W - 1 - radius, _FACE_H - 1), 255, -1)
    cv2.rectangle(alpha, (0, radius), (_FACE_W - 1, _FACE_H - 1 - radius), 255, -1)
    for cx, cy in ((radius, radius), (_FACE_W - 1 - radius, radius), (radius, _FACE_H - 1 - radius),
                   (_FACE_W - 1 - radius, _FACE_H - 1 - radius)):
        cv2.circle(alpha, (cx, cy), radius, 255, -1, lineType=cv2.LINE_AA)
    return alpha.astype(np.float32) / 255.0


def _rotation(angle_deg: float, scale: float) -> npt.NDArray[np.float64]:
    a = math.radians(angle_deg)
    return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]]) * scale


def _placements(n: int, layout: str, rng: np.random.Generator, centre: npt.NDArray[np.float64],
                card_w: float, turn: float, step: float | None = None) -> list[npt.NDArray[np.float64]]:
    """Each card's 2 x 3 map from face pixels to picture pixels; ``step``: a column's
    offset (a share of a card's height, 0.3 by default) or a fan's turn (degrees, 14)."""
    s = card_w / _FACE_W
    middle = np.array([_FACE_W / 2, _FACE_H / 2])
    pivot = np.array([_FACE_W / 2, _FACE_H * 1.15])  # a fan turns about a point below the cards
    out = []
    for k in range(n):
        if layout == "column":  # each card 0.3 of a card lower: the index above it shows
            rot = _rotation(turn + rng.uniform(-3, 3), s)
            place = centre + _rotation(turn, s) @ np.array([rng.uniform(-0.04, 0.04) * _FACE_W,
                                                            (k - (n - 1) / 2) * (step or 0.3) * _FACE_H])
            origin = place - rot @ middle
        elif layout == "fan":  # each card turned 14 degrees further, clockwise, on top
            rot = _rotation(turn + (k - (n - 1) / 2) * (step or 14.0), s)
            origin = centre - rot @ pivot
        else:
            raise ValueError(f"layout must be 'column' or 'fan', got {layout!r}")
        out.append(np.hstack([rot, origin[:, None]]))
    return out


def render_overlaps(faces: Sequence[tuple[Card, BgrImage]], rng: np.random.Generator,
                    size_wh: tuple[int, int] = (640, 480), layout: str = "column", card_w_px: float = 110.0,
                    background: str = "white", centre_xy: tuple[float, float] | None = None,
                    turn_deg: float | None = None, base: BgrImage | None = None,
                    step: float | None = None) -> OverlapScene:
    """Lay ``faces`` (card, upright portrait picture) as one ``layout`` ("column" or "fan").

    ``base``: a picture to lay them on (another scene's), else a ``background`` texture.
    ``step``: how far each card lies from the one under it: a column's offset (a share of a
    card's height, 0.3 by default) or a fan's turn (degrees, 14 by default).
    """
    w, h = size_wh
    image = (base.copy() if base is not None else table_texture(background, size_wh, rng)).astype(np.float32)
    centre = np.array(centre_xy if centre_xy is not None else (w / 2, h / 2), np.float64)
    turn = float(turn_deg if turn_deg is not None else rng.uniform(-180, 180))
    maps = _placements(len(faces), layout, rng, centre, card_w_px, turn, step)
    alpha = _alpha()
    covers = np.zeros((len(faces), h, w), np.float32)
    for k, ((_card, face), m) in enumerate(zip(faces, maps, strict=True)):
        picture = cv2.resize(face, (_FACE_W, _FACE_H), interpolation=cv2.INTER_AREA).astype(np.float32)
        a = cv2.warpAffine(alpha, m, (w, h), flags=cv2.INTER_LINEAR)
        f = cv2.warpAffine(picture, m, (w, h), flags=cv2.INTER_AREA)
        shadow = cv2.GaussianBlur(cv2.warpAffine(alpha, m + np.array([[0, 0, 2.0], [0, 0, 3.0]]), (w, h)), (0, 0), 2.0)
        image *= (1 - 0.3 * shadow * (1 - a))[..., None]
        image = image * (1 - a[..., None]) + f * a[..., None]
        covers[k] = a
    image += rng.normal(0, 3.0, image.shape).astype(np.float32)
    bgr = cv2.GaussianBlur(np.clip(image, 0, 255).astype(np.uint8), (0, 0), 0.6)
    x0, y0, x1, y1 = INDEX_BOX
    quads, centres, others, shows = [], [], [], []
    for k, m in enumerate(maps):
        corners = np.array([[0, 0, 1], [_FACE_W, 0, 1], [_FACE_W, _FACE_H, 1], [0, _FACE_H, 1]], np.float64)
        quads.append((m @ corners.T).T)
        centres.append(m @ np.array([(x0 + x1) / 2, (y0 + y1) / 2, 1.0]))
        others.append(m @ np.array([_FACE_W - (x0 + x1) / 2, _FACE_H - (y0 + y1) / 2, 1.0]))
        box = np.zeros((h, w), np.uint8)
        pts = (m @ np.array([[x0, y0, 1], [x1, y0, 1], [x1, y1, 1], [x0, y1, 1]], np.float64).T).T
        cv2.fillConvexPoly(box, np.round(pts).astype(np.int32), 1)
        inside = box > 0
        hidden = covers[k + 1:].max(axis=0) > 0.5 if k + 1 < len(maps) else np.zeros((h, w), bool)
        on_picture = inside.sum() >= 0.95 * cv2.contourArea(pts.astype(np.float32))
        shows.append(bool(on_picture and inside.any() and (hidden & inside).sum() <= 0.05 * inside.sum()))
    return OverlapScene(np.asarray(bgr, np.uint8), tuple(card for card, _ in faces), np.asarray(quads, np.float32),
                        np.asarray(centres, np.float32), np.asarray(others, np.float32), tuple(shows))
