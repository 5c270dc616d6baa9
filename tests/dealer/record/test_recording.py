"""Recordings: versioned header, one flushed event per line, clear LoadErrors."""

import json
from pathlib import Path

import pytest

from dealer.record.recording import (
    FORMAT_VERSION,
    FrameLine,
    LoadError,
    RecordingWriter,
    RuleRevealed,
    Said,
    Sealed,
    Seen,
    VerdictLine,
    line_hash,
    load_recording,
)


def _write_sample(folder: Path) -> None:
    with RecordingWriter(folder, {"players": ["Ana", "Bo", "Cy"]}, fsync=False) as rec:
        rec.write(Sealed(t=0.0, commitment="ab" * 32))
        rec.save_frame(1.5, 7, b"\xff\xd8fakejpeg")
        rec.write(Seen(t=1.5, frame=7, zone="play", cards=[{"card": "4C", "confidence": 0.97}]))
        rec.write(VerdictLine(t=1.6, turn=1, player="Ana", action="play 4C", verdict="accepted", frame=7))
        rec.write(Said(t=1.7, text="Ana plays the four of clubs: accepted."))
        rec.write(RuleRevealed(t=9.0, rule="alternate-colour", nonce="n0" * 8))


def test_round_trip_keeps_every_event_in_order(tmp_path: Path) -> None:
    _write_sample(tmp_path)
    rec = load_recording(tmp_path)
    assert rec.header["players"] == ["Ana", "Bo", "Cy"]
    assert [type(e).__name__ for e in rec.events] == ["Sealed", "FrameLine", "Seen", "VerdictLine", "Said", "RuleRevealed"]
    (verdict,) = rec.of_type(VerdictLine)
    assert verdict.player == "Ana" and verdict.frame == 7
    assert rec.frame_path(7) == tmp_path / "frames/000007.jpg" and rec.frame_path(7).read_bytes().endswith(b"fakejpeg")
    assert not rec.truncated


def test_a_log_written_before_the_line_classes_were_renamed_still_loads(tmp_path: Path) -> None:
    # given v2 lines as the dealer has always written them (the JSON "type" values are the
    # format; the Python class names are not), when loaded, then each is the right line
    lines = ['{"eleusis_recording":2,"created":"2026-11-30T00:00:00Z","players":["Ana","Bo","Cy"]}']
    for body in ('"type":"frame","t":1.5,"index":7,"path":"frames/000007.jpg","sha256":""',
                 '"type":"verdict","t":1.6,"turn":1,"player":"Ana","action":"Ana: play 4C","verdict":"accepted",'
                 '"penalty":0,"expelled":false,"overthrown":false,"card":null,"frame":7'):
        lines.append("{" + body + f',"prev":"{line_hash(lines[-1])}"' + "}")
    (tmp_path / "round.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    frame, verdict = load_recording(tmp_path).events
    assert isinstance(frame, FrameLine) and frame.index == 7
    assert isinstance(verdict, VerdictLine) and (verdict.player, verdict.verdict, verdict.frame) == ("Ana", "accepted", 7)


def test_each_line_is_on_disk_before_close(tmp_path: Path) -> None:
    # given a writer that has not been closed (a crash), then the lines are already readable
    rec = RecordingWriter(tmp_path, {}, fsync=False)
    rec.write(Said(t=0.1, text="hello"))
    assert len(load_recording(tmp_path).events) == 1
    rec.close()


def test_a_line_cut_by_a_crash_loses_only_that_line(tmp_path: Path) -> None:
    _write_sample(tmp_path)
    path = tmp_path / "round.jsonl"
    path.write_text(path.read_text() + '{"type":"said","t":9.5,"te', encoding="utf-8")
    rec = load_recording(tmp_path)
    assert rec.truncated and len(rec.events) == 6


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ({"eleusis_recording": 0}, "version 0 recording; this dealer reads version 2"),
        ({"eleusis_recording": 1}, "version 1 recording; this dealer reads version 2 .made before recordings were hash-chained"),
        ({"eleusis_recording": FORMAT_VERSION + 1}, "upgrade"),
        ({"version": 2}, "not an eleusis recording"),
    ],
)
def test_wrong_versions_are_named(tmp_path: Path, header: dict, message: str) -> None:
    (tmp_path / "round.jsonl").write_text(json.dumps(header) + "\n")
    with pytest.raises(LoadError, match=message) as info:
        load_recording(tmp_path)
    assert "line 1" in str(info.value) and "round.jsonl" in str(info.value)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"type": "dance", "t": 1, "prev": ""}', "line 2: unknown event type 'dance'"),
        ('{"type": "said", "t": 1, "prev": ""}', "line 2: said event is incomplete"),
        ('{"type": "said", "t": 1, "text": "x", "mood": 3, "prev": ""}', "unknown field"),
        ('{"type": "said", "t": 1, "text": "x"}', "line 2: said event has no 'prev'"),
        ('{"type": "said", "t": "soon", "text": "x", "prev": ""}', "line 2: said event field 't' must be a number"),
        ('{"type": "verdict", "t": 1, "turn": 1.5, "player": "A", "action": "A: prophet", "verdict": "prophet", '
         '"prev": ""}', "field 'turn' must be a whole number"),
        ('{"type": "seen", "t": 1, "frame": 1, "zone": "play", "cards": [3], "prev": ""}',
         "field 'cards' must be a list of objects"),
        ('{"type": "said", "t": 1, "text": null, "prev": ""}', "field 'text' must be a string"),
        ('{"type": "said", "t": true, "text": "x", "prev": ""}', "field 't' must be a number"),
        ('{"type": "said", "t": 1, "text": "x", "prev": ""} 7', "line 2: not JSON"),
        ('{"type": "said", "t": 1' + "9" * 5000 + ', "text": "x", "prev": ""}', "line 2: not JSON"),
        ("[1, 2]", "line 2: an event must be a JSON object"),
        ("{nope}\n", "line 2: not JSON"),
    ],
)
def test_bad_event_lines_name_the_line(tmp_path: Path, line: str, message: str) -> None:
    (tmp_path / "round.jsonl").write_text('{"eleusis_recording": 2}\n' + line + "\n" + '{"type":"said","t":2,"text":"x","prev":""}\n')
    with pytest.raises(LoadError, match=message):
        load_recording(tmp_path)


