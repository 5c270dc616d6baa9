"""One writer per recording: a second `play --resume` (or `reveal`) on a folder another
process is recording is refused with exit 2, naming that process's pid, and writes nothing;
the lock goes with the process, a kill -9 included. Real processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.dealer.cli_limits import ROOT, child_env
from dealer.record.recording import EVENTS_FILE, LOCK_FILE, RecordingBusy, RecordingWriter

VIDEO = ROOT / "dealer" / "data" / "demo-table.mp4"
NONCE = "lock-test-nonce-0123456789abcdef"
HOLD = ("import sys, time\n"
        "from dealer.record.recording import RecordingWriter\n"
        "writer = RecordingWriter.resume(sys.argv[1])\n"
        "print('holding', flush=True)\n"
        "time.sleep(600)\n")


def _sealed_recording(folder: Path) -> None:
    """A round sealed and not yet dealt, recorded from the shipped video (as `play` leaves it)."""
    header = {"players": ["Ana", "Bo", "Cy"], "hand": 5, "decks": 3, "source": str(VIDEO), "lang": "en"}
    with RecordingWriter(folder, header, fsync=False) as writer:
        writer.seal(0.0, "alternate-colour", NONCE)


@pytest.fixture
def holder(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], Path, dict[str, str]]]:
    """Another process holding the recording open for writing, as a running dealer does."""
    folder = tmp_path / "round"
    _sealed_recording(folder)
    env = child_env(ELEUSIS_KEY_DIR=os.environ["ELEUSIS_KEY_DIR"])
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(folder)], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "holding\n", proc.stderr
        yield proc, folder, env
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)


@pytest.mark.skipif(not VIDEO.exists(), reason="the shipped table video is not built")
def test_a_second_play_resume_is_refused_naming_the_first_pid(
        holder: tuple[subprocess.Popen[str], Path, dict[str, str]]) -> None:
    proc, folder, env = holder
    log_before = (folder / EVENTS_FILE).read_bytes()
    second = subprocess.run([sys.executable, "-m", "dealer", "play", "--resume", str(folder), "--voice", "text"],
                            cwd=folder.parent, env=env, capture_output=True, text=True, timeout=300)
    assert second.returncode == 2, second.stderr[-2000:]
    assert f"is being recorded by another dealer process (pid {proc.pid})" in second.stderr
    assert "Traceback" not in second.stderr
    assert (folder / EVENTS_FILE).read_bytes() == log_before  # the second wrote nothing


def test_reveal_is_refused_while_another_process_records_and_works_once_it_is_killed(
        holder: tuple[subprocess.Popen[str], Path, dict[str, str]]) -> None:
    proc, folder, env = holder
    reveal = [sys.executable, "-m", "dealer", "reveal", str(folder)]
    busy = subprocess.run(reveal, cwd=folder.parent, env=env, capture_output=True, text=True, timeout=120)
    assert busy.returncode == 2 and f"(pid {proc.pid})" in busy.stderr, busy.stderr[-2000:]
    assert b'"revealed"' not in (folder / EVENTS_FILE).read_bytes()
    # a kill -9 leaves the lock file, but not the lock: the next writer goes on
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert (folder / LOCK_FILE).exists()
    done = subprocess.run(reveal, cwd=folder.parent, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert (folder / EVENTS_FILE).read_bytes().count(b'"type":"revealed"') == 1


def test_the_lock_is_released_when_the_writer_closes(tmp_path: Path) -> None:
    folder = tmp_path / "round"
    _sealed_recording(folder)
    first = RecordingWriter.resume(folder)
    with pytest.raises(RecordingBusy) as caught:
        RecordingWriter.resume(folder)
    assert caught.value.pid == str(os.getpid()) and str(folder) in str(caught.value)
    first.close()
    RecordingWriter.resume(folder).close()
