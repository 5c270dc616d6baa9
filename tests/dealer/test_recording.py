"""Recordings: versioned header, one flushed event per line, clear LoadErrors."""

import json
from pathlib import Path

import pytest

from dealer.recording import (
    FORMAT_VERSION,
    Frame,
    LoadError,
    RecordingWriter,
    RuleRevealed,
    Said,
    Sealed,
    Seen,
    Verdict,
    load_recording,
)


def _write_sample(folder: Path) -> None:
    with RecordingWriter(folder, {"players": ["Ana", "Bo", "Cy"]}, fsync=False) as rec:
        rec.write(Sealed(t=0.0, commitment="ab" * 32))
        rec.save_frame(1.5, 7, b"\xff\xd8fakejpeg")
        rec.write(Seen(t=1.5, frame=7, zone="play", cards=[{"card": "4C", "confidence": 0.97}]))
        rec.write(Verdict(t=1.6, turn=1, player="Ana", action="play 4C", verdict="accepted", frame=7))
        rec.write(Said(t=1.7, text="Ana plays the four of clubs: accepted."))
        rec.write(RuleRevealed(t=9.0, rule="alternate-colour", nonce="n0"))


def test_round_trip_keeps_every_event_in_order(tmp_path: Path) -> None:
    _write_sample(tmp_path)
    rec = load_recording(tmp_path)
    assert rec.header["players"] == ["Ana", "Bo", "Cy"]
    assert [type(e).__name__ for e in rec.events] == ["Sealed", "Frame", "Seen", "Verdict", "Said", "RuleRevealed"]
    (verdict,) = rec.of_type(Verdict)
    assert verdict.player == "Ana" and verdict.frame == 7
    assert rec.frame_path(7) == tmp_path / "frames/000007.jpg" and rec.frame_path(7).read_bytes().endswith(b"fakejpeg")
    assert not rec.truncated


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
        ({"eleusis_recording": 0}, "version 0 recording; this dealer reads version 1"),
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
        ('{"type": "dance", "t": 1}', "line 2: unknown event type 'dance'"),
        ('{"type": "said", "t": 1}', "line 2: said event is incomplete"),
        ('{"type": "said", "t": 1, "text": "x", "mood": 3}', "unknown field"),
        ("[1, 2]", "line 2: an event must be a JSON object"),
        ("{nope}\n", "line 2: not JSON"),
    ],
)
def test_bad_event_lines_name_the_line(tmp_path: Path, line: str, message: str) -> None:
    (tmp_path / "round.jsonl").write_text('{"eleusis_recording": 1}\n' + line + "\n" + '{"type":"said","t":2,"text":"x"}\n')
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
    (frame,) = load_recording(tmp_path).of_type(Frame)
    assert frame.path == "frames/000007.jpg"
