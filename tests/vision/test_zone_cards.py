"""vision.zone_cards: cards laid touching in the play zone are found one by one.

Players lay a batch of cards side by side, often touching and not lined up. The blob of
two touching cards is neither one card nor an even row; it is cut where its outline steps
(``_split_at_steps``), and only when every piece is a card.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from vision.geometry import quad_iou
from vision.zone_cards import find_cards, log_colour
from vision.zone_view import RectifiedZone, ZoneWindow, rectify

ZONE_BGR = (200, 214, 196)
CARD_BGR = (235, 232, 228)
PX_PER_MM = 2.0
CARD_PX = (126, 176)  # 63 x 88 mm


def _view(rects: list[tuple[int, int, int, int]], extra: tuple[tuple[int, int, int, int], ...] = ()) -> RectifiedZone:
    """A zone seen from above at 2 px/mm with card-coloured rectangles (x, y, w, h) in it."""
    zone = np.full((300, 400, 3), ZONE_BGR, np.uint8)
    for x, y, w, h in [*rects, *extra]:
        cv2.rectangle(zone, (x, y), (x + w - 1, y + h - 1), CARD_BGR, -1)
    return rectify(zone, np.diag([1 / PX_PER_MM, 1 / PX_PER_MM, 1.0]), ZoneWindow(0, 0, 200, 150))


def _find(view: RectifiedZone) -> list[np.ndarray]:
    """The cards found as the observer finds them: the empty zone's look is known."""
    return find_cards(view, empty_log=log_colour(_view([]).bgr))


def _truth(x: int, y: int, w: int, h: int) -> np.ndarray:
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)


@pytest.mark.parametrize(("offset_px", "gap_px"), [(30, 0), (-24, 0), (60, -3), (16, 1)])
def test_given_two_cards_touching_side_by_side_not_lined_up_then_each_is_found(offset_px: int, gap_px: int) -> None:
    w, h = CARD_PX
    first = (60, 40, w, h)
    second = (60 + w + gap_px, 40 + max(offset_px, 0), w, h)
    if offset_px < 0:  # the first card lower down
        first = (60, 40 - offset_px, w, h)
    found = _find(_view([first, second]))
    assert len(found) == 2, f"{len(found)} cards found"
    for rect in (first, second):
        best = max(quad_iou(q.astype(np.float32), _truth(*rect)) for q in found)
        assert best > 0.85, f"card at {rect}: best IoU {best:.2f}"


def test_given_two_cards_touching_one_above_the_other_shifted_then_each_is_found() -> None:
    view = _view([(80, 10, CARD_PX[0], CARD_PX[1])])  # warm-up: one card is one card
    assert len(_find(view)) == 1
    # two cards rotated a quarter turn, stacked (each 176 x 126 px), the second shifted by 20 mm
    first, second = (20, 20, 176, 126), (60, 146, 176, 126)
    found = _find(_view([first, second]))
    assert len(found) == 2, f"{len(found)} cards found"
    for rect in (first, second):
        assert max(quad_iou(q.astype(np.float32), _truth(*rect)) for q in found) > 0.85


def test_given_two_cards_lined_up_with_print_stuck_to_one_then_the_blob_is_cut_evenly() -> None:
    # the zone's title a card lies on differs from the empty look in thin specks along its
    # letters (bench/single_cards.py touching, warm 30 deg, --only 2,0,0: 10C and 10D): here
    # strokes 1.5 mm wide and 14 mm tall on the first card's top make the blob too tall for
    # an even row of cards, and its outline does not step where the cards meet
    w, h = CARD_PX
    first, second = (60, 70, w, h), (60 + w, 70, w, h)
    strokes = tuple((80 + 16 * k, 42, 3, 28) for k in range(5))
    found = _find(_view([first, second], extra=strokes))
    assert len(found) == 2, f"{len(found)} cards found"
    for rect in (first, second):
        assert max(quad_iou(q.astype(np.float32), _truth(*rect)) for q in found) > 0.85


