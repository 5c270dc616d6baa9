"""The shared preprocessing step (vision/preprocess.py): shapes, errors, symmetry, light."""

from __future__ import annotations

import numpy as np
import pytest

from vision.errors import VisionError
from vision.preprocess import (
    CORNER_H,
    CORNER_W,
    FACE_H,
    FACE_W,
    INPUT_NAMES,
    RECT_H,
    RECT_W,
    PreprocessInputError,
    preprocess,
)


def _card(seed: int) -> np.ndarray:
    """A paper-white card with a dark index at top-left and random marks."""
    rng = np.random.default_rng(seed)
    card = np.full((RECT_H, RECT_W, 3), 235, np.uint8)
    card[10:60, 8:30] = rng.integers(0, 80, size=(50, 22, 3), dtype=np.uint8)
    card[100:180, 60:140] = rng.integers(0, 256, size=(80, 80, 3), dtype=np.uint8)
    return card


@pytest.mark.parametrize("n", [1, 3, 8])
def test_given_n_cards_when_preprocessed_then_feeds_have_the_documented_shapes(n: int) -> None:
    feeds = preprocess([_card(i) for i in range(n)])
    assert tuple(feeds) == INPUT_NAMES
    assert feeds["corners"].shape == (n, 2, 3, CORNER_H, CORNER_W)
    assert feeds["face"].shape == (n, 3, FACE_H, FACE_W)
    assert all(f.dtype == np.float32 and f.flags.c_contiguous for f in feeds.values())


def test_given_a_4d_batch_array_when_preprocessed_then_it_equals_the_list_form() -> None:
    cards = [_card(1), _card(2)]
    from_array = preprocess(np.stack(cards))
    from_list = preprocess(cards)
    for name in INPUT_NAMES:
        np.testing.assert_array_equal(from_array[name], from_list[name])


def test_given_no_cards_when_preprocessed_then_empty_feeds_keep_their_trailing_shape() -> None:
    feeds = preprocess([])
    assert feeds["corners"].shape == (0, 2, 3, CORNER_H, CORNER_W)
    assert feeds["face"].shape == (0, 3, FACE_H, FACE_W)


@pytest.mark.parametrize(
    ("bad", "quoted"),
    [
        ([np.zeros((280, 200), np.uint8)], "(280, 200)"),
        ([np.zeros((200, 280, 3), np.uint8)], "(200, 280, 3)"),
        ([np.zeros((280, 200, 4), np.uint8)], "(280, 200, 4)"),
        ([np.zeros((280, 200, 3), np.float32)], "float32"),
        (["QS.jpg"], "str"),
        (np.zeros((280, 200, 3), np.uint8), "wrap it in a list"),
    ],
)
def test_given_a_bad_input_when_preprocessed_then_a_vision_error_quotes_it(bad: object, quoted: str) -> None:
    with pytest.raises(PreprocessInputError) as info:
        preprocess(bad)  # type: ignore[arg-type]
    assert quoted in str(info.value)
    assert isinstance(info.value, VisionError) and isinstance(info.value, ValueError)


def test_given_a_bad_card_in_a_batch_when_preprocessed_then_the_error_names_its_position() -> None:
    with pytest.raises(PreprocessInputError, match="card 2"):
        preprocess([_card(0), _card(1), np.zeros((10, 10, 3), np.uint8)])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_given_a_card_turned_180_degrees_when_preprocessed_then_its_two_corners_swap(seed: int) -> None:
    card = _card(seed)
    upright = preprocess([card])["corners"][0]
    turned = preprocess([np.ascontiguousarray(card[::-1, ::-1])])["corners"][0]
    np.testing.assert_allclose(turned[0], upright[1], atol=1e-6)
    np.testing.assert_allclose(turned[1], upright[0], atol=1e-6)


@pytest.mark.parametrize("gains", [(0.85, 1.0, 1.1), (0.7, 0.7, 0.7), (1.0, 0.9, 0.8)])
def test_given_the_same_card_under_another_light_when_preprocessed_then_feeds_barely_change(
    gains: tuple[float, float, float],
) -> None:
    card = _card(5)
    relit = (card.astype(np.float32) * np.array(gains, np.float32)).clip(0, 255).astype(np.uint8)
    base, other = preprocess([card])["face"], preprocess([relit])["face"]
    assert float(np.abs(base - other).mean()) < 0.03


def test_given_a_batch_when_preprocessed_then_the_input_is_left_untouched() -> None:
    cards = [_card(3), _card(4)]
    copies = [c.copy() for c in cards]
    preprocess(cards)
    for card, copy in zip(cards, copies):
        np.testing.assert_array_equal(card, copy)


def test_given_a_dark_table_patch_when_preprocessed_then_values_stay_bounded() -> None:
    patch = np.full((RECT_H, RECT_W, 3), 3, np.uint8)
    patch[::7] = 40
    feeds = preprocess([patch])
    for feed in feeds.values():
        assert feed.min() >= -0.5 and feed.max() <= 1.0
