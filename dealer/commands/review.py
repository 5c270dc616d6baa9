"""`eleusis review RECORDING [--html OUT]`: each verdict with its frame, reading and reason."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "review",
        help="review a recorded round: frames, readings, verdicts and (after the reveal) why",
        description="Review a round recorded by `eleusis play`: for every verdict the frame it was "
        "judged on, what the camera read, and why, once the rule has been revealed.",
    )
    parser.add_argument("recording", type=Path, help="the recording folder (holds round.jsonl)")
    parser.add_argument("--html", type=Path, default=None,
                        help="also write a page with the frames (default: RECORDING/review.html)")
    parser.add_argument("--no-html", action="store_true", help="print the text review only")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from dealer.recording import LoadError
    from dealer.review import build_review, review_html, review_text

    try:
        review = build_review(args.recording)
    except LoadError as exc:
        print(f"eleusis review: {exc}", file=sys.stderr)
        return 2
    print(review_text(review))
    if not args.no_html:
        out = args.html or (review.folder / "review.html")
        try:
            review_html(review, out)
        except OSError as exc:
            print(f"eleusis review: cannot write {out}: {exc}", file=sys.stderr)
            return 2
        print(f"page: {out}")
    return 0
