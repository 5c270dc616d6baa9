"""`eleusis judge FILE [--json]` (issue 2): sentences, JSON, and exit status 2 with 'line N:'."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from dealer.app.cli import main

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples"
KEYS = {"ended", "table", "stock", "line", "hands", "prophet", "expelled", "scores", "dealer", "turns"}
TURN_KEYS = {"line", "player", "verdict", "penalty", "expelled", "overthrown", "card"}


def judge(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["judge", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.eleusis")), ids=lambda p: p.name)
def test_json_has_the_issues_keys(capsys: pytest.CaptureFixture[str], path: Path) -> None:
    # given a shipped record, when judged with --json, then one object with at least the issue's keys
    code, out, err = judge(capsys, str(path), "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert KEYS <= set(data)
    assert data["ended"] in (None, "emptied", "expelled", "stock")
    assert data["turns"] and all(TURN_KEYS <= set(t) for t in data["turns"])
    assert {t["verdict"] for t in data["turns"]} <= {"accepted", "rejected", "noplay-right", "noplay-wrong", "prophet"}
    assert set(data["hands"]) == set(data["scores"])
    assert data["table"] >= len(data["line"])


def test_worked_example_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = judge(capsys, str(EXAMPLES / "worked-example.eleusis"))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "line 7: Ana plays QD: rejected, a side branch. Ana draws 2."
    assert lines[1] == "line 8: Bo plays 4C 9H: accepted."
    assert "Scores: Ana 0, Bo 3, Cy 1." in lines[2]
    assert "alternate" not in out  # sealed for the round (R2): revealed only when asked (G6)


def test_reveal_comes_after_the_result(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = judge(capsys, str(EXAMPLES / "worked-example.eleusis"), "--reveal")
    assert code == 0 and out.splitlines()[-1].startswith("The rule was alternate-colour: After a red card")


@pytest.mark.parametrize(("record", "line", "fragment"), [
    ("players: Ana Bo Cy\nrule: alternate-colour\nstart: KH\nBo: play 4C\n", 4, "turn"),
    ("players: Ana Bo Cy\nrule: alternate-colour\nstart: KH\nAna: play KH KH KH\n", 4, "C1"),
    ("players: Ana Bo Cy\nrule: alternate-colour\nstart: KH\nAna: noplay 2H\n", 4, "holds 14"),
    ("players: Ana Bo Cy\nrule: alternate-colour\nstart: KH\nAna: prophet\n", 4, "F1"),
    ("players: Ana Bo Cy\nrule: alternate-colour\nstart: KH\nhand: 1\nAna: play 4C\nBo: play 5H\n", 6, "ended"),
    ("players: Ana Bo Cy\nrule: alternate-colour\nstart: KH\nAna: play 1X\n", 4, "'1X' is not a card"),
])
def test_a_broken_record_exits_2_with_its_line(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                               record: str, line: int, fragment: str) -> None:
    # given a record that breaks the rules, when judged, then status 2 and 'line N: ...' on stderr, no traceback
    path = tmp_path / "bad.eleusis"
    path.write_text(record, encoding="utf-8")
    code, out, err = judge(capsys, str(path), "--json")
    assert code == 2 and out == ""
    assert err.startswith(f"line {line}: ") and fragment in err
    assert "Traceback" not in err


def test_missing_file_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = judge(capsys, str(tmp_path / "nowhere.eleusis"))
    assert code == 2 and "cannot read" in err


def test_binary_file_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bin.eleusis"
    path.write_bytes(b"\xff\xfe\x00players")
    code, _, err = judge(capsys, str(path))
    assert code == 2 and "UTF-8" in err


def test_reads_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    text = (EXAMPLES / "stock-out.eleusis").read_text(encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code, out, _ = judge(capsys, "-", "--json")
    assert code == 0 and json.loads(out)["ended"] == "stock"


def test_say_speaks_the_same_sentences(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # given --say and a voice that only keeps sentences, then it hears every verdict and the result
    import dealer.speech.voice as voice_module

    heard: list[str] = []

    class Keep:
        def say(self, text: str) -> None:
            heard.append(text)

        def close(self) -> None:
            pass

    monkeypatch.setattr(voice_module, "open_voice", lambda *a, **k: (Keep(), "voice: test"))
    code, _out, _ = judge(capsys, str(EXAMPLES / "worked-example.eleusis"), "--say")
    assert code == 0
    assert heard[:2] == ["Ana plays QD: rejected, a side branch. Ana draws 2.", "Bo plays 4C 9H: accepted."]
    assert heard[-1].startswith("The round is not over")


def test_console_script_exit_status() -> None:
    # given the installed command, when a broken record comes on stdin, then exit 2 and a one-line message
    bad = "players: Ana Bo Cy\nrule: alternate-colour\nstart: KH\nCy: play 4C\n"
    done = subprocess.run([sys.executable, "-m", "dealer", "judge", "-"], check=False, input=bad, capture_output=True,
                          text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip() == "line 4: it is Ana's turn, not Cy's (C5)"


def test_layout_shows_branches_under_their_anchor(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = judge(capsys, str(EXAMPLES / "worked-example.eleusis"), "--layout")
    assert code == 0
    assert out.splitlines()[-2:] == ["main: 7H 4C 9H", "  after 7H: [QD] (Ana)"]  # P4, P5
