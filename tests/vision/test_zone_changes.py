"""What changed in a zone's picture since its last look (vision/zone_changes.py)."""

from __future__ import annotations

import numpy as np

from engine.cards import Card
from vision.readings import CardDetections
from vision.zone_changes import BLOCK_PX, changed_blocks, small_copy, standing


def _cloth(rng: np.random.Generator) -> np.ndarray:
    """A pale cloth with a weave, 320 x 1200 px (a line zone's crop)."""
    weave = 8.0 * np.sin(np.arange(1200) / 3.0)[None, :] + 6.0 * np.sin(np.arange(320) / 2.0)[:, None]
    return np.clip(215.0 + weave + rng.normal(0, 2.0, (320, 1200)), 0, 255)


def _frame(grey: np.ndarray, rng: np.random.Generator, gain: float = 1.0, bands: float = 0.0,
           phase: float = 0.0) -> np.ndarray:
    """One camera frame of ``grey``: sensor noise, the exposure's gain, a flickering light's bands."""
    rows = 1.0 + bands * np.sin(2 * np.pi * np.arange(grey.shape[0]) / 250.0 + phase)[:, None]
    out = np.clip(grey * gain * rows + rng.normal(0, 2.0, grey.shape), 0, 255).astype(np.uint8)
    return np.repeat(out[..., None], 3, axis=2)


def _with_card(grey: np.ndarray, x: int, y: int) -> np.ndarray:
    """A white card (126 x 176 px, 2 px/mm) laid at (x, y) on the cloth: its rim, its index, a pip."""
    out = grey.copy()
    out[y:y + 176, x:x + 126] = 240.0
    out[y:y + 176, x] = out[y:y + 176, x + 125] = out[y, x:x + 126] = out[y + 175, x:x + 126] = 150.0
    out[y + 8:y + 22, x + 6:x + 16] = 40.0  # its index: a rank ...
    out[y + 26:y + 36, x + 6:x + 16] = 60.0  # ... and a suit
    out[y + 70:y + 100, x + 48:x + 78] = 50.0  # a pip
    return out


def test_noise_the_exposure_and_a_flickering_lights_bands_are_no_change() -> None:
    rng = np.random.default_rng(1)
    cloth = _with_card(_cloth(rng), 200, 60)
    look = small_copy(_frame(cloth, rng))
    for gain, bands, phase in [(1.0, 0.0, 0.0), (1.06, 0.0, 0.0), (0.93, 0.3, 1.0), (1.0, 0.35, 2.5)]:
        changed = changed_blocks(small_copy(_frame(cloth, rng, gain, bands, phase)), look)
        assert changed is not None and not changed.any(), (gain, bands)


def test_a_white_card_laid_on_a_white_cloth_changes_the_blocks_where_it_lies() -> None:
    rng = np.random.default_rng(2)
    cloth = _cloth(rng)
    look = small_copy(_frame(cloth, rng))
    # under a flickering light, as a card is laid
    changed = changed_blocks(small_copy(_frame(_with_card(cloth, 600, 80), rng, 1.0, 0.3, 0.7)), look)
    assert changed is not None and changed.any()
    ys, xs = np.nonzero(changed)
    # every changed block lies on the card (its rim's blocks included), none elsewhere
    assert xs.min() >= 600 // BLOCK_PX - 1 and xs.max() <= (600 + 126) // BLOCK_PX + 1
    assert ys.min() >= 80 // BLOCK_PX - 1 and ys.max() <= (80 + 176) // BLOCK_PX + 1


def test_copies_of_crops_of_other_sizes_are_not_compared() -> None:
    rng = np.random.default_rng(3)
    frame = _frame(_cloth(rng), rng)
    assert changed_blocks(small_copy(frame[:, :800]), small_copy(frame)) is None
    assert changed_blocks(small_copy(frame), None) is None


def _card(x: float, y: float, label: str | None, w: float = 126.0, h: float = 176.0) -> CardDetections:
    quad = np.array([[[x, y], [x + w, y], [x + w, y + h], [x, y + h]]], np.float32)
    return CardDetections(quad, [None if label is None else Card.parse(label)],
                          [0.99 if label else 0.4])


def _labels(cards: CardDetections) -> list[str | None]:
    order = np.argsort(cards.center_xy[:, 0])
    return [None if cards.label[i] is None else str(cards.label[i]) for i in order]


def test_a_card_whose_blocks_did_not_change_keeps_its_reading() -> None:
    # given a zone read with 4C at (100, 50) and QH at (600, 50), and a look after a card was
    # laid at (1000, 50): 4C's blocks unchanged, QH's and the new card's changed
    changed = np.zeros((40, 150), bool)
    changed[5:30, 74:94] = True  # QH's place
    changed[5:30, 124:142] = True  # the new card's place
    before = CardDetections.concatenate([_card(100, 50, "4C"), _card(600, 50, "QH")])
    fresh = CardDetections.concatenate([_card(102, 51, None), _card(601, 50, "QD"), _card(1000, 50, "7S")])
    # when the fresh look is settled with the one before (the crop's top-left at the frame's origin)
    out = standing(before, fresh, changed, (0, 0))
    # then 4C stands (the fresh look lost it), QH's changed place is read afresh, 7S is added
    assert _labels(out) == ["4C", "QD", "7S"]


def test_a_card_left_unread_is_read_when_a_later_look_reads_it_and_a_card_that_stood_stays() -> None:
    unchanged = np.zeros((40, 150), bool)
    before = CardDetections.concatenate([_card(100, 50, None), _card(400, 50, "9S")])
    fresh = _card(101, 52, "AD")  # 9S not found this time, the unread card now read
    assert _labels(standing(before, fresh, unchanged, (0, 0))) == ["AD", "9S"]
    # a card taken away changes its blocks: it no longer stands
    gone = unchanged.copy()
    gone[5:30, 49:67] = True
    assert _labels(standing(before, fresh, gone, (0, 0))) == ["AD"]


def test_cards_of_an_overlapped_column_are_no_one_place() -> None:
    # a column: each card a third of a card below the one before; the fresh look lost the middle one
    unchanged = np.zeros((80, 60), bool)
    before = CardDetections.concatenate([_card(100, 50, "QH"), _card(100, 110, "9S"), _card(100, 170, "AD")])
    fresh = CardDetections.concatenate([_card(100, 50, "QH"), _card(100, 170, "AD")])
    out = standing(before, fresh, unchanged, (0, 0))
    assert sorted(str(c) for c in out.label) == ["9S", "AD", "QH"]
