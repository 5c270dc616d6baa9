"""Zone occupancy: the empty zone is learned, a card is found, a hand is something
unexplained, and a moving hand is no still frame (issue 7: never silent)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.layout import ZONE_PLAY, default_layout
from engine.cards import Card, parse_cards
from vision.classify import CardReading, FakeClassifier
from vision.geometry import quad_iou
from vision.occupancy import ZoneWatch
from vision.pipeline import CardReader, ReaderConfig
from vision.readings import CardDetections
from vision.synthetic import (CardPlacement, HandPlacement, PinholeView, TokenPlacement, render_table_scene, scene_condition,
                              with_shadow_of, with_thing)
from vision.synthetic.light import Lighting, apply_lighting
from vision.synthetic.cards import cut_out
from vision.synthetic.single import single_card_scene
from vision.zone_view import crop_box

LAYOUT = default_layout()
ZONE = np.asarray(LAYOUT.zone(ZONE_PLAY).polygon_mm)
SIZE = (960, 540)


def _card_face() -> object:
    photo = np.full((352, 228, 3), (228, 232, 236), np.uint8)
    photo[30:80, 10:40] = (40, 40, 190)  # an index
    photo[120:230, 70:160] = (40, 40, 40)  # a pip
    return cut_out(photo)


def _crop(frame: np.ndarray, table_to_px: np.ndarray):  # type: ignore[no-untyped-def]
    x0, y0, x1, y1 = crop_box(ZONE, table_to_px, SIZE)  # type: ignore[misc]
    to_table = np.linalg.inv(table_to_px) @ np.array([[1.0, 0, x0], [0, 1.0, y0], [0, 0, 1]])
    return frame[y0:y1, x0:x1], to_table, (x0, y0)


@pytest.mark.parametrize("condition", ["plain", "bw_kit", "lamp"])
def test_given_empty_frames_then_a_card_then_the_zone_is_learned_and_the_card_found(condition: str) -> None:
    shot = single_card_scene(_card_face(), condition, 50.0, np.random.default_rng(7), size_wh=SIZE,  # type: ignore[arg-type]
                             empty_frames=3)
    watch = ZoneWatch(ZONE)
    for empty in shot.empty_bgr:
        crop, to_table, _ = _crop(empty, shot.scene.table_to_px)
        seen = watch.look(crop, to_table).occupancy
        assert not seen.occupied
    assert watch.empty_learned
    crop, to_table, (x0, y0) = _crop(shot.scene.frame_bgr, shot.scene.table_to_px)
    look = watch.look(crop, to_table)
    assert look.occupancy.occupied and not look.occupancy.still and look.occupancy.cards == 1
    assert look.occupancy.unexplained_fraction < 0.01
    assert quad_iou(look.cards_px[0] + [x0, y0], shot.quad_px) > 0.85


def _learned_watch(view: PinholeView, light: Lighting, kit: str, rng: np.random.Generator) -> ZoneWatch:
    """A watch of the play zone that has learned its empty look from 3 still empty frames."""
    watch = ZoneWatch(ZONE)
    for crop, to_table in _frames(view, light, kit, rng, 3):
        watch.look(crop, to_table)
    assert watch.empty_learned
    return watch


def test_given_a_hand_over_the_zone_then_it_is_unexplained_and_its_moving_is_no_still_frame() -> None:
    rng = np.random.default_rng(3)
    light, kit = scene_condition("plain", rng)
    view = PinholeView(tilt_deg=55.0, distance_mm=330.0, target_mm=(132.5, 93.0), size_wh=SIZE)
    watch = _learned_watch(view, light, kit, rng)
    looks = []
    for x in (90.0, 130.0, 130.0):
        scene = render_table_scene(LAYOUT, view, lighting=light, rng=rng, kit_print=kit,
                                   hands=(HandPlacement((x, 80.0)),))
        crop, to_table, _ = _crop(scene.frame_bgr, scene.table_to_px)
        looks.append(watch.look(crop, to_table).occupancy)
    assert all(seen.occupied and seen.unexplained_fraction > 0.05 and seen.cards == 0 for seen in looks)
    assert not looks[0].still and not looks[1].still  # the hand came in, then moved
    assert looks[2].still  # it rests


def test_given_a_reader_then_a_zone_is_read_and_a_still_zone_is_not_read_again() -> None:
    shot = single_card_scene(_card_face(), "plain", 70.0, np.random.default_rng(2), size_wh=SIZE,  # type: ignore[arg-type]
                             empty_frames=3)
    classifier = FakeClassifier(lambda _img, _i: CardReading(Card.parse("7H"), 0.99, best="7H"))
    reader = CardReader(classifier)
    for frame in (*shot.empty_bgr, shot.scene.frame_bgr, shot.scene.frame_bgr):
        crop, to_table, _ = _crop(frame, shot.scene.table_to_px)
        reading = reader.read_zone(crop, to_table, ZONE_PLAY, ZONE)
    assert len(reading.cards) == 1 and reading.occupancy.still and reading.occupancy.occupied
    assert classifier.cards_seen == 1  # read sure once, when it came; not again while nothing moved


def _reader_seeing(answers: list[CardReading]) -> tuple[CardReader, FakeClassifier]:
    """A reader whose classifier gives ``answers`` one after another (then the last again)."""
    calls = iter(answers)
    last = [answers[-1]]

    def answer(_img: np.ndarray, _i: int) -> CardReading:
        last[0] = next(calls, last[0])
        return last[0]

    classifier = FakeClassifier(answer)
    return CardReader(classifier), classifier


@pytest.mark.parametrize(("answers", "expected"), [
    # the model's confidence hovers about its threshold: the still card is read again and read
    ([CardReading.unsure("AS", 0.9), CardReading(Card.parse("AS"), 0.96, best="AS")], ["AS"]),
    # never sure: read again in every still frame (up to looks_per_card), never a card
    ([CardReading.unsure("none", 0.3)] * 6, []),
    # mostly another card's best class: one sure look is not enough
    ([CardReading.unsure("4S", 0.7), CardReading.unsure("4S", 0.6), CardReading.unsure("4S", 0.7),
      CardReading(Card.parse("AS"), 0.95, best="AS"), CardReading.unsure("4S", 0.7), CardReading.unsure("4S", 0.8)],
     []),
])
def test_given_a_card_lying_still_and_unsure_then_it_is_read_again_and_the_looks_pooled(
        answers: list[CardReading], expected: list[str]) -> None:
    shot = single_card_scene(_card_face(), "bw_kit", 60.0, np.random.default_rng(5), size_wh=SIZE,  # type: ignore[arg-type]
                             empty_frames=3)
    reader, classifier = _reader_seeing(answers)
    for frame in shot.empty_bgr:
        crop, to_table, _ = _crop(frame, shot.scene.table_to_px)
        reader.read_zone(crop, to_table, ZONE_PLAY, ZONE)
    crop, to_table, _ = _crop(shot.scene.frame_bgr, shot.scene.table_to_px)
    for _ in range(6):
        reading = reader.read_zone(crop, to_table, ZONE_PLAY, ZONE)
    assert len(reading.cards) == 1
    assert [str(c) for c in reading.cards.read_cards()] == expected
    # a sure card is not read again; an unsure one (and its outline grown a little) at most
    # looks_per_card times
    assert classifier.cards_seen == (len(answers) if expected else ReaderConfig().looks_per_card)


def test_given_a_card_swapped_for_another_at_the_same_place_then_the_new_card_is_read() -> None:
    # a NO PLAY batch shown in two parts: the second part's card lies where the first lay,
    # with a hand in the frame in between (a fresh look): its sure reading is not pooled
    # with the card that lay there before (which left it unsure for good)
    shot = single_card_scene(_card_face(), "dim", 60.0, np.random.default_rng(8), size_wh=SIZE,  # type: ignore[arg-type]
                             empty_frames=3)
    reader, _ = _reader_seeing([CardReading(Card.parse("2S"), 0.99, best="2S")])
    for frame in shot.empty_bgr:
        crop, to_table, _ = _crop(frame, shot.scene.table_to_px)
        reader.read_zone(crop, to_table, ZONE_PLAY, ZONE)
    crop, to_table, _ = _crop(shot.scene.frame_bgr, shot.scene.table_to_px)
    assert [str(c) for c in reader.read_zone(crop, to_table, ZONE_PLAY, ZONE).cards.read_cards()] == ["2S"]
    reader.classifier = FakeClassifier(lambda _img, _i: CardReading(Card.parse("AH"), 0.99, best="AH"))
    moved = crop.copy()
    far_x = 25.0 if float(shot.corners_mm[:, 0].mean()) > 132.0 else 240.0
    spot = np.linalg.inv(to_table) @ np.array([far_x, 95.0, 1.0])
    # something changed in the zone away from the card (a hand's fingertip): a fresh look
    cv2.circle(moved, (int(spot[0] / spot[2]), int(spot[1] / spot[2])), 10, (20, 20, 20), -1)
    for _ in range(3):
        reading = reader.read_zone(moved, to_table, ZONE_PLAY, ZONE)
    assert [str(c) for c in reading.cards.read_cards()] == ["AH"]


def _shade(frame: np.ndarray, gain: float) -> np.ndarray:
    """The frame as a camera whose auto-exposure changed by ``gain`` gives it."""
    return np.asarray(np.clip(frame.astype(np.float32) * gain, 0, 255), np.uint8)


@pytest.mark.parametrize("gain", [0.85, 1.12])
def test_given_the_light_changes_as_cards_fill_the_zone_then_the_bare_mat_is_no_thing(gain: float) -> None:
    """Three cards and a change of exposure since the empty zone was learned: the bare mat
    round them tells the change (the cards, half the zone, do not), so nothing is unexplained;
    a hand laid on the bare mat under the same change still is (issue 8: a new deck's
    whole-layout round stalled on "something beside the cards" at every no-play batch)."""
    from vision.synthetic import CardPlacement

    rng = np.random.default_rng(11)
    light, kit = scene_condition("plain", rng)
    view = PinholeView(tilt_deg=60.0, distance_mm=330.0, target_mm=(132.5, 93.0), size_wh=SIZE)
    watch = _learned_watch(view, light, kit, rng)
    cards = tuple(CardPlacement(label, (x, 93.0)) for label, x in (("AD", 55.0), ("9H", 132.0), ("QS", 209.0)))
    scene = render_table_scene(LAYOUT, view, cards=cards, lighting=light, rng=rng, kit_print=kit)
    crop, to_table, _ = _crop(_shade(scene.frame_bgr, gain), scene.table_to_px)
    seen = watch.look(crop, to_table).occupancy
    assert seen.cards == 3 and seen.unexplained_fraction < 0.01
    hand = render_table_scene(LAYOUT, view, cards=cards[:1], lighting=light, rng=rng, kit_print=kit,
                              hands=(HandPlacement((170.0, 90.0)),))
    crop, to_table, _ = _crop(_shade(hand.frame_bgr, gain), hand.table_to_px)
    assert watch.look(crop, to_table).occupancy.unexplained_fraction > 0.05


def _shadowed(light: Lighting, rng: np.random.Generator) -> Lighting:
    """``light`` with a still shadow's soft edge across the middle of the frame."""
    return with_shadow_of(light, scene_condition("shadow", rng)[0])


