"""`eleusis calibrate deck`: stills of a deck being shown make a deck profile; bad input exits 2."""

import numpy as np
import pytest

from dealer.app.cli import main
from dealer.table.enrolment import enrolment_steps, reading_order
from vision.classify import OnnxClassifier, default_model_paths


def test_given_three_decks_in_batches_of_seven_when_steps_made_then_every_card_and_back_is_asked_once() -> None:
    steps = enrolment_steps(3, 7)
    asked = [(s.deck, label) for s in steps for label in s.labels]
    assert len(asked) == len(set(asked)) == 3 * 53
    assert all(len(s.labels) <= 7 for s in steps)
    assert "face down" in steps[-1].prompt


def test_given_the_default_batch_when_steps_made_then_three_cards_a_step_named_in_the_language_spoken() -> None:
    from dealer.speech.i18n import use_language

    steps = enrolment_steps(1)
    assert [len(s.labels) for s in steps[:5]] == [3, 3, 3, 3, 1] and len(steps) == 21
    assert "the ace of clubs, the two of clubs and the three of clubs" in steps[0].prompt
    with use_language("ru"):
        assert "туза треф" in steps[0].prompt and "рубашкой вверх" in steps[-1].prompt
    with use_language("pt"):
        assert "ás de paus" in steps[0].prompt and "virada para baixo" in steps[-1].prompt


def test_given_cards_in_two_rows_when_ordered_then_rows_top_to_bottom_and_left_to_right() -> None:
    def quad(x: float, y: float) -> list[list[float]]:
        return [[x, y], [x + 50, y], [x + 50, y + 70], [x, y + 70]]
    quads = np.array([quad(200, 110), quad(0, 0), quad(100, 8), quad(0, 100)], float)
    assert reading_order(quads) == [1, 2, 3, 0]


@pytest.mark.parametrize(("args", "says"), [
    (["--decks", "4"], "--decks must be 1 to 3"),
    (["--batch", "0"], "--batch must be 1 to 13"),
])
def test_given_bad_options_when_calibrating_a_deck_then_exit_2_with_the_reason(tmp_path, capsys, args, says) -> None:
    image = tmp_path / "a.jpg"
    image.write_bytes(b"")
    assert main(["calibrate", "deck", "--images", str(image), *args]) == 2
    assert says in capsys.readouterr().err


def test_given_too_few_images_when_calibrating_a_deck_then_exit_2_saying_how_many(tmp_path, capsys) -> None:
    if not default_model_paths()[0].is_file() or "embedding" not in OnnxClassifier().output_names:
        pytest.skip("needs the trained model with an embedding output")
    image = tmp_path / "a.jpg"
    image.write_bytes(b"")
    assert main(["calibrate", "deck", "--images", str(image), "--batch", "13"]) == 2
    assert "5 images needed" in capsys.readouterr().err
    assert main(["calibrate", "deck", "--images", str(image)]) == 2  # batches of 3, what the play zone holds
    assert "21 images needed" in capsys.readouterr().err


def test_given_stills_of_a_russian_deck_when_enrolled_then_all_53_are_learnt_and_read_uses_the_profile(
        tmp_path, capsys) -> None:
    if not default_model_paths()[0].is_file() or "embedding" not in OnnxClassifier().output_names:
        pytest.skip("needs the trained model with an embedding output")
    from models.enrol_stills import step_still, write_stills
    from models.procedural_deck import make_design

    design = make_design(np.random.default_rng(11), "russian")
    paths = write_stills(tmp_path / "steps", [design], 13, seed=4)
    out = tmp_path / "decks.json"
    code = main(["calibrate", "deck", "--images", *map(str, paths), "--batch", "13", "--out", str(out)])
    text = capsys.readouterr().out
    assert "53 of 53 cards enrolled" in text and out.is_file()
    assert code in (0, 1)  # 1 only when some pair is reported alike
    # a still of three of its cards, read with the profile
    import cv2

    still = tmp_path / "three.jpg"
    cv2.imwrite(str(still), step_still(np.random.default_rng(9), design, ["QH", "KS", "AD"]))
    assert main(["read", str(still), "--json", "--deck", str(out)]) == 0
    read = capsys.readouterr().out
    assert '"card": "QH"' in read or '"card": null' in read
    for wrong in ("QS", "QD", "KH", "AS", "AH", "JH"):
        assert f'"card": "{wrong}"' not in read


