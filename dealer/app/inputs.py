"""Checks on what a person hands the command line: files, numbers, argument text.

Every check raises :class:`InputError` with a message that names the thing at fault and
where it is; the commands print it and exit 2. Nothing here reads more than it needs:
a file is refused by its size before it is read.

>>> hand_size("14")
14
>>> hand_size("0")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: must be a whole number from 1 to 156, got '0'
>>> round_count("1000000000000")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: must be a whole number of rounds, at most 100, got '1000000000000'
>>> pace_seconds("nan")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: must be a number of seconds from 0 to 60, got 'nan'
"""

from __future__ import annotations

import argparse
import math
import os
import stat
import sys
from collections.abc import Sequence
from pathlib import Path

__all__ = [
    "MAX_HAND",
    "MAX_PACE_S",
    "MAX_ROUNDS",
    "MAX_NAME",
    "InputError",
    "camera_source",
    "check_argv_text",
    "hand_size",
    "pace_seconds",
    "person_names",
    "player_names",
    "read_text_file",
    "round_count",
    "settle_seconds",
    "shorten",
    "video_file",
]

MAX_HAND = 156  # C1: the whole shoe; the deal check (C3) refuses what does not fit the players
MAX_PACE_S = 60.0
MAX_ROUNDS = 100  # G5: a game is a round per person (3 to 8, C2); 100 is an evening many times over
MAX_NAME = 24  # characters: a name is said aloud and shown on the view, beside the others
DEFAULT_TEXT_LIMIT = 2_000_000  # bytes: a game record, a layout or a profile is a few KB


class InputError(ValueError):
    """Something given on the command line that cannot be used; the message says what and where."""


def shorten(text: str, limit: int = 40) -> str:
    """``text`` quoted for a message, cut when long; an argument that was not UTF-8 is shown
    as the bytes it was."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        try:
            raw = text.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:  # a lone surrogate that never was a byte
            raw = text.encode("utf-8", "backslashreplace")
        return repr(raw) if len(raw) <= limit else f"{raw[:limit - 8]!r}... ({len(raw)} bytes)"
    return repr(text) if len(text) <= limit else f"{text[:limit - 8]!r}... ({len(text)} characters)"


def hand_size(text: str) -> int:
    """argparse type of ``--hand``: a whole number of cards from 1 to the shoe (C1, C3)."""
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 6 or not 1 <= int(digits) <= MAX_HAND:
        raise argparse.ArgumentTypeError(
            f"must be a whole number from 1 to {MAX_HAND}, got {shorten(text)}")
    return int(digits)


def round_count(text: str) -> int:
    """argparse type of ``game --rounds``: a whole number of rounds, at most MAX_ROUNDS, so that
    a slip of the keyboard is refused at once instead of dealing for ever (the game itself
    refuses fewer than 1, G5)."""
    digits = text.strip().removeprefix("-")
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 6 or int(text) > MAX_ROUNDS:
        raise argparse.ArgumentTypeError(
            f"must be a whole number of rounds, at most {MAX_ROUNDS}, got {shorten(text)}")
    return int(text)


def pace_seconds(text: str) -> float:
    """argparse type of ``--pace``: finite seconds from 0 to MAX_PACE_S."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or not 0.0 <= value <= MAX_PACE_S:
        raise argparse.ArgumentTypeError(
            f"must be a number of seconds from 0 to {MAX_PACE_S:g}, got {shorten(text)}")
    return value


def settle_seconds(text: str) -> float:
    """argparse type of ``--settle``: the same bounds as ``--pace``."""
    return pace_seconds(text)


