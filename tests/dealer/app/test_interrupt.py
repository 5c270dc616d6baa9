"""Ctrl-C never prints a traceback (issue 9): each command is interrupted while it works
(a real SIGINT to a real child) and ends with a message and exit status 130."""

from __future__ import annotations

import fcntl
import os
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from tests.dealer.cli_limits import ROOT, child_env, dealer_command

RECORD = str(ROOT / "examples" / "demo-round.eleusis")


def _unread(fd: int) -> int:
    return int(struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0])


def _interrupt_while_reading_stdin(args: list[str], tmp: Path) -> tuple[int, str]:
    """Start the command with a pipe on stdin, wait until it has read what was sent (so it
    runs and waits for more), then press Ctrl-C."""
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(dealer_command(*args), cwd=tmp, env=child_env(), stdin=read_end,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        os.write(write_end, b"players: Ana Bo Cy\n")
        deadline = time.monotonic() + 60
        while _unread(read_end) and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        os.close(read_end)
        os.close(write_end)
        if proc.poll() is None:
            proc.kill()
    return proc.returncode, err.decode("utf-8", "replace")


def test_ctrl_c_in_judge_reading_stdin(tmp_path: Path) -> None:
    code, err = _interrupt_while_reading_stdin(["judge", "-"], tmp_path)
    assert "Traceback" not in err
    assert code == 130 and "eleusis: stopped by Ctrl-C." in err


def test_ctrl_c_in_rules_check_reading_stdin(tmp_path: Path) -> None:
    code, err = _interrupt_while_reading_stdin(["rules", "check", "-"], tmp_path)
    assert "Traceback" not in err
    assert code == 130 and "eleusis: stopped by Ctrl-C." in err


def test_ctrl_c_in_play_record_between_turns(tmp_path: Path) -> None:
    # given a record dealt aloud with a pause between turns, when Ctrl-C comes after the first verdict
    proc = subprocess.Popen(dealer_command("play", "--record", RECORD, "--voice", "text", "--pace", "5"), cwd=tmp_path, env=child_env(), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdout is not None
        said = [proc.stdout.readline() for _ in range(3)]  # the opening, the starter, the first verdict
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    text = err.decode("utf-8", "replace")
    assert all(line.startswith(b"dealer: ") for line in said)
    assert "Traceback" not in text
    assert proc.returncode == 130 and "stopped by Ctrl-C" in text


def test_the_program_ignores_ctrl_c_once_its_command_is_done(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C while the interpreter exits must not turn a finished command's status into
    death by signal (-2): ``run`` ignores SIGINT after ``main`` has returned."""
    from dealer.app import cli

    monkeypatch.setattr(cli, "main", lambda: 3)
    before = signal.getsignal(signal.SIGINT)
    try:
        assert cli.run() == 3
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)


def test_a_ctrl_c_caught_inside_generated_code_still_exits_130(tmp_path: Path) -> None:
    """The resume test's rare -2: a Ctrl-C that lands while a module defines a dataclass
    (CPython runs its generated ``__init__`` source) and that ``main`` catches. CPython
    would kill the process by SIGINT at exit; ``run`` makes it exit 130, as asked."""
    child = ("import sys\n"
             "from dealer.app import cli\n"
             "def main():\n"
             "    try:\n"
             "        exec('raise KeyboardInterrupt')  # the signal, inside code compiled from a string\n"
             "    except KeyboardInterrupt:\n"
             "        return 130\n"
             "cli.main = main\n"
             "sys.exit(cli.run())\n")
    (tmp_path / "caught.py").write_text(child, encoding="utf-8")
    # run as a module, as `python -m dealer` is (CPython's -m path is the one that kills)
    proc = subprocess.run([sys.executable, "-m", "caught"], cwd=tmp_path,
                          env=child_env(PYTHONPATH=f"{tmp_path}{os.pathsep}{ROOT}"), capture_output=True, timeout=120)
    assert proc.returncode == 130, proc.stderr.decode()[-1500:]
