"""Recordings of a live round: a versioned JSON header line, then one chained event per line.

Modelled on asciinema's v2 files (STYLE.md): every line is flushed as it is written, so
a crash or a vanished camera loses at most the line being written; loading checks the
version and every field's type, and raises :class:`LoadError` naming the file, the line
and what is wrong.

One layout for a recording folder (the only place these names are spelled):

- ``round.jsonl`` (:data:`EVENTS_FILE`): the log. Line 1 is the header; every later line
  is an event carrying ``"prev"``, the SHA-256 of the line before it (its UTF-8 bytes,
  without the newline): a hash chain, so an edited, deleted, inserted or moved line breaks
  it (dealer/record/verify.py names where). A ``frame`` event also carries the SHA-256 of its
  image file. The hash of the whole file (``sha256sum round.jsonl``) is the *log hash*
  shown at the table when the round ends.
- ``frames/NNNNNN.jpg`` (:data:`FRAMES_DIR`): the frames verdicts were judged on; ``views/``
  (:data:`VIEWS_DIR`): the table view shown to the players at a verdict, when kept.
- ``round.eleusis`` (:data:`RECORD_FILE`): the game record so far; its header says
  ``rule: sealed <commitment>`` until the reveal (R2, G6).
- ``rule.sealed`` (dealer/record/envelope.py): the rule and nonce, encrypted, mode 0600.
- ``seal.png`` and ``log-hash.png``: the seal and the log hash as QR codes (dealer/record/seal_show.py).
- ``dealer.lock`` (:data:`LOCK_FILE`): locked (``flock``) by the one process writing the
  recording, holding its pid; a second writer (two ``play --resume`` on one folder) is
  refused with :class:`RecordingBusy`, naming that pid. The system releases the lock when
  the process ends, a crash included, so a stale file never blocks a resume.

    {"eleusis_recording": 2, "created": "2026-11-29T23:00:00Z", "players": [...], ...}
    {"type":"sealed","t":0.0,"commitment":"5d0c...","prev":"9a1f..."}
    {"type":"verdict","t":12.4,"turn":3,"player":"Ana",...,"prev":"77b2..."}
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import IO, Any, ClassVar, TypeVar

from dealer.record.envelope import ENVELOPE_FILE, forget_key, open_envelope, seal_envelope
from engine.seal import seal

__all__ = [
    "ENVELOPE_FILE",
    "EVENTS_FILE",
    "FORMAT_VERSION",
    "FRAMES_DIR",
    "LOCK_FILE",
    "LOG_HASH_QR",
    "RECORD_FILE",
    "RecordingBusy",
    "drop_cut_line",
    "folder_lock",
    "SEAL_QR",
    "FrameLine",
    "LoadError",
    "LoggedLine",
    "Recording",
    "RecordingWriter",
    "RuleRevealed",
    "Said",
    "Sealed",
    "Seen",
    "Started",
    "Trouble",
    "Undone",
    "VerdictLine",
    "View",
    "line_hash",
    "load_recording",
    "log_hash",
    "open_envelope",
    "write_record",
]

FORMAT_VERSION = 2  # 2: hash-chained lines, frame hashes, "started", the sealed envelope
HEADER_KEY = "eleusis_recording"
EVENTS_FILE = "round.jsonl"
FRAMES_DIR = "frames"
VIEWS_DIR = "views"
RECORD_FILE = "round.eleusis"
LOCK_FILE = "dealer.lock"
SEAL_QR = "seal.png"
LOG_HASH_QR = "log-hash.png"
MAX_LOG_BYTES = 256 * 1024 * 1024  # a 3-hour round logs a few MB; beyond this it is not a recording


class LoadError(ValueError):
    """A recording that cannot be read; the message names the file and line."""


def line_hash(line: str) -> str:
    """The SHA-256 of one log line (its UTF-8 bytes, no newline): the next line's ``prev``."""
    return hashlib.sha256(line.encode("utf-8")).hexdigest()


def log_hash(folder: Path) -> str:
    """The SHA-256 of the whole log file: what ``sha256sum round.jsonl`` prints."""
    return hashlib.sha256((Path(folder) / EVENTS_FILE).read_bytes()).hexdigest()