@pytest.mark.parametrize("offset_px", [-20, 0, 20])
def test_given_touching_cards_with_the_zone_title_stuck_to_one_then_each_is_found(offset_px: int) -> None:
    # bench/table_rounds.py --film --seed 8, real-lamp-zone-touching: a grey 9C laid
    # touching an AC, its top against the zone's title; the title's letters differed from
    # the empty look (a pixel's shift) and, closed up, made a word-sized block 8 mm tall
    # stuck to the 9C. The 9C piece was then too tall for a card, the cut explained only
    # the AC, and the 9C was "something beside the cards" for the rest of the round
    w, h = CARD_PX
    first = (40, 70 + max(offset_px, 0), w, h)
    second = (40 + w - 2, 70 + max(-offset_px, 0), w, h)
    # letters 8 mm tall and 5 mm wide, 2 mm apart, across the card's width, touching its top
    title = tuple((second[0] - 6 + 14 * k, second[1] - 16, 10, 17) for k in range(10))
    # out of focus: no edge is steep enough to outline a card, only the change does
    view = _view([first, second], extra=title)
    blurred = cv2.GaussianBlur(view.bgr, (0, 0), 3.0)
    found = find_cards(dataclasses.replace(view, bgr=blurred),
                       empty_log=log_colour(cv2.GaussianBlur(_view([]).bgr, (0, 0), 3.0)))
    assert len(found) == 2, f"{len(found)} cards found"
    for rect in (first, second):
        assert max(quad_iou(q.astype(np.float32), _truth(*rect)) for q in found) > 0.85


@pytest.mark.parametrize("offset_px", [-20, 20])
def test_given_touching_cards_with_a_solid_word_of_the_title_on_one_then_each_is_found(offset_px: int) -> None:
    # bench/table_rounds.py --film --seed 13, kde-penguins-warm-whole-touching-bumped-
    # handheld: a QH laid touching an AH, its top against the zone's title. Closed up, the
    # letters of "ZONE" and the strip of print between them and the card made one solid
    # block 14 mm tall and 24 mm wide on the QH's top: a word's width does not open it
    # away, so the cut's QH piece was 16 % too tall for a card and the QH went unfound in
    # all but two frames (Dee's "no play" was never read)
    w, h = CARD_PX
    first = (40, 70 + max(offset_px, 0), w, h)
    second = (40 + w - 2, 70 + max(-offset_px, 0), w, h)
    word = (second[0] + 60, second[1] - 28, 48, 29)
    view = _view([first, second], extra=(word,))
    blurred = cv2.GaussianBlur(view.bgr, (0, 0), 3.0)  # out of focus: only the change outlines them
    found = find_cards(dataclasses.replace(view, bgr=blurred),
                       empty_log=log_colour(cv2.GaussianBlur(_view([]).bgr, (0, 0), 3.0)))
    assert len(found) == 2, f"{len(found)} cards found"
    for rect in (first, second):
        assert max(quad_iou(q.astype(np.float32), _truth(*rect)) for q in found) > 0.85


def test_given_a_card_with_a_card_sized_blob_of_another_shape_beside_it_then_no_piece_is_made_up() -> None:
    w, h = CARD_PX
    card = (60, 70, w, h)
    # beside it, touching, a square 60 x 60 mm: the cut leaves a piece that is no card,
    # so the blob is not explained as cards and nothing but (at most) the real card is found
    found = _find(_view([card], extra=((60 + w, 100, 120, 120),)))
    assert len(found) <= 1
    for q in found:
        assert quad_iou(q.astype(np.float32), _truth(*card)) > 0.85


# --- three cards, the most the play zone holds: they cover ~60 % of it ---

