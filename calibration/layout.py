"""The table's geometry in millimetres: one source of truth for the kit, the tracker and the tokens.

The table frame has its origin at the top-left corner of the PLAY sheet's printed
frame, x to the right and y downwards (as the camera sees a table from the players'
side of the layout), in millimetres.

Above the PLAY sheet lie the side-branch zone (P4: a rejected attempt goes below the
line end) and above that the main-line zone (P3), as the layout is read from the
dealer's side. Tokens (NO PLAY, PROPHET, ACCEPT, REJECT) carry their own markers.

>>> layout = default_layout()
>>> layout.zone("play").contains(100.0, 90.0)
True
>>> layout.token_by_marker(12).word
'ACCEPT'
>>> TableLayout.from_json(layout.to_json()) == layout
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from calibration.errors import ProfileFileError, check_format, load_versioned_json

__all__ = [
    "CHAIN_MAX",
    "GUIDE_GAP_MM",
    "LAYOUT_FORMAT",
    "LAYOUT_VERSION",
    "MAIN_LINE_SLOTS",
    "NO_PLAY_BATCH",
    "PLACE_MM",
    "PLAY_ZONE_PLACES",
    "PROPHET_CHAIN_MAX",
    "PLAY_SHEET_H_MM",
    "PLAY_SHEET_W_MM",
    "TOKEN_MARKER_TOP_MM",
    "TOKEN_TILE_MM",
    "ZONE_MAIN_LINE",
    "ZONE_PLAY",
    "ZONE_SIDE_BRANCHES",
    "MarkerPlacement",
    "TableLayout",
    "TokenSpec",
    "Zone",
    "default_layout",
    "main_line_folded",
    "main_line_slots",
]

LAYOUT_FORMAT = "eleusis-table-layout"
LAYOUT_VERSION = 1

# The printed frame of every kit page: fits A4 and Letter, landscape, with >= 7 mm margins.
PLAY_SHEET_W_MM = 265.0
PLAY_SHEET_H_MM = 190.0
ANCHOR_MARKER_MM = 30.0
GUIDE_MARKER_MM = 40.0
TOKEN_MARKER_MM = 50.0
TOKEN_TILE_MM = (66.0, 92.0)  # a token tile, width x height
TOKEN_MARKER_TOP_MM = 6.0  # from the tile's top edge to its marker's top edge

# What fits where (a "no play" batch of 3 cards beside the token would need 255 mm of the
# 257 mm play zone). A place is one card (63 mm) or one token tile (66 mm) with a finger's gap.
PLACE_MM = 70.0
PLAY_ZONE_PLACES = 3  # side by side in the play zone: 3 x 70 = 210 of its 257 mm, 47 mm to spare
CHAIN_MAX = PLAY_ZONE_PLACES  # the longest attempt the play zone holds (P1)
PROPHET_CHAIN_MAX = PLAY_ZONE_PLACES - 1  # with a prophet in office: one place for ACCEPT/REJECT (F3)
NO_PLAY_BATCH = PLAY_ZONE_PLACES - 1  # cards per "no play" batch, beside the NO PLAY token (N1)
GUIDE_GAP_MM = 25.0  # from a guide tile's cut edge to the main-line zone: no card touches a tile
GUIDE_TILE_MARGIN_MM = 6.0  # the white margin around a guide marker, inside the cut line

ZONE_PLAY = "play"
ZONE_MAIN_LINE = "main_line"
ZONE_SIDE_BRANCHES = "side_branches"

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class MarkerPlacement:
    """One ArUco marker fixed to the table; corners in the detector's order (TL, TR, BR, BL).

    ``role`` is ``"anchor"`` (printed on the PLAY sheet: its position is exact) or
    ``"guide"`` (a loose tile: its position is nominal until ``calibrate table``
    measures it).
    """

    marker_id: int
    corners_mm: tuple[Point, Point, Point, Point]
    role: str = "anchor"

    @classmethod
    def square(cls, marker_id: int, x_mm: float, y_mm: float, size_mm: float,
               role: str = "anchor") -> MarkerPlacement:
        """An axis-aligned square marker with its top-left corner at (x_mm, y_mm)."""
        x1, y1 = x_mm + size_mm, y_mm + size_mm
        return cls(marker_id, ((x_mm, y_mm), (x1, y_mm), (x1, y1), (x_mm, y1)), role)

    @property
    def centre_mm(self) -> Point:
        xs = [c[0] for c in self.corners_mm]
        ys = [c[1] for c in self.corners_mm]
        return (sum(xs) / 4.0, sum(ys) / 4.0)

    @property
    def size_mm(self) -> float:
        """Mean side length."""
        total = 0.0
        for i in range(4):
            (ax, ay), (bx, by) = self.corners_mm[i], self.corners_mm[(i + 1) % 4]
            total += ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
        return total / 4.0


@dataclass(frozen=True, slots=True)
class Zone:
    """A named region of the table, a simple polygon in table millimetres."""

    name: str
    polygon_mm: tuple[Point, ...]
    label: str = ""

    def contains(self, x_mm: float, y_mm: float) -> bool:
        """Even-odd rule; points on the boundary may fall either way."""
        inside = False
        pts = self.polygon_mm
        j = len(pts) - 1
        for i in range(len(pts)):
            xi, yi = pts[i]
            xj, yj = pts[j]
            if (yi > y_mm) != (yj > y_mm):
                x_cross = xi + (y_mm - yi) * (xj - xi) / (yj - yi)
                if x_mm < x_cross:
                    inside = not inside
            j = i
        return inside

    @property
    def centre_mm(self) -> Point:
        xs = [p[0] for p in self.polygon_mm]
        ys = [p[1] for p in self.polygon_mm]
        return ((min(xs) + max(xs)) / 2.0, (min(ys) + max(ys)) / 2.0)


@dataclass(frozen=True, slots=True)
class TokenSpec:
    """A token a player lays on the table: its marker, printed word and symbol."""

    name: str
    marker_id: int
    word: str
    symbol: str
    meaning: str
    marker_size_mm: float = TOKEN_MARKER_MM


@dataclass(frozen=True)
class TableLayout:
    """Marker ids, sizes and positions in mm, zones as polygons, and the tokens."""

    markers: tuple[MarkerPlacement, ...]
    zones: tuple[Zone, ...]
    tokens: tuple[TokenSpec, ...]
    dictionary: str = "DICT_4X4_50"
    sheet_size_mm: Point = (PLAY_SHEET_W_MM, PLAY_SHEET_H_MM)
    version: int = field(default=LAYOUT_VERSION)

    def __post_init__(self) -> None:
        ids = [m.marker_id for m in self.markers] + [t.marker_id for t in self.tokens]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ProfileFileError(f"table layout: marker id(s) {dupes} used more than once")
        names = [z.name for z in self.zones]
        if len(set(names)) != len(names):
            raise ProfileFileError(f"table layout: zone names repeat: {names}")

    # -- look-ups ---------------------------------------------------------------------
    def zone(self, name: str) -> Zone:
        for z in self.zones:
            if z.name == name:
                return z
        raise KeyError(f"no zone {name!r} in the layout (zones: {[z.name for z in self.zones]})")

    def zone_at(self, x_mm: float, y_mm: float) -> str | None:
        """The name of the first zone holding the point, or None (off every zone)."""
        for z in self.zones:
            if z.contains(x_mm, y_mm):
                return z.name
        return None

    def marker(self, marker_id: int) -> MarkerPlacement:
        for m in self.markers:
            if m.marker_id == marker_id:
                return m
        raise KeyError(f"marker id {marker_id} is not fixed to the table in this layout")

    def token(self, name: str) -> TokenSpec:
        for t in self.tokens:
            if t.name == name:
                return t
        raise KeyError(f"no token {name!r} (tokens: {[t.name for t in self.tokens]})")

    def token_by_marker(self, marker_id: int) -> TokenSpec:
        for t in self.tokens:
            if t.marker_id == marker_id:
                return t
        raise KeyError(f"marker id {marker_id} is not a token")

    @property
    def table_marker_ids(self) -> frozenset[int]:
        return frozenset(m.marker_id for m in self.markers)

    def with_markers(self, markers: tuple[MarkerPlacement, ...]) -> TableLayout:
        """A copy with other marker placements (e.g. guide tiles as measured)."""
        return TableLayout(markers, self.zones, self.tokens, self.dictionary,
                           self.sheet_size_mm, self.version)

    # -- JSON -------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": LAYOUT_FORMAT,
            "version": self.version,
            "dictionary": self.dictionary,
            "sheet_size_mm": list(self.sheet_size_mm),
            "markers": [
                {"id": m.marker_id, "role": m.role,
                 "corners_mm": [[round(x, 3), round(y, 3)] for x, y in m.corners_mm]}
                for m in self.markers
            ],
            "zones": [
                {"name": z.name, "label": z.label,
                 "polygon_mm": [[round(x, 3), round(y, 3)] for x, y in z.polygon_mm]}
                for z in self.zones
            ],
            "tokens": [
                {"name": t.name, "marker_id": t.marker_id, "word": t.word, "symbol": t.symbol,
                 "meaning": t.meaning, "marker_size_mm": t.marker_size_mm}
                for t in self.tokens
            ],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Any, where: str = "table layout") -> TableLayout:
        check_format(data, LAYOUT_FORMAT, LAYOUT_VERSION, where, "table layout",
                     "print a new kit or re-run `eleusis calibrate table`")
        try:
            markers = tuple(
                MarkerPlacement(int(m["id"]), _four_points(m["corners_mm"]), str(m["role"]))
                for m in data["markers"])
            zones = tuple(
                Zone(str(z["name"]), tuple(_point(p) for p in z["polygon_mm"]),
                     str(z.get("label", "")))
                for z in data["zones"])
            tokens = tuple(
                TokenSpec(str(t["name"]), int(t["marker_id"]), str(t["word"]), str(t["symbol"]),
                          str(t.get("meaning", "")), float(t["marker_size_mm"]))
                for t in data["tokens"])
            sheet = _point(data["sheet_size_mm"])
            dictionary = str(data["dictionary"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ProfileFileError(f"{where}: bad or missing field: {exc!r}") from exc
        return cls(markers, zones, tokens, dictionary, sheet, LAYOUT_VERSION)

    @classmethod
    def from_json(cls, text: str, where: str = "table layout") -> TableLayout:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ProfileFileError(f"{where}: not JSON ({exc})") from exc
        return cls.from_dict(data, where)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> TableLayout:
        data = load_versioned_json(path, LAYOUT_FORMAT, LAYOUT_VERSION, "table layout",
                                   "print a new kit or re-run `eleusis calibrate table`")
        return cls.from_dict(data, where=repr(str(path)))


def main_line_slots(layout: TableLayout) -> int:
    """How many places (cards, or the PROPHET token) the main-line zone holds in one row.

    When the line needs one more, the players fold it (docs/playing-at-the-table.md: the
    edge of the mat): the older half goes, in order, to a pile beside the zone.

    >>> main_line_slots(default_layout())
    8
    """
    xs = [p[0] for p in layout.zone(ZONE_MAIN_LINE).polygon_mm]
    return max(1, int((max(xs) - min(xs)) // PLACE_MM))


def main_line_folded(places: int, slots: int | None = None) -> int:
    """How many of the main line's first places (cards, the PROPHET token) lie on the pile.

    The edge of the mat: when the next card needs a place the zone does not have, the
    players take the older places (all but the newest ``slots // 2``), with the side
    branches under them, in order, to a pile beside the zone, and go on from there.

    >>> [main_line_folded(n) for n in (8, 9, 12, 13)]
    [0, 4, 4, 8]
    """
    slots = MAIN_LINE_SLOTS if slots is None else slots
    moved = slots - slots // 2
    on_table = places
    while on_table > slots:
        on_table -= moved
    return places - on_table


def _point(value: Any) -> Point:
    x, y = value
    return (float(x), float(y))


def _four_points(value: Any) -> tuple[Point, Point, Point, Point]:
    pts = [_point(v) for v in value]
    if len(pts) != 4:
        raise ValueError(f"a marker needs 4 corners, got {len(pts)}")
    return (pts[0], pts[1], pts[2], pts[3])


def _rect(x0: float, y0: float, x1: float, y1: float) -> tuple[Point, ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


TOKENS: tuple[TokenSpec, ...] = (
    TokenSpec("no_play", 10, "NO PLAY", "\u2205",
              "I declare no play: my whole hand is shown in the play zone (N1)."),
    TokenSpec("prophet", 11, "PROPHET", "\u2605",
              "The prophet's marker: laid after the end of the main line when a player "
              "takes office (F2)."),
    TokenSpec("accept", 12, "ACCEPT", "\u2713",
              "The prophet says the attempt is right (F3)."),
    TokenSpec("reject", 13, "REJECT", "\u2717",
              "The prophet says the attempt is wrong (F3); for a no play, lay it beside the "
              "one card left in the play zone, the card the prophet names (F6)."),
)


def default_layout() -> TableLayout:
    """The kit's layout: the same on A4 and Letter (the printed frame fits both)."""
    w, h, m = PLAY_SHEET_W_MM, PLAY_SHEET_H_MM, ANCHOR_MARKER_MM
    inset = 4.0
    mid_x = (w - m) / 2.0
    markers = (
        MarkerPlacement.square(0, inset, inset, m),
        MarkerPlacement.square(1, w - inset - m, inset, m),
        MarkerPlacement.square(2, w - inset - m, h - inset - m, m),
        MarkerPlacement.square(3, inset, h - inset - m, m),
        MarkerPlacement.square(4, mid_x, inset, m),
        MarkerPlacement.square(5, mid_x, h - inset - m, m),
        # Guide tiles: level with the main line, beyond its zone's ends with GUIDE_GAP_MM to
        # spare, so a line started at the zone's very edge never touches one; measured by
        # calibration, so these places are only where the kit says to put them.
        MarkerPlacement.square(6, -150.0 - GUIDE_GAP_MM - GUIDE_TILE_MARGIN_MM - GUIDE_MARKER_MM, -330.0,
                               GUIDE_MARKER_MM, "guide"),
        MarkerPlacement.square(7, w + 150.0 + GUIDE_GAP_MM + GUIDE_TILE_MARGIN_MM, -330.0, GUIDE_MARKER_MM,
                               "guide"),
    )
    zones = (
        Zone(ZONE_PLAY, _rect(inset, inset + m + 4.0, w - inset, h - inset - m - 4.0),
             "PLAY ZONE: lay your attempt here, left to right in the order played"),
        Zone(ZONE_SIDE_BRANCHES, _rect(-150.0, -215.0, w + 150.0, -10.0),
             "SIDE BRANCHES: a rejected attempt goes below the line end (P4)"),
        Zone(ZONE_MAIN_LINE, _rect(-150.0, -330.0, w + 150.0, -215.0),
             "MAIN LINE: accepted cards, left to right (P3)"),
    )
    return TableLayout(markers, zones, TOKENS)


MAIN_LINE_SLOTS = main_line_slots(default_layout())