def _frames(view: PinholeView, light: Lighting, kit: str, rng: np.random.Generator, n: int,
            **scene: object) -> list[tuple[np.ndarray, np.ndarray]]:
    """``n`` frames of the same table under ``light``, each with its own sensor noise."""
    if scene.get("hands"):  # hands are drawn with the frame's own draw of ``rng``
        frames = [render_table_scene(LAYOUT, view, lighting=light, rng=rng, kit_print=kit, **scene)  # type: ignore[arg-type]
                  for _ in range(n)]
        return [_crop(frame.frame_bgr, frame.table_to_px)[:2] for frame in frames]
    # the table drawn once, without light (no draw of ``rng``), then lit n times: the same
    # frames as n whole renders, for a fifth of the time
    table = render_table_scene(LAYOUT, view, lighting=Lighting(), rng=rng, kit_print=kit, **scene)  # type: ignore[arg-type]
    return [_crop(apply_lighting(table.frame_bgr, light, rng), table.table_to_px)[:2] for _ in range(n)]


@pytest.mark.parametrize(("condition", "seed"), [("plain", 31), ("bw_kit", 32), ("warm", 33)])
def test_given_a_still_shadow_across_the_empty_zone_then_it_is_learned_as_empty_and_a_card_is_found(
        condition: str, seed: int) -> None:
    # given a shadow's edge across the zone from the first frame on (the camera's stand, a
    # player leaning over): it is no smooth light field, but its straight edge is taken out
    # before the print is fitted (vision/shadow_edge.py), so even at first sight it is no thing
    rng = np.random.default_rng(seed)
    light, kit = scene_condition(condition, rng)
    light = _shadowed(light, rng)
    view = PinholeView(tilt_deg=60.0, distance_mm=330.0, target_mm=(132.5, 93.0), size_wh=SIZE)
    watch = ZoneWatch(ZONE)
    looks = [watch.look(crop, to_table).occupancy for crop, to_table in _frames(view, light, kit, rng, 6)]
    assert not looks[0].occupied  # the shadow, before the zone was ever seen still
    # then, still and with nothing but light in it, the zone is learned empty: nothing to ask about
    assert watch.empty_learned and not looks[-1].occupied
    # and a card laid then is found whole, half in the shadow or not
    (crop, to_table), = _frames(view, light, kit, rng, 1, cards=(CardPlacement("QD", (120.0, 95.0), 20.0),))
    look = watch.look(crop, to_table)
    assert look.occupancy.cards == 1 and look.occupancy.unexplained_fraction < 0.01


