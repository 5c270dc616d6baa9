"""Card detection on rendered scenes with known corners (OpenCV tst_scene_render style).

Every scene is seeded; thresholds are on recall, precision and corner IoU, never pixels.
"""

import itertools

import numpy as np
import pytest

from vision.detect import detect_cards
from vision.geometry import match_quads, quad_iou
from vision.synthetic import BACKGROUNDS, render_scene

TILTS = (30, 45, 60, 75, 90)
SIZE = (1280, 720)


def _scenes():
    for k, (tilt, background) in enumerate(itertools.product(TILTS, BACKGROUNDS)):
        yield render_scene(np.random.default_rng(1000 + k), n_cards=8, size_wh=SIZE, tilt_deg=tilt,
                           background=background, touching=2, cut=1, backs=1)


@pytest.fixture(scope="module")
def results():
    out = []
    for scene in _scenes():
        found = detect_cards(scene.bgr)
        out.append((scene, found, match_quads(scene.truth.quad_xy, found.quad_xy, min_iou=0.6)))
    return out


def _touches_another(truth, i: int) -> bool:
    q = truth.quad_xy[i]
    grown = q.mean(axis=0) + (q - q.mean(axis=0)) * 1.04
    return any(quad_iou(grown, truth.quad_xy[k]) > 0 for k in range(len(truth)) if k != i)


@pytest.mark.parametrize(("touching", "min_recall"), [(False, 0.95), (True, 0.65)])
def test_given_25_scenes_at_30_to_90_degrees_when_detected_then_recall_is_high(results, touching,
                                                                               min_recall) -> None:
    whole = hits = 0
    for scene, _, pairs in results:
        found = {i for i, _, _ in pairs}
        for i in range(len(scene.truth)):
            if not scene.truth.cut[i] and _touches_another(scene.truth, i) == touching:
                whole += 1
                hits += int(i in found)
    assert whole >= 40 and hits / whole >= min_recall, f"recall {hits}/{whole}"


def test_given_25_scenes_when_detected_then_no_frame_is_a_disaster(results) -> None:
    for scene, _, pairs in results:
        whole_here = int((~scene.truth.cut).sum())
        got = sum(1 for i, _, _ in pairs if not scene.truth.cut[i])
        assert got >= 0.4 * whole_here, (scene.tilt_deg, scene.background, got, whole_here)


def test_given_25_scenes_when_detected_then_almost_every_card_found_is_a_card(results) -> None:
    reported = sum(int((~found.cut).sum()) for _, found, _ in results)
    right = sum(sum(1 for i, j, _ in pairs if not found.cut[j] and not scene.truth.cut[i])
                for scene, found, pairs in results)
    assert right / reported >= 0.97, f"precision {right}/{reported}"


def test_given_matched_cards_when_compared_then_corners_overlap_well_in_every_frame(results) -> None:
    for scene, _, pairs in results:
        ious = [iou for i, _, iou in pairs if not scene.truth.cut[i]]
        assert min(ious) > 0.6 and np.mean(ious) > 0.85, (scene.tilt_deg, scene.background, ious)


def test_given_cards_cut_by_the_frame_edge_then_they_are_flagged_or_dropped_never_whole(results) -> None:
    for scene, found, _ in results:
        for i in np.flatnonzero(scene.truth.cut):
            for j in range(len(found)):
                if quad_iou(scene.truth.quad_xy[i], found.quad_xy[j]) > 0.1:
                    assert found.cut[j], (scene.tilt_deg, scene.background, found.quad_xy[j])


def test_given_detections_then_corners_are_in_portrait_order(results) -> None:
    scene, found, pairs = results[-1]  # straight down: image sides show the card's real shape
    assert scene.tilt_deg == 90
    for _, j, _ in pairs:
        if found.cut[j]:
            continue
        q = found.quad_xy[j]
        short, long_ = np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[2] - q[1])
        assert 1.25 < long_ / short < 1.6


@pytest.mark.parametrize("value", [0, 255])
def test_given_a_blank_frame_when_detected_then_nothing(value) -> None:
    assert len(detect_cards(np.full((720, 1280, 3), value, np.uint8))) == 0


def test_given_a_frame_when_detected_then_the_frame_is_untouched() -> None:
    scene = render_scene(np.random.default_rng(5), n_cards=3, size_wh=(640, 360))
    before = scene.bgr.copy()
    detect_cards(scene.bgr)
    assert np.array_equal(before, scene.bgr)


def test_given_a_full_hd_frame_with_8_cards_when_detected_then_most_are_found() -> None:
    scene = render_scene(np.random.default_rng(77), n_cards=8, tilt_deg=70, background="wood")
    pairs = match_quads(scene.truth.quad_xy, detect_cards(scene.bgr).quad_xy, 0.6)
    assert len(pairs) >= 7


def _degrade(image: np.ndarray, kind: str) -> np.ndarray:
    import cv2

    if kind == "dim room":
        return (image * 0.35).astype(np.uint8)
    if kind == "jpeg q30":
        return cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 30])[1], cv2.IMREAD_COLOR)
    if kind == "sensor noise":
        noise = np.random.default_rng(0).normal(0, 12, image.shape)
        return np.clip(image + noise, 0, 255).astype(np.uint8)
    if kind == "soft focus":
        return cv2.GaussianBlur(image, (0, 0), 1.5)
    return image


@pytest.mark.parametrize("kind", ["dim room", "jpeg q30", "sensor noise", "soft focus"])
def test_given_a_poor_picture_when_detected_then_separate_cards_are_still_found(kind) -> None:
    found_all = laid = wrong = 0
    for k in range(3):
        scene = render_scene(np.random.default_rng(7100 + k), n_cards=6, size_wh=SIZE,
                             tilt_deg=(90, 60, 45)[k], background=BACKGROUNDS[k])
        found = detect_cards(_degrade(scene.bgr, kind))
        pairs = match_quads(scene.truth.quad_xy, found.quad_xy, 0.6)
        laid += len(scene.truth)
        found_all += len(pairs)
        matched = {j for _, j, _ in pairs}
        wrong += sum(1 for j in range(len(found)) if j not in matched and not found.cut[j])
    assert found_all >= 0.9 * laid and wrong == 0, (found_all, laid, wrong)


def test_given_a_zone_crop_around_one_card_when_detected_then_the_card_is_found() -> None:
    from engine.cards import Card
    from vision.synthetic import draw_card

    face, _ = draw_card(Card.parse("7H"), px_per_mm=3.0)
    h, w = face.shape[:2]
    crop = np.full((h + 120, w + 120, 3), 60, np.uint8)  # 20 mm of table all round
    crop[60:60 + h, 60:60 + w] = face
    (quad,) = detect_cards(crop).quad_xy
    truth = np.array([[60, 60], [60 + w, 60], [60 + w, 60 + h], [60, 60 + h]], np.float32)
    assert quad_iou(quad, truth) > 0.9
