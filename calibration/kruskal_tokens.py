"""Kruskal's TRUE/FALSE tokens (docs/rules-variants.md KR4): one pair per seat, told apart
by their markers, and the reading of a frame: which seat shows which token.

Seat ``s`` (1 to :data:`KRUSKAL_SEATS`, the players' order from the dealer's left, C5)
holds a TRUE tile ("main line") with marker ``20 + 2 (s - 1)`` and a FALSE tile ("side
line") with the next id, printed on the kit's Kruskal pages. Before each verdict every
player lays one of the pair face up in the PREDICTION STRIP, the table in front of the
PLAY sheet's near edge (:data:`PREDICTION_STRIP`), and keeps the other in hand or face
down. A token anywhere else on the table is not a prediction; a seat with both tiles in
the strip shows none until one is taken back.

>>> [t.marker_id for t in kruskal_tokens(2)]
[20, 21, 22, 23]
>>> seat_of(kruskal_tokens()[5])
(3, False)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calibration.layout import (
    PLACE_MM,
    PLAY_SHEET_H_MM,
    PLAY_SHEET_W_MM,
    TOKEN_MARKER_TOP_MM,
    TOKEN_TILE_MM,
    TokenSpec,
    Zone,
)
from calibration.markers import MarkerDetections
from calibration.table import TableHomography

__all__ = [
    "FIRST_MARKER",
    "KRUSKAL_SEATS",
    "PREDICTION_STRIP",
    "ZONE_PREDICTIONS",
    "Predictions",
    "kruskal_tokens",
    "read_predictions",
    "seat_of",
    "strip_place",
]

KRUSKAL_SEATS = 8  # C2: at most 8 players
FIRST_MARKER = 20  # after the mat's 0-7 and the tokens' 10-13, well inside DICT_4X4_50
ZONE_PREDICTIONS = "predictions"
_STRIP_GAP_MM = 10.0  # from the PLAY sheet's near edge to the strip
# Eight tiles side by side, a place each, centred on the sheet: 8 x 70 = 560 mm.
_STRIP_W = KRUSKAL_SEATS * PLACE_MM
_STRIP_X0 = (PLAY_SHEET_W_MM - _STRIP_W) / 2.0
_STRIP_Y0 = PLAY_SHEET_H_MM + _STRIP_GAP_MM
PREDICTION_STRIP = Zone(
    ZONE_PREDICTIONS,
    ((_STRIP_X0, _STRIP_Y0), (_STRIP_X0 + _STRIP_W, _STRIP_Y0),
     (_STRIP_X0 + _STRIP_W, _STRIP_Y0 + TOKEN_TILE_MM[1] + 20.0), (_STRIP_X0, _STRIP_Y0 + TOKEN_TILE_MM[1] + 20.0)),
    "PREDICTIONS: each player's TRUE or FALSE token, face up (KR4)")

# The tile's words, in the three languages the dealer speaks: printed on every tile.
TILE_WORDS = {
    True: ("TRUE", "main line", "ИСТИНА · главная линия", "VERDADEIRO · linha principal"),
    False: ("FALSE", "side line", "ЛОЖЬ · боковая линия", "FALSO · linha lateral"),
}


def kruskal_tokens(seats: int = KRUSKAL_SEATS) -> tuple[TokenSpec, ...]:
    """The TRUE and FALSE tokens of seats 1 to ``seats``, in that order."""
    if not 1 <= seats <= KRUSKAL_SEATS:
        raise ValueError(f"Kruskal tokens are printed for 1 to {KRUSKAL_SEATS} seats, not {seats}")
    out: list[TokenSpec] = []
    for seat in range(1, seats + 1):
        for says_main in (True, False):
            word = TILE_WORDS[says_main]
            marker = FIRST_MARKER + 2 * (seat - 1) + (0 if says_main else 1)
            out.append(TokenSpec(f"seat{seat}_{'true' if says_main else 'false'}", marker, word[0],
                                 "\u2713" if says_main else "\u2717",
                                 f"Seat {seat} predicts the {word[1]} (KR4)."))
    return tuple(out)


def seat_of(token: TokenSpec) -> tuple[int, bool]:
    """The seat (from 1) a Kruskal token belongs to, and whether it says "main line"."""
    offset = token.marker_id - FIRST_MARKER
    if not 0 <= offset < 2 * KRUSKAL_SEATS:
        raise ValueError(f"marker {token.marker_id} is not a Kruskal token")
    return offset // 2 + 1, offset % 2 == 0


def strip_place(seat: int, seats: int = KRUSKAL_SEATS) -> tuple[float, float]:
    """Where seat ``seat`` of ``seats`` lays its token (the tile's centre, mm): a place each,
    side by side, centred under the PLAY sheet. Any place in the strip will do; this is
    where the kit's protocol and the rendered tables put them."""
    _x0, y0 = PREDICTION_STRIP.polygon_mm[0]
    return (PLAY_SHEET_W_MM / 2.0 + (seat - (seats + 1) / 2.0) * PLACE_MM, y0 + 10.0 + TOKEN_TILE_MM[1] / 2.0)


@dataclass(frozen=True, slots=True)
class Predictions:
    """One frame's reading of the strip. ``shown``: seat -> True (TRUE, main line) or
    False (FALSE, side line); ``both``: seats with both tiles in the strip (no prediction);
    ``elsewhere``: seats whose token lies on the table outside the strip."""

    shown: dict[int, bool]
    both: tuple[int, ...] = ()
    elsewhere: tuple[int, ...] = ()

    def missing(self, seats: int) -> tuple[int, ...]:
        """The seats among 1..``seats`` that show no prediction."""
        return tuple(s for s in range(1, seats + 1) if s not in self.shown)


def _tile_centre_mm(corners_px: np.ndarray, homography: TableHomography, spec: TokenSpec) -> tuple[float, float]:
    """The tile's centre on the table, from its marker's corners (the tile may lie turned)."""
    corners = homography.to_table_mm(corners_px)
    down = (corners[3] + corners[2]) / 2.0 - (corners[0] + corners[1]) / 2.0
    side = float(np.linalg.norm(down))
    centre = corners.mean(axis=0)
    if side > 1e-6:
        centre = centre + (TOKEN_TILE_MM[1] / 2.0 - (TOKEN_MARKER_TOP_MM + spec.marker_size_mm / 2.0)) * down / side
    return float(centre[0]), float(centre[1])


def read_predictions(detections: MarkerDetections, homography: TableHomography, seats: int,
                     strip: Zone = PREDICTION_STRIP) -> Predictions:
    """Which of seats 1..``seats`` shows which token in the strip, from a frame's markers."""
    specs = {t.marker_id: t for t in kruskal_tokens(seats)}
    in_strip: dict[int, set[bool]] = {}
    outside: set[int] = set()
    for marker_id, corners in detections.as_dict().items():
        spec = specs.get(marker_id)
        if spec is None:
            continue
        seat, says_main = seat_of(spec)
        x, y = _tile_centre_mm(corners, homography, spec)
        if strip.contains(x, y):
            in_strip.setdefault(seat, set()).add(says_main)
        else:
            outside.add(seat)
    shown = {seat: next(iter(said)) for seat, said in sorted(in_strip.items()) if len(said) == 1}
    both = tuple(sorted(seat for seat, said in in_strip.items() if len(said) == 2))
    return Predictions(shown, both, tuple(sorted(outside - set(in_strip))))

