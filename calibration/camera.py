"""Camera intrinsics: from a ChArUco board (the kit's board page), or sensible defaults.

Without calibration the dealer assumes a plain pinhole camera: no distortion, the
principal point at the frame's centre and a focal length from a typical webcam's
horizontal field of view. The table homography does not need intrinsics; they only
remove lens distortion (cheap wide-angle webcams bend straight lines near the edges).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from calibration.errors import (
    CalibrationFailedError,
    ProfileFileError,
    check_format,
    load_versioned_json,
)
from calibration.markers import aruco_dictionary

__all__ = [
    "CAMERA_FORMAT",
    "CAMERA_VERSION",
    "CHARUCO",
    "DEFAULT_HFOV_DEG",
    "CameraProfile",
    "CharucoSpec",
    "calibrate_from_frames",
    "default_camera",
]

CAMERA_FORMAT = "eleusis-camera"
CAMERA_VERSION = 1
DEFAULT_HFOV_DEG = 65.0  # a typical webcam

FloatArray = npt.NDArray[np.float64]
ImageBGR = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class CharucoSpec:
    """The kit's ChArUco board: squares and markers in millimetres (fits A4 and Letter)."""

    squares_xy: tuple[int, int] = (5, 7)
    square_mm: float = 30.0
    marker_mm: float = 22.0
    dictionary: str = "DICT_5X5_100"

    def board(self) -> cv2.aruco.CharucoBoard:
        return cv2.aruco.CharucoBoard(self.squares_xy, self.square_mm, self.marker_mm,
                                      aruco_dictionary(self.dictionary))

    @property
    def size_mm(self) -> tuple[float, float]:
        return (self.squares_xy[0] * self.square_mm, self.squares_xy[1] * self.square_mm)

    def image(self, px_per_mm: float) -> ImageBGR:
        w, h = self.size_mm
        grey = self.board().generateImage((round(w * px_per_mm), round(h * px_per_mm)))
        return np.asarray(grey, dtype=np.uint8)


CHARUCO = CharucoSpec()


@dataclass(frozen=True)
class CameraProfile:
    """Intrinsics of one camera at one resolution."""

    size_wh: tuple[int, int]
    camera_matrix: FloatArray
    dist_coeffs: FloatArray
    rms_px: float | None = None  # reprojection error of the calibration; None for defaults
    views: int = 0
    source: str = "default"

    @property
    def calibrated(self) -> bool:
        return self.rms_px is not None

    @property
    def focal_px(self) -> float:
        return float((self.camera_matrix[0, 0] + self.camera_matrix[1, 1]) / 2.0)

    def for_size(self, size_wh: tuple[int, int]) -> CameraProfile:
        """The same camera at another resolution (same field of view, scaled)."""
        if size_wh == self.size_wh:
            return self
        sx, sy = size_wh[0] / self.size_wh[0], size_wh[1] / self.size_wh[1]
        k = self.camera_matrix.copy()
        k[0, :] *= sx
        k[1, :] *= sy
        return CameraProfile(size_wh, k, self.dist_coeffs, self.rms_px, self.views, self.source)

    def undistort(self, frame: ImageBGR) -> ImageBGR:
        if not np.any(self.dist_coeffs):
            return frame
        return np.asarray(cv2.undistort(frame, self.camera_matrix, self.dist_coeffs), dtype=np.uint8)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": CAMERA_FORMAT,
            "version": CAMERA_VERSION,
            "size_wh": list(self.size_wh),
            "camera_matrix": self.camera_matrix.round(6).tolist(),
            "dist_coeffs": self.dist_coeffs.reshape(-1).round(8).tolist(),
            "rms_px": self.rms_px,
            "views": self.views,
            "source": self.source,
        }

    @classmethod
    def from_dict(cls, data: Any, where: str = "camera profile") -> CameraProfile:
        check_format(data, CAMERA_FORMAT, CAMERA_VERSION, where, "camera profile",
                     "run `eleusis calibrate camera` again")
        try:
            w, h = (int(v) for v in data["size_wh"])
            k = np.array(data["camera_matrix"], dtype=np.float64)
            dist = np.array(data["dist_coeffs"], dtype=np.float64)
            if k.shape != (3, 3):
                raise ValueError(f"camera_matrix must be 3x3, got shape {k.shape}")
            rms = data.get("rms_px")
            return cls((w, h), k, dist, None if rms is None else float(rms),
                       int(data.get("views", 0)), str(data.get("source", "")))
        except (KeyError, TypeError, ValueError) as exc:
            raise ProfileFileError(f"{where}: bad or missing field: {exc}") from exc

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=2) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> CameraProfile:
        data = load_versioned_json(path, CAMERA_FORMAT, CAMERA_VERSION, "camera profile",
                                   "run `eleusis calibrate camera` again")
        return cls.from_dict(data, where=repr(str(path)))


def default_camera(size_wh: tuple[int, int], hfov_deg: float = DEFAULT_HFOV_DEG) -> CameraProfile:
    """A pinhole camera with no distortion, the focal length from the frame width.

    >>> round(default_camera((1280, 720)).focal_px)
    1005
    """
    w, h = size_wh
    f = (w / 2.0) / math.tan(math.radians(hfov_deg) / 2.0)
    k = np.array([[f, 0.0, w / 2.0], [0.0, f, h / 2.0], [0.0, 0.0, 1.0]])
    return CameraProfile((w, h), k, np.zeros(5), None, 0, "default")


def calibrate_from_frames(frames: Iterable[ImageBGR], spec: CharucoSpec = CHARUCO, min_views: int = 6,
                          min_corners: int = 8, source: str = "frames") -> CameraProfile:
    """Intrinsics from views of the ChArUco board; each view needs ``min_corners`` corners."""
    board = spec.board()
    detector = cv2.aruco.CharucoDetector(board)
    obj_all: list[npt.NDArray[np.float32]] = []
    img_all: list[npt.NDArray[np.float32]] = []
    size: tuple[int, int] | None = None
    seen = 0
    for frame in frames:
        seen += 1
        grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        if size is None:
            size = (grey.shape[1], grey.shape[0])
        elif size != (grey.shape[1], grey.shape[0]):
            raise CalibrationFailedError(
                f"{source}: frame {seen} is {grey.shape[1]}x{grey.shape[0]}, the first was "
                f"{size[0]}x{size[1]}: calibrate one resolution at a time")
        corners, ids, _mc, _mi = detector.detectBoard(grey)
        if ids is None or len(ids) < min_corners:
            continue
        obj, img = board.matchImagePoints(corners, ids)  # type: ignore[call-overload]
        obj_all.append(np.asarray(obj, dtype=np.float32).reshape(-1, 1, 3))
        img_all.append(np.asarray(img, dtype=np.float32).reshape(-1, 1, 2))
    if size is None:
        raise CalibrationFailedError(f"{source}: no frames to calibrate from")
    if len(obj_all) < min_views:
        raise CalibrationFailedError(
            f"{source}: the ChArUco board was seen well in {len(obj_all)} of {seen} frames; "
            f"at least {min_views} are needed: show the board page at several angles and distances")
    rms, k, dist, _r, _t = cv2.calibrateCamera(obj_all, img_all, size, None, None)
    return CameraProfile(size, np.asarray(k, dtype=np.float64),
                         np.asarray(dist, dtype=np.float64).reshape(-1), float(rms), len(obj_all), source)
