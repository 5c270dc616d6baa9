"""The enrolled print of each card, matched closely: the index corners, the face with its
pips and court art, and the colours of the ink.

An enrolled deck is one print the dealer has seen card by card, so a card the network's rule
leaves unsure can be checked against that print itself. :class:`PrintBank` keeps, for every
enrolled card (its crop, stored in the profile as PNG, so the features can change without
enrolling again), features of

- both corner boxes (each turned upright) at 0.6 of the rectified resolution (43 x 58 px);
- the whole face at a quarter of it (50 x 70 px: pips apart, court pictures told apart);

each as three channels of *ink against the card's own paper*: how dark, how red-not-green
and how yellow-not-blue each pixel is relative to the paper around it (a max filter wider
than a pip), so a shadow edge, a light gradient or a warm lamp cancel in the ratio, and red
hearts, black spades or a four-colour deck's blue diamonds differ even blurred.

A card is compared with a short list of candidates (the network's proposal) in two passes:

1. *align*: each candidate's templates (3 scales x 2 blurs, either corner, the face either
   way up) are correlated with every window of the card within ~10 px of the rectified card
   (the rectifier is a few % off), weighted by where all enrolled cards differ;
2. *tell apart*: at each candidate's best alignment, the card is compared with it by a
   distance weighted by where *these candidates* differ (:func:`_focus`): a 6 and a 9, a
   4 and a 7, or a Dutch ``V`` queen and a French ``V`` jack differ in a few pixels, and a
   blank where the other card has a pip must count, which a correlation would not see.

The rectifier can be further off than those shifts (a card turned several degrees, a corner
cut off), so the card is also *registered* onto each candidate's enrolled crop
(:func:`registration`: a turn either way up, then an affine warp refined by ECC) and the two
passes run over the card as framed and all these framings, each candidate taking its best
(:meth:`PrintBank.duel`): none is favoured by a framing made for it alone.

:meth:`PrintBank.scores` gives the corner score plus FACE_SHARE x the face score of each
candidate; :mod:`vision.deck_profile` decides by the margin between the best and the
second-best.

>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> cards = [rng.integers(0, 255, (280, 200, 3), dtype=np.uint8) for _ in range(3)]
>>> bank = PrintBank.build(cards, ["QS", "KS", "JS"], [0, 0, 0])
>>> s = bank.scores(cards, np.array([[0, 1, 2]] * 3))
>>> s.argmax(axis=1).tolist()
[0, 1, 2]
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import ModelLoadError
from vision.preprocess import CORNER_BOX_H, CORNER_BOX_W, RECT_H, RECT_W

__all__ = ["PrintBank", "print_features", "FACE_SHARE"]

FloatArray = npt.NDArray[np.float32]

CORNER_SCALE = 0.6  # the corner box (72 x 96 px of the rectified card) at 43 x 58
CORNER_MARGIN = 6  # px of the scaled corner: the shift searched (~10 px of the rectified card)
FACE_W, FACE_H = 50, 70  # the face at a quarter of the rectified resolution
FACE_MARGIN = 3  # px of the scaled face (12 px of the rectified card)
SCALES = (0.93, 1.0, 1.07)  # the rectifier frames a card a few % larger or smaller
BLURS = (0.0, 1.4)  # sigma of the template blur (px of the scaled image): sharp, and a far camera's
CORNER_PIP_PX = 19  # the paper is found by a max filter this wide (px of the scaled corner)
FACE_PIP_PX = 11  # and of the scaled face: wider than a pip
CHROMA_GAIN = 1.0  # the colour channels' weight against lightness (ink colour tells suits apart)
FACE_SHARE = 0.5  # the face's share of a card's score; the index carries the rest
# registering a card onto an enrolled crop (:func:`registration`): the rectifier's error is
# a few degrees, a few % of size and up to ~15 % of the width of shift (a corner cut off)
REGISTER = True  # off: the card as the rectifier framed it (the rule before; benches compare)
REGISTER_COARSE = (50, 70)  # px: the coarse search's size
REGISTER_MARGIN = 8  # px of it: the shift searched either way (16 % of the width)
# degrees, either way up: an enrolled crop and a card read may lie opposite ways
REGISTER_TURNS = tuple(way + t for way in (0.0, 180.0) for t in (-10.0, -5.0, 0.0, 5.0, 10.0))
REGISTER_FINE = (100, 140)  # px: the affine refinement's last size
REGISTERED_REACH = 2  # px of the scaled corner and face: the shifts searched on a registered card
REGISTER_GAIN = 0.02  # a warp is used only when the detail correlates better by this much
REGISTER_STEPS = 20  # ECC iterations at the coarse size
REGISTER_FINE_STEPS = 5  # and at the fine one (each costs 4 times as much)


def _ink(bgr: npt.NDArray[Any], pip_px: int) -> FloatArray:
    """The ink of ``bgr`` against its own paper: [3, H, W] of how dark (0 paper .. 1 black),
    how red-not-green and how yellow-not-blue each pixel is, relative to the paper around it.

    The paper's level is a max filter wider than a pip (``pip_px``), smoothed: a shadow, a
    light gradient or a warm lamp scale paper and ink alike and cancel in the ratio.
    """
    x = bgr.astype(np.float32) + 4.0
    paper = cv2.dilate(x, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (pip_px, pip_px)))
    paper = cv2.GaussianBlur(paper, (0, 0), pip_px / 4)
    r = np.minimum(x / paper, 1.0)
    b, g, red = r[..., 0], r[..., 1], r[..., 2]
    return np.stack([1.0 - (b + g + red) / 3, CHROMA_GAIN * (red - g), CHROMA_GAIN * ((red + g) / 2 - b)]
                    ).astype(np.float32)


def print_features(cards: Sequence[npt.NDArray[np.uint8]]) -> tuple[FloatArray, FloatArray]:
    """Corners [N, 2, 3, ch, cw] (both upright) and faces [N, 3, FACE_H, FACE_W] of rectified
    BGR cards, as ink against the paper (:func:`_ink`)."""
    ch, cw = round(CORNER_BOX_H * CORNER_SCALE), round(CORNER_BOX_W * CORNER_SCALE)
    corners, faces = [], []
    for card in cards:
        top_left = card[:CORNER_BOX_H, :CORNER_BOX_W]
        bottom_right = card[RECT_H - CORNER_BOX_H:, RECT_W - CORNER_BOX_W:][::-1, ::-1]
        pair = [_ink(cv2.resize(np.ascontiguousarray(box), (cw, ch), interpolation=cv2.INTER_AREA), CORNER_PIP_PX)
                for box in (top_left, bottom_right)]
        corners.append(np.stack(pair))
        faces.append(_ink(cv2.resize(card, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA), FACE_PIP_PX))
    return (np.asarray(np.stack(corners), np.float32).reshape(len(cards), 2, 3, ch, cw),
            np.asarray(np.stack(faces), np.float32).reshape(len(cards), 3, FACE_H, FACE_W))


def _detail(bgr: npt.NDArray[Any], size: tuple[int, int]) -> FloatArray:
    """The grey of ``bgr`` at ``size`` less its blur over a twelfth of the width: the print's
    detail (pips, index, border), with glare, shadows and light gradients taken off."""
    grey = cv2.resize(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY), size, interpolation=cv2.INTER_AREA).astype(np.float32)
    return np.asarray(grey - cv2.GaussianBlur(grey, (0, 0), size[0] / 12.0), np.float32)


def detail_of(bgr: npt.NDArray[Any]) -> tuple[FloatArray, FloatArray]:
    """The detail (:func:`_detail`) of a crop at the two sizes it is registered at."""
    return _detail(bgr, REGISTER_COARSE), _detail(bgr, REGISTER_FINE)


def registration(card: tuple[FloatArray, FloatArray], enrolled: tuple[FloatArray, FloatArray]
                 ) -> npt.NDArray[np.float32] | None:
    """The warp (2 x 3, from the enrolled crop's pixels to the card's, at the rectified size)
    that registers a card onto an enrolled crop, from their :func:`detail_of`; None where the
    card is best left as the rectifier framed it.

    The rectifier can be off by several degrees and pixels (a corner of the card cut off,
    the table in another): more than the templates' shifts search. Coarse
    (:data:`REGISTER_COARSE`): every turn of :data:`REGISTER_TURNS`, each at its best shift
    (normalised correlation); fine (:data:`REGISTER_FINE`): that warp refined as an affine one
    by ECC (size, shear and what lies between the turns), at the coarse size and then the
    fine one. The warp is used only when it correlates better with the print than
    the card as it is (by :data:`REGISTER_GAIN`): a card the rectifier framed well, or one
    unlike the print, stays.
    """
    (w, h), margin = REGISTER_COARSE, REGISTER_MARGIN
    best, warp = -1.0, np.eye(2, 3, dtype=np.float32)
    for turn in REGISTER_TURNS:
        turned = cv2.getRotationMatrix2D((w / 2, h / 2), float(turn), 1.0)
        inner = cv2.warpAffine(enrolled[0], turned, (w, h), borderMode=cv2.BORDER_REPLICATE)[
            margin:h - margin, margin:w - margin]
        _, corr, _, at = cv2.minMaxLoc(cv2.matchTemplate(card[0], inner, cv2.TM_CCOEFF_NORMED))
        if corr > best:
            best, warp = corr, turned.astype(np.float32)
            warp[:, 2] += (at[0] - margin, at[1] - margin)
    fine_w = REGISTER_FINE[0]
    for level, steps in ((0, REGISTER_STEPS), (1, REGISTER_FINE_STEPS)):
        if level == 1:
            warp[:, 2] *= fine_w / w
        criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, steps, 1e-3)
        try:
            _, refined = cv2.findTransformECC(enrolled[level], card[level], warp.copy(), cv2.MOTION_AFFINE,
                                              criteria, None, 3)  # type: ignore[call-overload]  # no mask: the stubs want one
        except cv2.error:
            continue
        moved = np.abs(refined - warp)
        if float(moved[:, :2].max()) < 0.1 and float(moved[:, 2].max()) < enrolled[level].shape[1] / 20:
            warp = refined  # ECC strays on a card with little detail: it may only refine

    def correlation(m: npt.NDArray[np.float32]) -> float:
        moved = cv2.warpAffine(card[1], m, REGISTER_FINE, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)
        return float(cv2.computeECC(enrolled[1], moved))

    if correlation(warp) < correlation(np.eye(2, 3, dtype=np.float32)) + REGISTER_GAIN:
        return None
    warp[:, 2] *= RECT_W / fine_w
    return warp


def warped(card: npt.NDArray[np.uint8], warp: npt.NDArray[np.float32] | None) -> npt.NDArray[np.uint8]:
    """``card`` under a :func:`registration` warp (itself where None)."""
    if warp is None:
        return card
    return np.asarray(cv2.warpAffine(card, warp, (card.shape[1], card.shape[0]),
                                     flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                     borderMode=cv2.BORDER_REPLICATE), np.uint8)


def registered(card: npt.NDArray[np.uint8], enrolled: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """``card`` (a rectified crop) registered onto the frame of an ``enrolled`` crop
    (:func:`registration`)."""
    return warped(card, registration(detail_of(card), detail_of(enrolled)))


def _zoom(img: FloatArray, scale: float, blur: float) -> FloatArray:
    """``img`` [C, H, W] zoomed by ``scale`` about its centre, then blurred."""
    h, w = img.shape[-2:]
    m = np.array([[scale, 0, (1 - scale) * w / 2], [0, scale, (1 - scale) * h / 2]], np.float32)
    out = np.empty_like(img)
    for i, c in enumerate(img):
        z = cv2.warpAffine(c, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        out[i] = cv2.GaussianBlur(z, (0, 0), blur) if blur > 0 else z
    return out


def _spread_weight(stack: FloatArray) -> FloatArray:
    """Where the templates [K, C, h, w] differ from each other, per pixel (all channels): 0.05..1."""
    spread = stack.std(axis=0).mean(axis=0)
    top = float(np.percentile(spread, 95))
    return np.asarray(np.clip(spread / max(top, 1e-4), 0.05, 1.0), np.float32)


def _wz(x: FloatArray, weight: FloatArray) -> FloatArray:
    """``x`` [..., C, h, w] weighted by ``weight`` [h, w], each channel less its weighted mean,
    flattened to unit rows [..., C*h*w]."""
    v = np.multiply(x, weight, dtype=np.float32)
    mean = np.einsum("...hw,hw->...", v, weight) / np.float32((weight * weight).sum())
    v -= mean[..., None, None] * weight
    flat = v.reshape(v.shape[:-3] + (-1,))
    flat /= np.maximum(np.sqrt(np.einsum("...d,...d->...", flat, flat)), 1e-4)[..., None]
    return flat


def _windows(img: FloatArray, h: int, w: int, reach: int | None = None) -> FloatArray:
    """Every h x w window of ``img`` [C, H, W]: [S, C, h, w]; with ``reach``, only those
    within ``reach`` px of the centred one (a card already registered)."""
    v = np.lib.stride_tricks.sliding_window_view(img, (h, w), axis=(-2, -1))  # [C, sy, sx, h, w]
    if reach is not None:
        my, mx = (v.shape[1] - 1) // 2, (v.shape[2] - 1) // 2
        v = v[:, max(0, my - reach):my + reach + 1, max(0, mx - reach):mx + reach + 1]
    c, sy, sx = v.shape[:3]
    return np.ascontiguousarray(v.transpose(1, 2, 0, 3, 4)).reshape(sy * sx, c, h, w)


def _focus(stack: FloatArray) -> FloatArray:
    """Where the candidates' templates [C, ..., ch, h, w] differ, per variant: [..., h, w], 0.02..1.
    Two cards that differ only in a small glyph (a 6 and a 9, a ``V`` and a ``B``) are told
    apart by those pixels alone, not drowned by all they share."""
    spread = stack.std(axis=0).mean(axis=-3)
    spread = np.stack([cv2.GaussianBlur(s, (0, 0), 1.0) for s in spread.reshape((-1,) + spread.shape[-2:])]
                      ).reshape(spread.shape)
    top = np.percentile(spread.reshape(spread.shape[:-2] + (-1,)), 98, axis=-1)[..., None, None]
    return np.asarray(np.clip(spread / np.maximum(top, 1e-4), 0.02, 1.0), np.float32)


def _aligned_focus(windows: FloatArray, templates: FloatArray, rows: FloatArray, weight: FloatArray) -> FloatArray:
    """The score of each candidate's templates [C, V, ch, h, w] (``rows``: the same through
    :func:`_wz`, as the bank keeps them) with a card's ``windows`` [S, ch, h, w]: aligned by
    the best window and variant under ``weight``, then correlated there under the weight of
    where the candidates differ (:func:`_focus`): [C]."""
    n_c, n_v = templates.shape[:2]
    q = _wz(windows, weight)  # [S, D]
    t = rows.reshape(n_c * n_v, -1)
    best = (q @ t.T).reshape(len(q), n_c, n_v)
    if n_c < 2:
        return np.asarray(best.max(axis=(0, 2)), np.float32)
    focus = _focus(templates)  # [V, h, w]
    out = np.empty(n_c, np.float32)
    for c in range(n_c):
        s, v = np.unravel_index(int(np.argmax(best[:, c])), best[:, c].shape)
        # a distance, not a correlation, where the candidates differ: a blank where one card
        # has a pip must count for the card that has none
        d = _standard(windows[s], weight) - _standard(templates[c, v], weight)
        f2 = focus[v] * focus[v]
        out[c] = 1.0 - float((d * d * f2).sum() / (f2.sum() * d.shape[0])) / 2
    return out


def _duel(windows: FloatArray, templates: FloatArray, rows: FloatArray, weight: FloatArray, framed: int | None = None,
          first_only: bool = False) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Each candidate of ``templates`` [C, V, ch, h, w] (``rows``: the same through
    :func:`_wz`, as the bank keeps them) aligned with a card's ``windows``
    [S, ch, h, w] (the best window and variant under ``weight``), then told from each *other*
    candidate alone: ``duel[a, b]`` is a's score less b's, both at their own alignment, under
    the weight of where a and b differ (:func:`_focus` of the pair). Also each candidate's
    correlation at its alignment (how well the card fits its print at all), and the same over
    the first ``framed`` windows alone (the card as framed; all by default). ([C, C], [C], [C]).
    ``first_only``: only the duels of the first candidate with each other one (row and column
    0; the rest 0)."""
    n_c, n_v = templates.shape[:2]
    q = _wz(windows, weight)
    t = rows.reshape(n_c * n_v, -1)
    corr = (q @ t.T).reshape(len(q), n_c, n_v)
    fit = corr.max(axis=(0, 2))
    as_framed = corr[:framed].max(axis=(0, 2))
    at = [np.unravel_index(int(np.argmax(corr[:, c])), corr[:, c].shape) for c in range(n_c)]
    cards = [_standard(windows[s], weight) for s, _ in at]
    prints = [_standard(templates[c, v], weight) for c, (_, v) in enumerate(at)]
    duel = np.zeros((n_c, n_c), np.float32)
    for a in range(1 if first_only else n_c):
        for b in range(a + 1, n_c):
            f2 = []
            for c in (a, b):
                f = _focus(templates[[a, b]][:, at[c][1]][:, None])[0]
                f2.append(f * f)
            d_a, d_b = cards[a] - prints[a], cards[b] - prints[b]
            s_a = 1.0 - float((d_a * d_a * f2[0]).sum() / (f2[0].sum() * d_a.shape[0])) / 2
            s_b = 1.0 - float((d_b * d_b * f2[1]).sum() / (f2[1].sum() * d_b.shape[0])) / 2
            duel[a, b], duel[b, a] = s_a - s_b, s_b - s_a
    return duel, np.asarray(fit, np.float32), np.asarray(as_framed, np.float32)


