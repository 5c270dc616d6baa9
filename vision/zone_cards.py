"""Find the cards lying in a zone, seen from above (:mod:`vision.zone_view`), by their
size in millimetres, their colour and the empty zone.

Three kinds of evidence, each of which fails alone under some real light:

1. **Log-colour edges.** The gradient of log B, log G, log R: a lamp's gradient or a
   dim room scales all of a region's pixels alike and leaves a ratio (a log step)
   unchanged, and colour counts as well as grey: a bluish-white card on the
   light-green zone steps in log B even where its shaded margin has the zone's grey.
   The regions between edges are candidates (a card is a hole in the zone's region).
2. **Difference from the empty zone**, per pixel and colour, after taking away the
   frame-wide change of exposure and white balance. The empty zone is learned from
   frames in which nothing lay there (:mod:`vision.occupancy`) or, until then,
   fitted to the printed zone itself (a smooth light field over one printed colour).
3. **The card's size.** In this view every card is a rectangle of a card's sides in
   millimetres, so a candidate is kept only if its rectangle is card-sized and it
   fills it; a row of touching cards is cut into card-sized pieces, evenly when they
   lie lined up, where the outline steps when they do not. Each side is then
   moved to the strongest log-colour step near it.

>>> from vision.zone_view import ZoneWindow, rectify
>>> zone = np.full((300, 400, 3), (200, 214, 196), np.uint8)
>>> _ = cv2.rectangle(zone, (100, 40), (100 + 126, 40 + 177), (235, 232, 228), -1)  # a card at 2 px/mm
>>> view = rectify(zone, np.diag([0.5, 0.5, 1.0]), ZoneWindow(0, 0, 200, 150))
>>> [[round(float(v)) for v in (*q.min(axis=0), *q.max(axis=0))] for q in find_cards(view)]
[[100, 40, 226, 217]]
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.geometry import CARD_H_MM, CARD_W_MM, corners_where_sides_meet, quad_iou
from vision.zone_view import RectifiedZone

__all__ = ["ZoneCardConfig", "colour_shift", "difference", "find_cards", "largest_colour", "log_colour"]

FloatImage = npt.NDArray[np.float32]
FloatArray = npt.NDArray[np.float64]
Mask = npt.NDArray[np.bool_]


@dataclass(frozen=True, slots=True)
class ZoneCardConfig:
    card_mm: tuple[float, float] = (CARD_W_MM, CARD_H_MM)
    # each side within this share of a card's: poker (63 x 88 mm) and bridge (57 x 89 mm)
    # decks both pass; two cards, a token tile (66 x 92 mm, found by its marker) do not
    # need to fail here (the observer drops tokens by their markers)
    size_tolerance: float = 0.14
    # a candidate's area over its rectangle's: rounded corners cost ~1 %, a pip or an
    # index touching the rim a few % more
    min_fill: float = 0.82
    # an edge is a log-colour gradient this many times the view's median gradient (the
    # noise and the print's fine texture) ...
    edge_over_median: float = 4.0
    # ... and at least this (log units per view pixel: a 4 % step spread over ~1.5 px)
    min_edge: float = 0.025
    # a pixel differs from the empty zone by at least this in some colour (log units:
    # 4 %); a white card on the printed zone differs by >= 6 % even in its shaded margin
    min_difference: float = 0.04
    # share of a card's outline along which a step shows: a card shows >= 0.75 even
    # with one side on white paper; a hand or a cloth's fold has no straight outline
    min_outline_support: float = 0.6
    # with the empty zone's look known, a card changes at least this share of its
    # rectangle (a white card on white paper still has its print and shade); a piece of
    # the bare zone that cards cut off does not
    min_changed: float = 0.1
    # cards laid touching, not lined up (_split_at_steps): their blob fills at least this
    # share of its convex hull (two cards 30 mm out of line: 86 %; a hand's fingers less),
    # and print or a sliver of the next card narrower than this (mm) comes away first
    min_row_solidity: float = 0.8
    row_open_mm: float = 6.0
    # how far (mm) a side may move to the strongest step near it
    refine_mm: float = 3.0
    # print thinner than this (mm) that touches a card is cut away from it (the zone's
    # letters, 8 mm high with ~1.5 mm strokes)
    thin_print_mm: float = 4.0
    word_mm: float = 11.0  # ... and a line of them (8 mm high)
    # the zone's printed border, and the edge found along it, lie within this (mm)
    zone_border_mm: float = 2.0
    # overlapping rectangles are ranked by outline support less this times their mean
    # relative size error: 6 mm too long on a card's 89 mm side costs 0.07 (a fifth of
    # the outline's samples a side is 0.05, a quarter of a side missing costs ~0.06)
    size_weight: float = 2.0


# log(v + 4) of each 8-bit value, by OpenCV's own log (the values it gives an image)
_LOG_TABLE = np.asarray(cv2.log(np.arange(256, dtype=np.float32).reshape(1, -1) + np.float32(4.0)),
                        np.float32).reshape(1, 256)


def log_colour(bgr: npt.NDArray[np.uint8], blur_px: float = 1.0) -> FloatImage:
    """log(B + 4), log(G + 4), log(R + 4), lightly smoothed against sensor noise."""
    if bgr.dtype == np.uint8:
        out = np.asarray(cv2.LUT(bgr, _LOG_TABLE), np.float32)  # 256 logs, looked up
    else:
        out = np.asarray(cv2.log(np.asarray(bgr, np.float32) + np.float32(4.0)), np.float32)
    if blur_px > 0:
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), blur_px), np.float32)
    return out


def _gradient(logc: FloatImage, valid: Mask) -> FloatImage:
    gx = cv2.Sobel(logc, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(logc, cv2.CV_32F, 0, 1, ksize=3)
    # sqrt(sum over colours of gx^2 + gy^2) / 8, per pixel: OpenCV's element-wise calls do
    # numpy's float32 arithmetic in the same order (the same values) in half the time
    b, g, r = cv2.split(cv2.add(cv2.multiply(gx, gx), cv2.multiply(gy, gy)))
    mag = np.asarray(cv2.sqrt(cv2.add(cv2.add(b, g), r)), np.float32) * np.float32(0.125)
    mag[~valid] = 0.0
    return mag


def largest_colour(image: FloatImage) -> FloatImage:
    """The largest of each pixel's three colours ([H, W, 3] -> [H, W]): each row's values
    (b, g, r, b, g, r ...) dilated by 1 x 3 hold at every green the largest of its pixel's
    three (numpy's max over the colours is ten times slower, splitting them three).

    >>> largest_colour(np.array([[[0.1, 0.5, 0.2], [0.3, 0.0, 0.9]]], np.float32)).tolist()
    [[0.5, 0.8999999761581421]]
    """
    h, w = image.shape[:2]
    return np.ascontiguousarray(cv2.dilate(image.reshape(h, w * 3), np.ones((1, 3), np.uint8))[:, 1::3])


def colour_shift(delta: npt.NDArray[Any], where: Mask) -> npt.NDArray[np.float32]:
    """The frame-wide change in each colour of a log-colour difference (exposure, white
    balance): its median over ``where``, from every 4th pixel each way."""
    sample = delta[::4, ::4][where[::4, ::4]]
    # each colour's samples side by side in memory: the same medians in half the time
    return np.asarray(np.median(np.ascontiguousarray(sample.T), axis=1) if sample.size else np.zeros(3), np.float32)


def difference(logc: FloatImage, empty_log: FloatImage, where: Mask, reference: Mask | None = None) -> FloatImage:
    """Largest per-colour log difference from the empty zone, after the frame-wide
    change in each colour (exposure, white balance) is taken away; 0 outside ``where``.

    The frame-wide change is the median change over ``reference`` (default ``where``):
    pixels most of which show the bare zone. Over the whole zone that fails once cards
    cover more than half of it (three cards in the play zone cover ~60 %: their change
    would be taken for the light's, and the bare zone for a thing).
    """
    delta = cv2.subtract(logc, empty_log)
    ref = where if reference is None else (where & reference)
    if np.count_nonzero(ref[::4, ::4]) < 50:
        ref = where  # too little of the reference in view
    shift = colour_shift(delta, ref)
    # |delta - shift| in each colour (OpenCV: numpy's float32 values, in less than half the time)
    out = largest_colour(cv2.absdiff(delta, np.append(shift, 0.0).astype(np.float64)))  # (4,) doubles: a scalar
    out[~where] = 0.0
    return np.asarray(out, np.float32)


def _disc(diameter_px: float) -> npt.NDArray[np.uint8]:
    k = max(3, int(round(diameter_px)) | 1)
    return np.asarray(cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)), np.uint8)


@functools.lru_cache(maxsize=32)
def _disc_rectangles(k: int) -> tuple[tuple[int, int], ...]:
    """The centred rectangles (width, height) whose union is the ``k`` x ``k`` disc of
    :func:`_disc`: one per step of its outline (a disc 23 px across is 7 of them)."""
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    c = k // 2
    half = [int(np.flatnonzero(disc[c + dy])[-1]) - c for dy in range(c + 1)]
    return tuple((2 * w + 1, 2 * dy + 1) for dy, w in enumerate(half) if dy == c or half[dy + 1] != w)


def _open_by_disc(mask: npt.NDArray[np.uint8], diameter_px: float, outside_empty: bool) -> npt.NDArray[np.uint8]:
    """A morphological opening by :func:`_disc` (``outside_empty``: what lies beyond the
    mask's edge is empty, as in :func:`_open`; else OpenCV's default).

    A wide disc is the union of a few centred rectangles, so eroding by it is the minimum
    of the erosions by each (and dilating the maximum of the dilations): rectangles are
    separable, and the result is the same pixel for pixel in half the time of a disc 23 px
    across (the word's width at 2 px/mm)."""
    def erode(image: npt.NDArray[np.uint8], rect: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        if outside_empty:
            return np.asarray(cv2.erode(image, rect, borderType=cv2.BORDER_CONSTANT, borderValue=0), np.uint8)
        return np.asarray(cv2.erode(image, rect), np.uint8)  # outside is filled (OpenCV's default)

    def dilate(image: npt.NDArray[np.uint8], rect: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        if outside_empty:
            return np.asarray(cv2.dilate(image, rect, borderType=cv2.BORDER_CONSTANT, borderValue=0), np.uint8)
        return np.asarray(cv2.dilate(image, rect), np.uint8)  # outside is empty (OpenCV's default)

    kernel = _disc(diameter_px)
    if kernel.shape[0] < 17:
        return dilate(erode(mask, kernel), kernel)
    rects = [np.ones((h, w), np.uint8) for w, h in _disc_rectangles(kernel.shape[0])]
    eroded = erode(mask, rects[0])
    for rect in rects[1:]:
        eroded = np.minimum(eroded, erode(mask, rect))
    opened = dilate(eroded, rects[0])
    for rect in rects[1:]:
        opened = np.maximum(opened, dilate(eroded, rect))
    return opened


def _open(mask: npt.NDArray[np.uint8], kernel: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """A morphological opening in which what lies beyond the mask's edge is empty.

    OpenCV's erosion takes the outside as filled, so a sliver along the edge (of the next
    card, where a blob was cut into pieces) would survive an opening that removes it
    anywhere else."""
    return np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel, borderType=cv2.BORDER_CONSTANT,
                                       borderValue=0), np.uint8)


def _card_px(config: ZoneCardConfig, px_per_mm: float) -> tuple[float, float]:
    return config.card_mm[0] * px_per_mm, config.card_mm[1] * px_per_mm


def _is_card(w: float, h: float, config: ZoneCardConfig, px_per_mm: float) -> bool:
    short, long_ = sorted((w, h))
    cw, ch = _card_px(config, px_per_mm)
    tol = config.size_tolerance
    return abs(short / cw - 1) <= tol and abs(long_ / ch - 1) <= tol


def _rect_corners(centre: tuple[float, float], size: tuple[float, float], angle_deg: float) -> FloatArray:
    return np.asarray(cv2.boxPoints((centre, size, angle_deg)), np.float64)


Memo = dict[tuple[bytes, int], list[FloatArray]]


def _fits_from_mask(mask: npt.NDArray[np.uint8], config: ZoneCardConfig, px_per_mm: float,
                    inside: Mask | None = None, memo: Memo | None = None) -> list[FloatArray]:
    """Card rectangles from the outer outlines of a mask's blobs (holes filled).

    ``memo``: the rectangles of each outline already fitted (by its points, and the zone
    it was completed in): a find_cards call fits the same blob from several of its masks
    (a card away from the print is the same blob opened thin or by a word), and fitting
    a blob of touching cards is most of its time."""
    cw, ch = _card_px(config, px_per_mm)
    card_area = cw * ch
    # every blob's outer outline, a blob inside another's hole too (a card in the zone
    # inside the ring of paper round it)
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    out: list[FloatArray] = []
    for contour, link in zip(contours, hierarchy[0] if hierarchy is not None else [], strict=False):
        if link[3] != -1:
            continue  # the outline of a hole
        area = cv2.contourArea(contour)
        if area < 0.55 * card_area or area > 4.6 * card_area:
            continue
        key = (contour.tobytes(), 0 if inside is None else id(inside))
        found = None if memo is None else memo.get(key)
        if found is None:
            found = _fits_of_outline(np.asarray(contour, np.int32), area, config, px_per_mm, inside)
            if memo is not None:
                memo[key] = found
        out.extend(found)
    return out


def _fits_of_outline(contour: npt.NDArray[np.int32], area: float, config: ZoneCardConfig, px_per_mm: float,
                     inside: Mask | None) -> list[FloatArray]:
    """Card rectangles of one blob's outer outline (``area``: the area it encloses)."""
    cw, ch = _card_px(config, px_per_mm)
    card_area = cw * ch
    (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
    if w * h <= 0:
        return []
    if area / (w * h) < config.min_fill:
        # not a filled rectangle: a card with something stuck to it (the zone's title
        # it lies against) still has a card's four straight sides
        if area <= 1.6 * card_area:
            sides = _straight_sides(np.asarray(contour, np.int32), config, px_per_mm)
            return [] if sides is None else [sides]
        # cards laid touching, not lined up
        return _split_at_steps(np.asarray(contour, np.int32), config, px_per_mm)
    if _is_card(w, h, config, px_per_mm):
        return [_rect_corners((cx, cy), (w, h), angle)]
    row = _split_row((cx, cy), (w, h), angle, config, px_per_mm)
    if not row and area > 1.6 * card_area:  # cards laid touching, not lined up
        row = _split_at_steps(np.asarray(contour, np.int32), config, px_per_mm)
    if row:
        return row
    sides = _straight_sides(np.asarray(contour, np.int32), config, px_per_mm)
    if sides is not None:
        return [sides]
    if inside is not None:
        return _completed((cx, cy), (w, h), angle, inside, config, px_per_mm)
    return []


def _outline_direction(pts: FloatArray) -> float:
    """The main direction (radians, modulo 90 degrees) of an outline's straight parts:
    the direction of most outline length, then sharpened so that the most outline points
    lie on few lines across each axis."""
    step = 12  # pixels along the outline: directions to ~5 degrees
    d = np.roll(pts, -step, axis=0) - pts
    length = np.hypot(d[:, 0], d[:, 1])
    ang = np.degrees(np.arctan2(d[:, 1], d[:, 0])) % 90.0
    hist = np.bincount(np.round(ang).astype(int) % 90, weights=length, minlength=90)
    hist = hist + np.roll(hist, 1) + np.roll(hist, -1)
    coarse = float(np.argmax(hist))
    # sharpness of each candidate direction: straight sides put many points in one bin
    # along each axis (the 4 fullest bins of both axes), all directions at once
    degs = np.arange(coarse - 4.0, coarse + 4.01, 0.5)
    t = np.radians(degs)
    axes = np.concatenate([np.stack([np.cos(t), np.sin(t)]), np.stack([-np.sin(t), np.cos(t)])], axis=1)
    proj = pts @ axes  # (points, 2 * directions): u of each direction, then v
    bins = np.round(proj - proj.min(axis=0)).astype(np.int64)
    width = int(bins.max()) + 1
    counts = np.bincount((bins + width * np.arange(bins.shape[1])).ravel(),
                         minlength=width * bins.shape[1]).reshape(bins.shape[1], width)
    top = np.partition(counts, width - 4, axis=1)[:, -4:].sum(axis=1) if width > 4 else counts.sum(axis=1)
    sharpness = top[:len(degs)] + top[len(degs):]
    return float(np.radians(degs[int(np.argmax(sharpness))]))


def _split_at_steps(contour: npt.NDArray[np.int32], config: ZoneCardConfig, px_per_mm: float) -> list[FloatArray]:
    """Cards laid touching (or a little over each other) side by side or one above the
    other, not lined up: their blob's top or bottom outline steps where one card ends and
    the next begins. Cut the blob there, across its main direction; where it does not
    step (lined up, with print stuck to a card), evenly. The cut is kept only
    if it explains the blob: two or more pieces, each a card-sized filled rectangle,
    that together cover most of it (a card and something else is left to the other
    evidence)."""
    pts = contour.reshape(-1, 2).astype(np.float64)
    if len(pts) < 40:
        return []
    # a hand over cards, fingers apart, is not tried (the frames with a hand are the dear ones)
    hull_area = float(cv2.contourArea(cv2.convexHull(contour)))
    if hull_area <= 0 or float(cv2.contourArea(contour)) < config.min_row_solidity * hull_area:
        return []
    theta = _outline_direction(pts)
    axes = np.array([[np.cos(theta), np.sin(theta)], [-np.sin(theta), np.cos(theta)]])
    uv = pts @ axes.T
    low = uv.min(axis=0)
    uv -= low
    size = np.ceil(uv.max(axis=0)).astype(int) + 2
    mask = np.zeros((int(size[1]), int(size[0])), np.uint8)
    cv2.fillPoly(mask, [np.round(uv).astype(np.int32).reshape(-1, 1, 2)], 1)
    cw, ch = _card_px(config, px_per_mm)
    blob_area = float(mask.sum())
    # print stuck to a card (the zone's title) would step the outline too
    opening = _disc(config.row_open_mm * px_per_mm)
    smooth = _open(mask, opening)
    for across in (False, True):  # cut across u (cards side by side), then across v
        m = smooth.T if across else smooth
        filled = np.asarray(m.any(axis=0), np.bool_)
        rows = np.arange(m.shape[0])[:, None]
        top = np.where(filled, np.where(m, rows, m.shape[0]).min(axis=0), 0).astype(np.float64)
        bottom = np.where(filled, np.where(m, rows, -1).max(axis=0), 0).astype(np.float64)
        cuts = _card_lengths(_steps(top, bottom, filled, px_per_mm), m.shape[1], (cw, ch)) \
            or _card_lengths(_even_cuts(m.shape[1]), m.shape[1], (cw, ch))
        if not cuts:
            continue
        edges = [0, *cuts, m.shape[1]]
        pieces: list[FloatArray] = []
        covered = 0.0
        for a, b in zip(edges[:-1], edges[1:]):
            # a sliver of the next card, or print stuck to this one, comes away
            part = _open(np.ascontiguousarray(m[:, a:b]), opening)
            n_parts, labels, stats, _ = cv2.connectedComponentsWithStats(part, connectivity=4)
            if n_parts < 2:
                continue
            biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
            area = float(stats[biggest, cv2.CC_STAT_AREA])
            if area < 0.3 * cw * ch:
                continue
            outline, _ = cv2.findContours((labels == biggest).astype(np.uint8), cv2.RETR_EXTERNAL,
                                          cv2.CHAIN_APPROX_NONE)
            line = max(outline, key=len)
            (cx, cy), (w, h), angle = cv2.minAreaRect(line)
            if w * h > 0 and area / (w * h) >= config.min_fill and _is_card(w, h, config, px_per_mm):
                corners = _rect_corners((cx + a, cy), (w, h), angle)
            else:
                # the zone's title stuck to this piece (too wide to open away here): the
                # card's four straight sides are still the piece's outline's lines
                sides = _straight_sides(np.asarray(line, np.int32), config, px_per_mm)
                if sides is None:
                    continue
                corners = sides + [a, 0]
            if across:
                corners = corners[:, ::-1]
            pieces.append((corners + low) @ axes)
            covered += area
        if len(pieces) >= 2 and covered >= 0.75 * blob_area:
            return pieces
    return []


def _mean_inside(corners: FloatArray, image: FloatImage) -> float:
    """The mean of ``image`` over the rectangle ``corners`` (drawn in its bounding box only)."""
    h, w = image.shape[:2]
    pts = np.round(corners).astype(np.int32)
    x0, y0 = max(int(pts[:, 0].min()), 0), max(int(pts[:, 1].min()), 0)
    x1, y1 = min(int(pts[:, 0].max()) + 1, w), min(int(pts[:, 1].max()) + 1, h)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    drawn = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(drawn, [(pts - [x0, y0]).astype(np.int32).reshape(-1, 1, 2)], 1)
    inside = drawn.astype(bool)
    return float(image[y0:y1, x0:x1][inside].mean()) if inside.any() else 0.0


def _even_cuts(n: int) -> list[int]:
    """Where a blob ``n`` px long parts into 2, 3 or 4 equal pieces: cards lined up (or
    nearly: the outline steps less than a rounded corner) have no step to cut at, and
    print stuck to one (the zone's title) keeps the blob from being an even row of cards
    until the opening has taken it away."""
    return sorted({int(round(k * n / parts)) for parts in (2, 3, 4) for k in range(1, parts)})


def _card_lengths(cuts: list[int], n: int, card_px: tuple[float, float], tol: float = 0.2) -> list[int]:
    """Of the candidate ``cuts`` along a blob ``n`` px long, those that part it into
    pieces each a card's width or length long (the chain nearest card sizes); [] if none."""
    sizes = np.asarray(card_px, np.float64)

    def off(length: float) -> float:
        return float(np.min(np.abs(length / sizes - 1.0)))

    best: tuple[float, list[int]] | None = None
    stack: list[tuple[int, list[int], float]] = [(0, [], 0.0)]
    while stack:
        at, chain, cost = stack.pop()
        if off(n - at) <= tol and chain:
            total = cost + off(n - at)
            if best is None or total < best[0]:
                best = (total, chain)
        for c in cuts:
            if c > at and off(c - at) <= tol:
                stack.append((c, chain + [c], cost + off(c - at)))
    return [] if best is None else best[1]


def _steps(top: FloatArray, bottom: FloatArray, filled: npt.NDArray[np.bool_], px_per_mm: float) -> list[int]:
    """Where a blob's top or bottom outline (per column) steps by more than a rounded
    corner: the level over the few mm before a column against the few mm after it."""
    window, skip, least = int(round(8 * px_per_mm)), int(round(2.5 * px_per_mm)), 4.0 * px_per_mm
    n = len(top)
    reach = window + skip
    if n <= 2 * reach:
        return []
    step = np.zeros(n)
    x = np.arange(reach, n - reach)
    full = np.asarray(np.lib.stride_tricks.sliding_window_view(filled, window).all(axis=1), np.bool_)
    meds = []
    for level in (top, bottom):
        med = np.median(np.lib.stride_tricks.sliding_window_view(level, window), axis=1)  # med[i]: columns i..i+window-1
        meds.append(med)
        before, after = med[x - reach], med[x + skip]
        ok = full[x - reach] & full[x + skip]
        step[x] = np.maximum(step[x], np.where(ok, np.abs(before - after), 0.0))
    cuts: list[int] = []
    i = 0
    while i < n:
        if step[i] >= least:
            end = i
            while end + 1 < n and step[end + 1] >= least:
                end += 1
            # the column where the outline goes from the levels before the step to those
            # after it: the best split of the span into two flat parts
            lo, hi = max(i - skip, 0), min(end + skip + 1, n)
            cost = np.zeros(hi - lo + 1)
            for level, med in zip((top, bottom), meds, strict=True):
                a = np.abs(level[lo:hi] - med[max(i - reach, 0)])
                b = np.abs(level[lo:hi] - med[min(end + skip, len(med) - 1)])
                cost += np.concatenate([[0.0], np.cumsum(a)]) + np.concatenate([np.cumsum(b[::-1])[::-1], [0.0]])
            cuts.append(int(lo + np.argmin(cost)))
            i = end + 1
        else:
            i += 1
    return cuts


def _straight_sides(contour: npt.NDArray[np.int32], config: ZoneCardConfig, px_per_mm: float) -> FloatArray | None:
    """A card with something stuck to its outline (print it lies on, a corner of the next
    card): its four straight sides are still the outline's most common lines, a card's
    width and length apart. The outline's main direction first, then along each axis the
    pair of lines, a card's side apart, that the most outline points lie on."""
    pts = contour.reshape(-1, 2).astype(np.float64)
    if len(pts) < 40:
        return None
    theta = _outline_direction(pts)
    u_axis = np.array([np.cos(theta), np.sin(theta)])
    v_axis = np.array([-np.sin(theta), np.cos(theta)])
    cw, ch = _card_px(config, px_per_mm)
    tol = config.size_tolerance
    best: tuple[float, FloatArray] | None = None
    for du, dv in ((cw, ch), (ch, cw)):
        pair_u = _side_pair(pts @ u_axis, du, tol)
        pair_v = _side_pair(pts @ v_axis, dv, tol)
        if pair_u is None or pair_v is None:
            continue
        (u0, u1, su), (v0, v1, sv) = pair_u, pair_v
        score = su + sv
        # each side must be mostly there: outline points on at least half of it
        if min(su / (2 * dv), sv / (2 * du)) < 0.5:
            continue
        corners = np.array([u * u_axis + v * v_axis for u, v in ((u0, v0), (u1, v0), (u1, v1), (u0, v1))])
        if best is None or score > best[0]:
            best = (score, corners)
    return None if best is None else best[1]


def _side_pair(proj: FloatArray, size: float, tol: float) -> tuple[float, float, float] | None:
    """Two lines across ``proj`` (positions of outline points along an axis) about
    ``size`` apart with the most points on them: (low, high, points on both)."""
    lo = float(proj.min())
    bins = np.bincount(np.round(proj - lo).astype(int)).astype(np.float64)
    counts = bins + np.concatenate([[0.0], bins[:-1]]) + np.concatenate([bins[1:], [0.0]])
    n = len(counts)
    gaps = np.arange(int(size * (1 - tol)), min(int(size * (1 + tol)) + 1, n))
    if gaps.size == 0:
        return None
    # every gap at once: both[g, i] = counts[i] + counts[i + gap_g] (-inf past the end)
    idx = np.arange(n)[None, :] + gaps[:, None]
    far = np.where(idx < n, counts[np.minimum(idx, n - 1)], -np.inf)
    both = counts[None, :] + far
    first = np.argmax(both, axis=1)  # the first best place of each gap
    low, high = counts[first], counts[first + gaps]
    value = both[np.arange(gaps.size), first]
    # both lines must be real lines, not one line and noise
    real = np.minimum(low, high) >= 0.25 * np.maximum(low, high)
    if not real.any():
        return None
    k = int(np.argmax(np.where(real, value, -np.inf)))  # the first gap of the most points
    return lo + float(first[k]), lo + float(first[k] + gaps[k]), float(value[k])


def _completed(centre: tuple[float, float], size: tuple[float, float], angle: float, inside: Mask,
               config: ZoneCardConfig, px_per_mm: float) -> list[FloatArray]:
    """A card that lies over the zone's border shows only its part inside the zone: a
    rectangle of a card's width but too short. Lengthen it to a card, outward (the part
    the zone does not show)."""
    cw, ch = _card_px(config, px_per_mm)
    tol = config.size_tolerance
    c = _rect_corners(centre, size, angle)
    out = []
    for k in (0, 1):  # k = 0: keep side c0-c1, lengthen c1-c2; k = 1: the other way
        keep, short = (c[1] - c[0], c[2] - c[1]) if k == 0 else (c[2] - c[1], c[1] - c[0])
        keep_len, short_len = float(np.linalg.norm(keep)), float(np.linalg.norm(short))
        for whole, other in ((cw, ch), (ch, cw)):
            if abs(keep_len / whole - 1) > tol or not 0.45 * other <= short_len < (1 - tol) * other:
                continue
            u = short / max(short_len, 1e-6)
            g = other - short_len
            # the two edges across 'short': move one of them outward by g
            far = [1, 2] if k == 1 else [2, 3]
            near = [0, 3] if k == 1 else [0, 1]
            for moved in (far, near):
                sign = 1.0 if moved is far else -1.0
                rect = c.copy()
                rect[moved] = rect[moved] + sign * g * u
                strip_mid = c[moved].mean(axis=0) + sign * (g / 2.0) * u
                x, y = int(round(strip_mid[0])), int(round(strip_mid[1]))
                if not (0 <= y < inside.shape[0] and 0 <= x < inside.shape[1] and inside[y, x]):
                    out.append(rect)
    return out


def _split_row(centre: tuple[float, float], size: tuple[float, float], angle: float,
               config: ZoneCardConfig, px_per_mm: float) -> list[FloatArray]:
    """A row of 2-4 touching cards, all laid the same way: cut evenly along its length."""
    w, h = size
    for along_w in (True, False):
        length, other = (w, h) if along_w else (h, w)
        for n in (2, 3, 4):
            piece = (length / n, other) if along_w else (other, length / n)
            if not _is_card(piece[0], piece[1], config, px_per_mm):
                continue
            corners = _rect_corners(centre, size, angle)
            # boxPoints: corners[0] -> corners[1] ... ; find the axis of the 'w' side
            axis = corners[2] - corners[1] if along_w else corners[1] - corners[0]
            if abs(np.linalg.norm(axis) - length) > 1.0:
                axis = corners[1] - corners[0] if along_w else corners[2] - corners[1]
            unit = axis / max(float(np.linalg.norm(axis)), 1e-6)
            pieces = []
            for k in range(n):
                offset = (k + 0.5 - n / 2) * length / n
                c = (centre[0] + unit[0] * offset, centre[1] + unit[1] * offset)
                pieces.append(_rect_corners(c, piece, angle))
            return pieces
    return []


def _refine(corners: FloatArray, grad: FloatImage, radius_px: float) -> FloatArray:
    """Move each side of a rectangle along its normal to the strongest step near it."""
    q = corners.astype(np.float64)
    centre = q.mean(axis=0)
    steps = np.arange(-radius_px, radius_px + 0.25, 0.5)
    ts = np.linspace(0.12, 0.88, 24)
    moved = []
    for i in range(4):
        a, b = q[i], q[(i + 1) % 4]
        d = (b - a) / max(float(np.linalg.norm(b - a)), 1e-6)
        n = np.array([d[1], -d[0]])
        if np.dot((a + b) / 2 - centre, n) < 0:
            n = -n  # outward
        pts = a[None, None, :] + ts[:, None, None] * (b - a)[None, None, :] + steps[None, :, None] * n[None, None, :]
        vals = cv2.remap(grad, pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32), cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=0.0)
        profile = np.median(vals, axis=0)
        best = int(np.argmax(profile))
        shift = float(steps[best]) if profile[best] > 1.5 * float(np.median(profile)) + 1e-6 else 0.0
        moved.append((a + shift * n, d))
    return corners_where_sides_meet(moved, q)


def _inside_share(a: FloatArray, b: FloatArray, inward: FloatArray, foreground: FloatImage,
                  depth_px: tuple[float, float]) -> float:
    """Share of a band just inside side a-b that differs from the empty zone."""
    pts = [a + t * (b - a) + d * inward for t in np.linspace(0.1, 0.9, 12) for d in depth_px]
    p = np.asarray(pts, np.float32)
    vals = cv2.remap(foreground, p[:, 0].reshape(1, -1), p[:, 1].reshape(1, -1), cv2.INTER_NEAREST,
                     borderMode=cv2.BORDER_CONSTANT, borderValue=0.0)
    return float(np.mean(vals > 0.5))


def _trim_to_card(corners: FloatArray, foreground: FloatImage, grad: FloatImage, config: ZoneCardConfig,
                  px_per_mm: float) -> FloatArray:
    """A rectangle too long for a card along one axis, one of whose sides has no card
    just inside it (the strip of printed zone between a card and the zone's border line,
    which the card's shadow joins to it): that side is moved in to a card's length and
    onto the strongest step there.

    A card's own side has card inside it, which differs from the empty zone; a line of
    print beyond the card has the zone's own print inside it, which does not.
    """
    q = corners.astype(np.float64)
    centre = q.mean(axis=0)
    cw, ch = _card_px(config, px_per_mm)
    depth = (1.5 * px_per_mm, 3.0 * px_per_mm)
    for i in (0, 1):  # the axis across sides i and i+2
        a, b = q[i], q[(i + 1) % 4]
        c, d = q[(i + 2) % 4], q[(i + 3) % 4]
        along = float(np.linalg.norm(b - a))
        across = float(np.linalg.norm(q[(i + 1) % 4] - q[(i + 2) % 4]))
        card_len = ch if along < across else cw  # the short sides are a card's length apart
        excess = across - card_len
        if excess < 2.0 * px_per_mm:
            continue
        shares = []
        for p0, p1 in ((a, b), (c, d)):
            n = (p1 - p0) / max(float(np.linalg.norm(p1 - p0)), 1e-6)
            inward = np.array([n[1], -n[0]])
            if np.dot(centre - (p0 + p1) / 2, inward) < 0:
                inward = -inward
            shares.append((_inside_share(p0, p1, inward, foreground, depth), inward))
        (share_ab, in_ab), (share_cd, in_cd) = shares
        if min(share_ab, share_cd) >= 0.5 or max(share_ab, share_cd) < 0.8:
            continue
        moved = q.copy()
        if share_ab < share_cd:
            moved[[i, (i + 1) % 4]] += excess * in_ab
        else:
            moved[[(i + 2) % 4, (i + 3) % 4]] += excess * in_cd
        q = _refine(moved, grad, 1.5 * px_per_mm)
    return q


def _edge_support(corners: FloatArray, near: FloatImage, threshold: float) -> float:
    """Share of the rectangle's outline (sampled) where a step of at least ``threshold`` lies
    within a pixel (``near``: the gradient, dilated by a pixel)."""
    pts = []
    for i in range(4):
        a, b = corners[i], corners[(i + 1) % 4]
        for t in np.linspace(0.08, 0.92, 20):
            pts.append(a + t * (b - a))
    p = np.asarray(pts, np.float32)
    vals = cv2.remap(near, p[:, 0].reshape(1, -1), p[:, 1].reshape(1, -1), cv2.INTER_LINEAR)
    return float(np.mean(vals >= threshold))


def find_cards(view: RectifiedZone, empty_log: FloatImage | None = None, where: Mask | None = None,
               config: ZoneCardConfig = ZoneCardConfig(), zone: Mask | None = None,
               logc: FloatImage | None = None, light_reference: Mask | None = None) -> list[FloatArray]:
    """The corners (view pixels, a rectangle each) of every card lying in the view.

    ``empty_log`` is the empty zone's :func:`log_colour` (learned, or fitted to the
    print), trusted where ``where`` is True (everywhere when None). ``zone``, the
    printed zone's pixels: a card is looked for inside it (a card on the white paper
    round the zone has no edge there), and one that lies over its border is completed
    to a card's size. ``light_reference``: where the light's change since ``empty_log`` is
    measured (:func:`difference`; default where it is trusted).
    """
    s = view.window.px_per_mm
    logc = log_colour(view.bgr) if logc is None else logc
    valid = view.valid
    grad = _gradient(logc, valid)
    sample = grad[valid][::5]
    noise = float(np.median(sample)) if sample.size else 0.0
    threshold = max(config.min_edge, config.edge_over_median * noise)
    edges = (grad >= threshold).astype(np.uint8)
    edges = np.asarray(cv2.dilate(edges, np.ones((3, 3), np.uint8)), np.uint8)
    regions = ((edges == 0) & valid).astype(np.uint8)
    n_labels, labels, stats, _ = cv2.connectedComponentsWithStats(regions, connectivity=4)
    cw, ch = _card_px(config, s)
    candidates: list[FloatArray] = []
    memo: Memo = {}
    inner = None  # the zone less its printed border line
    if zone is not None:
        inner = np.asarray(cv2.erode(zone.astype(np.uint8), _disc(2 * config.zone_border_mm * s)), np.uint8)
    # the zone's own region (and the paper's, the table's) is far larger than a card:
    # what is not in it is a card, its print included (a card is a hole in the zone)
    big = np.flatnonzero(stats[1:, cv2.CC_STAT_AREA] > 1.3 * cw * ch) + 1
    if big.size:
        is_big = np.zeros(n_labels, bool)
        is_big[big] = True
        ground = is_big[labels]
        holes = (~ground & valid).astype(np.uint8)
        # print touching a card (the zone's letters, its border line) comes away: thin
        # strokes first, then a whole word (a card is far wider than either)
        for width_mm in (config.thin_print_mm, config.word_mm):
            opened = _open_by_disc(holes, width_mm * s, outside_empty=False)
            candidates.extend(_fits_from_mask(opened, config, s, memo=memo))
            if inner is not None:
                candidates.extend(_fits_from_mask(opened & inner, config, s, zone, memo))
    areas = stats[:, cv2.CC_STAT_AREA]
    card_sized = np.flatnonzero((areas >= 0.35 * cw * ch) & (areas <= 1.3 * cw * ch))
    for k in card_sized[card_sized > 0]:  # label 0 is the edges
        x, y, w, h = (int(v) for v in stats[k, :4])
        blob = (labels[y:y + h, x:x + w] == k).astype(np.uint8)
        # a card's region reaches its rim less the edge's width: grow it back
        blob = np.asarray(cv2.dilate(np.pad(blob, 3), np.ones((3, 3), np.uint8), iterations=2), np.uint8)
        for corners in _fits_from_mask(blob, config, s, memo=memo):
            candidates.append(corners + [x - 3, y - 3])
    if empty_log is not None:
        trusted = valid if where is None else (valid & where)
        diff = difference(logc, empty_log, trusted, light_reference)
        fg = (diff >= config.min_difference).astype(np.uint8)
        fg = np.asarray(cv2.morphologyEx(fg, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8)), np.uint8)
        fg = np.asarray(cv2.morphologyEx(fg, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), np.uint8)
        # the zone's title a card lies against differs from the empty look along its
        # letters (a pixel's shift is enough), and closed up they make a block stuck to
        # the card: it comes away with a word's width, as from the outlines above
        for changed in (fg, _open_by_disc(fg, config.word_mm * s, outside_empty=True)):
            candidates.extend(_fits_from_mask(changed, config, s, memo=memo))
            if inner is not None:
                candidates.extend(_fits_from_mask(changed & inner, config, s, zone, memo))
    foreground = None if empty_log is None else (diff >= config.min_difference).astype(np.float32)
    near = np.asarray(cv2.dilate(grad, np.ones((3, 3), np.uint8)), np.float32)
    kept: list[tuple[float, float, FloatArray]] = []
    seen: list[FloatArray] = []
    for corners in candidates:
        key = np.concatenate([corners.mean(axis=0), np.sort(np.linalg.norm(corners - np.roll(corners, -1, 0), axis=1))])
        if any(np.abs(o - key).max() < 2.0 * s for o in seen):
            continue  # the same rectangle from another kind of evidence
        seen.append(key)
        refined = _refine(corners, grad, config.refine_mm * s)
        sides = np.linalg.norm(refined - np.roll(refined, -1, axis=0), axis=1)
        if not _is_card((sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2, config, s):
            refined = corners
        if foreground is not None:
            refined = _trim_to_card(refined, foreground, grad, config, s)
            if _mean_inside(refined, foreground) < config.min_changed:
                continue  # the empty zone as it was, cut off by the cards round it: no card
        support = _edge_support(refined, near, 0.5 * threshold)
        kept.append((support - config.size_weight * _size_error(refined, config, s), support, refined))
    # of overlapping rectangles the best outlined, and of two about as well outlined the
    # one nearer a card's size (a card and the strip of print between it and the zone's
    # border line: both outlines are whole, the strip makes one side too long)
    kept.sort(key=lambda item: -item[0])
    out: list[FloatArray] = []
    for _score, support, corners in kept:
        if support >= config.min_outline_support and all(quad_iou(corners.astype(np.float32), o.astype(np.float32)) < 0.3 for o in out):
            out.append(corners)
    return out


def _size_error(corners: FloatArray, config: ZoneCardConfig, px_per_mm: float) -> float:
    """Mean relative difference of a rectangle's sides from a card's (0: card-sized)."""
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    short, long_ = sorted(((sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2))
    cw, ch = _card_px(config, px_per_mm)
    return float((abs(short / cw - 1) + abs(long_ / ch - 1)) / 2)
