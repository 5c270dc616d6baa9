"""Cards lying alone on pale and busy table tops, where the card barely stands out.

A poker table seen from above or at a slant: a board of up to five cards in a tidy row
(3 to 20 % of a card's width apart) and pairs of cards side by side, none covering
another, or laid as players' hands, one card over the other (``overlap``), with chip
stacks beside them (``chips``), on one of :data:`SURFACES`:

- ``maple``, ``birch``: pale wood, a little darker and yellower than the paper, with
  grain;
- ``white_cloth``: a white table cloth with a soft weave, almost the paper's own white;
- ``patterned_cloth``: a light cloth printed with small dark motifs (print the ink
  detector and the outline detector both see);
- ``laminate``: a light-grey laminate top;
- ``felt``: the dark green felt where the card stands out, the control.

The photo is taken in one of :data:`LIGHTS` (:func:`light_photo`): ``room`` (warm bulbs,
well exposed), ``dim`` (2 to 4 stops under), ``warm_low`` (dim under a tungsten bulb:
the paper orange), ``vignette`` (a cheap lens: the corners 1.5 to 2.5 stops under the
middle), ``glare`` (a lamp's reflection burnt out over part of the table), ``haze``
(a washed-out, low-contrast photo: the ink grey, the paper no whiter than a pale top),
``shade`` (a player's shadow, 1.5 to 3 stops deep with a soft edge, over part of the
table: the cards in it darker than the lit top beside them) and ``arm`` (the shadow of an
arm or of the phone taking the photo: a band a sixth to a quarter of the shorter side wide
across the table, 1.5 to 2.5 stops deep, its edges soft: narrower than a card's length).

The cards are face pictures (upright portrait, BGR or BGRA; a BGR picture gets the
rounded outline of :func:`vision.synthetic.cards.cut_out`), laid flat at ``card_h_px``
and then the whole top is seen through a slant (the near edge wider, rows foreshortened).

>>> import numpy as np
>>> from engine.cards import Card
>>> faces = [(Card.parse("7H"), np.full((280, 200, 3), 235, np.uint8))] * 3
>>> scene = render_card_table(faces, np.random.default_rng(0), "white_cloth", size_wh=(640, 360), card_h_px=90)
>>> scene.bgr.shape, len(scene.truth) == len(scene.cards)
((360, 640, 3), True)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from engine.cards import Card
from vision.readings import CardDetections
from vision.synthetic.cards import cut_out

__all__ = ["LIGHTS", "SURFACES", "SurfaceScene", "laid_kinds", "light_photo", "render_card_table", "surface_texture"]

BgrImage = npt.NDArray[np.uint8]
FloatArray = npt.NDArray[np.float32]

SURFACES = ("maple", "birch", "white_cloth", "patterned_cloth", "laminate", "felt")
LIGHTS = ("room", "dim", "warm_low", "vignette", "glare", "haze", "shade", "arm")
_ASPECT = 63.0 / 88.0  # a poker card's width over its height


@dataclass(frozen=True)
class SurfaceScene:
    bgr: BgrImage
    truth: CardDetections  # the outline and label of every card laid
    cards: tuple[Card, ...]
    surface: str
    slant: float  # 0 = straight from above; the far edge is (1 - slant) of the near one


def _noise(rng: np.random.Generator, w: int, h: int, cell: int, sigma: float) -> FloatArray:
    small = rng.normal(0, 1, (max(2, h // cell), max(2, w // cell))).astype(np.float32)
    small = np.asarray(cv2.GaussianBlur(small, (0, 0), sigma), np.float32)
    small /= max(float(small.std()), 1e-6)
    return np.asarray(cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC), np.float32)


def surface_texture(kind: str, size_wh: tuple[int, int], rng: np.random.Generator) -> BgrImage:
    """A table top of ``kind`` (one of :data:`SURFACES`), ``size_wh`` pixels."""
    w, h = size_wh
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    fine = rng.normal(0, 1, (h, w)).astype(np.float32)
    if kind in ("maple", "birch"):
        base = np.array([150, 190, 218] if kind == "maple" else [170, 200, 214], np.float32)
        base *= rng.uniform(0.95, 1.05)
        angle = rng.uniform(-0.15, 0.15) + (0.0 if rng.random() < 0.5 else math.pi / 2)
        u = xx * math.cos(angle) + yy * math.sin(angle)
        v = -xx * math.sin(angle) + yy * math.cos(angle)
        warp = 25 * _noise(rng, w, h, 64, 2.0)
        stripes = np.sin((v + warp) / rng.uniform(3.0, 7.0)) * 0.5 + 0.5
        streak = _noise(rng, w, h, 16, 1.0) * 0.5 + 0.5 * np.sin(u / 400.0)
        planks = np.sign(np.sin(v / rng.uniform(150, 260))) * 0.02
        shade = 1 + 0.05 * stripes * (0.6 + 0.4 * streak) - 0.04 + planks + 0.02 * streak + 0.01 * fine
        img = base * shade[..., None]
    elif kind == "white_cloth":
        base = np.array([240, 244, 246], np.float32) * rng.uniform(0.94, 1.0)
        period = rng.uniform(2.5, 4.0)
        weave = 0.012 * np.sin(xx * 2 * math.pi / period) * np.sin(yy * 2 * math.pi / period)
        folds = 0.03 * _noise(rng, w, h, 96, 2.0)
        img = base * (1 + weave + folds + 0.01 * fine)[..., None]
    elif kind == "patterned_cloth":
        ground = np.array(rng.choice([[215, 225, 235], [225, 220, 205], [205, 215, 215]]), np.float32)
        ink = np.array(rng.choice([[120, 60, 40], [40, 40, 150], [60, 110, 60]]), np.float32)
        img = np.empty((h, w, 3), np.float32)
        img[:] = ground
        step = int(rng.integers(40, 70))
        motif = np.zeros((h, w), np.uint8)
        for y in range(0, h + step, step):
            for x in range(0, w + step, step):
                cx, cy = x + (step // 2 if (y // step) % 2 else 0), y
                shape = int(rng.integers(3))
                r = int(step * rng.uniform(0.12, 0.22))
                if shape == 0:
                    cv2.circle(motif, (cx, cy), r, 255, -1, cv2.LINE_AA)
                elif shape == 1:
                    cv2.ellipse(motif, (cx, cy), (r, r // 2 + 1), float(rng.uniform(0, 180)), 0, 360, 255, 2,
                                cv2.LINE_AA)
                else:
                    cv2.line(motif, (cx - r, cy - r), (cx + r, cy + r), 255, 2, cv2.LINE_AA)
                    cv2.line(motif, (cx - r, cy + r), (cx + r, cy - r), 255, 2, cv2.LINE_AA)
        a = motif.astype(np.float32)[..., None] / 255.0
        img = img * (1 - 0.8 * a) + ink * 0.8 * a
        img *= (1 + 0.02 * _noise(rng, w, h, 96, 2.0) + 0.01 * fine)[..., None]
    elif kind == "laminate":
        base = np.array([188, 190, 192], np.float32) * rng.uniform(0.92, 1.05)
        speck = (rng.random((h, w)) < 0.01).astype(np.float32) * rng.uniform(-25, 25)
        img = base * (1 + 0.015 * _noise(rng, w, h, 24, 1.0) + 0.01 * fine)[..., None] + speck[..., None]
    elif kind == "felt":
        base = np.array([40, 90, 30], np.float32) * rng.uniform(0.85, 1.1)
        img = base * (1 + 0.06 * _noise(rng, w, h, 8, 1.0) + 0.05 * fine)[..., None]
    else:
        raise ValueError(f"surface {kind!r} is not one of {', '.join(SURFACES)}")
    return np.asarray(np.clip(img, 0, 255), np.uint8)


def _face_and_alpha(face: BgrImage, card: Card) -> tuple[BgrImage, FloatArray]:
    """The picture and its outline. A rendered design (BGRA) often draws a dark line round
    the card, which a printed card does not have (its cut edge is bare paper): that rim
    is painted over with the card's paper."""
    if face.ndim == 3 and face.shape[2] == 4:
        picture = np.ascontiguousarray(face[..., :3])
        alpha = face[..., 3].astype(np.float32) / 255.0
        rim_px = max(2, round(0.02 * face.shape[1]))
        inner = cv2.erode((alpha > 0.5).astype(np.uint8), np.ones((2 * rim_px + 1, 2 * rim_px + 1), np.uint8))
        paper = np.round(np.percentile(picture[inner > 0].reshape(-1, 3), 90, axis=0)).astype(np.uint8)
        picture = picture.copy()
        picture[(alpha > 0) & (inner == 0)] = paper
        # a frame line drawn a little inside the edge: a row or column of the outer band
        # that is dark along most of the card's length (an index is short)
        dark = picture.astype(np.int16).sum(axis=2) < 0.75 * int(paper.astype(np.int16).sum())
        h, w = dark.shape
        band = max(3, round(0.06 * w))
        for x in [*range(band), *range(w - band, w)]:
            if dark[:, x].mean() > 0.5:
                picture[dark[:, x], x] = paper
        for y in [*range(band), *range(h - band, h)]:
            if dark[y].mean() > 0.5:
                picture[y, dark[y]] = paper
        return picture, alpha
    cut = cut_out(np.asarray(face, np.uint8), card)
    return cut.image_bgr, cut.alpha


