"""`eleusis play` on bad input: a clear message, exit 2, and nothing half-recorded."""

from pathlib import Path

import pytest

from dealer.app.cli import main
from dealer.app.demo import DEMO_VIDEO

VIDEO = str(DEMO_VIDEO)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--video", "/no/such/table.mp4", "--players", "Ana Bo Cy"], "no such file"),
        (["--video", VIDEO, "--players", "Ana Bo"], "2 players: a round needs 3 to 8 (C2)"),
        (["--video", VIDEO, "--players", "Ana Bo Ana"], "sits twice"),
        (["--video", VIDEO, "--players", "Ana Bo Cy", "--rule-file", "RULE:if prev.red card"], "line 1, column 13"),
        (["--video", VIDEO, "--players", "Ana Bo Cy", "--rule", "alternate-colour"], "lists the processes (ps)"),
        (["--video", VIDEO, "--players", "Ana Bo Cy", "--rule-file", "RULE:  \n"], "no rule given"),
        (["--video", VIDEO], "name the players"),
    ],
)
def test_bad_input_is_named_and_nothing_is_recorded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    out = tmp_path / "rec"
    for k, arg in enumerate(args):  # "RULE:text": a rule file holding text
        if arg.startswith("RULE:"):
            (tmp_path / "rule.txt").write_text(arg[5:], encoding="utf-8")
            args = [*args[:k], str(tmp_path / "rule.txt"), *args[k + 1:]]
    assert _play([*args, "--voice", "text", "--out", str(out)]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_a_record_is_dealt_aloud_in_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = Path(__file__).resolve().parents[3] / "examples" / "worked-example.eleusis"
    assert main(["play", "--record", str(record), "--voice", "text"]) == 0
    out = capsys.readouterr().out
    assert "dealer: Ana plays the queen of diamonds: rejected, a side branch. Ana draws 2." in out
    assert "dealer: The rule was alternate-colour" in out


def test_an_existing_recording_is_never_overwritten(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rec"
    out.mkdir()
    (out / "round.jsonl").write_text('{"eleusis_recording": 1}\n')
    assert main(["play", "--video", VIDEO, "--players", "Ana Bo Cy", "--voice", "text", "--out", str(out)]) == 2
    assert "already holds a recording" in capsys.readouterr().err
    assert (out / "round.jsonl").read_text() == '{"eleusis_recording": 1}\n'


def test_the_demo_keeps_its_voice_files_inside_its_recording(monkeypatch: pytest.MonkeyPatch) -> None:
    # given a clock that moves on between two looks at it (issue 32 item 9)
    import dealer.app.commands.play as play
    import dealer.app.live as live
    import dealer.speech.voice as voice_module
    from dealer.speech.voice import FakeVoice

    folders = iter([Path("recordings/first"), Path("recordings/second")])
    monkeypatch.setattr(play, "_default_out", lambda: next(folders))
    kept: list[Path | None] = []
    recorded: list[Path] = []

    def fake_open_voice(mode: str, keep_dir: Path | None = None) -> tuple[FakeVoice, str]:
        kept.append(keep_dir)
        return FakeVoice(), "voice: fake"

    def fake_run_live(options: live.LiveOptions, voice: object, *rest: object) -> int:
        recorded.append(Path(options.out))
        return 0

    monkeypatch.setattr(voice_module, "open_voice", fake_open_voice)
    monkeypatch.setattr(live, "run_live", fake_run_live)
    # when the demo plays with a voice and no --out
    assert main(["play", "--voice", "auto"]) == 0
    # then the voice files go into the one recording folder
    assert kept == [Path("recordings/first/voice")]
    assert recorded == [Path("recordings/first")]


def _play(args: list[str]) -> int:
    """`eleusis play ARGS`' exit status, an argparse refusal included (it exits by SystemExit)."""
    try:
        return main(["play", *args])
    except SystemExit as exc:
        return int(exc.code or 0)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--video", "nope.mp4", "--players", "Ana Bo Cy"], "no such file"),
        (["--video", "nope.mp4", "--players", "Ana Bo Cy", "--difficulty", "hard"], "no such file"),
        (["--video", "DIR", "--players", "Ana Bo Cy"], "is a directory, not a video file"),
        (["--players", "Ana"], "1 player: a round needs 3 to 8 (C2)"),
        (["--players", ""], "names no one"),
        (["--players", "Ana Bo " + "C" * 10_000], "name 3, 'CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC'... (10000 characters), "
                                                  "is longer than 24 characters"),
        (["--players", "Ana B|o Cy"], "holds '|'"),
        (["--video", VIDEO], "name the players"),
        (["--video", VIDEO, "--players", "Ana Bo Cy", "--profile", "DIR"], "--profile"),
    ],
)
def test_every_option_is_checked_before_anything_is_said_or_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "DIR").mkdir()
    assert _play([*args, "--voice", "text"]) == 2
    said = capsys.readouterr()
    assert message in said.err
    assert said.out == ""  # not even the rule's difficulty
    assert sorted(p.name for p in tmp_path.iterdir()) == ["DIR"]  # no recording folder left behind


def test_a_folder_holding_a_round_is_refused_before_the_difficulty_is_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rec"
    out.mkdir()
    (out / "rule.sealed").write_bytes(b"sealed")
    assert _play(["--video", VIDEO, "--players", "Ana Bo Cy", "--voice", "text", "--out", str(out)]) == 2
    said = capsys.readouterr()
    assert "already holds a recording" in said.err and said.out == ""
    assert sorted(p.name for p in out.iterdir()) == ["rule.sealed"]