def camera_source(text: str) -> int | str:
    """argparse type of ``--camera``: a device number or a stream URL (vision.frames.camera_from_text)."""
    from vision.frames import camera_from_text  # imported here: the checks above need no numpy

    try:
        return camera_from_text(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def person_names(text: str) -> str:
    """argparse type of ``--players`` in a game: one word a person, at most MAX_NAME
    characters, none twice, none of ``: # |`` (the record format's); returned one space
    apart. How many a round needs is the round's check (:func:`player_names`, C2).

    >>> person_names("Ana, Bo  Cy")
    'Ana Bo Cy'
    >>> person_names("  ")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: names no one: give the players one word each, e.g. 'Ana Bo Cy' (C2)
    """
    names = text.replace(",", " ").split()
    if not names:
        raise argparse.ArgumentTypeError("names no one: give the players one word each, e.g. 'Ana Bo Cy' (C2)")
    for k, name in enumerate(names, 1):
        if len(name) > MAX_NAME:
            raise argparse.ArgumentTypeError(
                f"name {k}, {shorten(name)}, is longer than {MAX_NAME} characters")
        bad = sorted(set(name) & set(":#|"))
        if bad:
            raise argparse.ArgumentTypeError(f"name {k}, {shorten(name)}, holds {bad[0]!r} (no ':', '#' or '|')")
    twice = [n for k, n in enumerate(names) if n in names[:k]]
    if twice:
        raise argparse.ArgumentTypeError(f"the player {twice[0]!r} sits twice")
    return " ".join(names)


def player_names(text: str) -> str:
    """argparse type of ``--players`` for one round: :func:`person_names`, 3 to 8 of them (C2).

    >>> player_names("Ana")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: 1 player: a round needs 3 to 8 (C2)
    """
    from engine.deal import MAX_PLAYERS, MIN_PLAYERS

    names = person_names(text).split()
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        count = "1 player" if len(names) == 1 else f"{len(names)} players"
        raise argparse.ArgumentTypeError(f"{count}: a round needs {MIN_PLAYERS} to {MAX_PLAYERS} (C2)")
    return " ".join(names)


def video_file(text: str) -> Path:
    """argparse type of ``--video``: a file that is there and can be read (a folder, a
    missing file or an unreadable one is named as such before anything is said)."""
    path = Path(text)
    label = f"the video {shorten(text, 400)}"
    if not text:
        raise argparse.ArgumentTypeError("an empty name is no video file")
    try:
        if path.is_dir():
            raise argparse.ArgumentTypeError(f"{label} is a directory, not a video file")
        if not path.exists():
            raise argparse.ArgumentTypeError(f"{label}: no such file")
        if not path.is_file():  # a FIFO or a device: opening it could wait for ever
            raise argparse.ArgumentTypeError(f"{label} is not a regular file")
        with path.open("rb") as f:
            f.read(1)
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"cannot read {label} ({exc.strerror or exc})") from None
    return path


def read_text_file(path: Path | str, what: str, limit: int = DEFAULT_TEXT_LIMIT) -> str:
    """The UTF-8 text of ``path`` (``-``: stdin); a leading byte-order mark is dropped.

    Raises InputError naming ``what`` and the path: missing, a directory, unreadable, larger
    than ``limit`` bytes, or not UTF-8 text (with the byte offset of the first bad byte).
    """
    name = str(path)
    label = f"{what} {shorten(name, 400)}" if name != "-" else f"{what} (standard input)"
    if name == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text stream put in place of stdin (tests, embedding)
            text = str(sys.stdin.read(limit + 1))
            if len(text) > limit:
                raise InputError(f"{label} is more than {limit} characters")
            return text.removeprefix("\ufeff")
        data = bytes(stream.read(limit + 1))
    else:
        p = Path(path)
        if p.is_dir():
            raise InputError(f"{label} is a directory, not a file")
        try:
            # O_NONBLOCK: opening a FIFO with no writer must not wait for ever; it is refused below
            fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK)
            with os.fdopen(fd, "rb") as f:
                info = os.fstat(f.fileno())
                if not stat.S_ISREG(info.st_mode):
                    raise InputError(f"{label} is {_kind(info.st_mode)}, not a regular file: save the text in a "
                                     "file, or pipe it to standard input (-)")
                os.set_blocking(f.fileno(), True)
                size = info.st_size
                if size > limit:
                    raise InputError(f"{label} is {size} bytes; at most {limit} are read")
                data = f.read(limit + 1)
        except FileNotFoundError:
            raise InputError(f"cannot read {label}: no such file") from None
        except OSError as exc:
            raise InputError(f"cannot read {label} ({exc.strerror or exc})") from None
    if len(data) > limit:
        raise InputError(f"{label} is more than {limit} bytes")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    elif data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise InputError(f"{label} is UTF-16 text; save it as UTF-8")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(f"{label} is not UTF-8 text (byte {exc.start}, line {line})") from None


def _kind(mode: int) -> str:
    """What a file that is not a regular file is, for a message."""
    if stat.S_ISFIFO(mode):
        return "a FIFO (a named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a plain file"


def check_argv_text(argv: Sequence[str]) -> None:
    """Refuse an argument that is not valid UTF-8 (Python keeps such bytes as lone
    surrogates), naming its position and the option it belongs to."""
    for i, arg in enumerate(argv):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            owner = argv[i - 1] if i > 0 and argv[i - 1].startswith("-") else None
            where = f"the value of {owner}" if owner else f"argument {i + 1}"
            if arg.startswith("--") and "=" in arg:
                where = f"the value of {arg.split('=', 1)[0]}"
            raise InputError(f"{where} is not valid UTF-8 text: {shorten(arg)}") from None
