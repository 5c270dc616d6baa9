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

import copy
import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from engine.cards import Card
from vision.errors import ModelLoadError, VisionError, load_json_file
from vision.preprocess import RECT_H, RECT_W, preprocess
from vision.views import View, view_feeds, views_from_metadata

__all__ = [
    "BACK",
    "MAYBE_P",
    "NONE",
    "CardReading",
    "Classifier",
    "ClassifierMeta",
    "FakeClassifier",
    "OnnxClassifier",
    "accept_mask",
    "index_doubts",
    "mean_view_probs",
    "views_agree",
    "second_opinion_agrees",
    "combine_readings",
    "default_model_paths",
    "from_onnx_output",
    "maybe_cards",
    "union_of_maybe",
]

BACK = "back"
NONE = "none"
# An unsure reading's cards it may be (CardReading.maybe): every card of at least this
# calibrated probability (the mean over the views). The largest value whose sets hold the
# card shown for >= 99 % of the unsure readings of the calibration designs under the hard
# recipe (models/MODEL_CARD.md: 1,000 samples a design, seed 901): 99.3 % there (plain
# 100 %), 14-18 cards a set; 0.005 held 98.5 %. Checked after on the test designs: 99.9 %
# hard, 100 % plain (sets of 14 and 7 cards). A card laid again that is none of them is
# another card (dealer/table/protocol.py).
MAYBE_P = 0.003
# A number card whose pips are its rank but which no corner reads is taken only when neither
# the card's heads nor its face give its twin (the other suit of its colour) this much: the
# pips count the rank, not the suit. Chosen on the calibration designs (1,500 plain and 1,500
# hard samples, seeds 901/902) and made-up calibration decks (seed 555): at 0.05 none of the
# cards it adds is wrong (without it, a 7S and a 10S of the hard recipe read as clubs); 0.01
# takes fewer right ones, no fewer wrong (models/MODEL_CARD.md).
PIP_TWIN_DOUBT = 0.05
# ... and it needs this confidence (the mean over the views) instead of the rule's threshold,
# as the index reader's check does (min_own). On the same sets, 0.5 instead of the threshold
# took 2.0 points more of the calibration designs' plain cards and 1.2 of the hard ones, with
# no wrong reading added; 0.8 took fewer.
PIP_MIN_OWN = 0.5
_MODELS = Path(__file__).resolve().parent.parent / "models"


@dataclass(frozen=True, slots=True)
class CardReading:
    """One card's reading: ``label`` None unless sure; ``best`` is the top class anyway."""

    label: Card | None
    confidence: float
    face_down: bool = False
    best: str = NONE
    reason: str = ""  # why an unsure reading is unsure, when known (e.g. not the enrolled deck)
    # the cards it may be (probability >= MAYBE_P): what an unsure card can be told apart
    # from (a card laid again must be one of them); None when not known (no restriction)
    maybe: frozenset[Card] | None = None

    @classmethod
    def unsure(cls, best: str = NONE, confidence: float = 0.0, reason: str = "",
               maybe: frozenset[Card] | None = None) -> CardReading:
        return cls(None, confidence, False, best, reason, maybe)


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
    agreement: tuple[tuple[str, float], ...] = ()  # corner/face vetoes (see accept_mask); () = none
    output_names: tuple[str, ...] = ("logits",)
    version: str = "1"
    # another model whose sure reading is accepted when this model's best class is the same
    # card (and, with min_own > 0, its parts agree and it gives that card at least min_own):
    # (model file next to the metadata, temperature, accept threshold, min_own); None: none
    second_opinion: tuple[str, float, float, float] | None = None
    # the stricter rule of one still image (`eleusis read`): (accept threshold, the second
    # model's threshold, min_own); None: the same rule as live play
    still_image_rule: tuple[float, float, float] | None = None
    # test-time views of the rule in force (metadata "views"; see vision.views): when
    # given, a card is read in each view too, the thresholds apply to the mean calibrated
    # probability over the views, and every view must name the same class
    views: tuple[View, ...] = ()
    still_image_views: tuple[View, ...] = ()  # the views of the still-image rule
    # a number card refused only because the face head names another card is taken when the
    # pips counted on its face are the rank its indices read (vision/pips.py); metadata "pip_check"
    pip_check: bool = False
    # a card refused by the rule is taken when every view names it, the network gives it at
    # least this (the mean over the views) and the index reader reads it at the card's own
    # corners, no other card on it (vision/own_index.py); metadata "index_check"; None: no check
    index_check: float | None = None
    # whether that reading outvotes model 2.0's own corner head (its reading of another card,
    # its doubts of an ace, a jack or a queen): metadata "index_check"'s "over_corner_head"
    index_check_over_corner_head: bool = False

    @classmethod
    def load(cls, path: str | Path) -> ClassifierMeta:
        return cls.from_dict(load_json_file(path, "model metadata", "model metadata"), str(path))

    @classmethod
    def from_dict(cls, raw: Any, where: str = "metadata") -> ClassifierMeta:
        try:
            classes = tuple(str(c) for c in raw["classes"])
            meta = cls(classes, float(raw["temperature"]), tuple(str(n) for n in raw["input_names"]),
                       float(raw["accept_threshold"]),
                       tuple((str(k), float(v)) for k, v in dict(raw.get("agreement") or {}).items()),
                       tuple(str(n) for n in raw.get("output_names", ["logits"])), str(raw.get("version", "1")),
                       _second_opinion(raw.get("second_opinion")))
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelLoadError(
                f"{where!r}: needs classes, temperature, input_names, accept_threshold ({exc!r})") from exc
        still = raw.get("still_image_rule")
        meta = dataclasses.replace(meta, still_image_rule=_still_rule(still, where),
                                   pip_check=raw.get("pip_check", False) is True,
                                   index_check=_index_check(raw.get("index_check"), where),
                                   index_check_over_corner_head=_over_corner_head(raw.get("index_check"), where),
                                   views=views_from_metadata(raw.get("views"), where, "views"),
                                   still_image_views=views_from_metadata(
                                       still.get("views") if isinstance(still, dict) else None, where,
                                       "still_image_rule.views"))
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


