"""Templates of the enrolled decks: read a card by comparing it with the deck it belongs to.

With an enrolled deck the design is known exactly, so a classical matcher is strong and,
unlike the network's embedding (learnt for the card's *value*), it is sensitive to the
*design*: another deck's queen of spades does not look like ours. At enrolment each card
gives grey-level templates of its corner index (both corners, each turned upright, at a few
scales and a little blurred) and of its whole face, all from the light-normalised inputs
of :func:`vision.preprocess.preprocess`. At read time each corner of the card is compared
with every template by normalised cross-correlation over small shifts; the face likewise.

The score of an enrolled card is the best corner correlation (either corner: one may be
covered) plus a share of the face correlation. :meth:`TemplateBank.scores` returns it per
enrolled card; :mod:`vision.deck_profile` decides (minimum score, margin over the next
card, agreement with the network).

>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> cards = [rng.integers(0, 255, (280, 200, 3), dtype=np.uint8) for _ in range(2)]
>>> bank = TemplateBank.build(cards, ["QS", "KS"], [0, 0])
>>> s = bank.scores(cards)
>>> [bank.labels[int(i)] for i in s.argmax(axis=1)]
['QS', 'KS']
"""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import ModelLoadError
from vision.preprocess import CORNER_H, CORNER_W, preprocess

__all__ = ["TemplateBank", "corner_and_face_grey", "grey_of_feeds", "SCALES"]

FloatArray = npt.NDArray[np.float32]

# corner template: the corner image less this margin on each side; the margin is the shift searched
MARGIN = 3
# the corner searched at half resolution first (cheap), then the best cards at full resolution
COARSE_KEEP = 6
# the index may be framed up to ~14 % larger or smaller than at enrolment (a loose or tight crop)
SCALES = (0.88, 1.0, 1.12)
# blur of the templates (sigma, px of the 56 x 40 corner image): sharp and as a far camera sees it
BLURS = (0.0, 1.2)
LOCAL_SIGMA = 4.0  # px of the 56 x 40 corner image: about a stroke of the index wide
FACE_WEIGHT = 0.35  # the face's share of the score (the corner index decides; the face breaks ties)


def _zscore(x: FloatArray) -> FloatArray:
    """Rows of ``x`` [..., D] with mean 0 and norm 1 (flat rows stay 0)."""
    x = x - x.mean(axis=-1, keepdims=True)
    n = np.linalg.norm(x, axis=-1, keepdims=True)
    return np.asarray(x / np.maximum(n, 1e-4), np.float32)


def _local_contrast(img: FloatArray, sigma: float) -> FloatArray:
    """``img`` [..., H, W] less its local mean, over its local spread (Gaussian ``sigma`` px):
    shadows, glare and a light gradient across the card fall away, strokes stay."""
    flat = img.reshape((-1,) + img.shape[-2:])
    out = np.empty_like(flat)
    for i, x in enumerate(flat):
        hp = x - cv2.GaussianBlur(x, (0, 0), sigma)
        out[i] = hp / (np.sqrt(cv2.GaussianBlur(hp * hp, (0, 0), 1.5 * sigma)) + 0.03)
    return np.asarray(out.reshape(img.shape), np.float32)


def corner_and_face_grey(cards: Sequence[npt.NDArray[np.uint8]]) -> tuple[FloatArray, FloatArray]:
    """Grey corners [N, 2, 56, 40] (both upright) and faces [N, 44, 32], light-normalised
    (:func:`vision.preprocess.preprocess`) and local-contrast-normalised."""
    return grey_of_feeds(preprocess(list(cards)))


def grey_of_feeds(feeds: Mapping[str, npt.NDArray[np.float32]]) -> tuple[FloatArray, FloatArray]:
    """:func:`corner_and_face_grey` of feeds already made by :func:`vision.preprocess.preprocess`."""
    return (_local_contrast(np.asarray(feeds["corners"].mean(axis=2), np.float32), LOCAL_SIGMA),
            _local_contrast(np.asarray(feeds["face"].mean(axis=1), np.float32), LOCAL_SIGMA / 2))


