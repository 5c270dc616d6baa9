"""`eleusis rules list|check|show` (R1): exit 0 fine, 1 rejected by the checker, 2 bad input."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from dealer.app.cli import main
from engine.rules import LIBRARY


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_list_prints_every_id_with_tier_and_description(capsys: pytest.CaptureFixture[str]) -> None:
    # given the library, when listed, then every id appears on its own line with its tier
    code, out, _ = run(["rules", "list"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == len(LIBRARY)
    for entry, line in zip(LIBRARY.values(), lines, strict=True):
        assert line.split()[:2] == [entry.id, entry.tier]
        assert entry.description in line


def test_list_json_and_tier_filter(capsys: pytest.CaptureFixture[str]) -> None:
    # given --json --tier easy, when listed, then a JSON list of the easy rules only
    code, out, _ = run(["rules", "list", "--json", "--tier", "easy"], capsys)
    assert code == 0
    rows = json.loads(out)
    assert {r["id"] for r in rows} == {e.id for e in LIBRARY.values() if e.tier == "easy"}
    assert all(set(r) == {"id", "tier", "description", "source"} for r in rows)


@pytest.mark.parametrize(("argv", "code", "expected"), [
    (["rules", "check", "alternate-colour"], 0, "fair: the rule passes the checker"),
    (["rules", "check", "card.suit", "!=", "prev.suit"], 0, "min 39, max 39"),
    (["rules", "check", "card.rank > prev.rank"], 1, "unfair: only 0 of 52 kinds"),
    (["rules", "check", "true"], 1, "accepts everything"),
    (["rules", "check", "prev(2).red"], 1, "prev(2) does not exist"),
])
def test_check_prints_the_report_and_exits_by_verdict(argv: list[str], code: int, expected: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    # given a rule (id or text), when checked, then the report is printed and the exit code says the verdict
    got, out, _ = run(argv, capsys)
    assert got == code
    assert expected in out


@pytest.mark.parametrize(("text", "message"), [
    ("card.rank >", "line 1, column 12: expected a value"),
    ("if prev.red then card.black", "line 1, column 28: expected 'else'"),
    ("alternate-colours", "unknown name 'alternate'"),
])
def test_check_syntax_error_exits_2_with_line_and_column(text: str, message: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    # given a rule text that does not parse, when checked, then exit 2 and the message names line and column
    code, out, err = run(["rules", "check", text], capsys)
    assert code == 2
    assert message in err
    assert out == ""


def test_check_json_report(capsys: pytest.CaptureFixture[str]) -> None:
    # given --json, when a library rule is checked, then one JSON object with the figures
    code, out, _ = run(["rules", "check", "--json", "step-up-1-3"], capsys)
    report = json.loads(out)
    assert code == 0 and report["ok"] is True
    assert report["min_legal"] == report["max_legal"] == 12
    assert report["problems"] == []


def test_check_reads_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # given '-' and a multi-line rule on stdin, when checked, then it is read and judged
    monkeypatch.setattr(sys, "stdin", io.StringIO("start: card.red\ncard.colour != prev.colour\n"))
    code, out, _ = run(["rules", "check", "-"], capsys)
    assert code == 0
    assert "26 of 52 kinds may start the line" in out


def test_show_prints_the_text_and_unknown_id_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    # given a library id, when shown, then its text; given an unknown id, then exit 2 with a message
    code, out, _ = run(["rules", "show", "suit-cycle"], capsys)
    assert code == 0 and LIBRARY["suit-cycle"].text in out
    code, _, err = run(["rules", "show", "no-such-rule"], capsys)
    assert code == 2 and "'no-such-rule' is not a library id" in err


def test_console_script_gives_no_traceback_on_bad_rule() -> None:
    # given the installed command line, when a bad rule is checked, then exit 2 and no traceback
    done = subprocess.run([sys.executable, "-m", "dealer", "rules", "check", "card.rank in {1,"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "line 1, column" in done.stderr


def test_seal_then_verify_round_trip(capsys: pytest.CaptureFixture[str]) -> None:
    # given a rule sealed by the command line, when the revealed rule and nonce are verified, then exit 0;
    # a different rule exits 1; the sealed rule's text is never printed by `seal`
    text = "card.suit == next(prev.suit)"
    code, out, _ = run(["rules", "seal", text], capsys)
    assert code == 0 and "next(prev.suit)" not in out
    commitment = out.split("seal: ")[1].split()[0]
    nonce = out.split("nonce: ")[1].split()[0]
    assert run(["rules", "verify", commitment, nonce, text], capsys)[0] == 0
    assert run(["rules", "verify", commitment, nonce, "card.suit", "==", "next(prev.suit)"], capsys)[0] == 0
    code, out, _ = run(["rules", "verify", commitment, nonce, "card.suit != prev.suit"], capsys)
    assert code == 1 and "do NOT match" in out


def test_seal_refuses_a_rule_that_does_not_parse(capsys: pytest.CaptureFixture[str]) -> None:
    # given a bad rule text, when sealed, then exit 2 with line and column (never seal a broken rule)
    code, out, err = run(["rules", "seal", "card.red and"], capsys)
    assert code == 2 and out == "" and "line 1, column 13" in err
