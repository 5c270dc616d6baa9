"""What if a card had been read right (issue 9): `eleusis review R --fix TURN:READ=REAL`
replays the round and names what would change; the recording is never touched."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer.app.cli import main
from dealer.record.recording import load_recording
from dealer.record.whatif import FixError, parse_fix, what_if
from tests.dealer.recorded_round import record_round
from tests.dealer.app.test_secrecy import snapshot


def test_a_corrected_reading_changes_verdicts_and_scores_and_not_the_recording(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # given the round where Bo's QC was rejected (alternate-colour, line 7H 4C), when it was really QD
    r = record_round(tmp_path / "r")
    before = snapshot(r.folder)
    capsys.readouterr()
    assert main(["review", str(r.folder), "--fix", "2:QC=QD"]) == 0
    out = capsys.readouterr().out
    # then Bo's turn would be accepted, Cy's 9D (red after red) rejected, and the scores move
    assert "turn 2 (Bo with QD): rejected, draws 2 -> accepted" in out
    assert "turn 3 (Cy): accepted -> rejected, draws 2" in out
    assert "score of Bo: 0 -> 2" in out and "score of Cy: 2 -> 0" in out
    # and the recording is byte for byte what it was (no page written either)
    assert snapshot(r.folder) == before


def test_a_fix_that_ends_the_round_otherwise_says_so(tmp_path: Path) -> None:
    r = record_round(tmp_path / "r")
    lines = what_if(load_recording(r.folder), [parse_fix("4:3H=3C")])
    assert lines == ["turn 4 (Ana with 2S 3C): accepted, the round ends (emptied) -> rejected, draws 4",
                     "score of Ana: 8 -> 0", "dealer's score: 8 -> 2", "the round's end: emptied -> not ended"]


def test_a_fix_that_changes_nothing_says_so(tmp_path: Path) -> None:
    r = record_round(tmp_path / "r")
    assert what_if(load_recording(r.folder), [parse_fix("2:QC=QS")]) == [
        "turn 2 (Bo with QS): still rejected, draws 2", "no verdict, penalty, expulsion or score would change"]


@pytest.mark.parametrize(("fix", "message"), [
    ("2:QC", "write TURN:READ=REAL"),
    ("two:QC=QD", "write TURN:READ=REAL"),
    ("2:QC=QX", "QX"),
    ("9:QC=QD", "there is no turn 9 (turns 1-4)"),
    ("2:4H=QD", "turn 2: no 4H was read in Bo's turn"),
])
def test_a_bad_fix_is_named_and_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], fix: str,
                                        message: str) -> None:
    r = record_round(tmp_path / "r")
    capsys.readouterr()
    assert main(["review", str(r.folder), "--fix", fix]) == 2
    assert message in capsys.readouterr().err


def test_no_what_if_before_the_reveal(tmp_path: Path) -> None:
    # a what-if on a sealed round would give the rule away through its verdicts
    r = record_round(tmp_path / "r", lays=("7H", "4C", "QC"), finish=False)
    with pytest.raises(FixError, match="only after the reveal"):
        what_if(load_recording(r.folder), [parse_fix("2:QC=QD")])
