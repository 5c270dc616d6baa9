"""The `eleusis` command line.

Each subcommand lives in its own module under ``dealer/commands/`` and exposes
``register(subparsers)``; the module is imported only when listed here, so a
command's heavy imports (cv2, onnxruntime) stay out of the others.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# (module under dealer.commands, what it adds): order is the order of `eleusis --help`.
COMMAND_MODULES = (
    "play",
    "game",
    "judge",
    "rules",
    "read",
    "calibrate",
    "print_kit",
    "review",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="eleusis",
        description="An automated dealer for Eleusis played with real cards on a real table.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"dealer.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"dealer.commands.{name}":
                continue  # not built yet
            raise
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    code = args.run(args)
    return int(code or 0)


if __name__ == "__main__":
    sys.exit(main())
