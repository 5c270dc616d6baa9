"""The options `eleusis play` and `eleusis game` share, spelled once so both take them alike:
the cards dealt, the table profile, the view's window, the language and the voice."""

from __future__ import annotations

import argparse
from pathlib import Path

from dealer.i18n import LANGUAGES
from dealer.inputs import hand_size, settle_seconds
from dealer.table_protocol import SETTLE_S

__all__ = ["add_table_options"]


def add_table_options(parser: argparse.ArgumentParser) -> None:
    """Add --hand, --settle, --profile, --window, --fullscreen, --lang, --voice and --wav-dir."""
    parser.add_argument("--hand", type=hand_size, default=None, help="cards dealt to each player (C3, default 14)")
    parser.add_argument("--settle", type=settle_seconds, default=SETTLE_S, metavar="SECONDS",
                        help="how long cards must lie still, with no hand over them, before they are "
                        f"judged (default {SETTLE_S:g})")
    parser.add_argument("--profile", type=Path, default=None, help="table profile from `eleusis calibrate table`")
    parser.add_argument("--window", action=argparse.BooleanOptionalAction, default=None,
                        help="show the view of the table in a window (default: when there is a display)")
    parser.add_argument("--fullscreen", action="store_true", help="the view of the table fills the screen")
    parser.add_argument("--lang", choices=LANGUAGES, default=None,
                        help="the dealer's language: en, ru or pt (default: the system locale, then English)")
    parser.add_argument("--voice", choices=("auto", "speech", "text"), default="auto",
                        help="auto: speak when possible and print always (default)")
    parser.add_argument("--wav-dir", type=Path, default=None, help="keep every spoken sentence as a WAV file here")
