"""Card templates of an enrolled deck (issue 8): its own cards match their own templates, a
card of another design matches worse, the templates survive the profile file, and the
enrolment report names cards whose print cannot be told apart."""

import json

import numpy as np
import pytest

from vision.deck_templates import TemplateBank


def _deck(seed: int, letters: str = "english") -> dict[str, np.ndarray]:
    from models.procedural_deck import make_design

    return make_design(np.random.default_rng(seed), letters)


def _views(design: dict[str, np.ndarray], seed: int, labels: list[str], plain: bool = True) -> list[np.ndarray]:
    from models.synth import AugmentConfig, TextureBank, augment_photo, place_card

    rng = np.random.default_rng(seed)
    bank = TextureBank(seed=seed, count=2, size=320)
    config = AugmentConfig(min_scale=0.6) if plain else AugmentConfig(corner_jitter=0.008, shift=0.005,
                                                                      rotate_deg=0.7, min_scale=0.8, max_noise=3.0)
    return [augment_photo(rng, place_card(rng, design[k], bank.crop(rng), config), config) for k in labels]


LABELS = ["AS", "2S", "5H", "8C", "9D", "10H", "JC", "QD", "KS", "7S", "3D", "6H"]


@pytest.fixture(scope="module")
def enrolled() -> tuple[dict[str, np.ndarray], TemplateBank]:
    deck = _deck(71)
    clean = _views(deck, 1, LABELS, plain=False)
    return deck, TemplateBank.build(clean, LABELS, [0] * len(LABELS))


def test_given_camera_views_of_enrolled_cards_when_scored_then_nearly_all_match_their_own_template(enrolled) -> None:
    deck, bank = enrolled
    scores = bank.scores(_views(deck, 2, LABELS * 2))
    best = [bank.labels[int(i)] for i in scores.argmax(axis=1)]
    assert sum(b == k for b, k in zip(best, LABELS * 2)) >= 20  # of 24


def test_given_the_same_cards_of_another_design_when_scored_then_they_match_their_label_worse(enrolled) -> None:
    deck, bank = enrolled
    own = bank.scores(_views(deck, 3, LABELS))
    stranger = bank.scores(_views(_deck(72), 3, LABELS))
    k = np.arange(len(LABELS))
    assert np.median(own[k, k]) > np.median(stranger[k, k]) + 0.15


def test_given_templates_when_written_to_json_and_read_back_then_the_scores_stay_within_quantisation(enrolled) -> None:
    deck, bank = enrolled
    again = TemplateBank.from_json(json.loads(json.dumps(bank.to_json())))
    views = _views(deck, 4, LABELS[:4])
    assert again.labels == bank.labels
    assert np.abs(again.scores(views) - bank.scores(views)).max() < 0.03


def test_given_damaged_templates_when_loaded_then_the_error_says_enrol_again() -> None:
    from vision.errors import ModelLoadError

    with pytest.raises(ModelLoadError, match="enrol the decks again"):
        TemplateBank.from_json({"labels": ["AS"], "decks": [0]}, "decks.json")


def test_given_a_deck_whose_six_and_nine_print_alike_when_enrolled_then_the_report_names_the_pair() -> None:
    from vision.classify import OnnxClassifier, default_model_paths
    from vision.deck_profile import enrol

    if not default_model_paths()[0].is_file():
        pytest.skip("needs the trained model")
    deck = _deck(73)
    crops = dict(zip(LABELS + ["6C", "9C"], _views(deck, 5, LABELS + ["6C", "6C"], plain=False)))
    crops["9C"] = np.ascontiguousarray(crops["9C"][::-1, ::-1])  # the same print, turned: a 9 like a 6
    profile, report = enrol(OnnxClassifier(), [crops], "t")
    assert any({a, b} == {"6C", "9C"} for _, a, b, _ in report.confusable)
    assert any("look alike" in line for line in report.lines()) and not report.ok
    assert profile.templates is not None and len(profile.templates.labels) == len(crops)