@pytest.mark.parametrize(("condition", "seed"), [("plain", 0), ("lamp", 2), ("bw_kit", 6), ("dim", 1)])
def test_given_three_pale_cards_filling_most_of_the_zone_when_read_then_each_is_found(condition: str, seed: int) -> None:
    """The light's change since the empty zone was learned is measured along the zone's rim:
    measured over the whole zone, three pale cards (60 % of it) were taken for a change of
    light, the bare zone for a thing, and one or two of the cards were lost."""
    from calibration.layout import ZONE_PLAY, default_layout
    from models.procedural_deck import make_design
    from vision.classify import OnnxClassifier
    from vision.pipeline import CardReader
    from vision.synthetic import CardFace
    from vision.synthetic.single import zone_cards_scene
    from vision.zone_view import crop_box

    zone = np.asarray(default_layout().zone(ZONE_PLAY).polygon_mm)
    design = make_design(np.random.default_rng(22), "english")  # pale faces, small pips
    faces = tuple(CardFace(None, np.ascontiguousarray(design[k][:, :, :3]), design[k][:, :, 3] / 255.0)
                  for k in ("2C", "3C", "4C"))
    size = (1280, 720)
    shot = zone_cards_scene(faces, condition, 60.0, np.random.default_rng(seed), "row", size_wh=size, empty_frames=4)
    reader = CardReader(OnnxClassifier())
    box = crop_box(zone, shot.scene.table_to_px, size)
    assert box is not None
    x0, y0, x1, y1 = box
    to_table = np.linalg.inv(shot.scene.table_to_px) @ np.array([[1.0, 0, x0], [0, 1.0, y0], [0, 0, 1]])
    for frame in shot.empty_bgr:
        reader.read_zone(np.ascontiguousarray(frame[y0:y1, x0:x1]), to_table, ZONE_PLAY, zone)
    reading = reader.read_zone(np.ascontiguousarray(shot.scene.frame_bgr[y0:y1, x0:x1]), to_table, ZONE_PLAY, zone)
    assert reading.occupancy.empty_learned
    found = reading.cards.quad_xy + np.array([x0, y0], np.float32)
    assert len(found) == 3, f"{len(found)} cards found"
    for truth in shot.quads_px:
        assert max(quad_iou(q, truth.astype(np.float32)) for q in found) > 0.8


@pytest.mark.parametrize("diameter", [9, 17, 23, 31])
@pytest.mark.parametrize("outside_empty", [False, True])
def test_given_a_wide_disc_then_the_opening_by_rectangles_is_opencvs_pixel_for_pixel(diameter: int,
                                                                                    outside_empty: bool) -> None:
    from vision.zone_cards import _disc, _open_by_disc

    rng = np.random.default_rng(diameter)
    # blobs of every size, some touching the mask's edge (where the two borders differ)
    mask = (cv2.GaussianBlur(rng.random((160, 300)).astype(np.float32), (0, 0), 5) > 0.5).astype(np.uint8)
    border = {"borderType": cv2.BORDER_CONSTANT, "borderValue": 0} if outside_empty else {}
    want = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _disc(diameter), **border)
    got = _open_by_disc(mask, diameter, outside_empty)
    assert 0 < int(want.sum()) < int(mask.sum())  # the opening takes something away, not all
    assert np.array_equal(got, want)


def test_given_a_view_then_the_gradient_is_numpys_sum_of_squares_to_the_bit() -> None:
    from vision.zone_cards import _gradient

    rng = np.random.default_rng(5)
    bgr = np.clip(cv2.GaussianBlur(rng.integers(0, 256, (120, 200, 3)).astype(np.float32), (0, 0), 2), 0, 255)
    logc = log_colour(bgr.astype(np.uint8))
    valid = np.ones(logc.shape[:2], bool)
    valid[:, :10] = False
    gx = cv2.Sobel(logc, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(logc, cv2.CV_32F, 0, 1, ksize=3)
    want = np.sqrt(np.sum(gx * gx + gy * gy, axis=2)) / np.float32(8.0)
    want[~valid] = 0.0
    got = _gradient(logc, valid)
    assert got.dtype == np.float32 and float(got.max()) > 0.0
    assert np.array_equal(got, want)


def test_given_8_bit_colours_then_the_looked_up_logs_are_opencvs_logs() -> None:
    every = np.arange(256, dtype=np.uint8).reshape(16, 16)
    bgr = np.dstack([every, every[::-1], every.T])
    want = np.asarray(cv2.log(bgr.astype(np.float32) + np.float32(4.0)), np.float32)
    assert np.array_equal(log_colour(bgr, blur_px=0), want)
    assert np.array_equal(log_colour(bgr.astype(np.float32), blur_px=0), want)  # not 8-bit: computed
