"""The errors of the vision package.

Bad input (a file, an array of the wrong shape, a broken model file) raises a
:class:`VisionError`, a ``ValueError``; hardware that goes away raises a
:class:`CameraError`, a ``RuntimeError``. Messages quote the input and say where.
"""

from __future__ import annotations

__all__ = [
    "CameraError",
    "CameraLost",
    "CameraOpenError",
    "DetectionsShapeError",
    "ImageReadError",
    "ModelLoadError",
    "VisionError",
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
