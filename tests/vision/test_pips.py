"""The pips of a number card counted on its face, the check of its index (vision/pips.py)."""

from pathlib import Path

import numpy as np
import pytest

from engine.cards import Card
from vision.pips import count_pips

REPO = Path(__file__).resolve().parents[2]


def _small_cards(design: str, labels: list[str], px_per_mm: float, seed: int) -> list[np.ndarray]:
    from bench.small_cards import card_set, render_frame
    from vision.rectify import rectify_cards

    try:
        faces = card_set(design)
    except SystemExit:
        pytest.skip(f"no rendered faces of {design} (cache/cards)")
    rng = np.random.default_rng(seed)
    frame, quads, _ = render_frame(faces, labels, px_per_mm, rng)
    return list(rectify_cards(frame, quads[:len(labels)].astype(np.float32)))


def test_the_pips_of_small_number_cards_are_counted_or_left_in_doubt_never_miscounted() -> None:
    # given every number card of a calibration design about 83 px wide in a 1280x720 frame
    labels = [f"{rank}{suit}" for rank in range(2, 11) for suit in "CDHS"]
    cards = _small_cards("gnome-rheinland", labels, 1.3, 7)
    counts = [count_pips(card) for card in cards]
    # then each count is its rank, or no count at all; nearly all are counted
    assert all(n is None or n == Card.parse(label).rank for label, n in zip(labels, counts)), counts
    assert sum(n is not None for n in counts) >= 34


def test_a_picture_or_a_blank_card_gives_no_count() -> None:
    blank = np.full((280, 200, 3), 230, np.uint8)
    assert count_pips(blank) is None
    figure = blank.copy()
    figure[60:220, 50:150] = (30, 30, 160)  # one large figure, no pips
    assert count_pips(figure) is None
    with pytest.raises(ValueError, match=r"\(280, 200, 3\)"):
        count_pips(np.zeros((100, 70, 3), np.uint8))


def test_a_nine_whose_face_head_says_ten_is_read_when_its_pips_are_nine() -> None:
    # the face head of model 2.0 counts gnome-bellot's 9H as a 10H at every scale: the corner
    # indices and the nine pips counted on the face settle it
    if not (REPO / "models" / "card_classifier.onnx").is_file():
        pytest.skip("needs the trained model")
    import dataclasses

    from vision.classify import OnnxClassifier

    cards = _small_cards("gnome-bellot", ["9H"] * 6, 1.6, 8)
    classifier = OnnxClassifier()
    assert classifier.meta.pip_check
    read = [r.label for r in classifier.classify(cards)]
    # the index reader's check of refused cards (vision/own_index.py) may take them too: off
    classifier.meta = dataclasses.replace(classifier.meta, pip_check=False, index_check=None)
    without = [r.label for r in classifier.classify(cards)]
    assert read.count(Card.parse("9H")) >= 5 and all(c in (None, Card.parse("9H")) for c in read)
    assert without.count(Card.parse("9H")) < read.count(Card.parse("9H"))
