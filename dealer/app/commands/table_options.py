"""The options `eleusis play` and `eleusis game` share, spelled once so both take them alike:
the secret rule, the cards dealt, the table and deck profiles, the view's window, the language and the
voice."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from dealer.speech.i18n import LANGUAGES
from dealer.app.inputs import InputError, hand_size, settle_seconds
from dealer.table.protocol import SETTLE_S
from engine.rules.library import TIERS

__all__ = ["add_secret_rule_options", "add_table_options", "deck_reader"]


def add_secret_rule_options(parser: argparse.ArgumentParser, of_what: str = "") -> None:
    """Add --rule '-', --rule-file FILE and --difficulty TIER: the secret rule ``of_what``
    (e.g. " of the rounds the machine deals"), read by dealer.record.secret_rule, never written on
    the command line itself (R1, R2)."""
    parser.add_argument("--rule", default=None, metavar="-",
                        help=f"'-': type the secret rule{of_what} unseen (or pipe it on standard input). A rule "
                        "written here is refused: it would show in the process list (R2). Default: the machine "
                        "draws one")
    parser.add_argument("--rule-file", type=Path, default=None, metavar="FILE",
                        help=f"the secret rule{of_what} (a library id or a rule text) in a file (R1)")
    parser.add_argument("--difficulty", choices=TIERS, default=None,
                        help="with no --rule: the machine draws a secret rule of this library tier (anew for "
                        "each round it deals); the difficulty is announced, the rule only at the reveal "
                        "(default: easy)")


def add_table_options(parser: argparse.ArgumentParser) -> None:
    """Add --hand, --settle, --profile, --deck, --window, --fullscreen, --lang, --voice and --wav-dir."""
    parser.add_argument("--hand", type=hand_size, default=None, help="cards dealt to each player (C3, default 14)")
    parser.add_argument("--settle", type=settle_seconds, default=SETTLE_S, metavar="SECONDS",
                        help="how long cards must lie still, with no hand over them, before they are "
                        f"judged (default {SETTLE_S:g})")
    parser.add_argument("--profile", type=Path, default=None, help="table profile from `eleusis calibrate table`")
    parser.add_argument("--deck", type=Path, default=None, metavar="PROFILE",
                        help="deck profile from `eleusis calibrate deck`: read only the enrolled decks")
    parser.add_argument("--window", action=argparse.BooleanOptionalAction, default=None,
                        help="show the view of the table in a window (default: when there is a display)")
    parser.add_argument("--fullscreen", action="store_true", help="the view of the table fills the screen")
    parser.add_argument("--lang", choices=LANGUAGES, default=None,
                        help="the dealer's language: en, ru or pt (default: the system locale, then English)")
    parser.add_argument("--voice", choices=("auto", "speech", "text"), default="auto",
                        help="auto: speak when possible and print always (default)")
    parser.add_argument("--wav-dir", type=Path, default=None, help="keep every spoken sentence as a WAV file here")


def deck_reader(deck: Path | None) -> Any:
    """The card reader of the decks enrolled in the profile ``deck`` (`--deck`), or None
    without one; raises :class:`~dealer.app.inputs.InputError` naming the profile when it cannot
    be used (not a profile, another model's, unreadable)."""
    if deck is None:
        return None
    from vision.deck_profile import profiled_reader
    from vision.errors import VisionError

    try:
        return profiled_reader(deck)
    except VisionError as exc:
        raise InputError(str(exc)) from None