def _slant_map(size_wh: tuple[int, int], slant: float) -> npt.NDArray[np.float64]:
    """Flat top (pixels) -> picture: seen at a slant, the near (bottom) edge of the flat top
    spreads ``1 + slant`` times wider than the far one, which spans the picture, so the
    picture shows table everywhere; rows are foreshortened toward the far edge."""
    w, h = size_wh
    if slant <= 0:
        return np.eye(3)
    spread = slant * w / 2
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    dst = np.array([[0, 0], [w, 0], [w + spread, h], [-spread, h]], np.float32)
    return cv2.getPerspectiveTransform(src, dst).astype(np.float64)


def _seen(slant_map: npt.NDArray[np.float64], quad: npt.NDArray[np.float64], size_wh: tuple[int, int]) -> bool:
    pts = np.concatenate([quad, np.ones((4, 1))], axis=1) @ slant_map.T
    xy = pts[:, :2] / pts[:, 2:]
    w, h = size_wh
    return bool(np.all((xy >= 0.02 * h) & (xy <= [w - 0.02 * h, h - 0.02 * h])))


def _placements(n_faces: int, rng: np.random.Generator, flat_wh: tuple[int, int], card_w: float, card_h: float,
                slant_map: npt.NDArray[np.float64], overlap: float = 0.0) -> list[npt.NDArray[np.float64]]:
    """Card outlines (4 x 2, top-left first, clockwise) laid flat: a board of up to five in a
    row across the middle, then pairs side by side, none touching another. A share
    ``overlap`` of the pairs is a player's hand instead: the second card laid over the first,
    shifted a quarter to a half of its width either way and turned up to 15 degrees, so an
    index of the first mostly shows (:func:`laid_kinds`; a hand touches no other card)."""
    w, h = flat_wh
    gap = 0.12 * card_w
    quads: list[npt.NDArray[np.float64]] = []
    local = np.array([[-card_w / 2, -card_h / 2], [card_w / 2, -card_h / 2], [card_w / 2, card_h / 2],
                      [-card_w / 2, card_h / 2]])

    def fits(quad: npt.NDArray[np.float64]) -> bool:
        if not _seen(slant_map, quad, (w, h)):
            return False
        grown = quad.mean(axis=0) + (quad - quad.mean(axis=0)) * (1 + gap / card_w)
        return all(cv2.intersectConvexConvex(grown.astype(np.float32), q.astype(np.float32))[0] <= 0 for q in quads)

    def turned(centre: npt.NDArray[np.float64], angle: float) -> npt.NDArray[np.float64]:
        c, s = math.cos(angle), math.sin(angle)
        return np.asarray(local @ np.array([[c, s], [-s, c]]) + centre, np.float64)

    # a dealer lays the board in a tidy row, often only a few millimetres apart
    step = card_w * (1 + rng.uniform(0.03, 0.2))
    board = min(5, n_faces, int((0.9 * w) // step))
    y = h * rng.uniform(0.4, 0.6)
    x0 = (w - board * step) / 2 + step / 2
    for k in range(board):
        quad = turned(np.array([x0 + k * step, y + rng.uniform(-0.02, 0.02) * card_h]),
                      math.radians(rng.uniform(-2, 2)))
        if _seen(slant_map, quad, (w, h)) and not any(_touch(quad, q) for q in quads):
            quads.append(quad)
    for _pair in range((n_faces - len(quads)) // 2):
        if overlap > 0 and rng.random() < overlap:
            hand = _hand(rng, card_w, card_h, turned, fits, (w, h))
            if hand:
                quads += hand
            continue
        for _attempt in range(200):
            angle = rng.uniform(-math.pi, math.pi)
            centre = rng.uniform([0, 0], [w, h])
            half = np.array([math.cos(angle), math.sin(angle)]) * (card_w + rng.uniform(1.5, 3.0) * gap) / 2
            pair = [turned(centre - half, angle + math.radians(rng.uniform(-6, 6))),
                    turned(centre + half, angle + math.radians(rng.uniform(-6, 6)))]
            if fits(pair[0]) and fits(pair[1]) and not _touch(pair[0], pair[1]):
                quads += pair
                break
    return quads


def _hand(rng: np.random.Generator, card_w: float, card_h: float,
          turned: Callable[[npt.NDArray[np.float64], float], npt.NDArray[np.float64]],
          fits: Callable[[npt.NDArray[np.float64]], bool],
          flat_wh: tuple[int, int]) -> list[npt.NDArray[np.float64]]:
    """Two cards of a player's hand, the second over the first (or nothing where none fits)."""
    for _attempt in range(200):
        angle = rng.uniform(-math.pi, math.pi)
        centre = rng.uniform([0, 0], flat_wh)
        along = (1 if rng.random() < 0.7 else -1) * rng.uniform(0.22, 0.5) * card_w
        across = rng.uniform(-0.08, 0.12) * card_h
        c, s = math.cos(angle), math.sin(angle)
        shift = np.array([along * c - across * s, along * s + across * c])
        first = turned(centre, angle)
        second = turned(centre + shift, angle + math.radians(rng.uniform(-15, 15)))
        if fits(first) and fits(second):
            return [first, second]
    return []


def _touch(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> bool:
    return bool(cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))[0] > 0)


def render_card_table(faces: Sequence[tuple[Card, BgrImage]], rng: np.random.Generator, surface: str,
                      size_wh: tuple[int, int] = (1920, 1080), card_h_px: float = 300.0, slant: float = 0.0,
                      noise: float = 3.0, room_light: bool = True, light: str = "room", overlap: float = 0.0,
                      chips: int = 0) -> SurfaceScene:
    """Lay as many of ``faces`` as fit (a board, then pairs) on ``surface`` and photograph
    them from above (``slant`` 0) or at a slant (0.2-0.4: the near edge that much wider).
    ``card_h_px``: a card's height laid flat (at a slant, near cards are larger, far ones
    as laid). ``room_light``: a warm tint over everything, a slight defocus and a phone's
    JPEG compression, as a photo taken in a room. ``light``: one of :data:`LIGHTS`
    (:func:`light_photo`), before the sensor's noise and the JPEG. ``overlap``: the share of
    pairs laid as a player's hand, one card over the other (the truth lists cards in the
    order laid: a later one lies over an earlier one). ``chips``: that many stacks of
    poker chips on the bare top beside the cards."""
    if light not in LIGHTS:
        raise ValueError(f"light {light!r} is not one of {', '.join(LIGHTS)}")
    w, h = size_wh
    card_w = _ASPECT * card_h_px
    top = surface_texture(surface, size_wh, rng).astype(np.float32)
    slant_map = _slant_map(size_wh, slant)
    quads = _placements(len(faces), rng, size_wh, card_w, card_h_px, slant_map, overlap)
    if chips:
        _lay_chips(top, rng, chips, card_w, quads[:len(faces)])
    laid: list[tuple[Card, npt.NDArray[np.float64]]] = []
    for (card, face), quad in zip(faces, quads, strict=False):
        picture, alpha = _face_and_alpha(face, card)
        fh, fw = alpha.shape
        src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
        x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 8
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 8
        m = cv2.getPerspectiveTransform(src, (quad - [x0, y0]).astype(np.float32))
        roi = (int(x1 - x0), int(y1 - y0))
        a = cv2.warpPerspective(alpha, m, roi, flags=cv2.INTER_LINEAR)
        f = cv2.warpPerspective(picture, m, roi, flags=cv2.INTER_AREA).astype(np.float32)
        lift = np.array([[1, 0, 1.5], [0, 1, 2.5], [0, 0, 1]], np.float64)
        shadow = cv2.GaussianBlur(cv2.warpPerspective(alpha, lift @ m, roi), (0, 0), 2.5)
        patch = top[y0:y1, x0:x1]
        patch *= (1 - 0.18 * shadow * (1 - a))[..., None]
        patch[:] = patch * (1 - a[..., None]) + f * a[..., None]
        laid.append((card, quad))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, 2 * math.pi)
    lamp = 0.9 + 0.12 * ((xx / w - 0.5) * math.cos(angle) + (yy / h - 0.5) * math.sin(angle))
    top = top * lamp[..., None] * rng.uniform(0.9, 1.02)
    if slant > 0:
        top = np.asarray(cv2.warpPerspective(top, slant_map, size_wh, flags=cv2.INTER_LINEAR,
                                             borderMode=cv2.BORDER_REFLECT), np.float32)
    if room_light:  # warm bulbs: blue down, red up, paper and table alike
        top = top * np.array([rng.uniform(0.82, 0.95), rng.uniform(0.94, 1.0), 1.0], np.float32)
    top = light_photo(top, light, rng)
    top = top + rng.normal(0, noise, top.shape).astype(np.float32)
    blur = rng.uniform(0.8, 1.6) if room_light else 0.7
    bgr = np.asarray(cv2.GaussianBlur(np.clip(top, 0, 255).astype(np.uint8), (0, 0), blur), np.uint8)
    if room_light:
        ok, jpeg = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(80, 92))])
        decoded = cv2.imdecode(jpeg, cv2.IMREAD_COLOR) if ok else None
        bgr = bgr if decoded is None else np.asarray(decoded, np.uint8)
    if laid:
        flat = np.stack([q for _, q in laid]).astype(np.float64)
        pts = np.concatenate([flat.reshape(-1, 2), np.ones((flat.size // 2, 1))], axis=1) @ slant_map.T
        outlines = (pts[:, :2] / pts[:, 2:]).reshape(-1, 4, 2).astype(np.float32)
    else:
        outlines = np.zeros((0, 4, 2), np.float32)
    cards = tuple(c for c, _ in laid)
    truth = CardDetections(quad_xy=outlines, label=list(cards), confidence=np.ones(len(cards), np.float32))
    return SurfaceScene(np.asarray(bgr, np.uint8), truth, cards, surface, slant)


# where a card's index lies, in fractions of its width and height from its top-left corner
# (the bottom-right one is the same box turned half round)
_INDEX_BOX = ((0.0, 0.0), (0.2, 0.0), (0.2, 0.3), (0.0, 0.3))
_INDEX_SHOWS = 0.12  # an index at most this much covered shows (the index reader's own limit)


def laid_kinds(scene: SurfaceScene) -> list[str]:
    """Each laid card's kind: ``alone`` (touching no other card), ``over`` (overlapping, or
    overlapped with an index showing) or ``hidden`` (no index shows): a card laid later lies
    over one laid earlier."""
    quads = scene.truth.quad_xy
    h, w = scene.bgr.shape[:2]
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    out = []
    for i, quad in enumerate(quads):
        touching = [j for j in range(len(quads)) if j != i and cv2.intersectConvexConvex(
            quad.astype(np.float32), quads[j].astype(np.float32))[0] > 0]
        if not touching:
            out.append("alone")
            continue
        to_image = cv2.getPerspectiveTransform(unit, quad.astype(np.float32))
        cover = np.zeros((h, w), np.uint8)
        for j in touching:
            if j > i:
                cv2.fillConvexPoly(cover, np.round(quads[j]).astype(np.int32), 1)
        shown = False
        for box in (np.array(_INDEX_BOX, np.float32), 1 - np.array(_INDEX_BOX, np.float32)):
            corners = cv2.perspectiveTransform(box.reshape(-1, 1, 2), to_image).reshape(-1, 2)
            mask = np.zeros((h, w), np.uint8)
            cv2.fillConvexPoly(mask, np.round(corners).astype(np.int32), 1)
            area = max(int(mask.sum()), 1)
            shown |= int((mask & cover).sum()) / area <= _INDEX_SHOWS
        out.append("over" if shown else "hidden")
    return out


_CHIP_COLOURS = ((40, 40, 200), (170, 70, 30), (40, 130, 40), (35, 35, 35), (225, 225, 225), (40, 110, 220))


def _lay_chips(top: FloatArray, rng: np.random.Generator, stacks: int, card_w: float,
               quads: Sequence[npt.NDArray[np.float64]]) -> None:
    """Paint ``stacks`` stacks of poker chips on ``top`` (flat, in place) where no card lies:
    a disc of one colour with white inlays round its rim and a ring inside, a stack's lower
    chips showing as a crescent, a soft shadow beside it."""
    h, w = top.shape[:2]
    for _stack in range(stacks):
        for _attempt in range(100):
            r = card_w * rng.uniform(0.28, 0.4)
            cx, cy = rng.uniform(r, w - r), rng.uniform(r, h - r)
            disc = np.array([[cx + r * math.cos(t), cy + r * math.sin(t)] for t in np.linspace(0, 2 * math.pi, 16)])
            hull = cv2.convexHull(disc.astype(np.float32))
            if all(cv2.intersectConvexConvex(hull, cv2.convexHull(
                    (q.mean(axis=0) + 1.08 * (q - q.mean(axis=0))).astype(np.float32)))[0] <= 0 for q in quads):
                break
        else:
            continue
        colour = np.array(_CHIP_COLOURS[int(rng.integers(len(_CHIP_COLOURS)))], np.float32)
        paint = np.zeros((h, w), np.uint8)
        height = int(rng.integers(1, 6))
        lean = rng.uniform(0, 2 * math.pi)
        dx, dy = math.cos(lean) * r * 0.04, math.sin(lean) * r * 0.04
        shade = np.zeros((h, w), np.float32)
        cv2.circle(shade, (round(cx + 0.1 * r), round(cy + 0.15 * r)), round(r * 1.05), 1.0, -1, cv2.LINE_AA)
        shade = cv2.GaussianBlur(shade, (0, 0), 0.08 * r + 1)
        top *= (1 - 0.3 * shade)[..., None]
        for k in range(height, -1, -1):  # the lowest chip first, each one a little further along
            x, y = cx + k * dx, cy + k * dy
            paint[:] = 0
            cv2.circle(paint, (round(x), round(y)), round(r), 255, -1, cv2.LINE_AA)
            a = paint.astype(np.float32)[..., None] / 255.0
            top[:] = top * (1 - a) + colour * (0.85 if k else 1.0) * a
        inlay = np.zeros((h, w), np.uint8)
        for t in np.linspace(0, 2 * math.pi, 7)[:-1] + rng.uniform(0, 1):
            p = (round(cx + 0.82 * r * math.cos(t)), round(cy + 0.82 * r * math.sin(t)))
            cv2.ellipse(inlay, p, (max(2, round(0.16 * r)), max(1, round(0.08 * r))), math.degrees(t) + 90, 0, 360,
                        255, -1, cv2.LINE_AA)
        cv2.circle(inlay, (round(cx), round(cy)), round(0.55 * r), 255, max(1, round(0.04 * r)), cv2.LINE_AA)
        a = inlay.astype(np.float32)[..., None] / 255.0
        top[:] = top * (1 - a) + np.array([235, 238, 240], np.float32) * a


def light_photo(img: FloatArray, light: str, rng: np.random.Generator) -> FloatArray:
    """``img`` (BGR, 0-255, as a well exposed photo) as taken in ``light`` (one of
    :data:`LIGHTS`). Exposure and colour act on linear light (the picture's levels to the
    power 2.2): a photo 2 stops under keeps a quarter of the light, which its levels show as
    about half; a dim sensor's noise grows as its gain does."""
    if light == "room":
        return img
    h, w = img.shape[:2]
    linear = (np.clip(img, 0, 255) / 255.0) ** 2.2
    gain = np.ones((h, w), np.float32)
    tint = np.ones(3, np.float32)
    if light in ("dim", "warm_low"):
        gain *= 2.0 ** -rng.uniform(2.0, 4.0)
        if light == "warm_low":  # tungsten at 2700 K, not white-balanced: blue and green down
            tint = np.array([rng.uniform(0.3, 0.45), rng.uniform(0.6, 0.72), 1.0], np.float32)
    elif light == "vignette":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
        gain *= 2.0 ** (-rng.uniform(1.5, 2.5) * r2)
    elif light == "glare":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        cx, cy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
        radius = rng.uniform(0.08, 0.18) * min(h, w)
        spot = np.exp(-((xx - cx) ** 2 + ((yy - cy) * rng.uniform(1.0, 1.8)) ** 2) / (2 * radius ** 2))
        linear = linear + rng.uniform(0.8, 1.6) * spot[..., None]  # burns out near its middle
    elif light == "shade":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        turn = rng.uniform(0, 2 * math.pi)
        along = (xx - w / 2) * math.cos(turn) + (yy - h / 2) * math.sin(turn)
        edge = rng.uniform(-0.25, 0.1) * min(h, w)  # the shadow covers a third to two thirds
        soft = rng.uniform(0.02, 0.06) * min(h, w)
        inside = 1 / (1 + np.exp(-(along - edge) / soft))
        gain *= 2.0 ** (-rng.uniform(1.5, 3.0) * inside)
    elif light == "arm":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        turn = rng.uniform(0, math.pi)
        cx, cy = rng.uniform(0.35, 0.65) * w, rng.uniform(0.35, 0.65) * h
        across = (xx - cx) * math.cos(turn) + (yy - cy) * math.sin(turn)
        half = rng.uniform(1 / 12, 1 / 8) * min(h, w)
        soft = rng.uniform(0.008, 0.02) * min(h, w)
        inside = 1 / (1 + np.exp(np.minimum((np.abs(across) - half) / soft, 60.0)))
        gain *= 2.0 ** (-rng.uniform(1.5, 2.5) * inside)
    elif light == "haze":
        fog = rng.uniform(0.25, 0.4)  # a veil of stray light over a photo exposed short
        linear = (1 - fog) * rng.uniform(0.5, 0.7) * linear + fog * rng.uniform(0.5, 0.7)
    linear = linear * gain[..., None] * tint
    out = 255.0 * np.clip(linear, 0, 1) ** (1 / 2.2)
    if light in ("dim", "warm_low"):  # the sensor's gain lifts its noise: 2-4 stops under, 2-4 x
        out = out + rng.normal(0, 3.0 * float(1 / np.sqrt(gain.mean())) ** 0.5, out.shape)
    return np.asarray(out, np.float32)
