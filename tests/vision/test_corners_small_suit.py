"""vision.corner_proposals: an index whose suit is printed much smaller than its rank.

Some designs print a small suit under a tall rank (gnome `bellot`'s diamonds are about 2.3
times smaller across than their rank). The proposer pairs two glyphs only when the larger
is at most ``PAIR_SIZES`` times the other; below that ratio such an index was never
proposed, and a card under another whose index is all that shows was never read.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision import corner_proposals
from vision.corner_proposals import CornerProposal, glyph_pairs


def _page() -> np.ndarray:
    """A tall 9 (about 44 px high) over a small diamond (17 px across) on paper, their centres
    about 45 px apart: the suit about 2.45 times smaller than the rank across, as the
    glyphs' extents measure them after a lens's blur."""
    page = np.full((800, 800, 3), 228, np.uint8)  # glyphs of up to 64 px are looked for
    ink = (40, 40, 200)  # red, as the small diamonds are
    cv2.putText(page, "9", (83, 100), cv2.FONT_HERSHEY_DUPLEX, 2.0, ink, 4, cv2.LINE_AA)
    diamond = np.array([[100, 113], [108, 121], [100, 129], [92, 121]], np.int32)
    cv2.fillConvexPoly(page, diamond, ink)
    return cv2.GaussianBlur(page, (0, 0), 0.8)


def _rank_over_suit(pairs: list[CornerProposal]) -> list[CornerProposal]:
    return [p for p in pairs if p.down[1] > 0.9 and abs(p.rank_xy[0] - 100) < 6 and 70 <= p.rank_xy[1] <= 92]


def test_given_a_small_suit_under_a_tall_rank_when_proposing_then_the_pair_is_an_index() -> None:
    found = _rank_over_suit(glyph_pairs(_page())[0])
    assert found, "the rank and its small suit were not paired"


def test_given_the_sizes_limited_as_before_when_proposing_then_that_index_is_not(monkeypatch) -> None:
    # the limit is what pairs them: at 2.2 (before) the suit is too small to go with the rank
    monkeypatch.setattr(corner_proposals, "PAIR_SIZES", 2.2)
    assert not _rank_over_suit(glyph_pairs(_page())[0])
