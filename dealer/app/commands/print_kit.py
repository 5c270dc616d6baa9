"""`eleusis print-kit OUT.pdf [--paper a4|letter]`: the printable kit at true scale."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from calibration.kit import PAPER_SIZES_PT, write_kit_pdf


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "print-kit", help="write the printable kit (mat, tokens, board, protocol) as a PDF",
        description="Write the kit: the protocol sheet, the PLAY sheet with its markers, the tokens "
                    "(NO PLAY, PROPHET, ACCEPT, REJECT), the guide tiles, the ChArUco board and Kruskal's "
                    "TRUE/FALSE tokens for 8 seats. "
                    "Print it at 100 %% (actual size).")
    parser.add_argument("out", metavar="OUT.pdf", help="the PDF file to write")
    parser.add_argument("--paper", choices=sorted(PAPER_SIZES_PT), default="a4", help="paper size (default a4)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if out.suffix.lower() != ".pdf":
        print(f"eleusis print-kit: error: {args.out!r} should end in .pdf", file=sys.stderr)
        return 2
    if not out.parent.exists():
        print(f"eleusis print-kit: error: {args.out!r}: the folder {str(out.parent)!r} does not exist",
              file=sys.stderr)
        return 2
    try:
        pages = write_kit_pdf(out, args.paper)
    except OSError as exc:
        print(f"eleusis print-kit: error: cannot write {args.out!r}: {exc.strerror}", file=sys.stderr)
        return 2
    print(f"Kit written to {out} ({len(pages)} pages, {args.paper}):")
    for k, page in enumerate(pages, 1):
        print(f"  {k}. {page.title}")
    print("Print it at 100 % (actual size); the scale bars must measure 50 mm and 100 mm.")
    return 0
