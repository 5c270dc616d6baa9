"""The `eleusis` command line.

Each subcommand lives in its own module under ``dealer/app/commands/`` and exposes
``register(subparsers)``. A command line that names its command imports only that
command's module, so a command's heavy imports (cv2, onnxruntime, reportlab) stay out of
the others: `eleusis rules check` starts in a quarter of the time that importing every
command takes. With no command, or one that is not known, all are imported (the help
and the list of choices name every command).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import signal
import sys
import tomllib
from collections.abc import Sequence
from pathlib import Path

DISTRIBUTION = "eleusis-dealer"
PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"

# (module under dealer.app.commands, what it adds): order is the order of `eleusis --help`.
COMMAND_MODULES = (
    "play",
    "game",
    "judge",
    "guess",
    "rules",
    "read",
    "calibrate",
    "print_kit",
    "review",
)
# commands whose name is not their module's
COMMAND_MODULE_OF = {"print-kit": "print_kit", "verify": "review", "reveal": "review"}


def command_module(argv: Sequence[str]) -> str | None:
    """The module of the command ``argv`` names, or None (no command, or none known). The
    top-level options (-h, --version) take no value: the first other word is the command."""
    word = next((a for a in argv if not a.startswith("-")), None)
    if word is None:
        return None
    module = COMMAND_MODULE_OF.get(word, word)
    return module if module in COMMAND_MODULES else None


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of the one in module ``only`` (the others unimported)."""
    parser = argparse.ArgumentParser(
        prog="eleusis",
        description="An automated dealer for Eleusis played with real cards on a real table.",
    )
    parser.add_argument("--version", action="version", version=f"eleusis {package_version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES if only is None else (only,):
        try:
            module = importlib.import_module(f"dealer.app.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"dealer.app.commands.{name}":
                continue  # not built yet
            raise
        module.register(subparsers)
    return parser


def package_version() -> str:
    """The installed package's version; from a checkout that was never installed, the one
    its pyproject.toml declares (the same number, read where it is written)."""
    try:
        return importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        with PYPROJECT.open("rb") as f:
            return str(tomllib.load(f)["project"]["version"])


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; bad input exits 2 with a message, Ctrl-C exits 130 with one
    (never a traceback: a person made a mistake, the program did not)."""
    from dealer.app.inputs import InputError, check_argv_text

    args_list = list(sys.argv[1:] if argv is None else argv)
    try:
        check_argv_text(args_list)
        parser = build_parser(command_module(args_list))
        args = parser.parse_args(args_list)
        if not getattr(args, "run", None):
            parser.print_help()
            return 2
        _set_language(args)
        code = args.run(args)
    except InputError as exc:
        print(f"eleusis: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\neleusis: stopped by Ctrl-C.", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `eleusis rules list | head`: the reader left, nothing to say
        _silence_stdout()
        return 0
    return int(code or 0)


def run() -> int:
    """The ``eleusis`` program: ``main`` on ``sys.argv``, then Ctrl-C is ignored while the
    interpreter exits. The command is done by then; without this, a Ctrl-C in the last
    moments (after Python has reset its own handler at exit) would end the process by
    the signal, exit status -2, instead of the command's own status."""
    code = main()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    forget_caught_ctrl_c()
    return code


def forget_caught_ctrl_c() -> None:
    """Make CPython forget a Ctrl-C that ``main`` caught. CPython notes a KeyboardInterrupt
    leaving any code compiled from a string (a dataclass's generated ``__init__`` while a
    module loads, a namedtuple), even one caught further up; run as ``python -m dealer``,
    it then kills itself with SIGINT at exit (status -2), whatever status was asked.
    Running such code to its end clears the note."""
    exec("")  # an empty string, run for its side effect on the interpreter


def _set_language(args: argparse.Namespace) -> None:
    """A command with ``--lang`` speaks it; otherwise the system locale's, then English."""
    from dealer.speech.i18n import resolve_language, set_language

    set_language(resolve_language(getattr(args, "lang", None)))


def _silence_stdout() -> None:
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
