"""vision.corners: an index is the card's own, so it agrees with the card around it.

Its corner box lies on the card's paper (a glyph pair taken the wrong way up puts it on the
table), and its size is its deck's: pips of a card's face read as an index imply a card
about twice the real one, and an index whose glyph pair was sized wrong is read again at the
others' size.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.cards import Card
from vision.classify import OnnxClassifier
from vision.corners import (
    SIZE_SPREAD,
    CornerProposal,
    CornerReading,
    accepted_corners,
    agree_in_size,
    card_width_of,
    propose_corners,
    read_corners,
    twins_unsettled,
    typical_width,
)
from vision.index_reader import IndexReadings
from vision.preprocess import RECT_W
from vision.readings import CardDetections
from vision.synthetic.columns import render_overlaps

FACES = Path(__file__).parent / "data" / "overlap"


def _reading(card: str, x: float, scale: float, confidence: float = 0.9) -> CornerReading:
    return CornerReading(Card.parse(card), confidence, CornerProposal((x, 100.0), (0.0, 1.0), scale))


def _whole(widths: list[float]) -> CardDetections:
    quads = np.array([[[x, 0.0], [x + w, 0.0], [x + w, 1.4 * w], [x, 1.4 * w]]
                      for x, w in zip(range(0, 4000, 400), widths)], np.float32)
    return CardDetections(quad_xy=quads, label=[Card.parse("2C")] * len(widths))


def test_given_an_index_implying_a_card_twice_the_others_when_checked_then_it_is_no_index() -> None:
    sure = [_reading("3H", 100, 0.5), _reading("4S", 300, 0.52), _reading("JD", 500, 0.48)]
    pips = _reading("4D", 700, 1.0, 0.65)  # two face pips, read as an index
    far = _reading("QC", 900, 0.33, 0.66)  # a far card of a slanted view: smaller is allowed
    kept = agree_in_size([*sure, pips, far])
    assert [str(r.card) for r in kept] == ["3H", "4S", "JD", "QC"]
    assert typical_width(sure) == pytest.approx(RECT_W * 0.5)
    # just inside the spread stays
    edge = _reading("5C", 700, 0.5 * SIZE_SPREAD * 0.98, 0.65)
    assert edge in agree_in_size([*sure, edge])


def test_given_cards_read_whole_when_checking_an_index_then_their_width_is_the_typical_card() -> None:
    one = _reading("4D", 700, 1.0, 0.9)
    assert card_width_of(one) == pytest.approx(RECT_W * 1.0)
    # one index alone tells no typical size: it stays
    assert agree_in_size([one]) == [one]
    # two cards read whole, 100 px wide: an index implying a 200 px card is pips
    assert agree_in_size([one], _whole([100.0, 104.0])) == []
    assert typical_width([], _whole([100.0, 104.0, 96.0])) == pytest.approx(100.0)
    # unread outlines (a printed frame, a chip) tell nothing
    unread = CardDetections(quad_xy=_whole([100.0, 100.0]).quad_xy, label=[None, None])
    assert agree_in_size([one], unread) == [one]


def test_given_an_oversized_reading_when_accepted_then_it_neither_stands_nor_blocks_the_real_index() -> None:
    classes = ["3H", "4D", "4S", "back", "none"]
    props = [CornerProposal((100.0, 100.0), (0.0, 1.0), 0.5), CornerProposal((300.0, 100.0), (0.0, 1.0), 0.5),
             # the pips' pair sits on the 4S's index, sure of another card: it must not veto the 4S
             CornerProposal((302.0, 101.0), (0.0, 1.0), 1.0)]
    mean = np.array([[0.9, 0.02, 0.02, 0.03, 0.03], [0.02, 0.03, 0.85, 0.05, 0.05], [0.01, 0.95, 0.01, 0.02, 0.01]])
    read = accepted_corners(props, mean, classes)
    assert sorted(str(r.card) for r in read) == ["3H", "4S"]


@pytest.mark.parametrize("suit, unsettled", [
    ([0.6, 0.0, 0.0, 0.4], True),     # a club with a spade close behind
    ([0.0, 0.35, 0.65, 0.0], True),   # a heart with a diamond close behind
    ([0.6, 0.0, 0.4, 0.0], False),    # a club with a heart behind: colour tells them apart
    ([0.05, 0.0, 0.0, 0.95], False),  # a sure spade
])
def test_given_a_suit_and_its_twin_when_checked_then_a_close_twin_is_unsettled(suit: list[float],
                                                                               unsettled: bool) -> None:
    readings = IndexReadings(np.eye(13)[[4]], np.array([suit]), np.ones(1))
    assert twins_unsettled(readings).tolist() == [unsettled]


def test_given_a_sure_reading_whose_suit_twin_is_close_when_checked_then_it_does_not_stand() -> None:
    # given: two indices read as a 5 (of clubs with a spade at 0.4; of hearts with clubs
    # behind, which colour tells apart), and a classifier that only names its classes
    from types import SimpleNamespace

    from vision.corners import _checked
    classes = ["5C", "5S", "5H", "back", "none"]
    readings = IndexReadings(np.eye(13)[[4, 4]], np.array([[0.6, 0.0, 0.0, 0.4], [0.48, 0.0, 0.52, 0.0]]),
                             np.ones(2))
    fake = SimpleNamespace(meta=SimpleNamespace(classes=classes))
    props = [CornerProposal((100.0, 100.0), (0.0, 1.0), 0.5), CornerProposal((300.0, 100.0), (0.0, 1.0), 0.5)]
    # when: checked at an accept of 0.55 (the club reaches it, the heart at 0.52 does not, so
    # the corner head is never asked)
    mean = _checked(fake, np.zeros((10, 10, 3), np.uint8), props, readings, accept=0.55)
    # then: the club, a duel with its twin not settled, is nothing; the heart keeps its probabilities
    assert mean[0].max() == 0.0
    assert mean[1, classes.index("5H")] > 0.5
    assert [str(r.card) for r in accepted_corners(props, mean, classes, accept=0.5)] == ["5H"]


@pytest.fixture(scope="module")
def three_cards() -> tuple[np.ndarray, list[CornerProposal], list[Card]]:
    """Three upright cards apart on wood, and the proposal at each one's top-left index."""
    faces = [(Card.parse(p.name.split("_")[0]), np.asarray(cv2.imread(str(p)), np.uint8))
             for p in sorted(FACES.glob("*.jpg"))]
    rng = np.random.default_rng(5)
    bgr = None
    chosen: list[CornerProposal] = []
    cards: list[Card] = []
    scenes = []
    for k, x in enumerate((120, 300, 480)):
        scene = render_overlaps([faces[3 * k]], rng, (600, 400), "column", 130, "wood", centre_xy=(x, 200),
                                turn_deg=0.0, base=bgr)
        bgr = scene.bgr
        scenes.append(scene)
    assert bgr is not None
    proposals = propose_corners(bgr)
    for scene in scenes:
        x, y = scene.index_xy[0]
        near = [p for p in proposals if abs(p.rank_xy[0] - x) < 12 and abs(p.rank_xy[1] - y) < 30 and p.down[1] > 0.95]
        assert near, f"no upright proposal at the index of {scene.cards[0]}"
        chosen.append(near[0])
        cards.append(scene.cards[0])
    return bgr, chosen, cards


