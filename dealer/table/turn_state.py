"""The turn's state as values: one frozen value per phase, and what is remembered across them.

:func:`dealer.table.turn.step` takes a :class:`TurnState` and gives a new one; nothing here
changes after it is made. The phases: waiting for the starter (C4), waiting for a play,
an attempt being laid (P1), a "no play" hand shown in batches (N1, with the cards seen so
far), the prophet's decision awaited (F3), the round's verdict awaited, the zone being
cleared after a verdict (P3, P4), the layout being put right (P5), and paused while the
camera is gone. :class:`Sight` is the one memory of what was seen where; :class:`Steady` is
the one clock that says how long something has held (the turn's picture here, and the line
zones and the camera's view in dealer/table/layout_watch.py and dealer/table/sight.py). The
layout watch's state (:class:`~dealer.table.layout_watch.LayoutState`) is part of the turn's:
the turn is :class:`PuttingLayoutRight` exactly while it holds misplacements said (P5).
:class:`ProphetToken` is the one memory of the PROPHET token, :class:`Keyed` what the keys
stand for.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from dealer.table.layout_watch import LayoutState, moving
from dealer.table.sight import SightTimers
from dealer.table.steady import Steady
from dealer.table.table_rules import TableRules
from dealer.table.turn_input import SETTLE_S, SeenCard, TableToken
from engine.cards import Card
from engine.events import Attempt, BecomeProphet, NoPlay

__all__ = [
    "LOST_TRACK_AFTER",
    "AwaitingProphet",
    "AwaitingStarter",
    "AwaitingVerdict",
    "Clearing",
    "Keyed",
    "Laying",
    "NamedCard",
    "Paused",
    "PhaseState",
    "Picture",
    "ProphetToken",
    "PuttingLayoutRight",
    "Relay",
    "ShowingHand",
    "Sight",
    "SightTimers",
    "Steady",
    "TurnPhase",
    "TurnState",
    "Unjudged",
    "Waiting",
    "initial",
    "maybe_of",
    "resumed",
    "still_laid",
]

# Other layings, each read whole, refused while cards owed (the zone not seen empty after a
# verdict, dealt with in :func:`_unseen_emptying`) wait to come back: after this many, the
# table has gone on without them, and nothing is taken for them any more on their number of
# cards alone; key j lets the players say what lies there is the play.
LOST_TRACK_AFTER = 2

Picture = tuple[Card | None, ...]  # the cards in the play zone, left to right (None: unread)


# -- the phases --------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class AwaitingStarter:
    """C4: the top card of the stock, turned face up alone in the play zone."""


@dataclass(frozen=True, slots=True)
class Waiting:
    """The play zone is empty: the current player's turn."""


@dataclass(frozen=True, slots=True)
class Laying:
    """Cards are arriving (P1): judged once they settle."""


@dataclass(frozen=True, slots=True)
class ShowingHand:
    """N1: the NO PLAY token is out; ``shown`` the distinct cards counted so far, in order,
    ``batch`` the batch lying there now (counted already); ``missed`` how many cards of the
    hand were laid and taken away before they could be read (the players went on showing it,
    so they take them for shown)."""

    shown: tuple[Card, ...] = ()
    batch: Picture = ()
    missed: int = 0


@dataclass(frozen=True, slots=True)
class AwaitingProphet:
    """F3: ``pending`` lies there for the prophet's ACCEPT or REJECT."""

    pending: Attempt | NoPlay
    batch: Picture = ()


@dataclass(frozen=True, slots=True)
class AwaitingVerdict:
    """``action`` went to the round: its :class:`VerdictGiven` comes next, before any frame."""

    action: Attempt | NoPlay
    batch: Picture = ()


@dataclass(frozen=True, slots=True)
class Clearing:
    """A starter or a verdict given: waiting for the zone to empty. ``laid_for``: the cards
    judged (or turned) that still lie there; they count for nothing else."""

    laid_for: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class PuttingLayoutRight:
    """P5: the layout does not match the record; the turn waits, in ``held`` (the phase it
    was in), until the players put it right or go on with it as it lies. The turn is in this
    phase exactly while its ``layout.holding`` is set (dealer/table/turn_layout.py)."""

    held: TurnPhase


