"""Find the cards lying on the table in a frame: their four corners, at full resolution.

Classical CV, one call per frame, the input never modified:

1. Scale down to ``detect_width_px`` wide if larger; Canny edges (thresholds from
   the frame's own contrast), dilated a little.
2. Candidates: every region between edges (any nesting level, since a card on the
   table is a hole in the table's region) and the outline of every lump of edges (a
   card back's pattern). A card is a convex four-sided outline (solidity, fill of its
   quad), of plausible size, with a side ratio a 30-90 degree view allows. Its
   corners come from lines fitted to the middle of its sides.
3. Touching cards: a straight line from rim to rim that cuts a region into equal
   parts is a seam between cards; a card of a touching group with no region of its
   own (a back, its margin pinched) is what remains of the group's outline once the
   cards found in it are taken away.
4. A candidate inside a larger one is dropped (a pip); of near duplicates the
   inner one is kept; a rectangle with card-white all round it is a court card's
   printed frame, not a card.
5. Each side is refined at full resolution: along its normal at 14 points, the
   outermost strong step with the rim's polarity; a robust line fit; corners where
   the lines meet.
6. A region that touches the frame edge is a card cut by the frame: flagged
   ``cut``, never read.

Two touching cards whose seam does not show are one region: dropped as not
card-shaped, or kept as one quad, which the classifier does not read with
confidence (see docs/vision.md) and the table homography rejects as not card-sized.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.geometry import clockwise, portrait_order, quad_iou, side_lengths
from vision.readings import CardDetections

__all__ = ["DetectConfig", "detect_cards"]

BgrImage = npt.NDArray[np.uint8]
FloatArray = npt.NDArray[np.float32]

# -- thresholds, each with its unit and reason -------------------------------------------
# Canny's high threshold is this percentile of the frame's Laplacian (grey levels): the
# strongest 3 % of local contrast are outlines and print, whatever the exposure ...
EDGE_PERCENTILE = 97
# ... kept within these grey levels: a flat, dim frame still gets real edges only (>= 12),
# a busy one still keeps a card's rim on a light table (<= 90)
EDGE_HIGH_RANGE = (12.0, 90.0)
EDGE_LOW_OVER_HIGH = 0.4  # Canny's hysteresis: a weak stretch of rim joins a strong one
# polygon fit tolerances (share of the hull's perimeter) tried in turn for four corners
QUAD_EPSILONS = (0.02, 0.03, 0.045, 0.06, 0.08)
# side lines are fitted to the middle of each side (share of its length): the rounded
# corners and the corner indices bend the outline near the ends
SIDE_MIDDLE = (0.2, 0.8)
SIDE_NEAR_SHARE = 0.04  # a point is on a side within this share of its length (>= 2 px)
FIT_MAX_MOVE = 0.15  # fitted corners may move this share of the diagonal, else keep the polygon's
MAX_FILL = 1.15  # a region larger than its quad by more than this is not a quad (pixels outside it)
MIN_SIDE_PX = 6  # a quad side shorter than this (work pixels) is noise
# refinement at full resolution: samples per side, the share of the strongest step a
# step must reach to count as the rim, the weakest step that counts (grey levels)
REFINE_SAMPLES = 14
REFINE_PEAK_SHARE = 0.5
REFINE_MIN_STEP = 3.0
REFINE_SIDE_SHARE = 0.3  # a sample's step against the side's strongest, to take part in the line fit
REFINE_MAX_MOVE = 2.5  # refined corners may move this many search radii, else the coarse quad stays
# a court card's printed frame: card white on both sides of it (within this share of the
# paper's white) on at least three of its sides, the outer side brighter than 60 % of white
FRAME_SAME_SHARE = 0.055
FRAME_WHITE_SHARE = 0.6
# touching cards: a seam crosses the region over this share of its width, with clear
# table a few pixels away (no more than half covered), away from the rim by 20 % of the
# short side; seams must cut the region into equal cards within this share
SEAM_MIN_COVER = 0.9
SEAM_CLEAR_PX = 6
SEAM_SIDE_COVER = 0.5
SEAM_RIM_SHARE = 0.2
SEAM_EVEN_TOLERANCE = 0.08
FRAME_BAND_SHARE = 0.08  # the band either side of a printed frame: this share of its short side (>= 5 px)
# a leftover card of a touching group is 0.6-1.5 times the group's typical card, and the
# groups looked into are 1.6-6 cards large
LEFTOVER_AREA = (0.6, 1.5)
GROUP_AREA = (1.6, 6.0)
SAME_OUTLINE_PX = 2  # two outlines whose centres are this close (work px) and areas within 5 % ...
SAME_OUTLINE_AREA = 0.05  # ... are one outline found twice (a region and the table's hole round it)
TWIN_IOU = 0.75  # a card's own region and the table's hole round it overlap this much
LEFTOVER_MAX_IOU = 0.2  # a leftover overlapping a kept card more than this is that card
REFINE_RADIUS_SHARE = 0.06  # the search for each side's rim reaches this share of the shortest card side


@dataclass(frozen=True, slots=True)
class DetectConfig:
    detect_width_px: int = 1920  # work width for finding candidates
    min_area_frac: float = 0.0012  # of the frame: a card smaller than this is unreadable
    max_area_frac: float = 0.5  # a zone crop around one card: the card fills ~40% of it
    max_side_ratio: float = 3.4  # long/short side in the image: 1.4 / sin(25 deg)
    min_fill: float = 0.88  # region area / its quad area (rounded corners lose ~2%)
    min_solidity: float = 0.92
    refine: bool = True
    border_px: int = 2  # a region this close to the frame edge is a cut card
    # Canny's high threshold (grey levels) when set; else from the frame's own contrast.
    # A card on a table of nearly its own brightness (a white cloth) has a rim of a few
    # grey levels, far under the strongest 3 % of the frame's contrast.
    edge_high: float | None = None


def _edges(gray: npt.NDArray[np.uint8], fixed_high: float | None = None) -> npt.NDArray[np.uint8]:
    blur = cv2.GaussianBlur(gray, (5, 5), 0)
    # thresholds from the frame's own contrast (a sparse sample is enough)
    lap = np.abs(cv2.Laplacian(blur[::4, ::4], cv2.CV_16S, ksize=3))
    high = float(np.clip(np.percentile(lap, EDGE_PERCENTILE), *EDGE_HIGH_RANGE)) if fixed_high is None \
        else fixed_high
    edges = cv2.Canny(blur, EDGE_LOW_OVER_HIGH * high, high)
    return np.asarray(cv2.dilate(edges, np.ones((3, 3), np.uint8)), dtype=np.uint8)


def _quad_of(contour: npt.NDArray[np.int32]) -> FloatArray | None:
    hull = cv2.convexHull(contour)
    peri = cv2.arcLength(hull, True)
    for eps in QUAD_EPSILONS:
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            return _fit_sides(contour.reshape(-1, 2).astype(np.float32),
                              clockwise(approx.reshape(4, 2).astype(np.float32)))
        if len(approx) < 4:
            return None
    return None


def _fit_sides(points: FloatArray, quad: FloatArray) -> FloatArray:
    """Corners where lines fitted to the middle of each side meet.

    The vertices of a polygon fitted to a rounded, notched outline sit a few pixels
    off the card's corners; the straight middle stretches of the sides do not.
    """
    if len(points) < 16:
        return quad
    dense = points  # every pixel of the outline (CHAIN_APPROX_NONE)
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        d = b - a
        length = float(np.linalg.norm(d))
        if length < 4:
            return quad
        d = d / length
        rel = dense - a
        t = rel @ d
        dist = np.abs(rel[:, 0] * d[1] - rel[:, 1] * d[0])
        near = (t > SIDE_MIDDLE[0] * length) & (t < SIDE_MIDDLE[1] * length) & (dist < max(2.0, SIDE_NEAR_SHARE * length))
        if near.sum() < 4:
            lines.append((a, d))
            continue
        vx, vy, x0, y0 = cv2.fitLine(dense[near], cv2.DIST_HUBER, 0, 0.01, 0.01).reshape(4)
        lines.append((np.array([x0, y0], np.float32), np.array([vx, vy], np.float32)))
    fitted = _intersect_all(lines, quad)
    size = float(np.linalg.norm(quad[0] - quad[2]))
    return fitted if np.max(np.linalg.norm(fitted - quad, axis=1)) < FIT_MAX_MOVE * size else quad


def _grow(quad: FloatArray, by_px: float) -> FloatArray:
    """Move every side outward by ``by_px`` (undo the edge dilation)."""
    q = clockwise(quad)
    lines = []
    for i in range(4):
        p, r = q[i], q[(i + 1) % 4]
        d = (r - p) / max(float(np.linalg.norm(r - p)), 1e-6)
        n = np.array([d[1], -d[0]], np.float32)  # outward for a clockwise quad (y down)
        lines.append((p + n * by_px, d))
    return _intersect_all(lines, q)


def _intersect_all(lines: list[tuple[FloatArray, FloatArray]], fallback: FloatArray) -> FloatArray:
    out = fallback.copy()
    for i in range(4):
        (p1, d1), (p2, d2) = lines[(i - 1) % 4], lines[i]
        # p1 + t d1 = p2 + u d2, by Cramer's rule
        det = float(d2[0] * d1[1] - d1[0] * d2[1])
        if abs(det) < 1e-6:
            continue
        dx, dy = float(p2[0] - p1[0]), float(p2[1] - p1[1])
        t = (d2[0] * dy - d2[1] * dx) / det
        out[i] = (p1 + t * d1).astype(np.float32)
    return out


def _refine(gray: npt.NDArray[np.uint8], quads: FloatArray, radius_px: float) -> FloatArray:
    """Snap each side to the strongest edge along its normal, at full resolution."""
    if len(quads) == 0:
        return quads
    n_samples, n_steps = REFINE_SAMPLES, int(2 * radius_px) + 1
    ts = np.linspace(0.15, 0.85, n_samples, dtype=np.float32)
    offsets = np.linspace(-radius_px, radius_px, n_steps, dtype=np.float32)
    p = quads
    r = np.roll(quads, -1, axis=1)
    d = r - p
    length = np.linalg.norm(d, axis=2, keepdims=True)
    d = d / np.maximum(length, 1e-6)
    nrm = np.stack([d[..., 1], -d[..., 0]], axis=-1)
    base = p[:, :, None, :] + ts[None, None, :, None] * (r - p)[:, :, None, :]  # (n,4,S,2)
    pts = base[..., None, :] + offsets[None, None, None, :, None] * nrm[:, :, None, None, :]
    mx = pts[..., 0].reshape(1, -1).astype(np.float32)
    my = pts[..., 1].reshape(1, -1).astype(np.float32)
    prof = cv2.remap(gray.astype(np.float32), mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    prof = prof.reshape(pts.shape[:-1])  # (n,4,S,steps)
    drop = -np.diff(prof, axis=-1)  # > 0 where it gets darker going outward
    # the rim has the polarity of the strongest step (a white card on a darker table:
    # darker outward); of the steps with that polarity, the outermost strong one is the
    # rim: not the print just inside it, nor the far side of the card's own shadow
    strongest = np.take_along_axis(drop, np.abs(drop).argmax(axis=-1)[..., None], axis=-1)
    grad = drop * np.sign(strongest)
    peak = grad.max(axis=-1, keepdims=True)
    strong = grad >= REFINE_PEAK_SHARE * peak
    best = (grad.shape[-1] - 1) - np.argmax(strong[..., ::-1], axis=-1)
    strength = np.take_along_axis(grad, best[..., None], axis=-1)[..., 0]
    shift = (offsets[best] + offsets[best + 1]) / 2
    edge_pts = base + shift[..., None] * nrm[:, :, None, :]
    out = quads.copy()
    for i in range(len(quads)):
        lines = []
        for s in range(4):
            good = strength[i, s] >= max(REFINE_MIN_STEP, REFINE_SIDE_SHARE * float(strength[i, s].max()))
            pts_s = edge_pts[i, s][good]
            if len(pts_s) < 4:
                lines.append((p[i, s] + 0 * nrm[i, s], d[i, s]))
                continue
            vx, vy, x0, y0 = cv2.fitLine(pts_s.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).reshape(4)
            lines.append((np.array([x0, y0], np.float32), np.array([vx, vy], np.float32)))
        refined = _intersect_all(lines, quads[i])
        if np.max(np.linalg.norm(refined - quads[i], axis=1)) <= REFINE_MAX_MOVE * radius_px:
            out[i] = refined
    return out


def _longest_run(column: npt.NDArray[np.bool_], max_gap: int) -> int:
    """Longest stretch of hits, bridging gaps of up to ``max_gap`` misses."""
    idx = np.flatnonzero(column)
    if idx.size == 0:
        return 0
    breaks = np.flatnonzero(np.diff(idx) > max_gap + 1)
    starts = np.concatenate([[idx[0]], idx[breaks + 1]])
    ends = np.concatenate([idx[breaks], [idx[-1]]])
    return int((ends - starts + 1).max())


def _side_means(gray: npt.NDArray[np.uint8], quad: FloatArray, offset_px: float) -> FloatArray:
    """Mean grey level along each side of ``quad``, moved ``offset_px`` outward (< 0: inward)."""
    p = quad
    r = quad[[1, 2, 3, 0]]
    d = (r - p) / np.maximum(np.linalg.norm(r - p, axis=1, keepdims=True), 1e-6)
    nrm = np.stack([d[:, 1], -d[:, 0]], axis=1)
    ts = np.linspace(0.2, 0.8, 12, dtype=np.float32)[None, :, None]
    pts = p[:, None, :] + ts * (r - p)[:, None, :] + offset_px * nrm[:, None, :]
    vals = cv2.remap(gray, pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32),
                     cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.median(vals.astype(np.float32), axis=1)


def _inside_a_card(gray: npt.NDArray[np.uint8], quad: FloatArray) -> bool:
    """A rectangle printed on a card (a court card's frame): card white all round it."""
    band = max(5.0, FRAME_BAND_SHARE * float(side_lengths(quad).min()))
    outside = _side_means(gray, quad, band)
    inside = _side_means(gray, quad, -band)
    paper_white = float(np.percentile(gray[::8, ::8], 99))
    same = np.abs(outside - inside) < FRAME_SAME_SHARE * paper_white
    return bool(np.sum(same & (outside > FRAME_WHITE_SHARE * paper_white)) >= 3)


def _evenly_spaced(seams: Sequence[float], tolerance: float = SEAM_EVEN_TOLERANCE) -> list[float]:
    """The seams that cut a region into n equal cards (n = 4, 3 or 2), if some do."""
    for n in (4, 3, 2):
        picked = []
        for j in range(1, n):
            near = [t for t in seams if abs(t - j / n) <= tolerance]
            if not near:
                break
            picked.append(min(near, key=lambda t: abs(t - j / n)))
        else:
            return picked
    return []


def _split_at_seams(edges: npt.NDArray[np.uint8], quad: FloatArray, min_cover: float = SEAM_MIN_COVER
                    ) -> list[FloatArray]:
    """Cut a region where a straight edge crosses it from side to side (touching cards).

    The region is warped flat; an edge line parallel to a pair of sides that covers
    ``min_cover`` of the way across, away from the rim, is a seam between two cards.
    A court card's frame (about 65% of the width) or a row of pips is not.
    """
    q = clockwise(quad)
    sides = side_lengths(q)
    along = max(8, round(float(sides[0] + sides[2]) / 2))
    across = max(8, round(float(sides[1] + sides[3]) / 2))
    dst = np.array([[0, 0], [along, 0], [along, across], [0, across]], np.float32)
    flat = cv2.warpPerspective(edges, cv2.getPerspectiveTransform(q, dst), (along + 1, across + 1),
                               flags=cv2.INTER_NEAREST)
    pieces = [q]
    for axis in (0, 1):  # 0: seams across sides 0-1/2-3; 1: seams across sides 1-2/3-0
        length = along if axis == 0 else across
        width = across if axis == 0 else along
        inner = flat[3:-3, :] if axis == 0 else flat[:, 3:-3]
        hit = inner > 0 if axis == 0 else (inner > 0).T  # (width, length)
        hit = hit | np.roll(hit, 1, axis=1) | np.roll(hit, -1, axis=1)
        cover = hit.mean(axis=0)
        # a seam is a thin line: the rows a few pixels away on one side at least are mostly clear
        side = np.minimum(np.roll(cover, SEAM_CLEAR_PX), np.roll(cover, -SEAM_CLEAR_PX))
        rim = int(SEAM_RIM_SHARE * min(width, length))
        lo, hi = rim, length - rim
        maybe = (cover >= min_cover) & (side <= SEAM_SIDE_COVER)
        maybe[:lo] = False
        maybe[hi:] = False
        cover[~maybe] = 0.0
        for pos in np.flatnonzero(maybe):
            cover[pos] = _longest_run(hit[:, pos], max_gap=2) / hit.shape[0]
        seams: list[float] = []
        k = lo
        while k < hi:
            if cover[k] >= min_cover:
                run = k
                while run + 1 < hi and cover[run + 1] >= min_cover:
                    run += 1
                seams.append((k + run) / 2 / length)
                k = run + 3
            else:
                k += 1
        chosen = _evenly_spaced(seams)
        if not chosen:
            continue  # cards are all one size: uneven lines are print, not seams
        cuts = [0.0, *chosen, 1.0]
        new: list[FloatArray] = []
        for piece in pieces:
            a0, a1, a2, a3 = piece if axis == 0 else piece[[1, 2, 3, 0]]
            for t0, t1 in itertools.pairwise(cuts):
                top0, top1 = a0 + t0 * (a1 - a0), a0 + t1 * (a1 - a0)
                bot0, bot1 = a3 + t0 * (a2 - a3), a3 + t1 * (a2 - a3)
                new.append(clockwise(np.array([top0, top1, bot1, bot0], np.float32)))
        pieces = new
    return pieces


def _candidates(contour: npt.NDArray[np.int32], edges: npt.NDArray[np.uint8], config: DetectConfig,
                size_wh: tuple[int, int], area_range: tuple[float, float] | None = None
                ) -> list[tuple[float, FloatArray, bool]]:
    """The card quads an outline stands for: none, one, or a row of touching cards."""
    sw, sh = size_wh
    frame_area = float(sw * sh)
    area = cv2.contourArea(contour)
    low, high = area_range or (config.min_area_frac * frame_area, config.max_area_frac * frame_area)
    if area < low or area > high:
        return []
    hull_area = cv2.contourArea(cv2.convexHull(contour))
    if hull_area <= 0 or area / hull_area < config.min_solidity:
        return []
    quad = _quad_of(np.asarray(contour, dtype=np.int32))
    if quad is None:
        return []
    quad_area = abs(cv2.contourArea(quad))
    if quad_area <= 0 or area / quad_area < config.min_fill or area / quad_area > MAX_FILL:
        return []
    sides = side_lengths(quad)
    if sides.min() < MIN_SIDE_PX or sides.max() / sides.min() > 2 * config.max_side_ratio:
        return []
    xs, ys = contour[:, 0, 0], contour[:, 0, 1]
    b = config.border_px + 1
    cut = bool(xs.min() <= b or ys.min() <= b or xs.max() >= sw - 1 - b or ys.max() >= sh - 1 - b)
    out = []
    for piece in _split_at_seams(edges, quad):
        piece_area = abs(cv2.contourArea(piece))
        if piece_area >= config.min_area_frac * frame_area:
            out.append((area * piece_area / quad_area, _grow(piece, 1.0), cut))
    return out


def _leftovers(outlines: Sequence[npt.NDArray[np.int32]], kept: list[tuple[float, FloatArray, bool]],
               edges: npt.NDArray[np.uint8], config: DetectConfig) -> list[tuple[float, FloatArray, bool]]:
    """Cards of a touching group that are left once the cards found in it are taken away.

    A face-down card between two face cards has no region of its own (its margin is
    pinched) and is no quad together with them; what remains of the group's outline
    without the found cards is that card.
    """
    whole = [k[0] for k in kept if not k[2]]
    if not whole:
        return []
    typical = float(np.median(whole))
    groups = [o for o in outlines if GROUP_AREA[0] * typical <= cv2.contourArea(o) <= GROUP_AREA[1] * typical]
    out: list[tuple[float, FloatArray, bool]] = []
    size = (edges.shape[1], edges.shape[0])
    for group in groups:
        x, y, w, h = cv2.boundingRect(group)
        mask = np.zeros((h, w), np.uint8)
        cv2.drawContours(mask, [group - np.array([x, y], np.int32)], -1, 255, cv2.FILLED)
        for _, quad, _ in kept:
            cv2.fillPoly(mask, [np.round(_grow(quad, 2.0) - [x, y]).astype(np.int32)], 0)
        mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8)), np.uint8)
        rest, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE, offset=(x, y))
        for contour in rest:
            out += _candidates(np.asarray(contour, np.int32), edges, config, size,
                               (LEFTOVER_AREA[0] * typical, LEFTOVER_AREA[1] * typical))
    return out


