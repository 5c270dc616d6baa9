"""Does a recording prove itself? The chain, the frames, the seal and the game record.

:func:`verify_recording` checks, and names every broken place (``round.jsonl line 7: ...``):

- the hash chain: each line's ``prev`` is the hash of the line before it, so an edited,
  deleted, duplicated, inserted or moved line shows where it happened;
- the frames: each kept image still has the SHA-256 its ``frame`` line logged;
- the seal (R2, G6): one ``sealed`` line before the deal, a reveal that matches it, and,
  when given, the seal and the log hash shown at the table;
- the game record: rebuilt from the log (the ``started`` line and every verdict not taken
  back), replayed through the engine's :class:`~engine.round.Round` with the revealed rule,
  each logged verdict, penalty and expulsion compared with the engine's, and the rebuilt
  record compared with ``round.eleusis``.

What the chain alone cannot see: the last line changed, lines cut off the end, or the whole
log forged anew (a new rule, nonce and commitment, every hash recomputed). The log hash and
the seal the players photographed at the table catch those; without them the check says so:
:attr:`Verification.anchored` is true only when the log hash shown at the table was given
(it covers every line, the seal's included), and ``eleusis verify`` exits 3, not 0, when it
was not. A seal or log hash that is not ``sha256:`` and 64 hex digits is refused as malformed
(:class:`AnchorError`), never compared.
"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass
from pathlib import PurePosixPath

from dealer.record.envelope import forget_key
from dealer.speech.narrate import explain_verdict
from dealer.record.recording import (
    RECORD_FILE,
    RecordingBusy,
    drop_cut_line,
    folder_lock,
    load_recording,
    write_record,
    FrameLine,
    Recording,
    RuleRevealed,
    Sealed,
    Started,
    Undone,
    VerdictLine,
    View,
    log_hash,
)
from engine.cards import Card, CardParseError
from engine.errors import RecordError, RoundError, RoundSetupError
from engine.events import OracleTurn, RecordAction, RoundStarted, TurnOutcome
from engine.record import format_record, parse_record
from engine.round import Round
from engine.rules import resolve_rule
from engine.rules.base import Rule
from engine.seal import verify
from engine.variants import DEFAULT_VARIANT, AnyRound, round_for

__all__ = ["AnchorError", "BrokenPlace", "Rebuilt", "RebuiltTurn", "Verification", "CaughtUp", "catch_up_record", "read_anchor", "rebuild", "verify_recording"]

_HEX = frozenset("0123456789abcdef")


class AnchorError(ValueError):
    """A seal or log hash given for the check is not one at all (``zz``, 24 digits of 64)."""


def read_anchor(text: str, option: str) -> str:
    """The 64 hex digits of a seal or log hash as shown at the table (``sha256:...``, any case).

    >>> read_anchor("SHA256:" + "Ab" * 32, "--seal") == "ab" * 32
    True
    >>> try:
    ...     read_anchor("zz", "--seal")
    ... except AnchorError as exc:
    ...     print(exc)
    --seal 'zz' is malformed: it takes sha256: and 64 hex digits, as shown at the table (2 given)
    """
    given = text.strip().lower().removeprefix("sha256:")
    if len(given) != 64 or not set(given) <= _HEX:
        raise AnchorError(f"{option} {text!r} is malformed: it takes sha256: and 64 hex digits, as shown at the "
                          f"table ({len(given)} given)")
    return given


@dataclass(frozen=True, slots=True)
class BrokenPlace:
    """One place that fails to verify: where (a file and line) and what is wrong."""

    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


@dataclass(frozen=True, slots=True)
class RebuiltTurn:
    """A verdict of the log that stands (not taken back), with its action and, after the
    reveal, the engine's own outcome and why."""

    logged: VerdictLine
    line: int
    action: RecordAction
    outcome: TurnOutcome | None = None
    why: str = ""


@dataclass(frozen=True, slots=True)
class Rebuilt:
    """The round as the log tells it."""

    start: RoundStarted | None  # None before the starters were laid
    turns: tuple[RebuiltTurn, ...]
    rule: Rule | None  # the revealed rule, parsed; None while sealed
    round: AnyRound | None  # replayed with the revealed rule; None while sealed
    record_text: str | None  # the game record rebuilt from the log


