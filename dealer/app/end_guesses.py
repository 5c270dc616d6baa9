"""The players' guesses at the end of `eleusis play`: typed at the prompt (a terminal) or
given as ``--guess RULE``, judged against the round just dealt (GS1-GS3), said by the
dealer and kept with the recording in guesses.jsonl (dealer/record/guess_log.py), where
the review page shows them.

Guesses are judged only once the rule is revealed (G6): a judgement gives the rule away.
A round that stopped before its reveal (Ctrl-C, a lost camera) keeps its guesses for
`eleusis guess FOLDER RULE` after `--resume`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from dealer.record.guess_log import append_guesses
from dealer.record.guesses import answer_guesses, describe_guess
from dealer.record.recording import RECORD_FILE, LoadError, RuleRevealed, load_recording
from dealer.speech.i18n import _
from dealer.speech.voice import Voice
from engine.errors import RecordError
from engine.judging import judge_text
from engine.rules import resolve_rule

__all__ = ["MAX_PROMPTED", "ask_guesses", "judge_guesses_at_end"]

MAX_PROMPTED = 16  # guesses read at the prompt, at most: a table of 8 guesses twice


def ask_guesses(read_line: Callable[[], str] = input) -> list[str]:
    """The guesses typed at the prompt, one a line, until an empty line (or end of input)."""
    print(_("Your guesses of the rule, one a line in the rule language or a library id "
            "(an empty line ends):"), file=sys.stderr)
    guesses: list[str] = []
    while len(guesses) < MAX_PROMPTED:
        try:
            line = read_line().strip()
        except EOFError:
            break
        if not line:
            break
        guesses.append(line)
    return guesses


def judge_guesses_at_end(guesses: Sequence[str], voice: Voice, *, record: Path | None = None,
                         folder: Path | None = None) -> int:
    """Judge ``guesses`` against the game record ``record`` (by default the recording
    ``folder``'s) and say each answer; with a ``folder``, keep them in its guesses.jsonl.
    Exit 0 when every guess was judged, 2 when a guess does not parse or the round cannot
    be judged (what was wrong is said)."""
    if not guesses:
        return 0
    if record is None:
        if folder is None:
            raise ValueError("judge_guesses_at_end needs the game record or the recording folder")
        record = folder / RECORD_FILE
    if folder is not None and not _revealed(folder):
        print(_("eleusis play: the round stopped before its rule was revealed: its guesses are judged "
                "with `eleusis guess {folder} RULE` once the round is over (G6)", folder=folder), file=sys.stderr)
        return 2
    try:
        judgement = judge_text(record.read_text(encoding="utf-8"), resolve_rule)
    except (OSError, UnicodeDecodeError, RecordError) as exc:
        print(_("eleusis play: the guesses cannot be judged: {record}: {error}", record=record, error=exc),
              file=sys.stderr)
        return 2
    answers = answer_guesses(judgement, list(guesses))
    for answer in answers:
        voice.say(_("Guess: {rule}", rule=answer.guess))
        if answer.judged is None:
            voice.say(_("Your guess cannot be read: {error}", error=answer.error))
            continue
        for sentence in describe_guess(answer.judged):
            voice.say(sentence)
    if folder is not None:
        try:
            kept = append_guesses(folder, answers)
        except (ValueError, OSError) as exc:  # a recording another process holds, a file not ours
            print(f"eleusis play: {exc}", file=sys.stderr)
            return 2
        print(_("Kept with the recording: {path}", path=kept), file=sys.stderr)
    return 2 if any(a.judged is None for a in answers) else 0


def _revealed(folder: Path) -> bool:
    if not (folder / RECORD_FILE).exists():
        return False
    try:
        return bool(load_recording(folder).of_type(RuleRevealed))
    except LoadError:
        return False
