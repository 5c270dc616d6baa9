"""The deterministic pieces of the synthetic-card recipe (models/synth.py, models/render_cards.py).

No Debian card packages are needed except by the one render test, which skips without them.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from models.dataset import CLASSES, dequantise, quantise
from models.render_cards import Design, card_labels, trim_transparent
from models.synth import (
    AugmentConfig,
    TextureBank,
    augment_photo,
    busy_table,
    make_table_texture,
    place_card,
    procedural_back,
    sample_none,
)
from vision.preprocess import RECT_H, RECT_W

CONFIG = AugmentConfig()


def _toy_card() -> np.ndarray:
    """A BGRA card face: white, a black 'index' block top-left, a red block in the middle."""
    card = np.zeros((320, 220, 4), np.uint8)
    card[:, :, :3] = 240
    card[:, :, 3] = 255
    card[12:70, 10:40, :3] = 20
    card[120:200, 70:150, :3] = (30, 30, 200)
    return card


def _sample(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    bank = TextureBank(seed=seed, count=2, size=320)
    crop = place_card(rng, _toy_card(), bank.crop(rng), CONFIG)
    return augment_photo(rng, crop, CONFIG)


@pytest.mark.parametrize("seed", [0, 7, 123])
def test_given_a_seed_when_a_sample_is_made_twice_then_both_are_identical(seed: int) -> None:
    np.testing.assert_array_equal(_sample(seed), _sample(seed))


def test_given_two_seeds_when_samples_are_made_then_they_differ() -> None:
    assert not np.array_equal(_sample(1), _sample(2))


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_given_a_card_when_placed_and_spoiled_then_the_crop_has_the_rectified_shape(seed: int) -> None:
    image = _sample(seed)
    assert image.shape == (RECT_H, RECT_W, 3) and image.dtype == np.uint8


def test_given_many_placements_when_counted_then_about_half_are_turned_180_degrees() -> None:
    # the index block is dark: it sits at top-left upright, at bottom-right when turned
    rng = np.random.default_rng(5)
    table = np.full((RECT_H, RECT_W, 3), 128, np.uint8)
    turned = 0
    for _ in range(200):
        crop = place_card(rng, _toy_card(), table, CONFIG)
        turned += int(crop[-50:, -30:].mean() < crop[:50, :30].mean())
    assert 70 < turned < 130


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_given_a_seed_when_a_table_texture_is_made_then_it_is_a_bgr_image_with_texture(seed: int) -> None:
    texture = make_table_texture(np.random.default_rng(seed), 96, 128)
    assert texture.shape == (96, 128, 3) and texture.dtype == np.uint8
    assert texture.std() > 0.5


def test_given_a_seed_when_a_procedural_back_is_made_then_its_corners_are_rounded() -> None:
    back = procedural_back(np.random.default_rng(3), 210, 150)
    assert back.shape == (210, 150, 4)
    assert back[0, 0, 3] == 0 and back[105, 75, 3] == 255


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_given_a_none_sample_when_made_then_no_index_corner_of_the_card_shows(seed: int) -> None:
    rng = np.random.default_rng(seed)
    table = np.full((RECT_H, RECT_W, 3), 90, np.uint8)
    crop = sample_none(rng, table, _toy_card())
    assert crop.shape == (RECT_H, RECT_W, 3)
    # the dark index block (value 20) never lands fully inside either corner box
    assert crop[:50, :30].mean() > 40 or crop[-50:, -30:].mean() > 40


@pytest.mark.parametrize("seed", range(8))
def test_given_neighbour_cards_when_a_busy_table_is_made_then_they_stay_off_the_middle(seed: int) -> None:
    table = np.full((RECT_H, RECT_W, 3), 90, np.uint8)
    busy = busy_table(np.random.default_rng(seed), table, [_toy_card()] * 3)
    again = busy_table(np.random.default_rng(seed), table, [_toy_card()] * 3)
    np.testing.assert_array_equal(busy, again)
    # centres lie >= 0.55 card sizes beyond an edge: a turned card reaches at most 0.44 W or 0.16 H in
    middle = busy[int(RECT_H * 0.2) : int(RECT_H * 0.8), int(RECT_W * 0.45) : int(RECT_W * 0.55)]
    assert np.all(middle == 90)
    assert np.all(table == 90)  # the input is not drawn on


@pytest.mark.parametrize(
    ("source", "label", "svg_id"),
    [
        ("gnome", "QH", "heart_queen"),
        ("gnome", "AC", "club_1"),
        ("gnome", "10D", "diamond_10"),
        ("gnome", "back", "back"),
        ("kde", "QH", "queen_heart"),
        ("kde", "AC", "1_club"),
        ("kde", "JS", "jack_spade"),
        ("kde", "back", "back"),
    ],
)
def test_given_a_label_when_mapped_to_a_sheet_id_then_the_source_scheme_is_used(source: str, label: str, svg_id: str) -> None:
    assert Design("x", source, Path("x.svgz")).svg_id(label) == svg_id


def test_given_the_class_list_then_it_is_52_cards_back_and_none_in_engine_order() -> None:
    assert len(CLASSES) == 54 and CLASSES[-2:] == ("back", "none")
    assert list(CLASSES[:-1]) == card_labels()
    assert CLASSES[0] == "AC" and CLASSES[51] == "KS"


def test_given_a_transparent_margin_when_trimmed_then_only_the_card_remains() -> None:
    image = np.zeros((50, 40, 4), np.uint8)
    image[5:45, 8:30] = 255
    assert trim_transparent(image).shape == (40, 22, 4)


@pytest.mark.parametrize("shape", [(10, 10, 3), (10, 10)])
def test_given_a_non_bgra_or_empty_image_when_trimmed_then_value_error(shape: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="BGRA"):
        trim_transparent(np.zeros(shape, np.uint8))
    with pytest.raises(ValueError, match="transparent"):
        trim_transparent(np.zeros((10, 10, 4), np.uint8))


def test_given_feeds_when_quantised_for_storage_then_the_error_is_below_the_input_step() -> None:
    feed = np.linspace(-0.5, 1.0, 1001, dtype=np.float32)
    assert float(np.abs(dequantise(quantise(feed)) - feed).max()) < 0.003


@pytest.mark.skipif(
    shutil.which("rsvg-convert") is None or not Path("/usr/share/aisleriot/cards/paris.svgz").exists(),
    reason="needs librsvg2-bin and gnome-cards-data",
)
def test_given_the_gnome_paris_sheet_when_the_queen_of_hearts_is_rendered_then_it_is_a_portrait_card() -> None:
    from models.render_cards import render_one

    card = render_one(Design("gnome-paris", "gnome", Path("/usr/share/aisleriot/cards/paris.svgz")), "QH", 1.0)
    h, w = card.shape[:2]
    assert card.shape[2] == 4 and 1.3 < h / w < 1.7


def _toy_design() -> dict[str, np.ndarray]:
    """Every class of a toy design: the index block's height tells the cards apart."""
    design = {}
    for k, label in enumerate(CLASSES[:53]):
        card = _toy_card()
        card[80:80 + 2 + k % 40, 160:200, :3] = 10 * (k % 20)
        design[label] = card
    return design


def test_given_a_config_when_samples_are_made_then_it_replaces_the_training_recipe() -> None:
    from models.dataset import TABLE_CONFIG, TRAIN_CONFIG, make_samples

    design = _toy_design()
    table, labels = make_samples([design], 12, 5, inks=False, config=TABLE_CONFIG)
    train, labels2 = make_samples([design], 12, 5, inks=False, config=TRAIN_CONFIG)
    default, labels3 = make_samples([design], 12, 5, inks=False)
    assert np.array_equal(labels2, labels3) and all(np.array_equal(a, b) for a, b in zip(train, default))
    assert labels[0] == labels2[0] and not np.array_equal(table[0], train[0])  # one card, another recipe
    assert TABLE_CONFIG.p_reframe == 0.0 and TABLE_CONFIG.min_overlap_shift > TRAIN_CONFIG.min_overlap_shift


@pytest.mark.parametrize("label,component", [("QS", "Sq"), ("10D", "D10"), ("AH", "Ha"), ("7C", "C7"), ("back", "B2")])
def test_given_a_label_when_mapped_to_the_npm_deck_then_its_component_name_is_used(label: str, component: str) -> None:
    from models.fetch_npm_decks import component_of

    assert component_of(label) == component