@dataclass(frozen=True, slots=True)
class Verification:
    problems: tuple[BrokenPlace, ...]
    notes: tuple[str, ...]
    revealed: RuleRevealed | None
    commitment: str | None
    log_hash: str
    rebuilt: Rebuilt
    seal_shown: str | None = None  # the seal given from the table, when given
    log_hash_shown: str | None = None  # the log hash given from the table, when given

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def anchored(self) -> bool:
        """Tied to the table: the log hash shown there was given (it covers every line, the
        sealed one too). Without it a log forged anew, every hash recomputed, is consistent."""
        return self.log_hash_shown is not None

    @property
    def seal_matches_table(self) -> bool | None:
        """Whether the seal in the log is the one shown at the table; None when none was given
        or the log holds no seal."""
        if self.seal_shown is None or self.commitment is None:
            return None
        return self.seal_shown == self.commitment


def _where(rec: Recording, number: int) -> str:
    return f"{rec.folder.name}/round.jsonl line {number}"


def _check_chain(rec: Recording, problems: list[BrokenPlace]) -> None:
    hashes = [rec.header_hash] + [line.hash for line in rec.lines]
    numbers = [1] + [line.number for line in rec.lines]
    for i, line in enumerate(rec.lines):
        if line.prev == hashes[i]:
            continue
        before = numbers[i]
        if line.hash == hashes[i]:
            what = f"repeats line {before} (a duplicated line)"
        elif line.prev in hashes[:i]:
            j = hashes.index(line.prev)
            what = (f"was written right after line {numbers[j]}: line(s) {numbers[j + 1]}-{before} were "
                    "inserted, duplicated or moved here")
        elif line.prev in hashes[i + 1:]:
            j = hashes.index(line.prev, i + 1)
            what = f"was written right after what is now line {numbers[j]}: lines were moved"
        else:
            what = (f"the line before it (line {before}) is not the one it was chained to: "
                    f"line {before} was changed, or lines were deleted between lines {before} and {line.number}")
        problems.append(BrokenPlace(_where(rec, line.number), what))


def _check_frames(rec: Recording, problems: list[BrokenPlace]) -> None:
    frames: list[FrameLine | View] = [e for e in rec.events if isinstance(e, FrameLine | View)]
    logged = {f.sha256: f.path for f in frames if f.sha256}
    for frame in frames:
        where = _where(rec, rec.line_of(frame))
        rel = PurePosixPath(frame.path)
        if rel.is_absolute() or ".." in rel.parts:
            problems.append(BrokenPlace(where, f"frame path {frame.path!r} points outside the recording"))
            continue
        if not frame.sha256:
            problems.append(BrokenPlace(where, f"{frame.path}: no hash logged for this frame"))
            continue
        try:
            actual = hashlib.sha256((rec.folder / rel).read_bytes()).hexdigest()
        except OSError:
            problems.append(BrokenPlace(where, f"{frame.path} is missing"))
            continue
        if actual == frame.sha256:
            continue
        other = logged.get(actual)
        problems.append(BrokenPlace(where, f"{frame.path} holds the picture logged for {other} (frames swapped)"
                                if other else f"{frame.path} was changed after it was logged"))


def _check_seal(rec: Recording, seal: str | None, problems: list[BrokenPlace]) -> tuple[str | None, RuleRevealed | None]:
    sealed = rec.of_type(Sealed)
    revealed = rec.of_type(RuleRevealed)
    started = rec.of_type(Started)
    commitment = sealed[0].commitment if sealed else None
    if not sealed:
        problems.append(BrokenPlace(f"{rec.folder.name}/round.jsonl",
                                "no sealed line: the seal shown before the deal is not in the log (R2)"))
    for extra_seal in sealed[1:]:
        problems.append(BrokenPlace(_where(rec, rec.line_of(extra_seal)), "a second seal: a round is sealed once (R2)"))
    if sealed and started and rec.line_of(started[0]) < rec.line_of(sealed[0]):
        problems.append(BrokenPlace(_where(rec, rec.line_of(sealed[0])), "the rule was sealed after the deal (R2)"))
    for extra in revealed[1:]:
        problems.append(BrokenPlace(_where(rec, rec.line_of(extra)), "a second reveal: a round reveals its rule once"))
    reveal = revealed[0] if revealed else None
    if reveal is not None and commitment is not None and not verify(commitment, reveal.rule, reveal.nonce):
        problems.append(BrokenPlace(_where(rec, rec.line_of(reveal)),
                                f"the revealed rule and nonce do not match the seal {commitment} (R2, G6)"))
    if seal is not None and commitment is not None:
        given = read_anchor(seal, "--seal")
        if given != commitment:
            problems.append(BrokenPlace(_where(rec, rec.line_of(sealed[0])),
                                    f"the seal in the log, {commitment}, is not the one shown at the table, {given}"))
    return commitment, reveal