def test_given_a_hand_resting_still_over_the_zone_then_it_is_never_learned_as_a_shadow() -> None:
    rng = np.random.default_rng(34)
    light, kit = scene_condition("plain", rng)
    view = PinholeView(tilt_deg=55.0, distance_mm=330.0, target_mm=(132.5, 93.0), size_wh=SIZE)
    watch = _learned_watch(view, light, kit, rng)
    looks = [watch.look(crop, to_table).occupancy
             for crop, to_table in _frames(view, light, kit, rng, 8, hands=(HandPlacement((60.0, 80.0)),))]
    assert all(seen.occupied and seen.unexplained_fraction > 0.05 for seen in looks)


def test_given_a_grey_thing_lying_inside_the_bw_zone_then_it_stays_unexplained() -> None:
    # a phone or a wallet on the black-and-white kit keeps the print's grey ratios, as a
    # shadow does, but lies inside the zone: it is a thing, and the dealer must say so
    rng = np.random.default_rng(35)
    light, kit = scene_condition("bw_kit", rng)
    view = PinholeView(tilt_deg=60.0, distance_mm=330.0, target_mm=(132.5, 93.0), size_wh=SIZE)
    watch = ZoneWatch(ZONE)
    for crop, to_table in _frames(view, light, kit, rng, 3):
        watch.look(crop, to_table)
    assert watch.empty_learned
    looks = []
    for crop, to_table in _frames(view, light, kit, rng, 8):
        crop = crop.copy()
        table_to_crop = np.linalg.inv(to_table)
        corners = np.array([[100.0, 60.0, 1], [170.0, 60.0, 1], [170.0, 130.0, 1], [100.0, 130.0, 1]]) @ table_to_crop.T
        cv2.fillConvexPoly(crop, np.round(corners[:, :2] / corners[:, 2:]).astype(np.int32), (70, 70, 70))
        looks.append(watch.look(crop, to_table).occupancy)
    assert all(seen.occupied and seen.unexplained_fraction > 0.05 for seen in looks)


