"""The similarity gate of an enrolled profile is learnt at enrolment from the enrolled views:
looser where the network tells the deck's cards far apart, never looser than the fixed rule
where it does not, and never so loose that a crop with no card passes."""

import numpy as np
import pytest

from vision.classify import OnnxClassifier, default_model_paths
from vision.deck_profile import (ENROLLED_SIMILARITY, GATE_FLOOR, GATE_SLACK, DeckProfile, enrol,
                                 learnt_gate)


def _unit(x: np.ndarray) -> np.ndarray:
    return (x / np.linalg.norm(x, axis=-1, keepdims=True)).astype(np.float32)


def _views_around(prototypes: np.ndarray, spread: float, seed: int, count: int = 6) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [_unit(p + rng.normal(0, spread, (count, prototypes.shape[1]))) for p in prototypes]


def test_given_views_far_from_every_other_card_when_the_gate_is_learnt_then_it_is_the_floor() -> None:
    protos = np.eye(8, dtype=np.float32)
    labels = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "back"]
    gate = learnt_gate(protos, labels, _views_around(protos, 0.02, 1))
    assert gate == pytest.approx(GATE_FLOOR)
    assert gate < ENROLLED_SIMILARITY


def test_given_views_near_another_card_when_the_gate_is_learnt_then_it_keeps_the_fixed_one() -> None:
    base = np.ones(8, np.float32)
    protos = _unit(np.stack([base + 0.3 * e for e in np.eye(8, dtype=np.float32)]))  # all alike (cos ~0.93)
    labels = ["6S", "9S", "6C", "9C", "6H", "9H", "6D", "9D"]
    assert learnt_gate(protos, labels, _views_around(protos, 0.01, 2)) == pytest.approx(ENROLLED_SIMILARITY)


def test_given_views_between_when_the_gate_is_learnt_then_it_is_the_nearest_other_card_plus_the_slack() -> None:
    # two cards whose prototypes are 0.72 alike; their views are the prototypes themselves
    c = 0.72
    protos = np.array([[1.0, 0.0], [c, np.sqrt(1 - c * c)]], np.float32)
    gate = learnt_gate(protos, ["QS", "KS"], [protos[:1], protos[1:]])
    assert gate == pytest.approx(c + GATE_SLACK, abs=1e-4)


def test_given_one_card_enrolled_twice_when_the_gate_is_learnt_then_its_own_copy_is_not_another_card() -> None:
    protos = _unit(np.array([[1.0, 0.0, 0.0], [0.99, 0.1, 0.0], [0.0, 0.0, 1.0]], np.float32))
    gate = learnt_gate(protos, ["QS", "QS", "KS"], [protos[:1], protos[1:2], protos[2:]])
    assert gate == pytest.approx(GATE_FLOOR)  # the two QS rows (two decks) are the same card


def test_given_a_learnt_gate_when_matched_then_a_card_the_fixed_gate_left_unsure_is_read() -> None:
    protos = {"QS": np.array([1.0, 0, 0]), "KS": np.array([0, 1.0, 0])}
    fixed = DeckProfile.from_prototypes("toy", "9.9", protos)
    probe = np.array([[0.78, 0.0, 0.626]])  # 0.78 like QS, nothing like KS
    learnt = DeckProfile("toy", "9.9", fixed.vectors, fixed.labels, fixed.decks, min_similarity=learnt_gate(
        fixed.vectors, fixed.labels, [fixed.vectors[:1], fixed.vectors[1:]]), min_margin=fixed.min_margin)
    fixed_strict = DeckProfile("toy", "9.9", fixed.vectors, fixed.labels, fixed.decks,
                               min_similarity=ENROLLED_SIMILARITY, min_margin=fixed.min_margin)
    assert fixed_strict.match(probe)[0].label is None
    assert str(learnt.match(probe)[0].label) == "QS"


needs_model = pytest.mark.skipif(not default_model_paths()[0].is_file(), reason="needs the trained model")


@needs_model
def test_given_a_made_up_deck_when_enrolled_then_its_gate_is_learnt_named_and_survives_saving(tmp_path) -> None:
    from models.procedural_deck import make_design
    from models.synth import AugmentConfig, TextureBank, augment_photo, place_card

    model = OnnxClassifier()
    if "embedding" not in model.output_names:
        pytest.skip("the committed model has no embedding output")
    deck = make_design(np.random.default_rng(42), "english")
    rng = np.random.default_rng(3)
    bank = TextureBank(seed=3, count=2, size=320)
    clean = AugmentConfig(corner_jitter=0.008, shift=0.005, rotate_deg=0.7, min_scale=0.7, max_noise=3.0)
    crops = {k: augment_photo(rng, place_card(rng, card, bank.crop(rng), clean), clean) for k, card in deck.items()}
    profile, _ = enrol(model, [crops], "english")
    assert GATE_FLOOR <= profile.min_similarity <= ENROLLED_SIMILARITY
    # made-up decks' cards lie near each other for the network: the gate must not loosen there
    assert profile.min_similarity == pytest.approx(ENROLLED_SIMILARITY)
    assert any(f"similarity gate {profile.min_similarity:.2f}" in note for note in profile.notes)
    # every card shown has its print, the back too (a back the network leaves unsure is read by it)
    assert profile.prints is not None and sorted(profile.prints.labels) == sorted(crops)
    path = tmp_path / "decks.json"
    profile.save(path)
    again = DeckProfile.load(path)
    assert again.min_similarity == pytest.approx(profile.min_similarity)
    assert again.prints is not None and "back" in again.prints.labels