def _standard(x: FloatArray, weight: FloatArray) -> FloatArray:
    """``x`` [C, h, w] less its ``weight``-weighted mean, over its weighted spread, per channel
    set: values a card and its template share a scale in."""
    w2 = weight * weight
    m = (x * w2).sum(axis=(-2, -1), keepdims=True) / float(w2.sum())
    v = x - m
    sd = np.sqrt((v * v * w2).sum() / (float(w2.sum()) * x.shape[0]))
    return np.asarray(v / max(sd, 1e-4), np.float32)


@dataclass(frozen=True)
class PrintBank:
    """The enrolled print: ``labels[k]``/``decks[k]`` for each card k, its crop, and its
    templates: ``corners`` [K, V, C, h, w] (V = corner x scale x blur variants) and ``faces``
    [K, 2, C, h, w] (both ways up), with the weights of where the enrolled cards differ."""

    labels: tuple[str, ...]
    decks: tuple[int, ...]
    crops: tuple[npt.NDArray[np.uint8], ...]
    corners: FloatArray
    faces: FloatArray
    corner_weight: FloatArray
    face_weight: FloatArray
    # pairs of enrolled cards (labels, sorted) whose print did not tell a jittered view of one
    # from the other at enrolment (:meth:`with_look_alikes`): never read one over the other by print
    look_alike: frozenset[tuple[str, str]] = frozenset()
    # each crop's detail (:func:`detail_of`), what a card read is registered onto
    details: tuple[tuple[FloatArray, FloatArray], ...] = ()

    @classmethod
    def build(cls, crops: Sequence[npt.NDArray[np.uint8]], labels: Sequence[str], decks: Sequence[int]) -> PrintBank:
        """Templates from one clean rectified view of each card (upright or turned: both
        corners and both ways up of the face are used)."""
        corners, faces = print_features(crops)
        _, _, c, ch, cw = corners.shape
        th, tw = ch - 2 * CORNER_MARGIN, cw - 2 * CORNER_MARGIN
        variants = []
        for pair in corners:
            per = [_zoom(corner, s, b)[:, CORNER_MARGIN:CORNER_MARGIN + th, CORNER_MARGIN:CORNER_MARGIN + tw]
                   for corner in pair for s in SCALES for b in BLURS]
            variants.append(np.stack(per))
        full = np.stack(variants)  # [K, V, C, th, tw]
        fh, fw = FACE_H - 2 * FACE_MARGIN, FACE_W - 2 * FACE_MARGIN
        inner = faces[:, :, FACE_MARGIN:FACE_MARGIN + fh, FACE_MARGIN:FACE_MARGIN + fw]
        both = np.stack([inner, inner[:, :, ::-1, ::-1]], axis=1)  # [K, 2, C, fh, fw]
        return cls(tuple(labels), tuple(int(d) for d in decks), tuple(np.ascontiguousarray(c) for c in crops),
                   np.ascontiguousarray(full), np.ascontiguousarray(both),
                   _spread_weight(full.reshape((-1,) + full.shape[2:])),
                   _spread_weight(both.reshape((-1,) + both.shape[2:])),
                   details=tuple(detail_of(c) for c in crops))

    @cached_property
    def corner_rows(self) -> FloatArray:
        """``corners`` through :func:`_wz` under ``corner_weight``, made once: [K, V, D]."""
        return _wz(self.corners, self.corner_weight)

    @cached_property
    def face_rows(self) -> FloatArray:
        """``faces`` through :func:`_wz` under ``face_weight``, made once: [K, 2, D]."""
        return _wz(self.faces, self.face_weight)

    def scores(self, cards: Sequence[npt.NDArray[np.uint8]], candidates: npt.ArrayLike) -> FloatArray:
        """The print score of each card with each of its candidates (indices into ``labels``,
        [N, C]): the best corner correlation plus FACE_SHARE x the face's. [N, C]."""
        corners, faces = print_features(cards)
        return self.scores_of(corners, faces, candidates)

    def scores_of(self, corners: FloatArray, faces: FloatArray, candidates: npt.ArrayLike) -> FloatArray:
        """:meth:`scores` of features made by :func:`print_features`.

        Two passes: each candidate is aligned with the card (the window and template variant
        that correlate best under the weight of where all enrolled cards differ); then each is
        scored at its alignment under the weight of where *these candidates* differ.
        """
        cand = np.asarray(candidates, np.int64)
        out = np.empty(cand.shape, np.float32)
        for i in range(len(cand)):
            corner = _aligned_focus(np.concatenate([_windows(c, *self.corner_weight.shape) for c in corners[i]]),
                                    self.corners[cand[i]], self.corner_rows[cand[i]], self.corner_weight)
            face = _aligned_focus(_windows(faces[i], *self.face_weight.shape), self.faces[cand[i]],
                                  self.face_rows[cand[i]], self.face_weight)
            out[i] = corner + FACE_SHARE * face
        return out

    def duel(self, card: npt.NDArray[np.uint8], candidates: Sequence[int], register: bool = True
             ) -> tuple[FloatArray, FloatArray]:
        """``card`` told from each pair of ``candidates`` (indices into ``labels``) alone:
        ``margins[a, b]`` = corner + FACE_SHARE x face of candidate a less b's, each at its own
        alignment, under the weight of where a and b differ; and ``fit`` [C]: the corner and
        face correlation of the card with each candidate at its alignment (same sum). The card
        is seen as framed and, with ``register``, registered onto each candidate's crop."""
        duel, fit, _ = self.looks(card, candidates, register)
        return duel, fit

    def looks(self, card: npt.NDArray[np.uint8], candidates: Sequence[int], register: bool = True,
              first_only: bool = False) -> tuple[FloatArray, FloatArray, FloatArray]:
        """:meth:`duel`, and the fit of each candidate to the card as the rectifier framed it
        (before any registration). ``register=False``: the card as framed only. ``first_only``:
        only the first candidate's duels with each other one (row and column 0 of the margins)."""
        cand = np.asarray(candidates, np.int64)
        views = [card]
        if REGISTER and register:
            # the card registered onto each candidate's enrolled crop too, every candidate
            # aligned within all these framings (the best for each: none favoured by a framing
            # made for it alone); a card framed well has no registration (it stays as it is)
            mine = detail_of(card)
            warps = [registration(mine, self.details[int(k)]) for k in cand]
            views += [warped(card, w) for w in warps if w is not None]
        return self._duel_in(views, cand, first_only)

    def _duel_in(self, views: Sequence[npt.NDArray[np.uint8]], cand: npt.NDArray[np.int64], first_only: bool
                 ) -> tuple[FloatArray, FloatArray, FloatArray]:
        """:meth:`looks` of the card seen as ``views`` (as framed first, then registered ones)."""
        corners, faces = print_features(views)
        # a registered view needs only the small shifts left (REGISTERED_REACH)
        reach = [None] + [REGISTERED_REACH] * (len(views) - 1)
        corner_h, corner_w = self.corner_weight.shape
        face_h, face_w = self.face_weight.shape
        corner_windows = [np.concatenate([_windows(c, corner_h, corner_w, r) for c in view])
                          for view, r in zip(corners, reach)]
        face_windows = [_windows(f, face_h, face_w, r) for f, r in zip(faces, reach)]
        corner, corner_fit, corner_framed = _duel(np.concatenate(corner_windows), self.corners[cand],
                                                  self.corner_rows[cand], self.corner_weight,
                                                  len(corner_windows[0]), first_only)
        face, face_fit, face_framed = _duel(np.concatenate(face_windows), self.faces[cand], self.face_rows[cand],
                                            self.face_weight, len(face_windows[0]), first_only)
        return (corner + FACE_SHARE * face, corner_fit + FACE_SHARE * face_fit,
                corner_framed + FACE_SHARE * face_framed)

    def with_look_alikes(self, views: Sequence[npt.NDArray[np.uint8]], cards: Sequence[int],
                         candidates: Sequence[Sequence[int]], margin: float) -> PrintBank:
        """This bank knowing which cards its print cannot tell apart: ``views[i]`` is a jittered
        view of card ``cards[i]``, told from each of ``candidates[i]`` (its neighbours) in a duel
        (:meth:`duel`); a neighbour the card does not beat by ``margin`` is a look-alike. The
        views, jittered by 2 %, are compared as framed: registering them would let two cards
        of one face tell each other apart by how their enrolment views were lit alone."""
        pairs = set(self.look_alike)
        for view, k, cand in zip(views, cards, candidates):
            others = [int(j) for j in cand if int(j) != k]
            duel, _, _ = self.looks(view, [k] + others, register=False, first_only=True)
            for j, won_by in zip(others, duel[0, 1:]):
                if float(won_by) < margin:
                    a, b = sorted((self.labels[k], self.labels[j]))
                    pairs.add((a, b))
        return replace(self, look_alike=frozenset(pairs))

    def to_json(self) -> dict[str, Any]:
        """The enrolled crops (PNG, base64): the templates are rebuilt from them on load."""
        def png(crop: npt.NDArray[np.uint8]) -> str:
            ok, buf = cv2.imencode(".png", crop)
            return base64.b64encode(buf.tobytes()).decode("ascii")

        return {"labels": list(self.labels), "decks": list(self.decks), "crops_png": [png(c) for c in self.crops],
                "look_alike": sorted(list(p) for p in self.look_alike)}

    @classmethod
    def from_json(cls, raw: Any, where: str = "print") -> PrintBank:
        try:
            labels = [str(x) for x in raw["labels"]]
            decks = [int(x) for x in raw["decks"]]
            crops = [cv2.imdecode(np.frombuffer(base64.b64decode(s), np.uint8), cv2.IMREAD_COLOR)
                     for s in raw["crops_png"]]
            alike = frozenset((str(a), str(b)) for a, b in raw.get("look_alike", []))
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelLoadError(f"{where!r}: damaged enrolled print ({exc!r}): enrol the decks again") from exc
        bad = [i for i, c in enumerate(crops) if c is None or c.shape != (RECT_H, RECT_W, 3)]
        if bad or not len(labels) == len(decks) == len(crops) or not crops:
            raise ModelLoadError(f"{where!r}: enrolled print with unreadable or missing crops "
                                 f"(cards {bad[:3]}): enrol the decks again")
        bank = cls.build([np.asarray(c, np.uint8) for c in crops if c is not None], labels, decks)
        return replace(bank, look_alike=alike)
