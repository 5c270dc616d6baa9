"""`eleusis review RECORDING`: verify a recorded round, then each verdict with its frame,
reading and reason; `--fix TURN:READ=REAL` replays it with a corrected reading (what if).
`eleusis verify RECORDING --seal HEX --log-hash HEX`: the verification alone.
`eleusis reveal RECORDING`: the rule of a round stopped for good, from its envelope, then verified.

Exit 0: everything verifies; 1: something does not (each broken place is named);
2: the recording cannot be read at all, or a bad option (a malformed --seal or --log-hash);
3 (`verify` only): the chain is consistent but NOT anchored, since no --log-hash from the
table was given, and a log forged anew with every hash recomputed would pass as well.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dealer.speech.i18n import LANGUAGES, _

if TYPE_CHECKING:
    from dealer.record.recording import Recording
    from dealer.record.review import RoundReview

__all__ = ["NOT_ANCHORED", "register", "run", "run_verify"]

NOT_ANCHORED = 3  # `verify`'s exit when the chain holds but no log hash from the table was given
_SEAL_HELP = "the seal shown at the table before the deal (sha256:... or 64 hex digits)"
_HASH_HELP = "the log hash shown at the table after the round (sha256:... or 64 hex digits)"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "review",
        help="verify a recorded round and review it: frames, readings, verdicts and (after the reveal) why",
        description="Verify a round recorded by `eleusis play` (the hash chain, the frames, the seal, the "
        "game record replayed by the engine), then show for every verdict the frame it was judged on, what "
        "the camera read, and why, once the rule has been revealed. Exit 0 when it verifies, 1 when not.",
    )
    _add_recording_checks(parser, "the review's language")
    parser.add_argument("--fix", action="append", default=[], metavar="TURN:READ=REAL",
                        help="what if: on turn TURN the card read as READ was really REAL (e.g. 3:QC=QD); "
                        "replays the round and says what would change; the recording is not touched")
    parser.add_argument("--html", type=Path, default=None,
                        help="also write a page with the frames (default: RECORDING/review.html)")
    parser.add_argument("--no-html", action="store_true", help="print the text review only")
    parser.set_defaults(run=run)
    verifying = subparsers.add_parser(
        "verify",
        help="check that a recording is the one made at the table (seal and log hash shown there)",
        description="Check a recording against the seal and the log hash shown at the table: exit 0 when "
        "it is the recording made there and the revealed rule is the sealed one, 1 when not, 2 when it "
        "cannot be read or a seal or log hash is malformed, 3 when the chain is consistent but no log "
        "hash from the table was given (not anchored: a forged log would pass too).",
    )
    _add_recording_checks(verifying, "the language")
    verifying.set_defaults(run=run_verify)
    revealing = subparsers.add_parser(
        "reveal",
        help="reveal the rule of a round that was stopped and will not go on (on the machine that dealt it)",
        description="Open the sealed envelope of a round that stopped before its end (R2, G6): the rule and "
        "nonce are added to the log, the game record is rewritten with the rule, the round is scored as it "
        "stands, and the new log hash is shown. Only where the round was dealt (the key stays there).",
    )
    revealing.add_argument("recording", type=Path, help="the recording folder (holds round.jsonl)")
    revealing.set_defaults(run=run_reveal)


def _add_recording_checks(parser: argparse.ArgumentParser, language: str) -> None:
    """The recording and what the table showed of it (review and verify take them alike)."""
    parser.add_argument("recording", type=Path, help="the recording folder (holds round.jsonl)")
    parser.add_argument("--seal", default=None, help=_SEAL_HELP)
    parser.add_argument("--log-hash", default=None, help=_HASH_HELP)
    parser.add_argument("--lang", choices=LANGUAGES, default=None,
                        help=f"{language}: en, ru or pt (default: the one the round was dealt in, else the "
                        "system locale, then English)")


def _load(args: argparse.Namespace, command: str) -> RoundReview | None:
    from dealer.speech.i18n import set_language
    from dealer.record.recording import LoadError, load_recording
    from dealer.record.review import build_review
    from dealer.record.verify import AnchorError, read_anchor

    try:
        for value, option in ((args.seal, "--seal"), (args.log_hash, "--log-hash")):
            if value is not None:
                read_anchor(value, option)  # malformed is said as such, before anything is compared
    except AnchorError as exc:
        print(f"eleusis {command}: {exc}", file=sys.stderr)
        return None

    try:
        recording = load_recording(args.recording)
        if command == "review" and _catch_up(recording):
            recording = load_recording(args.recording)
        if args.lang is None and recording.header.get("lang") in LANGUAGES:
            set_language(recording.header["lang"])  # the language the round was dealt in
        return build_review(args.recording, seal=args.seal, log_hash=args.log_hash, recording=recording)
    except LoadError as exc:
        print(f"eleusis {command}: {exc}", file=sys.stderr)
        return None


def _catch_up(recording: Recording) -> bool:
    """Finish what a kill just after the reveal left undone (dealer/record/verify.py:
    catch_up_record), and say what was done."""
    from dealer.record.verify import catch_up_record

    done = catch_up_record(recording)
    if done.cut_line_dropped:
        print(_("{log}: its last line was cut short by a stop after the reveal: dropped",
                log=recording.folder / "round.jsonl"), file=sys.stderr)
    if done.record_rewritten:
        print(_("{record} was behind the log (the dealer stopped before rewriting it): rewritten from the log",
                record=recording.folder / "round.eleusis"), file=sys.stderr)
    return bool(done)


def run_verify(args: argparse.Namespace) -> int:
    from dealer.record.review import verdict_line

    review = _load(args, "verify")
    if review is None:
        return 2
    print(f"{review.folder}: {review.seal_status}")
    for note in review.notes:
        print(_("note: {note}", note=note))
    if review.verified and not review.anchored:
        # the chain has no secret: without the log hash from the table, anyone can recompute it
        print(_("chain consistent, the seal matches the table, but NOT anchored: give --log-hash from the table")
              if review.seal_given else _("chain consistent, NOT anchored: give --seal and --log-hash from the table"))
        return NOT_ANCHORED
    print(verdict_line(review))
    for problem in review.problems:
        print("  " + _("BROKEN {problem}", problem=problem))
    return 0 if review.verified else 1


def run(args: argparse.Namespace) -> int:
    from dealer.record.review import review_html, review_text

    fixes = []
    if args.fix:
        from dealer.record.whatif import FixError, parse_fix

        try:
            fixes = [parse_fix(text) for text in args.fix]
        except FixError as exc:
            print(f"eleusis review: {exc}", file=sys.stderr)
            return 2
    review = _load(args, "review")
    if review is None:
        return 2
    print(review_text(review))
    if fixes:
        from dealer.record.recording import load_recording
        from dealer.record.whatif import what_if

        try:
            changes = what_if(load_recording(review.folder), fixes)
        except FixError as exc:
            print(f"eleusis review: {exc}", file=sys.stderr)
            return 2
        print(_("What if {fixes} (the recording is not changed):", fixes=", ".join(args.fix)))
        print("\n".join(f"  {line}" for line in changes))
    if not args.no_html and not fixes:
        out = args.html or (review.folder / "review.html")
        try:
            review_html(review, out)
        except OSError as exc:
            print(_("eleusis review: cannot write {path}: {error}", path=out, error=exc), file=sys.stderr)
            return 2
        print(_("page: {path}", path=out))
    return 0 if review.verified else 1


def run_reveal(args: argparse.Namespace) -> int:
    """Reveal an interrupted round's rule from its envelope (dealer/record/envelope.py), then verify."""
    from dealer.record.envelope import EnvelopeError
    from dealer.app.live import show_log_hash
    from dealer.speech.variant_words import describe_variant_result
    from engine.variants.abbott import AbbottRound
    from dealer.record.recording import (
        LoadError,
        RecordingBusy,
        RecordingWriter,
        RuleRevealed,
        Said,
        load_recording,
        open_envelope,
        write_record,
    )
    from dealer.table.session import rule_in_words
    from dealer.record.verify import rebuild

    try:
        rec = load_recording(args.recording)
        if rec.of_type(RuleRevealed):
            if not _catch_up(rec):  # a crash just after the reveal left the record behind: finished now
                raise LoadError(f"{rec.folder}: the rule is already revealed in the log")
            return _verified(rec.folder, show_log_hash)
        rule, nonce = open_envelope(rec.folder)
    except (LoadError, EnvelopeError) as exc:
        print(f"eleusis reveal: {exc}", file=sys.stderr)
        return 2
    rebuilt = rebuild(rec, rule, None, [])
    t = rec.events[-1].t if rec.events else 0.0
    rnd = rebuilt.round
    said = [] if rnd is None else [describe_variant_result(
        rnd.result(), rnd.start.variant, rnd.first_scoring if isinstance(rnd, AbbottRound) else None)]
    try:
        writer = RecordingWriter.resume(rec.folder)  # one writer: refused while a dealer records here
    except (RecordingBusy, OSError) as exc:
        print(f"eleusis reveal: {exc}", file=sys.stderr)
        return 2
    with writer:  # as the session ends a round (G2-G6)
        for text in said:
            writer.write(Said(t=t, text=text))
        writer.reveal(t, rule, nonce)
        said.append(rule_in_words(rule))
        writer.write(Said(t=t, text=said[-1]))
    if rebuilt.record_text is not None:
        write_record(rec.folder, rebuilt.record_text)
    print("\n".join(said))
    return _verified(rec.folder, show_log_hash)


def _verified(folder: Path, show_log_hash: Callable[[Path], None]) -> int:
    """After a reveal: the new log hash, then the verification (exit 0 or 1)."""
    from dealer.record.review import build_review, verdict_line

    show_log_hash(folder)
    review = build_review(folder)
    print(verdict_line(review))
    for problem in review.problems:
        print("  " + _("BROKEN {problem}", problem=problem))
    return 0 if review.verified else 1
