"""A whole card's own indices read by the index reader (vision/own_index.py), and the
classifier's check that takes a refused card they confirm (OnnxClassifier.index_settle).

The faces are 16 cards of the test designs gnome `tango` and `bellot` (tests/vision/data/index),
never trained on and never used to choose the check."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.cards import Card
from vision.classify import OnnxClassifier
from vision.corners import CornerProposal
from vision.own_index import PAD, IndexCards, at_own_corner, index_cards

FACES = Path(__file__).parent / "data" / "index"


@pytest.fixture(scope="module")
def model() -> OnnxClassifier:
    return OnnxClassifier()


@pytest.fixture(scope="module")
def index_faces() -> list[tuple[Card, np.ndarray]]:
    found = [(Card.parse(p.name.split("_")[0]), cv2.imread(str(p))) for p in sorted(FACES.glob("*.jpg"))]
    assert len(found) == 16 and all(img is not None for _, img in found)
    return found


def test_an_index_counts_only_at_the_cards_own_corners_and_the_right_way_up() -> None:
    def at(x: float, y: float, down_y: float) -> bool:
        return at_own_corner(CornerProposal((x + PAD, y + PAD), (0.0, down_y), 0.8))

    assert at(20, 30, 1.0) and at(180, 250, -1.0)  # top-left upright, bottom-right upside down
    assert not at(20, 30, -1.0) and not at(180, 250, 1.0)  # the wrong way up for its corner
    assert not at(100, 140, 1.0)  # the middle of the face: a neighbour's index, a pair of pips
    assert not at(180, 30, 1.0)  # the top-right corner: no standard index lies there


def test_the_index_reader_reads_each_cards_own_index_and_never_another_card(
        model: OnnxClassifier, index_faces: list[tuple[Card, np.ndarray]]) -> None:
    # a card lying the other way up shows the same index at the other corner
    for turn in (None, cv2.ROTATE_180):
        read = [index_cards(model, face if turn is None else cv2.rotate(face, turn)).own for _, face in index_faces]
        assert all(cards in ([], [card]) for (card, _), cards in zip(index_faces, read, strict=True)), read
        # bellot prints a standard index (rank over suit); tango sets its suit apart, which
        # the index reader does not read (the classifier reads those cards alone)
        bellot = [cards == [card] for (card, _), cards, path in zip(index_faces, read, sorted(FACES.glob("*.jpg")), strict=True)
                  if "bellot" in path.name]
        assert sum(bellot) >= 4, read


def test_an_index_laid_over_the_middle_of_a_card_is_not_its_own_and_refutes_it(
        model: OnnxClassifier, index_faces: list[tuple[Card, np.ndarray]]) -> None:
    read = [(card, face) for card, face in index_faces if index_cards(model, face).own == [card]]
    (card, face), (other, other_face) = read[0], read[1]
    blank = np.full((280, 200, 3), 235, np.uint8)
    blank[100:196, 70:142] = face[:96, :72]  # an index pasted mid-card, as a neighbour's would lie
    assert index_cards(model, blank) == IndexCards([], [card])
    # a card whose own index shows, with another card's index over its face: the crop is not
    # one whole card (an outline round the bottom card of an overlapped column)
    both = other_face.copy()
    both[100:196, 70:142] = face[:96, :72]
    seen = index_cards(model, both)
    assert seen.own == [other] and seen.elsewhere == [card]
    assert not seen.confirm(other) and index_cards(model, other_face).confirm(other)


def _sure_of(classes: tuple[str, ...], card: str, p: float) -> np.ndarray:
    """Log-probabilities [C] giving ``card`` ``p`` and the rest of the classes the rest."""
    return np.log(np.where(np.array(classes) == card, p, (1 - p) / (len(classes) - 1))).astype(np.float32)


def _refused_heads(model: OnnxClassifier, card: str, p: float, views_agree: bool = True, corner: str | None = None,
                   face: str | None = None) -> dict[str, np.ndarray]:
    """Heads of one card whose best class is ``card`` at (about) ``p``: under the rule's
    threshold; its corner head and face head name ``corner`` and ``face`` at 0.9 (the card itself by default)."""
    classes = model.meta.classes
    logits = (_sure_of(classes, card, p) * model.meta.temperature)[None]
    views = np.repeat(logits[None], 3, axis=0)
    if not views_agree:
        views[0] = np.roll(logits, 1, axis=1)  # one view of three names the next class
    corners = _sure_of(classes, corner or card, 0.9)
    return {"logits": logits, "view_logits": views, "corner_logits": np.repeat(corners[None, None], 2, axis=1),
            "face_logits": _sure_of(classes, face or card, 0.9)[None]}


@pytest.mark.parametrize(("index_says", "elsewhere", "p", "views", "taken"), [
    (["7S"], [], 0.8, True, True),        # the index reader confirms the card refused at 0.8
    (["8S"], [], 0.8, True, False),       # it reads another card there
    (["7S", "8S"], [], 0.8, True, False),  # its two corners disagree
    (["7S"], ["8S"], 0.8, True, False),   # another card's index lies on its face
    ([], [], 0.8, True, False),           # it finds no index
    (["7S"], [], 0.3, True, False),       # the network gives the card too little
    (["7S"], [], 0.8, False, False),      # the views name other cards
])
def test_a_refused_card_is_taken_only_when_the_index_reader_confirms_it(
        model: OnnxClassifier, monkeypatch: pytest.MonkeyPatch, index_says: list[str], elsewhere: list[str],
        p: float, views: bool, taken: bool) -> None:
    assert _index_check_takes(model, monkeypatch, index_says, elsewhere, _refused_heads(model, "7S", p, views)) is taken


@pytest.mark.parametrize(("corner", "face", "over", "taken"), [
    (None, "7C", False, False),  # the face's pips name the suit's twin: bigger than the index's suit
    (None, "7C", True, False),   # ... whether or not the index reader outvotes the corner head
    ("8S", None, False, False),  # model 2.0's own corner head names another card: the index readers disagree
    ("8S", None, True, True),    # ... and the index reader, with the whole card's reading, outvotes it
    (None, "8S", False, True),   # the face names another rank: the indices settle it
])
def test_the_index_reader_never_overrules_a_twin_suited_face_and_the_corner_head_only_when_told(
        model: OnnxClassifier, monkeypatch: pytest.MonkeyPatch, corner: str | None, face: str | None,
        over: bool, taken: bool) -> None:
    heads = _refused_heads(model, "7S", 0.8, corner=corner, face=face)
    assert _index_check_takes(model, monkeypatch, ["7S"], [], heads, over) is taken


@pytest.mark.parametrize("over", [False, True])
def test_a_queen_the_corner_head_doubts_is_taken_only_when_the_index_reader_outvotes_it(
        model: OnnxClassifier, monkeypatch: pytest.MonkeyPatch, over: bool) -> None:
    # the corner head gives the jack of the queen's suit 0.3: the jack-or-queen doubt (the
    # court letters: a V is a jack in French decks and a queen in Dutch ones)
    heads = _refused_heads(model, "QH", 0.8)
    classes = np.array(model.meta.classes)
    doubt = np.log(np.where(classes == "QH", 0.65, np.where(classes == "JH", 0.3, 0.05 / (len(classes) - 2))))
    heads["corner_logits"] = np.repeat(doubt.astype(np.float32)[None, None], 2, axis=1)
    assert _index_check_takes(model, monkeypatch, ["QH"], [], heads, over, card="QH") is over
    assert not _index_check_takes(model, monkeypatch, ["JH"], [], heads, over, card="QH")


def _index_check_takes(model: OnnxClassifier, monkeypatch: pytest.MonkeyPatch, index_says: list[str],
                       elsewhere: list[str], heads: dict[str, np.ndarray], over: bool = False,
                       card: str = "7S") -> bool:
    """Whether the ``card`` of ``heads``, refused by the rule, is taken when the index reader
    says so (``over``: its reading outvotes model 2.0's corner head)."""
    import vision.own_index

    monkeypatch.setattr(vision.own_index, "index_cards", lambda _c, _card: IndexCards(
        [Card.parse(s) for s in index_says], [Card.parse(s) for s in elsewhere]))
    classifier = model.with_rule("live")
    classifier.meta = dataclasses.replace(model.meta, index_check=0.5, index_check_over_corner_head=over)
    face = np.full((280, 200, 3), 200, np.uint8)
    before = classifier.readings_of(heads)
    assert before[0].label is None  # the rule alone refuses it
    after = classifier.index_settle([face], heads, before)
    return after[0].label == Card.parse(card)


def test_the_shipped_metadata_turns_the_check_on(model: OnnxClassifier) -> None:
    assert model.meta.index_check is not None and 0 < model.meta.index_check < model.meta.accept_threshold
    assert model.meta.index_check_over_corner_head  # as models.choose_index_check chose it


def test_a_red_cards_index_printed_in_one_ink_is_still_its_own(
        model: OnnxClassifier, index_faces: list[tuple[Card, np.ndarray]], monkeypatch: pytest.MonkeyPatch) -> None:
    # a deck printed in one ink (or in four) shows a heart's index in another ink than red: on
    # a whole card its colour is the whole card's reading's to judge, not the index's ink
    import vision.corners

    red = [(card, face) for card, face in index_faces if card.is_red and index_cards(model, face).own == [card]]
    assert red
    for card, face in red:
        one_ink = cv2.cvtColor(cv2.cvtColor(face, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
        assert index_cards(model, one_ink).own == [card]
    # the same reading with the index's ink asked to be red refuses it
    asked = vision.corners.read_corners
    monkeypatch.setattr(vision.corners, "read_corners", lambda *a, **k: asked(*a, **{**k, "ink": True}))
    monkeypatch.setattr("vision.own_index.read_corners", vision.corners.read_corners)
    card, face = red[0]
    assert index_cards(model, cv2.cvtColor(cv2.cvtColor(face, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)).own == []
