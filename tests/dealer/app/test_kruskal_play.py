"""A Kruskal round dealt from a rendered table video by `eleusis play --video --variant
kruskal` (KR1-KR8): the oracle turns each card alone into the play zone, the players' TRUE /
FALSE tokens are read from the prediction strip, and every verdict, token and score is the
one `eleusis judge` gives on the script's record, in English, Russian and Portuguese."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from bench.harness.kruskal_table import (
    KRUSKAL_VIEW,
    SHORT_ROUND,
    KruskalScript,
    kruskal_layout,
    kruskal_record,
    kruskal_steps,
    write_kruskal_video,
)
from bench.harness.make_demo import StepRenderer, _positions, filmed, load_faces
from calibration.kruskal_tokens import strip_place
from calibration.table import TableHomography
from dealer.app.cli import main
from dealer.app.kruskal_live import read_strip, run_kruskal_live
from dealer.app.live import LiveOptions
from dealer.record.guess_log import load_guesses
from dealer.record.recording import Seen, VerdictLine, View, load_recording
from dealer.record.verify import verify_recording
from dealer.speech.i18n import set_language
from dealer.speech.voice import FakeVoice
from engine.cards import Card
from engine.judging import judge_text
from engine.rules import resolve_rule
from vision.frames import Frame
from vision.readings import CardDetections

FACES = Path("/work/shared/data/real-cards/single")
SPEAKER = {"en": "dealer: ", "ru": "ведущий: ", "pt": "dador: "}


def test_the_strip_is_read_from_a_rendered_frame() -> None:
    from vision.synthetic import TokenPlacement, render_table_scene

    placed = (TokenPlacement("seat1_false", strip_place(1, 3), 5.0),
              TokenPlacement("seat2_true", strip_place(2, 3), -6.0),
              TokenPlacement("seat3_true", strip_place(3, 3), 0.0))
    scene = render_table_scene(kruskal_layout(), KRUSKAL_VIEW, placed)
    read = read_strip(scene.frame_bgr, TableHomography(scene.table_to_px), 3, "DICT_4X4_50")
    assert read is not None and read.shown == {1: False, 2: True, 3: True} and read.both == ()
    # a strip the camera does not see is no reading, never "nobody shows a token"
    far = TableHomography(scene.table_to_px @ [[1, 0, 0], [0, 1, -3000.0], [0, 0, 1]])
    assert read_strip(scene.frame_bgr, far, 3, "DICT_4X4_50") is None


def test_without_a_camera_or_video_a_kruskal_round_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--variant", "kruskal", "--voice", "text"]) == 2
    assert "a Kruskal round is dealt from --camera or --video" in capsys.readouterr().err


@pytest.fixture(scope="module")
def film(tmp_path_factory: pytest.TempPathFactory) -> Path:
    faces = load_faces(FACES)
    if len(faces) < 52:
        pytest.skip(f"no card faces in {FACES}: the classifier reads real card faces, not plain drawn ones")
    path = tmp_path_factory.mktemp("kruskal") / "kruskal-table.mp4"
    write_kruskal_video(path, faces)
    return path


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ru", "pt"])
def test_a_rendered_kruskal_round_is_dealt_as_judge_judges_its_script(
        lang: str, film: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rule = tmp_path / "rule.txt"
    rule.write_text(SHORT_ROUND.rule + "\n", encoding="utf-8")
    out = tmp_path / "rec"
    try:
        assert main(["play", "--lang", lang, "--variant", "kruskal", "--video", str(film), "--players",
                     " ".join(SHORT_ROUND.players), "--rule-file", str(rule), "--voice", "text", "--out", str(out),
                     "--no-window", "--guess", "card.colour != prev.colour"]) == 0
    finally:
        set_language("en")
    printed = capsys.readouterr().out.splitlines()
    said = [line.removeprefix(SPEAKER[lang]) for line in printed if line.startswith(SPEAKER[lang])]
    # every card turned, with every token, judged as `eleusis judge` judges the script's record
    truth = judge_text(kruskal_record(SHORT_ROUND), resolve_rule)
    dealt = judge_text((out / "round.eleusis").read_text(encoding="utf-8"), resolve_rule)
    assert [line.action for line in dealt.record.actions] == [line.action for line in truth.record.actions]
    assert dealt.round.result().scores == truth.round.result().scores == {"Ana": 5, "Bo": 2, "Cy": 3}
    assert dealt.round.result().dealer == truth.round.result().dealer == 3  # KR8
    verdicts = [v.verdict for v in load_recording(out).of_type(VerdictLine)]
    assert verdicts == [t.verdict.value for _n, t in truth.turns]
    # said in the round's language, the scores as they stand after each card
    if lang == "ru":
        assert [s for s in said if not re.search("[а-яё]", s)] == []
        assert any("Очки: Ana — 5, Bo — 2, Cy — 3." in s for s in said)
    elif lang == "pt":
        assert any("Pontos: Ana 5, Bo 2, Cy 3." in s for s in said)
        assert not [s for s in said if re.search(r"\b(the|your|Put|Turn|tokens)\b", s)]
    else:
        assert any("The oracle turns the four of spades: the main line. Right: Ana. Points: Ana 5, Bo 2, Cy 3." in s
                   for s in said)
    # and the recording proves itself: the chain, the frames, the seal and the record
    assert verify_recording(load_recording(out)).problems == ()
    # and the guess typed at the end is judged after the reveal and kept
    assert [(g.guess, g.judged is not None and g.judged.comparison.same) for g in load_guesses(out)] == [
        ("card.colour != prev.colour", True)]


class ScriptReader:
    """Reads the play zone's cards from the script (vision has its own tests): the cards of
    the step being filmed, at their true places, for a box that holds the play zone."""

    def __init__(self) -> None:
        self.labels: tuple[str, ...] = ()

    def read_region(self, frame_bgr: np.ndarray, box_xyxy: tuple[int, int, int, int]) -> CardDetections:
        x0, y0, x1, y1 = box_xyxy
        cx, cy = TableHomography(KRUSKAL_VIEW.table_to_px).to_px([(132.5, 95.0)])[0]  # the play zone's middle
        if not self.labels or not (x0 <= cx <= x1 and y0 <= cy <= y1):
            return CardDetections.empty()
        quads = []
        for x, y in _positions(len(self.labels)):
            mm = np.array([[x - 31.5, y - 44, 1], [x + 31.5, y - 44, 1], [x + 31.5, y + 44, 1], [x - 31.5, y + 44, 1]])
            px = (KRUSKAL_VIEW.table_to_px @ mm.T).T
            quads.append(px[:, :2] / px[:, 2:])
        return CardDetections(quad_xy=np.array(quads, np.float32), label=[Card.parse(c) for c in self.labels],
                              confidence=np.full(len(self.labels), 0.99, np.float32))

    def read_frame(self, frame_bgr: np.ndarray, image_to_table: object = None) -> CardDetections:
        h, w = frame_bgr.shape[:2]
        return self.read_region(frame_bgr, (0, 0, w, h))


SHORT = KruskalScript(("Ana", "Bo", "Cy"), "alternate-colour", "7H", ("QC", "2S"),
                     ((True, False, True), (False, False, True)))
RIGHT = {"en": ("Right: Ana and Cy.", "Right: Ana and Bo."), "ru": ("Угадали: Ana и Cy.", "Угадали: Ana и Bo."),
         "pt": ("Acertaram: Ana e Cy.", "Acertaram: Ana e Bo.")}


@pytest.fixture(scope="module")
def short_film() -> list[tuple[tuple[str, ...], np.ndarray]]:
    """The short round filmed once on the rendered table (plain drawn cards): each frame
    with the cards lying in the play zone."""
    renderer = StepRenderer({}, 3, KRUSKAL_VIEW, layout=kruskal_layout())
    return [(step.cards, bgr) for step, bgr in filmed(renderer, kruskal_steps(SHORT), 2.0)]


@pytest.mark.parametrize("lang", ["en", "ru", "pt"])
def test_the_live_loop_deals_a_rendered_kruskal_round_and_records_it(
        lang: str, short_film: list[tuple[tuple[str, ...], np.ndarray]], tmp_path: Path) -> None:
    # given a short round filmed on the rendered table: the starter, then two cards with tokens
    reader = ScriptReader()

    class Source:
        name = "scripted kruskal table"

        def frames(self):
            for index, (cards, bgr) in enumerate(short_film):
                reader.labels = cards
                yield Frame(index, index / 2.0, bgr)

    # when the live loop deals it
    voice = FakeVoice()
    set_language(lang)
    try:
        code = run_kruskal_live(LiveOptions(players="Ana Bo Cy", rule="alternate-colour", out=tmp_path / "rec",
                                            settle_s=1.0), voice, reader, frame_source=Source())
    finally:
        set_language("en")
    # then every card is judged with every seat's token, as judge judges the script
    assert code == 0
    truth = judge_text(kruskal_record(SHORT), resolve_rule)
    dealt = judge_text((tmp_path / "rec" / "round.eleusis").read_text(encoding="utf-8"), resolve_rule)
    assert [line.action for line in dealt.record.actions] == [line.action for line in truth.record.actions]
    assert dealt.round.result().scores == truth.round.result().scores == {"Ana": 2, "Bo": 1, "Cy": 1}
    said = "\n".join(voice.said)
    assert all(words in said for words in RIGHT[lang])
    # and the recording proves itself, with the tokens seen kept beside each verdict's frame
    rec = load_recording(tmp_path / "rec")
    assert verify_recording(rec).problems == ()
    assert [s.tokens for s in rec.of_type(Seen)][-2:] == [["seat1_true", "seat2_false", "seat3_true"],
                                                         ["seat1_false", "seat2_false", "seat3_true"]]


def test_a_kruskal_game_deals_its_rounds_live_and_adds_up_kruskals_scores(
        short_film: list[tuple[tuple[str, ...], np.ndarray]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # given a game of two Kruskal rounds, each filmed as the short round (the strip's seats are
    # places, so the same film serves any three names)
    import dataclasses

    import dealer.app.kruskal_live as kruskal_live
    from dealer.record.games import GameFolder
    from engine.game import Game

    reader = ScriptReader()

    class Source:
        name = "scripted kruskal table"

        def frames(self):
            for index, (cards, bgr) in enumerate(short_film):
                reader.labels = cards
                yield Frame(index, index / 2.0, bgr)

    monkeypatch.setattr(kruskal_live, "_open_source", lambda options: Source())
    monkeypatch.setattr(kruskal_live, "default_reader", lambda: reader)
    videos = [tmp_path / "round-1.mp4", tmp_path / "round-2.mp4"]
    for video in videos:
        video.write_bytes(b"filmed")  # opened by the stand-in source above
    rule = tmp_path / "rule.txt"
    rule.write_text("alternate-colour\n", encoding="utf-8")
    out = tmp_path / "game"
    # when `eleusis game --variant kruskal` deals them live (the machine is God, the dealer plays seated last)
    assert main(["game", "--variant", "kruskal", "--players", "Ana Bo Cy", "--rounds", "2", "--video",
                 *map(str, videos), "--rule-file", str(rule), "--settle", "1", "--voice", "text", "--no-window",
                 "--out", str(out)]) == 0
    # then each round is the script's, judged as `eleusis judge` judges it, and the game adds
    # the rounds up Kruskal's way (KR8)
    expected = Game(("Ana", "Bo", "Cy"), machine_deals=True, rounds=2, variant="kruskal")
    for folder, seats in (("round-1", ("Bo", "Cy", "Ana")), ("round-2", ("Cy", "Ana", "Bo"))):
        truth = judge_text(kruskal_record(dataclasses.replace(SHORT, players=seats)), resolve_rule)
        dealt = judge_text((out / folder / "round.eleusis").read_text(encoding="utf-8"), resolve_rule)
        assert dealt.record.start.variant == "kruskal" and dealt.record.start.players == seats
        assert dealt.round.result().scores == truth.round.result().scores
        # the view of the table (the line, the points, the seal) is kept at every verdict
        assert len(load_recording(out / folder).of_type(View)) >= len(truth.turns)
        expected.add(truth.round.result())
    game = GameFolder.open(out).game
    assert game.variant == "kruskal" and game.complete
    assert game.final_totals() == expected.final_totals() == {"Ana": 2, "Bo": 3, "Cy": 3}
    assert "Totals after round 2 of 2: Bo 3, Cy 3, Ana 2." in capsys.readouterr().out


def test_a_kruskal_round_stopped_in_a_game_is_said_to_be_dealt_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # given a Kruskal game whose first round is stopped by Ctrl-C (exit 130)
    import dealer.app.commands.game as game_command

    monkeypatch.setattr(game_command, "_deal_live", lambda *args, **kwargs: 130)
    video = tmp_path / "round-1.mp4"
    video.write_bytes(b"filmed")
    assert main(["game", "--variant", "kruskal", "--players", "Ana Bo Cy", "--rounds", "1", "--video", str(video),
                 "--voice", "text", "--no-window", "--out", str(tmp_path / "game")]) == 130
    # then the players are told the round is dealt again from its start (a Kruskal round is
    # not resumed), not that it goes on where it stopped
    err = capsys.readouterr().err
    assert "the oracle deals it again from its start" in err and "where it stopped" not in err


def test_a_play_zone_too_far_for_the_reader_is_named_once_in_a_kruskal_round(tmp_path: Path) -> None:
    from bench.harness.make_demo import Step, render_steps
    from vision.synthetic import PinholeView

    # given the Kruskal mat filmed from 750 mm at 960x540: the play zone's far corner at about
    # 0.8 px/mm, coarser than the reader reads (calibration.check.reader_px_per_mm)
    far = PinholeView(tilt_deg=62.0, distance_mm=750.0, target_mm=(132.5, 95.0), size_wh=(960, 540))
    frames = list(render_steps((Step((), (), 3.0),), {}, view=far, layout=kruskal_layout()))

    class Source:
        name = "a far camera"

        def frames(self):
            for index, bgr in enumerate(frames):
                yield Frame(index, index / 4.0, bgr)

    # when the live loop deals from it
    voice = FakeVoice()
    code = run_kruskal_live(LiveOptions(players="Ana Bo Cy", rule="alternate-colour", out=tmp_path / "rec",
                                        settle_s=1.0), voice, ScriptReader(), frame_source=Source())
    # then the players hear once how much closer to bring the camera, and nothing of the line
    # zones, which the oracle lays out by hand in a Kruskal round
    told = [s for s in voice.said if "too small in the picture" in s]
    assert code == 0 and len(told) == 1, voice.said
    assert "play zone" in told[0] and "% of its distance" in told[0]
    assert not any("main line" in s for s in voice.said if "closer" in s), voice.said