def _with_thing(frames: list[tuple[np.ndarray, np.ndarray]], box_mm: tuple[float, float, float, float],
                albedo: tuple[float, float, float]) -> list[tuple[np.ndarray, np.ndarray]]:
    """``frames`` with a thing (a phone, a wallet) of colour ``albedo`` (BGR) lying over ``box_mm``."""
    return [(with_thing(crop, to_table, box_mm, albedo), to_table) for crop, to_table in frames]


GREY, BROWN = (0.45, 0.45, 0.45), (0.25, 0.4, 0.6)  # a phone, a wallet (BGR)


@pytest.mark.parametrize(("condition", "seed", "box", "albedo"), [
    ("plain", 40, (150.0, 65.0, 200.0, 125.0), GREY), ("warm", 41, (40.0, 70.0, 90.0, 130.0), GREY),
    ("lamp", 42, (110.0, 55.0, 160.0, 115.0), GREY), ("bw_kit", 43, (60.0, 60.0, 110.0, 120.0), BROWN)])
def test_given_a_thing_lying_in_the_zone_when_a_shadow_comes_then_it_stays_unexplained(
        condition: str, seed: int, box: tuple[float, float, float, float], albedo: tuple[float, float, float]) -> None:
    # a phone lies in the play zone, and a player leans over: the shadow's straight edge is
    # taken out as light (vision/shadow_edge.py) and the empty look learns it, but not the
    # phone, whose colours' ratios differ from the print's: the dealer must still say it sees
    # something there. (A grey thing on the black-and-white kit keeps the print's ratios, as
    # a shadow does: it is learned, docs/vision.md "Limits".)
    rng = np.random.default_rng(seed)
    light, kit = scene_condition(condition, rng)
    view = PinholeView(tilt_deg=60.0, distance_mm=330.0, target_mm=(132.5, 93.0), size_wh=SIZE)
    watch = _learned_watch(view, light, kit, rng)
    before = [watch.look(crop, to_table).occupancy for crop, to_table in _with_thing(_frames(view, light, kit, rng, 3), box, albedo)]
    assert all(seen.unexplained_fraction > 0.05 for seen in before)
    shadowed = _shadowed(light, rng)
    looks = [watch.look(crop, to_table).occupancy
             for crop, to_table in _with_thing(_frames(view, shadowed, kit, rng, 8), box, albedo)]
    assert all(seen.occupied and seen.unexplained_fraction > 0.05 for seen in looks)
    # and once it is taken away, the shadow's light was learned round it, and where it lay
    after = [watch.look(crop, to_table).occupancy for crop, to_table in _frames(view, shadowed, kit, rng, 4)]
    assert not any(seen.occupied for seen in after[1:])


def test_a_shadow_edge_whose_taking_out_would_lose_a_card_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    # two cards lie touching: their long sides make one straight line across much of the
    # zone, which may pass for a shadow's edge (vision/shadow_edge.py). Taken out, such an
    # "edge" lights a card as the bare print and the card is lost, and then learned into the
    # empty look. A shadow taken out never hides a card that lay there, alone in the zone
    # with the others, before it came: that edge is left alone. (A card found only once the
    # light changed may be a piece of the edge's band, which taking the edge out rightly loses.)
    import vision.zone_light

    rng = np.random.default_rng(44)
    light, kit = scene_condition("bw_kit", rng)
    view = PinholeView(tilt_deg=60.0, distance_mm=330.0, target_mm=(132.5, 93.0), size_wh=SIZE)
    watch = _learned_watch(view, light, kit, rng)
    cards = (CardPlacement("KS", (100.0, 95.0), 0.0), CardPlacement("9C", (163.5, 95.0), 0.0))
    split = int(round((132.0 - watch.window.x0_mm) * watch.window.px_per_mm))

    def cards_side(delta: np.ndarray, *args: object, **kwargs: object) -> np.ndarray:
        step = np.zeros(delta.shape[:2], np.float32)
        step[:, split:] = delta[:, split:].mean(axis=2)  # all the difference right of the line, as light
        return step

    laid = _frames(view, light, kit, rng, 3, cards=cards)
    assert all(watch.look(crop, to_table).occupancy.cards == 2 for crop, to_table in laid)
    monkeypatch.setattr(vision.zone_light, "shadow_step", cards_side)
    # a hand passes over the zone's far end, and the zone is still again: each look seeks a new edge
    for hand in ((235.0, 60.0), (240.0, 70.0)):
        (crop, to_table), = _frames(view, light, kit, rng, 1, cards=cards, hands=(HandPlacement(hand),))
        watch.look(crop, to_table)
    looks = [watch.look(crop, to_table).occupancy for crop, to_table in _frames(view, light, kit, rng, 5, cards=cards)]
    assert all(seen.cards == 2 for seen in looks)


