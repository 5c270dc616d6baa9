"""A seal players can hold (R2, G6): the commitment before the deal and the log hash after the
round, each printed in full and as a QR code (segno) for the terminal and the recording.

A player photographs both; later ``eleusis review RECORDING --seal HEX --log-hash HEX``
checks that a recording handed to them is the one made at the table (the log hash is
``sha256sum round.jsonl``) and that the revealed rule is the sealed one.
"""

from __future__ import annotations

import io
from pathlib import Path

from dealer.speech.i18n import _

__all__ = ["log_hash_block", "qr_modules", "qr_terminal", "save_qr", "seal_block", "seal_lines"]


def qr_terminal(data: str) -> str:
    """``data`` as a QR code drawn with block characters (two modules a line), or a note
    saying how to get one when segno is missing."""
    try:
        import segno
    except ImportError:
        return "(no QR code: pip install segno)"
    out = io.StringIO()
    segno.make(data, error="m").terminal(out=out, compact=True)
    return out.getvalue().rstrip("\n")


def qr_modules(data: str, border: int = 2) -> list[list[bool]] | None:
    """``data`` as a QR code's modules, rows of True for dark, with a light ``border``;
    None when segno is missing (a view draws them at any size)."""
    try:
        import segno
    except ImportError:
        return None
    rows = [[bool(v) for v in row] for row in segno.make(data, error="m").matrix]
    width = len(rows[0]) + 2 * border
    blank = [[False] * width for _ in range(border)]
    return blank + [[False] * border + row + [False] * border for row in rows] + [list(r) for r in blank]


def seal_lines(commitment: str, per_line: int = 16) -> list[str]:
    """The whole seal as players copy it: ``sha256:`` then the 64 digits in groups of four,
    ``per_line`` digits a line (never cut short: verify takes all 64).

    >>> seal_lines("0123456789abcdef" * 4)
    ['sha256:', '0123 4567 89ab cdef', '0123 4567 89ab cdef', '0123 4567 89ab cdef', '0123 4567 89ab cdef']
    """
    rows = [commitment[i:i + per_line] for i in range(0, len(commitment), per_line)]
    return ["sha256:"] + [" ".join(row[j:j + 4] for j in range(0, len(row), 4)) for row in rows]


def save_qr(data: str, path: Path) -> Path | None:
    """``data`` as a QR code PNG at ``path``; None when segno is missing."""
    try:
        import segno
    except ImportError:
        return None
    segno.make(data, error="m").save(str(path), scale=8, border=4)
    return path


def seal_block(commitment: str) -> str:
    """What the terminal shows before the deal: the full seal and its QR code (R2)."""
    value = f"sha256:{commitment}"
    return (_("The seal of the secret rule (photograph it before the deal):") + f"\n  {value}\n"
            f"{qr_terminal(value)}")


def log_hash_block(digest: str, folder: Path) -> str:
    """What the terminal shows at the end: the hash of the whole log and its QR code."""
    value = f"sha256:{digest}"
    return (_("The hash of this round's log (photograph it; `sha256sum {log}` gives it, and\n"
              "`eleusis review {folder} --seal SEAL --log-hash HASH` checks a recording against both):",
              log=f"{folder}/round.jsonl", folder=folder) + f"\n  {value}\n{qr_terminal(value)}")
