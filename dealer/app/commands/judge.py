"""`eleusis judge FILE [--json] [--say]`: judge a game record.

Prints each turn's verdict and the result in words, or one JSON object with ``--json``.
A record that breaks the rules exits with status 2 and a message ``line N: ...``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from dealer.speech.i18n import LANGUAGES, _
from dealer.app.inputs import InputError, read_text_file
from dealer.speech.variant_words import judgement_sentences
from engine.errors import RecordError
from engine.judging import Judgement, judge_text, judgement_json
from engine.rules import resolve_rule
from engine.variants import VARIANT_NAMES

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "judge",
        help="judge a game record: each verdict and the scores",
        description="Judge a game record (see docs/record-format.md): print each turn's verdict "
        "and the result in words, or as JSON.",
    )
    parser.add_argument("file", type=Path, help="a game record, e.g. examples/demo-round.eleusis ('-' reads stdin)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of sentences")
    parser.add_argument("--say", action="store_true", help="say the verdicts aloud (printed as well)")
    parser.add_argument("--wav-dir", type=Path, default=None, help="with --say: keep the spoken sentences as WAV files here")
    parser.add_argument("--reveal", action="store_true", help="print the rule after the result (G6)")
    parser.add_argument("--lang", choices=LANGUAGES, default=None,
                        help="the sentences' language: en, ru or pt (default: the system locale, then English)")
    parser.add_argument("--layout", action="store_true", help="print the table at the end: main line and branches (P5)")
    parser.add_argument("--variant", choices=VARIANT_NAMES, default=None,
                        help="the variant of a record without a 'variant:' header (default: howell); a record "
                        "whose header names another is refused (docs/rules-variants.md)")
    parser.set_defaults(run=run)


def _read(path: Path) -> str:
    return read_text_file(path, "the game record")


def _sentences(judgement: Judgement, reveal: bool) -> list[tuple[int | None, str]]:
    from dealer.table.session import rule_in_words

    out: list[tuple[int | None, str]] = [(number or None, sentence) for number, sentence in judgement_sentences(judgement)]
    if reveal:
        out.append((None, rule_in_words(judgement.record.start.rule)))  # G6: a library rule by its words
    return out


def run(args: argparse.Namespace) -> int:
    try:
        text = _read(args.file)
    except InputError as exc:
        print(f"eleusis judge: {exc}", file=sys.stderr)
        return 2
    try:
        judgement = judge_text(text, resolve_rule, args.variant or "howell")
    except RecordError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    variant = judgement.record.start.variant
    if args.variant is not None and variant != args.variant:
        line = judgement.record.header_line("variant")
        print(_("line {line}: the record is of the variant {found}, not {variant} (--variant)",
                line=line, found=variant, variant=args.variant), file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(judgement_json(judgement), ensure_ascii=False))
        return 0
    sentences = _sentences(judgement, args.reveal)
    if not args.say:
        for number, sentence in sentences:
            print(_("line {line}: {sentence}", line=number, sentence=sentence) if number is not None else sentence)
        if args.layout:
            print(judgement.round.layout.describe())
        return 0
    from dealer.speech.voice import VoiceError, open_voice

    try:
        voice, how = open_voice("auto", keep_dir=args.wav_dir)
    except VoiceError as exc:  # pragma: no cover - 'auto' falls back to text
        print(f"eleusis judge: {exc}", file=sys.stderr)
        return 2
    print(how, file=sys.stderr)
    try:
        for _number, sentence in sentences:
            voice.say(sentence)
    finally:
        voice.close()
    return 0
