"""Secrecy until the reveal (R2, G6): nothing written before the reveal (the recording
folder, the terminal, the voice, the process arguments) holds the rule's text or id."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dealer.app.demo import DEMO_HAND, DEMO_PLAYERS, shipped_video
from dealer.record.recording import EVENTS_FILE
from engine.rules import LIBRARY
from tests.dealer.recorded_round import record_round

ROOT = Path(__file__).resolve().parents[3]


def giveaways(rule: str) -> list[bytes]:
    """What would give the rule away: its id, description and text (a library rule), or its text."""
    entry = LIBRARY.get(rule)
    texts = [entry.id, entry.description, entry.text] if entry else [rule]
    return [t.encode("utf-8") for t in texts]


def snapshot(folder: Path) -> dict[str, bytes]:
    out = {}
    for path in folder.rglob("*"):
        try:
            if path.is_file():
                out[str(path.relative_to(folder))] = path.read_bytes()
        except OSError:  # written or replaced while we look
            pass
    return out


class FolderWatch:
    """Snapshots of a folder looked at many times a second while a process writes it: a file
    whose inode, size and change time are those of the last look is not read again (its bytes,
    the same object, are checked for the rule once)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._known: dict[str, tuple[tuple[int, int, int, int], bytes]] = {}

    def snapshot(self) -> dict[str, bytes]:
        out = {}
        for path in self.folder.rglob("*") if self.folder.exists() else ():
            try:
                st = path.stat()
                if not path.is_file():
                    continue
                name, key = str(path.relative_to(self.folder)), (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
                known = self._known.get(name)
                if known is None or known[0] != key:
                    known = self._known[name] = (key, path.read_bytes())
                out[name] = known[1]
            except OSError:  # written or replaced while we look
                pass
        return out


def revealed(files: dict[str, bytes]) -> bool:
    return b'"type":"revealed"' in files.get(EVENTS_FILE, b"")


@pytest.mark.parametrize("rule", ["alternate-colour", "card.colour != prev.colour"])
def test_nothing_before_the_reveal_shows_the_rule(tmp_path: Path, rule: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    # given a round dealt view by view, when everything on disk, on the terminal and said is
    # looked at after every view up to the reveal, then no trace of the rule is there
    seen: list[tuple[dict[str, bytes], str]] = []

    def look(session: object) -> None:
        files = snapshot(tmp_path / "r")
        if not revealed(files):
            captured = capsys.readouterr()
            seen.append((files, captured.out + captured.err))

    r = record_round(tmp_path / "r", rule=rule, after_each_view=look)
    assert len(seen) > 30 and revealed(snapshot(r.folder))  # the round was watched all through
    said_before = "\n".join(r.voice.said[:next(i for i, s in enumerate(r.voice.said) if s.startswith("The rule was"))])
    secrets_ = giveaways(rule)
    for files, terminal in seen:
        for name, data in files.items():
            for secret in secrets_:
                assert secret not in data, f"{name} shows {secret!r} before the reveal"
        assert not any(s.decode() in terminal for s in secrets_)
    assert not any(s.decode() in said_before for s in secrets_)
    # the game record said "sealed" until the reveal, and the rule once revealed
    assert any(b"rule: sealed " + r.seal.encode() in files.get("round.eleusis", b"") for files, _ in seen)
    assert f"rule: {rule}\n" in (r.folder / "round.eleusis").read_text()


@pytest.mark.skipif(shipped_video() is None, reason="no shipped demo video")
@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="needs /proc to read the process arguments")
def test_a_whole_play_run_keeps_the_drawn_rule_secret(tmp_path: Path) -> None:
    # given `eleusis play` with no rule (the machine draws one), watched from outside while it
    # runs: its process arguments, the recording folder and everything it prints
    out = tmp_path / "rec"
    args = [sys.executable, "-m", "dealer", "play", "--video", str(shipped_video()), "--players", DEMO_PLAYERS,
            "--hand", str(DEMO_HAND), "--settle", "0.5", "--voice", "text", "--out", str(out)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmdlines: list[bytes] = []
    before: list[dict[str, bytes]] = []
    watch = FolderWatch(out)
    with (tmp_path / "stdout").open("wb") as so, (tmp_path / "stderr").open("wb") as se:
        proc = subprocess.Popen(args, stdout=so, stderr=se, cwd=tmp_path, env=env)
        try:
            while proc.poll() is None:
                try:
                    cmdlines.append(Path(f"/proc/{proc.pid}/cmdline").read_bytes())
                except OSError:
                    pass
                files = watch.snapshot()
                if not revealed(files):
                    before.append(files)
                time.sleep(0.05)
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait(timeout=60)
    assert proc.returncode == 0, (tmp_path / "stderr").read_text()[-2000:]
    log = [json.loads(line) for line in (out / EVENTS_FILE).read_text().splitlines()]
    (reveal,) = [e for e in log if e.get("type") == "revealed"]
    secrets_ = giveaways(reveal["rule"])
    # then the process list never showed it
    assert cmdlines and all(s not in c for c in cmdlines for s in secrets_)
    # and no file of the folder held it before the reveal (watched many times over the round)
    assert sum(1 for files in before if EVENTS_FILE in files) > 5
    looked_at: set[int] = set()  # a file unchanged between looks is the same bytes object
    for files in before:
        for name, data in files.items():
            if id(data) not in looked_at:
                looked_at.add(id(data))
                assert all(s not in data for s in secrets_), f"{name} held the rule before the reveal"
    # and the terminal showed nothing of it before the reveal, then the full seal and log hash
    stdout = (tmp_path / "stdout").read_bytes()
    assert all(s not in stdout.split(b"The rule was")[0] for s in secrets_)
    stderr = (tmp_path / "stderr").read_bytes()
    assert all(s not in stderr for s in secrets_)
    sealed = next(e for e in log if e.get("type") == "sealed")
    assert f"sha256:{sealed['commitment']}".encode() in stderr
    assert b"The hash of this round's log" in stderr and b"\xe2\x96\x88" in stderr  # the QR's blocks
    # and the envelope was never world-readable; its key was forgotten at the reveal
    assert (out / "rule.sealed").stat().st_mode & 0o077 == 0
    assert (out / "seal.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def _sealed_and_dealt(folder: Path, rule: str) -> tuple[str, dict[str, tuple[int, int]]]:
    """A round sealed and dealt as the live loop does (envelope, seal QR, the deal said and
    logged), with a fresh random nonce; its commitment and each file's (size, mode)."""
    import secrets

    from dealer.app.live import show_seal
    from dealer.app.outlets import Outlets
    from dealer.record.recording import RecordingWriter
    from dealer.table.session import DealerSession, SessionConfig
    from dealer.speech.voice import FakeVoice

    nonce = secrets.token_hex(16)
    recorder = RecordingWriter(folder, {"players": ["Ana", "Bo", "Cy"], "hand": 3, "decks": 3}, fsync=False)
    session = DealerSession(SessionConfig(players=("Ana", "Bo", "Cy"), rule=rule, hand_size=3, settle_s=1.0,
                                          spoken_cards=False), nonce=nonce)
    recorder.write_envelope(rule, nonce)
    show_seal(session.seal.commitment, folder)
    Outlets(FakeVoice(), recorder).deliver(session.begin())
    recorder.close()
    files = {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mode & 0o777)
             for p in sorted(folder.rglob("*")) if p.is_file()}
    return session.seal.commitment, files


def test_the_library_rules_cannot_be_told_apart_by_the_files_on_disk(tmp_path: Path) -> None:
    # given every library rule, sealed by its id and by its text (R2), when the files written
    # before the first verdict are looked at, then every one has the same name, size and mode
    # for every rule; the seal's QR is the one file that differs, and it is drawn from the seal
    # alone (the commitment every player is shown), so it tells nothing more
    from dealer.record.seal_show import save_qr

    seen: dict[str, dict[str, tuple[int, int]]] = {}
    for k, rule in enumerate([entry.id for entry in LIBRARY.values()] + [e.text for e in LIBRARY.values()]):
        folder = tmp_path / f"r{k}"
        commitment, files = _sealed_and_dealt(folder, rule)
        qr = folder / "seal.png"
        assert qr.read_bytes() == save_qr(f"sha256:{commitment}", tmp_path / "again.png").read_bytes()  # type: ignore[union-attr]
        del files["seal.png"]
        seen[rule] = files
    first = next(iter(seen.values()))
    assert "rule.sealed" in first and "round.jsonl" in first
    differing = {rule: files for rule, files in seen.items() if files != first}
    assert not differing, f"these rules give other sizes than {first}: {differing}"


def test_two_rules_that_judge_alike_leave_files_of_the_same_sizes_all_round(tmp_path: Path) -> None:
    # given one round dealt twice, under a library id and under a longer text that judges the
    # same (so every verdict, said and logged, is the same), when the folder is looked at after
    # every view up to the reveal, then each file has the same size both times: only what was
    # played can be read off the disk, never the rule (the seal's QR aside: it is drawn from
    # the public seal, see above)
    def sizes_up_to_the_reveal(rule: str, folder: Path) -> list[dict[str, int]]:
        seen: list[dict[str, int]] = []

        def look(session: object) -> None:
            files = snapshot(folder)
            if not revealed(files):
                seen.append({name: len(data) for name, data in files.items() if name != "seal.png"})

        record_round(folder, rule=rule, after_each_view=look)
        return seen

    by_id = sizes_up_to_the_reveal("alternate-colour", tmp_path / "a")
    by_text = sizes_up_to_the_reveal("card.colour != prev.colour and true", tmp_path / "b")
    assert len(by_id) > 30 and len(by_id) == len(by_text)
    for k, (a, b) in enumerate(zip(by_id, by_text, strict=True)):
        assert a == b, f"view {k}: {a} != {b}"