# --- at the table: the mat's play zone, as play reads it (issue 8 item 1 at a real table) ---

def _made_up_faces(seed: int) -> dict:
    from models.procedural_deck import make_design
    from vision.synthetic.cards import CardFace

    design = make_design(np.random.default_rng(seed), "english")
    return {label: CardFace(None, np.ascontiguousarray(img[:, :, :3]), img[:, :, 3].astype(np.float32) / 255.0)
            for label, img in design.items()}


def _table_renderer(faces: dict, scene: str = "lamp"):
    from bench.harness.make_demo import StepRenderer
    from vision.synthetic import PinholeView, scene_condition

    light, kit_print = scene_condition(scene, np.random.default_rng(3))
    view = PinholeView(tilt_deg=62.0, distance_mm=500.0, target_mm=(132.5, 60.0), yaw_deg=2.0, size_wh=(1280, 720))
    return StepRenderer(faces, seed=5, view=view, lighting=lambda rng: light, table="oak", kit_print=kit_print)


def test_given_steps_shown_on_the_mat_under_a_lamp_when_watched_then_each_is_asked_first_and_taken_without_a_hand(
) -> None:
    from dealer.table.enrolment import CardFinder, step_views
    from bench.harness.make_demo import Step, filmed
    from bench.harness.scripted_enrolment import enrolment_timeline

    steps = enrolment_steps(1)[:2]
    renderer = _table_renderer(_made_up_faces(21))
    events: list[str] = []
    hand_frames: list[np.ndarray] = []  # kept alive: their ids are not reused

    def frames():
        for k, (state, frame) in enumerate(filmed(renderer, (Step((), seconds=1.0), *enrolment_timeline(steps)), 3.0)):
            if state.hand:
                hand_frames.append(frame)
            events.append("frame")
            yield frame, k / 3.0

    taken = []
    for step, frame, quads in step_views(frames(), steps, False, CardFinder(),
                                         ask=lambda s: events.append(f"ask {s.labels[0]}")):
        assert frame is not None, f"step {step.labels} never taken"
        assert not any(frame is h for h in hand_frames)  # never on a frame with a hand over the zone
        assert len(quads) == 3
        xs = quads.mean(axis=1)[:, 0]
        assert list(xs) == sorted(xs)  # left to right, as the cards were asked for
        taken.append(events.count("frame"))
    assert events[0] == "ask AC"  # asked before the first frame is looked at
    assert events.index("ask 4C") == events.index("frame") + taken[0]  # the next step asked once this one is taken


