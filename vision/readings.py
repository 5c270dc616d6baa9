"""The one type every vision stage passes on: cards found in a frame, as parallel arrays.

Modelled on supervision's ``Detections``: a dataclass of numpy arrays of one length
``n``, checked in ``__post_init__``; a boolean mask or an index array gives a new
record; nothing mutates a record once made.

Conventions:

- ``quad_xy`` (n, 4, 2) float32, image pixels: the four corners of each card, in the
  order top-left, top-right, bottom-right, bottom-left of the card seen upright in
  portrait (corner 0 -> 1 is a short side). Which short side is "top" is not known
  before reading (0 and 180 degrees look alike to the geometry).
- ``label`` (n,) object: an :class:`engine.cards.Card`, or ``None`` when the card was
  not read with confidence (a back, a cut card, an unsure reading).
- ``confidence`` (n,) float32 in [0, 1]: calibrated probability of ``label`` (for a
  ``None`` label: of the best guess, for information only).
- ``face_down`` (n,) bool: the classifier saw a card back.
- ``cut`` (n,) bool: the card touches the frame edge; it is never read.
- ``over_shoe`` (n,) bool: the label would make more copies than the shoe holds (C1),
  so it is a misreading to re-check, not a fact.
- ``under`` (n,) bool: a card under another, known by its paper and outline showing
  round the cards on it, with no index showing to read it by; never read.
- ``maybe`` (n,) object: for a card not read, the cards the reader says it may be (a
  frozenset of :class:`engine.cards.Card`, :attr:`vision.classify.CardReading.maybe`), or
  ``None`` when not known; ``None`` for a card read.

>>> dets = CardDetections.empty()
>>> len(dets), dets.to_json_cards()
(0, [])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.cards import Card
from vision.errors import DetectionsShapeError

__all__ = ["CardDetections"]

FloatArray = npt.NDArray[np.float32]
BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]
ObjectArray = npt.NDArray[np.object_]


def _object_array(values: Sequence[object]) -> ObjectArray:
    out = np.empty(len(values), dtype=object)
    for i, value in enumerate(values):
        out[i] = value
    return out


@dataclass(frozen=True, eq=False, init=False)
class CardDetections:
    quad_xy: FloatArray
    label: ObjectArray
    confidence: FloatArray
    face_down: BoolArray
    cut: BoolArray
    over_shoe: BoolArray
    maybe: ObjectArray
    under: BoolArray

    def __init__(self, quad_xy: npt.ArrayLike, label: Sequence[Card | None] | ObjectArray | None = None,
                 confidence: npt.ArrayLike | None = None, face_down: npt.ArrayLike | None = None,
                 cut: npt.ArrayLike | None = None, over_shoe: npt.ArrayLike | None = None,
                 maybe: Sequence[frozenset[Card] | None] | ObjectArray | None = None,
                 under: npt.ArrayLike | None = None) -> None:
        """Arrays or lists; left out, a column takes its neutral value (no label, 0, False)."""
        quad = np.asarray(quad_xy, dtype=np.float32)
        if quad.size == 0:
            quad = quad.reshape(0, 4, 2)
        if quad.ndim != 3 or quad.shape[1:] != (4, 2):
            raise DetectionsShapeError(f"quad_xy must have shape (n, 4, 2), got {quad.shape}")
        n = quad.shape[0]
        object.__setattr__(self, "quad_xy", quad)
        labels = _object_array([None] * n) if label is None else (
            label if isinstance(label, np.ndarray) else _object_array(list(label)))
        columns: dict[str, Any] = {
            "label": labels,
            "confidence": np.zeros(n, np.float32) if confidence is None else np.asarray(confidence, np.float32),
            "face_down": np.zeros(n, bool) if face_down is None else np.asarray(face_down, bool),
            "cut": np.zeros(n, bool) if cut is None else np.asarray(cut, bool),
            "over_shoe": np.zeros(n, bool) if over_shoe is None else np.asarray(over_shoe, bool),
            "maybe": _object_array([None] * n) if maybe is None else (
                maybe if isinstance(maybe, np.ndarray) else _object_array(list(maybe))),
            "under": np.zeros(n, bool) if under is None else np.asarray(under, bool),
        }
        for name, array in columns.items():
            if array.shape != (n,):
                raise DetectionsShapeError(
                    f"{name} must have shape ({n},) to match quad_xy, got {array.shape}")
            object.__setattr__(self, name, array)
        for i, value in enumerate(self.label):
            if value is not None and not isinstance(value, Card):
                raise DetectionsShapeError(f"label[{i}] must be a Card or None, got {value!r}")
        if n and (np.any(self.confidence < 0) or np.any(self.confidence > 1)):
            raise DetectionsShapeError(f"confidence must lie in [0, 1], got {self.confidence!r}")

    @classmethod
    def empty(cls) -> CardDetections:
        return cls(quad_xy=np.zeros((0, 4, 2), np.float32))

    def __len__(self) -> int:
        return int(self.quad_xy.shape[0])

    def __getitem__(self, index: BoolArray | IntArray | Sequence[int] | Sequence[bool] | slice
                    ) -> CardDetections:
        """A new record of the selected cards (boolean mask, index array or slice)."""
        if isinstance(index, slice):
            picked: Any = index
        else:
            picked = np.asarray(index)
            if picked.dtype == bool and picked.shape != (len(self),):
                raise DetectionsShapeError(
                    f"a mask must have shape ({len(self)},), got {picked.shape}")
            if picked.dtype != bool:
                picked = picked.astype(np.int64).reshape(-1)
        return CardDetections(
            quad_xy=self.quad_xy[picked].reshape(-1, 4, 2),
            label=self.label[picked].reshape(-1),
            confidence=self.confidence[picked].reshape(-1),
            face_down=self.face_down[picked].reshape(-1),
            cut=self.cut[picked].reshape(-1),
            over_shoe=self.over_shoe[picked].reshape(-1),
            maybe=self.maybe[picked].reshape(-1),
            under=self.under[picked].reshape(-1),
        )

    def with_quads(self, quad_xy: npt.ArrayLike) -> CardDetections:
        """The same cards with new outlines (a fitted rim, another picture's pixels)."""
        return CardDetections(quad_xy=quad_xy, label=self.label, confidence=self.confidence,
                              face_down=self.face_down, cut=self.cut, over_shoe=self.over_shoe, maybe=self.maybe,
                              under=self.under)

    @classmethod
    def concatenate(cls, parts: Sequence[CardDetections]) -> CardDetections:
        if not parts:
            return cls.empty()
        return cls(
            quad_xy=np.concatenate([p.quad_xy for p in parts]),
            label=np.concatenate([p.label for p in parts]),
            confidence=np.concatenate([p.confidence for p in parts]),
            face_down=np.concatenate([p.face_down for p in parts]),
            cut=np.concatenate([p.cut for p in parts]),
            over_shoe=np.concatenate([p.over_shoe for p in parts]),
            maybe=np.concatenate([p.maybe for p in parts]),
            under=np.concatenate([p.under for p in parts]),
        )

    @property
    def center_xy(self) -> FloatArray:
        """(n, 2) mean of the four corners."""
        return np.asarray(self.quad_xy.mean(axis=1), dtype=np.float32)

    @property
    def area_px(self) -> FloatArray:
        """(n,) area of each quad in square pixels (shoelace)."""
        x, y = self.quad_xy[..., 0], self.quad_xy[..., 1]
        area = 0.5 * np.abs(np.sum(x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y, axis=1))
        return np.asarray(area, dtype=np.float32)

    @property
    def is_read(self) -> BoolArray:
        """Cards that count as read: a label, not cut, not under another, not flagged over
        the shoe (C1)."""
        has_label = np.array([value is not None for value in self.label], dtype=bool)
        return has_label & ~self.cut & ~self.over_shoe & ~self.under

    def read_cards(self) -> list[Card]:
        """The cards read with confidence, in record order."""
        return [card for card, ok in zip(self.label, self.is_read) if ok]

    def to_json_cards(self, ndigits: int = 1) -> list[dict[str, Any]]:
        """The ``cards`` list of ``eleusis read --json``.

        ``card`` is ``None`` unless :attr:`is_read`; ``face_down``, ``cut``, ``under`` and
        ``over_shoe`` appear only when true (``over_shoe`` then keeps the misread label
        under ``"misread"``); ``maybe`` (the cards an unread card may be, sorted) only when
        known.
        """
        out: list[dict[str, Any]] = []
        for i in range(len(self)):
            label = self.label[i]
            read = bool(self.is_read[i])
            item: dict[str, Any] = {
                "card": str(label) if read else None,
                "confidence": round(float(self.confidence[i]), 3),
                "corners": [[round(float(x), ndigits), round(float(y), ndigits)]
                            for x, y in self.quad_xy[i]],
            }
            if self.face_down[i]:
                item["face_down"] = True
            if self.cut[i]:
                item["cut"] = True
            if self.under[i]:
                item["under"] = True
            if self.over_shoe[i]:
                item["over_shoe"] = True
                item["misread"] = str(label)
            if not read and self.maybe[i] is not None:
                item["maybe"] = sorted(str(c) for c in self.maybe[i])
            out.append(item)
        return out

    @classmethod
    def from_json_cards(cls, items: Sequence[dict[str, Any]]) -> CardDetections:
        """Inverse of :meth:`to_json_cards` (a flagged label comes back from ``misread``)."""
        quads, labels, conf, down, cut, over, under = [], [], [], [], [], [], []
        maybe: list[frozenset[Card] | None] = []
        for i, item in enumerate(items):
            try:
                quads.append(np.asarray(item["corners"], np.float32))
                text = item.get("card") or item.get("misread")
                labels.append(Card.parse(text) if text else None)
                conf.append(float(item["confidence"]))
                maybe.append(None if item.get("maybe") is None else frozenset(Card.parse(c) for c in item["maybe"]))
            except (KeyError, TypeError, ValueError) as exc:
                raise DetectionsShapeError(f"card {i}: {item!r} is not a card reading ({exc})") from exc
            down.append(bool(item.get("face_down", False)))
            cut.append(bool(item.get("cut", False)))
            over.append(bool(item.get("over_shoe", False)))
            under.append(bool(item.get("under", False)))
        if not items:
            return cls.empty()
        return cls(quad_xy=np.stack(quads), label=labels, confidence=np.asarray(conf, np.float32),
                   face_down=down, cut=cut, over_shoe=over, maybe=maybe, under=under)
