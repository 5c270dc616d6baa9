"""A still shadow's straight edge across a zone, found at first sight and taken out.

Until a zone has been seen empty, its empty look is a smooth light field fitted to the
print (:func:`vision.zone_light.smooth_field`). A still shadow across the zone (the camera's
stand under a ceiling lamp, a player leaning over) is no smooth field: its edge is a step
of light along a line, so the fit missed it on one side or the other, the edge itself cut
a card lying across it in two for the log-colour edges, and cards under it or near it
were missed (only 8 of 13 real cards found at first sight under such a shadow).

The edge is looked for as what a shadow is and a card is not:

- a **step of brightness along a straight line that crosses the whole zone**: measured
  segment by segment along the line, it shows in most of them with the same sign and
  about the same depth (a card's side is at most 89 mm long and lies in one or two);
- **neutral**: the print is darker (or lighter) by the same ratio in each colour (a white
  card on the green zone changes the colours' ratios by >= 0.06);
- measured on the **print's own colour** (pixels of another colour, a card, the title's
  letters, are left out where the print has a colour).

When it is found, :func:`shadow_step` gives, per pixel of the view, the step's log
brightness (0 on the side with more light, the step's profile across the penumbra, the
full depth beyond it): taken away from every colour it lights the shadow as the rest of
the zone, cards under it included, so the print's fit, the log-colour edges and the
difference all see the zone as if there were no shadow. Nothing is changed when no such
edge is found.

>>> h, w = 300, 600
>>> ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
>>> logc = np.dstack([np.full((h, w), v, np.float32) for v in (5.2, 5.3, 5.1)])
>>> dark = 0.5 + 0.5 * np.tanh((xs - 0.6 * ys - 250.0) / 8.0)   # a soft edge, 0 lit .. 1 dark
>>> shaded = np.asarray(logc - 0.6 * dark[..., None], np.float32)
>>> step = shadow_step(shaded, np.ones((h, w), bool), 2.0)
>>> float(np.abs(shaded - step[..., None] - logc).max()) < 0.05
True
>>> shadow_step(logc, np.ones((h, w), bool), 2.0) is None
True
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = ["ShadowEdgeConfig", "shadow_step"]

FloatImage = npt.NDArray[np.float32]
FloatArray = npt.NDArray[np.float64]
Mask = npt.NDArray[np.bool_]


@dataclass(frozen=True, slots=True)
class ShadowEdgeConfig:
    # the step's depth (log units): a shadow that takes away less than ~12 % of the light
    # stays within the print's fit (0.08 unexplained) and is left to it
    min_depth: float = 0.12
    # the step changes the colours' ratios by less than this (log units; a white card on
    # the printed zone changes them by >= 0.06)
    chroma: float = 0.04
    # pixels of the print's colour: their colours' ratios within this of the zone's median
    print_chroma: float = 0.05
    # the line is measured in this many segments along it; this share of those with
    # enough print must show the step, with the same sign and at least half its depth
    segments: int = 8
    min_agree: float = 0.75
    # the segments that show it span at least this length of the line (mm): a card's
    # side is 89 mm long at most
    min_span_mm: float = 60.0
    # the light on each side is measured this far (mm) from the line, beyond the penumbra
    side_mm: tuple[float, float] = (12.0, 30.0)
    # the step's profile across the line is measured out to this (mm) each side, in bins
    # of this (mm)
    profile_mm: float = 30.0
    bin_mm: float = 0.5
    # the step taken away, a smooth light field explains (within ``smooth_within``, the
    # print fit's bar for a thing) at least this share more of the print than before
    min_gain: float = 0.08
    # the step taken away, the print either side of the line is lit alike within this (a
    # lamp's gradient across the zone stays within it, a wrong depth does not)
    sides_agree: float = 0.1
    # the lit side's print away from the cards found is judged when it has this much
    # (mm^2: a strip 4 x 100 mm)
    min_bare_px: float = 400.0
    smooth_within: float = 0.08


def shadow_step(logc: FloatImage, where: Mask, px_per_mm: float,
                config: ShadowEdgeConfig = ShadowEdgeConfig(), cards: Mask | None = None) -> FloatImage | None:
    """Per pixel, the log brightness a still shadow's straight edge takes away (0 where
    the light is full), measured on the zone's print in ``where``; None when the zone has
    no such edge.

    ``cards``: cards found already (without the shadow taken out). The print on the
    lit side, away from them, must be lit: a card's side is a straight neutral step too
    when the card has the print's colour (the black-and-white kit, a cold light), but
    beyond the card the print is as dark as on the other side."""
    sample = _print_sample(logc, where, config, step=4)
    if sample is None:
        return None
    xs, ys, grey, _ = sample
    lo, hi = np.percentile(grey, [5, 95])
    if hi - lo < config.min_depth:
        return None  # the print's light spans less than a shadow's step: none here
    # a smooth field that explains nearly all the print leaves no gain to take an edge out
    # for (the test below, made first: a lamp's gradient costs no search)
    before = _smooth_share(xs, ys, grey, where.shape, config)
    if before > 1.0 - config.min_gain:
        return None
    found = _coarse_line(xs, ys, grey, px_per_mm, config)
    if found is None:
        return None
    normal, offset = _refined_line(xs, ys, grey, found, px_per_mm, config)
    if normal is None:
        return None
    # the profile across the line at full resolution (every other pixel)
    dense = _print_sample(logc, where, config, step=2)
    if dense is None:
        return None
    dx, dy, dgrey, dvals = dense
    t = dx * normal[0] + dy * normal[1] - offset
    inner, outer = (v * px_per_mm for v in config.side_mm)
    left, right = (t <= -inner) & (t > -outer), (t >= inner) & (t < outer)
    if np.count_nonzero(left) < 50 or np.count_nonzero(right) < 50:
        return None
    per_colour = np.median(dvals[right], axis=0) - np.median(dvals[left], axis=0)
    if np.max(np.abs(per_colour - per_colour.mean())) >= config.chroma:
        return None  # the colours' ratios change: no shadow
    dark_level = float(np.median(dgrey[left if per_colour.mean() > 0 else right]))
    lit_mean = float(np.median(dgrey[right if per_colour.mean() > 0 else left]))
    if cards is not None:
        lit_side = (t >= inner) if per_colour.mean() > 0 else (t <= -inner)
        bare = lit_side & ~cards[dy.astype(np.int64), dx.astype(np.int64)]
        if np.count_nonzero(bare) >= config.min_bare_px * px_per_mm ** 2 / 4:
            bare_level = float(np.median(dgrey[bare]))
            if bare_level - dark_level < 0.5 * (lit_mean - dark_level):
                return None  # the print beyond the cards is not lit: a card's side
    reach = config.profile_mm * px_per_mm
    bin_px = config.bin_mm * px_per_mm
    near = np.abs(t) < reach
    if np.count_nonzero(near) < 200:
        return None
    edges_n = int(np.ceil(2 * reach / bin_px))
    bins = np.clip(((t[near] + reach) / bin_px).astype(np.int64), 0, edges_n - 1)
    # the profile segment by segment along the line, then the median of the segments: a
    # card over the line (in shadow a white card passes for the print) shifts a few only
    u = (dx * -normal[1] + dy * normal[0])[near]
    parts = np.clip(((u - u.min()) / max(float(np.ptp(u)), 1e-6) * config.segments).astype(np.int64),
                    0, config.segments - 1)
    per_part = _binned_median(parts * edges_n + bins, dgrey[near], config.segments * edges_n, least=3)
    with warnings.catch_warnings():  # a bin no segment has is NaN, and stays so
        warnings.simplefilter("ignore", RuntimeWarning)
        profile = np.nanmedian(per_part.reshape(config.segments, edges_n), axis=0)
    known = ~np.isnan(profile)
    if np.count_nonzero(known) < edges_n // 3:
        return None
    centres = -reach + (np.arange(edges_n) + 0.5) * bin_px
    # a shadow's edge goes one way only, from the light on one side to the shade on the
    # other: the profile made monotone (a bin of few pixels, a card's rim, noise away),
    # each bin weighted by its segments
    counts = np.sum(~np.isnan(per_part.reshape(config.segments, edges_n)), axis=0)[known].astype(np.float64)
    rising = float(np.median(dgrey[right])) > float(np.median(dgrey[left]))
    level = _monotone(profile[known], counts, rising)
    profile = np.interp(centres, centres[known], level)
    lit_level = profile[-1] if rising else profile[0]
    profile = profile - lit_level  # 0 in full light, the full depth (< 0) in the shade
    # taken away, the print on the two sides of the line (away from the cards found) is
    # lit alike: a profile measured on a few segments only (cards and the title over the
    # rest) can be a wrong depth
    on_print = np.ones(dx.size, bool) if cards is None else ~cards[dy.astype(np.int64), dx.astype(np.int64)]
    evened = dgrey - np.interp(t, centres, profile)
    sides = [(t <= -inner) & on_print, (t >= inner) & on_print]
    if min(np.count_nonzero(side) for side in sides) >= 50 and abs(
            float(np.median(evened[sides[0]])) - float(np.median(evened[sides[1]]))) >= config.sides_agree:
        return None
    # taken away, the step must leave the print a smooth light field far more than before:
    # a card's side taken for a shadow's edge lifts the bare print on one side of it off
    # the rest
    taken = np.interp(xs * normal[0] + ys * normal[1] - offset, centres, profile)
    if _smooth_share(xs, ys, grey - taken, where.shape, config) < before + config.min_gain:
        return None
    h, w = where.shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    tt = xx * np.float32(normal[0]) + yy * np.float32(normal[1]) - np.float32(offset)
    out = np.interp(tt.ravel(), centres, profile).reshape(h, w)
    return np.asarray(out, np.float32)


def _smooth_share(xs: FloatArray, ys: FloatArray, grey: FloatArray, shape: tuple[int, ...],
                  config: ShadowEdgeConfig) -> float:
    """The share of the print's pixels that a smooth light field (a quadratic, fitted
    three times to those that fit best, as the print's fit) explains within
    ``config.smooth_within``."""
    h, w = shape[:2]
    sx, sy = xs / w - 0.5, ys / h - 0.5
    design = np.column_stack([np.ones_like(sx), sx, sy, sx * sx, sy * sy, sx * sy])
    keep = np.ones(len(xs), bool)
    resid = np.zeros(len(xs))
    for _ in range(3):
        a = design[keep]
        coef = np.linalg.solve(a.T @ a + 1e-9 * np.eye(6), a.T @ grey[keep])
        resid = np.abs(grey - design @ coef)
        keep = resid <= np.percentile(resid, 45)
    return float(np.mean(resid < config.smooth_within))


def _print_sample(logc: FloatImage, where: Mask, config: ShadowEdgeConfig,
                  step: int) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray] | None:
    """Every ``step``-th pixel of ``where`` that has the print's colours' ratios: x, y and
    mean log brightness. Where the print has no colour of its own (the black-and-white
    kit, a white card on it) all are kept and the medians below leave a card out."""
    ys, xs = np.nonzero(where[::step, ::step])
    if xs.size < 200:
        return None
    ys, xs = ys * step, xs * step
    vals = logc[ys, xs].astype(np.float64)
    grey = vals.mean(axis=1)
    chroma = vals - grey[:, None]
    ref = np.median(chroma, axis=0)
    ok = np.max(np.abs(chroma - ref), axis=1) < config.print_chroma
    if np.count_nonzero(ok) >= 0.3 * xs.size:
        xs, ys, grey, vals = xs[ok], ys[ok], grey[ok], vals[ok]
    return xs.astype(np.float64), ys.astype(np.float64), grey, vals


def _monotone(values: FloatArray, weights: FloatArray, rising: bool) -> FloatArray:
    """The weighted least-squares fit to ``values`` that never falls (``rising``) or never
    rises: pool adjacent violators."""
    v = values if rising else -values
    blocks: list[list[float]] = []  # [mean, weight, length]
    for x, wgt in zip(v.tolist(), weights.tolist(), strict=True):
        blocks.append([x, max(wgt, 1e-9), 1.0])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            (m1, w1, n1), (m2, w2, n2) = blocks[-2], blocks[-1]
            blocks[-2:] = [[(m1 * w1 + m2 * w2) / (w1 + w2), w1 + w2, n1 + n2]]
    out = np.concatenate([np.full(int(n), m) for m, _, n in blocks])
    return out if rising else -out


def _binned_median(bins: npt.NDArray[np.int64], values: FloatArray, n: int, least: int) -> FloatArray:
    """The median of ``values`` per bin (NaN where a bin has fewer than ``least``)."""
    order = np.lexsort((values, bins))
    b, v = bins[order], values[order]
    counts = np.bincount(b, minlength=n)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    lo = starts + np.maximum(counts - 1, 0) // 2
    hi = starts + counts // 2
    last = max(v.size - 1, 0)
    med = (v[np.minimum(lo, last)] + v[np.minimum(hi, last)]) / 2.0
    return np.where(counts >= least, med, np.nan)


def _coarse_line(xs: FloatArray, ys: FloatArray, grey: FloatArray, px_per_mm: float,
                 config: ShadowEdgeConfig) -> tuple[float, float] | None:
    """The direction (radians of the line's normal) and offset of the strongest straight
    step of brightness: binned means of the print across each direction, the step between
    the light on either side, the side bands ``side_mm`` away."""
    bin_px = 2.0 * px_per_mm
    inner, outer = (int(round(v / 2.0)) for v in config.side_mm)
    best: tuple[float, float, float] | None = None
    for deg in np.arange(0.0, 180.0, 3.0):
        th = np.radians(deg)
        t = xs * np.cos(th) + ys * np.sin(th)
        t0 = float(t.min())
        b = ((t - t0) / bin_px).astype(np.int64)
        n = int(b.max()) + 1
        if n < 2 * outer + 2:
            continue
        cnt = np.concatenate([[0.0], np.cumsum(np.bincount(b, minlength=n))])
        tot = np.concatenate([[0.0], np.cumsum(np.bincount(b, weights=grey, minlength=n))])
        i = np.arange(outer, n - outer)
        lc, lt = cnt[i - inner] - cnt[i - outer], tot[i - inner] - tot[i - outer]
        rc, rt = cnt[i + outer] - cnt[i + inner], tot[i + outer] - tot[i + inner]
        ok = (lc >= 20) & (rc >= 20)
        if not np.any(ok):
            continue
        score = np.where(ok, np.abs(rt / np.maximum(rc, 1) - lt / np.maximum(lc, 1)), 0.0)
        k = int(np.argmax(score))
        if best is None or score[k] > best[0]:
            best = (float(score[k]), th, t0 + (i[k] + 0.5) * bin_px)
    if best is None or best[0] < config.min_depth:
        return None
    return best[1], best[2]


def _refined_line(xs: FloatArray, ys: FloatArray, grey: FloatArray, coarse: tuple[float, float],
                  px_per_mm: float, config: ShadowEdgeConfig) -> tuple[FloatArray | None, float]:
    """The line through the middle of the step, segment by segment along the coarse line
    (a least-squares line through the segments' mid-points), checked to be one shadow's
    edge: most segments show a step of the same sign and about the same depth, spanning
    more than a card's side. (None, 0) when it is not."""
    th, offset = coarse
    normal = np.array([np.cos(th), np.sin(th)])
    along_axis = np.array([-np.sin(th), np.cos(th)])
    t = xs * normal[0] + ys * normal[1] - offset
    u = xs * along_axis[0] + ys * along_axis[1]
    inner, outer = (v * px_per_mm for v in config.side_mm)
    band = np.abs(t) < outer
    if np.count_nonzero(band) < 100:
        return None, 0.0
    on_line = np.abs(t) < inner  # the segments span the line's length in the zone
    if np.count_nonzero(on_line) < 20:
        return None, 0.0
    u0, u1 = float(u[on_line].min()), float(u[on_line].max())
    seg_len = (u1 - u0) / config.segments
    steps, mids, where_u, seg_of = [], [], [], []
    for k in range(config.segments):
        in_seg = band & (u >= u0 + k * seg_len) & (u < u0 + (k + 1) * seg_len + 1e-9)
        left = in_seg & (t <= -inner)
        right = in_seg & (t >= inner)
        if np.count_nonzero(left) < 5 or np.count_nonzero(right) < 5:
            continue  # a card over the line there, or the zone's end
        lo, hi = float(np.median(grey[left])), float(np.median(grey[right]))
        steps.append(hi - lo)
        seg_of.append(k)
        # where the segment's profile crosses half way between the two levels
        mid = in_seg & (np.abs(t) < inner)
        if np.count_nonzero(mid) >= 8:
            tm, gm = t[mid], grey[mid]
            order = np.argsort(tm)
            tm, gm = tm[order], gm[order]
            # the crossing: the t that best parts the middle band into a low and a high side
            half = (lo + hi) / 2.0
            above = (gm > half) if hi > lo else (gm < half)
            cost = np.concatenate([[0], np.cumsum(above)]) + np.concatenate([np.cumsum((~above)[::-1])[::-1], [0]])
            j = int(np.argmin(cost))
            crossing = tm[min(j, len(tm) - 1)] if j < len(tm) else tm[-1]
            mids.append(float(crossing))
            where_u.append(u0 + (k + 0.5) * seg_len)
        else:
            mids.append(np.nan)
            where_u.append(u0 + (k + 0.5) * seg_len)
    if len(steps) < 2:
        return None, 0.0
    depth = float(np.median(steps))
    if abs(depth) < config.min_depth:
        return None, 0.0
    agree = np.array([np.sign(s) == np.sign(depth) and abs(s) >= 0.5 * abs(depth) for s in steps])
    shown = np.asarray(seg_of)[agree]
    if agree.mean() < config.min_agree or shown.size < 2 \
            or (shown.max() - shown.min() + 1) * seg_len < config.min_span_mm * px_per_mm:
        return None, 0.0  # not along the whole line: a card's side, print
    mids_a, us = np.asarray(mids), np.asarray(where_u)
    good = agree & ~np.isnan(mids_a)
    if np.count_nonzero(good) >= 3:
        # the line through the crossings: t = a + b u (a tilt of the coarse line)
        a_mat = np.column_stack([np.ones(np.count_nonzero(good)), us[good]])
        (a, b), *_ = np.linalg.lstsq(a_mat, mids_a[good], rcond=None)
        resid = np.abs(mids_a[good] - (a + b * us[good]))
        if np.max(resid) > 4 * px_per_mm and np.count_nonzero(good) >= 4:
            keep = resid <= np.median(resid) * 2 + 1.0
            (a, b), *_ = np.linalg.lstsq(a_mat[keep], mids_a[good][keep], rcond=None)
        # t - a - b u = 0  ->  a point p lies on it when (normal - b along) . p = offset + a
        n_vec = normal - b * along_axis
        norm = float(np.linalg.norm(n_vec))
        return n_vec / norm, (offset + a) / norm
    return normal, offset
