"""Ink on paper, judged against the light where it lies: the first step of the index
proposer (:func:`vision.corners.propose_corners`).

The light a photo was taken in sets no threshold here. A card's paper is the brightest
thing near its ink whatever the exposure, and a dim room, a cheap lens's dark corners or a
player's shadow dim a card as much as the table round it; so ink is a share darker than
the paper round it, and paper is pale for the local light (a share of the brightest level
within about a card's size), never above a fixed grey level. Colour is judged after a
strong cast (a tungsten bulb's orange) is white-balanced away on the brightest pixels, and
a washed-out photo (a veil of stray light: nothing in it is dark) has its levels stretched
before anything reads it (:func:`unveiled`). A shadow narrower than that window (a player's
arm, the phone taking the photo) is lifted first (:func:`shadows_lifted`): under it the
paper would be no paper for the light beside it.

>>> import numpy as np
>>> ink, pale = ink_on_paper(np.full((60, 80, 3), 200, np.uint8), 15)
>>> int(ink.sum()), bool(pale.all())
(0, True)
"""

from __future__ import annotations

import math
from typing import NamedTuple

import cv2
import numpy as np
import numpy.typing as npt

__all__ = ["DARK_RATIO", "UNVEIL_FROM", "InkLevels", "evenly_lit", "ink_levels", "ink_on_paper", "redness",
           "shadows_lifted", "unveiled"]

BgrImage = npt.NDArray[np.uint8]

_INK_RATIO = 0.62  # ink is darker than this share of the paper around it (above the veil)
# faint ink: a thin stroke blurred, which breaks into pieces at _INK_RATIO (0.75 and 0.85 were
# tried on the tuning sets: bench/README.md, "Faint ink")
_FAINT_RATIO = 0.8
# dark ink: the core of a glyph printed black. A card's rim shadow or a court card's frame
# line that joins a glyph at the ink's ratio is paler than that core, so at this ratio the
# glyph stands apart (vision.corners.glyph_pairs; 0.3 and 0.5 were tried on the tuning sets:
# bench/README.md, "Dark ink")
DARK_RATIO = 0.4
_PAPER_OF_LIGHT = 0.55  # paper is at least this share of the local light level
_MIN_PAPER = 32  # grey level: dimmer "paper" is the dark, where a sensor shows noise, not print
_MIN_INK_STEP = 10.0  # grey levels: ink is darker than its paper by at least this (a sensor's noise is less)
_MAX_PAPER_SAT = 90  # HSV saturation, white-balanced: paper is not coloured
_RED_STEP = 40.0  # red ink: red above green and blue by this much on paper of 200
_LIGHT_WINDOW = 0.2  # the local light level: the brightest over this share of the shorter side
_LIGHT_SHRINK = 8  # ... measured on a picture this many times smaller (a level changes slowly)
# A veil of stray light (haze, a lens's flare, an overexposed cheap camera) lifts every
# level by one amount, so the ink of a washed-out photo is a grey near its paper's: the
# ratio is taken above this share of the photo's darkest level (of a slightly blurred
# picture, so that a single dark pixel of noise does not set it); a photo with any black in
# it (ink, a shadow, a dark table) has nearly no veil.
_VEIL_SHARE = 0.8
# A photo whose darkest level is above this is washed out: it is read with its levels
# stretched (:func:`unveiled`), so that the readers see ink as dark as in a clear photo.
# Any photo with some black in it (almost all) is read as it is.
UNVEIL_FROM = 48
# the white balance: gains from the brightest pixels, at most this much on any channel (a
# tungsten bulb's orange; a green felt filling the picture is not a green light)
_MAX_BALANCE = 3.0
# ... and only when some channel needs this much: the thresholds here were set on photos in
# warm room light (a faint pink index of an overexposed card is red only before balancing)
_BALANCE_FROM = 1.3
# A shadow cast over the cards by something between the lamp and the table (an arm, the
# phone taking the photo) dims the paper and the table under it by one share, over a region
# wider than any print, with an edge of any shape. Where it is narrower than the light's
# window the paper under it is no paper for the light beside it, and the paper's level
# round a glyph crosses its edge: the index goes unseen. A region is a shadow when (at a
# quarter of the resolution, on the *near level*: the grey level closed over _SHADOW_PRINT
# of the shorter side, so print is filled and a card is paper):
# - its near level is SHADOW_DEEPEST to SHADOW_FROM of the light round it (_light_level's),
#   at least SHADOW_DEEPEST of the photo's brightest paper (darker is a dark table) and grey;
# - it is wider than _SHADOW_WIDE of the shorter side (print is not);
# - where its near level steps up across its border by SHADOW_STEP or more (within
#   _SHADOW_REACH), the step is soft, SHADOW_SOFT_PX wide or more, at SHADOW_SOFT_SHARE of
#   the places: a lamp is no point, so a shadow's edge is a penumbra, while a card's outline
#   on a darker top (the step a halo of the light's window round the cards shows) is sharp.
# It is lifted by the light round it over its near level. Chosen on the studied deal 7 and
# the tuning sets only (bench/README.md, "A shadow across the cards").
SHADOW_DEEPEST = 0.35
SHADOW_FROM = 0.85
SHADOW_STEP = 1.35
SHADOW_SOFT_PX = 16.0
SHADOW_SOFT_SHARE = 0.85
_SHADOW_PRINT = 0.03
_SHADOW_WIDE = 0.06
_SHADOW_REACH = 0.05
_SHADOW_SHRINK = 4
_SHADOW_SAMPLES = 400  # border places measured a region
_SHADOW_MIN_STEPS = 8  # a border stepping up at fewer places says nothing either way


