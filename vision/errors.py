"""The errors of the vision package.

Bad input (a file, an array of the wrong shape, a broken model file) raises a
:class:`VisionError`, a ``ValueError``; hardware that goes away raises a
:class:`CameraError`, a ``RuntimeError``. Messages quote the input and say where.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = [
    "CameraError",
    "CameraLost",
    "CameraOpenError",
    "DetectionsShapeError",
    "ImageReadError",
    "ModelLoadError",
    "VisionError",
    "load_json_file",
]


class VisionError(ValueError):
    """Bad input to the vision pipeline."""


class ImageReadError(VisionError):
    """An image file that is missing or cannot be decoded."""


class DetectionsShapeError(VisionError):
    """Arrays of a detections record that do not fit together."""


class ModelLoadError(VisionError):
    """A classifier model or its metadata that cannot be used."""


class CameraError(RuntimeError):
    """A frame source whose hardware misbehaves."""


class CameraOpenError(CameraError):
    """A camera (or a video file) that cannot be opened at all."""


class CameraLost(CameraError):
    """A camera that stopped giving frames in the middle of a stream.

    ``source`` names it and ``frames_read`` says how many frames came before the loss;
    readings made from those frames were already handed out and stay valid.
    """

    def __init__(self, source: str, frames_read: int, detail: str = "") -> None:
        self.source = source
        self.frames_read = frames_read
        more = f": {detail}" if detail else ""
        super().__init__(f"{source} lost after {frames_read} frames{more}")


def load_json_file(path: str | Path, what: str, not_what: str) -> Any:
    """The JSON in ``path`` (UTF-8, a byte-order mark allowed): the one reader of the model
    metadata and the deck profiles. A file that cannot be read, is not UTF-8 or is not JSON
    raises :class:`ModelLoadError` naming it (``what``: "model metadata"; ``not_what``:
    what a file that is not UTF-8 is not, "model metadata" or "a deck profile")."""
    where = repr(str(path))
    try:
        return json.loads(Path(path).read_text(encoding="utf-8-sig"))
    except OSError as exc:
        raise ModelLoadError(f"{where}: cannot read the {what} ({exc.strerror})") from exc
    except json.JSONDecodeError as exc:
        raise ModelLoadError(f"{where}: not JSON (line {exc.lineno}: {exc.msg})") from exc
    except UnicodeDecodeError as exc:
        raise ModelLoadError(f"{where}: not UTF-8 text (byte {exc.start}): not {not_what}") from None
