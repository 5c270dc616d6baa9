"""Errors of the table and camera calibration: a small tree under ``ValueError``.

Every message quotes the bad input and says where it came from (a file, a frame).
"""

from __future__ import annotations

__all__ = [
    "CalibrationError",
    "CalibrationFailedError",
    "FrameSourceError",
    "ProfileFileError",
    "UnsupportedVersionError",
]


class CalibrationError(ValueError):
    """Anything wrong with calibration input or files."""


class ProfileFileError(CalibrationError):
    """A layout or profile file that cannot be read: not JSON, a missing or bad field."""


class UnsupportedVersionError(ProfileFileError):
    """A layout or profile file written by another (older or newer) version."""


class FrameSourceError(CalibrationError):
    """A video, still or camera that cannot be opened or gives no frame."""


class CalibrationFailedError(CalibrationError):
    """The frames do not show enough of the board or the mat to calibrate."""
