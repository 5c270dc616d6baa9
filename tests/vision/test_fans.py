"""An index doubted because the next card's index stands in its box (vision/fans.py).

The geometry is checked on proposals laid by hand; the whole on a real fanned deal (the top
half of the bridge deal 7, tests/vision/data/fan), read as `eleusis read` reads a photo
without the mat."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from bench.real_tables import _deal_boxes, score_deal
from vision import corners, fans
from vision.classify import OnnxClassifier
from vision.closeup import read_closeup
from vision.corners import CornerProposal, with_corner_cards
from vision.index_reader import IndexReadings
from vision.pipeline import CardReader

FAN = Path(__file__).parent / "data" / "fan"
ACCEPT = corners.CORNER_ACCEPT


def _turned(degrees: float) -> tuple[float, float]:
    return (-math.sin(math.radians(degrees)), math.cos(math.radians(degrees)))


def _readings(ranks: list[int], suits: list[int], index: list[float], pair: float = 1.0) -> IndexReadings:
    rank = np.eye(13)[ranks] * pair + (1 - pair) / 13
    return IndexReadings(rank, np.eye(4)[suits], np.array(index))


def _explained(neighbour: CornerProposal, index: float = 0.3, neighbour_card: tuple[int, int] = (8, 2),
               neighbour_index: float = 0.9, where: str = "either", pair: float = 1.0) -> bool:
    doubted = CornerProposal((100.0, 100.0), (0.0, 1.0), 1.5)
    readings = _readings([4, neighbour_card[0]], [3, neighbour_card[1]], [index, neighbour_index])
    readings.rank[0] = np.eye(13)[4] * pair + (1 - pair) / 13  # the doubted reading's rank this sure
    fan, column = fans.neighbours_in_box([doubted, neighbour], readings, ACCEPT)
    return bool({"fan": fan, "column": column, "either": fan | column}[where][0])


def test_the_rank_lies_where_the_corner_boxes_put_it():
    assert fans.RANK_XY == corners.RANK_XY


@pytest.mark.parametrize("box_px", [(25, 2), (40, -5), (55, 10), (32, -23), (45, 35)])
def test_a_fanned_neighbours_index_right_of_the_doubted_one_explains_the_doubt(box_px):
    # level, or higher or lower as a hand spread rising or falling puts it (deal 7: 23 px higher)
    du, dv = box_px  # the neighbour's rank, box pixels from the doubted one's
    neighbour = CornerProposal((100 + 1.5 * du, 100 + 1.5 * dv), _turned(6), 1.5)
    assert _explained(neighbour, where="fan") and not _explained(neighbour, where="column")


def test_a_reading_over_the_threshold_but_less_likely_than_no_index_is_a_doubt_to_explain():
    # rank x suit x index 0.45 reaches CORNER_ACCEPT, but "no index" (0.55) is likelier: it would not stand
    assert _explained(CornerProposal((150.0, 100.0), (0.0, 1.0), 1.5), index=0.45)


def test_a_reading_refused_as_an_index_is_a_doubt_to_explain_when_a_neighbour_stands_in_its_box():
    # the neighbour's glyphs are what the reader judged "an index" by: its refusal is no evidence
    assert _explained(CornerProposal((150.0, 100.0), (0.0, 1.0), 1.5), index=0.02)


def test_a_stacked_neighbours_index_below_explains_the_doubt():
    neighbour = CornerProposal((100.0, 100 + 1.5 * 60), (0.0, 1.0), 1.5)
    assert _explained(neighbour, where="column") and not _explained(neighbour, where="fan")


@pytest.mark.parametrize("why, neighbour, kwargs", [
    ("turned a quarter", CornerProposal((150.0, 100.0), (1.0, 0.0), 1.5), {}),
    ("twice the size", CornerProposal((150.0, 100.0), (0.0, 1.0), 3.0), {}),
    ("beyond the box", CornerProposal((100 + 1.5 * 90, 100.0), (0.0, 1.0), 1.5), {}),
    ("left of the index", CornerProposal((100 - 1.5 * 40, 100.0), (0.0, 1.0), 1.5), {}),
    ("reading the same card", CornerProposal((150.0, 100.0), (0.0, 1.0), 1.5), {"neighbour_card": (4, 3)}),
    ("itself no index", CornerProposal((150.0, 100.0), (0.0, 1.0), 1.5), {"neighbour_index": 0.05}),
    ("its glyphs no rank over a suit", CornerProposal((150.0, 100.0), (0.0, 1.0), 1.5), {"pair": 0.4}),
    ("a reading that stands already", CornerProposal((150.0, 100.0), (0.0, 1.0), 1.5), {"index": 0.6}),
])
def test_a_doubt_is_not_explained_by(why, neighbour, kwargs):
    assert not _explained(neighbour, **kwargs), why


def test_the_neighbours_side_of_the_box_is_painted_the_papers_colour_and_the_rest_kept():
    rng = np.random.default_rng(5)
    boxes = rng.integers(0, 120, size=(2, 3, 56, 40, 3)).astype(np.uint8)
    boxes[:, :, ::2, ::2] = 240  # the paper: a quarter of the box, so its brightest tenth
    out = fans.painted(boxes, np.array([True, False]), np.array([False, True]))
    assert np.array_equal(out[0, :, :, :20], boxes[0, :, :, :20]) and (out[0, :, :, 20:] == 240).all()
    assert np.array_equal(out[1, :, :42], boxes[1, :, :42]) and (out[1, :, 42:] == 240).all()
    assert not np.array_equal(out, boxes) and np.array_equal(boxes[0, 0, 0, 20], [240, 240, 240])


class _PaintedReader:
    """Reads every painted box as one card, and counts what it was given."""

    def __init__(self, rank: int, suit: int, pair: float = 0.9) -> None:
        self.reading = _readings([rank], [suit], [0.2], pair=pair)
        self.boxes = 0

    def read(self, boxes: np.ndarray) -> IndexReadings:
        self.boxes += len(boxes)
        n = len(boxes)
        return IndexReadings(np.repeat(self.reading.rank, n, 0), np.repeat(self.reading.suit, n, 0),
                             np.repeat(self.reading.index, n))


@pytest.mark.parametrize("painted_reads, explained", [
    ((4, 3), True),   # the same card with the neighbour painted out: the doubt was the neighbour's
    ((4, 0), False),  # another suit: the neighbour lent the reading its suit (a red 8 read as 8C)
    ((7, 3), False),  # another rank
])
def test_a_doubt_is_explained_only_where_the_box_without_the_neighbour_reads_the_same_card(painted_reads,
                                                                                           explained):
    doubted = CornerProposal((100.0, 100.0), (0.0, 1.0), 1.5)
    neighbour = CornerProposal((150.0, 100.0), (0.0, 1.0), 1.5)
    readings = _readings([4, 8], [3, 2], [0.3, 0.9], pair=0.9)
    reader = _PaintedReader(*painted_reads)
    cut = []

    def cut_boxes(which):
        cut.append([[doubted, neighbour][int(i)] for i in which])
        return np.full((len(which), 3, 56, 40, 3), 200, np.uint8)

    after = fans.with_doubts_explained([doubted, neighbour], readings, ACCEPT, cut_boxes, reader.read)
    assert cut == [[doubted]] and reader.boxes == 3  # only the doubted box, in each of its views
    assert after.index.tolist() == [fans.EXPLAINED_INDEX if explained else 0.3, 0.9]
    assert np.array_equal(after.rank, readings.rank) and np.array_equal(after.suit, readings.suit)
    assert (after.sureness()[0] >= ACCEPT) == explained


@pytest.fixture(scope="module")
def deal7_top():
    image = np.asarray(cv2.imread(str(FAN / "deal7-top.jpg")), np.uint8)
    return image, _deal_boxes(FAN / "deal7-top-labels.json", (image.shape[1], image.shape[0]))


def _read(image, explain: bool, monkeypatch):
    classifier = OnnxClassifier()
    if not explain:
        monkeypatch.setattr(corners, "with_doubts_explained", lambda proposals, readings, *_: readings)
    found = with_corner_cards(classifier, image, read_closeup(CardReader(classifier), image))
    monkeypatch.undo()
    return found


def test_a_real_tight_fan_reads_more_indices_with_the_doubts_explained_and_none_wrong(deal7_top, monkeypatch):
    image, labels = deal7_top
    with_fans = score_deal(_read(image, True, monkeypatch), labels)
    without = score_deal(_read(image, False, monkeypatch), labels)
    assert with_fans[2] == [] and without[2] == []
    assert with_fans[0] > without[0], (with_fans, without)