def _scaled(img: FloatArray, scale: float, blur: float) -> FloatArray:
    """``img`` zoomed by ``scale`` about its centre, then blurred."""
    h, w = img.shape
    m = np.array([[scale, 0, (1 - scale) * w / 2], [0, scale, (1 - scale) * h / 2]], np.float32)
    out = cv2.warpAffine(img, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if blur > 0:
        out = cv2.GaussianBlur(out, (0, 0), blur)
    return np.asarray(out, np.float32)


def _weight(stack: FloatArray) -> FloatArray:
    """Where templates [K, h, w] differ from each other: their spread per pixel, 0..1.

    The card's border, its rounded corner and the paper are alike on every card of a deck;
    the index (and the face's pips and pictures) differ. Weighting by the spread makes the
    correlation look at what tells the cards apart, not at the table beside the card.
    """
    spread = stack.std(axis=0)
    top = float(np.percentile(spread, 95))
    return np.asarray(np.clip(spread / max(top, 1e-4), 0.05, 1.0), np.float32)


def _wz(x: FloatArray, weight: FloatArray) -> FloatArray:
    """``x`` [..., h, w] weighted: the weighted mean removed, times ``weight``, norm 1: [..., h*w]."""
    flat_w = weight.reshape(-1).astype(np.float32)
    v = x.reshape(x.shape[:-2] + (-1,))
    mean = (v @ flat_w) / np.float32(flat_w.sum())
    out = np.subtract(v, mean[..., None], dtype=np.float32)
    out *= flat_w
    out /= np.maximum(np.sqrt(np.einsum("...d,...d->...", out, out)), 1e-4)[..., None]
    return out


def _windows(img: FloatArray, weight: FloatArray) -> FloatArray:
    """Every window of ``img`` [..., H, W] the size of ``weight``: [..., S, h*w], weighted (:func:`_wz`)."""
    h, w = weight.shape
    v = np.lib.stride_tricks.sliding_window_view(img, (h, w), axis=(-2, -1))
    shape = v.shape[:-4] + (v.shape[-4] * v.shape[-3], h, w)
    return _wz(np.ascontiguousarray(v).reshape(shape), weight)


def _half(img: FloatArray) -> FloatArray:
    """``img`` [..., H, W] at half resolution (2 x 2 means)."""
    h, w = img.shape[-2] // 2 * 2, img.shape[-1] // 2 * 2
    x = img[..., :h, :w]
    return np.asarray((x[..., 0::2, 0::2] + x[..., 1::2, 0::2] + x[..., 0::2, 1::2] + x[..., 1::2, 1::2]) / 4,
                      np.float32)


@dataclass(frozen=True)
class TemplateBank:
    """Templates of enrolled cards: ``labels[k]``/``decks[k]`` for each card k.

    ``corners`` [K, V, h*w]: V variants (corner x scale x blur) of the index, z-scored;
    ``coarse`` the same at half resolution; ``faces`` [K, F]: the face less a margin, z-scored.
    """

    labels: tuple[str, ...]
    decks: tuple[int, ...]
    corners: FloatArray
    coarse: FloatArray
    faces: FloatArray
    weight: FloatArray  # [h, w]: where the enrolled cards differ (their indices), 0..1
    coarse_weight: FloatArray
    face_weight: FloatArray

    @classmethod
    def build(cls, cards: Sequence[npt.NDArray[np.uint8]], labels: Sequence[str], decks: Sequence[int]) -> TemplateBank:
        """Templates from one clean rectified view of each card (upright or turned: both
        corners are used)."""
        corners, faces = corner_and_face_grey(cards)
        th, tw = CORNER_H - 2 * MARGIN, CORNER_W - 2 * MARGIN
        per_card = []
        for pair in corners:
            variants = []
            for corner in pair:
                for scale in SCALES:
                    for blur in BLURS:
                        img = _scaled(corner, scale, blur)
                        variants.append(img[MARGIN:MARGIN + th, MARGIN:MARGIN + tw])
            per_card.append(np.stack(variants))
        full = np.stack(per_card)  # [K, V, th, tw]
        faces = faces[:, 2:-2, 2:-2]
        faces = np.concatenate([faces, faces[:, ::-1, ::-1]])  # a face may lie either way up
        weight, face_weight = _weight(full.reshape(-1, th, tw)), _weight(faces)
        coarse_weight = _weight(_half(full).reshape(-1, th // 2, tw // 2))
        k = len(full)
        return cls(tuple(labels), tuple(int(d) for d in decks), _wz(full, weight).reshape(k, full.shape[1], -1),
                   _wz(_half(full), coarse_weight).reshape(k, full.shape[1], -1),
                   _wz(faces, face_weight).reshape(2, k, -1).transpose(1, 0, 2).copy(),
                   weight, coarse_weight, face_weight)

    def corner_scores(self, corners: FloatArray) -> FloatArray:
        """Best correlation of each card's corners [N, 2, H, W] with each enrolled card: [N, K]."""
        n, k = len(corners), len(self.labels)
        th, tw = CORNER_H - 2 * MARGIN, CORNER_W - 2 * MARGIN
        coarse_q = _windows(_half(corners), self.coarse_weight)  # [N, 2, S, d]
        q = coarse_q.reshape(n, -1, coarse_q.shape[-1])  # [N, 2S, d]
        coarse = (q @ self.coarse.reshape(-1, self.coarse.shape[-1]).T).reshape(n, q.shape[1], k, -1)
        coarse_best = coarse.max(axis=(1, 3))  # [N, K]
        keep = min(COARSE_KEEP, k)
        out = np.full((n, k), -1.0, np.float32)
        fine_q = _windows(corners, self.weight).reshape(n, -1, th * tw)  # [N, 2S', D]
        for i in range(n):
            top = np.argpartition(-coarse_best[i], keep - 1)[:keep]
            t = self.corners[top].reshape(-1, th * tw)  # [keep*V, D]
            fine = (fine_q[i] @ t.T).reshape(-1, keep, self.corners.shape[1])
            out[i, top] = fine.max(axis=(0, 2))
            rest = np.ones(k, bool)
            rest[top] = False
            out[i, rest] = np.minimum(coarse_best[i, rest], out[i, top].min()) - 0.05
        return out

    def face_scores(self, faces: FloatArray) -> FloatArray:
        """Best correlation of each face [N, 44, 32] with each enrolled face over +-2 px: [N, K]."""
        q = _windows(faces, self.face_weight)  # [N, 25, F]
        k = len(self.labels)
        return np.asarray((q @ self.faces.reshape(2 * k, -1).T).reshape(len(faces), -1, k, 2).max(axis=(1, 3)),
                          np.float32)

    def scores(self, cards: Sequence[npt.NDArray[np.uint8]]) -> FloatArray:
        """The match score of each rectified card with each enrolled card: [N, K]."""
        corners, faces = corner_and_face_grey(cards)
        return self.scores_of(corners, faces)

    def scores_of(self, corners: FloatArray, faces: FloatArray) -> FloatArray:
        return np.asarray(self.corner_scores(corners) + FACE_WEIGHT * self.face_scores(faces), np.float32)

    def to_json(self) -> dict[str, Any]:
        def pack(a: FloatArray) -> dict[str, Any]:
            q = np.clip(np.round(a * 127 / max(float(np.abs(a).max()), 1e-6)), -127, 127).astype(np.int8)
            return {"shape": list(a.shape), "scale": float(np.abs(a).max()) / 127,
                    "int8": base64.b64encode(q.tobytes()).decode("ascii")}

        return {"labels": list(self.labels), "decks": list(self.decks), "corners": pack(self.corners),
                "coarse": pack(self.coarse), "faces": pack(self.faces), "weight": pack(self.weight),
                "coarse_weight": pack(self.coarse_weight), "face_weight": pack(self.face_weight)}

    @classmethod
    def from_json(cls, raw: Any, where: str = "templates") -> TemplateBank:
        def unpack(d: Any) -> FloatArray:
            a = np.frombuffer(base64.b64decode(d["int8"]), np.int8).astype(np.float32) * float(d["scale"])
            return np.asarray(a.reshape([int(s) for s in d["shape"]]), np.float32)

        try:
            bank = cls(tuple(str(x) for x in raw["labels"]), tuple(int(x) for x in raw["decks"]),
                       unpack(raw["corners"]), unpack(raw["coarse"]), unpack(raw["faces"]), unpack(raw["weight"]),
                       unpack(raw["coarse_weight"]), unpack(raw["face_weight"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelLoadError(f"{where!r}: damaged card templates ({exc!r}): enrol the decks again") from exc
        if not len(bank.labels) == len(bank.decks) == len(bank.corners) == len(bank.faces):
            raise ModelLoadError(f"{where!r}: card templates of different lengths: enrol the decks again")
        return bank