def test_given_a_photo_of_cards_on_a_plain_table_when_looked_at_then_found_anywhere_in_reading_order() -> None:
    from dealer.table.enrolment import CardFinder
    from models.enrol_stills import step_still
    from models.procedural_deck import make_design

    design = make_design(np.random.default_rng(11), "english")
    still = step_still(np.random.default_rng(4), design, ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C"])
    laid = CardFinder().look(still, 0.0)
    assert not laid.on_mat and len(laid.quads) == 9
    centres = laid.quads.mean(axis=1)
    assert centres[0, 1] < centres[-1, 1] and centres[0, 0] < centres[1, 0]  # rows, each left to right


def test_given_a_camera_lost_after_a_step_when_crops_gathered_then_the_cards_taken_are_kept_and_it_is_said() -> None:
    from dealer.table.enrolment import gather_crops
    from vision.errors import CameraLost

    steps = enrolment_steps(1)
    frame = np.full((400, 600, 3), 60, np.uint8)
    quads = np.array([[[x, 50], [x + 100, 50], [x + 100, 190], [x, 190]] for x in (20, 200, 380)], np.float32)

    def views():
        yield steps[0], frame, quads
        raise CameraLost("camera 0", 120)

    crops, problems = gather_crops(views(), 1)
    assert sorted(crops[0]) == ["2C", "3C", "AC"] and all(c.shape[:2] == (280, 200) for c in crops[0].values())
    assert len(problems) == 1 and "camera 0 lost after 120 frames" in problems[0] and "kept" in problems[0]
    with pytest.raises(CameraLost):
        gather_crops(views(), 1, keep_partial=False)


def test_given_a_video_of_two_steps_on_the_mat_when_enrolled_then_six_cards_are_learnt_and_the_rest_named(
        tmp_path, capsys) -> None:
    if not default_model_paths()[0].is_file() or "embedding" not in OnnxClassifier().output_names:
        pytest.skip("needs the trained model with an embedding output")
    from bench.harness.round_check import write_video
    from bench.harness.scripted_enrolment import enrolment_frames

    renderer = _table_renderer(_made_up_faces(22), scene="bw_kit")
    video = tmp_path / "showing.mp4"
    write_video((f for f, _ in enrolment_frames(renderer, enrolment_steps(1)[:2])), video, 3.0)
    out = tmp_path / "decks.json"
    from dealer.speech.i18n import use_language

    with use_language("en"):  # the command sets the language; the tests after this one speak English
        code = main(["calibrate", "deck", "--video", str(video), "--out", str(out), "--lang", "pt"])
    text = capsys.readouterr().out
    assert code == 1 and out.is_file()
    assert "Cartas aprendidas: 6 de 53" in text  # the report in the language asked for
    assert "o vídeo acabou antes de eu ver o sete de paus, o oito de paus e o nove de paus" in text
    assert "Baralho 1: quarenta e sete cartas não foram mostradas." in text  # not each one
    assert text.count("o vídeo acabou") == 1
    assert "o ás de paus, o dois de paus e o três de paus" in text and "Já está" in text  # asked in Portuguese
    from vision.deck_profile import DeckProfile

    assert sorted(set(DeckProfile.load(out).labels)) == sorted(["AC", "2C", "3C", "4C", "5C", "6C"])
    assert "dez de paus" not in text  # asked for the step the video ended in, not for those after it


def test_given_two_cards_laid_where_three_were_asked_for_when_watched_then_the_dealer_says_so_once_and_waits() -> None:
    from dealer.table.enrolment import CardFinder, step_views, what_is_wrong
    from bench.harness.make_demo import Step, filmed

    steps = enrolment_steps(1)[:1]
    renderer = _table_renderer(_made_up_faces(23))
    states = (Step((), seconds=1.0), Step(("AC", "2C"), seconds=0.7, hand=True), Step(("AC", "2C"), seconds=4.0),
              Step(("AC", "2C", "3C"), seconds=0.7, hand=True), Step(("AC", "2C", "3C"), seconds=2.0))

    def frames():
        for k, (_state, frame) in enumerate(filmed(renderer, states, 3.0)):
            yield frame, k / 3.0

    told: list[str] = []
    taken = list(step_views(frames(), steps, False, CardFinder(),
                            tell=lambda step, laid: told.append(what_is_wrong(step, laid))))
    assert told == ["I see 2 cards in the play zone and asked for 3: lay the cards asked for face up, a finger apart."]
    (step, frame, quads), = taken
    assert frame is not None and len(quads) == 3  # and then the three are taken


def test_given_photos_of_the_mat_each_taken_from_elsewhere_when_enrolled_from_stills_then_every_step_is_found() -> None:
    """A phone held over the mat moves between photos; each photo is looked at afresh
    (the play's tracker would keep the mat where the last photo had it)."""
    from dealer.table.enrolment import CardFinder, step_views
    from bench.harness.make_demo import Step, StepRenderer
    from vision.synthetic import PinholeView, scene_condition

    faces = _made_up_faces(31)
    steps = enrolment_steps(1)[:3]
    light, kit_print = scene_condition("lamp", np.random.default_rng(3))
    photos = []
    for k, step in enumerate(steps):
        view = PinholeView(tilt_deg=55.0 + 8 * k, distance_mm=450.0 + 40 * k, target_mm=(132.5 + 10 * k, 60.0),
                           yaw_deg=-6.0 + 4 * k, size_wh=(1600, 1200))
        renderer = StepRenderer(faces, seed=k, view=view, lighting=lambda rng: light, table="oak", kit_print=kit_print)
        photos.append((renderer.frame(renderer.still(Step(step.labels, seconds=1.0))), float(k)))
    found = [len(quads) for _step, _frame, quads in step_views(iter(photos), steps, True, CardFinder(stills=True))]
    assert found == [3, 3, 3]