def _active_verdicts(rec: Recording, problems: list[BrokenPlace]) -> list[VerdictLine]:
    """The verdicts that stand: each ``undone`` line takes back the last verdict (key u)."""
    active: list[VerdictLine] = []
    for event in rec.events:
        if isinstance(event, VerdictLine):
            active.append(event)
        elif isinstance(event, Undone):
            if active and active[-1].turn == event.turn:
                active.pop()
            else:
                problems.append(BrokenPlace(_where(rec, rec.line_of(event)),
                                        f"takes back turn {event.turn}, which is not the last verdict standing"))
    return active


def _first_difference(expected: str, actual: str) -> tuple[int, str, str]:
    exp, act = expected.splitlines(), actual.splitlines()
    for k in range(max(len(exp), len(act))):
        a = exp[k] if k < len(exp) else "(nothing)"
        b = act[k] if k < len(act) else "(nothing)"
        if a != b:
            return k + 1, a, b
    return 0, "", ""


def rebuild(rec: Recording, rule_text: str | None, commitment: str | None, problems: list[BrokenPlace]) -> Rebuilt:
    """The game record from the log; replayed through :class:`Round` when the rule is known."""
    started = rec.of_type(Started)
    verdicts = _active_verdicts(rec, problems)
    if not started:
        for v in verdicts:
            problems.append(BrokenPlace(_where(rec, rec.line_of(v)), "a verdict before the round started"))
        return Rebuilt(None, (), None, None, None)
    s = started[0]
    for extra in started[1:]:
        problems.append(BrokenPlace(_where(rec, rec.line_of(extra)), "a second start: a round starts once"))
    if list(rec.header.get("players", s.players)) != s.players:
        problems.append(BrokenPlace(_where(rec, 1), f"the header names the players {' '.join(rec.header['players'])}, "
                                f"but the round started (line {rec.line_of(s)}) with {' '.join(s.players)}"))
    try:
        starters = tuple(Card.parse(c) for c in s.starters)
    except CardParseError as exc:
        problems.append(BrokenPlace(_where(rec, rec.line_of(s)), f"starters: {exc}"))
        return Rebuilt(None, (), None, None, None)
    shown_rule = rule_text if rule_text is not None else f"sealed {commitment or '(no seal)'}"
    variant = str(rec.header.get("variant", DEFAULT_VARIANT))  # the live dealer's header (Howell's when absent)
    start = RoundStarted(tuple(s.players), shown_rule, starters, s.hand, s.decks, variant)
    head = format_record([start])
    text = head + "".join(v.action + "\n" for v in verdicts)
    try:
        record = parse_record(text)
    except RecordError as exc:
        k = exc.line - head.count("\n") - 1
        where = _where(rec, rec.line_of(verdicts[k])) if 0 <= k < len(verdicts) else _where(rec, rec.line_of(s))
        problems.append(BrokenPlace(where, f"the logged action cannot be read: {exc.reason}"))
        return Rebuilt(start, (), None, None, None)
    for v, line in zip(verdicts, record.actions, strict=True):
        if isinstance(line.action, OracleTurn) != (variant == "kruskal"):  # only the oracle acts in kruskal (KR3)
            problems.append(BrokenPlace(_where(rec, rec.line_of(v)), "the logged action is an oracle's turn"
                                        if variant != "kruskal" else "a player's action in a kruskal round"))
            return Rebuilt(start, (), None, None, None)
    turns = [RebuiltTurn(v, rec.line_of(v), line.action) for v, line in zip(verdicts, record.actions, strict=True)]
    for turn in turns:
        if turn.action.player != turn.logged.player:
            problems.append(BrokenPlace(_where(rec, turn.line), f"the verdict is for {turn.logged.player}, "
                                    f"the action for {turn.action.player}"))
    if rule_text is None:
        return Rebuilt(start, tuple(turns), None, None, text)
    try:
        rule = resolve_rule(rule_text)
        rnd = replay_start(rule, start)
    except (ValueError, RoundSetupError) as exc:
        problems.append(BrokenPlace(_where(rec, rec.line_of(s)), f"the round cannot be replayed: {exc}"))
        return Rebuilt(start, tuple(turns), None, None, text)
    for k, turn in enumerate(turns):
        if rnd.ended is not None:
            problems.append(BrokenPlace(_where(rec, turn.line), f"turn {turn.logged.turn} comes after the round ended (G1)"))
            break
        line_before = rnd.line
        try:
            if isinstance(rnd, Round):
                assert not isinstance(turn.action, OracleTurn)  # refused above: only kruskal's oracle turns cards
                outcome = rnd.apply(turn.action)
            else:
                outcome = rnd.apply(turn.action)
        except RoundError as exc:
            problems.append(BrokenPlace(_where(rec, turn.line), f"the engine refuses this turn: {exc}"))
            break
        why = "" if isinstance(turn.action, OracleTurn) else explain_verdict(rule, line_before, turn.action)
        turns[k] = dataclasses.replace(turn, outcome=outcome, why=why)
        _compare(rec, turn, outcome, problems)
    return Rebuilt(start, tuple(turns), rule, rnd, text)


