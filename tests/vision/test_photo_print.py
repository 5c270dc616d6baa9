"""A refused index read again against the photo's own print (vision.photo_print)."""

import cv2
import numpy as np
import pytest

from engine.cards import Card, all_kinds
from vision import corners
from vision.corner_proposals import CornerProposal
from vision.photo_print import glyph_patches, photo_print_agrees, photo_print_lifts

SUIT_SHAPES = {  # a made-up print's suit glyphs, one shape each
    "C": lambda img, x, y: cv2.rectangle(img, (x - 7, y - 7), (x + 7, y + 7), 0, -1),
    "H": lambda img, x, y: cv2.circle(img, (x, y), 8, 0, -1),
    "D": lambda img, x, y: cv2.fillPoly(img, [np.array([[x, y - 9], [x + 7, y], [x, y + 9], [x - 7, y]])], 0),
    "S": lambda img, x, y: cv2.fillPoly(img, [np.array([[x, y - 9], [x + 8, y + 7], [x - 8, y + 7]])], 0),
}


def _index(img: np.ndarray, rank: str, suit: str, x: int, y: int) -> CornerProposal:
    """An index drawn with its rank centred on (x, y) and its suit 33 px below, and its
    proposal (1 box pixel a pixel: the suit lies 33 box pixels under the rank)."""
    (w, h), _ = cv2.getTextSize(rank, cv2.FONT_HERSHEY_SIMPLEX, 0.8, 2)
    cv2.putText(img, rank, (x - w // 2, y + h // 2), cv2.FONT_HERSHEY_SIMPLEX, 0.8, 0, 2, cv2.LINE_AA)
    SUIT_SHAPES[suit](img, x, y + 33)
    return CornerProposal((float(x), float(y)), (0.0, 1.0), 1.0)


def _photo(indices: list[tuple[str, str]]) -> tuple[np.ndarray, list[CornerProposal]]:
    img = np.full((120, 90 * len(indices), 3), 235, np.uint8)
    return img, [_index(img, rank, suit, 45 + 90 * k, 35) for k, (rank, suit) in enumerate(indices)]


def test_a_glyph_patch_is_cut_about_the_glyph_upright() -> None:
    img, (p,) = _photo([("7", "H")])
    rank, suit = glyph_patches(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), p)
    assert rank.shape == suit.shape == (24, 24)
    assert rank[8:16, 8:16].min() < 100 and suit[8:16, 8:16].min() < 100  # ink in the middle of each
    turned = CornerProposal(p.rank_xy, (0.0, -1.0), 1.0)  # looked at upside down: the suit is elsewhere
    assert glyph_patches(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), turned)[1][8:16, 8:16].min() > 200


def test_given_a_refused_seven_like_the_photos_sevens_when_its_rival_is_a_four_then_it_stands() -> None:
    img, props = _photo([("7", "C"), ("7", "D"), ("4", "H"), ("4", "S"), ("7", "H")])
    cards = [Card.parse(c) for c in ("7C", "7D", "4H", "4S", "7H")]
    agreed = np.array([True, True, True, True, False])
    assert photo_print_agrees(img, props, cards, agreed, ["7C", "7D", "4H", "4S", "4H"]).tolist() == [
        False, False, False, False, True]


def test_given_a_four_read_as_a_seven_when_the_head_says_four_then_it_stays_refused() -> None:
    img, props = _photo([("7", "C"), ("7", "D"), ("4", "H"), ("4", "S"), ("4", "D")])
    cards = [Card.parse(c) for c in ("7C", "7D", "4H", "4S", "7D")]  # the last is misread
    agreed = np.array([True, True, True, True, False])
    assert not photo_print_agrees(img, props, cards, agreed, ["7C", "7D", "4H", "4S", "4D"])[4]


def test_given_no_index_of_the_rivals_rank_in_the_photo_then_there_is_nothing_to_compare_and_it_stays_refused() -> None:
    img, props = _photo([("7", "C"), ("7", "D"), ("9", "H"), ("7", "H")])
    cards = [Card.parse(c) for c in ("7C", "7D", "9H", "7H")]
    agreed = np.array([True, True, True, False])
    assert not photo_print_agrees(img, props, cards, agreed, ["7C", "7D", "9H", "4H"])[3]  # no 4 agreed
    img, props = _photo([("7", "C"), ("7", "D"), ("9", "H"), ("4", "S"), ("7", "H")])  # a 4 laid too
    cards = [Card.parse(c) for c in ("7C", "7D", "9H", "4S", "7H")]
    agreed = np.array([True, True, True, True, False])
    assert photo_print_agrees(img, props, cards, agreed, ["7C", "7D", "9H", "4S", "4H"])[4]


def test_given_a_suit_not_like_the_photos_hearts_when_read_as_a_heart_then_it_stays_refused() -> None:
    img, props = _photo([("7", "C"), ("5", "H"), ("5", "S"), ("7", "S")])
    cards = [Card.parse(c) for c in ("7C", "5H", "5S", "7H")]  # a spade read as a heart
    agreed = np.array([True, True, True, False])
    assert not photo_print_agrees(img, props, cards, agreed, ["7C", "5H", "5S", "7S"])[3]


