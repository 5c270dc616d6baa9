"""`eleusis calibrate deck`: stills of a deck being shown make a deck profile; bad input exits 2."""

import numpy as np
import pytest

from dealer.cli import main
from dealer.commands.calibrate_deck import enrolment_steps, reading_order
from vision.classify import OnnxClassifier, default_model_paths


def test_given_three_decks_in_batches_of_seven_when_steps_made_then_every_card_and_back_is_asked_once() -> None:
    steps = enrolment_steps(3, 7)
    asked = [(s.deck, label) for s in steps for label in s.labels]
    assert len(asked) == len(set(asked)) == 3 * 53
    assert all(len(s.labels) <= 7 for s in steps)
    assert "face down" in steps[-1].prompt


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
    assert main(["calibrate", "deck", "--images", str(image)]) == 2
    assert "5 images needed" in capsys.readouterr().err


def test_given_stills_of_a_russian_deck_when_enrolled_then_all_53_are_learnt_and_read_uses_the_profile(
        tmp_path, capsys) -> None:
    if not default_model_paths()[0].is_file() or "embedding" not in OnnxClassifier().output_names:
        pytest.skip("needs the trained model with an embedding output")
    from models.enrol_stills import step_still, write_stills
    from models.procedural_deck import make_design

    design = make_design(np.random.default_rng(11), "russian")
    paths = write_stills(tmp_path / "steps", [design], 13, seed=4)
    out = tmp_path / "decks.json"
    code = main(["calibrate", "deck", "--images", *map(str, paths), "--out", str(out)])
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
