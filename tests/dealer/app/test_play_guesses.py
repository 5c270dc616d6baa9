"""The players' guesses at the end of `eleusis play` (GS1-GS3): given with --guess (or typed
at a terminal), judged after the reveal, said by the dealer and kept with the recording."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import dealer.app.live as live
from dealer.app.cli import main
from dealer.app.demo import DEMO_VIDEO
from dealer.app.end_guesses import ask_guesses, judge_guesses_at_end
from dealer.record.guess_log import GUESSES_FILE, load_guesses
from dealer.record.review import build_review
from dealer.speech.voice import FakeVoice
from tests.dealer.recorded_round import record_round

WORKED = Path(__file__).resolve().parents[3] / "examples" / "worked-example.eleusis"


def _live_round(monkeypatch: pytest.MonkeyPatch, finish: bool = True) -> None:
    """`run_live` stands in for a round dealt at the table: the recorded round of
    tests/dealer/recorded_round.py (alternate-colour), revealed when ``finish``."""

    def fake_run_live(options: live.LiveOptions, voice: object, *rest: object) -> int:
        if finish:
            record_round(Path(options.out))
        else:
            record_round(Path(options.out), finish=False, lays=("7H", "4C", "QC"))
        return 0

    monkeypatch.setattr(live, "run_live", fake_run_live)


def _play(tmp_path: Path, *more: str) -> int:
    (tmp_path / "rule.txt").write_text("alternate-colour\n", encoding="utf-8")
    return main(["play", "--video", str(DEMO_VIDEO), "--players", "Ana Bo Cy",
                 "--rule-file", str(tmp_path / "rule.txt"), "--voice", "text", "--out", str(tmp_path / "rec"), *more])


def test_guesses_given_to_play_are_judged_said_and_kept_for_the_review(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # given a round dealt at the table to its reveal
    _live_round(monkeypatch)
    # when two players give their guesses at the end of play
    assert _play(tmp_path, "--guess", "card.colour != prev.colour", "--guess", "card.rank < 7") == 0
    out = capsys.readouterr()
    # then the dealer says each guess and its judgement
    assert "dealer: Guess: card.colour != prev.colour" in out.out
    assert "dealer: It is the sealed rule: the same verdict after every line that could have been played." in out.out
    assert "dealer: Guess: card.rank < 7" in out.out and "the rule does not" in out.out
    # and they are kept with the recording, in order, for the review page
    folder = tmp_path / "rec"
    assert f"Kept with the recording: {folder / GUESSES_FILE}" in out.err
    assert [(g.guess, g.judged is not None and g.judged.comparison.same) for g in load_guesses(folder)] == [
        ("card.colour != prev.colour", True), ("card.rank < 7", False)]
    assert [g.guess for g in build_review(folder).guesses] == ["card.colour != prev.colour", "card.rank < 7"]


def test_a_guess_that_does_not_parse_is_said_so_and_the_others_are_still_judged(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _live_round(monkeypatch)
    assert _play(tmp_path, "--guess", "card.colour !=", "--guess", "card.colour != prev.colour") == 2
    out = capsys.readouterr().out
    assert "dealer: Your guess cannot be read: " in out
    assert "dealer: Your guess agrees with every verdict of this round." in out
    kept = [json.loads(line) for line in (tmp_path / "rec" / GUESSES_FILE).read_text().splitlines()[1:]]
    assert [("error" in k, k["guess"]) for k in kept] == [(True, "card.colour !="),
                                                           (False, "card.colour != prev.colour")]


def test_a_round_stopped_before_its_reveal_judges_no_guess_and_keeps_none(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _live_round(monkeypatch, finish=False)
    assert _play(tmp_path, "--guess", "card.colour != prev.colour") == 2
    captured = capsys.readouterr()
    assert "stopped before its rule was revealed" in captured.err and "(G6)" in captured.err
    assert "sealed rule" not in captured.out and "agrees" not in captured.out  # nothing given away
    assert not (tmp_path / "rec" / GUESSES_FILE).exists()


def test_a_record_dealt_aloud_judges_the_guesses_without_keeping_them(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--record", str(WORKED), "--voice", "text", "--guess", "card.colour != prev.colour"]) == 0
    out = capsys.readouterr().out
    # the guesses come after the reveal
    assert out.index("dealer: The rule was alternate-colour") < out.index("dealer: Guess: card.colour != prev.colour")
    assert "dealer: It is the sealed rule" in out


def test_guesses_typed_at_the_prompt_end_at_an_empty_line(capsys: pytest.CaptureFixture[str]) -> None:
    typed = iter(["  card.red  ", "no-three-of-a-colour", "", "never read"])
    assert ask_guesses(lambda: next(typed)) == ["card.red", "no-three-of-a-colour"]
    assert "an empty line ends" in capsys.readouterr().err

    def closed() -> str:
        raise EOFError

    assert ask_guesses(closed) == []


def test_no_guess_means_nothing_is_judged_or_said(tmp_path: Path) -> None:
    voice = FakeVoice()
    assert judge_guesses_at_end([], voice, folder=tmp_path / "none") == 0
    assert voice.said == []
