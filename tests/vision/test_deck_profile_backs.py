"""An enrolled profile that finds a crop unlike every enrolled card reads it face down only
when the base model itself is sure it is a back (a back of another deck), not when only
its second opinion is: clutter on the table must stay unsure, never a face-down card."""

from types import SimpleNamespace

import numpy as np
import pytest

from vision.deck_profile import VETO_THRESHOLD, DeckProfile, Evidence, ProfiledClassifier

CLASSES = ("QS", "KS", "back", "none")


def _reader() -> ProfiledClassifier:
    profile = DeckProfile.from_prototypes("toy", "9.9", {"QS": np.array([1.0, 0, 0]), "KS": np.array([0, 1.0, 0]),
                                                         "back": np.array([0, 0, 1.0])})
    meta = SimpleNamespace(temperature=1.0, classes=CLASSES, agreement={}, second_opinion=("second", 1.0))
    base = SimpleNamespace(output_names=("logits", "embedding", "second_logits"), meta_version="9.9", meta=meta)
    return ProfiledClassifier(base, profile)  # type: ignore[arg-type]


def _evidence(back_logit: float) -> Evidence:
    # like the enrolled back only 0.78 (under the gate), nearer it than any card; the second model sure it is a back
    return Evidence({"embedding": np.array([[0.6, 0.0, 0.75]], np.float32),
                     "logits": np.array([[0.0, 0.0, back_logit, 0.0]], np.float32),
                     "second_logits": np.array([[0.0, 0.0, 8.0, 0.0]], np.float32)}, None)


def test_given_a_crop_unlike_the_enrolled_back_when_only_the_second_opinion_is_sure_then_unsure() -> None:
    reader = _reader()
    p_back = np.exp(2.0) / (np.exp(2.0) + 3)
    assert p_back < VETO_THRESHOLD
    reading = reader.decide(_evidence(2.0))[0]
    assert reading.label is None and not reading.face_down
    assert "not like any enrolled card" in reading.reason


@pytest.mark.parametrize("back_logit", [6.0, 9.0])
def test_given_another_decks_back_when_the_model_is_sure_of_it_then_it_is_face_down(back_logit: float) -> None:
    reading = _reader().decide(_evidence(back_logit))[0]
    assert reading.face_down and reading.label is None and reading.confidence >= VETO_THRESHOLD


def _loose_profile() -> DeckProfile:
    fixed = DeckProfile.from_prototypes("toy", "9.9", {"QS": np.array([1.0, 0, 0]), "KS": np.array([0, 1.0, 0]),
                                                       "back": np.array([0, 0, 1.0])})
    # a gate learnt low for the faces, the back kept at the fixed 0.85
    return DeckProfile("toy", "9.9", fixed.vectors, fixed.labels, fixed.decks, min_similarity=0.7,
                       min_margin=fixed.min_margin, back_similarity=0.85)


def test_given_a_loose_learnt_gate_when_a_crop_is_as_near_the_back_as_a_face_may_be_then_it_stays_unsure() -> None:
    profile = _loose_profile()
    # a face 0.75 like QS (over the learnt 0.7); clutter 0.75 like the back (under its 0.85)
    face, clutter = profile.match(np.array([[0.75, 0.0, 0.66], [0.66, 0.0, 0.75]]))
    assert str(face.label) == "QS"
    assert not clutter.face_down and clutter.label is None and "nearest back" in clutter.reason


def test_given_a_back_gate_when_saved_and_loaded_then_it_is_kept(tmp_path) -> None:
    path = tmp_path / "decks.json"
    _loose_profile().save(path)
    again = DeckProfile.load(path)
    assert again.back_similarity == pytest.approx(0.85) and again.min_similarity == pytest.approx(0.7)
