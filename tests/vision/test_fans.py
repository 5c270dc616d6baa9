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
               neighbour_index: float = 0.9) -> bool:
    doubted = CornerProposal((100.0, 100.0), (0.0, 1.0), 1.5)
    readings = _readings([4, neighbour_card[0]], [3, neighbour_card[1]], [index, neighbour_index])
    return bool(fans.doubts_explained([doubted, neighbour], readings, ACCEPT)[0])


def test_the_rank_lies_where_the_corner_boxes_put_it():
    assert fans._RANK_XY == corners.RANK_XY


@pytest.mark.parametrize("box_px", [(25, 2), (40, -5), (55, 10)])
def test_a_fanned_neighbours_index_right_of_the_doubted_one_explains_the_doubt(box_px):
    du, dv = box_px  # the neighbour's rank, box pixels from the doubted one's
    assert _explained(CornerProposal((100 + 1.5 * du, 100 + 1.5 * dv), _turned(6), 1.5))


def test_a_stacked_neighbours_index_below_explains_the_doubt():
    assert _explained(CornerProposal((100.0, 100 + 1.5 * 60), (0.0, 1.0), 1.5))


@pytest.mark.parametrize("why, neighbour, kwargs", [
    ("turned a quarter", CornerProposal((150.0, 100.0), (1.0, 0.0), 1.5), {}),
    ("twice the size", CornerProposal((150.0, 100.0), (0.0, 1.0), 3.0), {}),
    ("beyond the box", CornerProposal((100 + 1.5 * 90, 100.0), (0.0, 1.0), 1.5), {}),
    ("beside the doubted suit", CornerProposal((100 + 1.5 * 45, 100 + 1.5 * 35), (0.0, 1.0), 1.5), {}),
    ("reading the same card", CornerProposal((150.0, 100.0), (0.0, 1.0), 1.5), {"neighbour_card": (4, 3)}),
    ("itself no index", CornerProposal((150.0, 100.0), (0.0, 1.0), 1.5), {"neighbour_index": 0.05}),
    ("the doubt a refusal", CornerProposal((150.0, 100.0), (0.0, 1.0), 1.5), {"index": 0.1}),
    ("a reading that stands already", CornerProposal((150.0, 100.0), (0.0, 1.0), 1.5), {"index": 0.5}),
])
def test_a_doubt_is_not_explained_by(why, neighbour, kwargs):
    assert not _explained(neighbour, **kwargs), why


def test_an_explained_doubt_reads_at_the_explained_index_and_nothing_else_moves():
    doubted = CornerProposal((100.0, 100.0), (0.0, 1.0), 1.5)
    neighbour = CornerProposal((150.0, 100.0), (0.0, 1.0), 1.5)
    readings = _readings([4, 8], [3, 2], [0.3, 0.9], pair=0.9)
    after = fans.with_doubts_explained([doubted, neighbour], readings, ACCEPT)
    assert after.index.tolist() == [fans.EXPLAINED_INDEX, 0.9]
    assert np.array_equal(after.rank, readings.rank) and np.array_equal(after.suit, readings.suit)
    assert after.sureness()[0] >= ACCEPT > readings.sureness()[0]


@pytest.fixture(scope="module")
def deal7_top():
    image = np.asarray(cv2.imread(str(FAN / "deal7-top.jpg")), np.uint8)
    return image, _deal_boxes(FAN / "deal7-top-labels.json", (image.shape[1], image.shape[0]))


def _read(image, explain: bool, monkeypatch) -> tuple[int, int, list[str]]:
    classifier = OnnxClassifier()
    if not explain:
        monkeypatch.setattr(corners, "with_doubts_explained", lambda proposals, readings, accept: readings)
    found = with_corner_cards(classifier, image, read_closeup(CardReader(classifier), image))
    monkeypatch.undo()
    return found


def test_a_real_tight_fan_reads_more_indices_with_the_doubts_explained_and_none_wrong(deal7_top, monkeypatch):
    image, labels = deal7_top
    with_fans = score_deal(_read(image, True, monkeypatch), labels)
    without = score_deal(_read(image, False, monkeypatch), labels)
    assert with_fans[2] == [] and without[2] == []
    assert with_fans[0] >= without[0] + 2, (with_fans, without)
