"""ArUco markers: their bit patterns (for printing and rendering) and their detection.

The kit uses ``DICT_4X4_50``: big cells survive blur and a slanted view. The ChArUco
board for the camera uses another dictionary (``DICT_5X5_100``) so that a board left
on the table is never mistaken for the mat.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

__all__ = [
    "MarkerDetections",
    "aruco_dictionary",
    "detect_markers",
    "make_detector",
    "marker_bits",
    "marker_image",
]

_DICTIONARIES = {
    "DICT_4X4_50": cv2.aruco.DICT_4X4_50,
    "DICT_4X4_100": cv2.aruco.DICT_4X4_100,
    "DICT_5X5_100": cv2.aruco.DICT_5X5_100,
}


def aruco_dictionary(name: str = "DICT_4X4_50") -> cv2.aruco.Dictionary:
    try:
        return cv2.aruco.getPredefinedDictionary(_DICTIONARIES[name])
    except KeyError:
        raise ValueError(f"unknown ArUco dictionary {name!r} (known: {sorted(_DICTIONARIES)})") from None


def marker_bits(marker_id: int, dictionary: str = "DICT_4X4_50") -> npt.NDArray[np.bool_]:
    """The marker's cells including the one-cell black border: True = black.

    >>> marker_bits(0).shape
    (6, 6)
    """
    d = aruco_dictionary(dictionary)
    n = d.markerSize + 2
    img = cv2.aruco.generateImageMarker(d, marker_id, n, borderBits=1)
    return np.asarray(img < 128)


def marker_image(marker_id: int, px_per_cell: int, dictionary: str = "DICT_4X4_50",
                 quiet_cells: int = 0) -> npt.NDArray[np.uint8]:
    """A grey image of the marker (black border included), with an optional white margin."""
    bits = marker_bits(marker_id, dictionary)
    img = np.where(bits, 0, 255).astype(np.uint8)
    img = np.kron(img, np.ones((px_per_cell, px_per_cell), dtype=np.uint8))
    if quiet_cells:
        pad = quiet_cells * px_per_cell
        img = np.pad(img, pad, constant_values=255)
    return img


@dataclass(frozen=True)
class MarkerDetections:
    """Markers found in one frame: ``ids (n,)`` and ``corners_px (n, 4, 2)`` (TL, TR, BR, BL)."""

    ids: npt.NDArray[np.int64]
    corners_px: npt.NDArray[np.float64]

    def __post_init__(self) -> None:
        if self.ids.ndim != 1:
            raise ValueError(f"ids must be (n,), got shape {self.ids.shape}")
        if self.corners_px.shape != (len(self.ids), 4, 2):
            raise ValueError(
                f"corners_px must be ({len(self.ids)}, 4, 2), got {self.corners_px.shape}")

    def __len__(self) -> int:
        return len(self.ids)

    def as_dict(self) -> dict[int, npt.NDArray[np.float64]]:
        """id -> (4, 2) corners; a repeated id keeps its first sighting."""
        out: dict[int, npt.NDArray[np.float64]] = {}
        for marker_id, corners in zip(self.ids.tolist(), self.corners_px):
            out.setdefault(int(marker_id), corners)
        return out

    @classmethod
    def empty(cls) -> MarkerDetections:
        return cls(np.zeros(0, dtype=np.int64), np.zeros((0, 4, 2)))


def make_detector(dictionary: str = "DICT_4X4_50") -> cv2.aruco.ArucoDetector:
    """A detector tuned for slanted, slightly blurred views of printed markers.

    Sub-pixel corner refinement gives the table homography its millimetre accuracy; a
    wider range of threshold windows keeps markers found under uneven light.
    """
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.cornerRefinementWinSize = 4
    params.adaptiveThreshWinSizeMin = 5
    params.adaptiveThreshWinSizeMax = 35
    params.adaptiveThreshWinSizeStep = 15
    params.minMarkerPerimeterRate = 0.015
    params.polygonalApproxAccuracyRate = 0.05
    params.perspectiveRemovePixelPerCell = 8
    params.perspectiveRemoveIgnoredMarginPerCell = 0.2
    params.errorCorrectionRate = 0.3  # fewer false markers in print and card faces; no loss in the token batch
    return cv2.aruco.ArucoDetector(aruco_dictionary(dictionary), params)


_DETECTORS: dict[tuple[str, float], cv2.aruco.ArucoDetector] = {}


def detect_markers(frame_bgr: npt.NDArray[np.uint8], dictionary: str = "DICT_4X4_50",
                   allowed_ids: frozenset[int] | None = None, min_side_px: float | None = None
                   ) -> MarkerDetections:
    """Find the markers in a frame (BGR or grey); never changes the frame.

    ``min_side_px``: no marker in view is smaller than this (pixels a side), when the caller
    knows (the table's homography gives each marker's size): the smaller squares of card
    faces and print are then not decoded, which is most of the detector's work."""
    grey = frame_bgr if frame_bgr.ndim == 2 else cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    rate = 0.0
    if min_side_px is not None and grey.size:
        # OpenCV's bar is a perimeter relative to the image's longer side; rounded down to
        # steps of 0.005 so that few detectors are made
        rate = float(np.floor(200.0 * 4.0 * min_side_px / max(grey.shape[:2])) / 200.0)
    detector = _DETECTORS.get((dictionary, rate))
    if detector is None:
        detector = make_detector(dictionary)
        if rate > 0.015:
            params = detector.getDetectorParameters()
            params.minMarkerPerimeterRate = rate
            detector.setDetectorParameters(params)
        _DETECTORS[(dictionary, rate)] = detector
    corners, ids, _rejected = detector.detectMarkers(grey)
    if ids is None or len(ids) == 0:
        return MarkerDetections.empty()
    id_arr = np.asarray(ids, dtype=np.int64).reshape(-1)
    corner_arr = np.asarray(corners, dtype=np.float64).reshape(-1, 4, 2)
    if allowed_ids is not None:
        keep = np.isin(id_arr, np.fromiter(allowed_ids, dtype=np.int64))
        id_arr, corner_arr = id_arr[keep], corner_arr[keep]
    return MarkerDetections(id_arr, corner_arr)
