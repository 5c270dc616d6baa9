"""Property-based fuzzing of the command line (issue 9 item 7): any mix of commands, options
and values, well-formed or not (arguments that are not UTF-8, files of random bytes, BOMs,
directories), ends with an exit status and a message, never a traceback.

`main()` runs in-process; argparse's own refusals end in SystemExit(2). The commands chosen
all finish fast (no camera, no live video, no pause between turns).
"""

from __future__ import annotations

import contextlib
import io
import tempfile
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer.app.cli import main

ROOT = Path(__file__).resolve().parents[3]
RECORD = (ROOT / "examples" / "demo-round.eleusis").read_text(encoding="utf-8")

WEIRD = ["", "-", "--", "0", "-1", "1e300", "nan", "inf", "14", "1000", "9" * 5000, "Ana Bo Cy", "Ana Bo",
         "alternate-colour", "card.red", "false", "prev(3).red", "card.rank in 1..10000000", "\udcff\udcfe",
         "é", "a\x00b", " ", "--help-me", "sha256:" + "0" * 64, "0" * 64]
FILES = ["record", "bom-record", "garbage", "utf16", "empty", "dir", "missing", "big-line"]


def _make_files(folder: Path) -> dict[str, str]:
    (folder / "dir").mkdir()
    files = {
        "record": RECORD.encode(),
        "bom-record": b"\xef\xbb\xbf" + RECORD.encode(),
        "garbage": bytes(range(256)) * 3,
        "utf16": RECORD.encode("utf-16"),
        "empty": b"",
        "big-line": b"players: Ana Bo Cy\nrule: card.red\nstart: KH\nAna: play " + b"7H " * 10_000,
    }
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return {name: str(folder / name) for name in FILES}


values = st.sampled_from(WEIRD)
files = st.sampled_from(FILES)


@st.composite
def command_lines(draw: st.DrawFn) -> list[str | tuple[str]]:
    """An argv whose file arguments are placeholders ``(name,)`` filled in per run."""
    command = draw(st.sampled_from(["rules", "judge", "play", "read", "calibrate", "nonsense", "review"]))
    argv: list[str | tuple[str]] = [command]
    if command == "rules":
        action = draw(st.sampled_from(["check", "seal", "verify", "show", "list", "bogus"]))
        argv.append(action)
        argv += draw(st.lists(values, max_size=3))
        if action == "check":
            argv += draw(st.lists(st.sampled_from(["--seed", "--depth", "--json", "7", "-3"]), max_size=3))
    elif command == "judge":
        argv.append((draw(files),))
        argv += draw(st.lists(st.sampled_from(["--json", "--reveal", "--layout", "--bogus"]), max_size=3))
    elif command == "play":
        argv += ["--record", (draw(files),), "--voice", "text"]
        options = st.sampled_from(["--players", "--rule", "--hand", "--out", "--pace", "--allow-rejected-rule"])
        for option in draw(st.lists(options, max_size=3)):
            argv.append(option)
            if option == "--pace":
                argv.append(draw(st.sampled_from(["0", "-1", "nan", "inf", "x", "1e300"])))  # never a real pause
            elif option != "--allow-rejected-rule":
                argv.append(draw(values))
    elif command == "read":
        argv += [(draw(files),)] + draw(st.lists(st.sampled_from(["--json", "--single", "--decks", "0"]), max_size=2))
        if draw(st.booleans()):
            argv += ["--meta", (draw(files),)]
    elif command == "calibrate":
        argv += ["table", "--headless", "--image", (draw(files),)]
        if draw(st.booleans()):
            argv += [draw(st.sampled_from(["--layout", "--camera-profile"])), (draw(files),)]
    elif command == "review":
        argv += [(draw(st.sampled_from(["dir", "missing", "garbage"])),), "--no-html"]
    else:
        argv += draw(st.lists(values, max_size=3))
    return argv


@pytest.fixture(scope="module")
def fuzz_files() -> dict[str, str]:
    with tempfile.TemporaryDirectory() as tmp:
        yield _make_files(Path(tmp))


@settings(max_examples=120, deadline=timedelta(seconds=30), derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(command_lines())
def test_no_command_line_ends_in_a_traceback(fuzz_files: dict[str, str], argv: list[str | tuple[str]]) -> None:
    args = [fuzz_files[a[0]] if isinstance(a, tuple) else a for a in argv]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            tempfile.TemporaryDirectory() as cwd, contextlib.chdir(cwd):
        try:
            code = main(args)
        except SystemExit as exit_:  # argparse's own refusal (or --help)
            code = exit_.code if isinstance(exit_.code, int) else 2
    assert code in (0, 1, 2, 3), (args, code, err.getvalue()[-500:])
    if code == 2:
        assert err.getvalue().strip(), args  # a refusal always says why


# The recording loader (dealer/record/recording.py): any log, however broken, loads or raises LoadError.
LOG_LINES = [
    '{"eleusis_recording": 2, "players": ["Ana", "Bo", "Cy"], "hand": 5}',
    '{"eleusis_recording": 1}', '{"eleusis_recording": 3}', '{"eleusis_recording": "2"}', "{}", "[]", "null",
    '{"type":"said","t":0.5,"text":"hi","prev":"00"}', '{"type":"said","t":"x","text":"hi","prev":""}',
    '{"type":"verdict","t":1,"turn":1,"player":"Ana","action":"Ana: play 4C","verdict":"accepted","prev":""}',
    '{"type":"verdict","t":1,"turn":"1","player":"Ana","action":"x","verdict":"accepted","prev":""}',
    '{"type":"started","t":0,"players":["Ana"],"starters":["KH"],"hand":5,"decks":3,"prev":""}',
    '{"type":"frame","t":0,"index":-1,"path":"../../etc/passwd","sha256":"","prev":""}',
    '{"type":"nope","prev":""}', '{"type":"said","prev":""}', '{"type":"said","t":1e999,"text":"","prev":""}',
    '{"type":"said","t":1,"text":"a","prev":"","extra":1}', "[" * 5000, "", "   ", "\ufeff{}",
]


@settings(max_examples=120, deadline=timedelta(seconds=30), derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(st.sampled_from(LOG_LINES), st.text(max_size=60)), max_size=8),
       st.sampled_from(["\n", ""]), st.booleans())
def test_any_recording_log_loads_or_names_what_is_wrong(lines: list[str], end: str, binary_tail: bool) -> None:
    from dealer.record.recording import LoadError, load_recording

    data = ("\n".join(lines) + end).encode("utf-8", "surrogatepass")
    if binary_tail:
        data += b"\xff\xfe\x00"
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "round.jsonl").write_bytes(data)
        try:
            recording = load_recording(Path(tmp))
        except LoadError as exc:
            assert str(exc).strip()
            return
        assert recording.header is not None