@pytest.mark.parametrize(("condition", "seed"), [("plain", 60), ("bw_kit", 61), ("warm", 60), ("lamp", 62)])
def test_given_touching_cards_when_a_shadow_comes_across_them_then_both_stay_found(condition: str, seed: int) -> None:
    # two cards lie touching, settled, and a player leans over: the shadow's edge crosses
    # them, and they cover most of its line in the zone, so the bare print beside them is too
    # little to measure it on. Measured against the look where they lay (their own change is
    # the light alone), the edge is taken out and both cards are found in every still frame;
    # before, one was cut in two by the edge, not found, and its place learned as light: a
    # picture judged without it
    rng = np.random.default_rng(seed)
    light, kit = scene_condition(condition, rng)
    view = PinholeView(tilt_deg=60.0, distance_mm=330.0, target_mm=(132.5, 93.0), size_wh=SIZE)
    watch = _learned_watch(view, light, kit, rng)
    x, y = float(rng.uniform(60, 140)), float(rng.uniform(85, 105))
    cards = (CardPlacement("KS", (x, y), 0.0), CardPlacement("9C", (x + 63.5, y), 0.0))
    assert all(watch.look(crop, to_table).occupancy.cards == 2 for crop, to_table in _frames(view, light, kit, rng, 3, cards=cards))
    shadowed = _shadowed(light, rng)
    looks = [watch.look(crop, to_table).occupancy for crop, to_table in _frames(view, shadowed, kit, rng, 6, cards=cards)]
    assert all(seen.cards == 2 and seen.unexplained_fraction < 0.01 for seen in looks[2:])
    # and once they are taken away, their place was learned with the shadow's light, not before
    after = [watch.look(crop, to_table).occupancy for crop, to_table in _frames(view, shadowed, kit, rng, 5)]
    assert not any(seen.occupied for seen in after[3:])


def test_given_a_shadow_that_comes_after_the_zone_was_learned_then_it_is_learned_too() -> None:
    rng = np.random.default_rng(36)
    light, kit = scene_condition("plain", rng)
    view = PinholeView(tilt_deg=60.0, distance_mm=330.0, target_mm=(132.5, 93.0), size_wh=SIZE)
    watch = _learned_watch(view, light, kit, rng)
    shadowed = _shadowed(light, rng)
    looks = [watch.look(crop, to_table).occupancy for crop, to_table in _frames(view, shadowed, kit, rng, 6)]
    # someone leans over the table: the shadow's straight edge is taken out as the look's
    # light (vision/shadow_edge.py), and held still the empty look follows it
    assert not looks[0].still and not any(seen.occupied for seen in looks[1:])
    (crop, to_table), = _frames(view, shadowed, kit, rng, 1, cards=(CardPlacement("QD", (120.0, 95.0), 20.0),))
    look = watch.look(crop, to_table).occupancy
    assert look.cards == 1 and look.unexplained_fraction < 0.01


def test_given_a_flickering_light_then_the_zone_is_still_learned_and_a_card_is_found() -> None:
    # given a rolling shutter under a flickering lamp: bands across the picture, at another
    # place in each frame (vision/flicker.py); before, every frame "moved" and nothing was judged
    import dataclasses

    rng = np.random.default_rng(37)
    light, kit = scene_condition("plain", rng)
    light = dataclasses.replace(light, banding=0.1, banding_period=0.3)
    view = PinholeView(tilt_deg=60.0, distance_mm=330.0, target_mm=(132.5, 93.0), size_wh=SIZE)
    watch = ZoneWatch(ZONE)
    empty = [watch.look(crop, to_table).occupancy for crop, to_table in _frames(view, light, kit, rng, 4)]
    assert all(seen.still for seen in empty[1:]) and watch.empty_learned and not empty[-1].occupied
    looks = [watch.look(crop, to_table).occupancy
             for crop, to_table in _frames(view, light, kit, rng, 4, cards=(CardPlacement("QD", (120.0, 95.0), 20.0),))]
    assert all(seen.cards == 1 and seen.unexplained_fraction < 0.01 for seen in looks)
    assert all(seen.still for seen in looks[1:])  # the card lies still: the dealer may judge it


