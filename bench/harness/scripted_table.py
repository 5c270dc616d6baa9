"""Scripted players who obey the dealer: the round bench's live table.

A film made in advance (bench/harness/scripted_round.py ``timeline``) is a table of deaf players:
when the dealer asks them to lay a card again, they go on as scripted, and every later
verdict is out of step. Real players do what the dealer says. :class:`ScriptedTable` is a
frame source (vision.frames.FrameSource) that plays the scripted round the same way (a
hand lays the cards and leaves, the players move them after the verdict, P3 P4), one
frame at a time, and hears what the dealer says between two frames (an outlets listener):

- the players wait for the dealer's answer before going on: the verdict, the count of a
  "no play" batch ("3 of 5 seen"), the question to the prophet ("accept or reject?"),
  the starter taken; they leave the cards at least as long as the film did, and go on
  as scripted when the dealer has said nothing for ``PATIENCE_S`` seconds;
- when the dealer asks them to lay again (a request to lay again, happenings
  AskedToLayAgain), they pick the cards (or the token) up and lay them again, flat and
  straight, at most ``MAX_RELAYS`` times per laying.

Nothing else is told to the players: they never see what the dealer read. The frames are
JPEG-compressed like a phone camera's stream. The source records what the bench needs to
time the dealer: for each scripted turn, when the hand last left the play zone before its
verdict, and which frames had a hand over the zone.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from dealer.table.happenings import AskedToLayAgain, Happening, Judged, Spoken, StarterDecided
from bench.harness.make_demo import Step, StepRenderer, arm_sweep
from bench.harness.scripted_round import (
    BATCH_WAIT_S,
    GAP_S,
    HAND_S,
    WAIT_S,
    ScriptedRound,
    _follow,
    _frames,
    _Table,
    replayed,
)
from engine.events import Attempt, BecomeProphet
from vision.frames import Frame

__all__ = ["MAX_RELAYS", "PATIENCE_S", "ScriptedTable"]

# Seconds the players wait for the dealer to answer before going on as scripted (a table
# whose dealer stays silent would wait for ever; the bench must end).
PATIENCE_S = 8.0
# Seconds the players take to act on what the dealer said.
REACT_S = 0.7
# Times the players lay the same cards again when asked, before going on as scripted.
MAX_RELAYS = 3
# JPEG quality of the frames (a phone camera's MJPEG stream).
JPEG_QUALITY = 85

Answer = Callable[[Happening], bool]
Frames = Generator[Frame, None, str]  # frames out; at the end, what the dealer answered


def _is_verdict(h: Happening) -> bool:
    return isinstance(h, Judged)


def _is_starter(h: Happening) -> bool:
    return isinstance(h, StarterDecided)


def _is_prompt(h: Happening) -> bool:
    """The dealer asks the prophet to decide (F3): "Prophet Cy, accept or reject?"."""
    return isinstance(h, Spoken) and "accept or reject" in h.text


def _is_count(h: Happening) -> bool:
    """The dealer counted a "no play" batch: "2 of 5 seen. Show the other 3."."""
    return isinstance(h, Spoken) and " seen." in h.text


@dataclass
class ScriptedTable:
    """The scripted round laid frame by frame by players who hear the dealer (``hear``)."""

    script: ScriptedRound
    renderer: StepRenderer
    fps: float
    whole_layout: bool
    name: str = "scripted table (players who obey the dealer)"
    arms: bool = False  # the cards go to the layout in an arm sweeping across the play zone
    heard: list[Happening] = field(default_factory=list)
    leave_s: list[float] = field(default_factory=list)  # per scripted turn, like Timeline.leave_s
    hand_frames: set[int] = field(default_factory=set)
    relays: int = 0  # times the players laid again because the dealer asked
    gave_up: int = 0  # times the players went on after PATIENCE_S without an answer
    render_s: float = 0.0  # seconds spent rendering (not the dealer's)
    frame_count: int = 0
    _table: _Table = field(init=False)
    _left_at: float = 0.0
    _in_turn: bool = False

    def hear(self, happening: Happening) -> None:
        """An outlets listener: what the dealer said, heard before the next frame."""
        self.heard.append(happening)

    # -- frames -------------------------------------------------------------------------------
    def _step(self, cards: Sequence[str] = (), tokens: Sequence[str] = (), hand: bool = False,
              straight: bool = False, note: str = "") -> Step:
        line, branches = self._table.items()
        return Step(tuple(cards), tuple(tokens), 0.0, note, hand=hand, line=line, branches=branches, straight=straight)

    def _still(self, step: Step) -> np.ndarray:
        start = time.perf_counter()
        lit = self.renderer.still(step)
        self.render_s += time.perf_counter() - start
        return lit

    def _frame(self, lit: np.ndarray, hand: bool) -> Frame:
        start = time.perf_counter()
        bgr = self.renderer.frame(lit)
        ok, jpeg = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        if ok:
            bgr = np.asarray(cv2.imdecode(jpeg, cv2.IMREAD_COLOR), np.uint8)
        index = self.frame_count
        self.frame_count += 1
        if hand:
            self.hand_frames.add(index)
        self.render_s += time.perf_counter() - start
        return Frame(index, index / self.fps, bgr)

    @property
    def _now_s(self) -> float:
        return self.frame_count / self.fps

    def _show(self, step: Step, seconds: float) -> Iterator[Frame]:
        lit = self._still(step)
        for k in range(_frames(seconds, self.fps)):
            if step.hand and k:
                lit = self._still(step)  # a hand is never still: it moves from frame to frame
            yield self._frame(lit, step.hand)

    def _wait(self, step: Step, least_s: float, answer: Answer) -> Frames:
        """The step lies still until the dealer answers (then ``REACT_S`` more, and at least
        ``least_s`` in all) or asks to lay again: "answered", "asked" or "silent"."""
        lit = self._still(step)
        start, mark = self._now_s, len(self.heard)
        answered_at: float | None = None
        while True:
            yield self._frame(lit, step.hand)
            now = self._now_s
            new = self.heard[mark:]
            if answered_at is None and any(answer(h) for h in new):
                answered_at = now
            if answered_at is None and any(isinstance(h, AskedToLayAgain) for h in new):
                if now - start >= REACT_S:
                    return "asked"
                continue
            if answered_at is not None and now - answered_at >= REACT_S and now - start >= least_s:
                return "answered"
            if answered_at is None and now - start >= PATIENCE_S:
                self.gave_up += 1
                return "silent"

    def _leave(self) -> None:
        """The hand has just left the play zone: this turn's verdict is timed from here (the
        round may end at the verdict, with no frame asked for after it)."""
        self._left_at = self._now_s
        if self._in_turn:
            self.leave_s[-1] = self._left_at

    def _lay(self, cards: Sequence[str], tokens: Sequence[str], least_s: float, answer: Answer,
             note: str) -> Frames:
        """A hand lays ``cards`` (and ``tokens``) in the play zone and leaves; the players wait
        for ``answer``, and lay the same again when the dealer asks (at most MAX_RELAYS times)."""
        outcome = "silent"
        for attempt in range(MAX_RELAYS + 1):
            straight = attempt > 0
            yield from self._show(self._step(cards, tokens, hand=True, straight=straight, note=note), HAND_S)
            self._leave()
            outcome = yield from self._wait(self._step(cards, tokens, straight=straight), least_s, answer)
            if outcome != "asked":
                return outcome
            self.relays += 1
        return outcome

    # -- the round ----------------------------------------------------------------------------
    def frames(self) -> Iterator[Frame]:
        script = self.script
        self._table = _Table(())
        yield from self._show(self._step(note="the empty mat: the dealer says its opening lines"), 3.0)
        for card in script.starters:
            yield from self._lay((card,), (), WAIT_S, _is_starter, "the starter is turned (C4)")
            yield from self._show(self._step(hand=True), HAND_S)
            self._table.line.append(card)
            yield from self._show(self._step(), GAP_S)
        rnd = replayed(script.round, script.round.events[:1])
        for turn in script.turns:
            outcome = rnd.apply(turn.action)
            self.leave_s.append(self._now_s)
            self._in_turn = True
            if isinstance(turn.action, BecomeProphet):
                yield from self._prophet_takes_office()
                self._in_turn = False
                if not self.whole_layout:  # the hand takes the token from the play zone to the line
                    yield from self._show(self._step(hand=True), HAND_S)
                    yield from self._show(self._step(), GAP_S)
                continue
            yield from self._attempt_or_no_play(turn.action, turn.batches)
            self._in_turn = False
            if self.arms:  # a player's arm carries the cards across the play zone to the layout
                for frame in arm_sweep(self._step(note="the cards go to the layout"), self.fps):
                    yield from self._show(frame, frame.seconds)
            else:
                yield from self._show(self._step(hand=True, note="the cards go to the layout"), HAND_S)
            _follow(self._table, rnd, outcome)
            yield from self._show(self._step(), GAP_S)
        yield from self._show(self._step(note="the end"), 2.0)

    def _prophet_takes_office(self) -> Iterator[Frame]:
        """F1, F2: the PROPHET token after the line end (whole view), or first shown in the
        play zone when the camera sees the play zone only (docs/playing-at-the-table.md)."""
        if self.whole_layout:
            self._table.prophet_at = len(self._table.line)
            self._leave()  # laid on the line: no hand over the play zone
            yield from self._wait(self._step(), WAIT_S - 1.0 + HAND_S, _is_verdict)
            return
        yield from self._lay((), ("prophet",), WAIT_S - 1.0, _is_verdict, "the PROPHET token is shown")
        self._table.prophet_at = len(self._table.line)  # the hand then takes it to the line

    def _attempt_or_no_play(self, action: object, batches: tuple[tuple[str, ...], ...]) -> Iterator[Frame]:
        call = getattr(action, "prophet", None)
        final = _is_prompt if call is not None else _is_verdict
        if isinstance(action, Attempt):
            shown = [str(c) for c in action.cards]
            zone_tokens: tuple[str, ...] = ()
            yield from self._lay(shown, (), WAIT_S if call is None else BATCH_WAIT_S, final, "an attempt")
        else:
            zone_tokens = ("no_play",)
            for i, batch in enumerate(batches):
                last = i == len(batches) - 1
                yield from self._lay(batch, zone_tokens, WAIT_S if last else BATCH_WAIT_S,
                                     final if last else _is_count, f"no play, batch {i + 1}")
            shown = list(batches[-1])
        if call is not None:
            token = "accept" if call.accept else "reject"
            yield from self._lay(shown, (token,), WAIT_S, _is_verdict, f"the prophet lays {token.upper()}")
