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


def _drawn(centres: list[tuple[float, float]], turn_deg: float = 0.0, radius: int = 13) -> np.ndarray:
    """A white card with round red pips at ``centres`` (shares of width and height), turned
    ``turn_deg`` about its middle as a rectifier a little off leaves it."""
    import cv2

    card = np.full((280, 200, 3), 235, np.uint8)
    for x, y in centres:
        cv2.circle(card, (round(x * 200), round(y * 280)), radius, (40, 40, 200), -1)
    turn = cv2.getRotationMatrix2D((100, 140), turn_deg, 1.0)
    return cv2.warpAffine(card, turn, (200, 280), borderMode=cv2.BORDER_REPLICATE)


SEVEN = [(0.3, 0.2), (0.7, 0.2), (0.5, 0.35), (0.3, 0.5), (0.7, 0.5), (0.3, 0.8), (0.7, 0.8)]
TEN = [(0.3, y) for y in (0.2, 0.4, 0.6, 0.8)] + [(0.7, y) for y in (0.2, 0.4, 0.6, 0.8)] + [(0.5, 0.3), (0.5, 0.7)]


def _logits_over(classes: list[str]):
    """Logits over ``classes`` from a few classes' probabilities (the rest near 0)."""

    def logits(p: dict[int, float]) -> np.ndarray:
        probs = np.full(len(classes), 1e-6)
        for k, v in p.items():
            probs[k] = v
        return np.log(probs / probs.sum()).astype(np.float32)

    return logits


# the traditional 9 (gnome-bellot's): four rows a side, the odd pip between the upper two
NINE = [p for p in TEN if p[0] != 0.5] + [(0.5, 0.3)]


@pytest.mark.parametrize("turn", [0.0, -6.0, 7.0])
def test_a_seven_a_nine_and_a_ten_are_counted_upright_or_turned_a_little(turn: float) -> None:
    assert count_pips(_drawn(SEVEN, turn)) == 7
    assert count_pips(_drawn(NINE, turn)) == 9
    assert count_pips(_drawn(TEN, turn)) == 10
    # and a 9 upside down: its odd pip between the lower two rows
    assert count_pips(_drawn([(x, 1 - y) for x, y in NINE], turn)) == 9


def test_pips_left_showing_by_a_card_laid_over_are_not_a_count() -> None:
    # a 10 whose top half lies under another card (plain paper here): four pips in two rows
    # and one in the middle column do not make the layout of a 5 about the card's middle
    assert count_pips(_drawn([p for p in TEN if p[1] > 0.5])) is None
    # a 5 whose other pips are covered, leaving the two of one diagonal: not a 2
    assert count_pips(_drawn([(0.3, 0.2), (0.7, 0.8)])) is None
    # an 8 that lost a corner pip is not a 7: the odd pip is off the others' axis
    assert count_pips(_drawn([p for p in TEN if p[0] != 0.5][1:])) is None


def test_the_index_suits_and_a_frame_line_are_not_pips() -> None:
    import cv2

    card = _drawn([(0.5, 0.2), (0.5, 0.8)])
    cv2.circle(card, (14, 60), 9, (40, 40, 200), -1)  # the index's suit, top left
    cv2.circle(card, (186, 220), 9, (40, 40, 200), -1)  # and bottom right
    cv2.rectangle(card, (30, 20), (170, 260), (40, 40, 200), 2)  # a frame round the face
    assert count_pips(card) == 2


def test_the_pips_of_rendered_designs_are_counted_or_left_in_doubt_never_miscounted() -> None:
    # given the number cards of three calibration designs as the training recipe's plain
    # samples show them (framed a few % off, turned, lit unevenly, blurred, JPEG)
    from models.dataset import load_design, make_samples

    counted = total = 0
    for name in ("gnome-rheinland", "gnome-simplistic", "kde-oxygen-white"):
        try:
            design = load_design(REPO / "cache" / "cards" / name)
        except (ValueError, FileNotFoundError):
            pytest.skip(f"no rendered faces of {name} (cache/cards)")
        cards, labels = make_samples([design], 60, 31, plain=True)
        for card, label in zip(cards, labels):
            rank = _class_rank(int(label))
            if not rank:
                continue
            n = count_pips(card)
            assert n is None or n == rank, (name, int(label), n)
            counted += n is not None
            total += 1
    # then none is miscounted, and most are counted (the count before: under half)
    assert counted >= 0.7 * total, (counted, total)


