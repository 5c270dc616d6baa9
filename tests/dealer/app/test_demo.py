"""The embedded default: the shipped recorded table, watched with the real model, gives
the scripted round's verdicts (bench/harness/make_demo.py); and the record fallback.

The scripted round is also a game record (data/demo-table.eleusis); what `eleusis judge
--json` says of it is stored (data/demo-table.judged.json): the dealer must deal the video
to exactly those verdicts and scores (issue 11: behaviour unchanged)."""

import json
from pathlib import Path
from typing import Any

import pytest

from dealer.app.demo import DEMO_HAND, DEMO_PLAYERS, DEMO_RULE, deal_record_aloud, shipped_record, shipped_video
from dealer.app.live import LiveOptions, run_live
from dealer.record.recording import RECORD_FILE, VerdictLine, load_recording
from dealer.speech.voice import FakeVoice
from engine.judging import judge_text, judgement_json
from engine.rules import resolve_rule

DATA = Path(__file__).parents[1] / "data"
SCRIPTED_RECORD = DATA / "demo-table.eleusis"
JUDGED = DATA / "demo-table.judged.json"


def _judged() -> dict[str, Any]:
    stored: dict[str, Any] = json.loads(JUDGED.read_text(encoding="utf-8"))
    return stored


def _turns(verdicts: list[VerdictLine]) -> list[tuple[str, str, list[str], int, bool, bool]]:
    """The dealer's verdicts in the terms of `judge --json` turns."""
    return [(v.player, v.verdict, v.action.split()[2:], v.penalty, v.expelled, v.overthrown) for v in verdicts]


def test_the_stored_verdicts_are_what_judge_says_of_the_scripted_round() -> None:
    # given the demo script written as a game record, when judged, then the stored expectation is its output
    judged = judgement_json(judge_text(SCRIPTED_RECORD.read_text(encoding="utf-8"), resolve_rule))
    assert judged == _judged()
    start = SCRIPTED_RECORD.read_text(encoding="utf-8")
    assert f"players: {DEMO_PLAYERS}\n" in start and f"rule: {DEMO_RULE}\n" in start and f"hand: {DEMO_HAND}\n" in start


@pytest.mark.skipif(shipped_video() is None, reason="no shipped demo video")
def test_the_shipped_recorded_table_is_dealt_as_scripted(tmp_path: Path) -> None:
    voice = FakeVoice()
    options = LiveOptions(video=shipped_video(), players="Ana Bo Cy", rule="alternate-colour", hand=5,
                          out=tmp_path / "rec")
    assert run_live(options, voice) == 0
    verdicts = [(v.player, v.action.split(": ", 1)[1], v.verdict) for v in load_recording(tmp_path / "rec").of_type(VerdictLine)]
    assert verdicts == [
        ("Ana", "play 4C", "accepted"),
        ("Bo", "play QC", "rejected"),
        ("Cy", "play 9D 2S", "accepted"),
        ("Ana", "play 5S", "rejected"),
        ("Bo", "noplay 3C 8S JS KC 6C 10S", "noplay-right"),
        ("Cy", "play 8H", "accepted"),
        ("Ana", "play 10C", "accepted"),
        ("Bo", "play KD", "accepted"),
        ("Cy", "play JS QD", "accepted"),
    ]
    assert "Cy has no cards left: the round is over." in "\n".join(voice.said)
    assert voice.said[-1].startswith("The rule was alternate-colour")
    # and exactly what `eleusis judge` says of the scripted round: verdicts, penalties, scores
    expected = _judged()
    rec = load_recording(tmp_path / "rec")
    assert _turns(rec.of_type(VerdictLine)) == [
        (t["player"], t["verdict"], t["cards"], t["penalty"], t["expelled"], t["overthrown"]) for t in expected["turns"]]
    dealt = judgement_json(judge_text((tmp_path / "rec" / RECORD_FILE).read_text(encoding="utf-8"), resolve_rule))
    assert (dealt["scores"], dealt["dealer"], dealt["line"]) == (expected["scores"], expected["dealer"], expected["line"])


def test_the_example_record_is_dealt_aloud_to_the_end() -> None:
    voice = FakeVoice()
    assert deal_record_aloud(shipped_record(), voice) == 0
    assert voice.said[0].startswith("A round of Eleusis for Ana, Bo, Cy, Dee.")
    assert any("The round is over" in s for s in voice.said)
    assert voice.said[-1].startswith("The rule was ")


def test_a_broken_record_is_named_and_nothing_is_said(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.eleusis"
    bad.write_text("players: Ana Bo Cy\nrule: alternate-colour\nstart: 7H\n\nBo: play 4C\n")
    voice = FakeVoice()
    assert deal_record_aloud(bad, voice) == 2
    assert "line 5:" in capsys.readouterr().err and voice.said == []
