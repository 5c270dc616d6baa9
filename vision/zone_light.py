"""The light over one zone's view, as one model: what the light of this frame does to the
zone's bare mat, against the zone's reference look (:mod:`vision.zone_background`).

Light darkens or lightens the print and keeps its colours' ratios; a card or a hand does
not. The model has three terms, each a shape that light takes and a thing does not:

- **row bands** (:mod:`vision.flicker`): a flickering light recorded by a rolling shutter,
  neutral, a function of the camera's row alone;
- **an edge step** (:mod:`vision.shadow_edge`): a still shadow's straight edge across the
  zone, neutral, a step along a line;
- **a smooth gain field**: per colour a quadratic in x and y (a lamp's gradient, the room's
  drift, the camera's exposure); against no reference look (the zone not yet seen empty)
  it is the printed zone itself, one printed colour under light that changes slowly.

:meth:`LightModel.fit` measures the bands and takes the step on the bare mat, and
:meth:`Light.fit_gain` fits the smooth field to what they leave once the cards are known (a
card is no bare mat), so one :class:`Light` holds the whole light of a frame.
:func:`light_alone` tells whether all a frame's difference from the look is light (learned
as the new look), :func:`unlit_patches` which patches of it are not.
:meth:`Light.flat` is the frame with the bands and the step taken out (where cards are
looked for and things measured: a step's edge is no card's edge), :meth:`Light.explain` the
reference as this frame's light shows it, and :meth:`Light.unbanded` the frame a background
learns (a still shadow that stays is part of the new look; a flickering band is not).

>>> h, w = 120, 200
>>> ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
>>> lamp = np.dstack([5.0 + 0.002 * xs] * 3).astype(np.float32)  # a lamp's gradient
>>> light = Light().fit_gain(lamp, None, np.ones((h, w), bool))
>>> float(np.abs(light.explain(None) - lamp).max()) < 0.02  # (fitted at 1/8 resolution)
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.chroma import chroma_spread
from vision.flicker import band_levels, camera_rows, without_bands
from vision.shadow_edge import ShadowEdgeConfig, shadow_step
from vision.zone_cards import difference
from vision.zone_view import RectifiedZone

__all__ = ["Light", "LightModel", "light_alone", "smooth_field", "unlit_patches"]

FloatImage = npt.NDArray[np.float32]
Mask = npt.NDArray[np.bool_]


def smooth_field(logc: FloatImage, where: Mask) -> FloatImage:
    """A smooth light field over ``logc`` in ``where``: a quadratic in x and y per colour,
    fitted to those pixels, twice more to those that fit best (cards, hands and print are
    outliers); ``logc`` itself when there are too few pixels to fit."""
    h, w = where.shape
    step = 4  # every 4th pixel each way is plenty for 6 numbers per colour
    ys, xs = np.nonzero(where[::step, ::step])
    if xs.size < 50:
        return logc.copy()
    values = logc[::step, ::step][ys, xs].astype(np.float64)  # (n, 3)
    sx, sy = xs * step / w - 0.5, ys * step / h - 0.5
    design = np.column_stack([np.ones_like(sx), sx, sy, sx * sx, sy * sy, sx * sy])
    keep = np.ones(len(xs), bool)
    coef = np.zeros((6, 3))
    for _ in range(3):
        a = design[keep]
        coef = np.linalg.solve(a.T @ a + 1e-9 * np.eye(6), a.T @ values[keep])
        resid = np.max(np.abs(values - design @ coef), axis=1)
        keep = resid <= np.percentile(resid, 45)
    # the field at 1/8 resolution, then smoothly up to the view's size
    gy, gx = np.mgrid[0:h:8, 0:w:8].astype(np.float64)
    gx, gy = gx / w - 0.5, gy / h - 0.5
    basis = np.stack([np.ones_like(gx), gx, gy, gx * gx, gy * gy, gx * gy], axis=-1)
    small = (basis @ coef).astype(np.float32)
    return np.asarray(cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR), np.float32)


@dataclass(frozen=True, slots=True)
class Light:
    """The light of one frame against a reference look (log units, view pixels). A term is
    None where the light has none of it."""

    bands: FloatImage | None = None  # (h, w): brightness added along the camera's rows
    step: FloatImage | None = None  # (h, w): a still shadow's edge (0 in full light, < 0 in its shade)
    gain: FloatImage | None = None  # (h, w, 3): the smooth field (against no reference: the print)

    def unbanded(self, logc: FloatImage) -> FloatImage:
        """``logc`` without the bands: what a background learns (a still shadow that stays
        belongs to the look, a flickering light's bands do not)."""
        if self.bands is None:
            return logc
        return np.asarray(logc - self.bands[..., None], np.float32)

    def flat(self, logc: FloatImage) -> FloatImage:
        """``logc`` without the bands and the step: lit as the reference, but for the smooth
        field (cards are looked for in it, and it is compared with :meth:`explain`)."""
        out = self.unbanded(logc)
        if self.step is None:
            return out
        return np.asarray(out - self.step[..., None], np.float32)

    def fit_gain(self, flat: FloatImage, reference: FloatImage | None, bare: Mask) -> Light:
        """This light with its smooth field fitted to ``flat`` (:meth:`flat`) against
        ``reference`` on the ``bare`` mat."""
        field = smooth_field(flat if reference is None else np.asarray(flat - reference, np.float32), bare)
        return dataclasses.replace(self, gain=field)

    def explain(self, reference: FloatImage | None) -> FloatImage:
        """What the bare mat of :meth:`flat` looks like under this light: ``reference`` with
        the smooth field (the field alone without a reference)."""
        if reference is None:
            assert self.gain is not None, "no reference and no field: nothing explains the print"
            return self.gain
        if self.gain is None:
            return reference
        return np.asarray(reference + self.gain, np.float32)


class LightModel:
    """The light model of one zone's view: the camera's rows (kept while the camera and the
    mat stand still) and the measures of the bands and of a shadow's edge."""

    def __init__(self, px_per_mm: float, edge: ShadowEdgeConfig = ShadowEdgeConfig()) -> None:
        self.px_per_mm = px_per_mm
        self.edge_config = edge
        self._rows: tuple[bytes, FloatImage] | None = None

    def rows(self, view: RectifiedZone) -> FloatImage:
        """:func:`vision.flicker.camera_rows` of ``view``, kept while its transform stays."""
        key = np.asarray(view.crop_to_view, np.float64).tobytes()
        if self._rows is None or self._rows[0] != key:
            self._rows = (key, camera_rows(view))
        return self._rows[1]

    def fit(self, view: RectifiedZone, logc: FloatImage, against: FloatImage | None, clear: Mask,
            usable: npt.NDArray[np.bool_] | None = None, step: FloatImage | None = None) -> Light:
        """The light's bands and step in ``logc``: the bands measured against ``against`` (the
        zone's look or, until it has one, the frame before) on the ``clear`` mat (where
        nothing should lie) once ``step`` is taken out, in the colours ``usable`` in both
        (not clipped). No bands without a frame to measure them against."""
        if against is None:
            return Light(step=step)
        stepped = logc if step is None else np.asarray(logc - step[..., None], np.float32)
        bands = band_levels(stepped, against, self.rows(view), clear, usable=usable)
        return Light(bands=bands, step=step)

    def edge(self, delta: FloatImage, where: Mask, cards: Mask | None = None) -> FloatImage | None:
        """:func:`vision.shadow_edge.shadow_step` of ``delta`` (a frame, or its difference
        from a look) measured in ``where``, away from ``cards``: a still shadow's straight edge."""
        return shadow_step(delta, where, self.px_per_mm, self.edge_config, cards)


def unlit_patches(logc: FloatImage, expected: FloatImage, bare: Mask, odd: npt.NDArray[np.uint8], outline: Mask,
                  stale: Mask | None, chroma_bar: float, disc: npt.NDArray[np.uint8]) -> tuple[Mask, Mask]:
    """The patches of ``odd`` (what differs from the ``expected`` look) that light does not
    explain: ``coloured`` (where the colours' ratios changed by ``chroma_bar`` or more,
    opened by ``disc`` and grown to their patches), and those lying ``inside`` the zone, none
    of them reaching its ``outline`` (a shadow is cast from outside the zone), nor lying
    where the look is ``stale`` (older than a step of light)."""
    delta = np.asarray(cv2.GaussianBlur(cv2.subtract(logc, expected), (0, 0), 2.0), np.float32)
    tinted = (chroma_spread(delta) >= chroma_bar) & (odd > 0) & bare
    tinted = cv2.morphologyEx(tinted.astype(np.uint8), cv2.MORPH_OPEN, disc) > 0
    n, labels = cv2.connectedComponents(odd, connectivity=8)
    reaching = set(np.unique(labels[outline & (odd > 0)]).tolist())
    if stale is not None:
        # a patch where the look is older than a step of light, where cards lay when the
        # bare mat took it, is that step's light too
        sizes = np.bincount(labels.ravel(), minlength=n)
        within = np.bincount(labels[stale], minlength=n)
        reaching |= {i for i in range(1, n) if within[i] >= 0.9 * sizes[i]}
    is_inside = np.ones(n, bool)
    is_inside[0] = False
    is_inside[sorted(reaching)] = False
    is_coloured = np.zeros(n, bool)
    is_coloured[np.unique(labels[tinted])] = True
    is_coloured[0] = False
    return is_coloured[labels], is_inside[labels]


def light_alone(logc: FloatImage, expected: FloatImage, bare: Mask, odd: npt.NDArray[np.uint8], outline: Mask,
                stale: Mask | None, rows: FloatImage, bar: float, chroma_bar: float,
                disc: npt.NDArray[np.uint8]) -> bool:
    """Is all that differs from the ``expected`` look (``odd``) light: the print darker or
    lighter with its colours' ratios kept, and either each patch of it reaching the zone's
    ``outline`` (:func:`unlit_patches`) or the whole of it a flickering light's bands along
    the camera's ``rows`` (frozen in the look by the frames before it)?"""
    coloured, inside = unlit_patches(logc, expected, bare, odd, outline, stale, chroma_bar, disc)
    if np.any(coloured):
        return False  # a patch of another colour: a hand, a card, a token
    if not np.any(inside):
        return True
    flat = without_bands(logc, expected, rows, bare, always=True)
    left = cv2.morphologyEx((difference(flat, expected, bare) >= bar).astype(np.uint8), cv2.MORPH_OPEN, disc)
    return not np.any((left > 0) & bare)  # nothing left once the rows are evened out
