"""vision.corners: a rank and its suit that the ink does not part.

Printed close and blurred (a small or far card, a JPEG), a rank and its suit are one piece
of ink at every fixed ratio: no pair of glyphs, so the index was never proposed. Two models
find it again (``glyph_pairs``):

- the piece is about twice as long as it is wide: it is read as the two halves of its long
  axis (``CornerProposal.merged``; a reading needs ``MERGED_ACCEPT``);
- where a blur joins them, the two glyphs still stand apart as regions stable over a range of
  thresholds (MSER, at their own level): new glyphs where the ink found none
  (``CornerProposal.stable``; a reading needs ``STABLE_ACCEPT``).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision import corner_proposals, corners
from vision.corner_proposals import MERGED_LONG
from vision.corners import MERGED_ACCEPT, STABLE_ACCEPT, CornerProposal, glyph_pairs
from vision.ink import ink_levels

PAPER = 225


def _page() -> np.ndarray:
    return np.full((600, 600, 3), PAPER, np.uint8)  # glyphs of up to 48 px are looked for


def _rank_over_suit(page: np.ndarray, ink: tuple[int, int, int], bridge: tuple[int, int, int] | None) -> np.ndarray:
    """A 7 (bar and stem, 16 x 22 px) over a round suit (16 px), their centres about 22 px
    apart; ``bridge``: the colour of a stroke joining the 7's foot to the suit (a blur), None
    for none."""
    cv2.line(page, (92, 52), (108, 52), ink, 5)
    cv2.line(page, (108, 52), (99, 72), ink, 5)
    cv2.circle(page, (100, 84), 8, ink, -1)
    if bridge is not None:
        cv2.line(page, (99, 72), (100, 78), bridge, 4)
    return page


def _over_the_suit(pairs: list[CornerProposal]) -> list[CornerProposal]:
    """The proposals of a rank near the 7's middle with the card's "down" towards the suit."""
    return [p for p in pairs if p.down[1] > 0.9 and abs(p.rank_xy[0] - 101) < 6 and 52 <= p.rank_xy[1] <= 70]


def test_given_a_rank_joined_to_its_suit_in_black_when_proposing_then_the_long_piece_is_split() -> None:
    page = _rank_over_suit(_page(), (30, 30, 30), (30, 30, 30))
    levels = ink_levels(page, 31)
    assert levels.dark[75, 99]  # one piece at every level of the ink: the bridge is black too
    found = _over_the_suit(glyph_pairs(page)[0])
    assert found and all(p.merged for p in found), [(p.rank_xy, p.merged, p.dark) for p in found]
    rank_to_suit = found[0].scale * corners._PAIR_BOX
    assert 17 <= rank_to_suit <= 30  # the 7's centre (about 61) to the suit's (84)


def test_given_a_long_piece_when_not_of_an_index_s_shape_then_it_is_not_split(monkeypatch) -> None:
    page = _rank_over_suit(_page(), (30, 30, 30), (30, 30, 30))
    monkeypatch.setattr(corner_proposals, "MERGED_LONG", (MERGED_LONG[1] + 1, MERGED_LONG[1] + 2))
    assert not _over_the_suit(glyph_pairs(page)[0])
    # a round pip alone is no index either way
    pip = _page()
    cv2.circle(pip, (100, 70), 9, (30, 30, 30), -1)
    assert not any(p.merged for p in glyph_pairs(pip)[0])


def test_given_a_red_rank_blurred_into_its_suit_when_proposing_then_stable_regions_part_them(monkeypatch) -> None:
    # red print is ink wherever it is red and a little dark: a pink blur joins a red rank to its
    # suit at every ratio (ink, faint and dark alike), while in the green channel the two glyphs
    # are darker than the blur between them
    red, pink = (40, 40, 200), (150, 150, 235)
    page = cv2.GaussianBlur(_rank_over_suit(_page(), red, pink), (0, 0), 1.0)  # a lens: no edge is a step
    levels = ink_levels(page, 31)
    assert levels.ink[75, 99] and levels.dark[75, 99]
    monkeypatch.setattr(corner_proposals, "MERGED_LONG", (MERGED_LONG[1] + 1, MERGED_LONG[1] + 2))  # the stable regions alone
    found = _over_the_suit(glyph_pairs(page)[0])
    assert found and all(p.stable and not p.merged for p in found), [(p.rank_xy, p.merged, p.stable) for p in found]
    monkeypatch.setattr(corner_proposals, "MSER_INK", 0.0)  # a region must be this much darker than round it: none is
    assert not _over_the_suit(glyph_pairs(page)[0])


def test_given_a_reading_of_a_split_piece_when_checked_then_it_needs_merged_accept(check_sevens) -> None:
    plain = CornerProposal((100.0, 60.0), (0.0, 1.0), 0.5)
    merged = CornerProposal((100.0, 60.0), (0.0, 1.0), 0.5, merged=True)
    left = check_sevens([plain, merged], (0.4 + MERGED_ACCEPT) / 2)
    assert left[0] > 0.0 and left[1] == 0.0
    left = check_sevens([plain, merged], MERGED_ACCEPT)
    assert left[0] > 0.0 and left[1] > 0.0


def test_given_a_reading_of_a_stable_region_when_checked_then_it_needs_stable_accept(check_sevens) -> None:
    plain = CornerProposal((100.0, 60.0), (0.0, 1.0), 0.5)
    stable = CornerProposal((100.0, 60.0), (0.0, 1.0), 0.5, faint=True, stable=True)
    left = check_sevens([plain, stable], (0.4 + STABLE_ACCEPT) / 2)
    assert left[0] > 0.0 and left[1] == 0.0
    assert check_sevens([stable], STABLE_ACCEPT)[0] > 0.0
