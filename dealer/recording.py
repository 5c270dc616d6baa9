"""Recordings of a live round: a versioned JSON header line, then one event per line.

Modelled on asciinema's v2 files (STYLE.md): every line is flushed as it is written, so
a crash or a vanished camera loses at most the line being written; loading checks the
version and raises :class:`LoadError` naming the file, the line and what is wrong.

A recording lives in a folder: ``round.jsonl`` plus ``frames/NNNNNN.jpg``, the frames
that verdicts were judged on (for ``eleusis review``).

    {"eleusis_recording": 1, "created": "2026-11-29T23:00:00Z", "players": [...], ...}
    {"t": 12.4, "type": "verdict", "turn": 3, "player": "Ana", ...}
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import IO, Any, ClassVar

__all__ = [
    "FORMAT_VERSION",
    "Frame",
    "LoadError",
    "Recording",
    "RecordingWriter",
    "RuleRevealed",
    "Said",
    "Sealed",
    "Seen",
    "Trouble",
    "Undone",
    "Verdict",
    "load_recording",
]

FORMAT_VERSION = 1
HEADER_KEY = "eleusis_recording"
EVENTS_FILE = "round.jsonl"
FRAMES_DIR = "frames"


class LoadError(ValueError):
    """A recording that cannot be read; the message names the file and line."""


@dataclass(frozen=True, slots=True)
class Event:
    type: ClassVar[str] = ""
    t: float  # seconds since the recording started


@dataclass(frozen=True, slots=True)
class Sealed(Event):
    """The rule's commitment shown at the start (R2); the text stays secret."""

    type: ClassVar[str] = "sealed"
    commitment: str


@dataclass(frozen=True, slots=True)
class Frame(Event):
    """A frame kept on disk (relative path inside the recording folder)."""

    type: ClassVar[str] = "frame"
    index: int
    path: str


@dataclass(frozen=True, slots=True)
class Seen(Event):
    """What the camera read in a zone of a frame: each card with confidence and corners."""

    type: ClassVar[str] = "seen"
    frame: int
    zone: str
    cards: list[dict[str, Any]] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Verdict(Event):
    """One judged turn, with the record line it exports to and the frame it was read on."""

    type: ClassVar[str] = "verdict"
    turn: int
    player: str
    action: str  # the game-record action text, e.g. "play 4C 9H"
    verdict: str  # accepted, rejected, noplay-right, noplay-wrong, prophet
    penalty: int = 0
    expelled: bool = False
    overthrown: bool = False
    card: str | None = None
    frame: int | None = None
    why: str = ""  # filled after the reveal: which card broke the rule


@dataclass(frozen=True, slots=True)
class Undone(Event):
    """A verdict taken back by the dealer (key u): the round is replayed without it."""

    type: ClassVar[str] = "undone"
    turn: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Said(Event):
    type: ClassVar[str] = "said"
    text: str


@dataclass(frozen=True, slots=True)
class Trouble(Event):
    """Something the dealer could not use: an unreadable card, a lost camera, a bad layout."""

    type: ClassVar[str] = "trouble"
    text: str
    frame: int | None = None


@dataclass(frozen=True, slots=True)
class RuleRevealed(Event):
    """The rule and nonce after the round (R2, G6): anyone can check the commitment."""

    type: ClassVar[str] = "revealed"
    rule: str
    nonce: str


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls for cls in (Sealed, Frame, Seen, Verdict, Undone, Said, Trouble, RuleRevealed)
}