@pytest.mark.parametrize("seed", [41, 45, 46])  # 42-44 not yet: the card stays unfound (docs/vision.md)
def test_given_deep_bands_that_clip_the_print_then_the_zone_is_learned_and_the_card_is_found(seed: int) -> None:
    # given bands 30 % deep: the bright ones clip the pale print to white (a clipped colour
    # changed the print's colour ratios, so the zone was never learned), and a white card's
    # edge inside one is gone in that frame (the still zone kept the look that missed it)
    import dataclasses

    rng = np.random.default_rng(seed)
    light, kit = scene_condition("deep_flicker", rng)
    light = dataclasses.replace(light, gain=1.0, banding=0.3)
    view = PinholeView(tilt_deg=60.0, distance_mm=330.0, target_mm=(132.5, 93.0), size_wh=SIZE)
    watch = ZoneWatch(ZONE)
    empty = [watch.look(crop, to_table).occupancy for crop, to_table in _frames(view, light, kit, rng, 5)]
    assert watch.empty_learned and not empty[-1].occupied
    looks = [watch.look(crop, to_table).occupancy
             for crop, to_table in _frames(view, light, kit, rng, 6, cards=(CardPlacement("QD", (120.0, 95.0), 20.0),))]
    assert all(seen.cards <= 1 for seen in looks)  # never a card too many
    assert any(seen.cards == 1 for seen in looks)  # seen as the bands move on


def test_an_unsure_card_in_a_zone_keeps_what_it_may_be_over_its_looks() -> None:
    # the reader is unsure of the card, first between 8C and 8S, then between 8C and 3C
    shot = single_card_scene(_card_face(), "plain", 70.0, np.random.default_rng(2), size_wh=SIZE,  # type: ignore[arg-type]
                             empty_frames=3)
    answers = iter([frozenset(parse_cards("8C 8S")), frozenset(parse_cards("8C 3C"))])
    last = [frozenset(parse_cards("8C 3C"))]

    def answer(_img: object, _i: int) -> CardReading:
        maybe = next(answers, last[0])
        return CardReading.unsure("8C", 0.6, maybe=maybe)

    reader = CardReader(FakeClassifier(answer))
    for frame in (*shot.empty_bgr, shot.scene.frame_bgr, shot.scene.frame_bgr, shot.scene.frame_bgr):
        crop, to_table, _ = _crop(frame, shot.scene.table_to_px)
        reading = reader.read_zone(crop, to_table, ZONE_PLAY, ZONE)
    cards = reading.cards
    assert len(cards) == 1 and cards.label[0] is None
    # then the card may be any card one of its looks allowed, and the record keeps it
    assert cards.maybe[0] == frozenset(parse_cards("8C 8S 3C"))
    assert cards[np.array([0])].maybe[0] == cards.maybe[0]
    assert CardDetections.concatenate([cards, cards]).maybe[1] == cards.maybe[0]


def test_a_hand_coming_over_a_print_whose_blue_is_clipped_is_movement_not_the_empty_look() -> None:
    # a pale blue print under a cold light: its blue clipped (255) over the whole zone
    watch = ZoneWatch([(0, 0), (200, 0), (200, 100), (0, 100)])
    to_table = np.array([[0.5, 0, -20], [0, 0.5, -20], [0, 0, 1.0]])  # 2 px/mm, 20 mm margin
    bare = np.full((280, 480, 3), (255, 232, 206), np.uint8)
    for _ in range(4):
        assert not watch.look(bare, to_table).occupancy.occupied
    assert watch.empty_learned
    # when a hand's shadow comes in from the zone's edge (red and green darker, blue still clipped)
    shaded = bare.copy()
    shaded[200:240, 200:330] = (255, 160, 140)
    look = watch.look(shaded, to_table)
    # then that is movement over the zone, and the empty look does not take it in
    assert not look.occupancy.still
    watch.look(shaded, to_table)
    for _ in range(3):
        after = watch.look(bare, to_table).occupancy
    assert not after.occupied and after.unexplained_fraction == 0.0


