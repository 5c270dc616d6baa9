"""vision.corners: a card read whole owns the index at its own corners.

An index of another card lying on a card read whole stays (an outline round an overlapped
column is read as its top card, and the indices on it are the cards over it). But a reading
of the whole card's suit twin where that card prints its own index is its index, its small
suit misread: on the poker-table hands bench a 6D lying alone was read whole as 6D and, by
its bottom-right index (a suit glyph only a stable region gave), as 6H too.
"""

from __future__ import annotations

import numpy as np

from engine.cards import Card
from vision.corners import CornerProposal, CornerReading, at_own_index, not_read_whole
from vision.readings import CardDetections

# a card 250 x 350 px at (100, 80), upright: 1.25 image px to a card px of 200 x 280
QUAD = np.array([[100, 80], [350, 80], [350, 430], [100, 430]], np.float32)
TOP_LEFT = CornerProposal((100 + 1.25 * 18, 80 + 1.25 * 25), (0.0, 1.0), 1.25)  # upright
BOTTOM_RIGHT = CornerProposal((350 - 1.25 * 18, 430 - 1.25 * 25), (0.0, -1.0), 1.25)  # upside down


def _whole(name: str) -> CardDetections:
    return CardDetections(quad_xy=QUAD[None], label=[Card.parse(name)], confidence=np.array([0.99], np.float32))


def _at(p: CornerProposal, dx: float, dy: float) -> CornerProposal:
    return CornerProposal((p.rank_xy[0] + dx, p.rank_xy[1] + dy), p.down, p.scale)


def test_given_a_card_s_corners_when_asked_then_its_two_indices_are_its_own_the_way_up_they_are_printed() -> None:
    assert at_own_index(QUAD, TOP_LEFT) and at_own_index(QUAD, BOTTOM_RIGHT)
    assert at_own_index(QUAD, _at(TOP_LEFT, 10, -8))  # a design placing its index a little off
    assert not at_own_index(QUAD, CornerProposal(TOP_LEFT.rank_xy, (0.0, -1.0), 1.25))  # upside down there
    assert not at_own_index(QUAD, _at(TOP_LEFT, 0, 0.18 * 350))  # a column's next index, a step lower
    assert not at_own_index(QUAD, _at(TOP_LEFT, 125, 170))  # the middle of the face


def test_given_the_twin_read_at_a_whole_card_s_own_index_when_kept_then_it_is_dropped() -> None:
    twin = CornerReading(Card.parse("6H"), 0.83, BOTTOM_RIGHT)
    assert not_read_whole([twin], _whole("6D")) == []


def test_given_another_card_s_index_on_a_card_read_whole_when_kept_then_it_stays() -> None:
    column_next = CornerReading(Card.parse("6H"), 0.9, _at(TOP_LEFT, 0, 0.18 * 350))  # the twin, a step lower
    other = CornerReading(Card.parse("7C"), 0.9, BOTTOM_RIGHT)  # not the twin: another card's question
    same = CornerReading(Card.parse("6D"), 0.9, TOP_LEFT)  # the card's own index: read whole already
    assert not_read_whole([column_next, other, same], _whole("6D")) == [column_next, other]
