"""The layout watch inside the turn (P5): part of :func:`dealer.table.turn.step`, pure as it is.

After a verdict the players move its cards to the layout (P3, P4); once they have reached
their place, the table is compared with the round's record
(:class:`~dealer.table.turn_input.LineRecord`, carried by each frame's facts) by the pure
functions of dealer/table/layout_watch.py, whose state is the turn's ``layout``. A real
misplacement holds the turn: its phase is :class:`~dealer.table.turn_state.PuttingLayoutRight`
exactly while ``layout.holding`` is set, derived here in one place, until the table is right
again or the players go on with it as it lies (key o, or key a with the play zone empty).
Where the PROPHET token belongs (F2) is said once a turn (``ProphetToken.reminded``).
"""

from __future__ import annotations

from dataclasses import replace

from dealer.table.layout_watch import go_on, layout_look, moving
from dealer.table.turn_input import Key, KeyPressed, Look, VerdictGiven
from dealer.table.turn_intents import LayoutTold, TurnIntent
from dealer.table.turn_state import Paused, PuttingLayoutRight, Steady, TurnState
from engine.events import BecomeProphet

__all__ = ["goes_on", "layout_after_verdict", "layout_camera_back", "watch_layout"]


def watch_layout(state: TurnState, look: Look) -> tuple[TurnState, tuple[TurnIntent, ...] | None]:
    """One frame for the layout watch: None, the turn goes on with this frame; else what to
    say now, and the frame is the watch's alone (the turn is held, or a reminder was said)."""
    record = look.round.line
    if record is None:
        return state, None  # no line is watched (AB1, or the starters not all laid)
    layout, notes = layout_look(state.layout, look.view, record, marker_said=state.prophet.reminded)
    state = _held(replace(state, layout=layout))
    if notes is None:
        return state, None
    if any(note.marker for note in notes):
        state = replace(state, prophet=replace(state.prophet, reminded=True))
    return state, tuple(LayoutTold(note) for note in notes)


def goes_on(state: TurnState, pressed: KeyPressed) -> tuple[TurnState, tuple[TurnIntent, ...]] | None:
    """Key o, or key a with the play zone empty, while the layout holds the turn: the players go
    on with the layout as it lies (P5). None: the key is the turn's (a token it stands for)."""
    if state.layout.holding is None:
        return None
    if not (pressed.key is Key.LAYOUT_AS_IS or (pressed.key is Key.ACCEPT and state.zone_empty)):
        return None
    layout, note = go_on(state.layout)
    state = _held(replace(state, layout=layout))
    return state, (() if note is None else (LayoutTold(note),))


def layout_after_verdict(state: TurnState, given: VerdictGiven) -> TurnState:
    """A verdict given at ``given.t`` on cards (not a prophet taking office, F1, nor an action
    refused): the players now move them to the layout (P3, P4)."""
    if given.t is None or given.action is None or isinstance(given.action, BecomeProphet):
        return state
    return replace(state, layout=moving(state.layout, given.t))


def layout_camera_back(state: TurnState, t: float) -> TurnState:
    """The camera was gone: what the line zones showed before counts as held from ``t``."""
    return replace(state, layout=replace(state.layout, clock=Steady(t, state.layout.clock.what)))


def _held(state: TurnState) -> TurnState:
    """The phase as the layout watch says: held while it holds misplacements, else not."""
    holding, phase = state.layout.holding is not None, state.phase
    if holding and not isinstance(phase, (PuttingLayoutRight, Paused)):
        return replace(state, phase=PuttingLayoutRight(phase))
    if not holding and isinstance(phase, PuttingLayoutRight):
        return replace(state, phase=phase.held)
    if not holding and isinstance(phase, Paused) and isinstance(phase.held, PuttingLayoutRight):
        return replace(state, phase=Paused(phase.held.held))  # gone on with while the camera was away
    return state
