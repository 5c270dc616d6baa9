"""Tokens on the table: which ones lie there, where (table mm) and in which zone.

A token is a tile of ``TOKEN_TILE_MM`` with its marker near the top and its word
below. Its position is the tile's centre, found from the marker's corners: the tile
may lie at any angle.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from calibration.layout import TOKEN_MARKER_TOP_MM, TOKEN_TILE_MM, TableLayout
from calibration.markers import MarkerDetections, detect_markers
from calibration.table import TableHomography

__all__ = [
    "TOKEN_MARKER_TOP_MM",
    "TOKEN_TILE_MM",
    "TokenSighting",
    "find_tokens",
    "tokens_from_detections",
]

ImageBGR = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class TokenSighting:
    """One token seen in a frame."""

    name: str
    marker_id: int
    word: str
    centre_px: tuple[float, float]
    centre_mm: tuple[float, float] | None  # None while the table is not located
    zone: str | None  # the zone holding the tile's centre; None when off every zone
    angle_deg: float | None  # the tile's turn on the table, 0 = upright as printed


def tokens_from_detections(detections: MarkerDetections, layout: TableLayout,
                           homography: TableHomography | None) -> list[TokenSighting]:
    """The tokens among a frame's markers; positions in mm when the homography is known."""
    token_ids = {t.marker_id for t in layout.tokens}
    found: list[TokenSighting] = []
    for marker_id, corners in sorted(detections.as_dict().items()):
        if marker_id not in token_ids:
            continue
        spec = layout.token_by_marker(marker_id)
        centre_px = corners.mean(axis=0)
        if homography is None:
            found.append(TokenSighting(spec.name, marker_id, spec.word, (float(centre_px[0]), float(centre_px[1])),
                                       None, None, None))
            continue
        corners_mm = homography.to_table_mm(corners)
        marker_centre = corners_mm.mean(axis=0)
        down = (corners_mm[3] + corners_mm[2]) / 2.0 - (corners_mm[0] + corners_mm[1]) / 2.0
        side = float(np.linalg.norm(down))
        if side < 1e-6:
            continue
        down /= side
        right = (corners_mm[1] + corners_mm[2]) / 2.0 - (corners_mm[0] + corners_mm[3]) / 2.0
        angle = float(np.degrees(np.arctan2(right[1], right[0])))
        offset = TOKEN_TILE_MM[1] / 2.0 - (TOKEN_MARKER_TOP_MM + spec.marker_size_mm / 2.0)
        tile_centre = marker_centre + offset * down
        tile_px = homography.to_px(tile_centre[None, :])[0]
        x_mm, y_mm = float(tile_centre[0]), float(tile_centre[1])
        found.append(TokenSighting(spec.name, marker_id, spec.word, (float(tile_px[0]), float(tile_px[1])),
                                   (x_mm, y_mm), layout.zone_at(x_mm, y_mm), angle))
    return found


def find_tokens(frame_bgr: ImageBGR, layout: TableLayout,
                homography: TableHomography | None) -> list[TokenSighting]:
    """Detect the markers of a frame and return its tokens (see ``tokens_from_detections``)."""
    return tokens_from_detections(detect_markers(frame_bgr, layout.dictionary), layout, homography)
