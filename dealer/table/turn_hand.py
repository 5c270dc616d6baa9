"""A "no play" hand shown in batches (N1) and the prophet's decision on a play (F3), as steps
of the turn machine (dealer/table/turn.py)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from dealer.table.turn_frame import Intents, Now, note_unjudged, once, submit, uncounted, unread_trouble
from dealer.table.turn_input import TableToken, TableView
from dealer.table.turn_intents import (
    AskLayAgain,
    Busy,
    CannotRead,
    HandProgress,
    Judge,
    Owed,
    Taken,
    TakenAway,
    TooManyShown,
    Unread,
    ZoneBusy,
)
from dealer.table.turn_state import AwaitingProphet, AwaitingVerdict, Relay, ShowingHand, TurnState
from engine.cards import Card
from engine.events import Attempt, NoPlay, ProphetDecision

__all__ = ["await_prophet", "card_nearest", "collect_hand", "hand_taken_for_shown"]


def hand_taken_for_shown(s: TurnState, phase: ShowingHand, now: Now) -> TurnState:
    """N1: the players laid as many cards as the hand holds, some taken away unread: they take
    the hand for shown, so the next cards may be the next player's, and the hand is owed (a
    :class:`Relay`); otherwise ``s`` as it is (a hand stopped short is a change of mind)."""
    missed = phase.missed + (uncounted(s.unjudged.picture, phase.shown) if s.unjudged else 0)
    if not missed or len(phase.shown) + missed < now.facts.hand_size:
        return s
    return replace(s, relay=Relay(True, phase.shown, len(phase.shown) + missed))


def await_prophet(s: TurnState, now: Now, out: Intents) -> tuple[TurnState, Intents]:
    phase, view, picture = s.phase, now.view, now.picture
    assert isinstance(phase, AwaitingProphet)
    accept = TableToken.ACCEPT in view.tokens_in_play
    reject = TableToken.REJECT in view.tokens_in_play
    if not now.settled:
        return s, out  # a hand over the zone, or the picture not held since it left
    if view.unexplained_in_play or None in picture:
        s, asked = once(s, now, CannotRead(Unread.TOKEN))  # most likely the token, not seen
        return s, out + asked
    if accept == reject:
        return s, out  # neither yet (or both: wait until one is taken back)
    pending = phase.pending
    if isinstance(pending, Attempt) and Counter(picture) != Counter(pending.cards):
        s, asked = once(s, now, ZoneBusy(Busy.PROPHET_DECIDING))  # never judge other cards
        return s, out + asked
    decision = ProphetDecision.agree() if accept else ProphetDecision.reject()
    if isinstance(pending, NoPlay) and reject:
        named = card_nearest(view, view.tokens_in_play[TableToken.REJECT])
        if named is None:
            s, asked = once(s, now, ZoneBusy(Busy.REJECT_NAMES_NO_CARD))
            return s, out + asked
        decision = ProphetDecision.reject(named)
    action: Attempt | NoPlay
    if isinstance(pending, Attempt):
        action = Attempt(pending.player, pending.cards, decision)
    else:
        action = NoPlay(pending.player, pending.hand, decision)
    return replace(s, phase=AwaitingVerdict(action, phase.batch)), out + [Judge(action)]


def card_nearest(view: TableView, at: tuple[float, float]) -> Card | None:
    """F6: the card a rejected "no play" names is the one lying nearest the REJECT token."""
    readable = [c for c in view.play_cards if c.card is not None]
    if not readable:
        return None
    return min(readable, key=lambda c: (c.x_mm - at[0]) ** 2 + (c.y_mm - at[1]) ** 2).card


def collect_hand(s: TurnState, now: Now, out: Intents) -> tuple[TurnState, Intents]:
    phase, view, picture = s.phase, now.view, now.picture
    assert isinstance(phase, ShowingHand)
    player = now.facts.whose_turn
    if player is None or not now.settled:
        return s, out
    if not picture or picture == phase.batch:
        if not view.unexplained_in_play:
            return s, out
        # no new card read, and something there that is none: a card of the next batch not
        # found (the players wait for its count; never silent)
        s, asked = unread_trouble(s, now)
        return note_unjudged(s, now), out + (asked or [])
    s, unread = unread_trouble(s, now)
    if unread is not None:
        return note_unjudged(s, now), out + unread
    if s.unjudged is not None:
        swapped = s.unjudged.picture
        if not Counter(c for c in swapped if c is not None) <= Counter(picture):
            # the unread batch was swapped for another: said once; the new batch counts, and
            # the cards taken away unread are missing from the hand
            phase = replace(phase, missed=phase.missed + uncounted(swapped, phase.shown))
            out = out + [TakenAway(Taken.SWAPPED)]
        s = replace(s, phase=phase, unjudged=None)
    # Cards still lying from the last batch are not counted again: only the new ones.
    lying: Counter[Card | None] = Counter(phase.batch)
    batch: list[Card] = []
    for card in picture:
        if lying[card] > 0:
            lying[card] -= 1
        elif card is not None:
            batch.append(card)
    phase = replace(phase, batch=picture)
    s = replace(s, phase=phase)
    if not batch:
        return s, out
    need = now.facts.hand_size
    if len(phase.shown) + len(batch) > need:
        return s, out + [TooManyShown(player, len(phase.shown) + len(batch), need)]
    shown = phase.shown + tuple(batch)
    s = replace(s, phase=replace(phase, shown=shown))
    if len(shown) < need:
        return s, out + [HandProgress(len(shown), need)]
    if s.relay is not None and s.relay.noplay and not s.relay.shown_again(shown):
        # not the hand owed: another player's
        relay = s.relay.refusing(shown)
        s = replace(s, relay=relay, phase=ShowingHand())
        return s, out + [AskLayAgain(player, tuple(sorted(relay.read, key=str)),
                                     Owed.LOST_TRACK if relay.lost_track else Owed.NOT_THE_HAND)]
    s = replace(s, relay=None, refused_laying=None)
    return submit(s, now, out, NoPlay(player, shown))