def replay_start(rule: Rule, start: RoundStarted) -> AnyRound:
    """A fresh round of ``start``'s variant, as the live dealer dealt it."""
    return round_for(rule, start)


def _compare(rec: Recording, turn: RebuiltTurn, outcome: TurnOutcome, problems: list[BrokenPlace]) -> None:
    v = turn.logged
    card = str(outcome.card) if outcome.card is not None else None
    checks = [("turn", v.turn, outcome.index), ("verdict", v.verdict, outcome.verdict.value),
              ("penalty", v.penalty, outcome.penalty), ("expelled", v.expelled, outcome.expelled),
              ("overthrown", v.overthrown, outcome.overthrown), ("card", v.card, card)]
    for name, logged, engine in checks:
        if logged != engine:
            problems.append(BrokenPlace(_where(rec, turn.line), f"{name} logged as {logged}, but replaying the round "
                                    f"with the revealed rule gives {engine}"))


def _check_record_file(rec: Recording, rebuilt: Rebuilt, commitment: str | None, problems: list[BrokenPlace]) -> None:
    path = rec.folder / RECORD_FILE
    where = f"{rec.folder.name}/{RECORD_FILE}"
    if rebuilt.record_text is None:
        if path.exists():
            problems.append(BrokenPlace(where, "a game record, but the log holds no started round"))
        return
    try:
        actual = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        problems.append(BrokenPlace(where, "is missing (the log holds the round: it was deleted)"))
        return
    except (OSError, UnicodeDecodeError) as exc:
        problems.append(BrokenPlace(where, f"cannot be read: {exc}"))
        return
    number, expected, found = _first_difference(rebuilt.record_text, actual)
    if number:
        behind = (f": the dealer stopped before rewriting it; `eleusis reveal {rec.folder}` or `eleusis review "
                  f"{rec.folder}` brings it up to date from the log" if _behind_log(rebuilt, commitment, actual) else "")
        problems.append(BrokenPlace(f"{where} line {number}", f"says {found!r}, the log gives {expected!r}{behind}"))


