"""The embedded default: the shipped recorded table, watched with the real model, gives
the scripted round's verdicts (dealer/make_demo.py); and the record fallback."""

from pathlib import Path

import pytest

from dealer.demo import deal_record_aloud, shipped_record, shipped_video
from dealer.live import LiveOptions, run_live
from dealer.recording import VerdictLine, load_recording
from dealer.voice import FakeVoice


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
    assert "The round is over: Cy emptied the hand." in "\n".join(voice.said)
    assert voice.said[-1].startswith("The rule was alternate-colour")


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