@dataclass(frozen=True, slots=True)
class EventLine:
    """One line of the log after the header. The ``*Line`` names keep these apart from the
    engine's :class:`engine.events.Verdict` / ``Event`` and vision's :class:`vision.frames.Frame`;
    ``type`` is the JSON ``"type"`` value on disk."""

    type: ClassVar[str] = ""
    t: float  # seconds since the recording started


@dataclass(frozen=True, slots=True)
class Sealed(EventLine):
    """The rule's commitment shown before the deal (R2); the text stays in the envelope."""

    type: ClassVar[str] = "sealed"
    commitment: str


@dataclass(frozen=True, slots=True)
class Started(EventLine):
    """The round began (C4, C5): the setup the game record is rebuilt from."""

    type: ClassVar[str] = "started"
    players: list[str]
    starters: list[str]
    hand: int
    decks: int


@dataclass(frozen=True, slots=True)
class FrameLine(EventLine):
    """A frame kept on disk (relative path inside the recording folder) and its SHA-256."""

    type: ClassVar[str] = "frame"
    index: int
    path: str
    sha256: str = ""


@dataclass(frozen=True, slots=True)
class View(EventLine):
    """The picture of the table shown to the players at a verdict (``views/``), and its SHA-256."""

    type: ClassVar[str] = "view"
    frame: int
    path: str
    sha256: str


@dataclass(frozen=True, slots=True)
class Seen(EventLine):
    """What the camera read in a zone of a frame: each card with confidence and corners."""

    type: ClassVar[str] = "seen"
    frame: int
    zone: str
    cards: list[dict[str, Any]] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class VerdictLine(EventLine):
    """One judged turn, with the record line it exports to and the frame it was read on."""

    type: ClassVar[str] = "verdict"
    turn: int
    player: str
    action: str  # the game-record action line, e.g. "Ana: play 4C 9H"
    verdict: str  # accepted, rejected, noplay-right, noplay-wrong, prophet
    penalty: int = 0
    expelled: bool = False
    overthrown: bool = False
    card: str | None = None
    frame: int | None = None


@dataclass(frozen=True, slots=True)
class Undone(EventLine):
    """A verdict taken back by the dealer (key u): the round is replayed without it."""

    type: ClassVar[str] = "undone"
    turn: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Said(EventLine):
    type: ClassVar[str] = "said"
    text: str


@dataclass(frozen=True, slots=True)
class Trouble(EventLine):
    """Something the dealer could not use: an unreadable card, a lost camera, a bad layout."""

    type: ClassVar[str] = "trouble"
    text: str
    frame: int | None = None


@dataclass(frozen=True, slots=True)
class RuleRevealed(EventLine):
    """The rule and nonce after the round (R2, G6): anyone can check the commitment."""

    type: ClassVar[str] = "revealed"
    rule: str
    nonce: str


LineT = TypeVar("LineT", bound=EventLine)

EVENT_TYPES: dict[str, type[EventLine]] = {
    cls.type: cls for cls in (Sealed, Started, FrameLine, View, Seen, VerdictLine, Undone, Said, Trouble, RuleRevealed)
}


def _is_number(v: object) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


# Each field's declared type (as written in the dataclasses above) -> the check of a loaded value.
_TYPE_CHECKS: dict[str, tuple[str, Callable[[object], bool]]] = {
    "float": ("a number", _is_number),
    "int": ("a whole number", _is_int),
    "str": ("a string", lambda v: isinstance(v, str)),
    "bool": ("true or false", lambda v: isinstance(v, bool)),
    "str | None": ("a string or null", lambda v: v is None or isinstance(v, str)),
    "int | None": ("a whole number or null", lambda v: v is None or _is_int(v)),
    "list[str]": ("a list of strings", lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v)),
    "list[dict[str, Any]]": ("a list of objects", lambda v: isinstance(v, list) and all(isinstance(x, dict) for x in v)),
}


