"""Test-time views (issue 8): a card is read in several framings and taken only when they agree."""

import copy
import dataclasses
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.cards import Card
from vision.classify import ClassifierMeta, OnnxClassifier, default_model_paths, mean_view_probs, views_agree
from vision.errors import ModelLoadError
from vision.preprocess import RECT_H, RECT_W, preprocess
from vision.views import View, reframe, turn_feeds, view_feeds, zoomed_feeds

REAL_SINGLE = Path("/work/shared/data/real-cards/single")
CLASSES = ["QS", "10H", "AC", "back", "none"]


def _meta_file(tmp_path: Path, **changes) -> Path:
    raw = {"classes": CLASSES, "temperature": 1.0, "input_names": ["corners", "face"], "accept_threshold": 0.9,
           "second_opinion": {"model": "v1.onnx", "temperature": 1.0, "accept_threshold": 0.94},
           "still_image_rule": {"accept_threshold": 0.97, "second_threshold": 0.8, "min_own": 0.8,
                                "views": [{"turned": True}, {"scale": 1.06}]}, **changes}
    path = tmp_path / "card_classifier.json"
    path.write_text(json.dumps(raw))
    return path


def test_given_a_still_rule_with_views_when_loaded_then_only_that_rule_has_them(tmp_path: Path) -> None:
    meta = ClassifierMeta.load(_meta_file(tmp_path))
    assert meta.views == ()  # live play: no views unless the metadata's top level lists some
    assert meta.still_image_views == (View(1.0, True), View(1.06, False))
    assert meta.still_image_rule == (0.97, 0.8, 0.8)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"views": {"scale": 1.03}}, "card_classifier.json.*views must be a list"),
        ({"views": [{"scale": "big"}]}, r"card_classifier.json.*views\[0\].*scale must be a number"),
        ({"views": [{"scale": 1.03, "shift": 4}]}, r"views\[0\] must be"),
        ({"views": [{"scale": 2.0}]}, r"views\[0\].*zooms by"),
        ({"views": [{"scale": 1.0}]}, r"views\[0\].*differs from the card as given"),
        ({"still_image_rule": {"accept_threshold": 0.99}}, "card_classifier.json.*still_image_rule needs"),
        ({"still_image_rule": {"accept_threshold": 0.99, "second_threshold": 0.8, "views": [{"turned": "yes"}]}},
         r"still_image_rule.views\[0\].*turned true or false"),
        ({"still_image_rule": {"accept_threshold": 9, "second_threshold": 0.8}}, "must lie in"),
    ],
)
def test_given_a_malformed_view_entry_when_loaded_then_the_error_names_file_and_key(tmp_path: Path, changes,
                                                                                    message) -> None:
    with pytest.raises(ModelLoadError, match=message):
        ClassifierMeta.load(_meta_file(tmp_path, **changes))