@dataclass(frozen=True, slots=True)
class Paused:
    """The camera is gone: nothing is judged until it is back, and then the turn goes on in
    ``held`` (the phase it was in), its clock started afresh."""

    held: TurnPhase | PuttingLayoutRight


TurnPhase = AwaitingStarter | Waiting | Laying | ShowingHand | AwaitingProphet | AwaitingVerdict | Clearing
PhaseState = TurnPhase | PuttingLayoutRight | Paused


# -- what is remembered --------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Sight:
    """What was seen where, and the one clock that says "settled".

    ``clock``: the picture (and whether something unexplained lies beside it) and since when
    it has held, started again whenever a hand (or an arm) is over the zone; ``known``: the
    cards read (or named by the players) at their places since the last hand; ``said``: a
    trouble about this picture was said already; ``unsteady``: since the picture last held
    (for a picture that never holds), and ``unsteady_said``: that was said.
    """

    clock: Steady[tuple[Picture, bool]] = Steady(0.0, ((), False))
    known: tuple[SeenCard, ...] = ()
    unsteady: Steady[None] | None = None
    unsteady_said: bool = False
    said: bool = False

    @property
    def picture(self) -> Picture:
        return self.clock.what[0]

    @property
    def since(self) -> float:
        return self.clock.since


@dataclass(frozen=True, slots=True)
class ProphetToken:
    """The one memory of the PROPHET token (F1, F2): ``seen``, the token lying out was taken
    for what it means (an appointment, or the prophet in office), and a token left out
    appoints no one again; ``keyed``, key p lays it out; ``reminded``, the players were told
    once where it belongs on the layout."""

    seen: bool = False
    keyed: bool = False
    reminded: bool = False


@dataclass(frozen=True, slots=True)
class NamedCard:
    """A card the players named for a card the camera found but could not read, where it lay
    (table millimetres)."""

    card: Card
    x_mm: float
    y_mm: float


@dataclass(frozen=True, slots=True)
class Keyed:
    """What the keys stand for this turn: the NO PLAY token (``no_play``), the prophet's
    decision token (``decision``, with the card a REJECT names, ``card_index`` from the
    left), a "judge now" not yet used, a card's name typed and not yet given (``naming``),
    and the namings given to the cards that lie in the zone (``named``, for the recording)."""

    no_play: bool = False
    decision: TableToken | None = None
    card_index: int | None = None
    judge_now: bool = False
    naming: Card | None = None
    named: tuple[NamedCard, ...] = ()

    def after_verdict(self) -> Keyed:
        """A decision and a NO PLAY belong to one turn; the names stay with their cards
        until those leave the zone."""
        return Keyed(named=self.named)


@dataclass(frozen=True, slots=True)
class Unjudged:
    """A picture that lay still in the zone and could not be judged (something unread)."""

    picture: Picture


@dataclass(frozen=True, slots=True)
class Relay:
    """Cards that must come back before anything else counts: they lay where judged cards had
    lain, the zone never seen empty in between (whose they are is not known)."""

    noplay: bool  # a "no play" hand (shown again with the NO PLAY token), else an attempt
    read: tuple[Card, ...]  # the cards read of it: they must be among the cards laid again
    count: int = 0  # how many cards it had: with none of them read, as many must come again
    refused: frozenset[tuple[Card, ...]] = frozenset()  # other layings refused while it waited
    maybe: frozenset[Card] | None = None  # none read: what its unread ones may be
    told: tuple[Card, ...] | None = None  # the laying last refused aloud: not asked about again

    @property
    def lost_track(self) -> bool:
        return not self.read and len(self.refused) >= LOST_TRACK_AFTER

    def refusing(self, cards: Sequence[Card]) -> Relay:
        return replace(self, refused=self.refused | {tuple(sorted(cards, key=str))})

    def matches(self, picture: Picture) -> bool:
        """Can ``picture`` be this attempt laid again? Never when it was a "no play"."""
        if self.noplay or self.lost_track:
            return False
        if not self.read:
            return len(picture) == self.count and (
                self.maybe is None or all(c in self.maybe for c in picture if c is not None))
        return Counter(self.read) <= Counter(c for c in picture if c is not None)

    def shown_again(self, hand: Sequence[Card]) -> bool:
        return self.noplay and not self.lost_track and Counter(self.read) <= Counter(hand)