def _darkest(grey: npt.NDArray[np.uint8]) -> float:
    """The photo's darkest level, of a slightly blurred picture (one dark pixel of noise does
    not set it)."""
    return float(cv2.blur(grey, (5, 5)).min())


def unveiled(bgr: BgrImage) -> BgrImage:
    """``bgr`` with a veil of stray light taken off when it is washed out (its darkest
    level at least :data:`UNVEIL_FROM`): the levels stretched from just under the darkest
    to the brightest paper (the 99.5th percentile) over the full range; otherwise ``bgr``
    itself."""
    grey = np.asarray(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY), np.uint8)
    darkest = _darkest(grey)
    if darkest < UNVEIL_FROM:
        return bgr
    low = 0.9 * darkest
    high = max(float(np.percentile(grey[::4, ::4], 99.5)), low + 32.0)
    lut = np.clip((np.arange(256, dtype=np.float32) - low) * 255.0 / (high - low), 0, 255).astype(np.uint8)
    return np.asarray(cv2.LUT(bgr, lut), np.uint8)


_LAST_LIT: list[BgrImage] = []  # the picture evenly_lit returned last


def evenly_lit(bgr: BgrImage, short_px: float | None = None) -> BgrImage:
    """``bgr`` as the index readers take it: :func:`unveiled`, then :func:`shadows_lifted`
    (``short_px``: as it takes it). The picture this returned last is returned as it is (one
    photo is handed on from look to look, each taking it evenly lit)."""
    if _LAST_LIT and _LAST_LIT[0] is bgr:
        return bgr
    out = shadows_lifted(unveiled(bgr), short_px)
    _LAST_LIT[:] = [out]
    return out


def _odd(v: float) -> int:
    return max(3, int(2 * round(v / 2) + 1))


