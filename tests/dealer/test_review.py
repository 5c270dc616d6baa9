"""Reviews of a recorded round: frames, readings, verdicts, and reasons after the reveal only."""

from pathlib import Path

import pytest

from dealer.cli import main
from dealer.recording import RecordingWriter, RuleRevealed, Sealed, Seen, Verdict
from dealer.review import build_review, review_html, review_text
from engine.seal import seal

NONCE = "0123456789abcdef0123"
RECORD = """players: Ana Bo Cy
rule: alternate-colour
start: 7H
hand: 3

Ana: play 4C
Bo: play QC
Cy: noplay 2C 4H 6S
"""


def make_recording(folder: Path, reveal: bool, rule: str = "alternate-colour") -> None:
    with RecordingWriter(folder, {"players": ["Ana", "Bo", "Cy"]}, fsync=False) as rec:
        rec.write(Sealed(t=0, commitment=seal("alternate-colour", NONCE).commitment))
        for turn, (action, verdict) in enumerate(
            [("Ana: play 4C", "accepted"), ("Bo: play QC", "rejected"), ("Cy: noplay 2C 4H 6S", "noplay-wrong")]
        ):
            rec.save_frame(turn + 1.0, turn * 10, b"\xff\xd8 jpeg bytes")
            rec.write(Seen(t=turn + 1.0, frame=turn * 10, zone="play", cards=[{"card": "QC", "confidence": 0.97}]))
            rec.write(Verdict(t=turn + 1.0, turn=turn + 1, player=action.split(":")[0], action=action,
                              verdict=verdict, penalty=2 if verdict == "rejected" else 0, frame=turn * 10))
        if reveal:
            rec.write(RuleRevealed(t=9, rule=rule, nonce=NONCE))
    (folder / "round.eleusis").write_text(RECORD)


def test_before_the_reveal_no_reason_is_shown(tmp_path: Path) -> None:
    make_recording(tmp_path, reveal=False)
    review = build_review(tmp_path)
    assert review.rule is None and "still sealed" in review.seal_status
    assert all(item.why == "" for item in review.items)
    assert "alternate" not in review_text(review)


def test_after_the_reveal_each_verdict_has_its_frame_reading_and_reason(tmp_path: Path) -> None:
    make_recording(tmp_path, reveal=True)
    review = build_review(tmp_path)
    assert "checks out" in review.seal_status
    whys = [item.why for item in review.items]
    assert whys == [
        "Each card follows the rule: 4C after 7H (P2, P3).",
        "QC cannot follow 4C under the rule (P2), so the whole attempt is a side branch (P4).",
        "4H could follow 4C, so the no play was wrong (N3).",
    ]
    assert review.items[1].frame_path == tmp_path / "frames/000010.jpg"
    assert review.items[1].readings == [{"card": "QC", "confidence": 0.97}]
    page = review_html(review, tmp_path / "review.html").read_text()
    assert 'src="frames/000010.jpg"' in page and "cannot follow 4C" in page


def test_a_reveal_that_does_not_match_the_seal_is_flagged(tmp_path: Path) -> None:
    make_recording(tmp_path, reveal=True, rule="suit-cycle")
    assert "DOES NOT MATCH THE SEAL" in build_review(tmp_path).seal_status


def test_cli_review_prints_and_writes_the_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_recording(tmp_path, reveal=True)
    assert main(["review", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "turn 2 at 2.0s: Bo: play QC -> rejected, draws 2" in out
    assert (tmp_path / "review.html").exists()


def test_cli_review_of_a_broken_recording_names_the_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "round.jsonl").write_text('{"eleusis_recording": 99}\n')
    assert main(["review", str(tmp_path)]) == 2
    assert "version 99" in capsys.readouterr().err
