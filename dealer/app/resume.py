"""`eleusis play --resume FOLDER`: an interrupted round goes on from its recording.

The log is the truth. After kill -9, a power cut or Ctrl-C, the recording holds the setup
(``started``), every verdict (``verdict``, less those ``undone``) and the rule sealed in its
envelope. :func:`read_interrupted` reads them back; :func:`restore` replays them into a
:class:`~dealer.table.session.ResumePoint`, a value: the round, and the turn's state where the
uninterrupted round had it, right after the last decision; a fresh
:class:`~dealer.table.session.DealerSession` is made from it (same rule, same nonce, so the
same seal). A video goes on with the frames after that decision; a camera with what it sees
now. A verdict is in the log or it is not: none is lost, none is counted twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from dealer.table.happenings import Happening, Spoken
from dealer.speech.i18n import _, n_
from dealer.table.session import LiveRound, ResumePoint, SessionConfig
from dealer.table.table_rules import TableRules
from dealer.table.turn import resumed
from engine.cards import DEFAULT_DECKS, CardParseError
from engine.errors import RoundError
from engine.events import DEFAULT_HAND, Action, Attempt, NoPlay, OracleTurn, RoundStarted
from engine.round import Round
from engine.rules import resolve_rule
from engine.variants import DEFAULT_VARIANT, round_for
from engine.variants.abbott import AbbottRound
from vision.frames import Frame

__all__ = ["Interrupted", "ResumeError", "discard_unstarted", "frames_after", "read_interrupted", "restore"]


class ResumeError(ValueError):
    """A folder that holds no round to resume; the message says why."""


@dataclass(frozen=True)
class Interrupted:
    """What a recording says about a round that was cut short."""

    folder: Path
    players: tuple[str, ...]
    hand: int
    decks: int
    source: str  # the video file or the camera the round was watched with
    rule: str | None  # from the sealed envelope; None: stopped before the rule was sealed
    nonce: str | None
    sealed: bool  # the seal was shown (its line is in the log)
    start: RoundStarted | None  # None: the starters were not all laid
    actions: tuple[Action, ...]  # the verdicts that stand, in order
    last_t: float | None  # when the last decision was taken (frames up to it were used)
    variant: str = DEFAULT_VARIANT  # the header's ``variant`` (docs/rules-variants.md)

    @property
    def last_action(self) -> Action | None:
        return self.actions[-1] if self.actions else None


def read_interrupted(folder: Path) -> Interrupted:
    """Read what a recording folder says about its round; ResumeError when there is none to
    go on with (no recording, a round already revealed, a rule whose key is elsewhere)."""
    from dealer.record.envelope import EnvelopeError
    from dealer.record.recording import (
        ENVELOPE_FILE,
        LoadError,
        RuleRevealed,
        Sealed,
        Started,
        Undone,
        VerdictLine,
        load_recording,
        open_envelope,
    )
    from dealer.record.verify import BrokenPlace, rebuild

    folder = Path(folder)
    try:
        rec = load_recording(folder)
    except LoadError as exc:
        raise ResumeError(str(exc)) from None
    if rec.of_type(RuleRevealed):
        raise ResumeError(f"{folder}: this round is over (its rule was revealed); nothing to resume")
    header = rec.header
    variant = str(header.get("variant", DEFAULT_VARIANT))
    if variant == "kruskal":  # KR3: the oracle's machine (dealer/table/kruskal_turn.py) has no resumed state
        raise ResumeError(f"{folder}: a Kruskal round cannot be resumed; deal it again from its start")
    sealed = bool(rec.of_type(Sealed))
    if not sealed and not (folder / ENVELOPE_FILE).exists():
        raise ResumeError(f"{folder}: the round stopped before its rule was sealed, so nothing was dealt; "
                          "start it again with the same command (the folder can be reused)")
    rule = nonce = None
    if (folder / ENVELOPE_FILE).exists() or sealed:
        try:
            rule, nonce = open_envelope(folder)
        except EnvelopeError as exc:
            raise ResumeError(str(exc)) from None
    problems: list[BrokenPlace] = []
    rebuilt = rebuild(rec, None, None, problems)  # the setup and the verdicts that stand, as review reads them
    if problems:
        raise ResumeError(f"{folder}: the log cannot be read back, so the round cannot go on: {problems[0]}")
    decisions = [e for e in rec.events if isinstance(e, Started | VerdictLine | Undone)]
    players = tuple(str(p) for p in header.get("players", ()))
    return Interrupted(
        folder=folder, players=players, hand=int(header.get("hand", DEFAULT_HAND)),
        decks=int(header.get("decks", DEFAULT_DECKS)), source=str(header.get("source", "")),
        rule=rule, nonce=nonce, sealed=sealed, start=rebuilt.start,
        actions=tuple(t.action for t in rebuilt.turns if not isinstance(t.action, OracleTurn)),
        last_t=decisions[-1].t if decisions else None, variant=variant)


def restore(config: SessionConfig, state: Interrupted, now: float | None = None
            ) -> tuple[ResumePoint | None, list[Happening]]:
    """Replay the standing verdicts (``config`` holds the sealed rule) and build where the
    round goes on: the round, and the turn's state right after the last decision (with since
    when its cards may still be moving to the layout); with what to say now. None when the round
    had not started (a fresh session starts in the starter phase). ``now``: the time of the
    first frame to come, when its clock is not the recording's (a camera opened again
    starts from 0)."""
    if state.start is None:
        return None, [Spoken(0.0, _("The round goes on: the starter has not been laid yet."))]
    start = RoundStarted(state.start.players, config.rule, state.start.starters,
                         state.start.hand_size, state.start.decks, state.variant)
    try:
        rnd = _replay(start, state.actions)
    except (RoundError, CardParseError) as exc:
        raise ResumeError(f"{state.folder}: the verdicts in the log do not replay ({exc})") from None
    t = state.last_t or 0.0
    last = state.last_action
    moving_since = (t if now is None else now) if isinstance(last, Attempt | NoPlay) else None
    turn = resumed(last, rnd.start.starters[-1], prophet_out=rnd.prophet is not None, settle_s=config.settle_s,
                   rules=TableRules.of(state.variant), moving_since=moving_since)
    point = ResumePoint(rnd, turn)
    said = n_("The round goes on after {n} turn.", "The round goes on after {n} turns.", len(state.actions))
    if rnd.whose_turn is not None:
        said += " " + _("When the play zone is clear, it is {who}'s turn.", who=rnd.whose_turn)
    return point, [Spoken(t, said)]


def _replay(start: RoundStarted, actions: tuple[Action, ...]) -> LiveRound:
    """The round of ``start``'s variant with ``actions`` applied again, as the live dealer judged them."""
    rnd = round_for(resolve_rule(start.rule), start)  # Howell's Round for a header without ``variant``
    if not isinstance(rnd, Round | AbbottRound):  # read_interrupted refused kruskal's log
        raise ResumeError(f"the live dealer does not resume a round of {start.variant}")
    for action in actions:
        rnd.apply(action)
    return rnd


def discard_unstarted(folder: Path) -> bool:
    """Remove the log of a round stopped before its rule was sealed (only a header, or not
    even that), so that the round can start again in the same folder; True if removed."""
    from dealer.record.recording import ENVELOPE_FILE, EVENTS_FILE, LoadError, load_recording

    log = Path(folder) / EVENTS_FILE
    if not log.is_file() or (Path(folder) / ENVELOPE_FILE).exists():
        return False
    if log.stat().st_size > 0:
        try:
            if load_recording(folder).events:
                return False
        except LoadError:
            if b"\n" in log.read_bytes()[:1_000_000]:
                return False  # a whole line that is not ours (another version, another file): keep it
    log.unlink()
    return True


def frames_after(frames: Iterable[Frame], t: float | None) -> Iterator[Frame]:
    """The frames of a video after time ``t`` (those up to it were used before the stop)."""
    for frame in frames:
        if t is None or frame.time_s > t:
            yield frame


