"""vision.corners: a rank and its suit are one index only in one ink.

In a fan laid close, the rank of one card and the suit of its neighbour's index lie a glyph
apart and pair up as an index; a red card's rank with a black card's suit (or the other way)
is two cards' glyphs, and a black spade read as a heart is a misreading: the ink's colour
refuses both, and leaves each card's own index alone.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.cards import Card
from vision.corner_proposals import _PAIR_BOX, RANK_XY, SUIT_XY, CornerProposal
from vision.corners import ink_agrees, ink_redness
from vision.synthetic.columns import render_overlaps

FACES = Path(__file__).parent / "data" / "overlap"


def _proposal(rank_xy: np.ndarray, suit_xy: np.ndarray) -> CornerProposal:
    d = float(np.hypot(*(suit_xy - rank_xy)))
    down = (suit_xy - rank_xy) / d
    return CornerProposal((float(rank_xy[0]), float(rank_xy[1])), (float(down[0]), float(down[1])), d / _PAIR_BOX)


@pytest.fixture(scope="module")
def fan() -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray]], list[Card]]:
    """A red 8 under a black 9, fanned close on wood; each card's rank and suit centres."""
    faces = {p.name.split("_")[0]: np.asarray(cv2.imread(str(p)), np.uint8) for p in FACES.glob("*.jpg")}
    cards = [Card.parse("8H"), Card.parse("9S")]
    scene = render_overlaps([(c, faces[str(c)]) for c in cards], np.random.default_rng(3), (500, 500), "fan", 170,
                            "wood", centre_xy=(250, 350), turn_deg=0.0, step=8.0)
    assert all(scene.index_shows)
    glyphs = []
    for quad in scene.quad_xy.astype(np.float64):
        # face pixels -> picture: the quad's top-left corner and its two sides
        origin, across, down = quad[0], (quad[1] - quad[0]) / 200, (quad[3] - quad[0]) / 280
        glyphs.append((origin + RANK_XY[0] * across + RANK_XY[1] * down,
                       origin + SUIT_XY[0] * across + SUIT_XY[1] * down))
    return scene.bgr, glyphs, cards


def test_given_each_card_s_own_index_when_its_ink_is_asked_then_its_colour_and_kept(fan) -> None:
    bgr, glyphs, cards = fan
    own = [_proposal(rank, suit) for rank, suit in glyphs]
    red_rank, red_suit = ink_redness(bgr, own[0])
    black_rank, black_suit = ink_redness(bgr, own[1])
    assert red_rank > 0.1 and red_suit > 0.2
    assert abs(black_rank) < 0.1 and abs(black_suit) < 0.1
    assert ink_agrees(bgr, own, cards).tolist() == [True, True]


def test_given_one_card_s_rank_paired_with_its_neighbour_s_suit_when_checked_then_refused(fan) -> None:
    bgr, glyphs, cards = fan
    (red_rank, red_suit), (black_rank, black_suit) = glyphs
    crossed = [_proposal(black_rank, red_suit), _proposal(red_rank, black_suit)]
    # the neighbour's suit read as its own shape, and as the rank's colour would have it
    assert ink_agrees(bgr, crossed, [Card.parse("9H"), Card.parse("8S")]).tolist() == [False, False]
    assert ink_agrees(bgr, crossed, [Card.parse("9S"), Card.parse("8H")]).tolist() == [False, False]


def test_given_a_black_suit_read_as_a_heart_when_checked_then_refused(fan) -> None:
    bgr, glyphs, _cards = fan
    assert ink_agrees(bgr, [_proposal(*glyphs[1])], [Card.parse("9H")]).tolist() == [False]
