"""`eleusis read`: JSON lines, --single, text output, bad files (exit 2, others still read)."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from dealer.app import cli
from dealer.app.commands import read as read_command
from engine.cards import Card
from vision.classify import CardReading, FakeClassifier
from vision.errors import ModelLoadError
from vision.synthetic import draw_card, render_scene


@pytest.fixture
def fake_model(monkeypatch):
    """Every card reads as QS with 0.97, except a dark (back) card which reads as a back."""

    def answer(img: np.ndarray, _i: int) -> CardReading:
        if img.mean() < 140:
            return CardReading(None, 0.95, True, "back")
        return CardReading(Card.parse("QS"), 0.97, False, "QS")

    fake = FakeClassifier(answer)
    monkeypatch.setattr(read_command, "load_classifier", lambda model, meta: fake)
    return fake


@pytest.fixture
def scene_file(tmp_path: Path) -> Path:
    scene = render_scene(np.random.default_rng(4), n_cards=3, size_wh=(960, 540), background="dark")
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), scene.bgr)
    return path


@pytest.fixture
def crop_file(tmp_path: Path) -> Path:
    face, _ = draw_card(Card.parse("QS"), px_per_mm=3.0)
    path = tmp_path / "crop.jpg"
    cv2.imwrite(str(path), face)
    return path


def test_given_a_table_photo_when_read_as_json_then_one_line_with_the_documented_shape(
        fake_model, scene_file, capsys) -> None:
    code = cli.main(["read", str(scene_file), "--json"])
    lines = capsys.readouterr().out.strip().splitlines()
    assert code == 0 and len(lines) == 1
    obj = json.loads(lines[0])
    assert obj["image"] == str(scene_file) and isinstance(obj["ms"], float) and obj["ms"] >= 0
    assert len(obj["cards"]) == 3
    for card in obj["cards"]:
        assert card["card"] == "QS" and card["confidence"] == pytest.approx(0.97)
        assert len(card["corners"]) == 4 and all(len(xy) == 2 for xy in card["corners"])


def test_given_four_copies_with_three_decks_when_read_then_card_is_null_and_flagged(
        fake_model, tmp_path, capsys) -> None:
    scene = render_scene(np.random.default_rng(6), n_cards=4, size_wh=(960, 540), background="dark")
    path = tmp_path / "four.png"
    cv2.imwrite(str(path), scene.bgr)
    assert cli.main(["read", str(path), "--json"]) == 0
    cards = json.loads(capsys.readouterr().out)["cards"]
    assert len(cards) == 4 and all(c["card"] is None and c["over_shoe"] for c in cards)
    assert cli.main(["read", str(path), "--json", "--decks", "4"]) == 0
    assert all(c["card"] == "QS" for c in json.loads(capsys.readouterr().out)["cards"])


def test_given_a_crop_when_read_single_then_one_card_with_the_image_corners(fake_model, crop_file, capsys) -> None:
    assert cli.main(["read", "--single", "--json", str(crop_file)]) == 0
    obj = json.loads(capsys.readouterr().out)
    h, w = cv2.imread(str(crop_file)).shape[:2]
    (card,) = obj["cards"]
    assert card["card"] == "QS"
    assert sorted(map(tuple, card["corners"])) == sorted([(0, 0), (w, 0), (w, h), (0, h)])
    assert fake_model.cards_seen == 1


def test_given_an_iphone_heic_photo_when_read_then_it_is_read_like_a_jpeg(fake_model, crop_file, tmp_path,
                                                                             capsys) -> None:
    from PIL import Image
    from pillow_heif import register_heif_opener

    register_heif_opener()
    heic = tmp_path / "IMG_0042.HEIC"
    Image.open(crop_file).save(heic, format="HEIF")
    assert cli.main(["read", "--single", "--json", str(heic)]) == 0
    obj = json.loads(capsys.readouterr().out)
    h, w = cv2.imread(str(crop_file)).shape[:2]
    (card,) = obj["cards"]
    assert obj["image"] == str(heic) and card["card"] == "QS"
    assert sorted(map(tuple, card["corners"])) == sorted([(0, 0), (w, 0), (w, h), (0, h)])


def test_given_a_missing_and_a_broken_file_when_read_then_exit_2_naming_them_and_others_still_read(
        fake_model, crop_file, tmp_path, capsys) -> None:
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"\x00\x01 not a jpeg")
    code = cli.main(["read", "--single", "--json", str(tmp_path / "missing.jpg"), str(broken), str(crop_file)])
    captured = capsys.readouterr()
    assert code == 2
    assert "missing.jpg" in captured.err and "no such file" in captured.err
    assert "broken.jpg" in captured.err and "Traceback" not in captured.err
    lines = captured.out.strip().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["image"] == str(crop_file)


def test_given_no_json_flag_when_read_then_a_readable_line_per_card(fake_model, scene_file, capsys) -> None:
    assert cli.main(["read", str(scene_file)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{scene_file}: 3 cards (")
    assert all("QS" in line and "0.97" in line for line in out[1:4])
    assert len(out) == 5 and "closer" in out[4]  # its cards are 58 px wide: the next test


def test_given_cards_under_90_px_wide_when_read_then_their_width_is_given_and_a_closer_photo_asked_for(
        fake_model, tmp_path, capsys) -> None:
    """The same three cards photographed at 960 x 540 (58 px wide) and 1920 x 1080 (116 px)."""
    paths = []
    for wh in ((960, 540), (1920, 1080)):
        scene = render_scene(np.random.default_rng(4), n_cards=3, size_wh=wh, background="dark")
        paths.append(tmp_path / f"table-{wh[0]}.png")
        cv2.imwrite(str(paths[-1]), scene.bgr)
    assert cli.main(["read", *map(str, paths), "--json"]) == 0
    small, large = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert small["card_px"] == pytest.approx(58, abs=6) and small["too_small"] is True
    assert large["card_px"] == pytest.approx(116, abs=12) and large["too_small"] is False
    assert cli.main(["read", *map(str, paths)]) == 0
    out = capsys.readouterr().out.splitlines()
    asks = [line for line in out if "Take the photo closer" in line]
    assert len(out) == 9 and asks == [out[4]] and f"about {small['card_px']:.0f} px wide" in asks[0]


@pytest.mark.parametrize("args", [["--decks", "0"], ["--decks", "three"], ["--known", "7X"]])
def test_given_bad_options_when_read_then_exit_2_with_a_message(fake_model, crop_file, args, capsys) -> None:
    with pytest.raises(SystemExit) as info:
        cli.main(["read", str(crop_file), *args])
    assert info.value.code == 2 and args[1] in capsys.readouterr().err


def test_given_no_model_when_read_then_exit_2_with_a_clear_message(monkeypatch, crop_file, capsys) -> None:
    def missing(model, meta):
        raise ModelLoadError("'models/card_classifier.onnx': no model file")

    monkeypatch.setattr(read_command, "load_classifier", missing)
    assert cli.main(["read", str(crop_file)]) == 2
    assert "no model file" in capsys.readouterr().err


class _RuledFake(FakeClassifier):
    """A fake that says which accept rule the command asked for (issue 8: --single is strict)."""

    def __init__(self, asked: list[str]) -> None:
        super().__init__(lambda _img, _i: CardReading(Card.parse("QS"), 0.97, False, "QS"))
        self.asked = asked

    def with_rule(self, rule: str) -> "_RuledFake":
        self.asked.append(rule)
        return self


@pytest.mark.parametrize(("single", "asked"), [(True, ["still"]), (False, [])])
def test_given_one_card_crop_when_read_with_single_then_the_still_image_rule_is_asked_for(
        monkeypatch, crop_file, capsys, single, asked) -> None:
    seen: list[str] = []
    monkeypatch.setattr(read_command, "load_classifier", lambda model, meta: _RuledFake(seen))
    code = cli.main(["read", str(crop_file)] + (["--single"] if single else []))
    capsys.readouterr()
    assert code == 0 and seen == asked


def test_given_marked_when_read_then_the_photo_is_written_with_each_card_outlined_and_named(
        fake_model, scene_file, tmp_path, capsys) -> None:
    folder = tmp_path / "marked"  # made when missing
    assert cli.main(["read", str(scene_file), "--marked", str(folder), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    written = folder / "table-marked.jpg"
    assert obj["marked"] == str(written) and written.is_file()
    photo, marked = cv2.imread(str(scene_file)), cv2.imread(str(written))
    assert marked.shape == photo.shape
    changed = np.abs(marked.astype(int) - photo.astype(int)).max(axis=2) > 60
    for card in obj["cards"]:  # each card's outline is drawn: its corners' surroundings changed
        for x, y in card["corners"]:
            x, y = int(round(x)), int(round(y))
            assert changed[max(0, y - 3):y + 4, max(0, x - 3):x + 4].any()
    far = np.ones(changed.shape, bool)
    for card in obj["cards"]:
        xs, ys = zip(*card["corners"], strict=True)
        far[max(0, int(min(ys)) - 20):int(max(ys)) + 20, max(0, int(min(xs)) - 60):int(max(xs)) + 60] = False
    assert changed[far].mean() < 0.01  # the table away from the cards is left as it was (JPEG aside)
    assert cli.main(["read", str(scene_file), "--marked", str(folder)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"  marked: {written}"


def test_given_two_photos_of_one_name_when_marked_then_neither_overwrites_the_other(
        fake_model, scene_file, tmp_path, capsys) -> None:
    other = tmp_path / "elsewhere" / scene_file.name
    other.parent.mkdir()
    other.write_bytes(scene_file.read_bytes())
    assert cli.main(["read", str(scene_file), str(other), "--marked", str(tmp_path / "m"), "--json"]) == 0
    marked = [json.loads(line)["marked"] for line in capsys.readouterr().out.splitlines()]
    assert marked == [str(tmp_path / "m" / "table-marked.jpg"), str(tmp_path / "m" / "table-marked-2.jpg")]


def test_given_a_marked_folder_that_cannot_be_made_when_read_then_exit_2_naming_it_and_the_cards_still_given(
        fake_model, scene_file, tmp_path, capsys) -> None:
    blocker = tmp_path / "taken"
    blocker.write_text("a file where the folder would go")
    code = cli.main(["read", str(scene_file), "--marked", str(blocker), "--json"])
    captured = capsys.readouterr()
    assert code == 2
    assert f"--marked {blocker}" in captured.err and "table-marked.jpg" in captured.err
    assert "Traceback" not in captured.err
    obj = json.loads(captured.out)
    assert len(obj["cards"]) == 3 and "marked" not in obj
