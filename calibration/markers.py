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


_DETECTORS: dict[tuple[str, float, bool], cv2.aruco.ArucoDetector] = {}
# corners found in a reduced picture are refined in the full one as the detector refines
# them (make_detector: a 9 x 9 px window): within ~0.05 px of a search at full resolution
_REFINE_WIN = (4, 4)
_REFINE_STOP = (cv2.TERM_CRITERIA_MAX_ITER | cv2.TERM_CRITERIA_EPS, 30, 0.01)


def _detector(dictionary: str, rate: float, reduced: bool) -> cv2.aruco.ArucoDetector:
    detector = _DETECTORS.get((dictionary, rate, reduced))
    if detector is None:
        detector = make_detector(dictionary)
        params = detector.getDetectorParameters()
        if rate > 0.015:
            params.minMarkerPerimeterRate = rate
        if reduced:
            # a marker the full picture shows 3 px from its edge (the mat's far markers at
            # the top of the frame) is 1.5 px from the reduced one's, and must still count
            params.minDistanceToBorder = 1
        detector.setDetectorParameters(params)
        _DETECTORS[(dictionary, rate, reduced)] = detector
    return detector


def detect_markers(frame_bgr: npt.NDArray[np.uint8], dictionary: str = "DICT_4X4_50",
                   allowed_ids: frozenset[int] | None = None, min_side_px: float | None = None,
                   scale: float = 1.0) -> MarkerDetections:
    """Find the markers in a frame (BGR or grey); never changes the frame.

    ``min_side_px``: no marker in view is smaller than this (pixels a side), when the caller
    knows (the table's homography gives each marker's size): the smaller squares of card
    faces and print are then not decoded, which is most of the detector's work.
    ``scale`` < 1: markers large enough are looked for in the picture reduced by it (a
    quarter of the pixels at 0.5), and their corners refined in the full picture; corners
    are always in the full picture's pixels."""
    grey = frame_bgr if frame_bgr.ndim == 2 else cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    searched = grey
    if 0.0 < scale < 1.0 and grey.size:
        searched = np.asarray(cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA), np.uint8)
        if min(searched.shape[:2]) < 8:
            searched = grey  # too small to hold a marker reduced: looked for as it is
    sx, sy = grey.shape[1] / max(searched.shape[1], 1), grey.shape[0] / max(searched.shape[0], 1)
    rate = 0.0
    if min_side_px is not None and searched.size:
        # OpenCV's bar is a perimeter relative to the image's longer side; rounded down to
        # steps of 0.005 so that few detectors are made
        side = min_side_px / max(sx, sy)
        rate = float(np.floor(200.0 * 4.0 * side / max(searched.shape[:2])) / 200.0)
    corners, ids, _rejected = _detector(dictionary, rate, searched is not grey).detectMarkers(searched)
    if ids is None or len(ids) == 0:
        return MarkerDetections.empty()
    id_arr = np.asarray(ids, dtype=np.int64).reshape(-1)
    corner_arr = np.asarray(corners, dtype=np.float64).reshape(-1, 4, 2)
    if searched is not grey:
        # pixel centres: (i + 0.5) * step - 0.5 in the full picture
        full = ((corner_arr + 0.5) * np.array([sx, sy]) - 0.5).reshape(-1, 1, 2).astype(np.float32)
        cv2.cornerSubPix(grey, full, _REFINE_WIN, (-1, -1), _REFINE_STOP)
        corner_arr = full.reshape(-1, 4, 2).astype(np.float64)
    if allowed_ids is not None:
        keep = np.isin(id_arr, np.fromiter(allowed_ids, dtype=np.int64))
        id_arr, corner_arr = id_arr[keep], corner_arr[keep]
    return MarkerDetections(id_arr, corner_arr)