def test_missing_recording_and_existing_one_are_refused(tmp_path: Path) -> None:
    with pytest.raises(LoadError, match="no recording there"):
        load_recording(tmp_path / "nowhere")
    _write_sample(tmp_path)
    with pytest.raises(FileExistsError):
        RecordingWriter(tmp_path, {})


def test_frame_event_points_inside_the_folder(tmp_path: Path) -> None:
    _write_sample(tmp_path)
    (frame,) = load_recording(tmp_path).of_type(FrameLine)
    assert frame.path == "frames/000007.jpg"


def test_each_line_carries_the_hash_of_the_one_before(tmp_path: Path) -> None:
    import hashlib

    _write_sample(tmp_path)
    raw = (tmp_path / "round.jsonl").read_text(encoding="utf-8").splitlines()
    for before, line in zip(raw, raw[1:]):
        assert json.loads(line)["prev"] == hashlib.sha256(before.encode()).hexdigest()
    rec = load_recording(tmp_path)
    assert [line.prev for line in rec.lines][1:] == [line.hash for line in rec.lines][:-1]
    (frame,) = rec.of_type(FrameLine)
    assert frame.sha256 == hashlib.sha256(b"\xff\xd8fakejpeg").hexdigest()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("ëleusis".encode("utf-16"), "not UTF-8 text at byte 0 .it looks like UTF-16"),
        (b"\x89PNG\r\n\x1a\n\x00\x00garbage", "not UTF-8 text"),
        (b"hello world\n", "line 1: not JSON"),
        (b"", "empty file"),
        (b"[1,2,3]\n", "not an eleusis recording"),
        (b'{"eleusis_recording": 2, "players": "Ana Bo"}\n', "'players' must be a list"),
        (b"[" * 100000 + b"\n", "line 1: not JSON"),
    ],
)
def test_garbage_is_a_load_error_naming_the_file(tmp_path: Path, content: bytes, message: str) -> None:
    (tmp_path / "round.jsonl").write_bytes(content)
    with pytest.raises(LoadError, match=message) as info:
        load_recording(tmp_path)
    assert "round.jsonl" in str(info.value)


def test_a_folder_where_the_log_should_be_is_named(tmp_path: Path) -> None:
    (tmp_path / "round.jsonl").mkdir()
    with pytest.raises(LoadError, match="round.jsonl: is a folder"):
        load_recording(tmp_path)


def test_resume_drops_a_cut_line_and_keeps_the_chain(tmp_path: Path) -> None:
    _write_sample(tmp_path)
    path = tmp_path / "round.jsonl"
    path.write_text(path.read_text() + '{"type":"said","t":9.5,"te', encoding="utf-8")
    with RecordingWriter.resume(tmp_path, fsync=False) as rec:
        rec.write(Said(t=10.0, text="resumed"))
    loaded = load_recording(tmp_path)
    assert not loaded.truncated and loaded.events[-1] == Said(t=10.0, text="resumed")
    assert all(line.prev == before.hash for before, line in zip(loaded.lines, loaded.lines[1:]))


def test_the_sealed_envelope_is_neither_plain_text_nor_world_readable(tmp_path: Path) -> None:
    from dealer.record.recording import ENVELOPE_FILE, open_envelope
    from engine.seal import verify

    rule = "if prev.red then card.black else card.red"
    nonce = "9" * 32
    with RecordingWriter(tmp_path / "rec", {"players": ["Ana", "Bo", "Cy"]}, fsync=False) as rec:
        sealed = rec.seal(0.0, rule, nonce)
    envelope = tmp_path / "rec" / ENVELOPE_FILE
    assert envelope.stat().st_mode & 0o077 == 0
    for path in (tmp_path / "rec").rglob("*"):
        if path.is_file():
            assert b"prev.red" not in path.read_bytes() and nonce.encode() not in path.read_bytes()
    # an interrupted round can still be revealed and verified on the machine that dealt it
    assert open_envelope(tmp_path / "rec") == (rule, nonce)
    assert verify(sealed.commitment, rule, nonce)


