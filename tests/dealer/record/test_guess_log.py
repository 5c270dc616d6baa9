"""The players' guesses kept with a recording: after the reveal only, beside the
hash-chained log (which still verifies), and shown judged on the review page."""

import json
from pathlib import Path

import pytest

from dealer.app.cli import main
from dealer.record.guess_log import GUESSES_FILE, load_guesses
from dealer.record.recording import load_recording, log_hash
from dealer.record.review import build_review, review_html, review_text
from dealer.record.verify import verify_recording
from tests.dealer.recorded_round import record_round


def test_a_guess_after_the_reveal_is_kept_and_shown_on_the_review_page(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # given a round played to its end (the rule alternate-colour revealed)
    r = record_round(tmp_path / "r")
    capsys.readouterr()
    # when the players guess on its folder
    assert main(["guess", str(r.folder), "card.colour != prev.colour", "card.rank < 7"]) == 0
    assert f"Kept with the recording: {r.folder / GUESSES_FILE}" in capsys.readouterr().out
    # then each guess and its judgement are one line after a versioned header
    lines = (r.folder / GUESSES_FILE).read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0]) == {"eleusis_guesses": 1, "log_hash": r.log_hash}
    kept = [json.loads(line) for line in lines[1:]]
    assert [(k["guess"], k["agrees"], k["same"]) for k in kept] == [
        ("card.colour != prev.colour", True, True), ("card.rank < 7", False, False)]
    # and a later guess is appended, not written over
    assert main(["guess", str(r.folder), "card.red"]) == 0
    assert [g.guess for g in load_guesses(r.folder)] == ["card.colour != prev.colour", "card.rank < 7", "card.red"]
    # and the review page shows them judged, escaped like everything else on it
    review = build_review(r.folder, r.seal, r.log_hash)
    page = review_html(review, r.folder / "review.html").read_text(encoding="utf-8")
    assert "<code>card.rank &lt; 7</code>" in page and "card.rank < 7" not in page
    assert "It is the sealed rule: the same verdict after every line that could have been played." in page
    assert "Your guess agrees with every verdict of this round." in page
    assert "It is not the sealed rule: " in page and "the rule does not" in page
    assert "QC, which was rejected; your rule accepts it" not in page  # only real clashes are said
    said = review_text(review)
    assert "Guess: card.red" in said and "Line " in said


def test_a_guess_before_the_reveal_is_refused_and_nothing_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = record_round(tmp_path / "r", finish=False, lays=("7H", "4C", "QC"))
    before = log_hash(r.folder)
    capsys.readouterr()
    assert main(["guess", str(r.folder), "card.colour != prev.colour"]) == 2
    captured = capsys.readouterr()
    assert "the rule is still sealed; guesses are judged and kept after the reveal (G6)" in captured.err
    assert "agrees" not in captured.out and "sealed rule" not in captured.out  # nothing judged, nothing given away
    assert not (r.folder / GUESSES_FILE).exists() and log_hash(r.folder) == before
    assert build_review(r.folder).guesses == ()


def test_the_recording_still_verifies_after_guesses_are_kept(tmp_path: Path) -> None:
    r = record_round(tmp_path / "r")
    before = verify_recording(load_recording(r.folder), r.seal, r.log_hash)
    assert main(["guess", str(r.folder), "card.black", "prev.red or"]) == 2  # one guess does not parse
    assert len(load_guesses(r.folder)) == 2 and load_guesses(r.folder)[1].judged is None
    after = verify_recording(load_recording(r.folder), r.seal, r.log_hash)
    assert after.log_hash == r.log_hash and after.anchored  # the log is the one shown at the table
    assert [str(p) for p in after.problems] == [str(p) for p in before.problems]
    assert not [p for p in after.problems if "round.jsonl" in str(p) or "frame" in str(p)]  # chain, frames hold


def test_a_broken_guesses_file_is_named_and_the_review_goes_on(tmp_path: Path) -> None:
    r = record_round(tmp_path / "r")
    (r.folder / GUESSES_FILE).write_text('{"eleusis_guesses": 1}\n{"at": "x", "guess": 3}\n', encoding="utf-8")
    review = build_review(r.folder)
    assert review.guesses == () and f"{GUESSES_FILE}: line 2: 'guess' is missing" in review.guesses_problem
    assert "the guesses cannot be shown" in review_html(review, tmp_path / "p.html").read_text(encoding="utf-8")
    assert main(["guess", str(r.folder), "card.red"]) == 2  # never appended to a file it cannot read
    assert (r.folder / GUESSES_FILE).read_text(encoding="utf-8").count("\n") == 2


def test_guesses_judged_against_another_log_are_shown_with_a_warning(tmp_path: Path) -> None:
    r = record_round(tmp_path / "r")
    assert main(["guess", str(r.folder), "card.red"]) == 0
    path = r.folder / GUESSES_FILE
    path.write_text(path.read_text(encoding="utf-8").replace(r.log_hash, "0" * 64), encoding="utf-8")
    review = build_review(r.folder)
    assert [g.guess for g in review.guesses] == ["card.red"]
    assert f"judged against another log (log hash {'0' * 64}), not this one ({r.log_hash})" in review.guesses_problem
    # a guess kept now is judged against this log; the file's header still names the other one
    assert main(["guess", str(r.folder), "card.black"]) == 0
    assert "judged against another log" in build_review(r.folder).guesses_problem
