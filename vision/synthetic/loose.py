"""Loose cards on a bare table (no mat), with known ground truth, for tests and benchmarks.

Cards are drawn from shapes (a white rounded rectangle, its indices in two corners,
a few pips; or a patterned back), laid on a table plane in millimetres, and seen by a
pinhole camera tilted ``tilt_deg`` above the table (90 = straight down): the one
synthetic camera of :mod:`vision.synthetic.camera`, through :func:`camera_homography`. Everything
is seeded: the same arguments give the same pixels. No card art packages are needed.

>>> scene = render_scene(np.random.default_rng(0), n_cards=3, size_wh=(640, 360))
>>> scene.bgr.shape, len(scene.truth)
((360, 640, 3), 3)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from engine.cards import Card, all_kinds
from vision.geometry import CARD_H_MM, CARD_W_MM
from vision.readings import CardDetections
from vision.synthetic.camera import camera_homography

__all__ = ["BACKGROUNDS", "SyntheticScene", "camera_homography", "draw_card", "render_scene",
           "table_texture"]

BgrImage = npt.NDArray[np.uint8]
FloatArray = npt.NDArray[np.float32]

BACKGROUNDS = ("wood", "cloth", "paper", "white", "dark")
_PX_PER_MM = 5.0
_RED = (40, 30, 200)
_BLACK = (30, 30, 30)


@dataclass(frozen=True)
class SyntheticScene:
    bgr: BgrImage
    truth: CardDetections  # quad_xy, label (None for a back), face_down, cut
    tilt_deg: float
    background: str
    table_to_image: npt.NDArray[np.float64]  # homography: table millimetres -> pixels


def draw_card(card: Card | None, px_per_mm: float = _PX_PER_MM) -> tuple[BgrImage, FloatArray]:
    """A card face (or a back when ``card`` is None) upright in portrait, and its alpha."""
    w, h = round(CARD_W_MM * px_per_mm), round(CARD_H_MM * px_per_mm)
    radius = round(3.0 * px_per_mm)
    alpha = np.zeros((h, w), np.uint8)
    cv2.rectangle(alpha, (radius, 0), (w - 1 - radius, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, radius), (w - 1, h - 1 - radius), 255, -1)
    for cx, cy in ((radius, radius), (w - 1 - radius, radius), (radius, h - 1 - radius),
                   (w - 1 - radius, h - 1 - radius)):
        cv2.circle(alpha, (cx, cy), radius, 255, -1, lineType=cv2.LINE_AA)
    face = np.full((h, w, 3), (238, 244, 246), np.uint8)
    if card is None:
        margin = round(4 * px_per_mm)
        cv2.rectangle(face, (margin, margin), (w - margin, h - margin), (120, 40, 30), -1)
        step = round(4 * px_per_mm)
        for k in range(-h, w + h, step):
            cv2.line(face, (k, margin), (k + h, margin + h), (200, 160, 150), 2)
        face[:margin], face[-margin:], face[:, :margin], face[:, -margin:] = 238, 238, 238, 238
    else:
        colour = _RED if card.is_red else _BLACK
        scale = px_per_mm / 5.0
        text = card.rank_text + card.suit.value

        def corner_index(img: BgrImage) -> None:
            cv2.putText(img, card.rank_text, (round(2.5 * px_per_mm), round(9 * px_per_mm)),
                        cv2.FONT_HERSHEY_SIMPLEX, 1.3 * scale, colour, max(1, round(3 * scale)),
                        cv2.LINE_AA)
            cv2.putText(img, card.suit.value, (round(3 * px_per_mm), round(17 * px_per_mm)),
                        cv2.FONT_HERSHEY_SIMPLEX, 1.0 * scale, colour, max(1, round(2 * scale)),
                        cv2.LINE_AA)

        corner_index(face)
        face = np.ascontiguousarray(face[::-1, ::-1])
        corner_index(face)
        face = np.ascontiguousarray(face[::-1, ::-1])
        if card.is_face:
            cv2.rectangle(face, (round(11 * px_per_mm), round(11 * px_per_mm)),
                          (w - round(11 * px_per_mm), h - round(11 * px_per_mm)), colour, 2)
        pips = min(card.rank, 10) if not card.is_face else 1
        for k in range(pips):
            col, row = k % 2, k // 2
            cx = round(w * (0.36 + 0.28 * col)) if pips > 1 else w // 2
            cy = round(h * (0.22 + 0.14 * row)) if pips > 1 else h // 2
            cv2.putText(face, card.suit.value, (cx - round(4 * px_per_mm), cy + round(3 * px_per_mm)),
                        cv2.FONT_HERSHEY_DUPLEX, 1.2 * scale, colour, max(1, round(2 * scale)),
                        cv2.LINE_AA)
        del text
    # the rim: a card's cut edge and thickness show as a thin grey line
    rim = cv2.erode(alpha, np.ones((3, 3), np.uint8), iterations=max(1, round(0.25 * px_per_mm)))
    face[(alpha > 0) & (rim == 0)] = (165, 168, 170)
    return face, alpha.astype(np.float32) / 255.0


def table_texture(kind: str, size_wh: tuple[int, int], rng: np.random.Generator) -> BgrImage:
    """A table surface: wood grain, cloth, paper, a white or a dark table."""
    w, h = size_wh
    small = (max(8, w // 4), max(8, h // 4))
    noise = rng.normal(0, 1, (small[1], small[0])).astype(np.float32)
    noise = np.asarray(cv2.resize(cv2.GaussianBlur(noise, (0, 0), 2), (w, h)), dtype=np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "wood":
        angle = rng.uniform(0, math.pi)
        u = xx * math.cos(angle) + yy * math.sin(angle)
        grain = np.sin(u / rng.uniform(6, 14) + 3 * noise) * 0.5 + 0.5
        base = np.array(rng.uniform([30, 70, 110], [60, 110, 160]), np.float32)
        img = base * (0.75 + 0.35 * grain[..., None])
    elif kind == "cloth":
        base = np.array(rng.choice([[40, 110, 30], [110, 50, 30], [50, 40, 120]]), np.float32)
        weave = (np.sin(xx * 1.7) * np.sin(yy * 1.7)) * 0.06
        img = base * (1 + weave[..., None] + 0.08 * noise[..., None])
    elif kind == "paper":
        base = np.array([200, 215, 222], np.float32)
        img = base * (1 + 0.03 * noise[..., None])
    elif kind == "white":
        base = np.array([205, 208, 210], np.float32) * rng.uniform(0.85, 1.0)
        img = base * (1 + 0.02 * noise[..., None])
    elif kind == "dark":
        base = np.array([35, 35, 40], np.float32)
        img = base * (1 + 0.2 * noise[..., None])
    else:
        raise ValueError(f"table texture {kind!r} is not one of {BACKGROUNDS}")
    return np.asarray(np.clip(img, 0, 255), dtype=np.uint8)


def _card_quad_mm(center: npt.NDArray[np.float64], angle: float) -> npt.NDArray[np.float64]:
    hw, hh = CARD_W_MM / 2, CARD_H_MM / 2
    # the card's top edge lies toward +Y (away from the camera): seen from above the
    # face reads the right way round, not mirrored
    local = np.array([[-hw, hh], [hw, hh], [hw, -hh], [-hw, -hh]])
    c, s = math.cos(angle), math.sin(angle)
    return np.asarray(local @ np.array([[c, s], [-s, c]]) + center, dtype=np.float64)


def _project(hom: npt.NDArray[np.float64], pts: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    p = np.column_stack([pts, np.ones(len(pts))]) @ hom.T
    return p[:, :2] / p[:, 2:3]


def _overlaps(quad: npt.NDArray[np.float64], others: Sequence[npt.NDArray[np.float64]],
              gap_mm: float) -> bool:
    center = quad.mean(axis=0)
    grown = center + (quad - center) * (1 + gap_mm / CARD_W_MM)
    for other in others:
        inter, _ = cv2.intersectConvexConvex(grown.astype(np.float32), other.astype(np.float32))
        if inter > 1e-3:
            return True
    return False


def render_scene(rng: np.random.Generator, n_cards: int = 8, size_wh: tuple[int, int] = (1920, 1080),
                 tilt_deg: float = 90.0, background: str = "wood", touching: int = 0,
                 cut: int = 0, backs: int = 0, labels: Sequence[Card] | None = None,
                 min_short_side_px: float = 60.0, noise: float = 4.0,
                 face_images: Sequence[BgrImage] | None = None) -> SyntheticScene:
    """Lay ``n_cards`` cards (``touching`` of them edge to edge with another card,
    ``cut`` of them across the frame edge, ``backs`` face down) and photograph them.

    ``face_images`` (upright portrait card pictures, e.g. real card art) replace the
    drawn faces, card k showing ``face_images[k]``; pass ``labels`` to say what they are.
    """
    w, h = size_wh
    scale = w / 1920
    distance = rng.uniform(650, 850)
    hom = camera_homography(tilt_deg, size_wh, distance, focal_px=0.8 * w / scale * scale)
    inv = np.asarray(np.linalg.inv(hom), dtype=np.float64)
    kinds = list(labels) if labels is not None else list(rng.choice(np.array(all_kinds(), dtype=object),
                                                                    n_cards))
    placed: list[npt.NDArray[np.float64]] = []
    is_cut: list[bool] = []
    min_side = min_short_side_px * scale
    for k in range(n_cards):
        want_cut = k >= n_cards - cut
        want_touch = 0 < k and k <= touching and placed
        for _attempt in range(400):
            if want_touch:
                base = placed[int(rng.integers(len(placed)))]
                offset = (base[1] - base[0]) if rng.random() < 0.5 else (base[3] - base[0])
                gap = rng.uniform(0.0, 0.6)
                quad = base + offset * (1 + gap / np.linalg.norm(offset)) * rng.choice([-1, 1])
            else:
                margin = 0.0 if want_cut else 0.03
                px = rng.uniform(margin, 1 - margin, 2) * [w, h]
                if want_cut:
                    side = int(rng.integers(4))
                    px[side % 2] = [0, w, 0, h][side] if side < 2 else px[side % 2]
                    px = np.array([rng.choice([0.0, w]), rng.uniform(0.2, 0.8) * h]) if side < 2 else \
                        np.array([rng.uniform(0.2, 0.8) * w, rng.choice([0.0, h])])
                    px = px + rng.uniform(-0.25, 0.25, 2) * min_side * 3
                center = _project(inv, np.asarray(px[None], dtype=np.float64))[0]
                quad = _card_quad_mm(center, rng.uniform(0, math.pi))
            img_quad = _project(hom, quad)
            short = min(np.linalg.norm(img_quad - np.roll(img_quad, -1, axis=0), axis=1))
            inside = bool(np.all((img_quad >= 2) & (img_quad <= [w - 3, h - 3])))
            if short < min_side or (inside == want_cut) or _overlaps(quad, placed, 0.0 if want_touch else 4.0):
                continue
            if want_cut and not np.any((img_quad >= 0).all(1) & (img_quad < [w, h]).all(1)):
                continue  # too little of it shows
            placed.append(quad)
            is_cut.append(want_cut)
            break
    image = table_texture(background, size_wh, rng).astype(np.float32)
    faces = []
    for k, quad in enumerate(placed):
        label = None if k < backs else kinds[k]
        faces.append(label)
        face, alpha = draw_card(label)
        if face_images is not None:
            art = face_images[k]
            face = np.asarray(cv2.resize(art, (alpha.shape[1], alpha.shape[0]), interpolation=cv2.INTER_AREA),
                              dtype=np.uint8)
            face[alpha == 0] = 0
        fh, fw = alpha.shape
        src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
        img_quad = _project(hom, quad).astype(np.float32)
        x0, y0 = np.floor(img_quad.min(0)).astype(int) - 6
        x1, y1 = np.ceil(img_quad.max(0)).astype(int) + 6
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if x1 <= x0 or y1 <= y0:
            continue
        m = cv2.getPerspectiveTransform(src, (img_quad - [x0, y0]).astype(np.float32)).astype(np.float64)
        roi = (x1 - x0, y1 - y0)
        a = cv2.warpPerspective(alpha, m, roi, flags=cv2.INTER_AREA)
        shadow = cv2.GaussianBlur(cv2.warpPerspective(alpha, m @ _shift(2, 3), roi), (0, 0), 2.0)
        f = cv2.warpPerspective(face, m, roi, flags=cv2.INTER_AREA).astype(np.float32)
        patch = image[y0:y1, x0:x1]
        patch *= (1 - 0.35 * shadow)[..., None]
        edge = cv2.warpPerspective(alpha, m, roi, flags=cv2.INTER_LINEAR)
        patch[:] = patch * (1 - a[..., None]) + f * a[..., None] * (0.93 + 0.07 * edge[..., None])
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    light = 0.85 + 0.2 * (xx / w) * rng.uniform(0.5, 1) + 0.1 * (yy / h)
    image = image * light[..., None] + rng.normal(0, noise, image.shape).astype(np.float32)
    image = cv2.GaussianBlur(np.clip(image, 0, 255).astype(np.uint8), (0, 0), 0.7 * max(scale, 0.5))
    quads = np.array([_project(hom, q) for q in placed], np.float32).reshape(-1, 4, 2)
    truth = CardDetections(quad_xy=quads, label=faces, confidence=np.ones(len(placed), np.float32),
                           face_down=[f is None for f in faces], cut=is_cut)
    return SyntheticScene(image, truth, tilt_deg, background, hom)


def _shift(dx: float, dy: float) -> npt.NDArray[np.float64]:
    return np.array([[1, 0, dx], [0, 1, dy], [0, 0, 1]], np.float64)