def _event_to_json(event: EventLine, prev: str) -> str:
    return json.dumps({"type": event.type, **asdict(event), "prev": prev}, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class LoggedLine:
    """Where an event sits in the log: its line number, its own hash and the ``prev`` it carries."""

    number: int
    hash: str
    prev: str


@dataclass(frozen=True, slots=True)
class Recording:
    folder: Path
    header: Mapping[str, Any]
    events: tuple[EventLine, ...]
    truncated: bool = False  # the last line was cut short (a crash while writing it)
    lines: tuple[LoggedLine, ...] = ()  # one per event, in order
    header_hash: str = ""
    complete_bytes: int = 0  # the log's length up to its last whole line
    _numbers: dict[int, int] = field(default_factory=dict, compare=False, repr=False)  # id(event) -> line

    def of_type(self, cls: type[LineT]) -> list[LineT]:
        return [e for e in self.events if isinstance(e, cls)]

    def frame_path(self, index: int) -> Path | None:
        for event in self.events:
            if isinstance(event, FrameLine) and event.index == index:
                return self.folder / event.path
        return None

    def line_of(self, event: EventLine) -> int:
        """The log line an event was read from (the header is line 1)."""
        if not self._numbers:
            self._numbers.update((id(e), line.number) for e, line in zip(self.events, self.lines, strict=False))
        return self._numbers.get(id(event), 0)


def write_record(folder: Path, text: str) -> Path:
    """Replace ``folder/round.eleusis`` with ``text`` atomically: a temporary file written and
    flushed to disk, then renamed over the record, then the folder flushed. A crash at any
    step leaves the old record or the new one, never half of one; an old record left behind
    a log that went on (the reveal logged, the record not yet rewritten) is brought up to
    date by :func:`dealer.record.verify.catch_up_record` (``eleusis reveal`` and ``review``)."""
    path = Path(folder) / RECORD_FILE
    tmp = path.with_name(RECORD_FILE + ".tmp")
    with tmp.open("wb") as f:
        f.write(text.encode("utf-8"))
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    _fsync_folder(path.parent)
    return path


def _fsync_folder(folder: Path) -> None:
    """Flush a folder's entries (a rename) to disk; a system that cannot is left as it is."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class RecordingBusy(ValueError):
    """Another process is writing this recording (its lock is held)."""

    def __init__(self, folder: Path, pid: str) -> None:
        super().__init__(f"{folder} is being recorded by another dealer process (pid {pid or 'unknown'}): two "
                         "cannot write one round. Let it finish, or stop it, then resume")
        self.pid = pid


def _lock_folder(folder: Path) -> int:
    """Take the recording's lock (see the module doc); returns the descriptor that holds it."""
    fd = os.open(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        try:
            pid = os.read(fd, 32).decode("ascii", "replace").strip()
        finally:
            os.close(fd)
        raise RecordingBusy(folder, pid) from None
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode("ascii"))
    return fd


@contextlib.contextmanager
def folder_lock(folder: Path) -> Iterator[None]:
    """Hold the recording's lock (see the module doc) for a change made outside a writer;
    raises :class:`RecordingBusy` while another process records there."""
    fd = _lock_folder(Path(folder))
    try:
        yield
    finally:
        os.close(fd)


def drop_cut_line(rec: Recording) -> None:
    """Cut ``round.jsonl`` back to its last whole line (a line cut short by a crash is
    dropped; a last whole line whose newline was lost gets it). Call it holding the lock."""
    with (rec.folder / EVENTS_FILE).open("r+b") as f:
        f.truncate(rec.complete_bytes)
        if rec.complete_bytes:
            f.seek(rec.complete_bytes - 1)
            if f.read(1) != b"\n":
                f.write(b"\n")


class RecordingWriter:
    """Appends chained events to ``folder/round.jsonl``, flushing (and fsyncing) each line."""

    def __init__(self, folder: Path, header: Mapping[str, Any], fsync: bool = True, *, _resume: bool = False) -> None:
        self.folder = Path(folder)
        self._fsync = fsync
        self.commitment: str | None = None
        self._file: IO[str] | None = None
        self._lock: int | None = None
        self._prev = ""
        path = self.folder / EVENTS_FILE
        if _resume:
            return
        (self.folder / FRAMES_DIR).mkdir(parents=True, exist_ok=True)
        if path.exists():
            raise FileExistsError(f"{path} already holds a recording; choose another folder")
        self._lock = _lock_folder(self.folder)
        try:
            self._file = path.open("x", encoding="utf-8")
        except OSError:
            self._unlock()
            raise
        created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        self._write_line(json.dumps({HEADER_KEY: FORMAT_VERSION, "created": created, **header}, ensure_ascii=False))

    @classmethod
    def resume(cls, folder: Path, fsync: bool = True) -> RecordingWriter:
        """Reopen a recording to append to it (``play --resume``): a line cut short by a crash
        is dropped, and the chain goes on from the last whole line."""
        lock = _lock_folder(Path(folder)) if Path(folder).is_dir() else None  # before reading: one writer
        try:
            rec = load_recording(folder)
        except BaseException:
            if lock is not None:
                os.close(lock)
            raise
        writer = cls(rec.folder, {}, fsync, _resume=True)
        writer._lock = lock
        try:
            drop_cut_line(rec)
            writer._file = (rec.folder / EVENTS_FILE).open("a", encoding="utf-8")
        except BaseException:
            writer._unlock()
            raise
        writer._prev = rec.lines[-1].hash if rec.lines else rec.header_hash
        sealed = rec.of_type(Sealed)
        writer.commitment = sealed[0].commitment if sealed else None
        return writer

    def _write_line(self, line: str) -> None:
        if self._file is None:
            raise ValueError("the recording is closed")
        self._file.write(line + "\n")
        self._file.flush()
        if self._fsync:
            os.fsync(self._file.fileno())
        self._prev = line_hash(line)

    def write(self, event: EventLine) -> None:
        self._write_line(_event_to_json(event, self._prev))
        if isinstance(event, RuleRevealed) and self.commitment is not None:
            forget_key(self.commitment)  # the rule is in the log now: the key guards nothing

    def _save_image(self, folder: str, index: int, data: bytes, suffix: str) -> str:
        rel = f"{folder}/{index:06d}{suffix}"
        n = 1
        while (self.folder / rel).exists():  # a resumed round may see the same index again
            rel, n = f"{folder}/{index:06d}-{n}{suffix}", n + 1
        (self.folder / folder).mkdir(parents=True, exist_ok=True)
        with (self.folder / rel).open("wb") as f:
            f.write(data)
            if self._fsync:  # on disk before the line that names it, so before the verdict it shows
                f.flush()
                os.fsync(f.fileno())
        return rel

    def save_frame(self, t: float, index: int, jpeg: bytes) -> FrameLine:
        """Store an encoded frame and log it with its hash; returns its FrameLine."""
        rel = self._save_image(FRAMES_DIR, index, jpeg, ".jpg")
        event = FrameLine(t=t, index=index, path=rel, sha256=hashlib.sha256(jpeg).hexdigest())
        self.write(event)
        return event

    def save_view(self, t: float, frame: int, image: bytes, suffix: str = ".jpg") -> View:
        """Store the table view shown at a verdict (JPEG or PNG bytes) and log it with its hash."""
        rel = self._save_image(VIEWS_DIR, frame, image, suffix)
        event = View(t=t, frame=frame, path=rel, sha256=hashlib.sha256(image).hexdigest())
        self.write(event)
        return event

    def write_envelope(self, rule: str, nonce: str) -> str:
        """Keep the rule and nonce in the folder, encrypted (dealer/record/envelope.py), before the
        seal is shown (R2); returns the commitment, which the ``sealed`` line then carries."""
        commitment = seal(rule, nonce).commitment
        seal_envelope(self.folder, rule, nonce, commitment)
        self.commitment = commitment
        return commitment

    def seal(self, t: float, rule: str, nonce: str) -> Sealed:
        """The envelope, then the commitment in the log (R2)."""
        event = Sealed(t=t, commitment=self.write_envelope(rule, nonce))
        self.write(event)
        return event

    def reveal(self, t: float, rule: str, nonce: str) -> RuleRevealed:
        """The reveal (G6): the rule and nonce in the log (the envelope's key is then forgotten)."""
        event = RuleRevealed(t=t, rule=rule, nonce=nonce)
        self.write(event)
        return event

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
        self._unlock()

    def _unlock(self) -> None:
        if self._lock is not None:
            os.close(self._lock)  # closing the descriptor releases the flock
            self._lock = None

    def __enter__(self) -> RecordingWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _parse_event(data: Any, where: str) -> tuple[EventLine, str]:
    if not isinstance(data, dict):
        raise LoadError(f"{where}: an event must be a JSON object, got {type(data).__name__}")
    kind = data.get("type")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise LoadError(f"{where}: unknown event type {str(kind)[:40]!r} (known: {', '.join(sorted(EVENT_TYPES))})")
    prev = data.get("prev")
    if not isinstance(prev, str):
        raise LoadError(f"{where}: {kind} event has no 'prev' (the hash of the line before it)")
    declared = {f.name: f for f in fields(cls)}
    extra = sorted(set(data) - set(declared) - {"type", "prev"})
    if extra:
        raise LoadError(f"{where}: {kind} event has unknown field(s) {', '.join(e[:40] for e in extra)}")
    values = {k: v for k, v in data.items() if k not in ("type", "prev")}
    for name, value in values.items():
        what, ok = _TYPE_CHECKS[str(declared[name].type)]
        if not ok(value):
            raise LoadError(f"{where}: {kind} event field {name!r} must be {what}, got {json.dumps(value)[:40]}")
    try:
        return cls(**values), prev
    except TypeError as exc:
        raise LoadError(f"{where}: {kind} event is incomplete ({exc})") from None


def _read_text(path: Path) -> str:
    try:
        size = path.stat().st_size
        if size > MAX_LOG_BYTES:
            raise LoadError(f"{path}: {size} bytes is too large for a recording (at most {MAX_LOG_BYTES})")
        data = path.read_bytes()
    except OSError as exc:
        raise LoadError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        hint = " (it looks like UTF-16)" if data[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in data[:64] else ""
        raise LoadError(f"{path}: not UTF-8 text at byte {exc.start}{hint}; recordings are UTF-8 JSON lines") from None


def _header(data: Any, where: str) -> dict[str, Any]:
    if not isinstance(data, dict) or HEADER_KEY not in data:
        raise LoadError(f"{where}: not an eleusis recording (the header has no {HEADER_KEY!r})")
    version = data[HEADER_KEY]
    if version != FORMAT_VERSION:
        newer = _is_int(version) and version > FORMAT_VERSION
        older = _is_int(version) and version < FORMAT_VERSION
        raise LoadError(
            f"{where}: this is a version {json.dumps(version)[:20]} recording; this dealer reads version "
            f"{FORMAT_VERSION}" + (" (made by a newer dealer: upgrade)" if newer else "")
            + (" (made before recordings were hash-chained: it cannot be verified; "
               "an older dealer can still review it)" if older else "")
        )
    players = data.get("players", [])
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise LoadError(f"{where}: the header's 'players' must be a list of names")
    return data


def load_recording(folder: Path) -> Recording:
    """Read a recording folder (or its round.jsonl). Raises LoadError on anything off."""
    folder = Path(folder)
    path = folder / EVENTS_FILE if folder.is_dir() else folder
    folder = path.parent
    if not path.exists():
        raise LoadError(f"{path}: no recording there (expected a folder with {EVENTS_FILE})")
    if path.is_dir():
        raise LoadError(f"{path}: is a folder, not a recording log")
    text = _read_text(path)
    header: dict[str, Any] | None = None
    header_hash = ""
    events: list[EventLine] = []
    lines: list[LoggedLine] = []
    truncated = False
    raw_lines = text.split("\n")
    last = len(raw_lines) - (1 if text.endswith("\n") else 0)
    offset = complete = 0
    for number, line in enumerate(raw_lines, start=1):
        if number > last:
            break
        where = f"{path}: line {number}"
        ending = number < last or text.endswith("\n")
        offset += len(line.encode("utf-8")) + (1 if ending else 0)
        if not line.strip():
            if ending:
                complete = offset
            continue
        try:
            data = json.loads(line)
        except (ValueError, RecursionError) as exc:
            if not ending and header is not None:
                truncated = True  # crash while writing the last line: keep the rest
                break
            msg = (f"{exc.msg} at column {exc.colno}" if isinstance(exc, json.JSONDecodeError)
                   else "nested too deep" if isinstance(exc, RecursionError) else str(exc)[:80])
            raise LoadError(f"{where}: not JSON ({msg})") from None
        if header is None:
            header, header_hash = _header(data, where), line_hash(line)
        else:
            event, prev = _parse_event(data, where)
            events.append(event)
            lines.append(LoggedLine(number, line_hash(line), prev))
        if ending:
            complete = offset
    if header is None:
        raise LoadError(f"{path}: empty file, no recording header")
    return Recording(folder=folder, header=header, events=tuple(events), truncated=truncated,
                     lines=tuple(lines), header_hash=header_hash, complete_bytes=complete)