def test_an_envelope_without_its_key_or_altered_does_not_open(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dealer.record.envelope import EnvelopeError
    from dealer.record.recording import ENVELOPE_FILE, open_envelope

    with RecordingWriter(tmp_path / "rec", {}, fsync=False) as rec:
        rec.seal(0.0, "alternate-colour", "7" * 32)
    envelope = tmp_path / "rec" / ENVELOPE_FILE
    data = bytearray(envelope.read_bytes())
    data[-1] ^= 1
    envelope.write_bytes(bytes(data))
    with pytest.raises(EnvelopeError, match="altered"):
        open_envelope(tmp_path / "rec")
    monkeypatch.setenv("ELEUSIS_KEY_DIR", str(tmp_path / "elsewhere"))
    with pytest.raises(EnvelopeError, match="key of this round is not on this machine"):
        open_envelope(tmp_path / "rec")


def test_the_reveal_forgets_the_key(tmp_path: Path) -> None:
    from dealer.record.envelope import key_dir

    with RecordingWriter(tmp_path / "rec", {}, fsync=False) as rec:
        sealed = rec.seal(0.0, "alternate-colour", "7" * 32)
        assert (key_dir() / f"{sealed.commitment}.key").exists()
        rec.reveal(1.0, "alternate-colour", "7" * 32)
    assert not (key_dir() / f"{sealed.commitment}.key").exists()


def _version_1_envelope(folder: Path, rule: str, nonce: str, version: bytes = b"1") -> None:
    """An envelope as dealers before the padding wrote it (no padding): the same cipher and tag."""
    import hashlib
    import hmac
    import json

    from dealer.record.envelope import ENVELOPE_FILE, key_dir
    from engine.seal import seal

    commitment = seal(rule, nonce).commitment
    key, iv = bytes(range(32)), bytes(16)
    key_dir().mkdir(parents=True, exist_ok=True)
    (key_dir() / f"{commitment}.key").write_text(key.hex() + "\n", encoding="ascii")
    plain = json.dumps({"rule": rule, "nonce": nonce}).encode()
    stream = b"".join(hmac.new(key, b"stream" + iv + c.to_bytes(8, "big"), hashlib.sha256).digest()
                      for c in range(len(plain) // 32 + 1))
    cipher = bytes(a ^ b for a, b in zip(plain, stream, strict=False))
    head = b"ELEUSIS-ENVELOPE/" + version + b"\n" + commitment.encode() + b"\n"
    tag = hmac.new(key, b"tag" + head + iv + cipher, hashlib.sha256).digest()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / ENVELOPE_FILE).write_bytes(head + iv + tag + cipher)


def test_an_unpadded_envelope_of_version_1_still_opens(tmp_path: Path) -> None:
    from dealer.record.recording import open_envelope

    _version_1_envelope(tmp_path / "old", "card.rank > prev.rank", "5" * 32)
    assert open_envelope(tmp_path / "old") == ("card.rank > prev.rank", "5" * 32)


def test_an_envelope_of_an_unknown_version_is_refused_naming_the_file_and_version(tmp_path: Path) -> None:
    from dealer.record.envelope import EnvelopeError
    from dealer.record.recording import ENVELOPE_FILE, open_envelope

    _version_1_envelope(tmp_path / "new", "card.red", "5" * 32, version=b"7")
    with pytest.raises(EnvelopeError) as caught:
        open_envelope(tmp_path / "new")
    assert str(tmp_path / "new" / ENVELOPE_FILE) in str(caught.value)
    assert "envelope version '7' is not one this dealer opens (it opens versions 1, 2)" in str(caught.value)


def test_every_envelope_of_the_library_has_one_size(tmp_path: Path) -> None:
    # the shortest and longest library rules, by id and by text, a rule of 900 characters:
    # the envelope's size does not follow the rule's length (R2)
    from dealer.record.envelope import ENVELOPE_FILE, open_envelope
    from engine.rules import LIBRARY

    rules = [e.id for e in LIBRARY.values()] + [e.text for e in LIBRARY.values()] + ["card.red or " * 75 + "true"]
    sizes = set()
    for k, rule in enumerate(rules):
        with RecordingWriter(tmp_path / f"r{k}", {}, fsync=False) as rec:
            rec.write_envelope(rule, "3" * 32)
        sizes.add((tmp_path / f"r{k}" / ENVELOPE_FILE).stat().st_size)
        assert open_envelope(tmp_path / f"r{k}") == (rule, "3" * 32)
    assert len(sizes) == 1, sizes
