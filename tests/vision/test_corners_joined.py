"""vision.corner_proposals: a glyph whose thin stroke is broken clean through.

The thin part of a small red 3 or 8 can be lost altogether to the JPEG: paper between its
pieces, no pale tint for the faint ink to join (and on a card in a fan's shadow the faint ink
is the whole card). The ink grown by ``JOIN_REACH`` of the smallest glyph joins the pieces
into the glyph; a reading that rests on it needs ``FAINT_ACCEPT``, as a faint glyph's does.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import corner_proposals
from vision.corner_proposals import glyph_pairs

PAPER = 225
INK = (40, 40, 40)


def _index_with_a_rank_broken_through() -> np.ndarray:
    """A 7 whose top bar and stem are 3 px of paper apart, over a suit a glyph below."""
    page = np.full((400, 400, 3), PAPER, np.uint8)  # glyphs of 6 to 32 px are looked for
    cv2.line(page, (94, 52), (106, 52), INK, 2)  # the top bar
    cv2.line(page, (105, 58), (98, 69), INK, 2)  # the stem, 3 px of paper below it
    cv2.circle(page, (100, 84), 6, INK, -1)  # the suit
    return page


def _whole_sevens(page: np.ndarray) -> list[corner_proposals.CornerProposal]:
    pairs, _pale, _xy = glyph_pairs(page)
    # the whole 7's centre is about (101, 59); the bar alone lies at y 52, the stem at y 63
    return [p for p in pairs if p.down[1] > 0.9 and abs(p.rank_xy[0] - 101) < 4 and 57 <= p.rank_xy[1] <= 61]


def test_given_a_rank_broken_through_when_proposing_then_its_whole_glyph_pairs_with_the_suit() -> None:
    whole = _whole_sevens(_index_with_a_rank_broken_through())
    assert whole and all(p.faint for p in whole)
    # the pair's scale is the rank-to-suit distance's: about 25 px over the box's 33
    assert all(0.65 <= p.scale <= 0.85 for p in whole), [p.scale for p in whole]


def test_given_a_reach_of_one_pixel_when_proposing_then_the_break_stays_open(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(corner_proposals, "JOIN_REACH", 0.0)  # a reach of 1 px closes 2 px, not 3
    assert _whole_sevens(_index_with_a_rank_broken_through()) == []


def test_given_a_rank_and_its_suit_apart_when_joining_then_they_stay_two_glyphs() -> None:
    page = _index_with_a_rank_broken_through()
    ink = (page[..., 0] < 100)
    labels = cv2.connectedComponents(ink.astype(np.uint8), connectivity=8)[1]
    xy, _ext, _shape = corner_proposals._joined_glyphs(ink, labels, 6.0, 32.0, ~ink)
    assert len(xy) == 1 and xy[0][1] < 70  # the 7 alone: the suit, 9 px below, is not joined to it
