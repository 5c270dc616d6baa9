"""Enrolled decks: learn how the group's own decks look, then read only what matches them.

Issue 8: a group plays with the decks it owns (up to 3, C1), of one design or several, with
English, Russian, German, Dutch or French court letters. At enrolment each of the 52 cards
and the back of each deck is shown once; the classifier's ``embedding`` output (the joint
features before its last layer) of a few jittered views of each card is averaged into a
*prototype*. At play time a card is read as the enrolled card whose prototype is nearest
(cosine similarity); it is unsure, with a reason, when

- it is not close enough to any enrolled card (a card from another deck, a hand, a token),
- two enrolled cards are about as close (a margin too small to tell them apart),
- or the base model is sure of a different card than the profile says.

An unsure card may then still be read: by the enrolled print (:mod:`vision.deck_print`), or,
when the profile alone was unsure, by the base reader's whole rule agreeing with the profile's
first card (:func:`_read_by_base`): a card both readers agree on is not left unsure.

The labels are the *meanings*: a Russian queen (Д) is enrolled as ``Q`` because enrolment
knows which card it asked for. Run time needs numpy and onnxruntime only.

>>> import numpy as np
>>> p = DeckProfile.from_prototypes("toy", "2.0.0", {"QS": np.array([1.0, 0, 0]), "KS": np.array([0, 1.0, 0])})
>>> [r.label for r in p.match(np.array([[0.9, 0.1, 0.0], [0.6, 0.6, 0.0]]))]
[Card.parse('QS'), None]
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from engine.cards import Card, all_kinds
from vision.classify import (BACK, CardReading, OnnxClassifier, accept_mask, from_onnx_output,
                             second_opinion_agrees)
from vision.deck_print import PrintBank
from vision.deck_templates import TemplateBank, grey_of_feeds
from vision.errors import ModelLoadError, VisionError, load_json_file
from vision.preprocess import RECT_H, RECT_W, preprocess

__all__ = [
    "DeckProfile",
    "EnrolmentReport",
    "Evidence",
    "ProfiledClassifier",
    "enrol",
    "jittered_views",
    "learnt_gate",
    "FORMAT",
    "profiled_reader",
]

FORMAT = "eleusis-deck-profile"
FORMAT_VERSION = 3  # 3: the enrolled print (vision.deck_print); 2: card templates; 1 and 2 are still read
# a card nearer than this (cosine) to its best enrolled card may be read as it
MIN_SIMILARITY = 0.80
# and the best enrolled card must beat the best *other* card by this much
MIN_MARGIN = 0.08
LABELS: tuple[str, ...] = tuple(str(c) for c in all_kinds()) + (BACK,)
# The rule of profiles made by `enrol` (version 2), chosen on the *calibration* designs
# (gnome rheinland, simplistic, KDE oxygen-white; never the test designs, never real cards):
# the most right readings under the hard recipe with no wrong one in 2,000 (models/MODEL_CARD.md).
# A card's score is LOGP_WEIGHT x the base model's log-probability (clipped at -20) + the
# embedding similarity + TEMPLATE_WEIGHT x the template score; the best card must beat the
# next by ENROLLED_MARGIN and be at least ENROLLED_SIMILARITY like its prototype.
LOGP_WEIGHT = 0.05
TEMPLATE_WEIGHT = 0.5
ENROLLED_SIMILARITY = 0.85
ENROLLED_MARGIN = 0.3
# The similarity gate of each profile is learnt at enrolment from the enrolled views themselves:
# how near a jittered view of one card comes to the prototype of another card (the
# GATE_QUANTILE of those best-other similarities), plus GATE_SLACK, kept between GATE_FLOOR
# (a crop with no card must stay out) and ENROLLED_SIMILARITY (never looser than the fixed
# rule where the network tells the deck's cards apart poorly).
GATE_QUANTILE = 99.0
GATE_SLACK = 0.08
GATE_FLOOR = 0.70
# the base model "is sure of another card" (a veto) at this calibrated probability
VETO_THRESHOLD = 0.94
# --strict: also a template score of at least this (the print must be the enrolled deck's):
# most cards of other decks become unsure, at a cost in right readings (model card)
STRICT_MIN_TEMPLATE = 0.9
# The enrolled print (vision.deck_print) reads a card the rule above leaves unsure when the
# card is like an enrolled card (embedding similarity >= PRINT_SIMILARITY), the base model
# gives "no card" under PRINT_MAX_NO_CARD (slivers and scribbled faces lie over it), the card
# fits the print of the network's best card at its registration (corner + half the face
# correlation >= PRINT_FIT) and that card beats each other of the PRINT_CANDIDATES best cards
# in a duel of the two alone by PRINT_DUEL_MARGIN (vision.deck_print.PrintBank.duel), and the
# base model is not sure of another card. Chosen on the tuning sets of
# models/evaluate_enrolment.py --per-deck --range readable (models/MODEL_CARD.md): the most
# cards read with no wrong reading added.
PRINT_CANDIDATES = 4
PRINT_SIMILARITY = 0.65
PRINT_MAX_NO_CARD = 0.02
PRINT_FIT = 1.1
PRINT_DUEL_MARGIN = 0.1
# a card read by the profile's rule is made unsure when the 56 x 40 templates prefer another of
# the candidates, it fits its own print under this, and another beats it in their duel by
# PRINT_DUEL_MARGIN (vision.deck_profile._check_by_print): on the tuning sets no right reading
# was refused (the refusals without the fit condition all fitted at >= 1.05)
PRINT_CHECK_FIT = 1.0
# ... and only by a rival that also fits the card's print better than the card read, by more
# than this: a duel won where two cards differ, by a rival the card fits worse, is noise
PRINT_CHECK_GAIN = 0.0
# a pair of cards is a print look-alike (never read one over the other by print) when a
# jittered view of one at enrolment does not beat the other in their duel: the print cannot
# tell them apart even in a clean view (a 6 and a 9 with symmetric indices and one face)
LOOK_ALIKE_MARGIN = 0.0

FloatArray = npt.NDArray[np.float32]


def _unit(x: npt.ArrayLike) -> FloatArray:
    a = np.asarray(x, np.float32)
    norm = np.linalg.norm(a, axis=-1, keepdims=True)
    return np.asarray(a / np.maximum(norm, 1e-6), np.float32)


def jittered_views(card: npt.NDArray[np.uint8], rng: np.random.Generator, count: int = 6) -> list[npt.NDArray[np.uint8]]:
    """``card`` and ``count - 1`` variants a camera could give of it: turned 180 degrees,
    framed a few % looser or tighter, shifted, blurred, darker or brighter."""
    views = [card, np.ascontiguousarray(card[::-1, ::-1])]
    src = np.array([[0, 0], [RECT_W, 0], [RECT_W, RECT_H], [0, RECT_H]], np.float32)
    while len(views) < count:
        quad = src + rng.normal(0, 0.02, (4, 2)).astype(np.float32) * np.array([RECT_W, RECT_H], np.float32)
        m = cv2.getPerspectiveTransform(src, quad)
        view = cv2.warpPerspective(card, m, (RECT_W, RECT_H), borderMode=cv2.BORDER_REPLICATE)
        if rng.random() < 0.5:
            view = cv2.GaussianBlur(view, (0, 0), float(rng.uniform(0.5, 1.2)))
        view = np.clip(view.astype(np.float32) * rng.uniform(0.75, 1.15), 0, 255).astype(np.uint8)
        if rng.random() < 0.5:
            view = np.ascontiguousarray(view[::-1, ::-1])
        views.append(np.asarray(view, np.uint8))
    return views[:count]


@dataclass(frozen=True)
class DeckProfile:
    """The prototypes of the enrolled decks: ``vectors`` [K, E] unit rows, ``labels`` [K]
    (a card label or ``back``), ``decks`` [K] (which deck each row came from)."""

    name: str
    model_version: str
    vectors: FloatArray
    labels: tuple[str, ...]
    decks: tuple[int, ...]
    min_similarity: float = MIN_SIMILARITY
    min_margin: float = MIN_MARGIN
    deck_names: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())
    templates: TemplateBank | None = None  # version 2: the print of each enrolled card
    logp_weight: float = 0.0
    template_weight: float = 0.0
    min_template: float | None = None  # --strict: the least template score of a card read
    # the least similarity to an enrolled back (None: min_similarity): table clutter and
    # shadows lie nearer a plain back than any face, and the learnt gate never saw them
    back_similarity: float | None = None
    prints: PrintBank | None = None  # version 3: the enrolled crops, matched closely

    @classmethod
    def from_prototypes(cls, name: str, model_version: str, protos: Mapping[str, npt.ArrayLike],
                        deck: int = 0) -> DeckProfile:
        labels = tuple(protos)
        return cls(name, model_version, _unit(np.stack([np.asarray(protos[k], np.float32) for k in labels])),
                   labels, tuple(deck for _ in labels), deck_names=(name,))

    def similarities(self, embeddings: npt.ArrayLike) -> FloatArray:
        """Cosine similarity of each embedding [N, E] to each enrolled row: [N, K]."""
        e = _unit(embeddings)
        if e.ndim != 2 or e.shape[1] != self.vectors.shape[1]:
            raise VisionError(f"embeddings must have shape (n, {self.vectors.shape[1]}), got {e.shape}")
        return np.asarray(e @ self.vectors.T, np.float32)

    def _per_label(self, scores: FloatArray, labels: Sequence[str], names: Sequence[str]) -> FloatArray:
        index = {n: i for i, n in enumerate(names)}
        out = np.full((len(scores), len(names)), -1.0, np.float32)
        for k, label in enumerate(labels):
            if label in index:
                out[:, index[label]] = np.maximum(out[:, index[label]], scores[:, k])
        return out

    def label_scores(self, embeddings: npt.ArrayLike, template_scores: npt.ArrayLike | None = None,
                     log_probs: Mapping[str, npt.NDArray[np.float32]] | None = None
                     ) -> tuple[list[str], FloatArray, FloatArray | None, FloatArray]:
        """The labels (sorted) and, per label, [N, L] arrays: the embedding similarity, the
        template score (None without templates) and the weighted total :meth:`match` ranks by."""
        names = sorted(set(self.labels))
        es = self._per_label(self.similarities(embeddings), self.labels, names)
        total = es.copy()
        ts = None
        if template_scores is not None and self.templates is not None:
            ts = self._per_label(np.asarray(template_scores, np.float32), self.templates.labels, names)
            total += self.template_weight * ts
        if log_probs is not None and self.logp_weight:
            for i, n in enumerate(names):
                if n in log_probs:
                    total[:, i] += self.logp_weight * np.maximum(np.asarray(log_probs[n], np.float32), -20.0)
        return names, es, ts, total

    def match(self, embeddings: npt.ArrayLike, template_scores: npt.ArrayLike | None = None,
              log_probs: Mapping[str, npt.NDArray[np.float32]] | None = None) -> list[CardReading]:
        """The enrolled card each embedding is, or unsure with a reason.

        ``template_scores`` [N, len(templates.labels)] (:meth:`TemplateBank.scores`) and
        ``log_probs`` (the base model's log-probability of each label, [N] arrays by label)
        join the score when the profile weighs them (version 2 profiles).
        """
        names, es, ts, total = self.label_scores(embeddings, template_scores, log_probs)
        out: list[CardReading] = []
        for r, row in enumerate(total):
            order = np.argsort(-row)
            best, other = names[order[0]], (names[order[1]] if len(order) > 1 else "")
            s1 = float(es[r, order[0]])
            gap = float(row[order[0]] - row[order[1]]) if len(order) > 1 else 9.0
            confidence = max(0.0, min(1.0, s1))
            gate = self.back_similarity if best == BACK and self.back_similarity is not None else self.min_similarity
            if s1 < gate:
                out.append(CardReading(None, confidence, False, best,
                                       reason=f"not like any enrolled card (nearest {best}, {s1:.2f})"))
            elif ts is not None and self.min_template is not None and ts[r, order[0]] < self.min_template:
                out.append(CardReading(None, confidence, False, best,
                                       reason=f"not a card of the enrolled decks: the print differs "
                                              f"(nearest {best}, {ts[r, order[0]]:.2f})"))
            elif gap < self.min_margin:
                out.append(CardReading(None, confidence, False, best,
                                       reason=f"between two enrolled cards: looks like {best} or {other}"))
            elif best == BACK:
                out.append(CardReading(None, confidence, True, BACK))
            else:
                out.append(CardReading(Card.parse(best), confidence, False, best))
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "name": self.name,
            "model_version": self.model_version,
            "min_similarity": self.min_similarity,
            "min_margin": self.min_margin,
            "deck_names": list(self.deck_names),
            "notes": list(self.notes),
            "rows": [{"label": lab, "deck": d, "vector": [round(float(v), 5) for v in vec]}
                     for lab, d, vec in zip(self.labels, self.decks, self.vectors)],
            "logp_weight": self.logp_weight,
            "template_weight": self.template_weight,
            "min_template": self.min_template,
            "back_similarity": self.back_similarity,
            "templates": self.templates.to_json() if self.templates is not None else None,
            "print": self.prints.to_json() if self.prints is not None else None,
        }

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json()) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> DeckProfile:
        where = str(path)
        raw = load_json_file(path, "deck profile", "a deck profile")
        if not isinstance(raw, dict) or raw.get("format") != FORMAT:
            raise ModelLoadError(f"{where!r}: not a deck profile (no \"format\": \"{FORMAT}\"); "
                                 "make one with `eleusis calibrate deck`")
        if raw.get("format_version") not in (1, 2, FORMAT_VERSION):
            raise ModelLoadError(f"{where!r}: deck profile version {raw.get('format_version')!r}, "
                                 f"this program reads 1 to {FORMAT_VERSION}: enrol the decks again")
        try:
            rows = raw["rows"]
            labels = tuple(str(r["label"]) for r in rows)
            vectors = _unit(np.array([r["vector"] for r in rows], np.float32))
            decks = tuple(int(r["deck"]) for r in rows)
            profile = cls(str(raw["name"]), str(raw["model_version"]), vectors, labels, decks,
                          float(raw["min_similarity"]), float(raw["min_margin"]),
                          tuple(str(n) for n in raw.get("deck_names", [])), tuple(str(n) for n in raw.get("notes", [])),
                          TemplateBank.from_json(raw["templates"], where) if raw.get("templates") else None,
                          float(raw.get("logp_weight", 0.0)), float(raw.get("template_weight", 0.0)),
                          None if raw.get("min_template") is None else float(raw["min_template"]),
                          None if raw.get("back_similarity") is None else float(raw["back_similarity"]),
                          PrintBank.from_json(raw["print"], where) if raw.get("print") else None)
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelLoadError(f"{where!r}: a deck profile needs rows of label, deck, vector ({exc!r})") from exc
        bad = [lab for lab in labels if lab not in LABELS]
        if bad or vectors.ndim != 2 or len(labels) == 0:
            raise ModelLoadError(f"{where!r}: unknown labels {bad[:3]} or no vectors")
        return profile


class ProfiledClassifier:
    """A :class:`~vision.classify.Classifier` that reads only the enrolled decks.

    The base model gives the embedding (and its own reading); the profile decides. When
    the base model is sure of another card than the profile's nearest, the card is
    unsure: two views that disagree settle nothing.
    """

    def __init__(self, base: OnnxClassifier, profile: DeckProfile) -> None:
        if "embedding" not in base.output_names:
            raise ModelLoadError("the model has no embedding output: a deck profile needs model 2.0 or later")
        version = str(base.meta_version)
        if profile.model_version != version:
            raise ModelLoadError(f"the deck profile {profile.name!r} was made with model {profile.model_version}, "
                                 f"this model is {version}: enrol the decks again (`eleusis calibrate deck`)")
        self.base = base
        self.profile = profile

    def classify(self, rectified_cards: Sequence[npt.NDArray[np.uint8]]) -> list[CardReading]:
        if len(rectified_cards) == 0:
            return []
        return self.decide(self.evidence(rectified_cards))

    @property
    def index_network(self) -> OnnxClassifier | None:
        """The network that checks an index read alone (:func:`vision.corners.index_network`):
        the base model, as without a profile, since the print enrolled is of whole cards. A
        card under another shows only its index, which any deck's card of that rank and suit
        prints alike: a ``--strict`` profile (only the enrolled print) reads none."""
        return None if self.profile.min_template is not None else self.base

    def evidence(self, rectified_cards: Sequence[npt.NDArray[np.uint8]]) -> Evidence:
        """What the reading rests on (the net's outputs, the template scores), before deciding."""
        feeds = preprocess(list(rectified_cards))
        heads = self.base.heads_of_feeds(feeds)
        scores = None
        if self.profile.templates is not None:
            scores = self.profile.templates.scores_of(*grey_of_feeds(feeds))
        return Evidence(heads, scores, tuple(rectified_cards))

    def _base_sure(self, heads: Mapping[str, FloatArray]) -> list[CardReading]:
        """The base model's readings under the veto rule the profile rule was chosen with:
        model 2.0 at VETO_THRESHOLD with its parts agreeing, or model 1.x at VETO_THRESHOLD
        on 2.0's best class (independent of the base's own, stricter, accept rule)."""
        m = self.base.meta
        sure = accept_mask(heads, m.temperature, VETO_THRESHOLD, dict(m.agreement))
        if m.second_opinion is not None and "second_logits" in heads:
            sure |= second_opinion_agrees(heads, m.temperature, m.second_opinion[1], VETO_THRESHOLD)
        return from_onnx_output(heads["logits"], m.classes, m.temperature, 0.0, sure)

    def decide(self, evidence: Evidence, profile: DeckProfile | None = None) -> list[CardReading]:
        """The readings from ``evidence`` under ``profile`` (default this reader's)."""
        profile = profile or self.profile
        heads = evidence.heads
        own = self._base_sure(heads)
        z = np.asarray(heads["logits"], np.float64) / self.base.meta.temperature
        z -= z.max(axis=1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        log_probs = {name: np.asarray(logp[:, i], np.float32) for i, name in enumerate(self.base.meta.classes)}
        matched = profile.match(heads["embedding"], evidence.template_scores, log_probs)
        names, es, ts, total = profile.label_scores(heads["embedding"], evidence.template_scores, log_probs)
        out: list[CardReading] = []
        for mine, theirs in zip(matched, own):
            if mine.label is not None and theirs.label is not None and theirs.label != mine.label:
                out.append(CardReading(None, 0.0, False, mine.best,
                                       reason=f"the deck's look says {mine.best}, the index reads {theirs.best}"))
            elif (mine.label is None and not mine.face_down and theirs.face_down and mine.best == BACK
                  and theirs.confidence >= VETO_THRESHOLD):
                # a back unlike the enrolled ones (another deck's) is still face down, but only
                # when the model itself is sure: the second opinion alone let table clutter through
                out.append(theirs)
            else:
                out.append(mine)
        if profile.prints is not None and evidence.cards:
            classes = list(self.base.meta.classes)
            no_card = np.exp(logp[:, classes.index("none")]) if "none" in classes else None
            if ts is not None:
                _check_by_print(profile.prints, out, evidence.cards, names, ts, total)
            _read_by_print(profile.prints, out, own, evidence.cards, names, es, total, no_card)
        if evidence.cards and profile.min_template is None:  # --strict reads by the enrolled print alone
            _read_by_base(self.base, out, matched, evidence.cards, names, total)
        return out


def _check_by_print(prints: PrintBank, readings: list[CardReading], cards: Sequence[npt.NDArray[np.uint8]],
                    names: Sequence[str], template: FloatArray, total: FloatArray) -> None:
    """Make unsure, in place, a card read by the profile's rule that its print contradicts.

    The network can be sure and wrong (a real QS read as JS at 0.93 by the base model and at
    0.79 by the embedding). Where the 56 x 40 templates' best of the PRINT_CANDIDATES best
    cards is another card than the one read (cheap: they are scored for every card), the
    card duels those candidates (:meth:`PrintBank.duel`); when it fits its own print poorly
    (< PRINT_CHECK_FIT) and another beats it by PRINT_DUEL_MARGIN *and* fits the card better
    (by > PRINT_CHECK_GAIN), the reading becomes unsure: the evidence disagrees. (Alone, the
    duel is too weak a veto: a black 5 of clubs "lost" to the 5 of spades by up to 0.35 while
    fitting its own print at >= 1.05, and a dim 4H "lost" to the 4S it fitted worse.)
    """
    index = {label: k for k, label in enumerate(prints.labels)}
    for r, reading in enumerate(readings):
        read = str(reading.label) if reading.label is not None else None
        if read is None or read not in index:
            continue
        order = [names[j] for j in np.argsort(-total[r]) if names[j] in index][:PRINT_CANDIDATES]
        if read not in order or len(order) < 2:
            continue
        by_template = max(order, key=lambda label: float(template[r, names.index(label)]))
        if by_template == read:
            continue
        rest = [label for label in order if label != read]
        duel, fit, as_framed = prints.looks(cards[r], [index[read]] + [index[label] for label in rest])
        beaten_by = sorted((label for j, label in enumerate(rest, start=1) if float(duel[j, 0]) >= PRINT_DUEL_MARGIN
                            and float(fit[j]) > float(fit[0]) + PRINT_CHECK_GAIN),
                           key=lambda label: -float(duel[rest.index(label) + 1, 0]))
        # the card as framed fits its own print poorly (registering it may then lift every
        # candidate's fit, the rival's most where the rival is what the card is)
        if beaten_by and float(as_framed[0]) < PRINT_CHECK_FIT:
            readings[r] = CardReading(None, reading.confidence, False, read,
                                      reason=f"the deck's look says {read}, its print {beaten_by[0]}")


def _read_by_print(prints: PrintBank, readings: list[CardReading], own: Sequence[CardReading],
                   cards: Sequence[npt.NDArray[np.uint8]], names: Sequence[str], similarity: FloatArray,
                   total: FloatArray, no_card: npt.NDArray[np.float64] | None = None) -> None:
    """Read, in place, the unsure cards the enrolled print settles (the rule at PRINT_*).

    The print is matched only for cards unsure for being far from their prototype or between
    two cards, like an enrolled card and with no veto of the base model: the cost stays off
    the cards the network's rule reads. Candidates are the PRINT_CANDIDATES best cards of
    the profile's score (the network's proposal), the network's best first.
    """
    index = {(label, deck): k for k, (label, deck) in enumerate(zip(prints.labels, prints.decks))}
    by_label: dict[str, list[int]] = {}
    for (label, _), k in index.items():
        by_label.setdefault(label, []).append(k)
    todo: list[int] = []
    for r, reading in enumerate(readings):
        if (reading.label is None and not reading.face_down and not reading.reason.startswith("the deck's look")
                and float(similarity[r].max()) >= PRINT_SIMILARITY
                and (no_card is None or float(no_card[r]) < PRINT_MAX_NO_CARD)):
            todo.append(r)
    for r in todo:
        order = [names[j] for j in np.argsort(-total[r]) if names[j] in by_label][:PRINT_CANDIDATES]
        if len(order) < 2:
            continue
        rows = [(label, k) for label in order for k in by_label[label]]
        duel, fit = prints.duel(cards[r], [k for _, k in rows])
        # the network's best card must beat every other candidate in a duel of the two alone
        # (where those two differ: a 6 and a 9 by their index, an 8 and a 9 by a pip)
        mine = [i for i, (label, _) in enumerate(rows) if label == order[0]]
        others = [j for j, (label, _) in enumerate(rows) if label != order[0]]
        best_row = max(mine, key=lambda i: float(fit[i]))
        margin = min(float(duel[best_row, j]) for j in others)
        best, theirs = order[0], own[r].label
        alike = any(tuple(sorted((best, other))) in prints.look_alike for other in order if other != best)
        if (not alike and float(fit[best_row]) >= PRINT_FIT and margin >= PRINT_DUEL_MARGIN
                and (theirs is None or str(theirs) == best)):
            readings[r] = (CardReading(None, float(similarity[r].max()), True, BACK) if best == BACK
                           else CardReading(Card.parse(best), float(similarity[r].max()), False, best))


def _read_by_base(base: OnnxClassifier, readings: list[CardReading], matched: Sequence[CardReading],
                  cards: Sequence[npt.NDArray[np.uint8]], names: Sequence[str], total: FloatArray) -> None:
    """Read, in place, a card the profile alone left unsure (far from every enrolled card, or
    between two) and nothing settled since, when the base reader under its own whole rule
    (:meth:`OnnxClassifier.classify`: its framings, the pips, the index reader) is sure of the
    card the profile ranks first: two readers agree, and without the profile the card would
    have been read so. Enrolment adds evidence: where the readers agree, it should not read
    less than the base alone.

    Not when the profile's runner-up is that card's suit twin: on a novelty deck both readers
    take a club for a spade alike (models/MODEL_CARD.md), so their agreement settles nothing
    there. A card the profile read and something contradicted stays unsure."""
    todo = [r for r, (reading, mine) in enumerate(zip(readings, matched, strict=True))
            if reading.label is None and not reading.face_down and mine.label is None and not mine.face_down
            and mine.best in names and mine.best != BACK]
    if not todo:
        return
    for r, theirs in zip(todo, base.classify([cards[r] for r in todo]), strict=True):
        best = matched[r].best
        if theirs.label is None or str(theirs.label) != best:
            continue
        order = [names[j] for j in np.argsort(-total[r])]
        runner_up = order[1] if len(order) > 1 else None
        card = Card.parse(best)
        if runner_up == str(Card(card.rank, card.suit.twin)):
            continue
        readings[r] = CardReading(card, theirs.confidence, False, best)


@dataclass(frozen=True)
class Evidence:
    """A batch's net outputs by name and, with card templates, their scores [N, K]."""

    heads: Mapping[str, FloatArray]
    template_scores: FloatArray | None
    cards: tuple[npt.NDArray[np.uint8], ...] = ()  # the rectified cards, for the enrolled print

    def __getitem__(self, rows: slice) -> Evidence:
        return Evidence({k: v[rows] for k, v in self.heads.items()},
                        None if self.template_scores is None else self.template_scores[rows], self.cards[rows])

    @staticmethod
    def concatenate(parts: Sequence[Evidence]) -> Evidence:
        heads = {k: np.concatenate([p.heads[k] for p in parts]) for k in parts[0].heads}
        ts = [p.template_scores for p in parts]
        return Evidence(heads, None if any(t is None for t in ts)
                        else np.concatenate([t for t in ts if t is not None]),
                        tuple(c for p in parts for c in p.cards))


@dataclass(frozen=True)
class EnrolmentReport:
    """What enrolment found: cards not shown, pairs it cannot tell apart, advice."""

    missing: tuple[tuple[int, str], ...]  # (deck, label)
    confusable: tuple[tuple[int, str, str, float], ...]  # (deck, label, label, similarity)
    doubtful: tuple[tuple[int, str, str], ...]  # (deck, enrolled as, the model reads)
    advice: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.missing and not self.confusable

    def lines(self) -> list[str]:
        out = []
        for deck, label in self.missing:
            out.append(f"deck {deck + 1}: {label} was not found")
        for deck, a, b, s in self.confusable:
            out.append(f"deck {deck + 1}: {a} and {b} look alike to the reader (tried on a jittered view; "
                       f"similarity {s:.2f}): it may be unsure between them")
        for deck, label, read in self.doubtful:
            out.append(f"deck {deck + 1}: shown as {label}, the model reads {read}: was it laid out of order?")
        out.extend(self.advice)
        return out


def enrol(classifier: OnnxClassifier, decks: Sequence[Mapping[str, npt.NDArray[np.uint8]]], name: str = "decks",
          deck_names: Sequence[str] = (), views: int = 6, seed: int = 8, strict: bool = False
          ) -> tuple[DeckProfile, EnrolmentReport]:
    """A profile from rectified crops of each deck (``decks[i][label]``; label ``QS``...``back``).

    Each card gives ``views`` jittered views (:func:`jittered_views`); their mean embedding
    is the card's prototype; the crop itself gives the card's templates
    (:class:`~vision.deck_templates.TemplateBank`). The report names cards not given, pairs
    of the same deck that look alike (prototypes or print), and crops the base model reads
    as another card. ``strict``: cards whose print is not the enrolled deck's are unsure.
    """
    if "embedding" not in classifier.output_names:
        raise ModelLoadError("the model has no embedding output: enrolment needs model 2.0 or later")
    rng = np.random.default_rng(seed)
    vectors: list[FloatArray] = []
    view_vectors: list[FloatArray] = []  # every jittered view's embedding, to learn the gate from
    labels: list[str] = []
    owners: list[int] = []
    missing: list[tuple[int, str]] = []
    doubtful: list[tuple[int, str, str]] = []
    crops_kept: list[npt.NDArray[np.uint8]] = []
    probes: list[npt.NDArray[np.uint8]] = []  # a jittered view of each card, to try the templates on
    print_probes: list[list[npt.NDArray[np.uint8]]] = []  # the jittered views, to find the cards the print cannot tell apart
    for d, crops in enumerate(decks):
        for label in LABELS:
            crop = crops.get(label)
            if crop is None:
                missing.append((d, label))
                continue
            batch = jittered_views(crop, rng, views)
            heads = classifier.heads(batch)
            views_of_card = _unit(heads["embedding"])
            vectors.append(_unit(views_of_card.mean(axis=0)))
            view_vectors.append(views_of_card)
            labels.append(label)
            owners.append(d)
            crops_kept.append(np.ascontiguousarray(crop))
            probes.append(batch[-1])
            print_probes.append(batch[2:] or batch[-1:])
            first = classifier.readings_of({k: v[:1] for k, v in heads.items()})[0]
            if first.label is not None and str(first.label) != label:
                doubtful.append((d, label, str(first.label)))
    if not vectors:
        raise VisionError("no card was enrolled")
    matrix = _unit(np.stack(vectors))
    bank = TemplateBank.build(crops_kept, labels, owners)
    # every card enrolled has its print, its back too: a back is one print of the deck, and
    # under a lamp or a blur it is as far from its prototype as a face is
    prints = PrintBank.build(crops_kept, labels, owners)
    sims_all = matrix @ matrix.T
    neighbours = []
    for k in range(len(labels)):  # each card's nearest cards of its deck for the network: what it will be told from
        mine = [j for j in range(len(labels)) if owners[j] == owners[k]]
        near = sorted(mine, key=lambda j: -float(sims_all[k, j]))[:PRINT_CANDIDATES + 1]
        neighbours.append(near if k in near else [k] + near[:-1])
    probe_of = [(k, view) for k in range(len(labels)) for view in print_probes[k]]
    prints = prints.with_look_alikes([view for _, view in probe_of], [i for i, _ in probe_of],
                                     [neighbours[i] for i, _ in probe_of], LOOK_ALIKE_MARGIN)
    sims = matrix @ matrix.T
    gate = learnt_gate(matrix, labels, view_vectors)
    profile = DeckProfile(name, classifier.meta_version, matrix, tuple(labels), tuple(owners),
                          gate, ENROLLED_MARGIN,
                          deck_names=tuple(deck_names) or tuple(f"deck {i + 1}" for i in range(len(decks))),
                          templates=bank, logp_weight=LOGP_WEIGHT, template_weight=TEMPLATE_WEIGHT,
                          min_template=STRICT_MIN_TEMPLATE if strict else None,
                          back_similarity=ENROLLED_SIMILARITY, prints=prints,
                          notes=(f"similarity gate {gate:.2f}, learnt from the enrolled views",))
    # pairs it cannot tell apart: the reader itself, tried on a jittered view of each card,
    # reads another card or is unsure between two (a 6 and a 9 with symmetric indices...)
    pairs: dict[tuple[int, str, str], float] = {}
    reader = ProfiledClassifier(classifier, profile)
    for k, reading in enumerate(reader.classify(probes)):
        other = str(reading.label) if reading.label is not None else ""
        if reading.reason.startswith("between two enrolled cards"):
            other = reading.reason.rsplit(" or ", 1)[-1]
            other = reading.best if other == labels[k] else other
        if other and other != labels[k]:
            a, b = sorted((labels[k], other), key=LABELS.index)
            j = next((j for j, (lab, d) in enumerate(zip(labels, owners)) if lab == other and d == owners[k]),
                     labels.index(other))
            pairs[(owners[k], a, b)] = max(pairs.get((owners[k], a, b), 0.0), float(sims[k, j]))
    confusable = [(d, a, b, s) for (d, a, b), s in sorted(pairs.items())]
    advice: list[str] = []
    if missing:
        advice.append("show the missing cards again, face up, inside the play zone, not touching each other")
    if confusable:
        advice.append("cards that look alike will be read as unsure: enrol again closer to the camera or "
                      "under better light; if they are alike in print (e.g. a 6 and a 9 with symmetric "
                      "indices), keep them out of the game or use another deck")
    if doubtful:
        advice.append("check the order the cards were laid out in (a suit at a time, ace to king, left to right)")
    return profile, EnrolmentReport(tuple(missing), tuple(confusable), tuple(doubtful), tuple(advice))


def learnt_gate(prototypes: FloatArray, labels: Sequence[str], views: Sequence[FloatArray]) -> float:
    """The least similarity to its prototype a card needs, learnt from the enrolled views.

    ``views[k]`` are the unit embeddings of jittered views of the card ``labels[k]``, whose
    prototype is ``prototypes[k]``. A reading is safe when the card is nearer its prototype
    than a view of *another* card comes to it: the gate is the GATE_QUANTILE of the views'
    best similarity to another card's prototype, plus GATE_SLACK, within GATE_FLOOR and
    ENROLLED_SIMILARITY. A deck the network tells apart well gets a lower gate (fewer cards
    unsure for being far from their prototype); one it tells apart poorly keeps the fixed one.
    """
    label_of = np.asarray(labels)
    nearest_other: list[FloatArray] = []
    for k, v in enumerate(views):
        sims = np.asarray(v, np.float32) @ prototypes.T  # [V, K]
        sims[:, label_of == labels[k]] = -1.0
        nearest_other.append(sims.max(axis=1))
    if not nearest_other or len(set(labels)) < 2:
        return ENROLLED_SIMILARITY
    worst = float(np.percentile(np.concatenate(nearest_other), GATE_QUANTILE))
    return float(min(ENROLLED_SIMILARITY, max(GATE_FLOOR, worst + GATE_SLACK)))


def profiled_classifier(profile_path: str | Path, model: str | Path | None = None,
                        meta: str | Path | None = None) -> ProfiledClassifier:
    """The default model reading only the decks enrolled in ``profile_path``."""
    return ProfiledClassifier(OnnxClassifier(model, meta), DeckProfile.load(profile_path))


def profiled_reader(profile_path: str | Path) -> Any:
    """A :class:`~vision.pipeline.CardReader` that reads only the enrolled decks."""
    from vision.pipeline import CardReader

    return CardReader(profiled_classifier(profile_path))
