"""The turn machine's observations other than a frame: keys, and the camera lost and back.

A key (:class:`~dealer.table.turn_input.KeyPressed`, :class:`~dealer.table.turn_input.CardNamed`)
is kept in the state (:class:`~dealer.table.turn_state.Keyed`, the PROPHET token's
:class:`~dealer.table.turn_state.ProphetToken`) and laid with the next frame's tokens by
:func:`keyed_view`, so the machine handles it as the token it stands for. The camera lost
pauses the turn in its phase (:class:`~dealer.table.turn_state.Paused`); back, it goes on there.
Part of :func:`dealer.table.turn.step`, pure as it is.
"""

from __future__ import annotations

import dataclasses
from dataclasses import replace

from dealer.table.turn_input import (
    CameraBack,
    CameraLost,
    CardNamed,
    Key,
    KeyPressed,
    Observation,
    TableToken,
    TableView,
)
from dealer.table.turn_intents import CardNamedAs, NothingToName, TurnIntent
from dealer.table.turn_state import AwaitingVerdict, NamedCard, Paused, Steady, TurnState

__all__ = ["IllegalObservation", "keyed_view", "on_camera", "on_key"]


class IllegalObservation(ValueError):
    """An observation the state cannot take: a frame while the round's verdict is awaited,
    a verdict no action asked for, anything before the starter but a frame."""

    def __init__(self, state: TurnState, observation: Observation) -> None:
        super().__init__(f"the turn machine cannot take {type(observation).__name__} while "
                         f"{type(state.phase).__name__}: {observation!r}")
        self.state, self.observation = state, observation


def on_key(state: TurnState, pressed: KeyPressed | CardNamed) -> TurnState:
    """A key stands for its token (laid with the next frame's, :func:`_keyed_view`): NO PLAY
    and PROPHET are laid and taken back by pressing again; a decision replaces the last one.
    "Go on with the layout as it lies" is the layout watch's (dealer/table/turn_layout.py)."""
    keyed = state.keyed
    if isinstance(pressed, CardNamed):
        return replace(state, keyed=replace(keyed, naming=pressed.card))
    key = pressed.key
    if key is Key.NO_PLAY:
        return replace(state, keyed=replace(keyed, no_play=not keyed.no_play))
    if key is Key.PROPHET:
        return replace(state, prophet=replace(state.prophet, keyed=not state.prophet.keyed))
    if key in (Key.ACCEPT, Key.REJECT):
        token = TableToken.ACCEPT if key is Key.ACCEPT else TableToken.REJECT
        index = pressed.card_index if key is Key.REJECT else None
        return replace(state, keyed=replace(keyed, decision=token, card_index=index))
    if key is Key.JUDGE_NOW:
        return replace(state, keyed=replace(keyed, judge_now=True))
    return state


def on_camera(state: TurnState, event: CameraLost | CameraBack) -> TurnState:
    """The camera gone: the turn pauses in its phase. Back: it goes on there, with the clock
    started afresh and no card's reading kept across the gap (the table may have changed)."""
    phase = state.phase
    if isinstance(event, CameraLost):
        if isinstance(phase, (Paused, AwaitingVerdict)):
            raise IllegalObservation(state, event)
        return replace(state, phase=Paused(phase))
    if not isinstance(phase, Paused):
        raise IllegalObservation(state, event)
    sight = replace(state.sight, clock=Steady(event.t, state.sight.clock.what), known=(), unsteady=None)
    return replace(state, phase=phase.held, sight=sight)


def keyed_view(s: TurnState, view: TableView) -> tuple[TurnState, TableView, list[TurnIntent]]:
    """The frame with the tokens the keys stand for laid on it, and a card's name typed
    given to the leftmost card the camera found but cannot read (never while a hand is over
    the zone: the card it was typed for may be on its way). The name is said back; with no
    such card, it is said that nothing needs a name."""
    keyed, out = s.keyed, list[TurnIntent]()
    if keyed.naming is not None and not view.hand_over_play:
        cards = sorted(view.play_cards, key=lambda c: c.x_mm)
        unread = [i for i, seen in enumerate(cards) if seen.card is None]
        if not unread:
            out.append(NothingToName(keyed.naming))
        else:
            place = cards[unread[0]]
            out.append(CardNamedAs(unread[0] + 1, keyed.naming))
            keyed = replace(keyed, named=keyed.named + (NamedCard(keyed.naming, place.x_mm, place.y_mm),))
            named = dataclasses.replace(place, card=keyed.naming)
            view = dataclasses.replace(view, play_cards=tuple(named if c is place else c for c in view.play_cards))
        keyed = replace(keyed, naming=None)
    tokens = dict(view.tokens_in_play)
    if keyed.no_play:
        tokens.setdefault(TableToken.NO_PLAY, (0.0, 0.0))
    if keyed.decision is not None:
        cards = sorted(view.play_cards, key=lambda c: c.x_mm)
        index = keyed.card_index
        where = (cards[index].x_mm, cards[index].y_mm) if index is not None and index < len(cards) else (0.0, 0.0)
        tokens = {**tokens, keyed.decision: where}
    if tokens != view.tokens_in_play or (s.prophet.keyed and not view.prophet_token_out):
        view = dataclasses.replace(view, tokens_in_play=tokens,
                                   prophet_token_out=view.prophet_token_out or s.prophet.keyed)
    return replace(s, keyed=keyed), view, out
