"""A kill at the reveal (R2, G6) never leaves a recording that cannot verify: at every write
step from the ``revealed`` line on, the dealer is stopped dead, and the folder it leaves
either verifies or is finished by ``eleusis reveal`` (or ``review``) into one that does."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import dealer.record.recording as recording
from dealer.app.cli import main
from dealer.record.recording import EVENTS_FILE, RECORD_FILE, RecordingWriter, RuleRevealed, load_recording
from dealer.record.verify import verify_recording
from tests.dealer.recorded_round import record_round


class Killed(BaseException):
    """The process stopped dead (kill -9): nothing after this point runs, nothing catches it."""


class Crasher:
    """Counts the write steps once the reveal begins, and kills at step ``at``; a log line
    may be killed half written (``half``), as a kill in the middle of the write leaves it."""

    def __init__(self, at: int, half: bool) -> None:
        self.at, self.half, self.steps, self.armed = at, half, 0, False
        self.where = ""

    def step(self, name: str, half_write: Callable[[], None] | None = None) -> None:
        if not self.armed:
            return
        if self.steps == self.at:
            self.where = name
            if self.half and half_write is not None:
                half_write()
            raise Killed(name)
        self.steps += 1


@contextmanager
def crashing(crasher: Crasher) -> Iterator[None]:
    write, write_line = RecordingWriter.write, RecordingWriter._write_line
    forget, replace, fsync = recording.forget_key, os.replace, os.fsync

    writers: list[RecordingWriter] = []

    def arming_write(self: RecordingWriter, event: Any) -> None:
        if isinstance(event, RuleRevealed):
            crasher.armed = True
            writers.append(self)
        write(self, event)

    def killable_line(self: RecordingWriter, line: str) -> None:
        def half() -> None:
            assert self._file is not None
            self._file.write(line[:len(line) // 2])
            self._file.flush()
        crasher.step(f"log line {line[:40]}", half)
        write_line(self, line)

    def killable(name: str, f: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            crasher.step(name)
            return f(*args, **kwargs)
        return call

    with pytest.MonkeyPatch.context() as patch:  # undone at the kill, as the process is gone
        patch.setattr(RecordingWriter, "write", arming_write)
        patch.setattr(RecordingWriter, "_write_line", killable_line)
        patch.setattr(recording, "forget_key", killable("forget the key", forget))
        patch.setattr(os, "replace", killable("rename", replace))
        patch.setattr(os, "fsync", killable("fsync", fsync))
        try:
            yield
        finally:
            for writer in writers:  # the process is gone: the system closes its files and lock
                writer.close()


def _revealed_lines(folder: Path) -> list[dict[str, Any]]:
    lines = (folder / EVENTS_FILE).read_text(encoding="utf-8").splitlines()
    out = []
    for line in lines:
        try:
            data = json.loads(line)
        except ValueError:
            continue  # a line cut by the kill
        if data.get("type") == "revealed":
            out.append(data)
    return out


def test_a_kill_at_every_write_step_of_the_reveal_leaves_a_recording_that_verifies_or_is_finished(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    killed_at: list[str] = []
    for at, half in ((at, half) for at in range(60) for half in (False, True)):
        crasher = Crasher(at, half)
        folder = tmp_path / f"kill-{at}-{int(half)}"
        with crashing(crasher):
            try:
                record_round(folder)
            except Killed:
                pass
        if not crasher.where:
            break  # the round ran to its end: every step has been killed once
        killed_at.append(crasher.where + (" (half)" if half else ""))
        # then: the folder verifies as it is, or `eleusis reveal` finishes it
        if not verify_recording(load_recording(folder)).ok or not _revealed_lines(folder):
            assert main(["reveal", str(folder)]) == 0, (crasher.where, half, capsys.readouterr())
        check = verify_recording(load_recording(folder))
        assert check.ok, (crasher.where, half, [str(p) for p in check.problems])
        assert len(_revealed_lines(folder)) == 1, crasher.where
        assert "rule: alternate-colour\n" in (folder / RECORD_FILE).read_text(encoding="utf-8")
        if (folder / (RECORD_FILE + ".tmp")).exists():  # killed rewriting a record already whole
            assert main(["review", str(folder), "--no-html"]) == 0
            assert not (folder / (RECORD_FILE + ".tmp")).exists()
    else:
        pytest.fail("the reveal takes more than 60 write steps")
    print(f"{len(killed_at)} kill points: {killed_at}")
    # the kills covered the revealed line (whole and half written), forgetting the key, and
    # each step of rewriting the game record
    assert any(w.startswith("log line") and "revealed" in w for w in killed_at), killed_at
    assert {"forget the key", "fsync", "rename"} <= {w.removesuffix(" (half)") for w in killed_at}, killed_at


def test_review_brings_a_record_left_sealed_by_a_kill_up_to_date(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # given a kill just after the revealed line (the record still says 'rule: sealed ...')
    crasher = Crasher(1, False)  # the revealed line is written whole; the next step is killed
    folder = tmp_path / "r"
    with crashing(crasher):
        with pytest.raises(Killed):
            record_round(folder)
    assert "rule: sealed" in (folder / RECORD_FILE).read_text(encoding="utf-8")
    # verify names it, and says how it is finished
    (problem,) = verify_recording(load_recording(folder)).problems
    assert "says 'rule: sealed" in problem.what and f"`eleusis reveal {folder}`" in problem.what
    # review finishes it from the log and verifies
    assert main(["review", str(folder), "--no-html"]) == 0
    assert "was behind the log" in capsys.readouterr().err
    assert "rule: alternate-colour\n" in (folder / RECORD_FILE).read_text(encoding="utf-8")


def test_a_record_changed_by_hand_is_never_rewritten(tmp_path: Path) -> None:
    # a record that says what the log never said is not 'behind': it is left for verify to name
    from dealer.record.verify import catch_up_record

    r = record_round(tmp_path / "r")
    path = r.folder / RECORD_FILE
    path.write_text(path.read_text(encoding="utf-8").replace("Bo: play QC", "Bo: play QD"), encoding="utf-8")
    assert not catch_up_record(load_recording(r.folder))
    assert "Bo: play QD" in path.read_text(encoding="utf-8")


def test_review_of_a_folder_that_cannot_be_written_checks_it_and_changes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a recording handed over on read-only media: the lock file cannot be made there
    import dealer.record.verify

    r = record_round(tmp_path / "r")

    def read_only(folder: Path) -> None:
        raise PermissionError(13, "Read-only file system", str(folder / "dealer.lock"))

    monkeypatch.setattr(dealer.record.verify, "folder_lock", read_only)
    assert main(["review", str(r.folder), "--no-html"]) == 0
