"""Synthetic rectified cards for training the classifier (seeded; numpy + cv2 only).

A sample imitates what the detector hands the classifier: a ``(280, 200, 3)`` BGR crop of a
card whose corners were found a few % off (so the crop cuts the card or shows a sliver of
table), sometimes turned 180 degrees, then spoiled like a camera frame: exposure, white
balance, shadow gradients, glare, downscaling (the index may be ~10-20 px tall in a frame),
blur, noise and JPEG artefacts. Tables are procedural textures (wood, cloth, paper, cork,
felt): nothing is downloaded. Class "back" uses the designs' backs and procedural backs;
class "none" is table, clutter, or a sliver of a card that shows no index.

Everything draws from a ``numpy.random.Generator`` passed in, so a seed fixes a sample.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.preprocess import RECT_H, RECT_W

__all__ = [
    "AugmentConfig",
    "TextureBank",
    "augment_photo",
    "ink_variant",
    "make_table_texture",
    "place_card",
    "procedural_back",
    "sample_none",
]


@dataclass(frozen=True, slots=True)
class AugmentConfig:
    """The strength of the geometric and photometric errors (fractions of the card size)."""

    corner_jitter: float = 0.02  # std of each corner's error, fraction of width/height
    shift: float = 0.015  # std of a common shift of the four corners
    rotate_deg: float = 3.0  # std of a small in-plane rotation of the quad
    min_scale: float = 0.25  # smallest downscale (card 70 px tall: index ~12 px)
    max_noise: float = 10.0
    jpeg_quality: tuple[int, int] = (30, 95)
    min_overlap_shift: float = 0.36  # an overlapping card starts this far down (of H) or right
    p_reframe: float = 0.0  # share of crops framed loosely or tightly (the network must not depend on framing)
    reframe_scale: tuple[float, float] = (0.86, 1.14)  # card size over crop size when reframed
    reframe_shift: float = 0.03  # extra common shift when reframed


# ---------------------------------------------------------------- textures


def _smooth_noise(rng: np.random.Generator, h: int, w: int, cell: int) -> np.ndarray:
    """Value noise in [0, 1]: random grid of ``cell`` px upsampled smoothly."""
    gh, gw = max(2, h // cell + 2), max(2, w // cell + 2)
    grid = rng.random((gh, gw)).astype(np.float32)
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def _fractal(rng: np.random.Generator, h: int, w: int, base: int) -> np.ndarray:
    total = np.zeros((h, w), np.float32)
    amp, norm, cell = 1.0, 0.0, base
    while cell >= 2:
        total += amp * _smooth_noise(rng, h, w, cell)
        norm += amp
        amp *= 0.55
        cell //= 2
    return total / norm


def make_table_texture(rng: np.random.Generator, h: int = 384, w: int = 384) -> np.ndarray:
    """A procedural table surface, BGR uint8: wood, cloth, paper, cork, felt or plain."""
    kind = rng.choice(["wood", "cloth", "paper", "cork", "felt", "plain"])
    base = rng.uniform(40, 230, size=3).astype(np.float32)
    if kind == "wood":
        base = np.array([rng.uniform(30, 110), rng.uniform(60, 150), rng.uniform(100, 210)], np.float32)
        ys = np.arange(h, dtype=np.float32)[:, None]
        warp = _fractal(rng, h, w, 64) * rng.uniform(10, 40)
        rings = 0.5 + 0.5 * np.sin((ys + warp) * rng.uniform(0.15, 0.6))
        grain = _fractal(rng, h, w, 8)
        lum = 0.75 + 0.2 * rings + 0.15 * (grain - 0.5)
        if rng.random() < 0.5:
            lum = lum.T.copy() if h == w else lum
    elif kind == "cloth":
        xs, ys = np.meshgrid(np.arange(w), np.arange(h))
        period = rng.uniform(2.0, 5.0)
        weave = 0.5 + 0.25 * (np.sin(xs * np.pi / period) + np.sin(ys * np.pi / period))
        lum = 0.8 + 0.15 * (weave - 0.5) + 0.2 * (_fractal(rng, h, w, 32) - 0.5)
    elif kind == "paper":
        base = rng.uniform(190, 250, size=3).astype(np.float32)
        lum = 0.95 + 0.08 * (_fractal(rng, h, w, 16) - 0.5)
    elif kind == "cork":
        base = np.array([rng.uniform(50, 90), rng.uniform(100, 140), rng.uniform(150, 200)], np.float32)
        speck = rng.random((h, w)).astype(np.float32)
        speck = np.asarray(cv2.GaussianBlur(speck, (0, 0), rng.uniform(0.6, 1.5)), np.float32)
        lum = 0.7 + 0.6 * (speck - speck.mean()) * 3 + 0.2 * (_fractal(rng, h, w, 24) - 0.5)
    elif kind == "felt":
        base = np.array([rng.uniform(20, 90), rng.uniform(60, 140), rng.uniform(10, 60)], np.float32)
        if rng.random() < 0.5:
            base = base[rng.permutation(3)]
        lum = 0.85 + 0.25 * (_fractal(rng, h, w, 8) - 0.5)
    else:
        lum = 0.9 + 0.1 * (_fractal(rng, h, w, 48) - 0.5)
    image = lum[:, :, None] * base[None, None, :]
    image += rng.normal(0, rng.uniform(1, 6), size=image.shape).astype(np.float32)
    return image.clip(0, 255).astype(np.uint8)


class TextureBank:
    """A fixed set of table textures made once from a seed; random crops of them are cheap."""

    def __init__(self, seed: int, count: int = 96, size: int = 384) -> None:
        rng = np.random.default_rng(seed)
        self.textures = [make_table_texture(rng, size, size) for _ in range(count)]

    def crop(self, rng: np.random.Generator, h: int = RECT_H, w: int = RECT_W) -> np.ndarray:
        """A random ``h`` x ``w`` crop of a random texture, possibly turned 90 degrees."""
        tex = self.textures[int(rng.integers(len(self.textures)))]
        turn = rng.random() < 0.5
        ch, cw = (w, h) if turn else (h, w)
        th, tw = tex.shape[:2]
        y = int(rng.integers(0, th - ch + 1))
        x = int(rng.integers(0, tw - cw + 1))
        crop = tex[y : y + ch, x : x + cw]
        return np.ascontiguousarray(np.rot90(crop)) if turn else crop.copy()


# ---------------------------------------------------------------- cards and backs


def procedural_back(rng: np.random.Generator, h: int = 420, w: int = 290) -> np.ndarray:
    """A made-up card back (BGRA): a coloured pattern inside a white border, rounded corners."""
    colour = rng.uniform(0, 200, size=3).astype(np.float32)
    other = rng.uniform(100, 255, size=3).astype(np.float32) if rng.random() < 0.7 else np.full(3, 255.0, np.float32)
    xs, ys = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    period = rng.uniform(6, 30)
    kind = rng.integers(5)
    if kind == 0:
        mask = ((np.floor((xs + ys) / period) + np.floor((xs - ys) / period)) % 2).astype(np.float32)
    elif kind == 1:
        mask = (np.sin((xs + ys) * np.pi / period) > 0.3).astype(np.float32)
    elif kind == 2:
        mask = (((xs % period) - period / 2) ** 2 + ((ys % period) - period / 2) ** 2 < (period / 3) ** 2).astype(np.float32)
    elif kind == 3:
        r = np.hypot(xs - w / 2, ys - h / 2)
        mask = (np.sin(r * np.pi / period) > 0).astype(np.float32)
    else:
        mask = (_fractal(rng, h, w, int(period) * 2) > 0.5).astype(np.float32)
    image = colour[None, None, :] * (1 - mask[:, :, None]) + other[None, None, :] * mask[:, :, None]
    border = int(rng.uniform(0, 0.08) * w)
    if border > 0:
        image[:border], image[-border:], image[:, :border], image[:, -border:] = 250, 250, 250, 250
    bgra = np.dstack([image.clip(0, 255).astype(np.uint8), np.full((h, w), 255, np.uint8)])
    radius = int(0.06 * w)
    alpha = np.zeros((h, w), np.uint8)
    cv2.rectangle(alpha, (radius, 0), (w - radius, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, radius), (w - 1, h - radius), 255, -1)
    for cx, cy in ((radius, radius), (w - radius - 1, radius), (radius, h - radius - 1), (w - radius - 1, h - radius - 1)):
        cv2.circle(alpha, (cx, cy), radius, 255, -1)
    bgra[:, :, 3] = alpha
    return bgra


def _paste(card_bgra: np.ndarray, table: np.ndarray, dst_quad: np.ndarray) -> np.ndarray:
    """Warp ``card_bgra`` so its corners land on ``dst_quad`` (TL, TR, BR, BL) over ``table``."""
    h, w = card_bgra.shape[:2]
    src = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    matrix = cv2.getPerspectiveTransform(src, dst_quad.astype(np.float32))
    size = (table.shape[1], table.shape[0])
    warped = cv2.warpPerspective(
        card_bgra, matrix, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0)
    )
    alpha = warped[:, :, 3].astype(np.float32) / 255.0
    return cv2.blendLinear(warped[:, :, :3], table, alpha, 1.0 - alpha)


def place_card(
    rng: np.random.Generator,
    card_bgra: np.ndarray,
    table: np.ndarray,
    config: AugmentConfig,
    occluder: np.ndarray | None = None,
) -> np.ndarray:
    """A ``(280, 200, 3)`` crop of ``card_bgra`` as an imperfect rectifier would give it.

    The ideal crop maps the card's corners to the image corners; each corner is moved by a few %
    (and the quad shifted and turned slightly), so the crop may cut the card or show table.
    ``occluder`` (another card) is laid over the lower part, as in a column of overlapping
    cards, leaving the top-left index visible. With probability 1/2 the result is turned
    180 degrees (the rectifier cannot tell).
    """
    w, h = RECT_W, RECT_H
    quad = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    scale = np.array([w, h], np.float32)
    quad += rng.normal(0, config.corner_jitter, size=(4, 2)).astype(np.float32) * scale
    quad += rng.normal(0, config.shift, size=(1, 2)).astype(np.float32) * scale
    if rng.random() < config.p_reframe:  # a crop cut inside the card, or one with a band of table
        centre = quad.mean(axis=0, keepdims=True)
        quad = centre + (quad - centre) * np.float32(rng.uniform(*config.reframe_scale))
        quad += rng.normal(0, config.reframe_shift, size=(1, 2)).astype(np.float32) * scale
    crop = _paste(card_bgra, table, _turn_quad(rng, quad, config.rotate_deg))
    if occluder is not None:
        cover = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
        if rng.random() < 0.7:  # a card further down the column
            offset = (rng.uniform(-0.15, 0.25) * w, rng.uniform(config.min_overlap_shift, 0.8) * h)
        else:  # a card further right in a row
            offset = (rng.uniform(config.min_overlap_shift + 0.05, 0.8) * w, rng.uniform(-0.1, 0.2) * h)
        cover += np.array(offset, np.float32)
        crop = _paste(occluder, crop, _turn_quad(rng, cover, 4.0))
    if rng.random() < 0.5:
        crop = np.ascontiguousarray(crop[::-1, ::-1])
    return crop


def _turn_quad(rng: np.random.Generator, quad: np.ndarray, std_deg: float) -> np.ndarray:
    angle = np.deg2rad(rng.normal(0, std_deg))
    centre = quad.mean(axis=0)
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]], np.float32)
    return np.asarray((quad - centre) @ rot.T + centre, np.float32)


def busy_table(rng: np.random.Generator, table: np.ndarray, cards: list[np.ndarray]) -> np.ndarray:
    """``table`` with ``cards`` lying around just outside the crop, so their edges show at its rim
    (a rectified card in a crowded layout has neighbours, not bare table, beyond its edges)."""
    out = table
    w, h = RECT_W, RECT_H
    for card in cards:
        side = int(rng.integers(4))
        along = rng.uniform(-0.3, 1.3)
        away = rng.uniform(0.55, 0.85)  # centre distance beyond the edge, in card sizes
        cx, cy = [(-away * w, along * h), ((1 + away) * w, along * h), (along * w, -away * h), (along * w, (1 + away) * h)][side]
        quad = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]], np.float32)
        angle = rng.uniform(0, 2 * np.pi)
        rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]], np.float32)
        quad = quad @ rot.T * rng.uniform(0.85, 1.15) + np.array([cx, cy], np.float32)
        out = _paste(card, out, quad)
    return out


def sample_none(
    rng: np.random.Generator, table: np.ndarray, card_bgra: np.ndarray | None
) -> np.ndarray:
    """A crop that is not a readable card face: table, clutter, or a sliver of card edge."""
    crop = table.copy()
    choice = rng.random()
    if choice < 0.35 and card_bgra is not None:
        # a sliver: a card far off-centre, so only an edge strip without the index shows
        w, h = RECT_W, RECT_H
        quad = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
        side = rng.integers(4)
        offset = rng.uniform(0.88, 0.98)  # a strip of 2-12 %: at most a scrap of the index
        direction = [(1, 0), (-1, 0), (0, 1), (0, -1)][side]
        quad += np.array(direction, np.float32) * np.array([w, h], np.float32) * offset
        angle = np.deg2rad(rng.normal(0, 20))
        centre = quad.mean(axis=0)
        rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]], np.float32)
        quad = (quad - centre) @ rot.T + centre
        crop = _paste(card_bgra, crop, quad)
    elif choice < 0.65:
        for _ in range(int(rng.integers(1, 6))):
            colour = tuple(int(c) for c in rng.integers(0, 256, size=3))
            kind = rng.integers(3)
            p1 = (int(rng.integers(-50, RECT_W + 50)), int(rng.integers(-50, RECT_H + 50)))
            p2 = (int(rng.integers(-50, RECT_W + 50)), int(rng.integers(-50, RECT_H + 50)))
            if kind == 0:
                cv2.line(crop, p1, p2, colour, int(rng.integers(1, 12)))
            elif kind == 1:
                axes = (int(rng.integers(5, 80)), int(rng.integers(5, 80)))
                cv2.ellipse(crop, p1, axes, float(rng.uniform(0, 180)), 0, 360, colour, -1)
            else:
                cv2.rectangle(crop, p1, p2, colour, -1)
    return crop


def ink_variant(rng: np.random.Generator, card_bgra: np.ndarray, p_grey: float = 0.12, p_dark_red: float = 0.1,
                p_swap: float = 0.05) -> np.ndarray:
    """The card printed differently: grey, red ink darkened towards black, or channels swapped,
    so suits are learnt by shape, not by ink colour (some decks print red suits in dark ink)."""
    r = rng.random()
    if r >= p_grey + p_dark_red + p_swap:
        return card_bgra
    out = card_bgra.copy()
    bgr = out[:, :, :3]
    if r < p_grey:
        grey = cv2.cvtColor(np.ascontiguousarray(bgr), cv2.COLOR_BGR2GRAY)
        out[:, :, :3] = grey[:, :, None]
    elif r < p_grey + p_dark_red:
        f = bgr.astype(np.float32)
        redness = np.clip((f[:, :, 2] - np.maximum(f[:, :, 0], f[:, :, 1]) - 30) / 80, 0, 1)
        dark = f * rng.uniform(0.15, 0.5)
        out[:, :, :3] = (f * (1 - redness[:, :, None]) + dark * redness[:, :, None]).clip(0, 255).astype(np.uint8)
    else:
        out[:, :, :3] = bgr[:, :, rng.permutation(3)]
    return out


# ---------------------------------------------------------------- photometric


def _low_res_field(field: np.ndarray, h: int, w: int) -> np.ndarray:
    """Upsample a small float field (made cheaply at low resolution) to ``h`` x ``w``."""
    return cv2.resize(field.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)


_FIELD_H, _FIELD_W = 28, 20  # shading and glare are smooth: compute them at 1/10 size


def augment_photo(rng: np.random.Generator, image: np.ndarray, config: AugmentConfig,
                  conditions: dict[str, float] | None = None) -> np.ndarray:
    """Camera-like spoiling of a BGR uint8 crop; returns a new array of the same shape.

    ``conditions``, when given, is filled with what was drawn (the same draws either way):
    ``scale`` (the card's size over the rectified size), ``blur`` (sigma of a focus blur, 0
    without; a motion blur counts as its length / 3), ``light`` (the exposure), ``glare`` (1 or 0)
    and ``jpeg`` (the quality, 100 without), so an evaluation can say where its misses lie.
    """
    h, w = image.shape[:2]
    # smooth light field at low resolution: shadow gradient, hard shadow edge, exposure
    ys, xs = np.mgrid[0:_FIELD_H, 0:_FIELD_W].astype(np.float32)
    xs, ys = xs / (_FIELD_W - 1), ys / (_FIELD_H - 1)
    light = np.full((_FIELD_H, _FIELD_W), rng.uniform(0.55, 1.25), np.float32)
    if rng.random() < 0.6:
        gx, gy = rng.normal(0, 1, size=2)
        ramp = gx * xs + gy * ys
        ramp = (ramp - ramp.min()) / max(float(ramp.max() - ramp.min()), 1e-6)
        light *= 1 - rng.uniform(0, 0.55) * ramp
    if rng.random() < 0.15:
        nx, ny = rng.normal(0, 1, size=2)
        edge = (xs - rng.random()) * nx + (ys - rng.random()) * ny
        light *= 1 - rng.uniform(0.2, 0.5) * (1 / (1 + np.exp(-edge * rng.uniform(8, 60))))
    glare = np.zeros((_FIELD_H, _FIELD_W), np.float32)
    drawn: dict[str, float] = {"light": float(light.mean()), "glare": 0.0, "blur": 0.0, "jpeg": 100.0}
    if rng.random() < 0.3:
        drawn["glare"] = 1.0
        cx, cy, sigma = rng.random(), rng.random(), rng.uniform(0.05, 0.4)
        glare = (rng.uniform(40, 160) * np.exp(-((xs - cx) ** 2 + ((ys - cy) * h / w) ** 2) / (2 * sigma**2))).astype(np.float32)
    # resolution: the card may be small in the frame; do the rest at the small size
    scale = float(np.exp(rng.uniform(np.log(config.min_scale), 0.0)))
    sw, sh = (max(8, int(w * scale)), max(8, int(h * scale))) if scale < 0.95 else (w, h)
    drawn["scale"] = scale
    small = cv2.resize(image, (sw, sh), interpolation=cv2.INTER_AREA) if (sw, sh) != (w, h) else image
    wb = rng.uniform(0.85, 1.1, size=3).astype(np.float32)
    out = small.astype(np.float32) * wb[None, None, :]
    out *= _low_res_field(light, sh, sw)[:, :, None]
    out += _low_res_field(glare, sh, sw)[:, :, None]
    np.clip(out, 0, 255, out=out)
    lut = (255.0 * (np.arange(256) / 255.0) ** rng.uniform(0.7, 1.4)).astype(np.uint8)
    result = cv2.LUT(out.astype(np.uint8), lut)
    # blur (focus or motion)
    if rng.random() < 0.5:
        drawn["blur"] = float(rng.uniform(0.3, 1.3))
        result = cv2.GaussianBlur(result, (0, 0), drawn["blur"])
    elif rng.random() < 0.15:
        k = int(rng.integers(3, 7))
        drawn["blur"] = k / 3
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2, :] = 1.0 / k
        rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), float(rng.uniform(0, 180)), 1.0)
        kernel = np.asarray(cv2.warpAffine(kernel, rot, (k, k)), np.float32)
        result = cv2.filter2D(result, -1, kernel / max(float(kernel.sum()), 1e-6))
    # sensor noise: a crop of a fixed noise bank (drawing fresh normals is the costly part)
    sigma = rng.uniform(0, config.max_noise)
    if sigma > 0.5:
        bank = _noise_bank()
        y0 = int(rng.integers(0, bank.shape[0] - sh + 1))
        x0 = int(rng.integers(0, bank.shape[1] - sw + 1))
        noisy = result.astype(np.float32) + sigma * bank[y0 : y0 + sh, x0 : x0 + sw]
        result = noisy.clip(0, 255).astype(np.uint8)
    # JPEG artefacts, at the small resolution as a camera would
    if rng.random() < 0.7:
        quality = int(rng.integers(*config.jpeg_quality))
        drawn["jpeg"] = float(quality)
        ok, buf = cv2.imencode(".jpg", result, [cv2.IMWRITE_JPEG_QUALITY, quality])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            result = decoded
    if result.shape[:2] != (h, w):
        result = cv2.resize(result, (w, h), interpolation=cv2.INTER_LINEAR)
    if conditions is not None:
        conditions.update(drawn)
    return result


_NOISE: list[np.ndarray] = []


def _noise_bank() -> np.ndarray:
    """Unit normal noise, [RECT_H + 40, RECT_W + 40, 3], made once per process from a fixed seed."""
    if not _NOISE:
        _NOISE.append(np.random.default_rng(31337).standard_normal((RECT_H + 40, RECT_W + 40, 3)).astype(np.float32))
    return _NOISE[0]