def test_given_a_card_when_reframed_then_zoom_in_enlarges_and_zoom_out_repeats_the_border() -> None:
    card = np.full((RECT_H, RECT_W, 3), 255, np.uint8)
    cv2.circle(card, (RECT_W // 2, RECT_H // 2), 20, (0, 0, 0), -1)
    card[:, :3] = 90  # a band of table at the left edge
    dark = lambda img: int((img[40:240, 40:160] < 60).all(axis=2).sum())  # noqa: E731
    assert np.array_equal(reframe(card, 1.0), card)
    assert dark(reframe(card, 1.1)) > dark(card) > dark(reframe(card, 0.9))
    assert (reframe(card, 0.9)[:, :3] == 90).all()  # the border repeated, not black


def test_given_turned_views_when_fed_then_they_equal_preprocessing_the_turned_card() -> None:
    rng = np.random.default_rng(3)
    cards = [rng.integers(0, 256, (RECT_H, RECT_W, 3), dtype=np.uint8) for _ in range(2)]
    feeds = preprocess(cards)
    views = (View(1.0, True), View(1.05, False), View(1.05, True))
    out = view_feeds(cards, feeds, views)
    assert out["corners"].shape[0] == 3 * len(cards)
    turned = preprocess([np.ascontiguousarray(c[::-1, ::-1]) for c in cards])
    zoomed = zoomed_feeds(cards, 1.05)
    assert np.array_equal(out["face"][:2], turned["face"]) and np.array_equal(out["corners"][:2], turned["corners"])
    assert np.array_equal(out["face"][2:4], zoomed["face"])
    assert np.array_equal(out["corners"][4:], turn_feeds(zoomed)["corners"])


def _smooth_card() -> np.ndarray:
    card = np.full((RECT_H, RECT_W, 3), 235, np.uint8)
    cv2.putText(card, "Q", (8, 48), cv2.FONT_HERSHEY_SIMPLEX, 1.6, (30, 30, 200), 4)
    cv2.circle(card, (RECT_W // 2, RECT_H // 2), 40, (20, 20, 20), -1)
    card[:, :4] = (60, 90, 120)  # a sliver of table
    return cv2.GaussianBlur(card, (5, 5), 1.5)


@pytest.mark.parametrize("scale", [1.06, 0.94, 1.03])
def test_given_a_zoom_when_fed_directly_then_it_matches_preprocessing_the_reframed_card(scale: float) -> None:
    card = _smooth_card()
    assert all(np.array_equal(a, b) for a, b in zip(zoomed_feeds([card], 1.0).values(), preprocess([card]).values()))
    fast, slow = zoomed_feeds([card], scale), preprocess([reframe(card, scale)])
    for name in ("corners", "face"):
        assert np.abs(fast[name] - slow[name]).mean() < 0.02  # rounding to whole pixels only
    unzoomed = preprocess([card])["corners"]
    assert np.abs(fast["corners"] - unzoomed).mean() > 2 * np.abs(fast["corners"] - slow["corners"]).mean()


def _model() -> OnnxClassifier:
    if not default_model_paths()[0].is_file():
        pytest.skip("needs the trained model")
    return OnnxClassifier(rule="still")


def _heads(n: int, best: int, p_first: float, p_second: float, views: list[int]) -> dict[str, np.ndarray]:
    """Heads whose card as given reads ``best`` at about ``p_first`` (1.x ``p_second``), corners and
    face agreeing, and one view of that card per entry of ``views`` naming that class as sure."""
    def logits(k: int, p: float, temperature: float) -> np.ndarray:
        row = np.zeros(n, np.float32)
        row[k] = np.log(p * (n - 1) / (1 - p)) * temperature
        return row[None]

    model = _model()
    t = model.meta.temperature
    agree = np.zeros((1, n), np.float32)
    agree[0, best] = 9.0
    return {"logits": logits(best, p_first, t), "corner_logits": np.stack([agree, agree], axis=1),
            "face_logits": agree, "second_logits": logits(best, p_second, t),
            "view_logits": np.stack([logits(k, p_first, t) for k in views])}


def _with_views(model: OnnxClassifier, count: int) -> OnnxClassifier:
    other = copy.copy(model)
    views = (View(1.0, True), View(1.03), View(0.97), View(1.06), View(0.94))[:count]
    other.meta = dataclasses.replace(model.meta, views=views)
    return other


def test_given_views_that_disagree_when_judged_then_the_card_is_unsure() -> None:
    model = _with_views(_model(), 2)
    n = len(model.meta.classes)
    sure = _heads(n, 5, 0.999, 0.99, [5, 5])
    assert bool(model.accepted(sure)[0]) and bool(views_agree(sure)[0])
    one_off = _heads(n, 5, 0.999, 0.99, [5, 6])  # one framing reads another card: no reading
    assert not bool(views_agree(one_off)[0]) and not bool(model.accepted(one_off)[0])
    (reading,) = model.readings_of(one_off)
    assert reading.label is None


def test_given_views_when_judged_then_the_threshold_applies_to_the_mean_over_them() -> None:
    model = _with_views(_model(), 1)
    n = len(model.meta.classes)
    heads = _heads(n, 5, 0.999, 0.01, [5])
    heads["view_logits"][0, 0, 5] = 1.0  # the other framing still names the card, but barely
    mean = mean_view_probs(heads, model.meta.temperature)[0, 5]
    assert mean < model.meta.accept_threshold < 0.999
    assert bool(views_agree(heads)[0]) and not bool(model.accepted(heads)[0])
    (reading,) = model.readings_of(heads)
    assert reading.label is None and reading.confidence == pytest.approx(float(mean), abs=1e-5)


def test_given_the_shipped_metadata_when_the_still_rule_is_taken_then_its_views_come_from_there() -> None:
    model = _model()
    raw = json.loads(default_model_paths()[1].read_text())
    listed = raw["still_image_rule"].get("views", [])
    assert model.meta.views == tuple(View(float(v.get("scale", 1.0)), bool(v.get("turned", False))) for v in listed)
    assert OnnxClassifier(rule="live").meta.views == tuple(
        View(float(v.get("scale", 1.0)), bool(v.get("turned", False))) for v in raw.get("views", []))


def test_given_cards_when_read_with_views_then_heads_alone_stay_as_they_were() -> None:
    # deck profiles call heads()/heads_of_feeds(): the views are an extra, never a change there
    model = _with_views(_model(), 3)
    rng = np.random.default_rng(0)
    cards = [rng.integers(0, 256, (RECT_H, RECT_W, 3), dtype=np.uint8) for _ in range(3)]
    plain = model.heads(cards)
    assert "view_logits" not in plain
    more = model.heads_with_views(cards)
    assert more["view_logits"].shape == (3, 3, len(model.meta.classes))
    assert np.allclose(more["logits"], plain["logits"], atol=1e-5)
    assert model.heads_with_views([])["logits"].shape == (0, len(model.meta.classes))


@pytest.mark.skipif(not REAL_SINGLE.is_dir(), reason="needs the real single cards")
def test_given_real_cards_when_read_with_the_still_rule_then_none_is_read_wrong() -> None:
    model = _model()
    files = sorted(REAL_SINGLE.glob("*.jpg"))[::6]
    cards = [cv2.resize(cv2.imread(str(p)), (RECT_W, RECT_H), interpolation=cv2.INTER_AREA) for p in files]
    readings = model.classify(cards)
    assert all(r.label is None or r.label == Card.parse(p.stem) for r, p in zip(readings, files))
    assert sum(r.label is not None for r in readings) >= len(files) // 2