@pytest.mark.parametrize("size", [SIZE, (1920, 1080)])
def test_an_empty_zone_filmed_by_a_trembling_camera_is_still_and_learned_but_a_hand_is_not(
        size: tuple[int, int]) -> None:
    """bench/table_rounds.py --seed 11 kde-penguins-lamp-zone-handheld (a phone held over the
    table, JPEG frames): the picture, followed by the markers, is off by under a pixel from
    frame to frame, and the zone's bold title changed by 0.25-0.5 % of the zone each frame,
    over the 0.2 % of a still zone. The empty look was never learned (29 of 605 looks
    still, never two running), every "no play" batch beside its token was "something beside
    the cards" against the print's rough fit, and the round stalled at 3 / 11."""
    from vision.synthetic.sway import moved_picture

    rng = np.random.default_rng(11)
    light, kit = scene_condition("lamp", rng)
    view = PinholeView(tilt_deg=60.0, distance_mm=330.0, target_mm=(132.5, 93.0), size_wh=size)
    empty = render_table_scene(LAYOUT, view, lighting=light, rng=rng, kit_print=kit)
    x0, y0, x1, y1 = crop_box(ZONE, empty.table_to_px, size)  # type: ignore[misc]
    to_table = np.linalg.inv(empty.table_to_px) @ np.array([[1.0, 0, x0], [0, 1.0, y0], [0, 0, 1]])
    scale = size[0] / 1920.0
    watch = ZoneWatch(ZONE)
    looks = []
    for dx, dy in ((0.0, 0.0), (0.8, -0.4), (-0.6, 0.7), (0.5, 0.6), (-0.8, -0.3)):
        frame = moved_picture(empty.frame_bgr, dx * scale, dy * scale)
        looks.append(watch.look(np.ascontiguousarray(frame[y0:y1, x0:x1]), to_table).occupancy)
    assert watch.empty_learned, [round(seen.changed_fraction, 4) for seen in looks]
    # a hand coming in is still movement, however the picture trembles
    hand = render_table_scene(LAYOUT, view, lighting=light, rng=rng, kit_print=kit, hands=(HandPlacement((110.0, 80.0)),))
    frame = moved_picture(hand.frame_bgr, 0.6 * scale, 0.5 * scale)
    seen = watch.look(np.ascontiguousarray(frame[y0:y1, x0:x1]), to_table).occupancy
    assert not seen.still and seen.occupied


@pytest.mark.parametrize(("condition", "seed"), [("plain", 41), ("bw_kit", 42), ("warm", 43)])
def test_given_a_shadow_that_comes_while_a_card_lies_in_the_zone_then_it_is_learned_and_the_card_kept(
        condition: str, seed: int) -> None:
    # a player leans over and stays, or a lamp on the camera's stand moves when the stand is
    # knocked, while a card lies in the zone: the shadow's straight edge is taken out of the
    # frame and the bare mat round the card learns it, so the dealer does not ask, turn after
    # turn, about "something beside the cards" (issue 7)
    rng = np.random.default_rng(seed)
    light, kit = scene_condition(condition, rng)
    view = PinholeView(tilt_deg=60.0, distance_mm=330.0, target_mm=(132.5, 93.0), size_wh=SIZE)
    watch = _learned_watch(view, light, kit, rng)
    card, shadowed = (CardPlacement("9C", (132.0, 95.0), 10.0),), _shadowed(light, rng)
    looks = [watch.look(crop, to_table).occupancy for crop, to_table in _frames(view, shadowed, kit, rng, 6, cards=card)]
    # the shadow came (the frame moved), and from the first still frame on it is light
    assert not looks[0].still
    assert all(seen.cards == 1 and seen.unexplained_fraction < 0.01 for seen in looks[1:])
    # and a hand laid over the zone then is still a thing
    (crop, to_table), = _frames(view, shadowed, kit, rng, 1, cards=card, hands=(HandPlacement((60.0, 80.0)),))
    assert watch.look(crop, to_table).occupancy.unexplained_fraction > 0.05


@pytest.mark.parametrize(("condition", "seed", "tilt"), [("plain", 4, 60.0), ("lamp", 4, 45.0)])
def test_given_a_lean_that_ends_as_a_card_is_laid_then_the_learned_look_is_not_bent(
        condition: str, seed: int, tilt: float) -> None:
    # the zone was learned while a player leaned over it; the player stands up as a card is
    # laid. The shadow's edge, gone, is a step along the camera's rows, and taken out as a
    # flickering light's bands it bent the frame the look learned by up to half the step
    # (bench gnome-bellot-lamp-zone-touching-lean, seed 16). That bent look then made a third
    # "card" beside two, and an empty zone read as a thing
    rng = np.random.default_rng(seed)
    light, kit = scene_condition(condition, rng)
    view = PinholeView(tilt_deg=tilt, distance_mm=330.0, target_mm=(132.5, 93.0), size_wh=SIZE)
    shadowed = _shadowed(light, rng)
    watch = _learned_watch(view, shadowed, kit, rng)
    for crop, to_table in _frames(view, light, kit, rng, 6, cards=(CardPlacement("9C", (132.0, 95.0), 10.0),)):
        watch.look(crop, to_table)
    two = (CardPlacement("9C", (70.0, 95.0), 0.0), CardPlacement("4H", (200.0, 95.0), 0.0))
    looks = [watch.look(crop, to_table).occupancy for crop, to_table in _frames(view, light, kit, rng, 4, cards=two)]
    assert all(seen.cards == 2 for seen in looks)
    gone = [watch.look(crop, to_table).occupancy for crop, to_table in _frames(view, light, kit, rng, 3)]
    assert all(seen.cards == 0 and seen.unexplained_fraction < 0.01 for seen in gone[1:])


