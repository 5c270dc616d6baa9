"""The index-corner reader: one network that reads a card's index (rank over suit) alone.

It reads the corner boxes :func:`vision.corners.corner_boxes` cuts (BGR uint8
``[N, CORNER_H, CORNER_W, 3]``, the rank's centre at the box's anchor) and says, for each,
the rank (13), the suit (4) and whether the box shows an index at all (not a pair of a
card's pips, court art, table clutter, a box half off the card or a corner covered by
another card). Trained on rendered designs only (``models/train_index_reader.py``; figures
in models/MODEL_CARD.md); run here through onnxruntime, with no torch.

>>> reader = IndexReader()
>>> reader.read(np.full((2, CORNER_H, CORNER_W, 3), 200, np.uint8)).index.shape
(2,)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import onnxruntime as ort

from engine.cards import Card, Suit
from vision.preprocess import CORNER_H, CORNER_W

__all__ = ["DEFAULT_MODEL", "IndexReader", "IndexReadings", "default_index_reader"]

DEFAULT_MODEL = Path(__file__).resolve().parent.parent / "models" / "index_reader.onnx"
_SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)  # the suit head's order
Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class IndexReadings:
    """Probabilities for N boxes: ``rank`` [N, 13] (A..K), ``suit`` [N, 4] (C, D, H, S) and
    ``index`` [N] (the box shows an index)."""

    rank: Floats
    suit: Floats
    index: Floats

    def __len__(self) -> int:
        return len(self.index)

    def cards(self) -> list[Card]:
        """Each box's best card (its best rank with its best suit)."""
        return [Card(int(r) + 1, _SUITS[int(s)])
                for r, s in zip(self.rank.argmax(axis=1), self.suit.argmax(axis=1), strict=True)]

    def sureness(self) -> Floats:
        """How sure each reading is: the rank's, the suit's and the index's probabilities
        multiplied (a reading is as sure as its least sure part, and then some)."""
        return np.asarray(self.rank.max(axis=1) * self.suit.max(axis=1) * self.index)

    def card_probs(self) -> Floats:
        """[N, 52]: each card's probability (``engine.cards`` order: index = suit * 13 + rank - 1),
        the rank's times the suit's times the index's."""
        joint = self.suit[:, :, None] * self.rank[:, None, :] * self.index[:, None, None]
        return np.asarray(joint.reshape(len(self), 52))

    @staticmethod
    def mean(parts: list[IndexReadings]) -> IndexReadings:
        """The mean over several views of the same boxes."""
        return IndexReadings(np.mean([p.rank for p in parts], axis=0), np.mean([p.suit for p in parts], axis=0),
                             np.mean([p.index for p in parts], axis=0))


def _softmax(z: npt.NDArray[np.float32], temperature: float) -> Floats:
    z64 = z.astype(np.float64) / temperature
    e = np.exp(z64 - z64.max(axis=1, keepdims=True))
    return np.asarray(e / e.sum(axis=1, keepdims=True))


class IndexReader:
    """``models/index_reader.onnx`` and its metadata (``index_reader.json`` beside it), or
    several such files read as one (the mean of their probabilities, each at its own
    temperature: how a bench measures an ensemble; the dealer reads with the one shipped)."""

    def __init__(self, model: str | Path | Sequence[str | Path] = DEFAULT_MODEL) -> None:
        models = [Path(model)] if isinstance(model, (str, Path)) else [Path(m) for m in model]
        if not models:
            raise ValueError("an index reader needs at least one model file")
        self._members = [_Member(m) for m in models]
        self.version = "+".join(m.version for m in self._members)
        self.accept_threshold = self._members[0].accept_threshold

    def read(self, boxes: npt.NDArray[np.uint8], batch: int = 512) -> IndexReadings:
        """The readings of ``boxes`` (BGR uint8 [N, CORNER_H, CORNER_W, 3]): with several
        model files, the mean of their probabilities."""
        if boxes.ndim != 4 or boxes.shape[1:] != (CORNER_H, CORNER_W, 3):
            raise ValueError(f"corner boxes must be [N, {CORNER_H}, {CORNER_W}, 3] BGR, got {boxes.shape}")
        return IndexReadings.mean([m.read(boxes, batch) for m in self._members])


class _Member:
    """One model file of a reader and its metadata."""

    def __init__(self, model: Path) -> None:
        meta_path = model.with_suffix(".json")
        if not model.exists() or not meta_path.exists():
            raise FileNotFoundError(f"index reader model {model} or its metadata {meta_path.name} is missing "
                                    "(python -m models.train_index_reader writes them)")
        meta = json.loads(meta_path.read_text())
        self.version = str(meta["version"])
        self.temperature = float(meta["temperature"])
        self.accept_threshold = float(meta["accept_threshold"])
        ranks = [str(r) for r in meta["ranks"]]
        if [Card.parse(f"{r}C").rank for r in ranks] != list(range(1, 14)) or "".join(meta["suits"]) != "CDHS":
            raise ValueError(f"{meta_path}: ranks must be A..K and suits C, D, H, S, got {ranks} {meta['suits']}")
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        self.session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])

    def read(self, boxes: npt.NDArray[np.uint8], batch: int) -> IndexReadings:
        ranks, suits, index = [], [], []
        for start in range(0, len(boxes), batch):
            x = boxes[start:start + batch].transpose(0, 3, 1, 2).astype(np.float32) / np.float32(255)
            r, s, i = self.session.run(None, {"boxes": np.ascontiguousarray(x)})
            ranks.append(_softmax(np.asarray(r), self.temperature))
            suits.append(_softmax(np.asarray(s), self.temperature))
            index.append(1 / (1 + np.exp(-np.asarray(i, np.float64)[:, 0])))
        if not ranks:
            return IndexReadings(np.zeros((0, 13)), np.zeros((0, 4)), np.zeros(0))
        return IndexReadings(np.concatenate(ranks), np.concatenate(suits), np.concatenate(index))


@lru_cache(maxsize=2)
def default_index_reader(model: Path = DEFAULT_MODEL) -> IndexReader:
    """One reader per model file, loaded once per process."""
    return IndexReader(model)
