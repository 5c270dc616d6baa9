"""The players' guesses kept with a recording: ``guesses.jsonl`` in the round's folder.

The hash-chained log (``round.jsonl``) is closed by the reveal and vouched for by the log hash
shown at the table, so guesses never go into it: they go into a file of their own, which the
chain check (dealer/record/verify.py) does not read. Like the log, it is a versioned header line
and then one JSON line per guess, each flushed (and fsynced) as it is written:

    {"eleusis_guesses": 1, "log_hash": "5d0c..."}
    {"at": "2026-12-03T12:30:00Z", "guess": "card.black", "agrees": false, "clash": {...}, ...}

The header's ``log_hash`` is the log the guesses were judged against. Guesses are kept only
after the reveal (G6): a judgement ("it is not the rule: after the seven of hearts ...") gives
the rule away, so before it :func:`append_guesses` refuses and writes nothing. The judgement
is kept as values (:func:`answer_json`), and said in the reader's language when read back.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dealer.record.guesses import GuessAnswer, describe_guess
from dealer.record.recording import LoadError, RuleRevealed, folder_lock, load_recording, log_hash
from dealer.speech.i18n import _
from engine.cards import Card
from engine.guesses import GuessJudgement, VerdictClash
from engine.rules.equivalence import Comparison, Counterexample

__all__ = ["GUESSES_FILE", "GUESSES_VERSION", "NotRevealed", "StoredGuess", "answer_json", "append_guesses",
           "guesses_with_log_hash", "load_guesses"]

GUESSES_FILE = "guesses.jsonl"
GUESSES_VERSION = 1
HEADER_KEY = "eleusis_guesses"
MAX_GUESSES_BYTES = 16 * 1024 * 1024


class NotRevealed(ValueError):
    """The round's rule is still sealed: a judged guess would give it away."""

    def __init__(self, folder: Path) -> None:
        super().__init__(_("{folder}: the rule is still sealed; guesses are judged and kept after the reveal "
                           "(G6), since a judgement would give the rule away", folder=folder))


@dataclass(frozen=True, slots=True)
class StoredGuess:
    """One kept guess: when, its text, and its judgement (or why it could not be read)."""

    at: str
    guess: str
    judged: GuessJudgement | None
    error: str | None = None

    def sentences(self) -> list[str]:
        """The judgement in the reader's language."""
        if self.judged is None:
            return [_("Your guess cannot be read: {error}", error=self.error)]
        return describe_guess(self.judged)


def answer_json(guess: str, judged: GuessJudgement | None, error: str | None) -> dict[str, Any]:
    """A judged guess as JSON values (``eleusis guess --json`` and ``guesses.jsonl``)."""
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


def append_guesses(folder: Path, answers: list[GuessAnswer]) -> Path:
    """Keep judged guesses with the recording in ``folder``, after its reveal only
    (:class:`NotRevealed` before it, and nothing is written). Holds the recording's lock."""
    folder = Path(folder)
    with folder_lock(folder):
        rec = load_recording(folder)
        if not rec.of_type(RuleRevealed):
            raise NotRevealed(folder)
        path = folder / GUESSES_FILE
        if path.exists():
            _read(path)  # never append to a file that is not a guesses file
        at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        lines = [] if path.exists() else [json.dumps({HEADER_KEY: GUESSES_VERSION, "log_hash": log_hash(folder)})]
        lines += [json.dumps({"at": at, **answer_json(a.guess, a.judged, a.error)}, ensure_ascii=False)
                  for a in answers]
        with path.open("a", encoding="utf-8") as f:
            for line in lines:
                f.write(line + "\n")
                f.flush()
                os.fsync(f.fileno())
    return path


def _field(data: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise LoadError(f"{where}: {key!r} is missing or of the wrong type")
    return value


def _cards(values: Any, where: str) -> tuple[Card, ...]:
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise LoadError(f"{where}: cards must be a list of card codes")
    try:
        return tuple(Card.parse(v) for v in values)
    except ValueError as exc:
        raise LoadError(f"{where}: {exc}") from None


def _stored(data: Any, where: str) -> StoredGuess:
    if not isinstance(data, dict):
        raise LoadError(f"{where}: a guess line must be a JSON object")
    at, guess = _field(data, "at", str, where), _field(data, "guess", str, where)
    if "error" in data:
        return StoredGuess(at, guess, None, str(_field(data, "error", str, where)))
    clash_data = data.get("clash")
    clash = None
    if clash_data is not None:
        if not isinstance(clash_data, dict):
            raise LoadError(f"{where}: 'clash' must be an object or null")
        clash = VerdictClash(_field(clash_data, "line", int, where), _field(clash_data, "player", str, where),
                             _cards(clash_data.get("cards"), where), _field(clash_data, "happened", bool, where),
                             _field(clash_data, "guess_says", bool, where), _field(clash_data, "kind", str, where))
    example_data = data.get("counterexample")
    example = None
    if example_data is not None:
        if not isinstance(example_data, dict):
            raise LoadError(f"{where}: 'counterexample' must be an object or null")
        (card,) = _cards([_field(example_data, "card", str, where)], where)
        example = Counterexample(_cards(example_data.get("line"), where), card,
                                 _field(example_data, "guess_allows", bool, where))
    comparison = Comparison(_field(data, "same", bool, where), _field(data, "exact", bool, where),
                            _field(data, "complete_length", int, where), example)
    return StoredGuess(at, guess, GuessJudgement(guess, clash, comparison))


def _read(path: Path) -> tuple[str, list[StoredGuess]]:
    try:
        if path.stat().st_size > MAX_GUESSES_BYTES:
            raise LoadError(f"{path}: too large for a guesses file (at most {MAX_GUESSES_BYTES} bytes)")
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise LoadError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise LoadError(f"{path}: not UTF-8 text at byte {exc.start}") from None
    stored: list[StoredGuess] = []
    header = False
    judged_against = ""
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        where = f"{path}: line {number}"
        try:
            data = json.loads(line)
        except (ValueError, RecursionError):
            raise LoadError(f"{where}: not JSON") from None
        if not header:
            if not isinstance(data, dict) or data.get(HEADER_KEY) != GUESSES_VERSION:
                raise LoadError(f"{where}: not a version {GUESSES_VERSION} guesses file "
                                f"(the header needs {HEADER_KEY!r}: {GUESSES_VERSION})")
            header, judged_against = True, str(data.get("log_hash", ""))
            continue
        stored.append(_stored(data, where))
    if not header:
        raise LoadError(f"{path}: empty file, no guesses header")
    return judged_against, stored


def load_guesses(folder: Path) -> list[StoredGuess]:
    """The guesses kept in ``folder`` (none when it has no guesses file); :class:`LoadError`
    names the file, the line and what is wrong."""
    return guesses_with_log_hash(folder)[1]


def guesses_with_log_hash(folder: Path) -> tuple[str, list[StoredGuess]]:
    """The log hash the kept guesses were judged against (its header; "" without a file), and the guesses."""
    path = Path(folder) / GUESSES_FILE
    return _read(path) if path.exists() else ("", [])
