"""Rendered table scenes with known ground truth: the mat, tokens and cards seen by a
synthetic pinhole camera at a tilt, with blur, uneven light, glare and noise.

Tests and demos use it (the live dealer's demo recording can add card images). The
ground truth is the homography ``table_to_px`` (table millimetres -> frame pixels).

>>> view = PinholeView(tilt_deg=60.0)
>>> scene = render_scene(default_layout(), view, rng=np.random.default_rng(0))
>>> scene.frame_bgr.shape
(720, 1280, 3)
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from calibration.layout import (
    PLAY_SHEET_H_MM,
    PLAY_SHEET_W_MM,
    TOKEN_MARKER_TOP_MM,
    TOKEN_TILE_MM,
    TableLayout,
    TokenSpec,
    default_layout,
)
from calibration.markers import marker_bits

__all__ = [
    "TOKEN_TILE_MM",
    "CardPlacement",
    "Lighting",
    "PinholeView",
    "Scene",
    "TokenPlacement",
    "random_lighting",
    "render_flat_view",
    "render_scene",
    "render_table_texture",
    "token_tile_image",
]

FloatArray = npt.NDArray[np.float64]
ImageBGR = npt.NDArray[np.uint8]

CARD_MM = (63.0, 88.0)
PAPER_MM = (297.0, 210.0)  # A4 landscape; the printed frame sits centred on it
PLAY_TINT_BGR = (196, 214, 200)
TABLE_BGR = (52, 84, 120)  # a brown wooden table


@dataclass(frozen=True)
class PinholeView:
    """A camera looking at ``target_mm`` on the table from ``distance_mm`` away.

    ``tilt_deg`` is the angle between the optical axis and the table: 90 looks straight
    down, 30 is a low, slanted view from the players' side (+y). ``yaw_deg`` turns the
    camera about the vertical through the target.
    """

    tilt_deg: float = 60.0
    distance_mm: float = 650.0
    target_mm: tuple[float, float] = (PLAY_SHEET_W_MM / 2.0, PLAY_SHEET_H_MM / 2.0 - 40.0)
    yaw_deg: float = 0.0
    hfov_deg: float = 65.0
    size_wh: tuple[int, int] = (1280, 720)

    @property
    def camera_matrix(self) -> FloatArray:
        w, h = self.size_wh
        f = (w / 2.0) / math.tan(math.radians(self.hfov_deg) / 2.0)
        return np.array([[f, 0.0, w / 2.0], [0.0, f, h / 2.0], [0.0, 0.0, 1.0]])

    @property
    def table_to_px(self) -> FloatArray:
        """Homography from table mm (x right, y towards the camera) to frame pixels."""
        th = math.radians(self.tilt_deg)
        tx, ty = self.target_mm
        # world: x right, y towards the players, z into the table (so height is -z)
        centre = np.array([tx, ty + self.distance_mm * math.cos(th), -self.distance_mm * math.sin(th)])
        forward = np.array([0.0, -math.cos(th), math.sin(th)])
        right = np.array([1.0, 0.0, 0.0])
        down = np.cross(forward, right)
        rot = np.vstack([right, down, forward])
        t = -rot @ centre
        h0 = self.camera_matrix @ np.column_stack([rot[:, 0], rot[:, 1], t])
        yaw = math.radians(self.yaw_deg)
        c, s = math.cos(yaw), math.sin(yaw)
        about_target = np.array([[c, -s, tx - c * tx + s * ty], [s, c, ty - s * tx - c * ty], [0, 0, 1]])
        hom = h0 @ about_target
        return np.asarray(hom / hom[2, 2], dtype=np.float64)


@dataclass(frozen=True)
class Lighting:
    """Light and optics of one frame."""

    gain: float = 1.0  # overall exposure
    gradient: tuple[float, float] = (0.0, 0.0)  # brightness change across the frame (x, y)
    colour_gains_bgr: tuple[float, float, float] = (1.0, 1.0, 1.0)
    glare_xy: tuple[float, float] | None = None  # glare spot centre, fraction of frame
    glare_strength: float = 0.0  # added intensity at the spot's centre
    glare_radius: float = 0.08  # fraction of frame width
    blur_sigma_px: float = 0.0
    motion_blur_px: int = 0
    noise_sigma: float = 0.0
    jpeg_quality: int | None = None


def random_lighting(rng: np.random.Generator) -> Lighting:
    """Realistic room light: uneven, a little warm or cold, some glare, blur, noise, JPEG."""
    glare = rng.random() < 0.5
    return Lighting(
        gain=float(rng.uniform(0.7, 1.15)),
        gradient=(float(rng.uniform(-0.35, 0.35)), float(rng.uniform(-0.35, 0.35))),
        colour_gains_bgr=(float(rng.uniform(0.8, 1.1)), 1.0, float(rng.uniform(0.9, 1.15))),
        glare_xy=(float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.1, 0.9))) if glare else None,
        glare_strength=float(rng.uniform(40.0, 140.0)) if glare else 0.0,
        glare_radius=float(rng.uniform(0.04, 0.12)),
        blur_sigma_px=float(rng.uniform(0.3, 1.6)),
        motion_blur_px=int(rng.integers(0, 5)),
        noise_sigma=float(rng.uniform(1.0, 6.0)),
        jpeg_quality=int(rng.integers(55, 95)),
    )


@dataclass(frozen=True)
class TokenPlacement:
    name: str
    centre_mm: tuple[float, float]
    angle_deg: float = 0.0


@dataclass(frozen=True)
class CardPlacement:
    """A card face: ``label`` such as ``"QD"`` drawn plainly, or a given ``image_bgr``."""

    label: str
    centre_mm: tuple[float, float]
    angle_deg: float = 0.0
    image_bgr: ImageBGR | None = None


@dataclass(frozen=True)
class Scene:
    frame_bgr: ImageBGR
    table_to_px: FloatArray
    view: PinholeView
    tokens: tuple[TokenPlacement, ...] = field(default_factory=tuple)
    cards: tuple[CardPlacement, ...] = field(default_factory=tuple)


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


def render_table_texture(layout: TableLayout, px_per_mm: float = 2.5,
                         extent_mm: tuple[float, float, float, float] = (-450.0, -600.0, 750.0, 450.0),
                         rng: np.random.Generator | None = None) -> _Texture:
    """The empty table seen from straight above: wood, the PLAY sheet, the guide tiles."""
    x0, y0, x1, y1 = extent_mm
    w, h = int((x1 - x0) * px_per_mm), int((y1 - y0) * px_per_mm)
    img = np.empty((h, w, 3), dtype=np.uint8)
    img[:] = TABLE_BGR
    rng = rng or np.random.default_rng(1)
    # wood grain: slow stripes along x plus fine noise
    ys = np.arange(h, dtype=np.float32)[:, None]
    wave = np.sin(np.arange(w, dtype=np.float32)[None, :] / np.float32(90.0 * px_per_mm)) * np.float32(3.0)
    grain = np.float32(10.0) * np.sin(ys / np.float32(7.0 * px_per_mm) + wave)
    noise = cv2.resize(rng.normal(0, 6, (max(1, h // 8), max(1, w // 8))).astype(np.float32), (w, h))
    shade = (grain + noise).astype(np.float32)
    shaded = cv2.add(img.astype(np.float32), cv2.merge([shade, shade, shade]))
    img = np.clip(shaded, 0, 255).astype(np.uint8)
    tex = _Texture(img, (x0, y0), px_per_mm)
    sw, sh = layout.sheet_size_mm
    px0, py0 = -(PAPER_MM[0] - sw) / 2.0, -(PAPER_MM[1] - sh) / 2.0
    _fill_poly_mm(img, tex, [(px0, py0), (px0 + PAPER_MM[0], py0), (px0 + PAPER_MM[0], py0 + PAPER_MM[1]),
                             (px0, py0 + PAPER_MM[1])], (246, 248, 248))
    try:
        play = layout.zone("play")
        _fill_poly_mm(img, tex, list(play.polygon_mm), PLAY_TINT_BGR)
        cx, _ = play.centre_mm
        _put_text_mm(img, tex, "PLAY ZONE", cx - 30.0, play.polygon_mm[0][1] + 12.0, 8.0)
    except KeyError:
        pass
    for m in layout.markers:
        if m.role == "guide":  # a white tile around the loose marker
            cx, cy = m.centre_mm
            half = m.size_mm / 2.0 + 6.0
            _fill_poly_mm(img, tex, [(cx - half, cy - half), (cx + half, cy - half), (cx + half, cy + half),
                                     (cx - half, cy + half)], (246, 248, 248))
        _draw_marker(img, tex, m.corners_mm, m.marker_id, layout.dictionary)
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


def _card_tile(card: CardPlacement, px_per_mm: float) -> ImageBGR:
    cw, ch = CARD_MM
    size = (int(cw * px_per_mm), int(ch * px_per_mm))
    if card.image_bgr is not None:
        return np.asarray(cv2.resize(card.image_bgr, size, interpolation=cv2.INTER_AREA), dtype=np.uint8)
    tex = _Texture(np.full((size[1], size[0], 3), 252, np.uint8), (0.0, 0.0), px_per_mm)
    red = card.label[-1:].upper() in ("D", "H")
    colour = (30, 30, 200) if red else (30, 30, 30)
    _put_text_mm(tex.image, tex, card.label[:-1], 3.0, 11.0, 9.0, colour)
    _put_text_mm(tex.image, tex, card.label[-1:], 3.5, 21.0, 7.0, colour)
    _put_text_mm(tex.image, tex, card.label, cw / 2.0 - 12.0, ch / 2.0 + 6.0, 13.0, colour)
    cv2.rectangle(tex.image, (0, 0), (size[0] - 1, size[1] - 1), (190, 190, 190), 1)
    return tex.image


def _paste(tex: _Texture, tile: ImageBGR, centre_mm: tuple[float, float], angle_deg: float) -> _Window | None:
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
    mask = cv2.warpAffine(np.full((th, tw), 255, np.uint8), rot, win, flags=cv2.INTER_LINEAR)
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


_TEXTURE_CACHE: dict[tuple[TableLayout, float], _Texture] = {}


def render_scene(layout: TableLayout | None = None, view: PinholeView | None = None,
                 tokens: tuple[TokenPlacement, ...] = (), cards: tuple[CardPlacement, ...] = (),
                 lighting: Lighting | None = None, rng: np.random.Generator | None = None,
                 px_per_mm: float = 3.0) -> Scene:
    """One frame of the table as the camera sees it, and its ground-truth homography."""
    layout = layout or default_layout()
    view = view or PinholeView()
    lighting = lighting or Lighting()
    rng = rng or np.random.default_rng(0)
    key = (layout, px_per_mm)
    base = _TEXTURE_CACHE.get(key)
    if base is None:
        _TEXTURE_CACHE.clear()
        base = _TEXTURE_CACHE[key] = render_table_texture(layout, px_per_mm)
    changed: list[_Window] = []
    try:
        for card in cards:
            changed.append(_paste(base, _card_tile(card, px_per_mm), card.centre_mm, card.angle_deg))  # type: ignore[arg-type]
        for placed in tokens:
            tile = token_tile_image(layout.token(placed.name), layout.dictionary, px_per_mm)
            changed.append(_paste(base, tile, placed.centre_mm, placed.angle_deg))  # type: ignore[arg-type]
        table_to_px = view.table_to_px
        warp = table_to_px @ np.linalg.inv(base.mm_to_px())
        frame = cv2.warpPerspective(base.image, warp, view.size_wh, flags=cv2.INTER_AREA,
                                    borderMode=cv2.BORDER_CONSTANT, borderValue=TABLE_BGR)
    finally:  # put the cached texture back as it was, last change first
        for w in reversed(changed):
            if w is not None:
                base.image[w.ya:w.yb, w.xa:w.xb] = w.pixels
    lit = _apply_lighting(np.asarray(frame, dtype=np.uint8), lighting, rng)
    return Scene(lit, table_to_px, view, tuple(tokens), tuple(cards))


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
    frame = _apply_lighting(np.asarray(frame, dtype=np.uint8), lighting or Lighting(), rng or np.random.default_rng(0))
    return Scene(frame, table_to_px, view)


def _apply_lighting(frame: ImageBGR, light: Lighting, rng: np.random.Generator) -> ImageBGR:
    h, w = frame.shape[:2]
    img: npt.NDArray[np.float32] = frame.astype(np.float32)
    if light.motion_blur_px > 1:
        k = np.zeros((light.motion_blur_px, light.motion_blur_px), np.float32)
        k[light.motion_blur_px // 2, :] = 1.0 / light.motion_blur_px
        rot = cv2.getRotationMatrix2D(((light.motion_blur_px - 1) / 2.0,) * 2, float(rng.uniform(0, 180)), 1.0)
        k = np.asarray(cv2.warpAffine(k, rot, k.shape[::-1]), dtype=np.float32)
        k /= max(float(k.sum()), 1e-6)
        img = np.asarray(cv2.filter2D(img, -1, k), dtype=np.float32)
    if light.blur_sigma_px > 0:
        img = np.asarray(cv2.GaussianBlur(img, (0, 0), light.blur_sigma_px), dtype=np.float32)
    xs = np.linspace(-0.5, 0.5, w, dtype=np.float32)[None, :]
    ys = np.linspace(-0.5, 0.5, h, dtype=np.float32)[:, None]
    field_ = light.gain * (1.0 + light.gradient[0] * xs + light.gradient[1] * ys)
    gains = np.array(light.colour_gains_bgr, np.float32)
    img = np.asarray(cv2.multiply(img, cv2.merge([field_ * gains[0], field_ * gains[1], field_ * gains[2]])),
                     dtype=np.float32)
    if light.glare_xy is not None and light.glare_strength > 0:
        gx, gy = light.glare_xy[0] * w, light.glare_xy[1] * h
        r = light.glare_radius * w
        x0, x1 = max(0, int(gx - 4 * r)), min(w, int(gx + 4 * r) + 1)
        y0, y1 = max(0, int(gy - 4 * r)), min(h, int(gy + 4 * r) + 1)
        if x1 > x0 and y1 > y0:
            xx = np.arange(x0, x1, dtype=np.float32)[None, :] - gx
            yy = np.arange(y0, y1, dtype=np.float32)[:, None] - gy
            spot = (light.glare_strength * np.exp(-(xx * xx + yy * yy) / (2 * r * r))).astype(np.float32)
            img[y0:y1, x0:x1] += spot[:, :, None]
    if light.noise_sigma > 0:
        noise = np.empty_like(img)
        cv2.setRNGSeed(int(rng.integers(0, 2**31 - 1)))
        cv2.randn(noise, 0.0, float(light.noise_sigma))  # type: ignore[call-overload]
        img += noise
    out: ImageBGR = np.clip(img, 0, 255).astype(np.uint8)
    if light.jpeg_quality is not None:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, light.jpeg_quality])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            out = np.asarray(decoded, dtype=np.uint8)
    return np.asarray(out, dtype=np.uint8)
