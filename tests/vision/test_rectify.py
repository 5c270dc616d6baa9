"""Warping quads to the canonical upright portrait card."""

import cv2
import numpy as np
import pytest

from engine.cards import Card
from vision.errors import VisionError
from vision.rectify import (
    RECT_H,
    RECT_W,
    rectify_cards,
    rectify_whole_image,
    whole_image_quad,
)
from vision.synthetic import draw_card


def _correlation(a: np.ndarray, b: np.ndarray) -> float:
    ga = cv2.cvtColor(a, cv2.COLOR_BGR2GRAY).astype(np.float32).ravel()
    gb = cv2.cvtColor(b, cv2.COLOR_BGR2GRAY).astype(np.float32).ravel()
    return float(np.corrcoef(ga, gb)[0, 1])


@pytest.mark.parametrize("angle_deg", [0, 33, 90, 180, 250])
def test_given_a_card_pasted_at_a_known_quad_when_rectified_then_it_matches_the_card(angle_deg) -> None:
    face, _ = draw_card(Card.parse("7H"), px_per_mm=3.0)
    h, w = face.shape[:2]
    canvas = np.full((600, 600, 3), 40, np.uint8)
    rot = cv2.getRotationMatrix2D((w / 2, h / 2), angle_deg, 1.0)
    rot[:, 2] += [300 - w / 2, 300 - h / 2]
    warped = cv2.warpAffine(face, rot, (600, 600), dst=canvas.copy(), borderMode=cv2.BORDER_TRANSPARENT)
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    quad = cv2.transform(corners[None], rot)[0]
    before = warped.copy()
    (card,) = rectify_cards(warped, quad[None])
    expected = cv2.resize(face, (RECT_W, RECT_H), interpolation=cv2.INTER_AREA)
    assert card.shape == (RECT_H, RECT_W, 3) and card.dtype == np.uint8
    assert _correlation(card, expected) > 0.9
    assert _correlation(card, expected[::-1, ::-1].copy()) < 0.8  # orientation is meaningful
    assert np.array_equal(warped, before)


def test_given_a_quarter_turn_when_rectified_then_corner_1_becomes_the_top_left() -> None:
    frame = np.zeros((100, 100, 3), np.uint8)
    frame[10:20, 60:70] = 255  # a bright patch near quad corner 1
    quad = np.array([[[10, 10], [70, 10], [70, 90], [10, 90]]], np.float32)
    (plain,) = rectify_cards(frame, quad)
    (turned,) = rectify_cards(frame, quad, quarter_turn=True)
    assert plain[:40, -40:].mean() > 100 and turned[:40, :40].mean() > 100


def test_given_no_quads_when_rectified_then_an_empty_batch() -> None:
    assert rectify_cards(np.zeros((10, 10, 3), np.uint8), np.zeros((0, 4, 2))).shape == (0, RECT_H, RECT_W, 3)


@pytest.mark.parametrize(("frame", "quads", "message"), [
    (np.zeros((10, 10, 3), np.uint8), np.zeros((1, 3, 2)), r"quad_xy must have shape \(n, 4, 2\)"),
    (np.zeros((10, 10), np.uint8), np.zeros((1, 4, 2)), "frame must be BGR uint8"),
])
def test_given_bad_input_when_rectified_then_refused(frame, quads, message) -> None:
    with pytest.raises(VisionError, match=message):
        rectify_cards(frame, quads)


@pytest.mark.parametrize("shape", [(352, 228, 3), (228, 352, 3), (100, 100, 3)])
def test_given_a_card_crop_when_rectified_whole_then_portrait_canonical_size(shape) -> None:
    image = np.zeros(shape, np.uint8)
    image[:20, :20] = 255  # top-left marker
    out = rectify_whole_image(image)
    assert out.shape == (RECT_H, RECT_W, 3)
    quad = whole_image_quad(image)
    (via_quad,) = rectify_cards(image, quad[None])
    assert _correlation(out, via_quad) > 0.8  # the reported corners describe the same card
