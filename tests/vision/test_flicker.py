"""vision.flicker: the row profile of a flickering light's bands, as the plain (row, column)
and lexsort computation gives it, and the camera rows as a full grid gives them."""

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from vision.flicker import BAND_ROWS_PX, MIN_BANDING, MIN_SAMPLES, SIDES_AGREE, _row_profile, camera_rows
from vision.zone_view import RectifiedZone, ZoneWindow


Array = npt.NDArray[Any]
Profile = tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]] | None


def _plain_profile(logc: Array, reference: Array, rows: Array, bare: Array, always: bool,
                   usable: Array | None = None) -> Profile:
    """The row profile computed the plain way: (row, column) pairs and np.lexsort."""
    ys, xs = np.nonzero(bare)
    ys, xs = ys[::2], xs[::2]
    if xs.size < 4 * MIN_SAMPLES:
        return None
    if usable is None:
        delta = np.mean(logc[ys, xs] - reference[ys, xs], axis=1)
    else:
        use = usable[ys, xs]
        n = np.count_nonzero(use, axis=1)
        ys, xs, use, n = ys[n > 0], xs[n > 0], use[n > 0], n[n > 0]
        if xs.size < 4 * MIN_SAMPLES:
            return None
        delta = np.sum(np.where(use, logc[ys, xs] - reference[ys, xs], 0.0), axis=1) / n
    bins = np.floor(rows[ys, xs] / BAND_ROWS_PX).astype(np.int64)
    first, last = int(bins.min()), int(bins.max())
    n_bins = last - first + 1
    half = (bins - first) * 2 + (xs >= bare.shape[1] / 2.0)
    order = np.lexsort((delta, half))
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
    level[have.all(axis=1) & (np.abs(medians[:, 0] - medians[:, 1]) > SIDES_AGREE)] = np.nan
    known = ~np.isnan(level)
    if np.count_nonzero(known) < 3:
        return None
    centres = np.asarray((np.arange(first, last + 1) + 0.5) * BAND_ROWS_PX, np.float64)
    level = np.asarray(np.interp(centres, centres[known], level[known]), np.float64)
    if not always and np.percentile(np.abs(level - np.median(level)), 90) < MIN_BANDING:
        return None
    return centres, level


def _banded_zone(seed: int) -> tuple[Array, Array, Array, Array, Array]:
    """A view with a flickering light's bands along tilted camera rows, a card over part of
    its right half (the halves disagree there), and values quantised so that ties occur."""
    rng = np.random.default_rng(seed)
    h, w = 150, 230
    rows = (np.arange(h, dtype=np.float32)[:, None] * 1.7 + np.arange(w, dtype=np.float32)[None, :] * 0.2
            + np.float32(40.0))
    band = 0.08 * np.sin(rows / 25.0 + seed)
    reference = rng.normal(5.0, 0.02, (h, w, 3)).astype(np.float32)
    logc = reference + band[..., None] + rng.normal(0.0, 0.01, (h, w, 3))
    logc[30:70, 150:200] += 0.5  # a card over the right half of these rows
    logc = (np.round(logc * 256) / 256).astype(np.float32)
    bare = rng.random((h, w)) > 0.3
    bare[:, :12] = False
    usable = rng.random((h, w, 3)) > 0.25
    return logc, reference, rows, bare, usable


def _same(a: Profile, b: Profile) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return all(x.dtype == y.dtype and np.array_equal(x, y) for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("always", [False, True])
def test_given_bands_when_row_profile_measured_then_as_the_plain_computation(seed: int, always: bool) -> None:
    logc, reference, rows, bare, usable = _banded_zone(seed)
    plain = _plain_profile(logc, reference, rows, bare, always)
    assert plain is not None  # the bands are there to be measured
    assert _same(_row_profile(logc, reference, rows, bare, always), plain)
    assert _same(_row_profile(logc, reference, rows, bare, always, usable),
                 _plain_profile(logc, reference, rows, bare, always, usable))


def test_given_no_bands_when_row_profile_measured_then_none_as_the_plain_computation() -> None:
    logc, reference, rows, bare, _ = _banded_zone(0)
    flat = np.asarray(reference + np.float32(0.03), np.float32)  # one change of light for the whole view
    assert _plain_profile(flat, reference, rows, bare, False) is None
    assert _row_profile(flat, reference, rows, bare, False) is None


def test_given_a_view_when_camera_rows_taken_then_as_over_a_full_grid() -> None:
    window = ZoneWindow.around(np.array([[0, 0], [150, 0], [150, 100], [0, 100]], np.float64), 20.0, 2.0)
    w, h = window.size_px
    crop_to_view = np.array([[1.1, 0.05, -3.0], [0.02, 0.9, 5.0], [1e-5, 2e-4, 1.0]])
    view = RectifiedZone(np.zeros((h, w, 3), np.uint8), np.ones((h, w), bool), window, crop_to_view)
    back = np.linalg.inv(crop_to_view)
    u, v = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
    grid = np.asarray((back[1, 0] * u + back[1, 1] * v + back[1, 2]) / (back[2, 0] * u + back[2, 1] * v + back[2, 2]),
                      np.float32)
    got = camera_rows(view)
    assert got.shape == (h, w) and np.array_equal(got, grid)