def _index_check(raw: Any, where: str) -> float | None:
    if raw is None:
        return None
    try:
        min_own = float(raw["min_own"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ModelLoadError(f"{where!r}: index_check needs min_own, a probability ({exc!r})") from exc
    if not 0 <= min_own <= 1:
        raise ModelLoadError(f"{where!r}: index_check's min_own must lie in [0, 1], got {min_own}")
    return min_own


def _over_corner_head(raw: Any, where: str) -> bool:
    over = raw.get("over_corner_head", False) if isinstance(raw, dict) else False
    if not isinstance(over, bool):
        raise ModelLoadError(f"{where!r}: index_check's over_corner_head must be true or false, got {over!r}")
    return over


def _second_opinion(raw: Any) -> tuple[str, float, float, float] | None:
    if raw is None:
        return None
    return (str(raw["model"]), float(raw["temperature"]), float(raw["accept_threshold"]),
            float(raw.get("min_own", 0.0)))


def _still_rule(raw: Any, where: str) -> tuple[float, float, float] | None:
    if raw is None:
        return None
    try:
        rule = (float(raw["accept_threshold"]), float(raw["second_threshold"]), float(raw.get("min_own", 0.0)))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ModelLoadError(f"{where!r}: still_image_rule needs numbers accept_threshold and second_threshold "
                             f"(and may give min_own, views), got {raw!r} ({exc!r})") from exc
    if not all(0 <= x <= 1 for x in rule):
        raise ModelLoadError(f"{where!r}: still_image_rule's thresholds must lie in [0, 1], got {raw!r}")
    return rule


def _softmax(logits: npt.NDArray[np.float32], temperature: float) -> npt.NDArray[np.float32]:
    z = logits.astype(np.float64) / temperature
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return np.asarray(e / e.sum(axis=1, keepdims=True), dtype=np.float32)


def maybe_cards(probs: npt.NDArray[np.floating[Any]], classes: Sequence[str]) -> frozenset[Card]:
    """The cards a reading gives at least ``MAYBE_P`` (backs and "none" are no card).

    >>> sorted(str(c) for c in maybe_cards(np.array([0.6, 0.3, 0.0005, 0.1]), ["4S", "AS", "9H", "none"]))
    ['4S', 'AS']
    """
    likely = (classes[int(k)] for k in np.flatnonzero(np.asarray(probs) >= MAYBE_P))
    return frozenset(Card.parse(name) for name in likely if name not in (BACK, NONE))


def from_onnx_output(logits: npt.ArrayLike, classes: Sequence[str], temperature: float,
                     accept_threshold: float, accepted: npt.NDArray[np.bool_] | None = None) -> list[CardReading]:
    """Readings from raw logits ``[N, len(classes)]``: calibrated softmax, then the reject rule.

    ``accepted`` (from :func:`accept_mask`) may refuse readings whose parts disagree.
    """
    arr = np.asarray(logits, np.float32)
    if arr.ndim != 2 or arr.shape[1] != len(classes):
        raise VisionError(f"logits must have shape (n, {len(classes)}), got {arr.shape}")
    probs = _softmax(arr, temperature)
    out = []
    for i, row in enumerate(probs):
        k = int(row.argmax())
        name, p = classes[k], float(row[k])
        if name == NONE or p < accept_threshold or (accepted is not None and not accepted[i]):
            out.append(CardReading.unsure(name, p, maybe=maybe_cards(row, classes)))
        elif name == BACK:
            out.append(CardReading(None, p, True, BACK))
        else:
            out.append(CardReading(Card.parse(name), p, False, name))
    return out


def accept_mask(heads: Mapping[str, npt.NDArray[np.float32]], temperature: float, threshold: float,
                agreement: Mapping[str, float] | None, n_cards: int = 52,
                classes: Sequence[str] = ()) -> npt.NDArray[np.bool_]:
    """Which readings may be accepted: confident enough, and the parts of the card agree.

    ``heads`` holds the net's outputs: ``logits`` [N, C] and, for models that have them,
    ``corner_logits`` [N, 2, C] (each corner index read alone) and ``face_logits`` [N, C]
    (the face alone). A card reading is refused when a corner reads *another card* with a
    probability of at least ``corner_veto``, when no corner reads the card at all
    (``need_corner`` 1), or when the face reads another card with at least ``face_veto``
    (the corner indices and the face must agree: an unknown design tends to split them). Classes ``>= n_cards`` (back,
    none) are judged by the threshold alone. With the class names ``classes``, the index
    must also leave no doubt on an ace, a jack or a queen (:func:`index_doubts`).

    >>> import numpy as np
    >>> h = {"logits": np.array([[5.0, 0, 0]]), "corner_logits": np.array([[[0, 5.0, 0], [5.0, 0, 0]]]),
    ...      "face_logits": np.array([[5.0, 0, 0]])}
    >>> bool(accept_mask(h, 1.0, 0.9, {"corner_veto": 0.5, "face_veto": 0.5, "need_corner": 1}, 2)[0])
    False
    """
    probs = _softmax(np.asarray(heads["logits"], np.float32), temperature)
    best = probs.argmax(axis=1)
    ok = probs.max(axis=1) >= threshold
    if not agreement:
        return np.asarray(ok, np.bool_)
    is_card = best < n_cards
    rows = np.arange(len(best))
    if "corner_logits" in heads:
        pc = _corner_probs(heads)
        top, top_p = pc.argmax(axis=2), pc.max(axis=2)
        other_card = (top != best[:, None]) & (top < n_cards) & (top_p >= agreement.get("corner_veto", 1.01))
        ok &= ~(is_card & other_card.any(axis=1))
        if agreement.get("need_corner", 0.0) >= 0.5:
            ok &= ~(is_card & ~(top == best[:, None]).any(axis=1))
        ok &= ~index_doubts(heads, best, agreement, classes, n_cards)
    if "face_logits" in heads:
        pf = _softmax(np.asarray(heads["face_logits"], np.float32), 1.0)
        ftop = pf.argmax(axis=1)
        veto = (ftop != best) & (ftop < n_cards) & (pf[rows, ftop] >= agreement.get("face_veto", 1.01))
        ok &= ~(is_card & veto)
    return np.asarray(ok, np.bool_)


def _corner_probs(heads: Mapping[str, npt.NDArray[np.float32]]) -> npt.NDArray[np.float32]:
    """[N, 2, C]: each corner index's own probabilities (``corner_logits``, temperature 1)."""
    corners = np.asarray(heads["corner_logits"], np.float32)
    return np.stack([_softmax(corners[:, i], 1.0) for i in range(corners.shape[1])], axis=1)


def index_doubts(heads: Mapping[str, npt.NDArray[np.float32]], best: npt.NDArray[np.int_],
                 agreement: Mapping[str, float] | None, classes: Sequence[str],
                 n_cards: int = 52) -> npt.NDArray[np.bool_]:
    """Where the corner indices leave a doubt that the card's face cannot settle.

    - ``ace_corner_veto``: an ace is doubted when a corner's best reading is another card
      with at least this probability. The face of an ace is one pip, which many designs
      print alone on other cards too ("a single big pip on a non-ace card read as an ace").
    - ``jack_queen_doubt``: a jack is doubted when a corner gives the queen of its suit at
      least this probability, and a queen the jack. The letter V is a jack in French decks
      (V D R) and a queen in Dutch ones (B V H A), and court pictures differ by design.

    Applied to every way a reading is accepted (a second model's too). ``best`` holds the
    class read of each card; ``classes`` names the classes (none: no doubt is raised).

    >>> import numpy as np
    >>> classes = ["AS", "2S", "JS", "QS"]
    >>> h = {"corner_logits": np.log(np.array([[[0.55, 0.35, 0.05, 0.05], [0.9, 0.04, 0.03, 0.03]],
    ...                                        [[0.02, 0.02, 0.86, 0.10], [0.02, 0.02, 0.94, 0.02]]]))}
    >>> rule = {"ace_corner_veto": 0.2, "jack_queen_doubt": 0.05}
    >>> index_doubts(h, np.array([0, 2]), rule, classes, n_cards=4).tolist()
    [False, True]
    >>> h["corner_logits"][0, 0] = np.log([0.3, 0.6, 0.05, 0.05])  # a corner reads the 2
    >>> index_doubts(h, np.array([0, 2]), {"ace_corner_veto": 0.2}, classes, n_cards=4).tolist()
    [True, False]
    """
    doubted = np.zeros(len(best), np.bool_)
    if not classes or not agreement or "corner_logits" not in heads or not len(best):
        return doubted
    pc = _corner_probs(heads)
    rows = np.arange(len(best))
    names = [classes[int(b)] for b in best]
    if "ace_corner_veto" in agreement:
        top, top_p = pc.argmax(axis=2), pc.max(axis=2)
        other = (top != best[:, None]) & (top < n_cards) & (top_p >= agreement["ace_corner_veto"])
        is_ace = np.array([name[0] == "A" for name in names], np.bool_)
        doubted |= is_ace & other.any(axis=1)
    if "jack_queen_doubt" in agreement:
        index = {name: i for i, name in enumerate(classes)}
        partner = np.array([index.get(("Q" if name[0] == "J" else "J") + name[1:], -1) if name[0] in "JQ" else -1
                            for name in names])
        court = partner >= 0
        partner_p = pc[rows, :, np.maximum(partner, 0)].max(axis=1)
        doubted |= court & (partner_p >= agreement["jack_queen_doubt"])
    return doubted


def second_opinion_agrees(heads: Mapping[str, npt.NDArray[np.float32]], temperature: float,
                          second_temperature: float, second_threshold: float) -> npt.NDArray[np.bool_]:
    """Where the second model is sure (``second_threshold``) of the class this model ranks best."""
    best = _softmax(np.asarray(heads["logits"], np.float32), temperature).argmax(axis=1)
    p2 = _softmax(np.asarray(heads["second_logits"], np.float32), second_temperature)
    return np.asarray((p2.argmax(axis=1) == best) & (p2.max(axis=1) >= second_threshold), np.bool_)


def mean_view_probs(heads: Mapping[str, npt.NDArray[np.float32]], temperature: float) -> npt.NDArray[np.float32]:
    """The calibrated probabilities averaged over the card as given and its views (``view_logits``)."""
    probs = _softmax(np.asarray(heads["logits"], np.float32), temperature)
    views = np.asarray(heads.get("view_logits", np.zeros((0,) + probs.shape, np.float32)), np.float32)
    for logits in views:
        probs = probs + _softmax(logits, temperature)
    return np.asarray(probs / (1 + len(views)), np.float32)


def views_agree(heads: Mapping[str, npt.NDArray[np.float32]]) -> npt.NDArray[np.bool_]:
    """Where every view (``view_logits`` [V, N, C]) has the same best class as the card as given."""
    best = np.asarray(heads["logits"]).argmax(axis=1)
    views = np.asarray(heads.get("view_logits", np.zeros((0,) + np.shape(heads["logits"]))))
    return np.asarray((views.argmax(axis=2) == best[None]).all(axis=0), np.bool_)


def combine_readings(a: CardReading, b: CardReading) -> CardReading:
    """Two readings of one card (two views of it): agree, or keep the only sure one.

    Two sure readings that disagree give an unsure one: a wrong card costs more than a
    re-read. A sure card beats a back, which beats an unsure reading.
    """
    if a.label is not None and b.label is not None:
        if a.label == b.label:
            return CardReading(a.label, max(a.confidence, b.confidence), False, a.best)
        return CardReading.unsure(a.best if a.confidence >= b.confidence else b.best, 0.0,
                                  maybe=union_of_maybe([a, b]))
    if a.label is not None or b.label is not None:
        return a if a.label is not None else b
    if a.face_down or b.face_down:
        return a if a.face_down and (not b.face_down or a.confidence >= b.confidence) else b
    return dataclasses.replace(a if a.confidence >= b.confidence else b, maybe=union_of_maybe([a, b]))


def union_of_maybe(readings: Sequence[CardReading]) -> frozenset[Card] | None:
    """The cards any of these readings of one card may be (a sure reading: its card; a back
    or "none" adds nothing); None when one of them does not say (then anything may be).

    >>> from engine.cards import parse_cards
    >>> union_of_maybe([CardReading.unsure("4S", 0.6, maybe=frozenset({Card.parse("4S")})),
    ...                 CardReading(Card.parse("AS"), 0.97, best="AS")]) == frozenset(parse_cards("4S AS"))
    True
    >>> union_of_maybe([CardReading.unsure("4S", 0.6)]) is None
    True
    """
    out: set[Card] = set()
    for reading in readings:
        if reading.label is not None:
            out.add(reading.label)
        elif reading.face_down:
            continue
        elif reading.maybe is None:
            return None
        else:
            out |= reading.maybe
    return frozenset(out)


def default_model_paths() -> tuple[Path, Path]:
    return _MODELS / "card_classifier.onnx", _MODELS / "card_classifier.json"


class OnnxClassifier:
    """The trained model through onnxruntime, on the CPU, batched."""

    def __init__(self, model_path: str | Path | None = None, meta_path: str | Path | None = None,
                 threads: int = 2, rule: str = "live") -> None:
        """``rule``: ``"live"`` (the metadata's accept rule) or ``"still"`` (its stricter
        ``still_image_rule`` for one still image with no later look, as `eleusis read` uses)."""
        default_model, default_meta = default_model_paths()
        self.model_path = Path(model_path) if model_path else default_model
        self.meta = ClassifierMeta.load(meta_path if meta_path else default_meta)
        self.meta = self._meta_for(rule)
        if not self.model_path.is_file():
            raise ModelLoadError(f"{str(self.model_path)!r}: no model file (run models/build_models.sh)")
        import onnxruntime as ort  # only reading needs it (untyped: see pyproject's mypy overrides)

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

        self._outputs = tuple(o.name for o in self._session.get_outputs())
        self._second: Any = None
        if self.meta.second_opinion is not None:
            second_path = Path(meta_path if meta_path else default_meta).parent / self.meta.second_opinion[0]
            try:
                self._second = ort.InferenceSession(str(second_path), options, providers=["CPUExecutionProvider"])
            except Exception as exc:  # onnxruntime raises its own untyped errors
                raise ModelLoadError(f"{str(second_path)!r}: the second-opinion model cannot be loaded ({exc})") from exc

    def _meta_for(self, rule: str) -> ClassifierMeta:
        if rule not in ("live", "still"):
            raise ValueError(f"rule must be 'live' or 'still', got {rule!r}")
        if rule == "live" or self.meta.still_image_rule is None:
            return self.meta
        hi, second, min_own = self.meta.still_image_rule
        opinion = self.meta.second_opinion
        return dataclasses.replace(self.meta, accept_threshold=hi, still_image_rule=None,
                                   views=self.meta.still_image_views, second_opinion=None if opinion is None else (opinion[0], opinion[1], second, min_own))

    def with_rule(self, rule: str) -> OnnxClassifier:
        """This classifier (the same loaded networks) under ``rule`` (``"live"`` or ``"still"``)."""
        other = copy.copy(self)
        other.meta = self._meta_for(rule)
        return other

    @property
    def output_names(self) -> tuple[str, ...]:
        return self._outputs

    @property
    def meta_version(self) -> str:
        return self.meta.version

    def heads(self, rectified_cards: Sequence[npt.NDArray[np.uint8]]) -> dict[str, npt.NDArray[np.float32]]:
        """Every output of the net (``logits``; newer models add ``corner_logits``,
        ``face_logits`` and ``embedding``), by name."""
        if len(rectified_cards) == 0:
            return {"logits": np.zeros((0, len(self.meta.classes)), np.float32)}
        return self.heads_of_feeds(preprocess(list(rectified_cards)))

    def heads_of_feeds(self, feeds: Mapping[str, npt.NDArray[np.float32]]) -> dict[str, npt.NDArray[np.float32]]:
        """:meth:`heads` for inputs already made by :func:`vision.preprocess.preprocess`."""
        feed = {name: feeds[name] for name in self.meta.input_names}
        out = self._session.run(None, feed)
        heads = {name: np.asarray(value, np.float32) for name, value in zip(self._outputs, out)}
        if self._second is not None:
            heads["second_logits"] = np.asarray(self._second.run(None, feed)[0], np.float32)
        return heads

    def heads_with_views(self, rectified_cards: Sequence[npt.NDArray[np.uint8]]) -> dict[str, npt.NDArray[np.float32]]:
        """:meth:`heads`, plus, when the rule in force has test-time views (``meta.views``),
        ``view_logits`` [V, N, C]: this model's logits of every card in each view."""
        if len(rectified_cards) == 0 or not self.meta.views:
            return self.heads(rectified_cards)
        cards = list(rectified_cards)
        feeds = preprocess(cards)
        heads = self.heads_of_feeds(feeds)
        more = view_feeds(cards, feeds, self.meta.views)
        logits = self._session.run([self._outputs[0]], {name: more[name] for name in self.meta.input_names})[0]
        heads["view_logits"] = np.asarray(logits, np.float32).reshape(len(self.meta.views), len(cards), -1)
        return heads

    def logits(self, rectified_cards: Sequence[npt.NDArray[np.uint8]]) -> npt.NDArray[np.float32]:
        return self.heads(rectified_cards)["logits"]

    def readings_of(self, heads: Mapping[str, npt.NDArray[np.float32]]) -> list[CardReading]:
        """The readings for the net's outputs ``heads`` (the reject rule and the agreement)."""
        m = self.meta
        if m.views and "view_logits" in heads:  # the confidence is the mean over the views
            mean = mean_view_probs(heads, m.temperature)
            return from_onnx_output(np.log(np.maximum(mean, 1e-30)), m.classes, 1.0, 0.0, self.accepted(heads))
        return from_onnx_output(heads["logits"], m.classes, m.temperature, 0.0, self.accepted(heads))

    def accepted(self, heads: Mapping[str, npt.NDArray[np.float32]]) -> npt.NDArray[np.bool_]:
        """Which of the best classes may be taken as read (threshold, agreement, second opinion).

        With test-time views in the rule (``meta.views``) and ``view_logits`` in ``heads``
        (:meth:`heads_with_views`, as :meth:`classify` does), the rule with views applies.
        Heads without them (:meth:`heads`) are judged on the card as given alone: the still
        rule's thresholds were chosen with its views, so read through :meth:`classify`."""
        m = self.meta
        if m.views and "view_logits" in heads:
            return self._accepted_in_views(heads)
        accepted = accept_mask(heads, m.temperature, m.accept_threshold, dict(m.agreement), classes=m.classes)
        if m.second_opinion is not None and "second_logits" in heads:
            _, t2, threshold2, min_own = m.second_opinion
            second = second_opinion_agrees(heads, m.temperature, t2, threshold2)
            if min_own > 0:  # also ask this model's parts to agree and give the card at least min_own
                second &= accept_mask(heads, m.temperature, min_own, dict(m.agreement))
            best = np.asarray(heads["logits"], np.float32).argmax(axis=1)
            accepted = accepted | (second & ~index_doubts(heads, best, dict(m.agreement), m.classes))
        return accepted

    def _accepted_in_views(self, heads: Mapping[str, npt.NDArray[np.float32]]) -> npt.NDArray[np.bool_]:
        """The rule with views: every view names the same class, and either the parts of the
        card as given agree with it (:func:`accept_mask`) and the mean probability over the
        views reaches ``accept_threshold``, or the second model is sure of it (and, with
        ``min_own`` > 0, the parts agree and the mean reaches ``min_own``)."""
        m = self.meta
        mean = mean_view_probs(heads, m.temperature)
        best, conf = mean.argmax(axis=1), mean.max(axis=1)
        same = views_agree(heads)
        parts = accept_mask(heads, m.temperature, 0.0, dict(m.agreement), classes=m.classes)
        accepted = same & parts & (conf >= m.accept_threshold)
        if m.second_opinion is not None and "second_logits" in heads:
            _, t2, threshold2, min_own = m.second_opinion
            p2 = _softmax(np.asarray(heads["second_logits"], np.float32), t2)
            second = same & (p2.argmax(axis=1) == best) & (p2.max(axis=1) >= threshold2)
            if min_own > 0:  # as without views: this model's parts agree and it gives the card min_own
                second &= parts & (conf >= min_own)
            accepted |= second & ~index_doubts(heads, best, dict(m.agreement), m.classes)
        return np.asarray(accepted, np.bool_)

    def classify(self, rectified_cards: Sequence[npt.NDArray[np.uint8]]) -> list[CardReading]:
        heads = self.heads_with_views(rectified_cards)
        return self.settled(rectified_cards, heads, self.readings_of(heads))

    def settled(self, rectified_cards: Sequence[npt.NDArray[np.uint8]], heads: Mapping[str, npt.NDArray[np.float32]],
                readings: list[CardReading]) -> list[CardReading]:
        """``readings`` (of ``heads``), where the checks the metadata turns on take cards the
        rule refused: the pips (:meth:`pips_settle`), then the index reader (:meth:`index_settle`)."""
        if self.meta.pip_check:
            readings = self.pips_settle(rectified_cards, heads, readings)
        if self.meta.index_check is not None:
            readings = self.index_settle(rectified_cards, heads, readings)
        return readings

    def index_settle(self, rectified_cards: Sequence[npt.NDArray[np.uint8]], heads: Mapping[str, npt.NDArray[np.float32]],
                     readings: list[CardReading]) -> list[CardReading]:
        """The readings, where a card the rule refused is taken when a second network reads
        it from its indices alone: every view names it, its probability (the mean over the
        views) is at least ``meta.index_check``, its face head does not name the card of the
        same rank in the twin suit (the face's pips are bigger than the index's suit, which
        both index readers can take for its twin on a small card), and the index reader reads
        this card at the card's own index corners and no other card anywhere on it
        (:func:`vision.own_index.index_cards`).

        Model 2.0's own corner head reads the same corners. Unless
        ``meta.index_check_over_corner_head``, it must not name another card either
        (``corner_veto``) nor leave a doubt the face cannot settle (:func:`index_doubts`: an
        ace, a jack or a queen). With it, the index reader, trained on index boxes alone,
        outvotes that head when the whole card's reading sides with it: two readers of three
        name the card, and the one trained for the index found it where the card's own index lies."""
        todo = [i for i, r in enumerate(readings) if r.label is None and not r.face_down
                and r.best not in (BACK, NONE) and r.confidence >= (self.meta.index_check or 0.0)]
        if not todo:
            return readings
        from vision.own_index import index_cards

        mean = mean_view_probs(heads, self.meta.temperature)
        best = mean.argmax(axis=1)
        agreement = dict(self.meta.agreement)
        clear = views_agree(heads)
        if not self.meta.index_check_over_corner_head:
            clear &= ~index_doubts(heads, best, agreement, self.meta.classes)
            if "corner_veto" in agreement:  # model 2.0's own corner head naming another card
                clear &= accept_mask(heads, self.meta.temperature, 0.0, {"corner_veto": agreement["corner_veto"]})
        if "face_logits" in heads:  # the face's pips, bigger than the index's suit, naming the suit's twin
            clear &= ~_face_names_twin(heads, best, self.meta.classes, agreement.get("face_veto", 1.01))
        out = list(readings)
        for i in todo:
            name = self.meta.classes[int(best[i])]
            if not clear[i] or name != readings[i].best:
                continue
            if index_cards(self, rectified_cards[i]).confirm(Card.parse(name)):
                out[i] = CardReading(Card.parse(name), readings[i].confidence, False, name)
        return out

    def pips_settle(self, rectified_cards: Sequence[npt.NDArray[np.uint8]], heads: Mapping[str, npt.NDArray[np.float32]],
                    readings: list[CardReading]) -> list[CardReading]:
        """The readings, where a number card the rule refused is taken when the pips counted
        on its face (:func:`vision.pips.count_pips`) are exactly the rank of the card read,
        and the rule refused it only because

        - the face head names another card (the indices and the pips agree), or
        - no corner reads the card (the index glyphs of a design the network never saw), while
          neither the card's heads nor its face give the card of that rank in the twin suit
          PIP_TWIN_DOUBT (the pips count the rank, and the suit must be left in no doubt); the
          card then needs PIP_MIN_OWN of the rule's confidence, as the index reader's check.

        - a corner reads another rank of the card's suit (a design's index glyph the network
          never saw: gnome-bellot's narrow 8 read as a 10): the pips settle the rank, and a
          corner naming a card of another suit still refuses it; as above, the card's twin
          must be left in no doubt, and the card needs PIP_MIN_OWN.

        Every other check of the rule in force (confidence, views, a corner naming another
        card, the doubts of an index, the second opinion) still holds."""
        todo = [i for i, r in enumerate(readings) if r.label is None and not r.face_down and _rank(r.best)]
        if not todo:
            return readings
        from vision.pips import count_pips

        twin_settled = ~self._twin_in_doubt(heads, PIP_TWIN_DOUBT)
        without_face = self._accepted_without(("face_veto",), heads)
        without_corner = self._accepted_without(("need_corner",), heads, PIP_MIN_OWN) & twin_settled
        rank_in_doubt = (self._accepted_without(("need_corner", "corner_veto"), heads, PIP_MIN_OWN) & twin_settled
                         & self._corners_name_its_suit(heads))
        out = list(readings)
        for i in todo:
            if ((without_face[i] or without_corner[i] or rank_in_doubt[i])
                    and count_pips(rectified_cards[i]) == _rank(readings[i].best)):
                out[i] = CardReading(Card.parse(readings[i].best), readings[i].confidence, False, readings[i].best)
        return out

    def _accepted_without(self, checks: tuple[str, ...], heads: Mapping[str, npt.NDArray[np.float32]],
                          threshold: float | None = None) -> npt.NDArray[np.bool_]:
        """:meth:`accepted` by the rule in force less some of its agreement checks (and, with
        ``threshold``, that confidence instead of the rule's)."""
        loose = copy.copy(self)
        loose.meta = dataclasses.replace(self.meta, agreement=tuple(
            (k, v) for k, v in self.meta.agreement if k not in checks))
        if threshold is not None:
            loose.meta = dataclasses.replace(loose.meta, accept_threshold=threshold)
        return loose.accepted(heads)

    def _corners_name_its_suit(self, heads: Mapping[str, npt.NDArray[np.float32]]) -> npt.NDArray[np.bool_]:
        """Where every corner that names another card than the one read (the mean over the
        views) with the rule's ``corner_veto`` names a card of its suit: the corners doubt
        the rank alone."""
        best = mean_view_probs(heads, self.meta.temperature).argmax(axis=1)
        out = np.ones(len(best), np.bool_)
        if "corner_logits" not in heads:
            return out
        pc = _corner_probs(heads)
        top, top_p = pc.argmax(axis=2), pc.max(axis=2)
        naming = (top != best[:, None]) & (top_p >= dict(self.meta.agreement).get("corner_veto", 1.01))
        for i, k in zip(*np.nonzero(naming), strict=True):
            mine, theirs = self.meta.classes[int(best[i])], self.meta.classes[int(top[i, k])]
            if theirs not in (BACK, NONE):  # as accept_mask: a corner naming no card vetoes nothing
                out[i] &= mine not in (BACK, NONE) and theirs[-1] == mine[-1]
        return out

    def _twin_in_doubt(self, heads: Mapping[str, npt.NDArray[np.float32]], at_least: float) -> npt.NDArray[np.bool_]:
        """Where the card read (the mean over the views) has its twin (same rank, the other
        suit of its colour) given ``at_least`` by the card's heads or by its face head."""
        mean = mean_view_probs(heads, self.meta.temperature)
        best = mean.argmax(axis=1)
        face = _softmax(np.asarray(heads["face_logits"], np.float32), 1.0) if "face_logits" in heads else None
        out = np.zeros(len(best), np.bool_)
        for i, b in enumerate(best):
            twin_name = _twin_of(self.meta.classes[int(b)])
            if twin_name is None:
                continue
            twin = self.meta.classes.index(twin_name)
            out[i] = mean[i, twin] >= at_least or (face is not None and face[i, twin] >= at_least)
        return out


def _twin_of(name: str) -> str | None:
    """The class of the card of ``name``'s rank in the twin suit (club and spade, diamond and
    heart); None for a back or "none".

    >>> _twin_of("7S"), _twin_of("QD"), _twin_of("none")
    ('7C', 'QH', None)
    """
    if name in (BACK, NONE):
        return None
    card = Card.parse(name)
    return str(Card(card.rank, card.suit.twin))


def _face_names_twin(heads: Mapping[str, npt.NDArray[np.float32]], best: npt.NDArray[np.int_],
                     classes: Sequence[str], at_least: float) -> npt.NDArray[np.bool_]:
    """Where the face head's best class, with at least ``at_least``, is the card of ``best``'s
    rank in the twin suit (club and spade, diamond and heart).

    >>> import numpy as np
    >>> h = {"face_logits": np.log(np.array([[0.1, 0.8, 0.1], [0.8, 0.1, 0.1]]))}
    >>> _face_names_twin(h, np.array([0, 0]), ["AC", "AS", "AH"], 0.5).tolist()
    [True, False]
    """
    face = _softmax(np.asarray(heads["face_logits"], np.float32), 1.0)
    top, top_p = face.argmax(axis=1), face.max(axis=1)
    out = np.zeros(len(best), np.bool_)
    for i, (b, t) in enumerate(zip(best, top, strict=True)):
        twin = _twin_of(classes[int(b)])
        if twin is not None and top_p[i] >= at_least:
            out[i] = classes[int(t)] == twin
    return out


def _rank(name: str) -> int:
    """The rank of a number card's class name (``"9H"`` -> 9); 0 for an ace, a court card, a
    back or "none" (no pips to count)."""
    rank = name[:-1]
    return int(rank) if rank.isdigit() and 2 <= int(rank) <= 10 else 0


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
