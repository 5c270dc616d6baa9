"""Every bad input of issue 9, run as a real command line: exit 2, a message naming what and
where, no traceback, within 10 s of CPU and 200 MB of memory; `play` says and writes nothing.

Each case is the command a person typed (or the file they handed over) when the issue was
filed; the limits are measured on the child process (cli_limits.run_cli).
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.dealer.cli_limits import ROOT, run_cli

VIDEO = str(ROOT / "dealer" / "data" / "demo-table.mp4")
RECORD = str(ROOT / "examples" / "demo-round.eleusis")
HEAD = "players: Ana Bo Cy\nrule: alternate-colour\nstart: KH\n"
DIGITS_5000 = "9" * 5000
TWELVE_TERMS = " + ".join(["count(line, sum(line, each.rank) > 3)"] * 12) + " > 0"


def _png_claiming(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 1000))
            + chunk(b"IEND", b""))


def _write(tmp: Path, name: str, data: bytes) -> str:
    (tmp / name).write_bytes(data)
    return str(tmp / name)


def _folder_with_log(tmp: Path, data: bytes) -> str:
    folder = tmp / "rec"
    folder.mkdir(exist_ok=True)
    (folder / "round.jsonl").write_bytes(data)
    return str(folder)


Case = tuple[str, Callable[[Path], list[str | bytes]], str]
CASES: list[Case] = [
    ("range to ten million", lambda t: ["rules", "check", "card.rank in 1..10000000"],
     "line 1, column 17: the number '10000000' is larger than anything cards can count to"),
    ("5000-digit literal in a rule", lambda t: ["rules", "check", f"card.rank == {DIGITS_5000}"],
     "line 1, column 14: the number '999999999999'... (5000 characters)"),
    ("rule of 100,000 characters", lambda t: ["rules", "check", "card.red or " + "(" * 100_000],
     "the rule is too long: 100012 characters"),
    ("twelve count(line, sum(line, ...)) terms", lambda t: ["rules", "check", TWELVE_TERMS],
     "the rule is too costly: one decision on a line of 40 cards takes about"),
    ("record line of 12.5 million cards",
     lambda t: ["judge", _write(t, "big.eleusis", (HEAD + "Ana: play ").encode() + b"7H " * 12_500_000)],
     "big.eleusis' is 37500062 bytes; at most 2000000 are read"),
    ("record line of 100,000 cards",
     lambda t: ["judge", _write(t, "wide.eleusis", (HEAD + "Ana: play " + "7H " * 100_000).encode())],
     "line 4: the line is 300010 characters long; a record line holds at most 20000"),
    ("5000-digit hand: header", lambda t: ["judge", _write(t, "h.eleusis", f"{HEAD}hand: {DIGITS_5000}\n".encode())],
     "line 4: hand: '999999999999'... (5000 characters) is too large (at most 1000)"),
    ("5000-digit literal in a record's rule",
     lambda t: ["judge", _write(t, "r.eleusis", HEAD.replace("alternate-colour", f"card.rank < {DIGITS_5000}").encode())],
     "line 2: rule: 'card.rank < 9999"),
    ("unicode digit hand: header", lambda t: ["judge", _write(t, "u.eleusis", f"{HEAD}hand: ²\n".encode())],
     "line 4: hand: '²' is not a positive whole number"),
    ("a rule that cannot decide some history, dealt by play --record",
     lambda t: ["play", "--voice", "text", "--record",
                _write(t, "undecided.eleusis", HEAD.replace("alternate-colour", "prev(3).red == card.red").encode()
                       + b"Ana: play 4C\n")],
     "line 4: the rule cannot decide this turn: prev(3) does not exist at position 1"),
    ("play --hand -1", lambda t: ["play", "--video", VIDEO, "--players", "Ana Bo Cy", "--hand", "-1"],
     "argument --hand: must be a whole number from 1 to 156, got '-1'"),
    ("play --hand 1000", lambda t: ["play", "--video", VIDEO, "--players", "Ana Bo Cy", "--hand", "1000"],
     "argument --hand: must be a whole number from 1 to 156, got '1000'"),
    ("play --hand 0", lambda t: ["play", "--video", VIDEO, "--players", "Ana Bo Cy", "--hand", "0"],
     "argument --hand: must be a whole number from 1 to 156, got '0'"),
    ("play --hand 60 for three", lambda t: ["play", "--video", VIDEO, "--players", "Ana Bo Cy", "--hand", "60"],
     "--hand 60: 3 hands of 60 and a starter need more than 156 cards (C1, C3)"),
    *[(f"play --pace {p}", lambda t, p=p: ["play", "--record", RECORD, f"--pace={p}"],  # type: ignore[misc]
       f"argument --pace: must be a number of seconds from 0 to 60, got '{p}'")
      for p in ("-1", "nan", "inf", "1e300")],
    ("--players not UTF-8", lambda t: ["play", "--video", VIDEO, "--players", b"Ana \xff Cy"],
     "the value of --players is not valid UTF-8 text: b'Ana \\xff Cy'"),
    ("--rule not UTF-8", lambda t: ["play", "--video", VIDEO, "--players", "Ana Bo Cy", b"--rule=card.red\xfe"],
     "the value of --rule is not valid UTF-8 text"),
    ("rules seal not UTF-8", lambda t: ["rules", "seal", b"card.red \xc3("],
     "argument 3 is not valid UTF-8 text: b'card.red \\xc3('"),
    ("rules check: stdin not UTF-8", lambda t: ["rules", "check", "-"], "(standard input) is not UTF-8 text"),
    ("read: a PNG header claiming 60000x60000", lambda t: ["read", _write(t, "huge.png", _png_claiming(60000, 60000))],
     "huge.png': the image claims too many pixels to be a photo"),
    ("read: a PNG header claiming 9000x9000", lambda t: ["read", _write(t, "big.png", _png_claiming(9000, 9000))],
     "big.png': the image is 9000x9000 pixels; at most 64 megapixels are read"),
    ("read --meta: a binary file",
     lambda t: ["read", "--meta", _write(t, "m.json", bytes(range(256))), _write(t, "x.png", _png_claiming(8, 8))],
     "m.json': not UTF-8 text (byte 128): not model metadata"),
    ("read --deck: a UTF-16 deck profile",
     lambda t: ["read", "--deck", _write(t, "d.json", '{"format": "x"}'.encode("utf-16")),
                _write(t, "x.png", _png_claiming(8, 8))],
     "d.json': not UTF-8 text (byte 0): not a deck profile"),
    ("calibrate --layout: a binary file",
     lambda t: ["calibrate", "table", "--headless", "--image", _write(t, "x.png", _png_claiming(8, 8)),
                "--layout", _write(t, "l.json", bytes(range(256)))],
     "l.json': not UTF-8 text (byte 128): not a table layout"),
    ("play --rule-file: false", lambda t: ["play", "--video", VIDEO, "--players", "Ana Bo Cy",
                                           "--rule-file", _write(t, "rule.txt", b"false")],
     "--rule: the rule checker rejects this rule (unfair: only 0 of 52 kinds are legal"),
    ("play --rule TEXT (it would show in ps)", lambda t: ["play", "--video", VIDEO, "--players", "Ana Bo Cy",
                                                          "--rule", "alternate-colour"],
     "--rule TEXT would show the secret rule to anyone who lists the processes"),
    *[(f"play --record with {opt}", lambda t, opt=opt, val=val: ["play", "--record", RECORD, opt, val],  # type: ignore[misc]
       f"{opt} cannot be used with --record") for opt, val in
      (("--out", "somewhere"), ("--players", "Ana Bo Cy"), ("--rule", "alternate-colour"), ("--hand", "5"))],
    ("review: a garbage log", lambda t: ["review", "--no-html", _folder_with_log(t, bytes(range(256)) * 4)],
     "round.jsonl: not UTF-8 text at byte 128"),
    ("review: a UTF-16 log", lambda t: ["review", "--no-html", _folder_with_log(
        t, '{"eleusis_recording": 2, "players": ["Ana"]}\n'.encode("utf-16"))], "(it looks like UTF-16)"),
    ("review: a wrong type in an event", lambda t: ["review", "--no-html", _folder_with_log(
        t, b'{"eleusis_recording": 2, "players": ["Ana"]}\n{"type":"said","t":"x","text":"hi","prev":""}\n')],
     "line 2: said event field 't' must be a number, got \"x\""),
    ("judge: a directory", lambda t: ["judge", str(t)], "is a directory, not a file"),
    ("judge: UTF-16", lambda t: ["judge", _write(t, "w.eleusis", HEAD.encode("utf-16"))], "is UTF-16 text; save it as UTF-8"),
    ("judge: an impossible turn before a later syntax error",
     lambda t: ["judge", _write(t, "o.eleusis", (HEAD + "Bo: play 4C\nCy: plax 4C\n").encode())],
     "line 4: it is Ana's turn, not Bo's (C5)"),
]
STDIN = {"rules check: stdin not UTF-8": b"card.red or \xff"}


@pytest.mark.parametrize(("name", "args", "message"), CASES, ids=[c[0] for c in CASES])
def test_bad_input_exits_2_with_a_message_within_limits(
        tmp_path: Path, name: str, args: Callable[[Path], list[str | bytes]], message: str) -> None:
    # given the input of the issue, when the command runs, then exit 2 with a message naming it
    run = run_cli(args(tmp_path), cwd=tmp_path, stdin=STDIN.get(name, b""))
    assert "Traceback" not in run.err
    assert run.code == 2, (run.code, run.err[-800:])
    assert message in run.err, run.err[-800:]
    assert run.within_limits(), f"{name}: {run.cpu_s:.1f} s of CPU, {run.peak_mb:.0f} MB"
    if args(tmp_path)[0] == "play":  # validated before anything is said or written
        assert run.out == ""
        assert not (tmp_path / "recordings").exists() and not (tmp_path / "somewhere").exists()


def test_a_utf8_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.eleusis"
    path.write_bytes(b"\xef\xbb\xbf" + (HEAD + "Ana: play 4C\n").encode())
    run = run_cli(["judge", str(path)], cwd=tmp_path)
    assert run.code == 0, run.err
    assert "line 4: Ana plays the four of clubs: accepted" in run.out.replace("4C", "the four of clubs")


def test_a_missing_file_is_not_called_a_directory(tmp_path: Path) -> None:
    run = run_cli(["judge", str(tmp_path / "nowhere.eleusis")], cwd=tmp_path)
    assert run.code == 2 and "nowhere.eleusis': no such file" in run.err
