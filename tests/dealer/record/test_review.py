"""Reviews of a recorded round: frames, readings, verdicts, and reasons after the reveal only."""

from pathlib import Path

import pytest

from dealer.app.cli import main
from dealer.record.review import build_review, review_html, review_text
from tests.dealer.recorded_round import record_round


def test_before_the_reveal_no_reason_is_shown(tmp_path: Path) -> None:
    record_round(tmp_path / "r", finish=False, lays=("7H", "4C", "QC"))
    review = build_review(tmp_path / "r")
    assert review.rule is None and "still sealed" in review.seal_status
    assert [item.verdict for item in review.items] == ["accepted", "rejected"]
    assert all(item.why == "" for item in review.items)
    assert "alternate" not in review_text(review) and "colour" not in review_text(review)
    assert review.verified  # an unfinished round still verifies: chain, frames, sealed record


def test_after_the_reveal_each_verdict_has_its_frame_reading_and_reason(tmp_path: Path) -> None:
    r = record_round(tmp_path / "r")
    review = build_review(r.folder)
    assert "checks out" in review.seal_status and review.verified
    whys = [item.why for item in review.items]
    assert whys == [
        "Each card follows the rule: 4C after 7H (P2, P3).",
        "QC cannot follow 4C under the rule (P2), so the whole attempt is a side branch (P4).",
        "Each card follows the rule: 9D after 4C (P2, P3).",
        "Each card follows the rule: 2S after 9D, 3H after 2S (P2, P3).",
    ]
    assert review.items[1].frame_path == r.folder / "frames/000019.jpg"
    assert review.items[1].readings == [{"card": "QC", "confidence": 0.97}]
    page = review_html(review, r.folder / "review.html").read_text()
    assert 'src="frames/000019.jpg"' in page and "cannot follow 4C" in page and "VERIFIED" in page


def test_the_page_urls_are_escaped(tmp_path: Path) -> None:
    r = record_round(tmp_path / "R #1")
    page = review_html(build_review(r.folder), tmp_path / "page.html").read_text()
    assert 'src="R%20%231/frames/000019.jpg"' in page


def test_a_reveal_that_does_not_match_the_seal_is_flagged(tmp_path: Path) -> None:
    r = record_round(tmp_path / "r")
    path = r.folder / "round.jsonl"
    path.write_text(path.read_text().replace('"rule":"alternate-colour"', '"rule":"suit-cycle"'))
    review = build_review(r.folder)
    assert "DOES NOT MATCH THE SEAL" in review.seal_status and not review.verified


def test_cli_review_prints_and_writes_the_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = record_round(tmp_path / "r")
    capsys.readouterr()
    assert main(["review", str(r.folder)]) == 0
    out = capsys.readouterr().out
    assert "turn 2 at 9.5s: Bo: play QC -> rejected, draws 2" in out
    assert "VERIFIED" in out
    assert (r.folder / "review.html").exists()


