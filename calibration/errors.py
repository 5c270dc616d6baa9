"""Errors of the table and camera calibration: a small tree under ``ValueError``.

Every message quotes the bad input and says where it came from (a file, a frame).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = [
    "check_format",
    "load_versioned_json",
    "CalibrationError",
    "CalibrationFailedError",
    "ProfileFileError",
    "UnsupportedVersionError",
]


class CalibrationError(ValueError):
    """Anything wrong with calibration input or files."""


class ProfileFileError(CalibrationError):
    """A layout or profile file that cannot be read: not JSON, a missing or bad field."""


class UnsupportedVersionError(ProfileFileError):
    """A layout or profile file written by another (older or newer) version."""


class CalibrationFailedError(CalibrationError):
    """The frames do not show enough of the board or the mat to calibrate."""


def check_format(data: Any, fmt: str, version: int, where: str, what: str, remedy: str) -> dict[str, Any]:
    """The head of every calibration file: a JSON object of ``fmt`` at ``version``.

    >>> check_format({"format": "f", "version": 0}, "f", 1, "old.json", "table profile", "run it again")
    Traceback (most recent call last):
    ...
    calibration.errors.UnsupportedVersionError: old.json: table profile version 0 is not supported (this dealer reads version 1); run it again
    """
    if not isinstance(data, dict):
        raise ProfileFileError(f"{where}: expected a JSON object, got {type(data).__name__}")
    if data.get("format") != fmt:
        raise ProfileFileError(f"{where}: not an Eleusis {what} (format {data.get('format')!r}, expected {fmt!r})")
    if data.get("version") != version:
        raise UnsupportedVersionError(f"{where}: {what} version {data.get('version')!r} is not supported "
                                      f"(this dealer reads version {version}); {remedy}")
    return data


def load_versioned_json(path: str | Path, fmt: str, version: int, what: str, remedy: str) -> dict[str, Any]:
    """The one loader of every calibration file (layout, camera profile, table profile):
    read ``path`` as JSON and check its head (:func:`check_format`). Every failure is a
    :class:`ProfileFileError` naming the file: cannot read it, not JSON, another format or
    version (:class:`UnsupportedVersionError`)."""
    p = Path(path)
    where = repr(str(p))
    try:
        text = p.read_text(encoding="utf-8-sig")  # a byte-order mark from a Windows editor is fine
    except OSError as exc:
        raise ProfileFileError(f"{where}: cannot read the {what} ({exc.strerror or exc})") from exc
    except UnicodeDecodeError as exc:
        raise ProfileFileError(f"{where}: not UTF-8 text (byte {exc.start}): not a {what}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ProfileFileError(f"{where}: not JSON ({exc})") from exc
    return check_format(data, fmt, version, where, what, remedy)
