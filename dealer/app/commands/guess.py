"""`eleusis guess RECORD RULE...`: the players' guesses judged.

RECORD is a game record, or a round folder (its round.eleusis) once the rule is revealed
(G6). For each guess, in the rule language or a library id: whether it agrees with every
verdict of the round, whether it is the sealed rule over every line that could have been
played, and where it differs, the shortest counterexample said as cards. On a recording
folder the guesses and their judgements are kept in its guesses.jsonl
(dealer/record/guess_log.py); before the reveal they are refused. ``--json`` gives
the structured answers. Exit 0 when every guess was judged, 2 when the record cannot be
read or judged or a guess does not parse.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from dealer.record.guess_log import NotRevealed, answer_json, append_guesses
from dealer.record.guesses import answer_guesses, describe_guess
from dealer.record.recording import EVENTS_FILE, LoadError, RuleRevealed, load_recording
from dealer.speech.i18n import LANGUAGES, _
from dealer.app.inputs import InputError, read_text_file
from engine.errors import RecordError
from engine.judging import judge_text
from engine.rules import resolve_rule

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "guess", help="judge the players' guesses of the rule against a round and the sealed rule",
        description="Judge guesses of the rule: against every verdict of the round, and against the sealed "
        "rule over every line that could have been played (a shortest counterexample when they differ).")
    parser.add_argument("record", type=Path, help="a game record, or a round folder holding round.eleusis")
    parser.add_argument("guesses", nargs="+", metavar="RULE", help="a guess: rule text or a library id")
    parser.add_argument("--json", action="store_true", help="print the answers as JSON")
    parser.add_argument("--lang", choices=LANGUAGES, default=None,
                        help="the sentences' language: en, ru or pt (default: the system locale, then English)")
    parser.set_defaults(run=run)


def _sealed_refusal(folder: Path) -> str | None:
    """Why a recording folder's guesses cannot be judged yet (its rule still sealed), or None."""
    try:
        if not load_recording(folder).of_type(RuleRevealed):
            return str(NotRevealed(folder))
    except LoadError as exc:
        return str(exc)
    return None


def run(args: argparse.Namespace) -> int:
    path = args.record / "round.eleusis" if args.record.is_dir() else args.record
    recording = args.record.is_dir() and (args.record / EVENTS_FILE).exists()
    if recording and (refusal := _sealed_refusal(args.record)) is not None:
        print(f"eleusis guess: {refusal}", file=sys.stderr)
        return 2
    try:
        judgement = judge_text(read_text_file(path, "the game record"), resolve_rule)
    except InputError as exc:
        print(f"eleusis guess: {exc}", file=sys.stderr)
        return 2
    except RecordError as exc:
        print(f"eleusis guess: {path}: {exc}", file=sys.stderr)
        return 2
    answers = answer_guesses(judgement, list(args.guesses))
    kept = None
    if recording:
        try:
            kept = append_guesses(args.record, answers)
        except (ValueError, OSError) as exc:  # NotRevealed, LoadError, RecordingBusy
            print(f"eleusis guess: {exc}", file=sys.stderr)
            return 2
    if args.json:
        print(json.dumps([answer_json(a.guess, a.judged, a.error) for a in answers], ensure_ascii=False))
    else:
        for answer in answers:
            print(_("Guess: {rule}", rule=answer.guess))
            if answer.judged is None:
                print("  " + _("Your guess cannot be read: {error}", error=answer.error))
                continue
            for sentence in describe_guess(answer.judged):
                print("  " + sentence)
    if kept is not None and not args.json:
        print(_("Kept with the recording: {path}", path=kept))
    return 2 if any(a.judged is None for a in answers) else 0