def test_cli_review_of_a_broken_recording_names_the_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "round.jsonl").write_text('{"eleusis_recording": 99}\n')
    assert main(["review", str(tmp_path)]) == 2
    assert "version 99" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"eleusis_recording": 1, "players": ["Ana"]}\n{"t": 0, "type": "said", "text": "hi"}\n',
         "version 1 recording; this dealer reads version 2"),
        ("\ufeffgarbage".encode("utf-16"), "not UTF-8 text"),
        (b"\x00\x01\x02\xff" * 50, "not UTF-8 text"),
        ('{"eleusis_recording": 2}\n{"type": "verdict", "t": 1, "turn": "two", "player": "A", "action": "A: prophet",'
         ' "verdict": "prophet", "prev": ""}\n', "line 2: verdict event field 'turn' must be a whole number"),
        ('{"eleusis_recording": 2}\n{"type": "frame", "t": 1, "index": 1, "path": ["x"], "prev": ""}\n',
         "field 'path' must be a string"),
    ],
)
def test_cli_review_of_garbage_says_what_and_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      content: str | bytes, message: str) -> None:
    path = tmp_path / "round.jsonl"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    assert main(["review", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and "Traceback" not in captured.err + captured.out


def test_undone_verdicts_are_shown_and_left_out_of_the_round(tmp_path: Path) -> None:
    # given Bo's QC was misread (he laid QD): the dealer takes it back (key u), Bo lays QD
    r = record_round(tmp_path / "r", lays=("7H", "4C", "QC"), finish=False)
    from dealer.record.recording import RecordingWriter, Undone

    with RecordingWriter.resume(r.folder, fsync=False) as rec:
        rec.write(Undone(t=12.0, turn=2, reason="QC was a misread QD"))
    review = build_review(r.folder)
    assert [(i.action, i.undone) for i in review.items] == [("Ana: play 4C", False), ("Bo: play QC", True)]
    # the saved record still shows Bo's turn: review names the difference
    assert any("round.eleusis line 7" in str(p) for p in review.problems)


def test_judging_a_record_before_the_reveal_says_it_is_sealed(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    record_round(tmp_path / "r", finish=False, lays=("7H", "4C"))
    capsys.readouterr()
    assert main(["judge", str(tmp_path / "r" / "round.eleusis")]) == 2
    assert "line 2: the rule is still sealed: this record can be judged after the reveal" in capsys.readouterr().err


def test_a_stopped_round_can_be_revealed_and_then_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # given a round stopped after Bo's turn (it will not go on), its rule still sealed
    from dealer.record.envelope import key_dir
    from dealer.record.recording import RuleRevealed, load_recording

    r = record_round(tmp_path / "r", finish=False, lays=("7H", "4C", "QC"))
    assert (key_dir() / f"{r.seal}.key").exists()
    capsys.readouterr()
    # when the dealer reveals it on the machine that dealt it
    assert main(["reveal", str(r.folder)]) == 0
    out = capsys.readouterr().out
    # then the rule is said and logged, the record shows it, the round verifies, the key is gone
    assert "The rule was alternate-colour" in out and "Scores:" in out and "VERIFIED" in out
    (revealed,) = load_recording(r.folder).of_type(RuleRevealed)
    assert revealed.rule == "alternate-colour"
    assert "rule: alternate-colour\n" in (r.folder / "round.eleusis").read_text()
    assert build_review(r.folder).verified and build_review(r.folder).items[1].why.startswith("QC cannot follow 4C")
    assert not (key_dir() / f"{r.seal}.key").exists()
    # and a second reveal, or one on a machine without the key, says why not (exit 2)
    assert main(["reveal", str(r.folder)]) == 2
    assert "already revealed" in capsys.readouterr().err
    other = record_round(tmp_path / "other", finish=False, lays=("7H",))
    monkeypatch.setenv("ELEUSIS_KEY_DIR", str(tmp_path / "elsewhere"))
    assert main(["reveal", str(other.folder)]) == 2
    assert "the key of this round is not on this machine" in capsys.readouterr().err


def test_after_the_reveal_the_rule_is_shown_in_words_not_only_by_its_id(tmp_path: Path) -> None:
    from dealer.speech.i18n import use_language
    from engine.rules import LIBRARY

    r = record_round(tmp_path / "r")
    review = build_review(r.folder)
    entry = LIBRARY["alternate-colour"]
    page = review_html(review, r.folder / "review.html").read_text()
    assert entry.description in review_text(review) and entry.text in review_text(review)
    assert entry.description in page
    with use_language("pt"):
        from dealer.speech.i18n import p_

        described = p_("rule description", entry.description)
        assert described != entry.description  # the library's description is translated
        assert described in review_text(review)


def test_before_the_reveal_the_rule_text_stays_hidden(tmp_path: Path) -> None:
    from engine.rules import LIBRARY

    record_round(tmp_path / "r", finish=False, lays=("7H", "4C"))
    review = build_review(tmp_path / "r")
    assert LIBRARY["alternate-colour"].description not in review_text(review)


def test_a_no_play_row_shows_every_batch_of_the_hand(tmp_path: Path) -> None:
    from dealer.record.recording import RecordingWriter, Seen, VerdictLine

    # given a "no play" whose hand of four was shown in two batches (N1), each batch's frame kept
    folder = tmp_path / "r"
    with RecordingWriter(folder, {"players": ["Ana", "Bo", "Cy"], "hand": 4, "decks": 3}, fsync=False) as w:
        for index, cards in ((10, ["2H", "3H"]), (20, ["4D", "5D"])):
            w.save_frame(index / 2, index, b"\xff\xd8 batch")
            w.write(Seen(t=index / 2, frame=index, zone="play", tokens=["noplay"],
                         cards=[{"card": c, "confidence": 0.99} for c in cards]))
        w.write(VerdictLine(t=10.0, turn=1, player="Ana", action="Ana: noplay 2H 3H 4D 5D", verdict="noplay-right",
                            frame=20))
    # when it is reviewed
    review = build_review(folder)
    item = review.items[0]
    # then the row shows the whole hand, batch by batch, with both frames
    assert [b.frame_path for b in item.shown] == [folder / "frames/000010.jpg", folder / "frames/000020.jpg"]
    text = review_text(review)
    assert "batch 1: 2H (0.99), 3H (0.99); batch 2: 4D (0.99), 5D (0.99)" in text
    page = review_html(review, folder / "review.html").read_text()
    assert 'src="frames/000010.jpg"' in page and 'src="frames/000020.jpg"' in page
    assert "2H (0.99), 3H (0.99)" in page
