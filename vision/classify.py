"""Read a rectified card: rank and suit, a back, or "not sure".

A :class:`Classifier` turns a batch of rectified cards (BGR uint8, (280, 200, 3), see
:mod:`vision.rectify`) into one :class:`CardReading` each. Model output is converted
at the edge by :func:`from_onnx_output`, so nothing after it sees logits.

The reject option: a reading has ``label=None`` when the best class is ``"none"``
(not a card face), when its calibrated probability is under the model's
``accept_threshold``, or when it is ``"back"`` (then ``face_down=True``). An uncertain
reading never becomes a card.

>>> import numpy as np
>>> classes = ["QS", "back", "none"]
>>> [r.label for r in from_onnx_output(np.array([[4.0, 0, 0], [0, 0, 5.0]]), classes, 1.0, 0.9)]
[Card.parse('QS'), None]
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from engine.cards import Card
from vision.errors import ModelLoadError, VisionError
from vision.preprocess import RECT_H, RECT_W, preprocess

__all__ = [
    "BACK",
    "NONE",
    "CardReading",
    "Classifier",
    "ClassifierMeta",
    "FakeClassifier",
    "OnnxClassifier",
    "combine_readings",
    "default_model_paths",
    "from_onnx_output",
]

BACK = "back"
NONE = "none"
_MODELS = Path(__file__).resolve().parent.parent / "models"


@dataclass(frozen=True, slots=True)
class CardReading:
    """One card's reading: ``label`` None unless sure; ``best`` is the top class anyway."""

    label: Card | None
    confidence: float
    face_down: bool = False
    best: str = NONE

    @classmethod
    def unsure(cls, best: str = NONE, confidence: float = 0.0) -> CardReading:
        return cls(None, confidence, False, best)


class Classifier(Protocol):
    """Reads a batch of rectified cards, one :class:`CardReading` per card, in order."""

    def classify(self, rectified_cards: Sequence[npt.NDArray[np.uint8]]) -> list[CardReading]: ...


