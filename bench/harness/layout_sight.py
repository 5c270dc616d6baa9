"""What the layout watch read of the main line and the side branches, against what lay there.

The round bench (bench/table_rounds.py) deals with :class:`LayoutTap` between the dealer and
its zone reader: every reading of a line zone is kept with the frame it was read on and the
layout the renderer laid in that frame (``StepRenderer.layout_cards``: each card's label and
centre in table mm). :func:`layout_sight` then scores the last reading of each still table
state (the layout unchanged for ``STILL_FRAMES`` frames with no hand over the table): a card
is read when a reading of its label lies within ``NEAR_MM`` of its centre; a reading that names
another card than the one lying there, or lies where no card does, is wrong. A card covered
by a later card of its column (only its top shows) counts apart, and so does a card lying in
a line zone the watch did not look at (one the camera does not see readable: the side
branches of the standard whole-layout view).

:func:`layout_notes` lists what the layout watch said in a recording (its sentences of
dealer/speech/layout_words.py): misplacements, the layout right again, the PROPHET token.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np
import numpy.typing as npt

from calibration.layout import ZONE_MAIN_LINE, ZONE_SIDE_BRANCHES
from dealer.record.recording import EVENTS_FILE
from vision.geometry import CARD_H_MM, CARD_W_MM
from vision.pipeline import ZoneReading
from vision.synthetic import CardPlacement

__all__ = ["LayoutSight", "LayoutTap", "layout_notes", "layout_sight"]

NEAR_MM = 25.0  # a reading this near a card's centre is of that card (cards lie 70 mm apart, columns ~35)
STILL_FRAMES = 4  # a table state scored once it has lain this many frames without a hand
_LINE = (ZONE_MAIN_LINE, ZONE_SIDE_BRANCHES)
# the beginnings of what the layout watch says (English): dealer/speech/layout_words.py
_NOTE_STARTS = ("The layout does not match", "Still out of place", "The layout is right again",
                "Going on with the layout", "The PROPHET token")


class _Table(Protocol):
    frame_count: int
    hand_frames: set[int]

    @property
    def renderer(self) -> Any: ...


class _ZoneReader(Protocol):
    def read_zone(self, crop_bgr: npt.NDArray[np.uint8], crop_to_table: npt.ArrayLike, zone: str,
                  polygon_mm: npt.ArrayLike, token_centres_mm: Iterable[tuple[float, float]] = ()
                  ) -> ZoneReading: ...


Read = tuple[str | None, float, float]  # label (None: unread), centre x, y in table mm


@dataclass
class LayoutTap:
    """A zone reader that passes every call on to ``inner`` and keeps what it read in the line
    zones, with the frame's truth from ``table`` (a bench.harness.scripted_table.ScriptedTable)."""

    inner: _ZoneReader
    table: _Table
    frames: dict[int, tuple[tuple[CardPlacement, ...], dict[str, list[Read]]]] = field(default_factory=dict)
    # the outline (table mm) of each line zone the watch looked at, frame by frame: a zone the
    # camera does not see readable is never looked at, and the cards lying there are not counted
    watched: dict[int, dict[str, npt.NDArray[np.float32]]] = field(default_factory=dict)

    def read_zone(self, crop_bgr: npt.NDArray[np.uint8], crop_to_table: npt.ArrayLike, zone: str,
                  polygon_mm: npt.ArrayLike, token_centres_mm: Iterable[tuple[float, float]] = ()
                  ) -> ZoneReading:
        reading = self.inner.read_zone(crop_bgr, crop_to_table, zone, polygon_mm, token_centres_mm)
        if zone in _LINE:
            frame = self.table.frame_count - 1
            truth = tuple(self.table.renderer.layout_cards)
            kept = self.frames.setdefault(frame, (truth, {}))
            cards = reading.cards
            reads: list[Read] = []
            if len(cards):
                pts = cards.center_xy.reshape(1, -1, 2).astype(np.float64)
                mm = cv2.perspectiveTransform(pts, np.asarray(crop_to_table, np.float64))[0]
                reads = [(None if cards.label[i] is None else str(cards.label[i]), float(mm[i][0]), float(mm[i][1]))
                         for i in range(len(cards))]
            kept[1][zone] = reads
            self.watched.setdefault(frame, {})[zone] = np.asarray(polygon_mm, np.float32).reshape(-1, 1, 2)
        return reading


