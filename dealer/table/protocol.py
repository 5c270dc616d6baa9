"""The protocol at the table: one frame at a time through the pure turn machine.

The machine itself is :mod:`dealer.table.turn` (``step(state, observation) -> (state, intents)``,
frozen states, no I/O); its inputs are in :mod:`dealer.table.turn_input`, its outputs in
:mod:`dealer.table.turn_intents`, their words in :mod:`dealer.speech.turn_words`. :class:`TableProtocol`
is the one cell that holds the current state for a caller that has a live round
(:class:`RoundView`): it snapshots the round's facts for each frame, steps the machine, and
tells it what the round did. :meth:`TableProtocol.observe` also gives the older
:class:`Intent` records, with the sentences made from the catalogs.

The protocol (docs/playing-at-the-table.md):
- The starter (C4): the top card of the stock, turned face up alone in the play zone.
- An attempt (P1): the player whose turn it is lays one card or a chain in the play zone,
  left to right in the order played, and takes the hand away. Once no hand is over the
  zone and the picture has stayed the same for ``settle_s`` seconds, the dealer judges it.
- "No play" (N1): the NO PLAY token in the play zone, then the whole hand, in batches of
  cards that do not overlap; the dealer counts the distinct cards it has seen and says how
  many it still needs, and judges when it has seen as many as the hand holds.
- Prophet (F1, F2): right after your turn, before the next player lays anything, put the
  PROPHET token on the table.
- With a prophet in office (F3): after an attempt or a hand is laid, the prophet puts the
  ACCEPT or the REJECT token in the play zone. For a "no play" rejected, the card the
  prophet names is the card lying nearest the REJECT token (F6).
- After the verdict the player moves the cards to the main line or below the line end
  (P4), and the play zone empties: the next turn begins.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from dealer.table.table_rules import TableRules
from dealer.table.turn import (
    AwaitingProphet,
    AwaitingStarter,
    AwaitingVerdict,
    Clearing,
    Laying,
    PuttingLayoutRight,
    ShowingHand,
    TurnState,
    Waiting,
    initial,
    step,
)
from dealer.table.turn_input import (
    SAME_PLACE_MM,
    SETTLE_S,
    UNSTEADY_S,
    LineRecord,
    LineSight,
    Look,
    Observation,
    ProphetDeposed,
    RoundFacts,
    RoundView,
    SeenCard,
    TableToken,
    TableView,
    VerdictGiven,
    VerdictUndone,
    same_place,
)
from dealer.table.turn_intents import Judge, StarterTurned, TurnIntent
from dealer.speech.turn_words import LAY_AGAIN, ordinal, words
from engine.cards import Card
from engine.events import Attempt, BecomeProphet, NoPlay

__all__ = [
    "LAY_AGAIN",
    "SAME_PLACE_MM",
    "SETTLE_S",
    "UNSTEADY_S",
    "Intent",
    "LineSight",
    "Phase",
    "RoundView",
    "SeenCard",
    "TableProtocol",
    "TableView",
    "TableToken",
    "ordinal",
    "phase_of",
    "same_place",
]


class Phase(enum.Enum):
    STARTER = "starter"  # waiting for a starter turned face up alone in the play zone (C4)
    WAITING = "waiting"  # play zone empty, the current player's turn
    LAYING = "laying"  # cards arriving; judged once they settle
    SHOWING = "showing"  # NO PLAY token out: collecting the hand in batches
    PROPHET = "prophet"  # waiting for the prophet's ACCEPT or REJECT (F3)
    CLEARING = "clearing"  # a starter or a verdict given (or awaited): waiting for the zone to empty
    LAYOUT = "layout"  # the layout is out of place (P5): nothing is judged until it is put right


def phase_of(state: TurnState) -> Phase:
    """The phase's name, for a screen or a test that follows the turn."""
    phase = state.phase
    if isinstance(phase, PuttingLayoutRight):
        return Phase.LAYOUT
    if isinstance(phase, AwaitingStarter):
        return Phase.STARTER
    if isinstance(phase, Waiting):
        return Phase.WAITING
    if isinstance(phase, Laying):
        return Phase.LAYING
    if isinstance(phase, ShowingHand):
        return Phase.SHOWING
    if isinstance(phase, AwaitingProphet):
        return Phase.PROPHET
    assert isinstance(phase, (AwaitingVerdict, Clearing))
    return Phase.CLEARING


@dataclass(frozen=True, slots=True)
class Intent:
    """An intent as a record with its words: decide a ``starter``, judge an ``action``,
    ``say`` a sentence, or report a ``trouble`` (``lay_again``: it asks to lay again).
    ``of`` is the typed intent it was made from: decide on that, never on the words."""

    action: Attempt | NoPlay | BecomeProphet | None = None
    starter: Card | None = None
    say: str = ""
    trouble: str = ""
    lay_again: bool = False
    frame: int | None = None
    of: TurnIntent | None = None


def as_record(intent: TurnIntent, frame: int | None) -> Intent:
    """``intent`` with its words, as an :class:`Intent` record."""
    if isinstance(intent, StarterTurned):
        return Intent(starter=intent.card, frame=frame, of=intent)
    if isinstance(intent, Judge):
        return Intent(action=intent.action, frame=frame, of=intent)
    if intent.KIND == "say":
        return Intent(say=words(intent), frame=frame, of=intent)
    return Intent(trouble=words(intent), lay_again=intent.KIND == "lay_again", frame=frame, of=intent)


class TableProtocol:
    """The current :class:`~dealer.table.turn.TurnState` of a round, stepped one observation at a
    time: the machine's only mutable cell (``state`` is replaced, never changed)."""

    def __init__(self, round_view: RoundView, settle_s: float = SETTLE_S, rules: TableRules = TableRules(),
                 state: TurnState | None = None) -> None:
        """``state``: where the turn stands (a resumed round's, :func:`dealer.table.turn.resumed`);
        by default a round's first state, under the variant's ``rules``."""
        self.round = round_view
        self.state = initial(round_view.started, settle_s, rules) if state is None else state

    @property
    def phase(self) -> Phase:
        return phase_of(self.state)

    @property
    def unread_asks_in_round(self) -> int:
        return self.state.unread_asks_in_round

    def tell(self, observation: Observation) -> tuple[TurnIntent, ...]:
        """Step the machine with ``observation``; its intents, typed."""
        self.state, intents = step(self.state, observation)
        return intents

    def look(self, view: TableView, line: LineRecord | None = None) -> tuple[TurnIntent, ...]:
        """One frame, with the round's facts as they stand now (and its layout's record,
        ``line``, for the layout watch; None: none is watched)."""
        return self.tell(Look(view, RoundFacts.of(self.round, line)))

    def observe(self, view: TableView) -> list[Intent]:
        """One frame; its intents as records with their words."""
        return [as_record(i, view.frame) for i in self.look(view)]

    # -- what the round did ------------------------------------------------------------
    def judged(self, action: Attempt | NoPlay | BecomeProphet | None = None, t: float | None = None) -> None:
        """The last action was judged (None: refused) at ``t``: wait for the play zone to clear
        (and, given ``t``, for its cards to reach the layout, P3, P4)."""
        self.tell(VerdictGiven(action, t))

    def restart_turn(self) -> None:
        """After a verdict is taken back: the same player's turn, judged afresh once settled."""
        self.tell(VerdictUndone())

    def deposed(self) -> None:
        """The prophet was overthrown (F4): a token left out must not re-appoint anyone."""
        self.tell(ProphetDeposed())
