"""The printed mat on a table, with tokens, cards and a hand, seen by the synthetic camera.

Tests, demos and benches use it. The ground truth is the homography ``table_to_px``
(table millimetres -> frame pixels). Options for realistic scenes:

- ``CardPlacement.image_bgr`` with ``alpha``: a card picture (e.g. a real photographed
  card cut out with its own photo lighting, :func:`vision.synthetic.cards.real_card_faces`)
  laid with its rounded outline;
- ``table``: the table's surface (:data:`TABLE_KINDS`: wood, oak, walnut, white, cloth, grey, and
  two nearly as pale as a card: maple, a pale wood top, and whitecloth, a white tablecloth
  with its weave and soft folds);
- ``kit_print="bw"``: the kit printed on a black-and-white printer (the light-green play
  zone comes out light grey);
- ``hands``: a skin-coloured hand with its forearm reaching over the table
  (:class:`HandPlacement`), drawn above everything else and casting a soft shadow;
- ``lighting``: see :mod:`vision.synthetic.light` (lamp gradient, warm/cold, dim ...).

>>> view = PinholeView(tilt_deg=60.0)
>>> scene = render_table_scene(default_layout(), view, rng=np.random.default_rng(0))
>>> scene.frame_bgr.shape
(720, 1280, 3)
"""

from __future__ import annotations

import functools
import math
from collections import OrderedDict
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from calibration.layout import (
    TOKEN_MARKER_TOP_MM,
    TOKEN_TILE_MM,
    ZONE_PLAY,
    TableLayout,
    TokenSpec,
    default_layout,
)
from calibration.markers import marker_bits
from vision.geometry import CARD_H_MM, CARD_W_MM
from vision.synthetic.camera import PinholeView
from vision.synthetic.light import Lighting, apply_lighting

__all__ = [
    "KIT_PRINTS",
    "PLAY_TINT_BGR",
    "TABLE_KINDS",
    "TOKEN_TILE_MM",
    "CardPlacement",
    "HandPlacement",
    "Scene",
    "TokenPlacement",
    "render_flat_view",
    "render_table_scene",
    "render_table_texture",
    "hand_outline_mm",
    "token_tile_image",
]

FloatArray = npt.NDArray[np.float64]
ImageBGR = npt.NDArray[np.uint8]

PAPER_MM = (297.0, 210.0)  # A4 landscape; the printed frame sits centred on it
PAPER_BGR = (246, 248, 248)
# the kit prints the play zone RGB (0.80, 0.86, 0.80) (calibration/kit.py); on paper,
# through a camera, it comes out a little darker
PLAY_TINT_BGR = (196, 214, 200)
TABLE_BGR = (52, 84, 120)  # a brown wooden table
TABLE_KINDS = ("wood", "oak", "walnut", "white", "cloth", "grey", "maple", "whitecloth")
KIT_PRINTS = ("colour", "bw")
SKIN_BGR = (120, 150, 200)


@dataclass(frozen=True)
class TokenPlacement:
    name: str
    centre_mm: tuple[float, float]
    angle_deg: float = 0.0


@dataclass(frozen=True)
class CardPlacement:
    """A card face: ``label`` such as ``"QD"`` drawn plainly, or a given ``image_bgr``
    (upright portrait), with its outline ``alpha`` (same size, 0-1 or 0-255) if given;
    ``size_mm`` its width and height (a poker card's by default; a bridge card is narrower)."""

    label: str
    centre_mm: tuple[float, float]
    angle_deg: float = 0.0
    image_bgr: ImageBGR | None = None
    alpha: npt.NDArray[np.floating] | npt.NDArray[np.uint8] | None = None
    size_mm: tuple[float, float] = (CARD_W_MM, CARD_H_MM)


@dataclass(frozen=True)
class HandPlacement:
    """A hand reaching over the table: its middle fingertip at ``fingertip_mm``; the
    forearm comes from ``angle_deg`` (0: from the players' side, +y; 90: from the
    right), ``lift_mm`` above the table (its shadow falls that far off)."""

    fingertip_mm: tuple[float, float]
    angle_deg: float = 0.0
    skin_bgr: tuple[int, int, int] = SKIN_BGR
    lift_mm: float = 40.0
    # from the fingertip to where the arm leaves the picture's table: a forearm's length, or
    # a whole arm's reaching from the players' edge across the mat to the layout beyond it
    reach_mm: float = 380.0


