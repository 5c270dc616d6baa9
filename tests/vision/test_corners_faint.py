"""vision.corners: a glyph whose thin stroke the lens or the JPEG broke into pieces.

A small red 3 or J of a real photo is ink where its stroke is thick and a paler tint where it
thins; at the ink's ratio it is two or three pieces, none of them a glyph, and its index is
never proposed. The faint ink round the ink joins the pieces (``ink_levels``,
``glyph_pairs``); a reading that rests on such a glyph needs ``FAINT_ACCEPT``.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.corners import FAINT_ACCEPT, CornerProposal, glyph_pairs
from vision.ink import ink_levels, ink_on_paper

PAPER = 225


def _index_with_a_broken_rank() -> np.ndarray:
    """Paper with a rank drawn as two dark strokes joined by a pale tint (a broken thin
    stroke), over a dark suit blob a glyph below."""
    page = np.full((400, 400, 3), PAPER, np.uint8)  # glyphs of up to 32 px are looked for
    cv2.line(page, (94, 52), (106, 52), (40, 40, 40), 2)  # the top bar of a 7
    cv2.line(page, (106, 52), (103, 58), (160, 160, 160), 2)  # its stroke thinning: a pale tint
    cv2.line(page, (103, 58), (98, 68), (40, 40, 40), 2)  # the stem
    cv2.circle(page, (100, 84), 6, (40, 40, 40), -1)  # the suit
    return page


def test_given_a_pale_tint_when_inked_then_faint_only_and_darker_ink_both() -> None:
    page = _index_with_a_broken_rank()
    ink, faint, _dark, pale = ink_levels(page, 31)
    plain, plain_pale = ink_on_paper(page, 31)
    assert np.array_equal(ink, plain) and np.array_equal(pale, plain_pale)
    assert not ink[55, 104] and faint[55, 104]  # the tint: 0.71 of the paper
    assert ink[52, 100] and faint[52, 100]
    assert not faint[20, 20]  # bare paper


def test_given_a_rank_broken_in_two_when_proposing_then_its_whole_glyph_pairs_with_the_suit() -> None:
    pairs, _pale, _xy = glyph_pairs(_index_with_a_broken_rank())
    down = [p for p in pairs if p.down[1] > 0.9 and abs(p.rank_xy[0] - 100) < 5]
    # the whole 7 (its centre about (101, 56.5)) over the suit comes from the faint ink only;
    # the ink alone gives the bar (y 52) and the stem (y 63), each paired with the suit too
    whole = [p for p in down if 54.5 <= p.rank_xy[1] <= 58.5]
    assert whole and all(p.faint for p in whole), [(p.rank_xy, p.faint) for p in down]
    assert not any(p.faint for p in down if not 54.5 <= p.rank_xy[1] <= 58.5)


def test_given_a_reading_of_a_faint_glyph_when_checked_then_it_needs_faint_accept(check_sevens) -> None:
    plain = CornerProposal((100.0, 60.0), (0.0, 1.0), 0.5)
    faint = CornerProposal((100.0, 60.0), (0.0, 1.0), 0.5, faint=True)
    left = check_sevens([plain, faint], (FAINT_ACCEPT + 0.4) / 2)  # above the plain acceptance, below the faint one
    assert left[0] >= 0.4 and left[1] == 0.0