def _class_rank(index: int) -> int:
    from models.dataset import CLASSES

    name = CLASSES[index]
    return int(name[:-1]) if name[:-1].isdigit() else 0


@pytest.mark.parametrize(("corner_says", "taken"), [("10S", True), ("7C", False), ("7H", False)])
def test_a_corner_naming_another_rank_of_its_suit_is_settled_by_the_pips(corner_says: str, taken: bool) -> None:
    # given a 7S that the network is sure of and whose face head agrees, but whose corners
    # read another card with confidence (an index glyph of a design it never saw: the rule's
    # corner veto refuses it)
    if not (REPO / "models" / "card_classifier.onnx").is_file():
        pytest.skip("needs the trained model")
    from vision.classify import OnnxClassifier

    classifier = OnnxClassifier()
    classes = list(classifier.meta.classes)
    seven, other = classes.index("7S"), classes.index(corner_says)
    logits = _logits_over(classes)

    heads = {"logits": logits({seven: 1.0})[None] * 3,
             "corner_logits": np.stack([logits({other: 0.8, seven: 0.2})] * 2)[None],
             "face_logits": logits({seven: 1.0})[None]}
    readings = classifier.readings_of(heads)
    assert readings[0].label is None and readings[0].best == "7S"
    cards = [_drawn(SEVEN)]
    # then seven pips settle the rank when the corners doubt the rank alone (a 10 of spades),
    # never the suit: a corner reading the 7 of clubs or of hearts still refuses it
    assert (classifier.pips_settle(cards, heads, readings)[0].label == Card.parse("7S")) is taken
    # and pips that are not its rank take nothing
    eight = [_drawn([p for p in TEN if p[0] != 0.5])]
    assert classifier.pips_settle(eight, heads, readings)[0].label is None


@pytest.mark.parametrize(("twin_on_face", "taken"), [(0.001, True), (0.08, False)])
def test_a_number_card_no_corner_reads_is_taken_by_its_pips_unless_its_twin_suit_is_in_doubt(
        twin_on_face: float, taken: bool) -> None:
    # given a 7S that the network is sure of, whose face head agrees, but whose corners read
    # no card (the index glyphs of a design it never saw): the rule refuses it for that alone
    if not (REPO / "models" / "card_classifier.onnx").is_file():
        pytest.skip("needs the trained model")
    from vision.classify import OnnxClassifier

    classifier = OnnxClassifier()
    classes = list(classifier.meta.classes)
    seven, twin, none = classes.index("7S"), classes.index("7C"), classes.index("none")
    logits = _logits_over(classes)

    heads = {"logits": logits({seven: 1.0})[None] * 3,
             "corner_logits": np.stack([logits({none: 0.9, seven: 0.05})] * 2)[None],
             "face_logits": logits({seven: 1.0 - twin_on_face, twin: twin_on_face})[None]}
    readings = classifier.readings_of(heads)
    assert readings[0].label is None and readings[0].best == "7S"
    cards = [_drawn(SEVEN)]
    assert count_pips(cards[0]) == 7
    # then its seven pips take it, unless its face gives the seven of clubs 5 % or more
    settled = classifier.pips_settle(cards, heads, readings)
    assert (settled[0].label == Card.parse("7S")) is taken
    # and pips that are not its rank take nothing
    eight = [_drawn([p for p in TEN if p[0] != 0.5])]
    assert count_pips(eight[0]) == 8
    assert classifier.pips_settle(eight, heads, readings)[0].label is None
    # nor do they take a card the network hardly gives (7S, 8S and 9S nearly alike)
    spades = [classes.index(c) for c in ("7S", "8S", "9S")]
    unsure = dict(heads, logits=logits({spades[0]: 0.36, spades[1]: 0.32, spades[2]: 0.32})[None])
    first = classifier.readings_of(unsure)
    assert first[0].best == "7S" and first[0].confidence < 0.5
    assert classifier.pips_settle(cards, unsure, first)[0].label is None
