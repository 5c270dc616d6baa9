"""The turn at the table as a pure machine: ``step(state, observation) -> (state, intents)``.

In the spirit of h11: no camera, no clock, no round object inside. A :class:`TurnState` is a
frozen value; its ``phase`` is one frozen value per phase of the turn, holding what that
phase needs: waiting for the starter (C4), waiting for a play, an attempt being laid (P1),
a "no play" hand being shown in batches (N1, with the cards seen so far), the prophet's
decision awaited (F3), a verdict awaited from the round, and the zone being cleared after a
verdict (P3, P4), the layout being put right (P5, dealer/table/turn_layout.py: the layout
watch's state is the turn's), and paused while the camera is gone. The observations
(dealer/table/turn_input.py) are a frame of the table with the round's facts
(:class:`~dealer.table.turn_input.Look`), a key pressed (:class:`~dealer.table.turn_input.KeyPressed`:
the same kind of observation as the token it stands for, kept in :class:`Keyed` and laid
with the next frame's tokens), the camera lost and back, and what the round did
(:class:`~dealer.table.turn_input.VerdictGiven`, ...). The intents (dealer/table/turn_intents.py)
are values; their words are made at the outlets.

One memory of what was seen where (:class:`Sight`: the cards read at their places, and the
one clock, a :class:`Steady`, that says "settled"); one memory of the PROPHET token
(:class:`ProphetToken`). An observation a state cannot take (a frame while the round's
verdict is awaited or the camera is gone, a verdict nobody asked for) raises
:class:`IllegalObservation`, naming both.

The protocol (docs/playing-at-the-table.md), and what costs nothing:
- Nothing is judged on a frame with a hand or an arm over the zone (an arm reaching across
  it to the layout: the dealer waits in silence), nor before the picture has held
  ``settle_s`` since it left.
- Something in the zone that cannot be read is said once, in the players' words ("that card
  is face down", "I cannot read the second card"); nothing is judged until it can be read.
- Cards laid and taken back before the verdict (a card laid face down by mistake, "not that
  one") are a change of mind: the turn stays with the same player, nothing is owed, and the
  next play is judged as theirs. The turn passes only by a verdict, so no player's cards are
  ever credited to another.
- A "no play" (N1) whose cards were all laid, some taken away before they could be read,
  is owed, not withdrawn, when its token leaves or the prophet decides on it (F3): the
  players take it for shown, so the cards laid next may be the next player's and are not
  judged until the hand is shown again (or key j). A laying refused meanwhile is asked
  about once.
- Cards that lay for one purpose (the starter, a judged attempt, a "no play" batch) and
  still lie there never count for another; cards that appear where judged ones lay, the
  zone never seen empty in between, count only once laid again.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import replace

from dealer.table import sight as table_sight
from dealer.table.layout_watch import LayoutState
from dealer.table.turn_events import IllegalObservation, keyed_view, on_camera, on_key
from dealer.table.turn_frame import Intents, Now, note_unjudged, once, owed, submit, uncounted, unread_trouble
from dealer.table.turn_hand import await_prophet, collect_hand, hand_taken_for_shown
from dealer.table.turn_layout import goes_on, layout_after_verdict, layout_camera_back, watch_layout
from dealer.table.turn_input import (
    UNSTEADY_S,
    CameraBack,
    CameraLost,
    CardNamed,
    KeyPressed,
    Look,
    Observation,
    ProphetDeposed,
    SeenCard,
    TableSeen,
    TableToken,
    TableUnseen,
    TableView,
    VerdictGiven,
    VerdictUndone,
    same_place,
)
from dealer.table.turn_intents import (
    AskLayAgain,
    Busy,
    CannotRead,
    Judge,
    Missing,
    NoPlayWithdrawn,
    NotInGame,
    Owed,
    StarterTurned,
    Taken,
    TakenAway,
    TurnIntent,
    TurnNextStarter,
    Unread,
    YourTurn,
    ZoneBusy,
)
from dealer.table.turn_state import (
    LOST_TRACK_AFTER,
    AwaitingProphet,
    AwaitingStarter,
    AwaitingVerdict,
    Clearing,
    Keyed,
    Laying,
    NamedCard,
    Paused,
    PhaseState,
    Picture,
    ProphetToken,
    PuttingLayoutRight,
    Relay,
    ShowingHand,
    Sight,
    Steady,
    TurnState,
    Waiting,
    initial,
    maybe_of,
    resumed,
)
from engine.cards import Card
from engine.events import Attempt, BecomeProphet, NoPlay

__all__ = [
    "AwaitingProphet",
    "AwaitingStarter",
    "AwaitingVerdict",
    "Clearing",
    "IllegalObservation",
    "Keyed",
    "Laying",
    "LOST_TRACK_AFTER",
    "NamedCard",
    "Paused",
    "PhaseState",
    "ProphetToken",
    "PuttingLayoutRight",
    "Relay",
    "ShowingHand",
    "Sight",
    "Steady",
    "TurnState",
    "Waiting",
    "initial",
    "resumed",
    "step",
]



def step(state: TurnState, observation: Observation) -> tuple[TurnState, tuple[TurnIntent, ...]]:
    """The state after ``observation``, and what the dealer should do about it."""
    if isinstance(observation, Look):
        if isinstance(state.phase, (AwaitingVerdict, Paused)):
            raise IllegalObservation(state, observation)
        if isinstance(state.phase, PuttingLayoutRight) and observation.round.line is None:
            raise IllegalObservation(state, observation)  # nothing to check the layout against
        view = observation.view
        state = replace(state, t=view.t, zone_empty=not view.play_cards)
        state, held = watch_layout(state, observation)
        if held is not None:
            return state, held
        new, out = _look(state, observation)
        return new, tuple(out)
    if isinstance(observation, KeyPressed):
        gone_on = goes_on(state, observation)
        if gone_on is not None:
            return gone_on
    if isinstance(observation, (KeyPressed, CardNamed)):
        return on_key(state, observation), ()
    if isinstance(observation, (CameraLost, CameraBack)):
        state = on_camera(state, observation)
        return (layout_camera_back(state, observation.t) if isinstance(observation, CameraBack) else state), ()
    if isinstance(observation, TableUnseen):
        timers, said = table_sight.unseen(state.table, observation)
        return replace(state, table=timers), (() if said is None else (said,))
    if isinstance(observation, TableSeen):
        timers, told = table_sight.seen(state.table, observation)
        return replace(state, table=timers), tuple(told)
    if isinstance(state.phase, AwaitingStarter):
        raise IllegalObservation(state, observation)
    if isinstance(observation, VerdictGiven):
        return layout_after_verdict(_verdict(state, observation), observation), ()
    if isinstance(observation, ProphetDeposed):
        return replace(state, prophet=replace(state.prophet, seen=True)), ()
    if isinstance(observation, VerdictUndone):
        if isinstance(state.phase, Paused):
            raise IllegalObservation(state, observation)
        nothing: Picture = ()
        clock = Steady(state.sight.since, (nothing, False))
        return replace(state, phase=Waiting(), sight=replace(state.sight, clock=clock),
                       untouched_since_unseen=False, noplay_token_laid=False, unjudged=None, relay=None,
                       refused_laying=None, unread_asks=0, next_acted=False, keyed=Keyed(),
                       prophet=replace(state.prophet, reminded=False), layout=LayoutState()), ()
    raise IllegalObservation(state, observation)


def _verdict(state: TurnState, given: VerdictGiven) -> TurnState:
    """The round judged (or refused) the action: wait for the zone to clear. A prophet taking
    office (F1) judges no cards: what lies in the zone, and what is owed, stay as they were."""
    phase = state.phase
    laid = phase.laid_for if isinstance(phase, Clearing) else ()
    if isinstance(given.action, BecomeProphet):
        return replace(state, phase=Clearing(laid), untouched_since_unseen=False, keyed=state.keyed.after_verdict())
    if given.action is not None and not isinstance(phase, AwaitingVerdict):
        raise IllegalObservation(state, given)
    pending = phase.action if isinstance(phase, AwaitingVerdict) else None
    if isinstance(pending, Attempt):
        laid = pending.cards
    elif isinstance(pending, NoPlay) and isinstance(phase, AwaitingVerdict):
        laid = tuple(c for c in phase.batch if c is not None)
    return replace(state, phase=Clearing(laid), untouched_since_unseen=False, next_acted=False,
                   noplay_token_laid=isinstance(pending, NoPlay), unjudged=None, relay=None,
                   refused_laying=None, unread_asks=0, keyed=state.keyed.after_verdict())


# -- one frame ---------------------------------------------------------------------------
def _steadied(sight: Sight, view: TableView, busy: bool) -> tuple[Sight, TableView]:
    """A card read at a place keeps its reading while it lies there and no hand comes: a frame
    where the same card is found but not read is no change of the picture. A hand (or an
    arm) over the zone forgets every reading."""
    if busy:
        return replace(sight, known=()), view
    steady: list[SeenCard] = []
    for seen in view.play_cards:
        if seen.card is None and not seen.face_down:
            near = [k for k in sight.known if same_place((k.x_mm, k.y_mm), (seen.x_mm, seen.y_mm))]
            if len(near) == 1:
                seen = dataclasses.replace(seen, card=near[0].card)
        steady.append(seen)
    return (replace(sight, known=tuple(c for c in steady if c.card is not None)),
            dataclasses.replace(view, play_cards=tuple(steady)))


def _look(s: TurnState, look: Look) -> tuple[TurnState, Intents]:
    s, view, out = keyed_view(s, look.view)
    busy = view.hand_over_play or view.arm_across
    sight, view = _steadied(s.sight, view, busy)
    ordered = tuple(sorted(view.play_cards, key=lambda c: c.x_mm))
    picture = tuple(c.card for c in ordered)
    what = (picture, view.unexplained_in_play)
    clock = Steady(view.t, what) if busy else sight.clock.seeing(what, view.t)
    if clock is not sight.clock:
        sight = replace(sight, clock=clock, said=False)
    judge_now = s.keyed.judge_now
    if judge_now:  # key j: the players go on with what lies there
        sight = replace(sight, clock=Steady(float("-inf"), what))
        s = replace(s, relay=None, refused_laying=None, keyed=replace(s.keyed, judge_now=False))
    settled = sight.clock.held(view.t, s.settle_s) and not busy
    empty = not view.play_cards and not view.unexplained_in_play and not busy
    s = replace(s, sight=sight)
    now = Now(view, ordered, settled, empty, busy, look.round, judge_now)
    s, more = _unsteady(s, now)
    out += more
    laid_for = Counter(s.phase.laid_for) if isinstance(s.phase, Clearing) else Counter[Card]()
    if settled and (now.read - laid_for or (now.noplay_token and not s.noplay_token_laid)):
        s = replace(s, next_acted=True)  # F1: "before the next player acts"

    if isinstance(s.phase, AwaitingStarter):
        return _await_starter(s, now, out)
    if s.untouched_since_unseen:
        if not (view.hand_over_play or empty or judge_now):  # an arm reaching across lays nothing
            return s, out  # asked already (_unseen_emptying): nothing counts until a hand lays again
        s = replace(s, untouched_since_unseen=False)
    s, more = _watch_prophet_token(s, now)
    out += more
    if isinstance(s.phase, Clearing):
        return _await_clear(s, now, out)
    if isinstance(s.phase, AwaitingProphet):
        return await_prophet(s, now, out)
    if now.noplay_token:
        return _noplay(s, now, out)
    return _attempt(s, now, out)


def _noplay(s: TurnState, now: Now, out: Intents) -> tuple[TurnState, Intents]:
    if not s.rules.no_play:  # EX3, AB3: said once; nothing is collected
        s, asked = once(s, now, NotInGame(Missing.NO_PLAY, s.rules.variant))
        return s, out + asked
    if not isinstance(s.phase, ShowingHand):
        if s.relay is not None and not s.relay.noplay:
            # cards owed as an attempt: a "no play" now would be another player's, or a card
            # laid as an attempt counted for a hand
            s, asked = once(s, now, owed(s, now))
            return s, out + asked
        s = replace(s, phase=ShowingHand(), unjudged=None)
    if now.empty:
        if s.unjudged is not None and now.settled:
            return _taken_unjudged(s, now, out)  # a batch taken away unread
        assert isinstance(s.phase, ShowingHand)
        s = replace(s, phase=replace(s.phase, batch=()))  # the zone was cleared between two batches
    return collect_hand(s, now, out)


def _attempt(s: TurnState, now: Now, out: Intents) -> tuple[TurnState, Intents]:
    phase = s.phase
    if isinstance(phase, ShowingHand) and now.empty and now.settled:
        # the NO PLAY token and the cards taken back before the hand was complete: a change
        # of mind, unless what is owed was never seen whole, or the players laid as many
        # cards as the hand holds, some taken away unread: they take the hand for shown, and
        # the next cards may be the next player's (N1; never judged as this player's)
        s = hand_taken_for_shown(s, phase, now)
        s = replace(s, phase=Waiting(), unjudged=None)
        if s.relay is not None and s.relay.noplay:
            return s, out + [owed(s, now)]
        return s, out + [NoPlayWithdrawn()]
    if isinstance(phase, ShowingHand) and not now.empty:
        # the hand is shown but the NO PLAY token is not seen: hidden by a hand for a moment,
        # or gone; the cards are never taken for an attempt
        if not now.settled:
            return s, out
        decided = TableToken.ACCEPT in now.view.tokens_in_play or TableToken.REJECT in now.view.tokens_in_play
        taken = hand_taken_for_shown(s, phase, now)
        if decided and taken.relay is not None:
            # F3 on a hand not seen whole: the prophet's decision says the players take it
            # for shown; it is owed, and what lies there is nobody's attempt
            return _refuse_for_relay(replace(taken, phase=Waiting(), unjudged=None), now, out)
        s, asked = once(s, now, ZoneBusy(Busy.NO_PLAY_TOKEN_UNSEEN))
        return s, out + asked
    if now.empty:
        if s.refused_laying is not None and s.relay is not None and now.settled:
            s = replace(s, relay=replace(s.relay.refusing(s.refused_laying), told=None), refused_laying=None)
        if isinstance(phase, Laying) and s.unjudged is not None and now.settled:
            return _taken_unjudged(s, now, out)
        if not isinstance(phase, (Laying, ShowingHand)) or now.settled:
            s = replace(s, phase=Waiting())  # an empty zone for a moment is no news: wait until it held
        return s, out
    s = replace(s, phase=Laying())
    if not now.settled:
        return s, out
    s, unread = unread_trouble(s, now)
    if unread is not None:
        return note_unjudged(s, now), out + unread
    player = now.facts.whose_turn
    if player is None:
        return s, out
    # what lay unread and is no longer there was a change of mind: the turn is still this
    # player's, and what lies there now is their play
    if s.relay is None:
        s = replace(s, unjudged=None)
    if s.relay is not None and not s.relay.matches(now.picture):
        return _refuse_for_relay(s, now, out)
    if not s.rules.chains and len(now.picture) > 1:  # EX2, AB2: one card a turn
        s, asked = once(s, now, NotInGame(Missing.CHAIN, s.rules.variant))
        return s, out + asked
    return submit(s, now, out, Attempt(player, tuple(c for c in now.picture if c is not None)))


def _unsteady(s: TurnState, now: Now) -> tuple[TurnState, Intents]:
    """The picture has kept changing for ``UNSTEADY_S`` with no hand over the zone: asked
    about once, until a hand comes."""
    sight, t = s.sight, now.view.t
    if now.settled or now.busy or sight.unsteady is None:
        return replace(s, sight=replace(sight, unsteady=Steady(t, None),
                                        unsteady_said=sight.unsteady_said and not now.busy)), []
    if sight.unsteady_said or not sight.unsteady.held(t, UNSTEADY_S):
        return s, []
    return replace(s, sight=replace(sight, unsteady_said=True)), [ZoneBusy(Busy.KEEPS_CHANGING)]


def _taken_unjudged(s: TurnState, now: Now, out: Intents) -> tuple[TurnState, Intents]:
    """What lay unread was taken away. Taken back before any verdict, it costs nothing, with
    two exceptions where the dealer still needs to see it: a starter found but unread (C4),
    and a "no play" batch with cards not yet counted (N1)."""
    unjudged = s.unjudged.picture if s.unjudged is not None else ()
    s = replace(s, unjudged=None)
    if isinstance(s.phase, AwaitingStarter):
        return s, out + ([TakenAway(Taken.STARTER)] if None in unjudged else [])
    if isinstance(s.phase, ShowingHand):
        missed = uncounted(unjudged, s.phase.shown)
        s = replace(s, phase=replace(s.phase, missed=s.phase.missed + missed))
        return s, out + ([TakenAway(Taken.BATCH)] if missed else [])
    s = replace(s, phase=Waiting())
    if s.relay is not None:
        # cards are owed already (_unseen_emptying): this laying, refused while they waited and
        # now taken away, changes nothing of what is owed
        return s, out + [owed(s, now)]
    return s, out


def _refuse_for_relay(s: TurnState, now: Now, out: Intents) -> tuple[TurnState, Intents]:
    """Cards that are not the ones owed lie in the zone: asked for once per laying (a hand
    over them, or a token laid beside them, is no new laying)."""
    assert s.relay is not None
    laying = tuple(sorted(now.read.elements(), key=str))
    if None not in now.picture:  # another laying, read whole: the table may have gone on
        s = replace(s, refused_laying=laying)
        if s.relay is not None and s.relay.told == laying:
            return s, out
    s, asked = once(s, now, owed(s, now))
    if asked and None not in now.picture and s.relay is not None:
        s = replace(s, relay=replace(s.relay, told=laying))
    return s, out + asked


def _await_starter(s: TurnState, now: Now, out: Intents) -> tuple[TurnState, Intents]:
    picture, view = now.picture, now.view
    if now.empty:
        if s.unjudged is not None and now.settled:
            return _taken_unjudged(s, now, out)
        return s, out
    if not now.settled:
        return s, out
    if view.unexplained_in_play and len(picture) <= 1:
        s, asked = once(s, now, CannotRead(Unread.SOMETHING))  # something there that is no card read
        return note_unjudged(s, now), out + asked
    if len(picture) != 1 or view.unexplained_in_play:
        s, asked = once(s, now, ZoneBusy(Busy.ONE_STARTER))
        return s, out + asked
    card = picture[0]
    if card is None:
        s = note_unjudged(s, now)
        s, asked = once(s, now, CannotRead(Unread.STARTER))
        return s, out + asked
    return (replace(s, phase=Clearing((card,)), unjudged=None, keyed=s.keyed.after_verdict()),
            out + [StarterTurned(card)])


def _await_clear(s: TurnState, now: Now, out: Intents) -> tuple[TurnState, Intents]:
    assert isinstance(s.phase, Clearing)
    view, picture = now.view, now.picture
    if now.empty and not (s.noplay_token_laid and now.noplay_token):
        # Empty means no card and, with the occupancy analysis, nothing unread either: a card
        # missed for a frame still fills the zone, so it never becomes the next player's play.
        keyed = replace(s.keyed, named=())  # the names went with their cards
        if not now.facts.started:
            return replace(s, phase=AwaitingStarter(), keyed=keyed), out + [TurnNextStarter()]
        player = now.facts.whose_turn
        return replace(s, phase=Waiting(), keyed=keyed), out + ([YourTurn(player)] if player else [])
    laid_for = Counter(s.phase.laid_for)
    laid = now.read
    if now.settled and laid_for and not laid <= laid_for:
        if None not in picture and not laid & laid_for:
            return _unseen_emptying(s, now, out)
        # the table did not change as the protocol says: new cards before the zone emptied
        s, asked = once(s, now, ZoneBusy(Busy.JUDGED_CARDS_LIE))
        return s, out + asked
    if now.settled and not laid and (view.unexplained_in_play or None in picture):
        if now.noplay_token and not s.noplay_token_laid:
            return _unseen_emptying(s, now, out)  # the next "no play" is being shown, its cards unread
        s, asked = once(s, now, ZoneBusy(Busy.NOT_SEEN_EMPTY))
        return s, out + asked
    return s, out


def _unseen_emptying(s: TurnState, now: Now, out: Intents) -> tuple[TurnState, Intents]:
    """The cards judged are gone and others lie there, but the zone was never seen empty in
    between (the camera was nudged and re-anchored, or a hand hid the zone all the while).
    Whose cards these are is not known: the next player is called, and they count only once
    laid again (never credited to anyone unseen)."""
    read = tuple(sorted(now.read.elements(), key=str))
    s, asked = once(s, now, AskLayAgain(now.facts.whose_turn or "", read, Owed.UNSEEN_EMPTYING))
    if asked:
        s = replace(s, phase=Waiting(), noplay_token_laid=False, untouched_since_unseen=True,
                    relay=Relay(now.noplay_token, read, len(now.picture), maybe=maybe_of(now.ordered)))
    return s, out + asked


def _watch_prophet_token(s: TurnState, now: Now) -> tuple[TurnState, Intents]:
    view = now.view
    if not view.prophet_token_out:
        return replace(s, prophet=replace(s.prophet, seen=False)), []
    if s.prophet.seen or not now.settled or view.unexplained_in_play:
        return s, []  # seen already, or shown with a hand over the zone: taken once it has left
    s = replace(s, prophet=replace(s.prophet, seen=True))
    if not s.rules.prophet:  # EX4, AB3
        return s, [NotInGame(Missing.PROPHET, s.rules.variant)]
    if now.facts.prophet is not None:
        return s, []  # the token of the prophet in office, seen again
    player = now.facts.just_played
    nothing_laid = isinstance(s.phase, (Clearing, Waiting)) or (isinstance(s.phase, Laying) and not now.picture)
    # F1: right after your own turn, before the next player acts: cards owed are an act, and
    # so are cards laid since the verdict, even while the zone has not been seen empty
    if nothing_laid and not s.next_acted and player and s.relay is None:
        return s, [Judge(BecomeProphet(player))]
    return s, [ZoneBusy(Busy.PROPHET_TOO_LATE)]
