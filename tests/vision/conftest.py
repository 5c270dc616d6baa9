"""Shared fixtures of the vision tests.

A stand-in classifier that reads the cards of vision.synthetic by template matching.

It knows only a few kinds, drawn the way the renderer draws them, so tests of the
whole chain (detect, rectify, classify) run without the trained model. It follows the
Classifier contract and its reject rule: unsure unless one template clearly wins.
"""

from collections.abc import Callable, Sequence
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.cards import Card, parse_cards
from vision.classify import CardReading, FakeClassifier
from vision.corners import CornerProposal
from vision.synthetic import draw_card

KINDS = parse_cards("AS 10H KC 5D 8S")
_SIZE = (50, 70)


def _norm(image: np.ndarray) -> np.ndarray:
    """Grey level and redness, zero-mean, unit length: red and black marks both count."""
    small = cv2.resize(image, _SIZE, interpolation=cv2.INTER_AREA).astype(np.float32)
    gray = small.mean(axis=2)
    red = small[..., 2] - small[..., :2].mean(axis=2)
    parts = []
    for channel in (gray, red):
        v = channel.ravel() - channel.mean()
        parts.append(v / max(float(np.linalg.norm(v)), 1e-6))
    return np.concatenate(parts) / np.sqrt(2)


class TemplateClassifier(FakeClassifier):
    def __init__(self, kinds: Sequence[Card] = KINDS) -> None:
        names: list[Card | None] = [*kinds, None]
        templates = [_norm(draw_card(k, px_per_mm=3.0)[0]) for k in names]
        self._names = names
        self._templates = np.stack(templates)
        super().__init__(self._read)

    def _read(self, card: np.ndarray, _index: int) -> CardReading:
        scores = []
        for view in (card, card[::-1, ::-1]):
            scores.append(self._templates @ _norm(np.ascontiguousarray(view)))
        best = np.max(np.stack(scores), axis=0)
        order = np.argsort(best)[::-1]
        top, second = float(best[order[0]]), float(best[order[1]])
        if top < 0.35 or top - second < 0.08:
            return CardReading.unsure("none", top)
        name = self._names[order[0]]
        if name is None:
            return CardReading(None, top, True, "back")
        return CardReading(name, top, False, str(name))


@pytest.fixture
def template_classifier() -> TemplateClassifier:
    return TemplateClassifier()


@pytest.fixture
def template_kinds() -> tuple[Card, ...]:
    return tuple(KINDS)


OVERLAP_FACES = Path(__file__).parent / "data" / "overlap"


@pytest.fixture(scope="module")
def faces() -> list[tuple[Card, np.ndarray]]:
    """The 16 real card faces cut from photos (tests/vision/data/overlap), by their labels."""
    found = [(Card.parse(p.name.split("_")[0]), cv2.imread(str(p))) for p in sorted(OVERLAP_FACES.glob("*.jpg"))]
    assert len(found) == 16 and all(img is not None for _, img in found)
    return found


@pytest.fixture
def check_sevens(monkeypatch: pytest.MonkeyPatch) -> Callable[[list[CornerProposal], float], np.ndarray]:
    """``vision.corners._checked`` of the index reader reading the 7C at each proposal, this
    sure (rank x suit x "an index"), with the ink's colour and the second reader agreeing
    always: the 7C's probability left at each proposal ([N]; 0 where the reading may not stand)."""
    from vision import corners
    from vision.index_reader import IndexReadings

    class Meta:
        classes = ["7C", "none"]

    class Classifier:
        meta = Meta()

    monkeypatch.setattr(corners, "ink_agrees", lambda bgr, props, cards: np.ones(len(props), bool))
    monkeypatch.setattr(corners, "second_reader_agrees", lambda clf, bgr, props, cards: np.ones(len(props), bool))

    def check(proposals: list[CornerProposal], sure: float) -> np.ndarray:
        n = len(proposals)
        readings = IndexReadings(np.eye(13)[[6] * n], np.eye(4)[[0] * n], np.full(n, sure))
        return np.asarray(corners._checked(Classifier(), np.zeros((10, 10, 3), np.uint8), proposals, readings, 0.4)[:, 0])

    return check


def _score_corners(readings: Sequence, parts: Sequence) -> tuple[int, int, list[str]]:
    truth = [(c, xy) for part in parts for c, xy in zip(part.cards, part.index_xy, strict=True)]
    truth += [(c, xy) for part in parts for c, xy in zip(part.cards, part.other_index_xy, strict=True)]
    showing = {c for part in parts for c, shows in zip(part.cards, part.index_shows, strict=True) if shows}
    read, wrong = set(), []
    for r in readings:
        near = [c for c, xy in truth if np.hypot(*(np.asarray(r.index_xy) - xy)) < 25]
        if r.card in near:
            read.add(r.card)
        else:
            wrong.append(f"{r.card} at {np.round(r.index_xy)} (cards there: {near})")
    return len(read & showing), len(showing), wrong


@pytest.fixture(scope="session")
def score_corners() -> Callable[[Sequence, Sequence], tuple[int, int, list[str]]]:
    """Corner readings (vision.corners.CornerReading) of rendered overlaps
    (vision.synthetic.columns.OverlapScene parts) scored: (cards whose top-left index shows
    that were read, how many show, wrong readings). A reading is right when it names the card
    whose index (either one) lies under it."""
    return _score_corners