@dataclass(frozen=True)
class Scene:
    frame_bgr: ImageBGR
    table_to_px: FloatArray
    view: PinholeView
    tokens: tuple[TokenPlacement, ...] = field(default_factory=tuple)
    cards: tuple[CardPlacement, ...] = field(default_factory=tuple)
    hands: tuple[HandPlacement, ...] = field(default_factory=tuple)


# -- the texture in table millimetres --------------------------------------------------
@dataclass(frozen=True)
class _Texture:
    image: ImageBGR
    origin_mm: tuple[float, float]
    px_per_mm: float

    def mm_to_px(self) -> FloatArray:
        s = self.px_per_mm
        ox, oy = self.origin_mm
        return np.array([[s, 0, -ox * s], [0, s, -oy * s], [0, 0, 1.0]])


def _fill_poly_mm(img: ImageBGR, tex: _Texture, pts_mm: list[tuple[float, float]],
                  colour: tuple[int, int, int]) -> None:
    s, (ox, oy) = tex.px_per_mm, tex.origin_mm
    pts = np.array([[(x - ox) * s, (y - oy) * s] for x, y in pts_mm], dtype=np.float64)
    cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)], colour, lineType=cv2.LINE_AA, shift=4)


def _draw_marker(img: ImageBGR, tex: _Texture, corners_mm: tuple[tuple[float, float], ...],
                 marker_id: int, dictionary: str) -> None:
    bits = marker_bits(marker_id, dictionary)
    n = bits.shape[0]
    c = np.array(corners_mm, dtype=np.float64)
    for r in range(n):
        for col in range(n):
            if not bits[r, col]:
                continue
            quad = []
            for dr, dc in ((0, 0), (0, 1), (1, 1), (1, 0)):
                u, v = (col + dc) / n, (r + dr) / n
                top = c[0] + (c[1] - c[0]) * u
                bottom = c[3] + (c[2] - c[3]) * u
                p = top + (bottom - top) * v
                quad.append((float(p[0]), float(p[1])))
            _fill_poly_mm(img, tex, quad, (0, 0, 0))


def _put_text_mm(img: ImageBGR, tex: _Texture, text: str, x_mm: float, y_mm: float,
                 height_mm: float, colour: tuple[int, int, int] = (40, 40, 40)) -> None:
    s, (ox, oy) = tex.px_per_mm, tex.origin_mm
    scale = height_mm * s / 22.0
    thickness = max(1, round(scale * 2))
    cv2.putText(img, text, (int((x_mm - ox) * s), int((y_mm - oy) * s)), cv2.FONT_HERSHEY_SIMPLEX,
                scale, colour, thickness, cv2.LINE_AA)


def _bgr_of(levels: list[npt.NDArray[np.float32]]) -> ImageBGR:
    """A picture of three colours' levels (B, G, R), each clipped to 0-255 and cut to whole
    levels: numpy's clip and cast of the stacked picture, a colour at a time and merged by
    OpenCV (a table's texture is 11 million pixels: stacking them took a fifth of a second)."""
    return np.asarray(cv2.merge([np.clip(v, 0, 255).astype(np.uint8) for v in levels]), np.uint8)