def shadows_lifted(bgr: BgrImage, short_px: float | None = None) -> BgrImage:
    """``bgr`` with each shadow whose edge is soft lifted to the light beside it (see
    SHADOW_STEP); ``bgr`` itself when it shows none. The print a shadow may hold, the least
    shadow and the reach of its edge are shares of the picture's shorter side, or of
    ``short_px`` where given (the shorter side of a picture in which the cards would be the
    size they are here in a photo of a few cards: :mod:`vision.photo_size`, for a whole table
    in a large photo).

    >>> page = np.full((480, 640, 3), 220, np.uint8); page[::24, :] = 40   # ruled paper
    >>> xs = np.arange(640, dtype=np.float32)
    >>> arm = 1 - 0.45 * np.exp(-np.clip(np.abs(xs - 320) - 30, 0, None) ** 2 / 200)  # a soft band
    >>> shaded = (page * arm[None, :, None]).astype(np.uint8)
    >>> int(shaded[10, 320, 0]), int(shadows_lifted(shaded)[10, 320, 0]) > 200
    (121, True)
    >>> strip = page.copy(); strip[:, 290:350] = 121   # a grey top between two cards: a sharp edge
    >>> shadows_lifted(strip) is strip, shadows_lifted(page) is page
    (True, True)
    """
    h, w = bgr.shape[:2]
    sw, sh = max(1, w // _SHADOW_SHRINK), max(1, h // _SHADOW_SHRINK)
    short = min(sw, sh) if short_px is None else max(1, int(short_px) // _SHADOW_SHRINK)
    small = cv2.resize(_balance(bgr), (sw, sh), interpolation=cv2.INTER_AREA)
    light = _window_light(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY))
    near_bgr = cv2.morphologyEx(small, cv2.MORPH_CLOSE,
                                cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (_odd(_SHADOW_PRINT * short),) * 2))
    near = np.maximum(cv2.cvtColor(near_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32), 1.0)
    ratio = near / np.maximum(light, 1.0)
    grey = cv2.cvtColor(near_bgr, cv2.COLOR_BGR2HSV)[..., 1] <= _MAX_PAPER_SAT
    dimmed = ((near >= SHADOW_DEEPEST * float(np.percentile(near, 99))) & (ratio <= SHADOW_FROM) & grey)
    dimmed = cv2.morphologyEx(dimmed.astype(np.uint8), cv2.MORPH_OPEN,
                              cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (_odd(_SHADOW_WIDE * short),) * 2))
    count, regions = cv2.connectedComponents(dimmed)
    if count <= 1:
        return bgr
    log_near = cv2.GaussianBlur(np.log(near), (0, 0), 1.0)
    shadows = [r for r in range(1, count) if _soft_edged(log_near, regions == r, short)]
    if not shadows:
        return bgr
    reach = max(3.0, _SHADOW_REACH * short)
    zone = cv2.dilate(np.isin(regions, shadows).astype(np.uint8),
                      cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (_odd(reach),) * 2))
    gain = np.where(zone > 0, 1.0 / np.clip(ratio, SHADOW_DEEPEST, 1.0), 1.0).astype(np.float32)
    gain = cv2.resize(cv2.GaussianBlur(gain, (0, 0), 1.5), (w, h), interpolation=cv2.INTER_LINEAR)
    return np.asarray(np.clip(bgr * gain[..., None], 0, 255), np.uint8)


def _soft_edged(log_near: npt.NDArray[np.float32], region: npt.NDArray[np.bool_], short: int) -> bool:
    """Whether ``region``'s near level (``log_near``: its log, smoothed) steps up across its
    border (SHADOW_STEP) softly (SHADOW_SOFT_PX) at SHADOW_SOFT_SHARE of the places it steps:
    measured along the border's normal, out to _SHADOW_REACH of the shorter side each way,
    places running off the picture left out."""
    sh, sw = region.shape
    mask = region.astype(np.uint8)
    ys, xs = np.nonzero(mask - cv2.erode(mask, np.ones((3, 3), np.uint8)))
    if len(ys) > _SHADOW_SAMPLES:
        pick = np.linspace(0, len(ys) - 1, _SHADOW_SAMPLES).astype(int)
        ys, xs = ys[pick], xs[pick]
    gy, gx = np.gradient(cv2.GaussianBlur(mask.astype(np.float32), (0, 0), 2.0))
    nx, ny = -gx[ys, xs], -gy[ys, xs]  # outwards, where the region's mask falls
    norm = np.hypot(nx, ny)
    ok = norm > 1e-6
    reach = max(3.0, _SHADOW_REACH * short)
    ts = np.linspace(-reach, reach, int(2 * reach) + 1)
    px = xs[ok, None] + ts[None, :] * (nx[ok] / norm[ok])[:, None]
    py = ys[ok, None] + ts[None, :] * (ny[ok] / norm[ok])[:, None]
    on = ((px >= 0) & (px <= sw - 1) & (py >= 0) & (py <= sh - 1)).all(axis=1)
    if not on.any():
        return False
    profile = cv2.remap(log_near, px[on].astype(np.float32), py[on].astype(np.float32), cv2.INTER_LINEAR)
    step = profile[:, -3:].mean(axis=1) - profile[:, :3].mean(axis=1)
    slope = np.abs(np.diff(profile, axis=1)).max(axis=1) / float(ts[1] - ts[0])
    stepped = step >= math.log(SHADOW_STEP)
    if stepped.sum() < _SHADOW_MIN_STEPS:
        return False
    width = step[stepped] / np.maximum(slope[stepped], 1e-6)
    return bool(np.mean(width >= SHADOW_SOFT_PX / _SHADOW_SHRINK) >= SHADOW_SOFT_SHARE)


