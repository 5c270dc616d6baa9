"""Bands of a flickering light, taken out of a zone's view before anything is compared.

A lamp on mains power (an LED driver, a fluorescent tube) flickers at twice the mains
frequency; a camera whose rows are read one after another (a rolling shutter), with an
exposure shorter than the flicker, records it as bright and dark bands along its rows, at
another place in each frame. Against the empty zone (or the frame before) every band then
reads as a change: the zone is never still and its bare print looks like a thing, so the
dealer judged nothing (0 of 11 verdicts in a round under such a light).

The bands depend on the camera's row alone. So, row by row of the camera, the change of
log brightness against a reference (the empty look, or the frame before) is measured
where nothing should lie (the zone's outline band, less the cards of the last look), on
its left and right halves; a row where the halves disagree (a card or a hand over one) is
left out and filled in from its neighbours; the change is taken away from every pixel of
that row. Only when the rows differ clearly from one
another (bands, not one change of light for the whole view, which
:func:`vision.zone_cards.difference` already takes away) is anything corrected.

>>> rows = np.tile(np.arange(0, 320, 4, dtype=np.float32)[:, None], (1, 60))  # camera rows
>>> band = (0.2 * np.sin(rows / 40.0)).astype(np.float32)  # bands 250 rows apart
>>> logc = np.repeat(band[..., None], 3, axis=2)
>>> fixed = without_bands(logc, np.zeros_like(logc), rows, np.ones((80, 60), bool))
>>> float(np.abs(fixed).max()) < 0.02
True
"""

from __future__ import annotations

from typing import TypeVar

import numpy as np
import numpy.typing as npt

from vision.zone_view import RectifiedZone

__all__ = ["BAND_ROWS_PX", "MIN_BANDING", "band_levels", "camera_rows", "without_bands"]

FloatImage = npt.NDArray[np.float32]
Mask = npt.NDArray[np.bool_]
_Pixel = TypeVar("_Pixel", bound=np.generic)

# camera rows per bin (a band of 100 Hz flicker is a fifth of the frame's height or more)
BAND_ROWS_PX = 4.0
# the rows' change must spread this much (log units, 90th percentile from the median)
# before anything is corrected: sensor noise and one change of light stay far below it
MIN_BANDING = 0.015
MIN_SAMPLES = 6  # bare pixels a side of a bin needs to count
# the left and right halves of a bin agree within this (log units), else something lies
# over one of them (a card laid over the zone's outline, a hand): the bin is left out
SIDES_AGREE = 0.04


def camera_rows(view: RectifiedZone) -> FloatImage:
    """The camera row (crop pixels) each pixel of the view comes from."""
    back = np.linalg.inv(view.crop_to_view)
    h, w = view.bgr.shape[:2]
    # a row of columns and a column of rows, broadcast: the same sums as over a full grid
    u = np.arange(w, dtype=np.float64)[None, :]
    v = np.arange(h, dtype=np.float64)[:, None]
    den = back[2, 0] * u + back[2, 1] * v + back[2, 2]
    return np.asarray((back[1, 0] * u + back[1, 1] * v + back[1, 2]) / den, np.float32)


def without_bands(logc: FloatImage, reference: FloatImage, rows: FloatImage, bare: Mask,
                  always: bool = False, usable: npt.NDArray[np.bool_] | None = None) -> FloatImage:
    """``logc`` with the bands of a flickering light taken out, as against ``reference``.

    ``rows``: :func:`camera_rows`; ``bare``: where nothing should lie. ``always``: correct
    even when the rows do not differ as bands do. ``usable``: per pixel and colour, whether
    it is measured in both (not clipped: a bright band clips the pale print's brightest
    colour first, the others measure it still); default all."""
    levels = band_levels(logc, reference, rows, bare, always, usable)
    if levels is None:
        return logc
    return np.asarray(logc - levels[..., None], np.float32)