def _table_surface(kind: str, w: int, h: int, px_per_mm: float, rng: np.random.Generator) -> ImageBGR:
    """A table top seen from above, ``px_per_mm`` pixels to the millimetre."""
    if kind not in TABLE_KINDS:
        raise ValueError(f"table {kind!r} is not one of {', '.join(TABLE_KINDS)}")
    ys = np.arange(h, dtype=np.float32)[:, None]
    xs = np.arange(w, dtype=np.float32)[None, :]
    noise = cv2.resize(rng.normal(0, 6, (max(1, h // 8), max(1, w // 8))).astype(np.float32), (w, h))
    if kind == "wood":  # the original brown table, pixel for pixel
        wave = np.sin(xs / np.float32(90.0 * px_per_mm)) * np.float32(3.0)
        grain = np.float32(10.0) * np.sin(ys / np.float32(7.0 * px_per_mm) + wave)
        shade = (grain + noise).astype(np.float32)
        return _bgr_of([np.float32(c) + shade for c in TABLE_BGR])
    if kind == "maple":
        return _maple(w, h, px_per_mm, np.asarray(noise, np.float32), rng)
    if kind == "whitecloth":
        return _white_cloth(w, h, px_per_mm, np.asarray(noise, np.float32), rng)
    base, grain_amp, period_mm = {
        "oak": ((88.0, 146.0, 196.0), 0.10, 4.0),  # honey-coloured oak, fine close grain
        "walnut": ((38.0, 58.0, 84.0), 0.16, 6.0),
        "white": ((212.0, 216.0, 218.0), 0.0, 1.0),  # white laminate
        "cloth": ((44.0, 104.0, 36.0), 0.0, 1.0),  # green felt
        "grey": ((140.0, 140.0, 136.0), 0.0, 1.0),  # grey stone or concrete
    }[kind]
    wave = np.sin(xs / np.float32(60.0 * px_per_mm) + np.float32(rng.uniform(0, 6))) * np.float32(2.5)
    stripes = np.sin(ys / np.float32(period_mm * px_per_mm) + wave + noise / np.float32(15.0))
    rel = 1.0 + grain_amp * stripes + 0.012 * noise
    return _bgr_of([rel * c for c in base])


def _maple(w: int, h: int, px_per_mm: float, noise: npt.NDArray[np.float32], rng: np.random.Generator) -> ImageBGR:
    """A pale maple or birch top: cream paper-pale wood (a card's white is only some 15 % brighter),
    faint long grain that wanders, and a few darker streaks of figure."""
    ys = np.arange(h, dtype=np.float32)[:, None]
    xs = np.arange(w, dtype=np.float32)[None, :]
    cells = max(1, int(60 * px_per_mm))  # the grain wanders over a few centimetres
    slow = cv2.resize(rng.normal(0, 1.5, (max(2, h // cells), max(2, w // cells))).astype(np.float32), (w, h),
                      interpolation=cv2.INTER_CUBIC)
    wander = np.float32(3.0) * np.sin(xs / np.float32(80.0 * px_per_mm) + np.float32(rng.uniform(0, 6))) + slow
    grain = np.sin(ys / np.float32(2.5 * px_per_mm) + wander)
    streaks = np.sin(ys / np.float32(23.0 * px_per_mm) + np.float32(0.5) * wander) ** 8
    rel = 1.0 - 0.03 * grain - 0.06 * streaks + 0.004 * noise
    base = (168.0, 206.0, 226.0)  # BGR of a pale maple, a little yellow
    return _bgr_of([rel * c for c in base])


def _white_cloth(w: int, h: int, px_per_mm: float, noise: npt.NDArray[np.float32],
                 rng: np.random.Generator) -> ImageBGR:
    """A white tablecloth: about as white as a card, a fine weave of threads (a millimetre
    apart), and soft folds where it was kept folded: broad, faint shading along a few lines."""
    ys = np.arange(h, dtype=np.float32)[:, None]
    xs = np.arange(w, dtype=np.float32)[None, :]
    period = np.float32(1.0 * px_per_mm / (2.0 * np.pi))
    weave = np.sin(xs / period) * np.sin(ys / period)
    folds = np.zeros((h, w), np.float32)
    for _ in range(3):  # creases across the cloth, each a soft ridge with one side in shade
        angle = float(rng.uniform(0, np.pi))
        offset = float(rng.uniform(0.2, 0.8)) * (w * abs(np.cos(angle)) + h * abs(np.sin(angle)))
        u = (xs * np.float32(np.cos(angle)) + ys * np.float32(np.sin(angle)) - np.float32(offset)) \
            / np.float32(25.0 * px_per_mm)
        folds += np.float32(rng.uniform(0.03, 0.06)) * np.tanh(u) * np.exp(-u * u)
    rel = 1.0 + 0.025 * weave + folds + 0.005 * noise
    base = (226.0, 229.0, 230.0)
    return _bgr_of([rel * c for c in base])


def render_table_texture(layout: TableLayout, px_per_mm: float = 2.5,
                         extent_mm: tuple[float, float, float, float] = (-450.0, -600.0, 750.0, 450.0),
                         rng: np.random.Generator | None = None, table: str = "wood",
                         kit_print: str = "colour") -> _Texture:
    """The empty table seen from straight above: the table top, the PLAY sheet, the guide
    tiles; ``kit_print="bw"`` prints the sheet and tiles in grey."""
    if kit_print not in KIT_PRINTS:
        raise ValueError(f"kit print {kit_print!r} is not one of {', '.join(KIT_PRINTS)}")
    x0, y0, x1, y1 = extent_mm
    w, h = int((x1 - x0) * px_per_mm), int((y1 - y0) * px_per_mm)
    rng = rng or np.random.default_rng(1)
    img = _table_surface(table, w, h, px_per_mm, rng)
    tex = _Texture(img, (x0, y0), px_per_mm)
    printed = np.zeros((h, w), np.uint8)
    ptex = _Texture(printed, (x0, y0), px_per_mm)
    sw, sh = layout.sheet_size_mm
    px0, py0 = -(PAPER_MM[0] - sw) / 2.0, -(PAPER_MM[1] - sh) / 2.0
    paper = [(px0, py0), (px0 + PAPER_MM[0], py0), (px0 + PAPER_MM[0], py0 + PAPER_MM[1]), (px0, py0 + PAPER_MM[1])]
    _fill_poly_mm(img, tex, paper, PAPER_BGR)
    _fill_poly_mm(printed, ptex, paper, (255, 255, 255))
    try:
        play = layout.zone(ZONE_PLAY)
        _fill_poly_mm(img, tex, list(play.polygon_mm), PLAY_TINT_BGR)
        cx, _ = play.centre_mm
        _put_text_mm(img, tex, "PLAY ZONE", cx - 30.0, play.polygon_mm[0][1] + 12.0, 8.0)
    except KeyError:
        pass
    for m in layout.markers:
        if m.role == "guide":  # a white tile around the loose marker
            cx, cy = m.centre_mm
            half = m.size_mm / 2.0 + 6.0
            tile = [(cx - half, cy - half), (cx + half, cy - half), (cx + half, cy + half), (cx - half, cy + half)]
            _fill_poly_mm(img, tex, tile, PAPER_BGR)
            _fill_poly_mm(printed, ptex, tile, (255, 255, 255))
        _draw_marker(img, tex, m.corners_mm, m.marker_id, layout.dictionary)
    if kit_print == "bw":
        grey = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
        on_paper = printed > 127
        img[on_paper] = grey[on_paper]
    return tex


@functools.lru_cache(maxsize=32)
def token_tile_image(token: TokenSpec, dictionary: str, px_per_mm: float) -> ImageBGR:
    """A token as printed (marker and word), seen from straight above."""
    tw, th = TOKEN_TILE_MM
    tex = _Texture(np.full((int(th * px_per_mm), int(tw * px_per_mm), 3), 250, np.uint8), (0.0, 0.0), px_per_mm)
    m = token.marker_size_mm
    x0, y0 = (tw - m) / 2.0, TOKEN_MARKER_TOP_MM
    _draw_marker(tex.image, tex, ((x0, y0), (x0 + m, y0), (x0 + m, y0 + m), (x0, y0 + m)),
                 token.marker_id, dictionary)
    _put_text_mm(tex.image, tex, token.word, 5.0, y0 + m + 16.0, 8.0 if len(token.word) < 7 else 6.5)
    return tex.image


def _card_tile(card: CardPlacement, px_per_mm: float) -> tuple[ImageBGR, npt.NDArray[np.uint8]]:
    """The card's picture at ``px_per_mm`` and its outline (255 on the card)."""
    cw, ch = card.size_mm
    size = (int(cw * px_per_mm), int(ch * px_per_mm))
    full = np.full((size[1], size[0]), 255, np.uint8)
    if card.image_bgr is not None:
        tile = np.asarray(cv2.resize(card.image_bgr, size, interpolation=cv2.INTER_AREA), dtype=np.uint8)
        if card.alpha is None:
            return tile, full
        alpha = np.asarray(card.alpha, np.float32)
        if alpha.max() <= 1.0:
            alpha = alpha * 255.0
        mask = cv2.resize(alpha, size, interpolation=cv2.INTER_AREA)
        return tile, np.clip(mask, 0, 255).astype(np.uint8)
    tex = _Texture(np.full((size[1], size[0], 3), 252, np.uint8), (0.0, 0.0), px_per_mm)
    red = card.label[-1:].upper() in ("D", "H")
    colour = (30, 30, 200) if red else (30, 30, 30)
    _put_text_mm(tex.image, tex, card.label[:-1], 3.0, 11.0, 9.0, colour)
    _put_text_mm(tex.image, tex, card.label[-1:], 3.5, 21.0, 7.0, colour)
    _put_text_mm(tex.image, tex, card.label, cw / 2.0 - 12.0, ch / 2.0 + 6.0, 13.0, colour)
    cv2.rectangle(tex.image, (0, 0), (size[0] - 1, size[1] - 1), (190, 190, 190), 1)
    return tex.image, full


def _paste(tex: _Texture, tile: ImageBGR, centre_mm: tuple[float, float], angle_deg: float,
           outline: npt.NDArray[np.uint8] | None = None) -> _Window | None:
    """Lay a tile on the texture (in place, with a soft shadow); returns what it covered."""
    th, tw = tile.shape[:2]
    s, (ox, oy) = tex.px_per_mm, tex.origin_mm
    cx, cy = (centre_mm[0] - ox) * s, (centre_mm[1] - oy) * s
    rot = cv2.getRotationMatrix2D((tw / 2.0, th / 2.0), -angle_deg, 1.0)
    rot[0, 2] += cx - tw / 2.0
    rot[1, 2] += cy - th / 2.0
    size = (tex.image.shape[1], tex.image.shape[0])
    # warp only a window around the tile to keep it cheap
    r = int(math.hypot(tw, th) / 2.0 + 4.0 * s) + 2
    xa, ya = max(0, int(cx) - r), max(0, int(cy) - r)
    xb, yb = min(size[0], int(cx) + r), min(size[1], int(cy) + r)
    if xb <= xa or yb <= ya:
        return None
    rot[0, 2] -= xa
    rot[1, 2] -= ya
    win = (xb - xa, yb - ya)
    warped = cv2.warpAffine(tile, rot, win, flags=cv2.INTER_LINEAR)
    shape = outline if outline is not None else np.full((th, tw), 255, np.uint8)
    mask = cv2.warpAffine(shape, rot, win, flags=cv2.INTER_LINEAR)
    saved = _Window(ya, yb, xa, xb, tex.image[ya:yb, xa:xb].copy())
    alpha = (mask.astype(np.float32) / 255.0)[:, :, None]
    region = tex.image[ya:yb, xa:xb].astype(np.float32)
    k = max(3, int(3.0 * s) | 1)  # a soft shadow below the tile
    shadow = cv2.blur(mask, (k, k)).astype(np.float32)[:, :, None] / 255.0
    region *= 1.0 - 0.25 * shadow
    tex.image[ya:yb, xa:xb] = np.clip(region * (1 - alpha) + warped.astype(np.float32) * alpha, 0, 255).astype(np.uint8)
    return saved


@dataclass(frozen=True)
class _Window:
    ya: int
    yb: int
    xa: int
    xb: int
    pixels: ImageBGR


def _capsule(a: tuple[float, float], b: tuple[float, float], radius: float) -> FloatArray:
    """A rounded bar from ``a`` to ``b`` as a polygon (points in the plane)."""
    (ax, ay), (bx, by) = a, b
    ang = math.atan2(by - ay, bx - ax)
    pts = [(bx + radius * math.cos(ang + t), by + radius * math.sin(ang + t))
           for t in np.linspace(-math.pi / 2, math.pi / 2, 7)]
    pts += [(ax + radius * math.cos(ang + t), ay + radius * math.sin(ang + t))
            for t in np.linspace(math.pi / 2, 3 * math.pi / 2, 7)]
    return np.array(pts, np.float64)


def hand_outline_mm(hand: HandPlacement) -> list[FloatArray]:
    """The hand as polygons in table mm: four fingers, a thumb, the palm, the forearm."""
    # local frame: fingertip of the middle finger at (0, 0), the arm towards +v
    parts = [_capsule((x, tip + 9.0), (x * 1.1, 70.0), 8.5)
             for x, tip in ((-27.0, 14.0), (-9.0, 2.0), (9.0, 0.0), (27.0, 8.0))]
    parts.append(_capsule((62.0, 55.0), (38.0, 110.0), 10.0))
    palm = np.asarray(cv2.ellipse2Poly((0, 100), (44, 48), 0, 0, 360, 15), dtype=np.float64)
    parts.append(palm)
    parts.append(np.array([[-36.0, 120.0], [36.0, 120.0], [46.0, hand.reach_mm], [-46.0, hand.reach_mm]]))
    ang = math.radians(hand.angle_deg)
    c, s = math.cos(ang), math.sin(ang)
    rot = np.array([[c, s], [-s, c]])
    tip = np.array([9.0, 0.0])  # the middle finger's tip
    return [np.asarray((p - tip) @ rot + np.asarray(hand.fingertip_mm), dtype=np.float64) for p in parts]


def _blur_radius(sigma: float) -> int:
    """How far OpenCV's Gaussian blur of an 8-bit image reaches (its kernel's half width)."""
    return (int(round(sigma * 3 * 2 + 1)) | 1) // 2


def _draw_hands(frame: ImageBGR, hands: tuple[HandPlacement, ...], view: PinholeView,
                rng: np.random.Generator) -> ImageBGR:
    """Hands over the frame: a soft shadow on the table, then the skin, a little shaded."""
    if not hands:
        return frame
    h, w = frame.shape[:2]
    sigma, relief = max(1.0, 0.01 * w), max(2.0, 0.006 * w)
    # The hands are drawn in a window round them and their shadows, the same pixels as over
    # the whole frame: outside it their masks blur to exactly 0 (it is wider than twice the
    # blurs' reach), and the frame is left as it was. A forearm covers a small part of a
    # frame, and whole-frame blurs were most of the time a round took to render.
    margin = 2 * max(_blur_radius(sigma), _blur_radius(relief), _blur_radius(0.8)) + 2
    drawn = [[(np.round(view.to_px(poly) * 16).astype(np.int32),
               np.round(view.to_px(poly + np.array([0.4, -0.3]) * hand.lift_mm) * 16).astype(np.int32))
              for poly in hand_outline_mm(hand)] for hand in hands]
    corners = np.concatenate([p for polys in drawn for pair in polys for p in pair]) / 16.0
    x0, y0 = (max(0, int(np.floor(v)) - margin) for v in corners.min(axis=0))
    x1, y1 = (int(np.ceil(v)) + margin + 1 for v in corners.max(axis=0))
    x1, y1 = min(w, x1), min(h, y1)
    if x0 >= x1 or y0 >= y1:  # the hands are out of the picture, and their shadows too
        return frame
    offset = np.array([x0 * 16, y0 * 16], np.int32)
    out = frame[y0:y1, x0:x1].astype(np.float32)
    for hand, polys in zip(hands, drawn):
        mask = np.zeros(out.shape[:2], np.uint8)
        shadow = np.zeros_like(mask)
        for inside, off in polys:
            cv2.fillPoly(mask, [inside - offset], 255, lineType=cv2.LINE_AA, shift=4)
            cv2.fillPoly(shadow, [off - offset], 255, lineType=cv2.LINE_AA, shift=4)
        soft = cv2.GaussianBlur(shadow, (0, 0), sigma).astype(np.float32)[..., None] / 255.0
        out *= 1.0 - 0.35 * soft
        a = cv2.GaussianBlur(mask, (0, 0), 0.8).astype(np.float32)[..., None] / 255.0
        # the skin's blotches belong to the hand (the same hand looks the same twice)
        own = np.random.default_rng(abs(hash((hand.fingertip_mm, hand.angle_deg))) % 2**32)
        small = own.normal(0, 1, (max(2, h // 40), max(2, w // 40))).astype(np.float32)
        shade = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)[y0:y1, x0:x1, None]
        skin = np.array(hand.skin_bgr, np.float32) * (1.0 + 0.06 * shade)
        # the skin's own relief: darker towards the edges of each part
        depth = cv2.GaussianBlur(mask, (0, 0), relief).astype(np.float32)[..., None] / 255.0
        skin = skin * (0.8 + 0.2 * depth)
        out = out * (1.0 - a) + skin * a
    drawn_frame = frame.copy()
    drawn_frame[y0:y1, x0:x1] = np.clip(out, 0, 255).astype(np.uint8)
    return drawn_frame


# The empty table's texture depends only on this key (its own rng is seeded), and drawing
# it takes most of a second: a few are kept, since renders alternate between kits (a colour
# and a black-and-white print) and tables. Each is 34 MB at 3 px/mm.
_TEXTURE_CACHE: OrderedDict[tuple[TableLayout, float, str, str], _Texture] = OrderedDict()
_TEXTURES_KEPT = 4


def render_table_scene(layout: TableLayout | None = None, view: PinholeView | None = None,
                       tokens: tuple[TokenPlacement, ...] = (), cards: tuple[CardPlacement, ...] = (),
                       lighting: Lighting | None = None, rng: np.random.Generator | None = None,
                       px_per_mm: float = 3.0, table: str = "wood", kit_print: str = "colour",
                       hands: tuple[HandPlacement, ...] = ()) -> Scene:
    """One frame of the table as the camera sees it, and its ground-truth homography.

    Cards are laid in order (a later one on top), then tokens; ``hands`` are above all.
    """
    layout = layout or default_layout()
    view = view or PinholeView()
    lighting = lighting or Lighting()
    rng = rng or np.random.default_rng(0)
    key = (layout, px_per_mm, table, kit_print)
    base = _TEXTURE_CACHE.get(key)
    if base is None:
        while len(_TEXTURE_CACHE) >= _TEXTURES_KEPT:
            _TEXTURE_CACHE.popitem(last=False)  # the least recently used
        base = _TEXTURE_CACHE[key] = render_table_texture(layout, px_per_mm, table=table, kit_print=kit_print)
    _TEXTURE_CACHE.move_to_end(key)
    changed: list[_Window | None] = []
    try:
        for card in cards:
            tile, outline = _card_tile(card, px_per_mm)
            changed.append(_paste(base, tile, card.centre_mm, card.angle_deg, outline))
        for placed in tokens:
            tile = token_tile_image(layout.token(placed.name), layout.dictionary, px_per_mm)
            changed.append(_paste(base, tile, placed.centre_mm, placed.angle_deg))
        table_to_px = view.table_to_px
        warp = table_to_px @ np.linalg.inv(base.mm_to_px())
        frame = cv2.warpPerspective(base.image, warp, view.size_wh, flags=cv2.INTER_AREA,
                                    borderMode=cv2.BORDER_CONSTANT, borderValue=TABLE_BGR)
    finally:  # put the cached texture back as it was, last change first
        for w in reversed(changed):
            if w is not None:
                base.image[w.ya:w.yb, w.xa:w.xb] = w.pixels
    frame = _draw_hands(np.asarray(frame, dtype=np.uint8), tuple(hands), view, rng)
    lit = apply_lighting(frame, lighting, rng)
    return Scene(lit, table_to_px, view, tuple(tokens), tuple(cards), tuple(hands))


def render_flat_view(picture: ImageBGR, picture_px_per_mm: float, view: PinholeView,
                     lighting: Lighting | None = None, rng: np.random.Generator | None = None,
                     background_bgr: tuple[int, int, int] = TABLE_BGR) -> Scene:
    """A flat picture (its top-left corner at table (0, 0) mm) seen by the camera, e.g. the
    ChArUco board lying on the table."""
    img = picture if picture.ndim == 3 else cv2.cvtColor(picture, cv2.COLOR_GRAY2BGR)
    scale = np.array([[picture_px_per_mm, 0, 0], [0, picture_px_per_mm, 0], [0, 0, 1.0]])
    table_to_px = view.table_to_px
    frame = cv2.warpPerspective(img, table_to_px @ np.linalg.inv(scale), view.size_wh, flags=cv2.INTER_AREA,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=background_bgr)
    frame = apply_lighting(np.asarray(frame, dtype=np.uint8), lighting or Lighting(), rng or np.random.default_rng(0))
    return Scene(frame, table_to_px, view)
