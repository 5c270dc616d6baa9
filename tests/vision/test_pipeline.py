"""The whole chain on rendered scenes: detect, rectify, classify in one batch, shoe check."""

import numpy as np
import pytest

from engine.cards import Card, parse_cards
from vision.classify import CardReading, FakeClassifier
from vision.errors import CameraLost
from vision.frames import FakeSource
from vision.geometry import match_quads
from vision.pipeline import CardReader, read_stream
from vision.synthetic import draw_card, render_scene

KINDS = parse_cards("AS 10H KC 5D 8S")  # the kinds the template classifier knows (conftest)


def _scene(seed: int, tilt: float, background: str = "cloth", n: int = 6, backs: int = 1):
    rng = np.random.default_rng(seed)
    labels = [KINDS[int(k)] for k in rng.integers(len(KINDS), size=n)]
    return render_scene(rng, n_cards=n, size_wh=(1280, 720), tilt_deg=tilt, background=background,
                        labels=labels, backs=backs)


@pytest.mark.parametrize(
    ("tilt", "background", "min_right"),
    # the template stand-in reads a squashed, slanted card poorly; the bar is "never wrong"
    [(90, "cloth", 0.7), (75, "wood", 0.7), (60, "dark", 0.7), (45, "paper", 0.4), (35, "white", 0.4)],
)
def test_given_a_scene_when_read_then_cards_are_right_and_never_wrong(template_classifier, template_kinds,
                                                                       tilt, background, min_right) -> None:
    assert set(template_kinds) == set(KINDS)
    right = wrong = total = 0
    for seed in range(3):
        scene = _scene(100 * tilt + seed, tilt, background)
        out = CardReader(template_classifier).read_frame(scene.bgr)
        for i, j, _ in match_quads(scene.truth.quad_xy, out.quad_xy, 0.6):
            truth = scene.truth.label[i]
            total += 1
            if truth is None:
                right += int(out.face_down[j] and out.label[j] is None)
                wrong += int(out.label[j] is not None)
            elif out.label[j] is not None:
                right += int(out.label[j] == truth)
                wrong += int(out.label[j] != truth)
    assert total >= 12 and wrong == 0 and right / total >= min_right, (right, wrong, total)


def test_given_a_frame_when_read_then_every_card_is_classified_in_one_batch() -> None:
    scene = _scene(7, 90, n=5, backs=0)
    sure = FakeClassifier(lambda img, i: CardReading(Card.from_index(i), 0.99))
    out = CardReader(sure).read_frame(scene.bgr)
    assert sure.batches == 1 and sure.cards_seen == len(out) >= 4


def test_given_unsure_readings_when_read_then_one_more_batch_tries_the_other_way_and_stays_unsure() -> None:
    scene = _scene(7, 90, n=5, backs=0)
    unsure = FakeClassifier()
    out = CardReader(unsure).read_frame(scene.bgr)
    assert unsure.batches == 2 and len(out) < unsure.cards_seen <= 2 * len(out)
    assert all(label is None for label in out.label)


def test_given_five_identical_sure_readings_with_three_decks_then_all_are_flagged_c1() -> None:
    scene = _scene(8, 90, n=5, backs=0)
    seven = Card.parse("7H")
    out = CardReader(FakeClassifier(lambda img, i: CardReading(seven, 0.99))).read_frame(scene.bgr)
    assert len(out) >= 4 and out.over_shoe.all() and out.read_cards() == []


def test_given_known_cards_when_one_more_copy_is_seen_then_it_is_flagged() -> None:
    scene = _scene(9, 90, n=2, backs=0)
    reader = CardReader(FakeClassifier(lambda img, i: CardReading(Card.parse("QS"), 0.99)),
                        known=parse_cards("QS QS"))
    out = reader.read_frame(scene.bgr)
    assert len(out) == 2 and out.over_shoe.all()


def test_given_a_card_cut_by_the_frame_edge_when_read_then_it_is_flagged_and_never_classified() -> None:
    face, _ = draw_card(Card.parse("8S"), px_per_mm=3.0)
    h, w = face.shape[:2]
    frame = np.full((480, 640, 3), 40, np.uint8)
    frame[100:100 + h, 0:w - 80] = face[:, 80:]  # its left part lies outside the picture
    frame[100:100 + h, 300:300 + w] = face  # and a whole one
    fake = FakeClassifier(lambda img, i: CardReading(Card.parse("8S"), 0.99))
    out = CardReader(fake).read_frame(frame)
    assert len(out) == 2 and out.cut.tolist().count(True) == 1
    assert out.label[out.cut][0] is None and out.label[~out.cut][0] == Card.parse("8S")
    assert fake.cards_seen <= 2  # the cut one was never sent to the classifier


def test_given_a_crop_when_read_single_then_one_card_with_the_image_corners(template_classifier) -> None:
    import cv2

    face, _ = draw_card(Card.parse("KC"), px_per_mm=3.5)
    crop = cv2.rotate(face, cv2.ROTATE_90_CLOCKWISE)  # a landscape crop
    out = CardReader(template_classifier).read_single(crop)
    h, w = crop.shape[:2]
    assert out.read_cards() == [Card.parse("KC")]
    assert sorted(map(tuple, out.quad_xy[0].tolist())) == sorted([(0, 0), (w, 0), (w, h), (0, h)])


