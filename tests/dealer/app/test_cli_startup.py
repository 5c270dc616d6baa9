"""A command line that names its command imports only that command's module: `eleusis
rules check` or `eleusis judge` does not load cv2, numpy or reportlab (the bad-input and
Ctrl-C tests start dozens of such processes; a person typing them waits less)."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from dealer.app.cli import COMMAND_MODULES, build_parser, command_module
from tests.dealer.cli_limits import ROOT, child_env

HEAVY = ("cv2", "numpy", "reportlab", "onnxruntime")


@pytest.mark.parametrize(("argv", "module"), [
    (["rules", "check", "card.red"], "rules"),
    (["print-kit", "--out", "kit.pdf"], "print_kit"),
    (["verify", "rec"], "review"),
    (["reveal", "rec"], "review"),
    (["--version"], None),
    ([], None),
    (["-h"], None),
    (["bogus", "play"], None),  # an unknown command: every module, so the error names them all
    (["--help", "judge"], "judge"),
])
def test_the_module_of_the_command_named_is_found(argv: list[str], module: str | None) -> None:
    assert command_module(argv) == module


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


def test_one_command_parses_as_it_does_among_all() -> None:
    every = _commands(build_parser())
    for name in COMMAND_MODULES:
        alone = _commands(build_parser(name))
        assert alone
        for command in alone:
            assert alone[command].format_help() == every[command].format_help(), command


_IMPORTED = """
import sys
from dealer.app.cli import main
code = main(sys.argv[1:])
print(code, " ".join(m for m in {heavy!r} if m in sys.modules))
"""


@pytest.mark.parametrize("argv", [["rules", "check", "card.red"], ["judge", "examples/demo-round.eleusis"]])
def test_a_command_without_images_starts_without_the_image_libraries(argv: list[str]) -> None:
    child = subprocess.run([sys.executable, "-c", _IMPORTED.format(heavy=HEAVY), *argv], cwd=ROOT, env=child_env(),
                           capture_output=True, text=True, timeout=120)
    code, _, loaded = child.stdout.strip().splitlines()[-1].partition(" ")
    assert code == "0", child.stderr[-2000:]
    assert loaded == "", f"{' '.join(argv)} imported {loaded}"


def test_every_command_is_listed_when_none_is_named() -> None:
    listed = build_parser().format_help()
    for command in ("play", "game", "judge", "guess", "rules", "read", "calibrate", "print-kit", "review", "verify",
                    "reveal"):
        assert f"    {command}" in listed, command