def test_given_an_index_sized_wrong_when_the_others_tell_the_size_then_it_is_read_again_at_theirs(
        three_cards: tuple[np.ndarray, list[CornerProposal], list[Card]]) -> None:
    bgr, chosen, cards = three_cards
    model = OnnxClassifier()
    small = dataclasses.replace(chosen[2], scale=chosen[2].scale * 0.72)
    # alone, nothing says the card's size: the mis-sized box reads nothing sure
    assert read_corners(model, bgr, [small]) == []
    # beside two cards read sure, it is read at their size
    read = read_corners(model, bgr, [chosen[0], chosen[1], small])
    assert sorted(str(r.card) for r in read) == sorted(str(c) for c in cards)
    again = next(r for r in read if r.card == cards[2])
    assert again.proposal.scale == pytest.approx(np.median([card_width_of(r) for r in read if r.card != cards[2]])
                                                 / RECT_W, rel=0.05)


def test_given_an_index_on_a_dark_table_when_proposed_then_only_the_way_up_whose_box_is_on_paper() -> None:
    image = np.full((320, 320, 3), 40, np.uint8)
    cv2.rectangle(image, (40, 40), (190, 250), (225, 225, 225), -1)
    cv2.putText(image, "7", (46, 66), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (30, 30, 30), 2)
    cv2.circle(image, (52, 84), 6, (30, 30, 30), -1)
    downs = [p.down for p in propose_corners(image)]
    # the 7 over the pip, card below: kept; the pip over the 7 would put the box off the card
    assert len(downs) == 1 and downs[0][1] > 0.95, downs
    # the same index on a pale table: both ways up lie on paper and are looked at
    image[image == 40] = 215
    assert len(propose_corners(image)) == 2
