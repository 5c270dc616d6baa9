"""models/index_data.py and the index reader's design filter (models/train_index_reader.py):
which designs the proposer anchors, and the sizes the training scenes draw.

Uses made-up designs (models/procedural_deck.py), no render cache; torch is not needed.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from models.index_data import INDEX_SHARE, MIN_FOUND, SMALL_PX, card_anchors, found_anchors, make_index_set
from models.procedural_deck import make_design

pytest.importorskip("torch")  # models.train_index_reader imports torch at the top
from models.train_index_reader import proposed_designs  # noqa: E402


@pytest.fixture(scope="module")
def design() -> dict[str, np.ndarray]:
    return make_design(np.random.default_rng(5))


def _no_index(design: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The design with both index corners painted over in paper white: nothing to propose."""
    out = {}
    for label, card in design.items():
        card = card.copy()
        h, w = card.shape[:2]
        for ys, xs in ((slice(0, h // 4), slice(0, w // 4)), (slice(h - h // 4, h), slice(w - w // 4, w))):
            card[ys, xs, :3] = 245
        out[label] = card
    return out


def test_given_a_design_with_indices_when_anchored_then_the_proposer_finds_most_cards_near_the_standard_place(
        design: dict[str, np.ndarray]) -> None:
    found = found_anchors(design)
    assert len(found) >= MIN_FOUND
    x, y, _ = np.median(np.array(list(found.values())), axis=0)
    assert 0.02 < x < 0.2 and 0.03 < y < 0.2  # the top-left corner, in card heights


def test_given_a_design_without_indices_when_anchored_then_none_is_found_and_the_anchors_fall_back(
        design: dict[str, np.ndarray]) -> None:
    bare = _no_index(design)
    assert len(found_anchors(bare)) < MIN_FOUND
    anchors = card_anchors(bare)
    assert len({anchors[k] for k in anchors}) == 1  # every card at the one standard place


def _save(design: dict[str, np.ndarray], folder: Path) -> None:
    folder.mkdir(parents=True)
    for label, card in design.items():
        cv2.imwrite(str(folder / f"{label}.png"), card)
    (folder / "done").write_text("")


def test_given_rendered_designs_when_filtered_then_a_design_the_proposer_cannot_anchor_is_left_out(
        design: dict[str, np.ndarray], tmp_path: Path) -> None:
    if "back" not in design:
        design = {**design, "back": np.full_like(next(iter(design.values())), 200)}
    _save(design, tmp_path / "made-up-plain")
    _save(_no_index(design), tmp_path / "made-up-bare")
    assert proposed_designs(tmp_path) == ["made-up-plain"]
    assert proposed_designs(tmp_path, among=("made-up-bare",)) == []


def test_given_the_small_share_when_scenes_are_made_then_their_indices_are_that_small(
        design: dict[str, np.ndarray]) -> None:
    anchors = [card_anchors(design)]
    small = make_index_set([design], anchors, 12, seed=3, small_share=1.0)
    lo, hi = SMALL_PX[0] * INDEX_SHARE, SMALL_PX[1] * INDEX_SHARE
    assert len(small.height) and ((small.height >= lo - 1e-3) & (small.height <= hi + 1e-3)).all()
    fixed = make_index_set([design], anchors, 12, seed=3, card_px=(200.0, 200.0001), small_share=0.0)
    assert np.allclose(fixed.height, 200 * INDEX_SHARE, atol=1e-2)
    assert (fixed.rank >= 0).any() and (fixed.rank < 0).any()  # indices and boxes with none