@dataclass(frozen=True, slots=True)
class TurnState:
    """The whole turn, as a value. ``noplay_token_laid``: the NO PLAY token of the "no play"
    just judged lies there; ``next_acted``: F1, the next player acted since the verdict;
    ``untouched_since_unseen``: cards that came unseen count only once a hand lays them;
    ``layout``: the layout watch (P5); ``t`` and ``zone_empty``: the time of the last frame
    and whether no card lay in the play zone then (key a goes on with a layout as it lies)."""

    phase: PhaseState
    settle_s: float = SETTLE_S
    sight: Sight = Sight()
    unjudged: Unjudged | None = None
    relay: Relay | None = None
    refused_laying: tuple[Card, ...] | None = None
    noplay_token_laid: bool = False
    next_acted: bool = False
    prophet: ProphetToken = ProphetToken()
    keyed: Keyed = Keyed()
    table: SightTimers = SightTimers()  # the camera's view of the table: unseen, or busy for long
    untouched_since_unseen: bool = False
    unread_asks: int = 0  # a card said unread since the last verdict
    unread_asks_in_round: int = 0  # ... since the round began (the live loop's deck hint)
    rules: TableRules = TableRules()  # what the variant's table may do (chains, "no play", prophet)
    layout: LayoutState = LayoutState()
    t: float = 0.0
    zone_empty: bool = True


def still_laid(before: Picture | None, now: Picture) -> Picture:
    """What lies unjudged, as far as the dealer knows: the picture ``now``, and what it saw of
    the same laying ``before`` that ``now`` does not show (a card read a moment ago that fades
    into something unread is still laid).

    >>> from engine.cards import Card
    >>> still_laid((Card.parse("9C"),), ())
    (Card.parse('9C'),)
    >>> still_laid((None, None), (Card.parse("4H"),))
    (Card.parse('4H'), None)
    """
    if before is None:
        return now
    missing = Counter(c for c in before if c is not None) - Counter(c for c in now if c is not None)
    kept = now + tuple(sorted(missing.elements(), key=str))
    return kept + (None,) * max(0, len(before) - len(kept))


def maybe_of(seen: Sequence[SeenCard]) -> frozenset[Card] | None:
    """The cards the unread ones among ``seen`` may be, together; None when one of them does
    not say (anything may be)."""
    out: set[Card] = set()
    for card in seen:
        if card.card is None:
            if card.maybe is None:
                return None
            out |= card.maybe
    return frozenset(out)


def initial(started: bool, settle_s: float = SETTLE_S, rules: TableRules = TableRules()) -> TurnState:
    """A round's first state: the starter awaited, or (starters laid) the first turn."""
    return TurnState(Waiting() if started else AwaitingStarter(), settle_s, rules=rules)


def resumed(action: Attempt | NoPlay | BecomeProphet | None, last_starter: Card, prophet_out: bool,
            settle_s: float = SETTLE_S, rules: TableRules = TableRules(), moving_since: float | None = None
            ) -> TurnState:
    """`play --resume`: the state right after ``action`` was judged (None: right after the last
    starter was laid). Its cards still lie in the zone and count for nothing new; a prophet's
    token already out appoints no one; ``moving_since``: since when its cards may still be on
    their way to the layout (None: nothing was moved, P3, P4)."""
    if isinstance(action, Attempt):
        laid: tuple[Card, ...] = action.cards
    elif isinstance(action, NoPlay):
        laid = action.hand
    elif action is None:
        laid = (last_starter,)
    else:
        laid = ()
    return TurnState(Clearing(laid), settle_s, noplay_token_laid=isinstance(action, NoPlay),
                     prophet=ProphetToken(seen=prophet_out), rules=rules,
                     layout=LayoutState() if moving_since is None else moving(LayoutState(), moving_since))
