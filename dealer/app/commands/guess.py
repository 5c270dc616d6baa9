"""`eleusis guess RECORD RULE...`: the players' guesses judged (issue 30).

RECORD is a game record, or a round folder (its round.eleusis) once the rule is revealed
(G6). For each guess, in the rule language or a library id: whether it agrees with every
verdict of the round, whether it is the sealed rule over every line that could have been
played, and where it differs, the shortest counterexample said as cards. ``--json`` gives
the structured answers. Exit 0 when every guess was judged, 2 when the record cannot be
read or judged or a guess does not parse.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from dealer.record.guesses import answer_guesses, describe_guess
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


def _answer_json(guess: str, judged: Any, error: str | None) -> dict[str, Any]:
    if judged is None:
        return {"guess": guess, "error": error}
    clash, comparison = judged.clash, judged.comparison
    example = comparison.counterexample
    return {
        "guess": guess,
        "agrees": clash is None,
        "clash": None if clash is None else {
            "line": clash.line, "player": clash.player, "kind": clash.kind, "cards": [str(c) for c in clash.cards],
            "happened": clash.happened, "guess_says": clash.guess_says},
        "same": comparison.same,
        "exact": comparison.exact,
        "complete_length": comparison.complete_length,
        "counterexample": None if example is None else {
            "line": [str(c) for c in example.line], "card": str(example.card), "guess_allows": example.guess_allows},
    }


def run(args: argparse.Namespace) -> int:
    path = args.record / "round.eleusis" if args.record.is_dir() else args.record
    try:
        judgement = judge_text(read_text_file(path, "the game record"), resolve_rule)
    except InputError as exc:
        print(f"eleusis guess: {exc}", file=sys.stderr)
        return 2
    except RecordError as exc:
        print(f"eleusis guess: {path}: {exc}", file=sys.stderr)
        return 2
    answers = answer_guesses(judgement, list(args.guesses))
    if args.json:
        print(json.dumps([_answer_json(a.guess, a.judged, a.error) for a in answers], ensure_ascii=False))
    else:
        for answer in answers:
            print(_("Guess: {rule}", rule=answer.guess))
            if answer.judged is None:
                print("  " + _("Your guess cannot be read: {error}", error=answer.error))
                continue
            for sentence in describe_guess(answer.judged):
                print("  " + sentence)
    return 2 if any(a.judged is None for a in answers) else 0
