"""The protocol at the table: turns what the camera sees into the players' actions.

Input: one :class:`TableView` per frame, already made stable by vision (cards in the
play zone, read left to right in table millimetres, and the tokens lying on the table).
Output: :class:`Intent` records: an engine action to judge (an attempt, a "no play", a
prophet taking office), a sentence to say, or a trouble to report. The live dealer
(dealer/live.py) applies the actions to the round and calls :meth:`judged`.

The protocol (docs/playing-at-the-table.md):
- An attempt (P1): the player whose turn it is lays one card or a chain in the play zone,
  left to right in the order played, and takes the hand away. When the zone has stayed
  the same for ``settle_s`` seconds, the dealer judges it.
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
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from engine.cards import Card
from engine.events import Attempt, BecomeProphet, NoPlay, ProphetDecision

__all__ = ["Intent", "Phase", "RoundView", "SeenCard", "TableProtocol", "TableView", "Token"]


class Token(enum.Enum):
    NO_PLAY = "noplay"
    PROPHET = "prophet"
    ACCEPT = "accept"
    REJECT = "reject"


@dataclass(frozen=True, slots=True)
class SeenCard:
    """A card the camera sees in the play zone: label None when it could not be read."""

    label: str | None
    x_mm: float
    y_mm: float
    confidence: float = 1.0


@dataclass(frozen=True, slots=True)
class TableView:
    """What lies on the table at time ``t`` (seconds): play-zone cards and tokens."""

    t: float
    play_cards: tuple[SeenCard, ...] = ()
    tokens_in_play: dict[Token, tuple[float, float]] = field(default_factory=dict)
    prophet_token_out: bool = False  # the PROPHET token lies on the table (F2)
    frame: int | None = None


class RoundView(Protocol):
    """What the protocol needs to know of the round."""

    @property
    def whose_turn(self) -> str | None: ...

    @property
    def prophet(self) -> str | None: ...

    def hand_size(self, player: str) -> int: ...


class Phase(enum.Enum):
    WAITING = "waiting"  # play zone empty, the current player's turn
    LAYING = "laying"  # cards arriving; judged once they settle
    SHOWING = "showing"  # NO PLAY token out: collecting the hand in batches
    PROPHET = "prophet"  # waiting for the prophet's ACCEPT or REJECT (F3)
    CLEARING = "clearing"  # verdict given: waiting for the play zone to empty


@dataclass(frozen=True, slots=True)
class Intent:
    """One thing the dealer should do: judge ``action``, ``say`` a sentence, or note trouble."""

    action: Attempt | NoPlay | BecomeProphet | None = None
    say: str = ""
    trouble: str = ""
    frame: int | None = None


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"number {n}")


class TableProtocol:
    """The turn protocol as a small state machine over :class:`TableView` s."""

    def __init__(self, round_view: RoundView, settle_s: float = 2.0) -> None:
        self.round = round_view
        self.settle_s = settle_s
        self.phase = Phase.WAITING
        self._last_labels: tuple[str | None, ...] = ()
        self._since = 0.0
        self._shown: list[Card] = []  # distinct cards of a "no play" hand, in the order shown
        self._shown_batch: tuple[str | None, ...] = ()
        self._pending: Attempt | NoPlay | None = None
        self._last_player: str | None = None  # whose turn was judged last (F1)
        self._prophet_token_seen = False
        self._unreadable_said = False

    # -- the live dealer tells the protocol what happened -------------------------
    def judged(self, player: str) -> None:
        """The last action was judged: wait for the play zone to clear."""
        self._last_player = player
        self.phase = Phase.CLEARING
        self._pending = None
        self._shown = []

    def expect_clear(self) -> None:
        """Before the first turn: wait for the play zone to empty; nobody has played yet (F1)."""
        self.phase = Phase.CLEARING
        self._last_player = None

    def restart_turn(self) -> None:
        """After a verdict is taken back: the same player's turn, judged afresh once settled."""
        self.phase = Phase.WAITING
        self._last_labels = ()
        self._pending = None
        self._shown = []

    def settle_now(self) -> None:
        """The keyboard's "judge now": what lies in the play zone counts as settled."""
        self._since = float("-inf")

    def deposed(self) -> None:
        """The prophet was overthrown (F4): a token left out must not re-appoint anyone."""
        self._prophet_token_seen = True

    # -- one view per frame ----------------------------------------------------------
    def observe(self, view: TableView) -> list[Intent]:
        out: list[Intent] = []
        out += self._watch_prophet_token(view)
        labels = tuple(c.label for c in sorted(view.play_cards, key=lambda c: c.x_mm))
        if labels != self._last_labels:
            self._last_labels = labels
            self._since = view.t
            self._unreadable_said = False
        settled = view.t - self._since >= self.settle_s

        if self.phase is Phase.CLEARING:
            if not view.play_cards and Token.NO_PLAY not in view.tokens_in_play:
                self.phase = Phase.WAITING
                player = self.round.whose_turn
                if player:
                    out.append(Intent(say=f"{player}, your turn.", frame=view.frame))
            return out
        if self.phase is Phase.PROPHET:
            return out + self._await_prophet(view)
        if Token.NO_PLAY in view.tokens_in_play:
            if self.phase is not Phase.SHOWING:
                self.phase = Phase.SHOWING
                self._shown, self._shown_batch = [], ()
            if not view.play_cards:
                self._shown_batch = ()  # the zone was cleared between two batches
            return out + self._collect_hand(view, labels, settled)
        if self.phase is Phase.SHOWING and not view.play_cards:
            # the NO PLAY token was taken back before the hand was complete: cancelled
            self.phase = Phase.WAITING
            self._shown = []
            return out + [Intent(say="No play withdrawn.", frame=view.frame)]
        if not view.play_cards:
            self.phase = Phase.WAITING
            return out
        self.phase = Phase.LAYING
        if not settled:
            return out
        if None in labels:
            if not self._unreadable_said:
                self._unreadable_said = True
                where = _ordinal(labels.index(None) + 1)
                out.append(Intent(trouble=f"I cannot read the {where} card in the play zone: "
                                  "straighten it or move your hand away.", frame=view.frame))
            return out
        player = self.round.whose_turn
        if player is None:
            return out
        attempt = Attempt(player, tuple(Card.parse(label) for label in labels if label))
        return out + self._submit(attempt, view)

    # -- pieces ------------------------------------------------------------------------
    def _submit(self, action: Attempt | NoPlay, view: TableView) -> list[Intent]:
        if self.round.prophet is not None:
            self._pending = action
            self.phase = Phase.PROPHET
            return [Intent(say=f"Prophet {self.round.prophet}, accept or reject?", frame=view.frame)]
        self.phase = Phase.CLEARING
        return [Intent(action=action, frame=view.frame)]

    def _await_prophet(self, view: TableView) -> list[Intent]:
        assert self._pending is not None
        accept = Token.ACCEPT in view.tokens_in_play
        reject = Token.REJECT in view.tokens_in_play
        if accept == reject:
            return []  # neither yet (or both: wait until one is taken back)
        decision = ProphetDecision.agree() if accept else ProphetDecision.reject()
        pending = self._pending
        if isinstance(pending, NoPlay) and reject:
            named = self._card_nearest(view, view.tokens_in_play[Token.REJECT])
            if named is None:
                return [Intent(trouble="Prophet: put the REJECT token next to the card you name.",
                               frame=view.frame)]
            decision = ProphetDecision.reject(named)
        self.phase = Phase.CLEARING
        action: Attempt | NoPlay
        if isinstance(pending, Attempt):
            action = Attempt(pending.player, pending.cards, decision)
        else:
            action = NoPlay(pending.player, pending.hand, decision)
        return [Intent(action=action, frame=view.frame)]

    @staticmethod
    def _card_nearest(view: TableView, at: tuple[float, float]) -> Card | None:
        readable = [c for c in view.play_cards if c.label]
        if not readable:
            return None
        best = min(readable, key=lambda c: (c.x_mm - at[0]) ** 2 + (c.y_mm - at[1]) ** 2)
        return Card.parse(best.label or "")

    def _collect_hand(self, view: TableView, labels: Sequence[str | None], settled: bool) -> list[Intent]:
        player = self.round.whose_turn
        if player is None or not settled or not labels or labels == self._shown_batch:
            return []
        if None in labels:
            if self._unreadable_said:
                return []
            self._unreadable_said = True
            return [Intent(trouble="I cannot read every card of this batch: spread them apart.",
                           frame=view.frame)]
        # Cards still lying from the last batch are not counted again: only the new ones.
        lying = Counter(self._shown_batch)
        batch: list[Card] = []
        for label in labels:
            if lying[label] > 0:
                lying[label] -= 1
            elif label:
                batch.append(Card.parse(label))
        self._shown_batch = tuple(labels)
        if not batch:
            return []
        need = self.round.hand_size(player)
        if len(self._shown) + len(batch) > need:
            overlap = len(self._shown) + len(batch) - need
            return [Intent(trouble=f"I have seen {len(self._shown) + len(batch)} cards but {player} holds "
                           f"{need}: {overlap} too many. Show the hand again.", frame=view.frame)]
        self._shown += batch
        if len(self._shown) < need:
            left = need - len(self._shown)
            return [Intent(say=f"{len(self._shown)} of {need} seen. Show the other {left}.", frame=view.frame)]
        return self._submit(NoPlay(player, tuple(self._shown)), view)

    def _watch_prophet_token(self, view: TableView) -> list[Intent]:
        if not view.prophet_token_out:
            self._prophet_token_seen = False
            return []
        if self._prophet_token_seen:
            return []
        self._prophet_token_seen = True
        # F1: right after your own turn, before the next player lays anything.
        if self.phase in (Phase.CLEARING, Phase.WAITING) and self._last_player and self.round.prophet is None:
            return [Intent(action=BecomeProphet(self._last_player), frame=view.frame)]
        return [Intent(trouble="The PROPHET token can only be put out right after your own turn (F1).",
                       frame=view.frame)]