def verify_recording(rec: Recording, seal: str | None = None, log_hash_shown: str | None = None) -> Verification:
    """Every check above; ``seal`` and ``log_hash_shown``: the values shown at the table.
    Raises :class:`AnchorError` when either is given but malformed."""
    seal_given = read_anchor(seal, "--seal") if seal is not None else None
    hash_given = read_anchor(log_hash_shown, "--log-hash") if log_hash_shown is not None else None
    problems: list[BrokenPlace] = []
    notes: list[str] = []
    if rec.truncated:
        problems.append(BrokenPlace(f"{rec.folder.name}/round.jsonl", "the last line was cut short (a crash while "
                                "writing it; `eleusis play --resume` drops it)"))
    _check_chain(rec, problems)
    _check_frames(rec, problems)
    commitment, reveal = _check_seal(rec, seal, problems)
    valid_reveal = reveal is not None and commitment is not None and verify(commitment, reveal.rule, reveal.nonce)
    rebuilt = rebuild(rec, reveal.rule if valid_reveal and reveal else None, commitment, problems)
    _check_record_file(rec, rebuilt, commitment, problems)
    actual = log_hash(rec.folder)
    if hash_given is not None:
        if hash_given != actual:
            problems.append(BrokenPlace(f"{rec.folder.name}/round.jsonl", f"the log's hash is {actual}, not {hash_given} "
                                    "shown at the table: the log was changed, cut or forged after the round"))
    else:
        notes.append("no log hash given (--log-hash): the chain cannot tell a changed last line, lines cut off "
                     "the end, or a log forged anew")
    if seal is None:
        notes.append("no seal given (--seal): the seal in the log is checked against the reveal only")
    if reveal is None:
        notes.append("the rule is still sealed: verdicts are checked against it after the reveal (R2)")
    return Verification(tuple(problems), tuple(notes), reveal, commitment, actual, rebuilt, seal_given, hash_given)


def _behind_log(rebuilt: Rebuilt, commitment: str | None, actual: str) -> bool:
    """True when ``actual`` is a game record the dealer wrote earlier in this round: its head
    (sealed, or with the rule) and the first standing actions, in order, none changed."""
    if rebuilt.start is None or rebuilt.record_text is None or actual == rebuilt.record_text:
        return False
    head = format_record([rebuilt.start])
    actions = rebuilt.record_text[len(head):].splitlines(keepends=True)
    heads = (format_record([dataclasses.replace(rebuilt.start, rule=f"sealed {commitment}")]), head)
    for written in heads:
        if actual.startswith(written):
            rest = actual[len(written):].splitlines(keepends=True)
            return len(rest) <= len(actions) and rest == actions[:len(rest)]
    return False


@dataclass(frozen=True, slots=True)
class CaughtUp:
    """What :func:`catch_up_record` finished: the log's cut last line dropped, the game
    record rewritten from the log."""

    cut_line_dropped: bool = False
    record_rewritten: bool = False

    def __bool__(self) -> bool:
        return self.cut_line_dropped or self.record_rewritten


def catch_up_record(rec: Recording) -> CaughtUp:
    """Finish what a stop just after the reveal left undone (a kill once the ``revealed``
    line is logged: the record still says ``rule: sealed ...``, a line after it is cut
    short, and ``play --resume`` will not reopen a revealed round): the cut line is dropped
    and ``round.eleusis`` is rewritten from the log, when it is only behind the log.

    The log is what the chain and the table's log hash vouch for; the record is derived from
    it. Nothing else is touched: a record that says something the log never said (edited,
    deleted), or a log that does not verify by itself, is left for the check to name.
    """
    try:
        with folder_lock(rec.folder):  # never beside a dealer still recording here
            return _catch_up(rec)
    except (RecordingBusy, OSError):  # a dealer records here, or the folder cannot be written: left as it is
        return CaughtUp()


def _catch_up(rec: Recording) -> CaughtUp:
    dropped = False
    if rec.truncated and rec.of_type(RuleRevealed):
        drop_cut_line(rec)
        rec, dropped = load_recording(rec.folder), True
    tmp = rec.folder / (RECORD_FILE + ".tmp")
    problems: list[BrokenPlace] = []
    if rec.truncated:
        return CaughtUp(dropped)
    _check_chain(rec, problems)
    commitment, reveal = _check_seal(rec, None, problems)
    if problems or commitment is None:
        return CaughtUp(dropped)
    if reveal is not None:
        forget_key(commitment)  # a kill between the reveal and forgetting it left the key behind
    rebuilt = rebuild(rec, reveal.rule if reveal is not None else None, commitment, problems)
    if problems or rebuilt.record_text is None:
        return CaughtUp(dropped)
    try:
        actual = (rec.folder / RECORD_FILE).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return CaughtUp(dropped)
    if actual == rebuilt.record_text:
        tmp.unlink(missing_ok=True)  # a temporary record a kill left beside the whole one
        return CaughtUp(dropped)
    if not _behind_log(rebuilt, commitment, actual):
        return CaughtUp(dropped)
    write_record(rec.folder, rebuilt.record_text)
    tmp.unlink(missing_ok=True)
    return CaughtUp(dropped, True)