def test_given_the_only_index_of_its_rank_is_itself_proposed_again_then_it_is_not_its_own_witness() -> None:
    img, props = _photo([("4", "H"), ("7", "H"), ("7", "C")])
    again = CornerProposal((props[1].rank_xy[0] + 2, props[1].rank_xy[1]), (0.0, 1.0), 1.0)
    cards = [Card.parse("4H"), Card.parse("7H"), Card.parse("7C")]
    agreed = np.array([True, False, True])
    # the 7 of hearts proposed again beside itself, its suit misread as clubs: no witness
    assert not photo_print_agrees(img, [props[0], props[1], again], cards, agreed, ["4H", "4H", "7C"])[1]
    # the 7 of clubs laid further on is one
    assert photo_print_agrees(img, props, cards, agreed, ["4H", "4H", "7C"])[1]


@pytest.mark.parametrize("rescued", [True, False])
def test_the_second_reader_lets_a_reading_the_photos_print_confirms_stand(monkeypatch, rescued: bool) -> None:
    """corners.second_reader_agrees: the head refuses the last reading; the photo's print decides."""

    class Meta:
        classes = ["7H", "4H", "none"]

    class Classifier:
        meta = Meta()

    def probs(_clf, boxes):  # [N, V x heads, C]: the head says 7H for the first two, 4H for the last
        p = np.zeros((len(boxes), len(corners.VIEWS), 3))
        p[:, :, 0] = 1.0
        p[-1, :, :] = [0.2, 0.8, 0.0]
        return p

    seen: list[tuple[list[bool], list[str]]] = []

    def print_agrees(bgr, props, cards, agreed, rivals):
        seen.append((agreed.tolist(), list(rivals)))
        return np.array([False, False, rescued])

    monkeypatch.setattr(corners, "corner_probs", probs)
    monkeypatch.setattr(corners, "corner_boxes", lambda bgr, props: np.zeros((len(props), 1)))
    monkeypatch.setattr(corners, "photo_print_agrees", print_agrees)
    props = [CornerProposal((20.0 + 30 * k, 20.0), (0.0, 1.0), 0.5) for k in range(3)]
    got = corners.second_reader_agrees(Classifier(), np.zeros((60, 100, 3), np.uint8), props,
                                       [Card.parse("7H")] * 3)
    assert got.tolist() == [True, True, rescued]
    assert seen == [([True, True, False], ["7H", "7H", "4H"])]


def test_given_a_doubted_index_like_other_cards_of_its_rank_and_of_its_suit_then_it_is_an_index() -> None:
    img, props = _photo([("7", "C"), ("5", "H"), ("7", "H"), ("4", "H")])
    cards = [Card.parse(c) for c in ("7C", "5H", "7H", "7H")]  # the last is a 4 misread as a 7
    standing = np.array([True, True, False, False])
    doubted = np.array([False, False, True, True])
    assert photo_print_lifts(img, props, cards, standing, doubted).tolist() == [False, False, True, False]


def test_the_same_card_standing_elsewhere_is_no_witness_to_lift_or_rescue_a_reading() -> None:
    """A second reading of one card (its index proposed again off its place, in a tight fan)
    is what the doubt and the head are there to stop: only other cards witness a glyph."""
    img, props = _photo([("7", "H"), ("4", "S"), ("7", "H")])
    cards = [Card.parse(c) for c in ("7H", "4S", "7H")]
    standing = np.array([True, True, False])
    assert not photo_print_lifts(img, props, cards, standing, np.array([False, False, True]))[2]
    assert not photo_print_agrees(img, props, cards, standing, ["7H", "4S", "4H"])[2]


@pytest.mark.parametrize("lift", [True, False])
def test_checked_reads_a_doubted_index_the_photos_print_lifts_as_any_other(monkeypatch, lift: bool) -> None:
    """vision.corners._checked: the second reading is sure of 7H's rank and suit (0.9 x 0.9) but
    not of being an index (0.1); lifted, it is checked with the others and stands."""
    from vision.index_reader import IndexReadings

    class Meta:
        classes = [str(c) for c in all_kinds()] + ["back", "none"]

    class Classifier:
        meta = Meta()

    monkeypatch.setattr(corners, "ink_agrees", lambda bgr, props, cards: np.ones(len(props), bool))
    monkeypatch.setattr(corners, "second_reader_agrees", lambda clf, bgr, props, cards: np.ones(len(props), bool))
    asked = []

    def lifts(bgr, props, cards, standing, doubted):
        asked.append((standing.tolist(), doubted.tolist()))
        return np.array(doubted)

    monkeypatch.setattr(corners, "photo_print_lifts", lifts)
    rank, suit = np.zeros((2, 13)), np.zeros((2, 4))
    rank[:, 6], suit[:, 2] = 0.9, 0.9  # 7, hearts
    readings = IndexReadings(rank, suit, np.array([1.0, 0.1]))
    props = [CornerProposal((20.0 + 40 * k, 20.0), (0.0, 1.0), 0.5) for k in range(2)]
    mean = corners._checked(Classifier(), np.zeros((60, 100, 3), np.uint8), props, readings, 0.4, lift=lift)
    seven = Meta.classes.index("7H")
    assert mean[0].argmax() == seven and mean[0, seven] >= 0.4
    assert (mean[1, seven] >= 0.4) == lift and asked == ([([True, False], [False, True])] if lift else [])