@pytest.mark.parametrize(("condition", "seed"), [("warm", 2), ("dim", 2)])
def test_given_a_token_lying_still_in_a_dim_room_then_the_zone_is_still(condition: str, seed: int) -> None:
    # a token's black marker reads as sensor noise in log colour: in a warm or dim room seen
    # from afar (the whole layout), it "moved" in every frame, so the zone was never still and
    # a step of light there was never learned (bench real-warm-whole-lean, seed 31: the dealer
    # asked for the ACCEPT token it saw, again and again)
    rng = np.random.default_rng(seed)
    light, kit = scene_condition(condition, rng)
    view = PinholeView(tilt_deg=60.0, distance_mm=600.0, target_mm=(132.5, 93.0), size_wh=SIZE)
    watch = _learned_watch(view, light, kit, rng)
    card, token = CardPlacement("6D", (100.0, 95.0), 5.0), TokenPlacement("accept", (200.0, 95.0), 3.0)
    looks = [watch.look(crop, to_table, (token.centre_mm,)).occupancy
             for crop, to_table in _frames(view, light, kit, rng, 5, cards=(card,), tokens=(token,))]
    assert not looks[0].still and all(seen.still and seen.cards >= 1 for seen in looks[1:])
    # a hand coming over the zone while the token lies there still moves
    (crop, to_table), = _frames(view, light, kit, rng, 1, cards=(card,), tokens=(token,),
                                hands=(HandPlacement((150.0, 80.0)),))
    assert not watch.look(crop, to_table, (token.centre_mm,)).occupancy.still


@pytest.mark.parametrize(("condition", "seed"), [("plain", 41), ("lamp", 42)])
def test_an_arm_reaching_across_the_zone_to_the_layout_is_an_arm_and_a_hand_laying_is_not(
        condition: str, seed: int) -> None:
    # a player's arm sweeps from the players' edge across the play zone to the main line
    # beyond it (out of view), over the cards lying there, and comes back; a hand laying a
    # card reaches into the zone from its edge only (issue 29: the dealer waits in silence
    # for the arm, and still sees the hand as a thing)
    rng = np.random.default_rng(seed)
    light, kit = scene_condition(condition, rng)
    view = PinholeView(tilt_deg=60.0, distance_mm=330.0, target_mm=(132.5, 93.0), size_wh=SIZE)
    watch = _learned_watch(view, light, kit, rng)
    cards = (CardPlacement("9C", (70.0, 95.0), 5.0), CardPlacement("4D", (200.0, 95.0), -3.0))
    for crop, to_table in _frames(view, light, kit, rng, 2, cards=cards):
        assert not watch.look(crop, to_table).occupancy.arm
    arm = [watch.look(crop, to_table).occupancy
           for tip in ((140.0, 20.0), (130.0, -120.0), (125.0, -270.0), (135.0, -60.0))
           for crop, to_table in _frames(view, light, kit, rng, 1, cards=cards,
                                         hands=(HandPlacement(tip, -10.0, reach_mm=400.0 - tip[1]),))]
    assert all(seen.arm and seen.occupied for seen in arm)
    hand = [watch.look(crop, to_table).occupancy
            for crop, to_table in _frames(view, light, kit, rng, 2, cards=cards,
                                          hands=(HandPlacement((130.0, 110.0), 10.0),))]
    assert all(seen.occupied and not seen.arm for seen in hand)
    # the arm gone, the cards are found again where they lay
    back = [watch.look(crop, to_table).occupancy for crop, to_table in _frames(view, light, kit, rng, 3, cards=cards)]
    assert back[-1].cards == 2 and not back[-1].arm and back[-1].still


def test_given_changes_no_outline_explains_when_the_zone_is_still_again_then_its_indices_are_read_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # cards whose outlines are not found (a column on a table as pale as the paper) change
    # the zone as much as any: once it is still again, the indices are read again (a look
    # that found no card is no look kept, whatever it found before)
    import vision.pipeline as pipeline
    from vision.zone_corners import ZoneCorners

    passes: list[int] = []
    monkeypatch.setattr(pipeline, "zone_corners", lambda *_a, **_k: passes.append(1) or ZoneCorners.empty())
    shot = single_card_scene(_card_face(), "plain", 60.0, np.random.default_rng(4), size_wh=SIZE,  # type: ignore[arg-type]
                             empty_frames=3)
    reader = CardReader(FakeClassifier(lambda _img, _i: CardReading.unsure("none", 0.2)),
                        ReaderConfig(corner_zones=frozenset({ZONE_PLAY})))
    for frame in shot.empty_bgr:
        crop, to_table, _ = _crop(frame, shot.scene.table_to_px)
        reader.read_zone(crop, to_table, ZONE_PLAY, ZONE)
    counts = [len(passes)]
    marked = crop.copy()
    for x_mm in (60.0, 200.0):  # a mark far smaller than a card, then another beside it
        spot = np.linalg.inv(to_table) @ np.array([x_mm, 95.0, 1.0])
        cv2.circle(marked, (int(spot[0] / spot[2]), int(spot[1] / spot[2])), 8, (20, 20, 20), -1)
        for _ in range(4):
            reading = reader.read_zone(marked, to_table, ZONE_PLAY, ZONE)
        assert reading.occupancy.still and reading.occupancy.cards == 0
        counts.append(len(passes))
    assert counts[1] == counts[0] + 1 and counts[2] == counts[1] + 1  # once after each change, not again while still