def detect_cards(frame_bgr: BgrImage, config: DetectConfig = DetectConfig()) -> CardDetections:
    """Cards in the frame: ``quad_xy`` in full-resolution pixels, ``cut`` set, labels None."""
    h, w = frame_bgr.shape[:2]
    scale = min(1.0, config.detect_width_px / w)
    small = cv2.resize(frame_bgr, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_LINEAR) \
        if scale < 1 else frame_bgr
    sh, sw = small.shape[:2]
    gray_small = np.asarray(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
    edges = _edges(gray_small, config.edge_high)
    regions = cv2.bitwise_not(edges)
    regions[:1, :], regions[-1:, :], regions[:, :1], regions[:, -1:] = 0, 0, 0, 0
    contours, _ = cv2.findContours(regions, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    # also the outline of each connected lump of edges: a card whose print reaches
    # close to its rim (a back) is one such lump, where its own region is pinched
    outlines, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    contours = [*contours, *outlines]
    cands: list[tuple[float, FloatArray, bool]] = []
    seen: list[tuple[float, float, float]] = []
    min_area = config.min_area_frac * sw * sh
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < min_area:
            continue
        moments = cv2.moments(contour)
        key = (moments["m10"] / max(moments["m00"], 1e-6), moments["m01"] / max(moments["m00"], 1e-6), area)
        if any(abs(key[0] - k[0]) < SAME_OUTLINE_PX and abs(key[1] - k[1]) < SAME_OUTLINE_PX
               and abs(key[2] - k[2]) < SAME_OUTLINE_AREA * area
               for k in seen):
            continue  # the same outline twice (a card's region and its hole in the table)
        seen.append(key)
        cands += _candidates(np.asarray(contour, np.int32), edges, config, (sw, sh))
    cands.sort(key=lambda c: -c[0])
    kept: list[tuple[float, FloatArray, bool]] = []
    for area, quad, cut in cands:
        center = quad.mean(axis=0)
        twin = next((i for i, k in enumerate(kept) if quad_iou(quad, k[1]) > TWIN_IOU), None)
        if twin is not None:  # the card's own region inside the table's hole around it
            kept[twin] = (area, quad, cut or kept[twin][2])
            continue
        inside = any(cv2.pointPolygonTest(k[1].reshape(-1, 1, 2), (float(center[0]), float(center[1])),
                                          False) >= 0 for k in kept)
        if not inside:
            kept.append((area, quad, cut))
    kept = [k for k in kept if side_ratio(k[1]) <= config.max_side_ratio
            and not _inside_a_card(gray_small, k[1])]
    for extra in _leftovers([np.asarray(o, np.int32) for o in outlines], kept, edges, config):
        if (side_ratio(extra[1]) <= config.max_side_ratio and not _inside_a_card(gray_small, extra[1])
                and all(quad_iou(extra[1], k[1]) < LEFTOVER_MAX_IOU for k in kept)):
            kept.append(extra)
    if not kept:
        return CardDetections.empty()
    quads = np.stack([k[1] for k in kept]).astype(np.float32) / np.float32(scale)
    if config.refine:
        gray = np.asarray(cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY), dtype=np.uint8) if scale < 1 else gray_small
        short_px = float(np.min([side_lengths(q).min() for q in quads]))
        quads = _refine(gray, quads, radius_px=max(3.0, 2.5 / scale, REFINE_RADIUS_SHARE * short_px))
    quads = np.stack([portrait_order(q) for q in quads])
    cut_flags = np.array([k[2] for k in kept], bool)
    outside = np.any((quads < -1) | (quads > np.array([w, h], np.float32)), axis=(1, 2))
    return CardDetections(quad_xy=quads, cut=cut_flags | outside)


def side_ratio(quad: FloatArray) -> float:
    """Long over short side of a quad, averaging opposite sides."""
    s = side_lengths(quad)
    a, b = (s[0] + s[2]) / 2, (s[1] + s[3]) / 2
    return float(max(a, b) / max(min(a, b), 1e-6))