@dataclass
class LayoutSight:
    """The line zones' readings scored on still table states."""

    states: int = 0  # still table states scored
    cards: int = 0  # cards lying in the line zones over those states
    read: int = 0
    covered: int = 0  # of ``cards``: covered by a later card of a column, only their top showing
    covered_read: int = 0
    wrong: int = 0  # readings naming another card than the one lying there, or where none lies
    wrong_list: list[str] = field(default_factory=list)
    missed_list: list[str] = field(default_factory=list)  # the cards lying there not read
    # cards lying in a line zone the watch does not look at (not readable from this camera):
    # counted apart, not in ``cards``
    unwatched: int = 0

    def add(self, other: LayoutSight) -> None:
        self.states += other.states
        self.cards += other.cards
        self.read += other.read
        self.covered += other.covered
        self.covered_read += other.covered_read
        self.wrong += other.wrong
        self.wrong_list.extend(other.wrong_list)
        self.missed_list.extend(other.missed_list)
        self.unwatched += other.unwatched

    def words(self) -> str:
        if not self.states:
            return "layout not watched (no still layout read)"
        whole = self.cards - self.covered
        return (f"layout {self.read}/{self.cards} cards read in {self.states} still states "
                f"(lying whole {self.read - self.covered_read}/{whole}, overlapped {self.covered_read}/{self.covered}), "
                f"{self.wrong} wrong" + (f"; {self.unwatched} more in a zone not watched from this camera"
                                         if self.unwatched else ""))


def _covered(cards: Sequence[CardPlacement]) -> list[bool]:
    """Whether each card has a later card lying over its lower part (a column)."""
    out = []
    for k, c in enumerate(cards):
        out.append(any(abs(d.centre_mm[0] - c.centre_mm[0]) < 0.5 * CARD_W_MM
                       and 0.0 < d.centre_mm[1] - c.centre_mm[1] < CARD_H_MM for d in cards[k + 1:]))
    return out


def _key(cards: Sequence[CardPlacement]) -> tuple[tuple[str, int, int], ...]:
    return tuple((c.label, round(c.centre_mm[0] / 5.0), round(c.centre_mm[1] / 5.0)) for c in cards)


def layout_sight(tap: LayoutTap) -> LayoutSight:
    """Score the last reading of each still table state (see the module's words)."""
    out = LayoutSight()
    chosen: dict[tuple[tuple[str, int, int], ...], int] = {}
    run_key: tuple[tuple[str, int, int], ...] | None = None
    run = 0
    hands = tap.table.hand_frames
    for frame in sorted(tap.frames):
        truth, _reads = tap.frames[frame]
        key = _key(truth)
        if frame in hands or key != run_key:
            run_key, run = (None if frame in hands else key), 0
            if frame in hands:
                continue
        run += 1
        if run >= STILL_FRAMES and truth:
            chosen[key] = frame
    for frame in chosen.values():
        truth, reads = tap.frames[frame]
        seen = [r for zone in _LINE for r in reads.get(zone, [])]
        zones = tap.watched.get(frame, {}).values()
        looked = [any(cv2.pointPolygonTest(z, (float(c.centre_mm[0]), float(c.centre_mm[1])), False) >= 0
                      for z in zones) for c in truth]
        covered = _covered(truth)
        out.states += 1
        out.cards += sum(looked)
        out.unwatched += len(truth) - sum(looked)
        out.covered += sum(u for u, w in zip(covered, looked, strict=True) if w)
        for card, under, watched in zip(truth, covered, looked, strict=True):
            if not watched:
                continue
            hit = any(label == card.label and np.hypot(x - card.centre_mm[0], y - card.centre_mm[1]) <= NEAR_MM
                      for label, x, y in seen)
            out.read += hit
            out.covered_read += hit and under
            if not hit:
                out.missed_list.append(f"frame {frame}: {card.label} {'covered' if under else 'lying whole'} at "
                                       f"({card.centre_mm[0]:.0f}, {card.centre_mm[1]:.0f}) mm not read")
        for label, x, y in seen:
            if label is None:
                continue
            near = [c for c in truth if np.hypot(x - c.centre_mm[0], y - c.centre_mm[1]) <= NEAR_MM]
            if not any(c.label == label for c in near):
                out.wrong += 1
                lying = near[0].label if near else "nothing"
                out.wrong_list.append(f"frame {frame}: read {label} at ({x:.0f}, {y:.0f}) mm where {lying} lies")
    return out


def layout_notes(recording: Path) -> list[str]:
    """What the layout watch said in a recording folder, in order."""
    path = recording / EVENTS_FILE
    if not path.exists():
        return []
    notes = []
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        if not line.strip():
            continue
        event: dict[str, Any] = json.loads(line)
        text = str(event.get("text", ""))
        if event.get("type") in ("said", "trouble") and text.startswith(_NOTE_STARTS):
            notes.append(text)
    return notes
