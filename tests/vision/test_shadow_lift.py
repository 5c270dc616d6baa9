"""vision.ink.shadows_lifted: a shadow narrower than the light's window, lifted before the
index corners are looked for.

A phone photo of a fanned deal often has its photographer's shadow across it (an arm, the
phone): a band of lower light, a card or so wide, with soft edges. Under it the paper is no
paper for the light beside it and the indices go unseen. The shadow is lifted where its edge
is soft (a penumbra); a darker table top round the cards, whose step at a card's outline is
sharp, is left alone. The scenes are rendered (vision.synthetic.columns and .surfaces, the
16 real faces of tests/vision/data/overlap) with an ``arm`` shadow
(vision.synthetic.surfaces.light_photo); the model is the shipped one.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from engine.cards import Card
from vision import ink
from vision.classify import OnnxClassifier
from vision.corners import read_corners
from vision.ink import evenly_lit, shadows_lifted, unveiled
from vision.synthetic.columns import OverlapScene, render_overlaps
from vision.synthetic.surfaces import light_photo, render_card_table


# the light across a 640 px wide page under an arm: a band 60 px wide keeping 0.55 of it, soft edges
_ARM = 1 - 0.45 * np.exp(-np.clip(np.abs(np.arange(640, dtype=np.float32) - 320) - 30, 0, None) ** 2 / 200)


@pytest.fixture(scope="module")
def model() -> OnnxClassifier:
    return OnnxClassifier()


def _column_and_fan(faces: list[tuple[Card, np.ndarray]], seed: int) -> tuple[np.ndarray, np.ndarray,
                                                                             list[OverlapScene]]:
    """A column of 4 and a fan of 4 on a white top (800 x 600, cards 80 px wide), in room
    light and with an arm's shadow across."""
    rng = np.random.default_rng(seed)
    pick = rng.permutation(len(faces))
    column = render_overlaps([faces[i] for i in pick[:4]], rng, (800, 600), "column", 80, "white",
                             centre_xy=(230, 300))
    fan = render_overlaps([faces[i] for i in pick[4:8]], rng, (800, 600), "fan", 80, "white",
                          centre_xy=(590, 420), base=column.bgr)
    shaded = np.asarray(np.clip(light_photo(fan.bgr.astype(np.float32), "arm", rng), 0, 255), np.uint8)
    return fan.bgr, shaded, [column, fan]


# seeds whose arm falls over the indices (without the lift they read 5 and 3 of 8)
@pytest.mark.parametrize("seed", [3, 4])
def test_given_an_arms_shadow_across_a_column_and_a_fan_when_read_by_corners_then_as_in_room_light(
        faces, model, score_corners, seed) -> None:
    room, shaded, parts = _column_and_fan(faces, seed)
    assert shadows_lifted(shaded) is not shaded
    room_read, _, room_wrong = score_corners(read_corners(model, room), parts)
    read, _, wrong = score_corners(read_corners(model, shaded), parts)
    assert not wrong and not room_wrong, wrong
    assert read >= room_read - 1, f"in the arm's shadow {read} read, in room light {room_read}"


def test_given_an_arms_shadow_when_lifted_then_the_paper_under_it_is_as_light_as_beside_it(faces) -> None:
    _, shaded, parts = _column_and_fan(faces, 3)
    lifted = shadows_lifted(shaded)
    grey, grey_lifted = (cv2.cvtColor(im, cv2.COLOR_BGR2GRAY).astype(np.float32) for im in (shaded, lifted))
    top = cv2.dilate(grey, np.ones((31, 31), np.uint8))  # the bare top's level (no print)
    paper = np.percentile(grey, 99)
    dark = top < 0.7 * paper  # under the arm
    assert dark.mean() > 0.05
    lifted_top = cv2.dilate(grey_lifted, np.ones((31, 31), np.uint8))
    assert float(np.median(lifted_top[dark])) > 0.85 * paper
    assert float(np.abs(grey_lifted[~dark] - grey[~dark]).mean()) < 0.1 * paper  # lit: about as it was


@pytest.mark.parametrize(("surface", "light"), [("maple", "room"), ("laminate", "room"), ("felt", "room"),
                                                ("laminate", "vignette"), ("maple", "dim"), ("birch", "haze")])
def test_given_cards_on_a_darker_top_and_no_shadow_when_lifted_then_the_photo_is_left_alone(
        faces, surface, light) -> None:
    """The top round the cards is darker than the paper, as a shadow is: its step at a
    card's outline is sharp, so it is no shadow."""
    for seed in range(2):
        scene = render_card_table(faces[:9], np.random.default_rng(seed), surface, size_wh=(1280, 720),
                                  card_h_px=180, light=light)
        photo = unveiled(scene.bgr)
        assert shadows_lifted(photo) is photo, f"{surface} in {light}, seed {seed}"


def test_given_a_soft_step_too_shallow_when_lifted_then_it_is_no_shadow(monkeypatch: pytest.MonkeyPatch) -> None:
    page = np.full((480, 640, 3), 220, np.uint8)
    page[::24, :] = 40
    shaded = (page * _ARM[None, :, None]).astype(np.uint8)
    assert shadows_lifted(shaded) is not shaded
    monkeypatch.setattr(ink, "SHADOW_STEP", 2.0)  # the band keeps 0.55 of the light: a step of 1.8
    assert shadows_lifted(shaded) is shaded
    monkeypatch.setattr(ink, "SHADOW_STEP", 1.35)
    monkeypatch.setattr(ink, "SHADOW_SOFT_PX", 200.0)  # no penumbra is this wide
    assert shadows_lifted(shaded) is shaded


def test_given_a_photo_when_evenly_lit_then_a_veil_and_a_shadow_are_both_taken_off() -> None:
    page = np.full((480, 640, 3), 220, np.uint8)
    page[np.arange(480) % 24 < 4] = 40  # ruled in thick lines: the veil's darkest level is theirs
    veiled = (40 + 0.75 * page * _ARM[None, :, None]).astype(np.uint8)  # washed out, and the arm's shadow
    assert unveiled(veiled) is not veiled and int(unveiled(veiled)[12:20, 100:540].min()) < 150
    out = evenly_lit(veiled)
    assert int(out[12:20, 100:540].min()) > 150  # the paper lit evenly, the shadow gone
    assert int(out[1, 100].max()) < 40  # the ruling dark again
    assert evenly_lit(out) is out  # handed on from look to look, it is not lifted again


def test_given_an_arms_shadow_small_in_a_large_picture_when_sized_by_the_cards_then_it_is_lifted() -> None:
    # the ruled page and the arm's band at their size, in a picture four times larger each way
    # (a whole table from afar): sized by that picture the band is narrower than the least
    # shadow and stays; sized as a picture of these cards alone it is lifted (vision.photo_size)
    big = np.full((1920, 2560, 3), 220, np.uint8)
    big[::24, :] = 40
    xs = np.arange(2560, dtype=np.float32)
    arm = 1 - 0.45 * np.exp(-np.clip(np.abs(xs - 1280) - 30, 0, None) ** 2 / 200)
    shaded = (big * arm[None, :, None]).astype(np.uint8)
    assert shadows_lifted(shaded) is shaded
    lifted = shadows_lifted(shaded, short_px=480.0)
    assert int(shaded[10, 1280, 0]) < 130 and int(lifted[10, 1280, 0]) > 200
    assert abs(int(lifted[10, 200, 0]) - 220) <= 2  # the light beside it as it was
