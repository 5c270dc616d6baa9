"""A recording proves itself (issue 9): every kind of edit is named, line and what, and
`eleusis review` exits non-zero; an untouched recording verifies and exits 0."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from dealer.app.cli import main
from dealer.record.recording import line_hash, load_recording
from dealer.record.verify import verify_recording
from engine.record import format_record, parse_record
from engine.seal import seal
from tests.dealer.recorded_round import RecordedRound, record_round

Edit = Callable[[RecordedRound], None]


@pytest.fixture(scope="module")
def master(tmp_path_factory: pytest.TempPathFactory) -> RecordedRound:
    return record_round(tmp_path_factory.mktemp("master") / "round")


@pytest.fixture
def copy(master: RecordedRound, tmp_path: Path) -> RecordedRound:
    import shutil

    folder = tmp_path / "copy"
    shutil.copytree(master.folder, folder)
    return RecordedRound(folder, master.seal, master.log_hash, master.voice, master.session)


def _lines(r: RecordedRound) -> list[str]:
    return (r.folder / "round.jsonl").read_text(encoding="utf-8").split("\n")


def _save(r: RecordedRound, lines: list[str]) -> None:
    (r.folder / "round.jsonl").write_text("\n".join(lines), encoding="utf-8")


def _index(lines: list[str], *needles: str) -> int:
    return next(i for i, line in enumerate(lines) if all(n in line for n in needles))


def _replace(*needles: str, old: str, new: str) -> Edit:
    def edit(r: RecordedRound) -> None:
        lines = _lines(r)
        i = _index(lines, *needles)
        assert old in lines[i]
        lines[i] = lines[i].replace(old, new)
        _save(r, lines)
    return edit


def _delete(*needles: str) -> Edit:
    def edit(r: RecordedRound) -> None:
        lines = _lines(r)
        del lines[_index(lines, *needles)]
        _save(r, lines)
    return edit


def _duplicate(*needles: str) -> Edit:
    def edit(r: RecordedRound) -> None:
        lines = _lines(r)
        i = _index(lines, *needles)
        lines.insert(i + 1, lines[i])
        _save(r, lines)
    return edit


def _swap_frames(r: RecordedRound) -> None:
    a, b = r.folder / "frames/000011.jpg", r.folder / "frames/000019.jpg"
    data_a, data_b = a.read_bytes(), b.read_bytes()
    a.write_bytes(data_b)
    b.write_bytes(data_a)


def _forge_rule(r: RecordedRound) -> None:
    """A new rule, nonce and commitment forged together, every hash and the record redone:
    the rule says the same as alternate-colour, so every verdict still replays the same."""
    forged_rule, forged_nonce = "card.colour != prev.colour", "forged-nonce-0123456789"
    commitment = seal(forged_rule, forged_nonce).commitment
    out, prev = [], ""
    for number, line in enumerate(_lines(r)):
        if not line:
            continue
        data = json.loads(line)
        if number > 0:
            if data["type"] == "sealed":
                data["commitment"] = commitment
            if data["type"] == "revealed":
                data["rule"], data["nonce"] = forged_rule, forged_nonce
            if data["type"] == "said":
                data["text"] = data["text"].replace(r.seal[:8], commitment[:8])
            data["prev"] = prev
            line = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        out.append(line)
        prev = line_hash(line)
    _save(r, [*out, ""])
    record = parse_record((r.folder / "round.eleusis").read_text())
    import dataclasses

    start = dataclasses.replace(record.start, rule=forged_rule)
    (r.folder / "round.eleusis").write_text(format_record([start, *(a.action for a in record.actions)]))


def _edit_record(r: RecordedRound) -> None:
    path = r.folder / "round.eleusis"
    path.write_text(path.read_text().replace("Bo: play QC", "Bo: play QD"))


# (edit, what the review must say, the log line it must name or None; whether the check
# needs the log hash shown at the table)
EDITS: dict[str, tuple[Edit, list[str], bool]] = {
    "verdict rejected -> accepted": (
        _replace('"verdict"', '"Bo"', old='"verdict":"rejected"', new='"verdict":"accepted"'),
        ["line 16: verdict logged as accepted, but replaying the round with the revealed rule gives rejected",
         "line 17: the line before it (line 16) is not the one it was chained to"], False),
    "penalty set to 0": (
        _replace('"verdict"', '"Bo"', old='"penalty":2', new='"penalty":0'),
        ["line 16: penalty logged as 0, but replaying the round with the revealed rule gives 2",
         "line 17: the line before it (line 16)"], False),
    "a card changed in an action": (
        _replace('"verdict"', '"Bo"', old="Bo: play QC", new="Bo: play QD"),
        ["line 17: the line before it (line 16) is not the one it was chained to",
         "line 16: verdict logged as rejected, but replaying the round with the revealed rule gives accepted",
         "round.eleusis line 7: says 'Bo: play QC', the log gives 'Bo: play QD'"], False),
    "a card changed in a reading": (
        _replace('"seen"', '"QC"', old='"card":"QC"', new='"card":"QD"'),
        ["line 19: the line before it (line 18) is not the one it was chained to: line 18 was changed"], False),
    "a verdict line deleted": (
        _delete('"verdict"', '"Bo"'),
        ["line 16: the line before it (line 15) is not the one it was chained to: line 15 was changed, "
         "or lines were deleted between lines 15 and 16",
         "the engine refuses this turn: it is Bo's turn, not Cy's"], False),
    "a verdict line duplicated": (
        _duplicate('"verdict"', '"Bo"'),
        ["line 17: repeats line 16 (a duplicated line)"], False),
    "the time changed": (
        _replace('"said"', "Bo plays QC", old='"t":9.5', new='"t":19.5'),
        ["line 16: the line before it (line 15) is not the one it was chained to"], False),
    "the player changed": (
        _replace('"verdict"', '"Bo"', old='"player":"Bo"', new='"player":"Cy"'),
        ["line 16: the verdict is for Cy, the action for Bo", "line 17: the line before it (line 16)"], False),
    "the spoken text changed": (
        _replace('"said"', "Bo plays QC", old="rejected", new="accepted"),
        ["line 16: the line before it (line 15) is not the one it was chained to"], False),
    "the header's player names changed": (
        _replace("eleusis_recording", old='"Ana"', new='"Anna"'),
        ["line 2: the line before it (line 1) is not the one it was chained to",
         "line 1: the header names the players Anna Bo Cy, but the round started (line 6) with Ana Bo Cy"], False),
    "the sealed line deleted": (
        _delete('"sealed"'),
        ["no sealed line: the seal shown before the deal is not in the log (R2)",
         "line 2: the line before it (line 1) is not the one it was chained to"], False),
    "the revealed line deleted": (
        _delete('"revealed"'),
        ["the line before it", "round.eleusis line 2: says 'rule: alternate-colour', the log gives 'rule: sealed"],
        False),
    "two frames swapped": (
        _swap_frames,
        ["frames/000011.jpg holds the picture logged for frames/000019.jpg (frames swapped)",
         "frames/000019.jpg holds the picture logged for frames/000011.jpg (frames swapped)"], False),
    "a new rule, nonce and commitment forged together": (
        _forge_rule,
        ["the log's hash is", "shown at the table: the log was changed, cut or forged after the round"], True),
    "the last line changed": (
        _replace("The rule was", old="After a red card", new="After a blue card"),
        ["the log's hash is"], True),
    "round.eleusis edited": (
        _edit_record, ["round.eleusis line 7: says 'Bo: play QD', the log gives 'Bo: play QC'"], False),
    "round.eleusis deleted": (
        lambda r: (r.folder / "round.eleusis").unlink(),
        ["round.eleusis: is missing (the log holds the round: it was deleted)"], False),
}


def test_an_untouched_recording_verifies_and_exits_0(copy: RecordedRound, capsys: pytest.CaptureFixture[str]) -> None:
    check = verify_recording(load_recording(copy.folder), copy.seal, copy.log_hash)
    assert check.ok, check.problems
    assert main(["review", str(copy.folder), "--seal", copy.seal, "--log-hash", copy.log_hash]) == 0
    assert main(["verify", str(copy.folder), "--seal", f"sha256:{copy.seal}", "--log-hash", copy.log_hash]) == 0
    assert "VERIFIED" in capsys.readouterr().out


@pytest.mark.parametrize("name", list(EDITS))
def test_each_edit_is_named_and_review_exits_non_zero(name: str, copy: RecordedRound,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    edit, expected, needs_log_hash = EDITS[name]
    edit(copy)
    log_hash = copy.log_hash if needs_log_hash else None
    check = verify_recording(load_recording(copy.folder), log_hash_shown=log_hash)
    said = "\n".join(str(p) for p in check.problems)
    for text in expected:
        assert text in said, f"{name}: {text!r} not in:\n{said}"
    args = ["review", str(copy.folder), "--no-html"] + (["--log-hash", log_hash] if log_hash else [])
    assert main(args) == 1
    out = capsys.readouterr().out
    assert "NOT VERIFIED" in out and expected[0] in out


def test_a_forged_log_passes_the_chain_alone_but_not_the_seal_shown_at_the_table(copy: RecordedRound) -> None:
    # what the chain alone cannot see (documented): a log forged anew verifies without the
    # values shown at the table; the seal and the log hash the players kept catch it
    _forge_rule(copy)
    rec = load_recording(copy.folder)
    assert verify_recording(rec).ok
    (problem,) = verify_recording(rec, seal=copy.seal).problems
    assert f"is not the one shown at the table, {copy.seal}" in problem.what


def test_a_wrong_log_hash_or_seal_given_is_named(copy: RecordedRound) -> None:
    rec = load_recording(copy.folder)
    wrong = "0" * 64
    said = [str(p) for p in verify_recording(rec, seal=wrong, log_hash_shown=wrong).problems]
    assert len(said) == 2 and "not the one shown at the table" in said[0] and "the log's hash is" in said[1]


def test_the_qr_codes_hold_the_seal_and_the_log_hash(master: RecordedRound) -> None:
    # what the players photograph decodes to the values verify takes
    import cv2

    detector = cv2.QRCodeDetectorAruco()  # cv2.QRCodeDetector misses ~7 % of valid codes (a flaky test)
    for name, value in (("seal.png", master.seal), ("log-hash.png", master.log_hash)):
        image = cv2.imread(str(master.folder / name))
        assert image is not None, name
        text, _points, _ = detector.detectAndDecode(image)
        assert text == f"sha256:{value}", name


def test_the_terminal_qr_code_decodes_to_the_seal(master: RecordedRound) -> None:
    # the QR drawn in the terminal (two modules a character; a full block is two light modules)
    import cv2
    import numpy as np

    from dealer.record.seal_show import qr_terminal

    halves = {"█": (255, 255), "▀": (255, 0), "▄": (0, 255), " ": (0, 0)}
    rows: list[list[int]] = []
    for line in qr_terminal(f"sha256:{master.seal}").splitlines():
        pairs = [halves[ch] for ch in line]
        rows += [[top for top, _ in pairs], [bottom for _, bottom in pairs]]
    image = np.kron(np.array(rows, np.uint8), np.ones((8, 8), np.uint8))
    text, _points, _ = cv2.QRCodeDetectorAruco().detectAndDecode(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR))
    assert text == f"sha256:{master.seal}"


def test_verify_without_the_table_values_is_not_anchored_and_exits_3(copy: RecordedRound,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    # given a log forged anew (every hash recomputed), when verified with neither --seal nor
    # --log-hash, then it is never called VERIFIED: consistent, NOT anchored, a distinct exit
    from dealer.app.commands.review import NOT_ANCHORED

    _forge_rule(copy)
    assert main(["verify", str(copy.folder)]) == NOT_ANCHORED == 3
    out = capsys.readouterr().out
    assert "chain consistent, NOT anchored: give --seal and --log-hash from the table" in out
    assert "VERIFIED" not in out.replace("NOT VERIFIED", "")
    # the seal alone ties the rule, not the turns: still not anchored (and here it does not match)
    assert main(["verify", str(copy.folder), "--seal", copy.seal]) == 1
    assert verify_recording(load_recording(copy.folder)).anchored is False


def test_verify_with_the_seal_only_says_the_log_is_not_anchored(copy: RecordedRound,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(copy.folder), "--seal", copy.seal]) == 3
    out = capsys.readouterr().out
    assert "NOT anchored: give --log-hash from the table" in out and "VERIFIED" not in out
    assert main(["verify", str(copy.folder), "--log-hash", copy.log_hash]) == 0


def test_a_wrong_seal_never_first_checks_out(copy: RecordedRound, capsys: pytest.CaptureFixture[str]) -> None:
    wrong = "0" * 64
    assert main(["verify", str(copy.folder), "--seal", wrong, "--log-hash", copy.log_hash]) == 1
    out = capsys.readouterr().out
    assert "checks out" not in out
    assert f"the seal in the log, {copy.seal}, is NOT the one shown at the table" in out
    assert "NOT VERIFIED" in out


@pytest.mark.parametrize(("option", "value"), [
    ("--seal", "zz"), ("--seal", "sha256:zz"), ("--log-hash", "abc"), ("--seal", "0" * 24), ("--seal", "g" * 64)])
def test_a_malformed_seal_or_log_hash_is_called_malformed_not_a_mismatch(
        copy: RecordedRound, option: str, value: str, capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("verify", "review"):
        assert main([command, str(copy.folder), option, value, "--no-html"][:4 if command == "verify" else 5]) == 2
        captured = capsys.readouterr()
        assert f"eleusis {command}: {option} {value!r} is malformed" in captured.err
        assert "64 hex digits" in captured.err and "not the one shown" not in captured.out + captured.err


def test_the_table_view_shows_the_whole_seal_and_its_qr_which_verify_takes(
        copy: RecordedRound, capsys: pytest.CaptureFixture[str]) -> None:
    # given the view of the table once the rule is sealed (R2), when its QR code is read from the
    # picture, then it holds the whole seal, and `verify --seal` with it passes (24 digits would not)
    import cv2

    from dealer.record.seal_show import seal_lines
    from dealer.screen.table_view import ViewState, render_view

    picture = render_view(ViewState(seal=copy.seal, title="Round 1"))
    text, _points, _ = cv2.QRCodeDetectorAruco().detectAndDecode(picture)
    assert text == f"sha256:{copy.seal}"
    assert main(["verify", str(copy.folder), "--seal", text, "--log-hash", copy.log_hash]) == 0
    # the digits beside it are all 64, as written under the QR code
    lines = seal_lines(copy.seal)
    assert lines[0] == "sha256:" and "".join(lines[1:]).replace(" ", "") == copy.seal
    assert main(["verify", str(copy.folder), "--seal", copy.seal[:24], "--log-hash", copy.log_hash]) == 2
    assert "is malformed" in capsys.readouterr().err
