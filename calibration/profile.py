"""The table profile: what ``eleusis calibrate table`` found, for ``eleusis play`` to use.

A versioned JSON file: the layout as measured (guide tiles where they really lie), the
camera, the homography at calibration time and the check's figures. Loading a file of
another version raises ``UnsupportedVersionError`` naming the file and the version.
"""

from __future__ import annotations

import datetime as _dt
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from calibration.camera import CameraProfile, default_camera
from calibration.check import TableCheck
from calibration.errors import ProfileFileError, load_versioned_json
from calibration.layout import MarkerPlacement, TableLayout

__all__ = ["PROFILE_FORMAT", "PROFILE_VERSION", "TableProfile", "load_table_profile"]

PROFILE_FORMAT = "eleusis-table-profile"
PROFILE_VERSION = 1

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class TableProfile:
    """What ``eleusis play`` needs about this table: the layout as measured, the camera, the check."""

    layout: TableLayout
    camera: CameraProfile
    table_to_px: FloatArray
    px_per_mm: float
    glare_fraction: float
    mean_level: float
    readable: bool
    advice: tuple[str, ...] = ()
    source: str = ""
    created: str = ""

    @classmethod
    def from_check(cls, check: TableCheck, layout: TableLayout, camera: CameraProfile | None,
                   source: str) -> TableProfile:
        if check.homography is None or check.px_per_mm is None or check.frame_size_wh is None:
            raise ProfileFileError(f"{source}: the mat was not found, so there is no table profile to write")
        markers = tuple(
            MarkerPlacement(m.marker_id, check.guides_measured[m.marker_id], "guide")
            if m.marker_id in check.guides_measured else m
            for m in layout.markers)
        cam = (camera or default_camera(check.frame_size_wh)).for_size(check.frame_size_wh)
        created = _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat()
        return cls(layout.with_markers(markers), cam, check.homography.table_to_px, check.px_per_mm,
                   check.glare_fraction, check.mean_level, check.readable, tuple(check.advice), source, created)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": PROFILE_FORMAT,
            "version": PROFILE_VERSION,
            "created": self.created,
            "source": self.source,
            "table_to_px": np.asarray(self.table_to_px).round(9).tolist(),
            "px_per_mm_play_zone": round(self.px_per_mm, 4),
            "glare_fraction": round(self.glare_fraction, 5),
            "mean_level": round(self.mean_level, 2),
            "readable": self.readable,
            "advice": list(self.advice),
            "camera": self.camera.to_dict(),
            "layout": self.layout.to_dict(),
        }

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> TableProfile:
        where = repr(str(path))
        data = load_versioned_json(path, PROFILE_FORMAT, PROFILE_VERSION, "table profile",
                                   "run `eleusis calibrate table` again")
        try:
            hom = np.array(data["table_to_px"], dtype=np.float64)
            if hom.shape != (3, 3):
                raise ValueError(f"table_to_px must be 3x3, got shape {hom.shape}")
            return cls(TableLayout.from_dict(data["layout"], where), CameraProfile.from_dict(data["camera"], where),
                       hom, float(data["px_per_mm_play_zone"]), float(data["glare_fraction"]),
                       float(data["mean_level"]), bool(data["readable"]), tuple(data.get("advice", ())),
                       str(data.get("source", "")), str(data.get("created", "")))
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, ProfileFileError):
                raise
            raise ProfileFileError(f"{where}: bad or missing field: {exc}") from exc


def load_table_profile(path: str | Path) -> TableProfile:
    """Read a table profile written by ``eleusis calibrate table``."""
    return TableProfile.load(path)
