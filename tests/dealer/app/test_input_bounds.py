"""Nothing given on the command line makes the dealer run for ever or wait for ever (issue 32):
a number of rounds out of bounds and a rule file that is a FIFO with no writer are refused
at once, exit 2, naming the option and what is wrong."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.dealer.cli_limits import ROOT, child_env
from dealer.app.cli import main
from dealer.app.inputs import InputError, read_text_file


@pytest.mark.parametrize("rounds", ["1000000000000", "101", "2.5", "9" * 40])
def test_game_rounds_out_of_bounds_are_refused_before_anything_is_dealt(
        rounds: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["game", "--players", "Ana Bo Cy", "--rounds", rounds, "--voice", "text", "--out", str(tmp_path / "g")])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "argument --rounds: must be a whole number of rounds, at most 100, got '" in err
    assert not (tmp_path / "g").exists()


def test_game_rounds_below_1_are_still_refused_by_the_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for rounds in ("0", "-3"):
        assert main(["game", "--players", "Ana Bo Cy", "--rounds", rounds, "--voice", "text", "--record",
                     str(ROOT / "examples" / "demo-round.eleusis"), "--out", str(tmp_path / rounds)]) == 2
        assert f"a game of {rounds} rounds: it needs at least 1 (G5)" in capsys.readouterr().err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_rule_file_that_is_a_fifo_with_no_writer_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "rule.fifo"
    os.mkfifo(fifo)
    video = ROOT / "dealer" / "data" / "demo-table.mp4"  # a source that exists: only the rule file is wrong
    args = [sys.executable, "-m", "dealer", "play", "--video", str(video), "--players", "Ana Bo Cy",
            "--rule-file", str(fifo), "--voice", "text", "--out", str(tmp_path / "rec")]
    done = subprocess.run(args, cwd=tmp_path, env=child_env(), capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr[-2000:]
    assert f"--rule-file '{fifo}' is a FIFO (a named pipe), not a regular file" in done.stderr
    assert "Traceback" not in done.stderr


def test_read_text_file_refuses_a_device_and_still_reads_a_regular_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"the game record '/dev/null' is a device, not a regular file"):
        read_text_file("/dev/null", "the game record")
    (tmp_path / "rule.txt").write_text("card.red\n", encoding="utf-8")
    assert read_text_file(tmp_path / "rule.txt", "--rule-file") == "card.red\n"
