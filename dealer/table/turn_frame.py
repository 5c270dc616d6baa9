"""One frame of the table as the turn machine (dealer/table/turn.py) handles it, and the
small steps every phase shares: a trouble said once, the unread cards noted, what is owed,
an action submitted to the round (or to the prophet first, F3)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from dealer.table.turn_input import ASK_AFTER_S, RoundFacts, SeenCard, TableToken, TableView
from dealer.table.turn_intents import (
    AskLayAgain,
    AskProphet,
    CannotRead,
    FaceDown,
    Judge,
    Owed,
    TurnIntent,
    Unread,
)
from dealer.table.turn_state import (
    AwaitingProphet,
    AwaitingVerdict,
    Picture,
    ShowingHand,
    TurnState,
    Unjudged,
    still_laid,
)
from engine.cards import Card
from engine.events import Attempt, NoPlay

__all__ = ["Intents", "Now", "note_unjudged", "once", "owed", "submit", "uncounted", "unread_trouble"]

Intents = list[TurnIntent]


@dataclass(frozen=True, slots=True)
class Now:
    """The frame being handled: its view, its cards left to right, and whether it settled."""

    view: TableView
    ordered: tuple[SeenCard, ...]
    settled: bool
    empty: bool
    busy: bool  # a hand or an arm over the zone
    facts: RoundFacts
    judge_now: bool = False  # key j: the players go on with what lies there

    @property
    def picture(self) -> Picture:
        return tuple(c.card for c in self.ordered)

    @property
    def read(self) -> Counter[Card]:
        return Counter(c.card for c in self.ordered if c.card is not None)

    @property
    def noplay_token(self) -> bool:
        return TableToken.NO_PLAY in self.view.tokens_in_play


def once(s: TurnState, now: Now, intent: TurnIntent) -> tuple[TurnState, Intents]:
    """A trouble about the picture in view, said once until the picture changes, and only
    once it has held ``ASK_AFTER_S`` (a hand resting at the zone's edge for a moment, a card
    found a frame late, are no trouble)."""
    if s.sight.said or not s.sight.clock.held(now.view.t, ASK_AFTER_S):
        return s, []
    return replace(s, sight=replace(s.sight, said=True)), [intent]


def unread_trouble(s: TurnState, now: Now) -> tuple[TurnState, Intents | None]:
    """None when every card in the zone is read and nothing else lies there."""
    picture = now.picture
    if None in picture:
        where = picture.index(None) + 1
        if now.ordered[where - 1].face_down:  # said as it is: no misreading to count
            return once(s, now, FaceDown(where))
        what = Unread.BATCH_CARD if isinstance(s.phase, ShowingHand) else Unread.CARD
        s, asked = once(s, now, CannotRead(what, where, again=s.unread_asks > 0))
        return replace(s, unread_asks=s.unread_asks + len(asked),
                       unread_asks_in_round=s.unread_asks_in_round + len(asked)), asked
    if now.view.unexplained_in_play:
        return once(s, now, CannotRead(Unread.BESIDE if picture else Unread.SOMETHING))
    return s, None


def note_unjudged(s: TurnState, now: Now) -> TurnState:
    """The settled picture cannot be judged: remember it, if it is surely laid cards (a card
    found but unread), or once the dealer has said it cannot read it."""
    if None not in now.picture and not s.sight.said:
        return s
    return replace(s, unjudged=Unjudged(still_laid(s.unjudged.picture if s.unjudged else None, now.picture)))


def uncounted(picture: Picture, shown: tuple[Card, ...]) -> int:
    """How many cards of ``picture`` (a "no play" batch) are not among those counted."""
    read = Counter(c for c in picture if c is not None) - Counter(shown)
    return picture.count(None) + sum(read.values())


def owed(s: TurnState, now: Now) -> AskLayAgain:
    """What to ask when the cards in the zone are not the ones owed."""
    relay = s.relay
    assert relay is not None
    why = (Owed.LOST_TRACK if relay.lost_track else Owed.SHOW_HAND_AGAIN if relay.noplay
           else Owed.LAY_AGAIN_FIRST)
    return AskLayAgain(now.facts.whose_turn or "", tuple(sorted(relay.read, key=str)), why)


def submit(s: TurnState, now: Now, out: Intents, action: Attempt | NoPlay) -> tuple[TurnState, Intents]:
    batch = s.phase.batch if isinstance(s.phase, ShowingHand) else ()
    prophet = now.facts.prophet
    if prophet is not None:
        return replace(s, phase=AwaitingProphet(action, batch)), out + [AskProphet(prophet)]
    return replace(s, phase=AwaitingVerdict(action, batch)), out + [Judge(action)]