def test_given_a_camera_lost_mid_stream_then_readings_made_before_are_kept(template_classifier) -> None:
    frames = [_scene(20 + k, 90, n=3).bgr for k in range(4)]
    got = []
    with pytest.raises(CameraLost, match="after 2 frames"):
        for frame, dets in read_stream(FakeSource(frames, lose_after=2), CardReader(template_classifier)):
            got.append((frame.index, len(dets)))
    assert [index for index, _ in got] == [0, 1] and all(n >= 2 for _, n in got)


def test_given_the_table_homography_when_read_then_one_batch_and_long_sides_from_the_table(
        template_classifier) -> None:
    scene = _scene(3501, 35, "white")
    image_to_table = np.linalg.inv(scene.table_to_image)
    out = CardReader(template_classifier).read_frame(scene.bgr, image_to_table)
    assert template_classifier.batches == 1
    import cv2

    pairs = match_quads(scene.truth.quad_xy, out.quad_xy, 0.6)
    assert len(pairs) >= 4
    for _, j, _ in pairs:
        mm = cv2.perspectiveTransform(out.quad_xy[j][None].astype(np.float64), image_to_table)[0]
        assert np.linalg.norm(mm[1] - mm[0]) < np.linalg.norm(mm[2] - mm[1])  # 0 -> 1 is a short side


def test_given_the_table_homography_when_a_quad_is_not_card_sized_then_it_is_not_read() -> None:
    face, _ = draw_card(Card.parse("8S"), px_per_mm=3.0)
    h, w = face.shape[:2]
    frame = np.full((480, 900, 3), 40, np.uint8)
    frame[100:100 + h, 40:40 + w] = face
    frame[100:100 + h, 40 + w // 2:40 + w // 2 + w] = face  # a second card half over the first
    frame[100:100 + h, 600:600 + w] = face  # and one alone
    image_to_table = np.diag([1 / 3.0, 1 / 3.0, 1.0])  # 3 pixels a millimetre, straight down
    fake = FakeClassifier(lambda img, i: CardReading(Card.parse("8S"), 0.99))
    out = CardReader(fake).read_frame(frame, image_to_table)
    assert len(out) == 2 and fake.cards_seen == 1
    alone = out.center_xy[:, 0] > 500
    assert out.label[alone][0] == Card.parse("8S") and out.label[~alone][0] is None


def test_given_a_strict_second_look_when_the_turned_view_is_not_sure_enough_then_unsure() -> None:
    from vision.pipeline import ReaderConfig

    scene = _scene(31, 90, n=3, backs=0)

    def answer(img: np.ndarray, i: int) -> CardReading:  # unsure the first way, 0.99 sure the other
        return CardReading(Card.parse("9C"), 0.99) if fake.batches == 2 else CardReading.unsure()

    fake = FakeClassifier(answer)
    loose = CardReader(fake).read_frame(scene.bgr)
    assert fake.batches == 2 and all(label == Card.parse("9C") for label in loose.label)
    fake = FakeClassifier(answer)
    strict = CardReader(fake, ReaderConfig(second_look_threshold=0.995)).read_frame(scene.bgr)
    assert fake.batches == 2 and all(label is None for label in strict.label)


def test_given_a_quad_whose_corners_run_anticlockwise_when_read_then_the_card_is_not_rectified_as_its_mirror_image(
) -> None:
    """A card outline found in a zone may come with its corners anticlockwise on screen;
    rectified as given it is the card's mirror image (an index read backwards, and a deck
    profile's prototype made of it matches nothing). The reader puts the corners clockwise."""
    import cv2

    from vision.readings import CardDetections

    frame = np.full((400, 400, 3), 40, np.uint8)
    cv2.rectangle(frame, (100, 60), (226, 236), (235, 235, 235), -1)  # a card, 63 x 88 mm at 2 px/mm
    cv2.rectangle(frame, (106, 66), (122, 90), (0, 0, 200), -1)  # its index: top left only
    seen: list[np.ndarray] = []

    class Keep(FakeClassifier):
        def classify(self, rectified_cards):  # type: ignore[no-untyped-def]
            seen.extend(rectified_cards)
            return super().classify(rectified_cards)

    clockwise = np.array([[100, 60], [226, 60], [226, 236], [100, 236]], np.float32)
    anticlockwise = clockwise[[1, 0, 3, 2]]  # the same card, its corners walked the other way
    to_table = np.diag([0.5, 0.5, 1.0])  # 2 px per mm
    out = CardReader(Keep()).read_quads(frame, CardDetections(
        np.stack([clockwise, anticlockwise])), to_table)
    for quad in out.quad_xy:
        x, y = quad.T
        assert np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y) > 0  # clockwise on screen
    first, second = (cv2.cvtColor(c, cv2.COLOR_BGR2GRAY) for c in seen)
    # the index is in a corner of both crops the same way (top left, or bottom right when
    # turned half round), never mirrored into the top right or bottom left
    assert np.array_equal(first, second) or np.array_equal(first, second[::-1, ::-1])
    assert first[:50, :40].mean() < first[:50, -40:].mean() or first[-50:, -40:].mean() < first[-50:, :40].mean()