def _event_to_json(event: Event) -> str:
    return json.dumps({"type": event.type, **asdict(event)}, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class Recording:
    folder: Path
    header: Mapping[str, Any]
    events: tuple[Event, ...]
    truncated: bool = False  # the last line was cut short (a crash while writing it)

    def of_type(self, cls: type[Event]) -> list[Any]:
        return [e for e in self.events if isinstance(e, cls)]

    def frame_path(self, index: int) -> Path | None:
        for event in self.events:
            if isinstance(event, Frame) and event.index == index:
                return self.folder / event.path
        return None


class RecordingWriter:
    """Appends events to ``folder/round.jsonl``, flushing (and fsyncing) each line."""

    def __init__(self, folder: Path, header: Mapping[str, Any], fsync: bool = True) -> None:
        self.folder = Path(folder)
        (self.folder / FRAMES_DIR).mkdir(parents=True, exist_ok=True)
        path = self.folder / EVENTS_FILE
        if path.exists():
            raise FileExistsError(f"{path} already holds a recording; choose another folder")
        self._fsync = fsync
        self._file: IO[str] | None = path.open("w", encoding="utf-8")
        self._write_line(json.dumps({HEADER_KEY: FORMAT_VERSION, **header}, ensure_ascii=False))

    def _write_line(self, line: str) -> None:
        if self._file is None:
            raise ValueError("the recording is closed")
        self._file.write(line + "\n")
        self._file.flush()
        if self._fsync:
            os.fsync(self._file.fileno())

    def write(self, event: Event) -> None:
        self._write_line(_event_to_json(event))

    def save_frame(self, t: float, index: int, jpeg: bytes) -> Frame:
        """Store an encoded frame and log it; returns the Frame event."""
        rel = f"{FRAMES_DIR}/{index:06d}.jpg"
        (self.folder / rel).write_bytes(jpeg)
        event = Frame(t=t, index=index, path=rel)
        self.write(event)
        return event

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> RecordingWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _parse_event(data: Any, where: str) -> Event:
    if not isinstance(data, dict):
        raise LoadError(f"{where}: an event must be a JSON object, got {type(data).__name__}")
    kind = data.get("type")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise LoadError(f"{where}: unknown event type {kind!r} (known: {', '.join(sorted(EVENT_TYPES))})")
    names = {f.name for f in fields(cls)}
    extra = sorted(set(data) - names - {"type"})
    if extra:
        raise LoadError(f"{where}: {kind} event has unknown field(s) {', '.join(extra)}")
    try:
        return cls(**{k: v for k, v in data.items() if k != "type"})
    except TypeError as exc:
        raise LoadError(f"{where}: {kind} event is incomplete ({exc})") from exc


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    with path.open(encoding="utf-8") as f:
        for number, line in enumerate(f, start=1):
            yield number, line


def load_recording(folder: Path) -> Recording:
    """Read a recording folder (or its round.jsonl). Raises LoadError on anything off."""
    folder = Path(folder)
    path = folder / EVENTS_FILE if folder.is_dir() else folder
    folder = path.parent
    if not path.exists():
        raise LoadError(f"{path}: no recording there (expected a folder with {EVENTS_FILE})")
    header: dict[str, Any] | None = None
    events: list[Event] = []
    truncated = False
    raw_lines = list(_lines(path))
    for number, line in raw_lines:
        where = f"{path}: line {number}"
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            if number == raw_lines[-1][0] and not line.endswith("\n") and header is not None:
                truncated = True  # crash while writing the last line: keep the rest
                break
            raise LoadError(f"{where}: not JSON ({exc.msg} at column {exc.colno})") from exc
        if header is None:
            if not isinstance(data, dict) or HEADER_KEY not in data:
                raise LoadError(f"{where}: not an eleusis recording (the header has no {HEADER_KEY!r})")
            version = data[HEADER_KEY]
            if version != FORMAT_VERSION:
                raise LoadError(
                    f"{where}: this is a version {version!r} recording; this dealer reads version "
                    f"{FORMAT_VERSION}" + (" (made by a newer dealer: upgrade)" if isinstance(version, int)
                                           and version > FORMAT_VERSION else "")
                )
            header = data
            continue
        events.append(_parse_event(data, where))
    if header is None:
        raise LoadError(f"{path}: empty file, no recording header")
    return Recording(folder=folder, header=header, events=tuple(events), truncated=truncated)