def _balance(bgr: BgrImage) -> BgrImage:
    """``bgr`` white-balanced on its brightest pixels (the cards' paper where there are
    cards), for telling paper from a coloured top under a coloured light. A light is
    warm or cool, never green: the gains lift blue and green under a warm light, blue and
    red under a cool one; a picture whose brightest pixels are green (a felt with no card)
    and a mild cast (:data:`_BALANCE_FROM`) are left as they are."""
    small = cv2.resize(bgr, (max(1, bgr.shape[1] // _LIGHT_SHRINK), max(1, bgr.shape[0] // _LIGHT_SHRINK)),
                       interpolation=cv2.INTER_AREA).reshape(-1, 3).astype(np.float32)
    grey = small.sum(axis=1)
    unclipped = small.max(axis=1) < 250
    if not unclipped.any():
        return bgr
    bright = small[unclipped & (grey >= np.percentile(grey[unclipped], 98))]
    b, g, r = (float(v) for v in np.median(bright, axis=0))
    if g > 1.05 * max(r, b) or min(b, g, r) <= 0:
        return bgr
    top = max(b, g, r)
    gains = np.minimum(top / np.array([b, g, r]), _MAX_BALANCE)
    if float(gains.max()) < _BALANCE_FROM:
        return bgr
    lut = np.clip(np.arange(256, dtype=np.float32)[:, None] * gains[None, :], 0, 255).astype(np.uint8)
    return np.asarray(cv2.merge([cv2.LUT(bgr[..., k], lut[:, k]) for k in range(3)]), np.uint8)


def _light_level(grey: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """The local light level: the brightest grey level within about a card's size (the
    paper, where there is a card), smooth, full size."""
    h, w = grey.shape
    size = (max(1, w // _LIGHT_SHRINK), max(1, h // _LIGHT_SHRINK))
    small = cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
    return np.asarray(cv2.resize(_window_light(small), (w, h), interpolation=cv2.INTER_LINEAR), np.float32)


def _window_light(small: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """The brightest level of ``small`` (a picture shrunk) within :data:`_LIGHT_WINDOW` of its
    shorter side, smooth."""
    k = _odd(_LIGHT_WINDOW * min(small.shape[:2]))
    level = cv2.dilate(small, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    return np.asarray(cv2.GaussianBlur(level.astype(np.float32), (0, 0), k / 4), np.float32)


def ink_on_paper(bgr: BgrImage, window: int) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Ink on paper, and the paper (pale and grey), each judged against the light where it
    lies: the paper round the ink (the brightest within ``window``), the local light level
    and the photo's veil."""
    levels = ink_levels(bgr, window)
    return levels.ink, levels.pale


class InkLevels(NamedTuple):
    """Masks of one picture: :func:`ink_on_paper`'s ink; the faint ink (darker than
    :data:`_FAINT_RATIO` of its paper: a thin stroke blurred by the lens or the JPEG, and the
    halo round any ink); the dark ink (darker than :data:`DARK_RATIO`: a black glyph's core);
    and the paper. Red print is in all three inks."""

    ink: npt.NDArray[np.bool_]
    faint: npt.NDArray[np.bool_]
    dark: npt.NDArray[np.bool_]
    pale: npt.NDArray[np.bool_]


def ink_levels(bgr: BgrImage, window: int) -> InkLevels:
    """The :class:`InkLevels` of ``bgr``, the paper round the ink being the brightest within
    ``window``."""
    balanced = _balance(bgr)
    hsv = cv2.cvtColor(balanced, cv2.COLOR_BGR2HSV)
    grey = np.asarray(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY), np.uint8)
    veil = _VEIL_SHARE * _darkest(grey)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (window, window))  # separable: fast
    paper = cv2.dilate(grey, kernel).astype(np.float32)
    bright = np.maximum(_PAPER_OF_LIGHT * _light_level(grey), _MIN_PAPER)
    # the paper must be pale (for its light) and grey where it is brightest
    pale = (grey >= bright) & (hsv[..., 1] <= _MAX_PAPER_SAT)
    paper_ok = (cv2.dilate(pale.astype(np.uint8) * 255, kernel) > 0) & (paper >= bright)
    g = grey.astype(np.float32)
    step = (paper - g >= _MIN_INK_STEP) & paper_ok
    ink = (g - veil < _INK_RATIO * (paper - veil)) & step
    faint = (g - veil < _FAINT_RATIO * (paper - veil)) & step
    b, gr, r = (balanced[..., k].astype(np.int16) for k in range(3))
    # red print: redder than grey by 40 levels on paper of 200 or more, in proportion on dimmer paper
    red = (r - np.maximum(gr, b) > _RED_STEP * np.minimum(paper, 200.0) / 200.0) & (hsv[..., 1] > 80)
    red_ink = red & (g - veil < 0.85 * (paper - veil)) & paper_ok
    dark = (g - veil < DARK_RATIO * (paper - veil)) & step
    return InkLevels(ink | red_ink, faint | red_ink, dark | red_ink, pale)


def redness(bgr: BgrImage, glyphs: npt.NDArray[np.float64], dark: float = 0.6) -> list[float]:
    """How red each glyph's ink is: ``glyphs`` [K, P, 2] are the image points sampled over each
    glyph; its ink is those darker than ``dark`` of the paper in every channel (the paper: the
    90th percentile of each channel over the points' bounding box), and its redness the median
    of R - (G + B) / 2 of the ink's colour divided by the paper's, so that a warm, dim or cold
    light leaves it alone: about 0 for black ink, 0.2-0.8 for red; NaN for a glyph with fewer
    than 3 ink points.

    >>> red = np.full((20, 20, 3), 250, np.uint8); red[5:15, 5:15] = (30, 30, 200)
    >>> points = np.array([[[x, y] for x in range(20) for y in range(20)]], np.float64)  # paper around
    >>> round(redness(red, points)[0], 2), redness(np.full((20, 20, 3), 250, np.uint8), points)
    (0.68, [nan])
    """
    xy = np.asarray(glyphs, np.float32).reshape(-1, 2)
    seen = cv2.remap(bgr, xy[:, 0:1], xy[:, 1:2], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    x0, y0 = np.maximum(np.floor(xy.min(axis=0)).astype(int), 0)
    x1, y1 = np.ceil(xy.max(axis=0)).astype(int) + 1
    around = bgr[y0:y1, x0:x1].reshape(-1, 3).astype(np.float64)
    paper = np.percentile(around, 90, axis=0) + 1.0 if len(around) else np.full(3, 256.0)
    ratio = (seen.reshape(-1, 3).astype(np.float64) / paper).reshape(len(glyphs), -1, 3)
    out = []
    for glyph in ratio:
        ink = glyph[glyph.min(axis=1) < dark]
        out.append(float(np.median(ink[:, 2] - 0.5 * (ink[:, 0] + ink[:, 1]))) if len(ink) >= 3 else math.nan)
    return out
