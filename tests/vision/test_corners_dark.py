"""vision.corners: a glyph joined to a card's rim shadow or a court card's frame line.

At the ink's ratio the glyph and the grey line it touches are one piece of ink, too big to be
a glyph, and its index is never proposed. The glyph's black core is darker than the line: in
the dark ink (``vision.ink.ink_levels``) it stands apart and becomes a glyph where paper lies
round it (``glyph_pairs``); a reading that rests on it needs ``DARK_ACCEPT``.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision import corner_proposals
from vision.corners import DARK_ACCEPT, FAINT_ACCEPT, CornerProposal, glyph_pairs
from vision.ink import DARK_RATIO, ink_levels

PAPER = 225
SHADOW = 120  # a rim's shadow: ink at the ink's ratio (0.53 of the paper), above the dark ink's


def _index_touching_a_shadow(shadow: bool = True) -> np.ndarray:
    """Paper with a black rank over a black suit, a grey line down the page touching the rank."""
    page = np.full((400, 400, 3), PAPER, np.uint8)  # glyphs of up to 32 px are looked for
    cv2.line(page, (94, 52), (106, 52), (30, 30, 30), 3)  # a 7: its bar
    cv2.line(page, (106, 52), (98, 70), (30, 30, 30), 3)  # and its stem
    cv2.circle(page, (100, 86), 6, (30, 30, 30), -1)  # the suit
    if shadow:
        cv2.line(page, (108, 0), (108, 399), (SHADOW, SHADOW, SHADOW), 3)  # the rim of a card over it
    return page


def test_given_a_grey_line_when_inked_then_it_is_ink_but_not_dark() -> None:
    levels = ink_levels(_index_touching_a_shadow(), 31)
    assert SHADOW / PAPER > DARK_RATIO
    assert levels.ink[200, 108] and not levels.dark[200, 108]
    assert levels.ink[52, 100] and levels.dark[52, 100]
    assert not levels.dark[20, 20] and levels.pale[20, 20]


def test_given_a_rank_joined_to_a_rim_shadow_when_proposing_then_its_dark_core_pairs_with_the_suit() -> None:
    def ranks_over_the_suit(page: np.ndarray) -> list[CornerProposal]:
        pairs, _pale, _xy = glyph_pairs(page)
        return [p for p in pairs if p.down[1] > 0.9 and abs(p.rank_xy[0] - 101) < 5 and 55 <= p.rank_xy[1] <= 65]

    # with no shadow the 7 is a glyph of the ink
    clear = ranks_over_the_suit(_index_touching_a_shadow(shadow=False))
    assert clear and not any(p.dark for p in clear)
    # touching the shadow it is one piece with the line: only its dark core pairs with the suit
    joined = ranks_over_the_suit(_index_touching_a_shadow())
    assert joined and all(p.dark and p.faint for p in joined), [(p.rank_xy, p.dark) for p in joined]


def test_given_a_dark_core_with_too_little_paper_round_it_when_proposing_then_no_glyph(monkeypatch) -> None:
    # the cork or wood of a table darkens into many pieces of glyph size, with no paper round
    # them: a dark piece needs DARK_PAPER of paper in a square twice its size
    pairs, _pale, _xy = glyph_pairs(_index_touching_a_shadow())
    assert any(p.dark for p in pairs)
    monkeypatch.setattr(corner_proposals, "DARK_PAPER", 1.01)
    pairs, _pale, _xy = glyph_pairs(_index_touching_a_shadow())
    assert not any(p.dark for p in pairs)


def test_given_a_reading_of_a_dark_glyph_when_checked_then_it_needs_dark_accept(check_sevens) -> None:
    assert DARK_ACCEPT > FAINT_ACCEPT
    faint = CornerProposal((100.0, 60.0), (0.0, 1.0), 0.5, faint=True)
    dark = CornerProposal((100.0, 60.0), (0.0, 1.0), 0.5, faint=True, dark=True)
    left = check_sevens([faint, dark], (DARK_ACCEPT + FAINT_ACCEPT) / 2)  # enough for a faint glyph, not a dark one
    assert left[0] >= 0.4 and left[1] == 0.0
