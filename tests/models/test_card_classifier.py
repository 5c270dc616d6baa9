"""The committed classifier (models/card_classifier.onnx + .json) through onnxruntime only.

Given the committed model, when it reads the small rendered test cards of tests/vision/data,
then it reads them right; a blank table reads as "none" or unsure. No torch, no Debian packages.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort
import pytest

from engine.cards import Card, all_kinds
from models.synth import make_table_texture
from vision.preprocess import INPUT_NAMES, RECT_H, RECT_W, preprocess

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "models" / "card_classifier.onnx"
META = ROOT / "models" / "card_classifier.json"
TEST_CARDS = sorted((ROOT / "tests" / "vision" / "data").glob("card_*.jpg"))


@pytest.fixture(scope="module")
def meta() -> dict[str, object]:
    return json.loads(META.read_text())


@pytest.fixture(scope="module")
def session() -> ort.InferenceSession:
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    return ort.InferenceSession(str(MODEL), options, providers=["CPUExecutionProvider"])


def _probs(session: ort.InferenceSession, meta: dict[str, object], cards: list[np.ndarray]) -> np.ndarray:
    logits = session.run(None, preprocess(cards))[0] / float(meta["temperature"])  # type: ignore[arg-type]
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def test_given_the_committed_model_then_it_is_small() -> None:
    assert MODEL.stat().st_size < 5_000_000


def test_given_the_metadata_then_classes_are_52_canonical_cards_back_and_none(meta: dict[str, object]) -> None:
    classes = meta["classes"]
    assert isinstance(classes, list) and len(classes) == 54
    assert classes[:52] == [str(c) for c in all_kinds()]
    assert all(str(Card.parse(label)) == label for label in classes[:52])
    assert classes[52:] == ["back", "none"]


def test_given_the_metadata_then_calibration_fields_are_sane(meta: dict[str, object]) -> None:
    assert float(meta["temperature"]) > 0  # type: ignore[arg-type]
    assert 0.0 < float(meta["accept_threshold"]) < 1.0  # type: ignore[arg-type]
    assert isinstance(meta["version"], str) and meta["version"]
    holdout = meta["holdout"]
    assert isinstance(holdout, dict) and holdout["test_designs"]
    assert not set(holdout["test_designs"]) & set(meta["training"]["train_designs"])  # type: ignore[index]


def test_given_the_session_then_its_inputs_and_output_match_the_contract(
    session: ort.InferenceSession, meta: dict[str, object]
) -> None:
    assert [i.name for i in session.get_inputs()] == list(INPUT_NAMES) == meta["input_names"]
    feeds = preprocess([np.full((RECT_H, RECT_W, 3), 200, np.uint8)] * 3)
    logits = session.run(None, feeds)[0]
    assert logits.shape == (3, len(meta["classes"]))  # type: ignore[arg-type]


@pytest.mark.parametrize("batch", [1, 2, 5])
def test_given_any_batch_size_when_read_then_each_card_gets_the_same_logits(
    session: ort.InferenceSession, batch: int
) -> None:
    rng = np.random.default_rng(batch)
    cards = [rng.integers(0, 256, (RECT_H, RECT_W, 3), dtype=np.uint8) for _ in range(batch)]
    together = session.run(None, preprocess(cards))[0]
    alone = np.concatenate([session.run(None, preprocess([c]))[0] for c in cards])
    np.testing.assert_allclose(together, alone, atol=1e-4)


@pytest.mark.parametrize("path", TEST_CARDS, ids=[p.stem for p in TEST_CARDS])
def test_given_a_rendered_test_card_when_read_then_the_label_in_its_name_is_read_confidently(
    session: ort.InferenceSession, meta: dict[str, object], path: Path
) -> None:
    expected = path.stem.split("_")[1]
    image = cv2.imread(str(path))
    assert image is not None and image.shape == (RECT_H, RECT_W, 3)
    for card in (image, np.ascontiguousarray(image[::-1, ::-1])):  # both ways up
        probs = _probs(session, meta, [card])[0]
        assert meta["classes"][int(probs.argmax())] == expected  # type: ignore[index]
        assert probs.max() >= float(meta["accept_threshold"])  # type: ignore[arg-type]


def test_given_the_committed_test_cards_then_there_are_a_few_small_ones() -> None:
    assert len(TEST_CARDS) >= 5
    assert sum(p.stat().st_size for p in TEST_CARDS) < 300_000


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_given_a_blank_table_patch_when_read_then_it_is_none_or_unsure(
    session: ort.InferenceSession, meta: dict[str, object], seed: int
) -> None:
    table = make_table_texture(np.random.default_rng(1000 + seed), RECT_H, RECT_W)
    probs = _probs(session, meta, [table])[0]
    label = meta["classes"][int(probs.argmax())]  # type: ignore[index]
    assert label == "none" or probs.max() < float(meta["accept_threshold"])  # type: ignore[arg-type]