def band_levels(logc: FloatImage, reference: FloatImage, rows: FloatImage, bare: Mask,
                always: bool = False, usable: npt.NDArray[np.bool_] | None = None) -> FloatImage | None:
    """Per pixel, the log brightness the bands add to ``logc`` against ``reference`` (the
    arguments are :func:`without_bands`'s); None when the rows do not differ as bands do."""
    profile = _row_profile(logc, reference, rows, bare, always, usable)
    if profile is None:
        return None
    centres, level = profile
    return np.asarray(np.interp(rows, centres, level), np.float32)


def _at(image: npt.NDArray[_Pixel], flat: npt.NDArray[np.intp]) -> npt.NDArray[_Pixel]:
    """The pixels (each a row of colours) of ``image`` at the flat indices ``flat``."""
    return np.take(image.reshape(-1, image.shape[2]), flat, axis=0)


def _row_profile(logc: FloatImage, reference: FloatImage, rows: FloatImage, bare: Mask,
                 always: bool, usable: npt.NDArray[np.bool_] | None = None) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]] | None:
    """Per bin of camera rows, the median brightness change of the bare mat there (bin
    centres, levels); None when the rows do not differ as bands do."""
    # every other pixel is plenty (the band is ~12 px wide); flat indices, row by row as
    # np.nonzero gives them, index the images faster than (row, column) pairs
    at = np.flatnonzero(bare)[::2]
    if at.size < 4 * MIN_SAMPLES:
        return None
    width = bare.shape[1]
    if usable is None:
        delta = np.mean(_at(logc, at) - _at(reference, at), axis=1)
    else:
        use = _at(usable, at)
        n = np.count_nonzero(use, axis=1)
        at, use, n = at[n > 0], use[n > 0], n[n > 0]
        if at.size < 4 * MIN_SAMPLES:
            return None
        delta = np.sum(np.where(use, _at(logc, at) - _at(reference, at), 0.0), axis=1) / n
    xs = at % width
    bins = np.floor(rows.reshape(-1)[at] / BAND_ROWS_PX).astype(np.int64)
    first, last = int(bins.min()), int(bins.max())
    n_bins = last - first + 1
    # the median of each bin's left and right half, all at once: sort by (half, value)
    half = (bins - first) * 2 + (xs >= bare.shape[1] / 2.0)
    # sorted by value, then (stably) by half: np.lexsort's order of values, several times
    # faster (a stable sort of small integers is a radix sort)
    by_value = np.argsort(delta)
    order = by_value[np.argsort(half[by_value].astype(np.int16 if 2 * n_bins < 2**15 else np.int64), kind="stable")]
    half, delta = half[order], delta[order]
    counts = np.bincount(half, minlength=2 * n_bins)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    enough = counts >= MIN_SAMPLES
    lo = starts + np.maximum(counts - 1, 0) // 2
    hi = starts + counts // 2
    medians = np.where(enough, (delta[np.minimum(lo, delta.size - 1)] + delta[np.minimum(hi, delta.size - 1)]) / 2,
                       np.nan).reshape(n_bins, 2)
    have = enough.reshape(n_bins, 2)
    level = np.where(have.any(axis=1), np.nansum(medians, axis=1) / np.maximum(have.sum(axis=1), 1), np.nan)
    level[have.all(axis=1) & (np.abs(medians[:, 0] - medians[:, 1]) > SIDES_AGREE)] = np.nan  # something over one half
    known = ~np.isnan(level)
    if np.count_nonzero(known) < 3:
        return None
    centres = np.asarray((np.arange(first, last + 1) + 0.5) * BAND_ROWS_PX, np.float64)
    level = np.asarray(np.interp(centres, centres[known], level[known]), np.float64)
    if not always and np.percentile(np.abs(level - np.median(level)), 90) < MIN_BANDING:
        return None  # one light for the whole zone (or none): nothing to take out
    return centres, level