@dataclass(frozen=True, slots=True)
class ClassifierMeta:
    """``models/card_classifier.json``: what the logits mean and how far to trust them."""

    classes: tuple[str, ...]
    temperature: float
    input_names: tuple[str, ...]
    accept_threshold: float

    @classmethod
    def load(cls, path: str | Path) -> ClassifierMeta:
        where = str(path)
        try:
            raw = json.loads(Path(path).read_text(encoding="utf-8-sig"))
        except OSError as exc:
            raise ModelLoadError(f"{where!r}: cannot read the model metadata ({exc.strerror})") from exc
        except json.JSONDecodeError as exc:
            raise ModelLoadError(f"{where!r}: not JSON (line {exc.lineno}: {exc.msg})") from exc
        except UnicodeDecodeError as exc:
            raise ModelLoadError(f"{where!r}: not UTF-8 text (byte {exc.start}): not model metadata") from None
        return cls.from_dict(raw, where)

    @classmethod
    def from_dict(cls, raw: Any, where: str = "metadata") -> ClassifierMeta:
        try:
            classes = tuple(str(c) for c in raw["classes"])
            meta = cls(classes, float(raw["temperature"]), tuple(str(n) for n in raw["input_names"]),
                       float(raw["accept_threshold"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelLoadError(
                f"{where!r}: needs classes, temperature, input_names, accept_threshold ({exc!r})") from exc
        for name in classes:
            if name not in (BACK, NONE):
                try:
                    Card.parse(name)
                except ValueError as exc:
                    raise ModelLoadError(f"{where!r}: class {name!r} is not a card, 'back' or 'none'") from exc
        if meta.temperature <= 0 or not 0 < meta.accept_threshold <= 1:
            raise ModelLoadError(f"{where!r}: temperature must be > 0 and accept_threshold in (0, 1], "
                                 f"got {meta.temperature} and {meta.accept_threshold}")
        return meta


def _softmax(logits: npt.NDArray[np.float32], temperature: float) -> npt.NDArray[np.float32]:
    z = logits.astype(np.float64) / temperature
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return np.asarray(e / e.sum(axis=1, keepdims=True), dtype=np.float32)


def from_onnx_output(logits: npt.ArrayLike, classes: Sequence[str], temperature: float,
                     accept_threshold: float) -> list[CardReading]:
    """Readings from raw logits ``[N, len(classes)]``: calibrated softmax, then the reject rule."""
    arr = np.asarray(logits, np.float32)
    if arr.ndim != 2 or arr.shape[1] != len(classes):
        raise VisionError(f"logits must have shape (n, {len(classes)}), got {arr.shape}")
    probs = _softmax(arr, temperature)
    out = []
    for row in probs:
        k = int(row.argmax())
        name, p = classes[k], float(row[k])
        if name == NONE or p < accept_threshold:
            out.append(CardReading.unsure(name, p))
        elif name == BACK:
            out.append(CardReading(None, p, True, BACK))
        else:
            out.append(CardReading(Card.parse(name), p, False, name))
    return out


def combine_readings(a: CardReading, b: CardReading) -> CardReading:
    """Two readings of one card (two views of it): agree, or keep the only sure one.

    Two sure readings that disagree give an unsure one: a wrong card costs more than a
    re-read. A sure card beats a back, which beats an unsure reading.
    """
    if a.label is not None and b.label is not None:
        if a.label == b.label:
            return CardReading(a.label, max(a.confidence, b.confidence), False, a.best)
        return CardReading.unsure(a.best if a.confidence >= b.confidence else b.best, 0.0)
    if a.label is not None or b.label is not None:
        return a if a.label is not None else b
    if a.face_down or b.face_down:
        return a if a.face_down and (not b.face_down or a.confidence >= b.confidence) else b
    return a if a.confidence >= b.confidence else b


def default_model_paths() -> tuple[Path, Path]:
    return _MODELS / "card_classifier.onnx", _MODELS / "card_classifier.json"


class OnnxClassifier:
    """The trained model through onnxruntime, on the CPU, batched."""

    def __init__(self, model_path: str | Path | None = None, meta_path: str | Path | None = None,
                 threads: int = 2) -> None:
        default_model, default_meta = default_model_paths()
        self.model_path = Path(model_path) if model_path else default_model
        self.meta = ClassifierMeta.load(meta_path if meta_path else default_meta)
        if not self.model_path.is_file():
            raise ModelLoadError(f"{str(self.model_path)!r}: no model file (run models/build_models.sh)")
        import onnxruntime as ort  # type: ignore[import-untyped]  # only reading needs it

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        # no busy-waiting between runs: detection needs those cores right after
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            self._session = ort.InferenceSession(str(self.model_path), options,
                                                 providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own untyped errors
            raise ModelLoadError(f"{str(self.model_path)!r}: onnxruntime cannot load it ({exc})") from exc
        names = tuple(i.name for i in self._session.get_inputs())
        if set(names) != set(self.meta.input_names):
            raise ModelLoadError(f"{str(self.model_path)!r}: inputs {names} differ from the metadata's "
                                 f"{self.meta.input_names}")

    def logits(self, rectified_cards: Sequence[npt.NDArray[np.uint8]]) -> npt.NDArray[np.float32]:
        feeds = preprocess(list(rectified_cards))
        if len(rectified_cards) == 0:
            return np.zeros((0, len(self.meta.classes)), np.float32)
        out = self._session.run(None, {name: feeds[name] for name in self.meta.input_names})
        return np.asarray(out[0], np.float32)

    def classify(self, rectified_cards: Sequence[npt.NDArray[np.uint8]]) -> list[CardReading]:
        m = self.meta
        return from_onnx_output(self.logits(rectified_cards), m.classes, m.temperature, m.accept_threshold)


class FakeClassifier:
    """A classifier for tests that documents the contract.

    It checks every card the way the real one needs them (a list of BGR uint8 arrays of
    shape (280, 200, 3)) and answers with ``answer(card_image, index_in_batch)``, by
    default an unsure reading. It counts batches and cards, so tests can check batching.

    >>> import numpy as np
    >>> fake = FakeClassifier(lambda img, i: CardReading(Card.parse('7H'), 0.99))
    >>> fake.classify([np.zeros((280, 200, 3), np.uint8)])[0].label
    Card.parse('7H')
    >>> fake.batches, fake.cards_seen
    (1, 1)
    """

    def __init__(self, answer: Callable[[npt.NDArray[np.uint8], int], CardReading] | None = None) -> None:
        self._answer = answer or (lambda _img, _i: CardReading.unsure())
        self.batches = 0
        self.cards_seen = 0

    def classify(self, rectified_cards: Sequence[npt.NDArray[np.uint8]]) -> list[CardReading]:
        for i, card in enumerate(rectified_cards):
            if not isinstance(card, np.ndarray) or card.shape != (RECT_H, RECT_W, 3) or card.dtype != np.uint8:
                raise VisionError(f"card {i}: expected BGR uint8 of shape ({RECT_H}, {RECT_W}, 3), got "
                                  f"{getattr(card, 'shape', type(card).__name__)}")
        self.batches += 1
        self.cards_seen += len(rectified_cards)
        return [self._answer(card, i) for i, card in enumerate(rectified_cards)]
