"""The protocol at the table: turns what the camera sees into the players' actions.

Input: one :class:`TableView` per frame (cards in the play zone, read left to right in
table millimetres, as :class:`~engine.cards.Card` values; the tokens lying on the table;
whether a hand is over the play zone or something lies there that no card explains).
Output: :class:`Intent` records: a starter turned over, an engine action to judge (an
attempt, a "no play", a prophet taking office), a sentence to say, or a trouble to
report. The dealer session (dealer/session.py) decides the starters, applies the actions
to the round and calls :meth:`TableProtocol.judged`.

:class:`TableProtocol` is the one owner of the turn's phase, the starters included (C4).
Who plays now, who just played (F1), the prophet and the hand sizes are asked of the
round each time (:class:`RoundView`), never copied.

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

Never silent, since the players wait for an answer: something in the play zone that cannot be read is said, in the
players' words, once the hand has left; nothing is judged until it can be read. Cards
that were laid for one purpose (the starter, an attempt, a "no play" batch) and still
lie in the zone never count for another: the dealer asks instead of guessing.
- Cards that lay still in the zone unjudged (unread) and are taken away: the dealer says
  so and asks for them again; the turn stays with the same player, and the next cards
  count as that attempt only if every card it read of it is among them (else it asks
  again: another player's cards are never credited to this one). Key j ("judge now")
  lets the players go on with what lies there.
- Nothing is judged on a frame with a hand over the zone, nor on a picture that has not
  held ``settle_s`` since the hand left: the prophet's token and the PROPHET token
  shown in the zone wait for the hand to leave like the cards do.
- While the dealer waits for a token (the prophet's ACCEPT or REJECT), something in the
  zone it cannot read is said: "I cannot see the token".
"""

from __future__ import annotations

import dataclasses
import enum
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from dealer.i18n import N_, Count, _, and_list, card_name, p_
from engine.cards import Card
from engine.events import Attempt, BecomeProphet, NoPlay, ProphetDecision

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
    "same_place",
]

# Seconds the play zone's picture must hold, with no hand or card moving over it, before
# it counts: two frames alike at 3 frames a second. The moving hand itself is seen by the
# observer (a change between frames), so the wait after the hand has left is this short,
# and the verdict comes within a second of the hand leaving.
SETTLE_S = 0.3
# Seconds a picture that cannot be judged (something unread, a second starter) must hold,
# with no hand moving over the zone, before the dealer asks the players to fix it.
ASK_AFTER_S = 1.0
# Seconds the play zone's picture may keep changing, with no hand over it, before the dealer
# says so: a thing found in one look and not the next never settles, and would otherwise
# leave the dealer silent for good (never silent about what lies in the play zone).
UNSTEADY_S = 2.5
# A card found within this distance (mm, centre to centre) of a card read on an earlier
# frame, with no hand over the zone since, is that card: a card is 63 mm wide, and the
# table homography places a still card within a few millimetres from frame to frame.
SAME_PLACE_MM = 15.0
# Other layings, each read whole, refused while a play taken away with nothing of it read
# waits to come back: after this many, the table has gone on without it (players who
# heard would have laid it again after the first), and nothing is taken for it any more
# on its number of cards alone; key j lets the players say what lies there is it.
LOST_TRACK_AFTER = 2


def same_place(a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Two card centres (table mm) within ``SAME_PLACE_MM``: the same card's place."""
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 <= SAME_PLACE_MM ** 2
# Said when something lies in the play zone that the camera cannot read as cards.
LAY_AGAIN = N_("I can see something in the play zone but cannot read it: lay the cards flat and apart.")
# Said when every card in the zone is read but something else lies there unread: a token
# not seen, or a card laid touching another that the camera did not tell apart from it.
BESIDE_UNSEEN = N_("I can see something beside the cards that I cannot read: if it is a card, lay it apart "
                   "from the others; if it is a token, lay it flat and face up beside the cards.")
# Said while the prophet's token is awaited and something unread lies beside the cards.
TOKEN_UNSEEN = N_("I cannot see the ACCEPT or REJECT token: lay it flat, face up, beside the cards.")


class TableToken(enum.Enum):
    NO_PLAY = "noplay"
    PROPHET = "prophet"
    ACCEPT = "accept"
    REJECT = "reject"


@dataclass(frozen=True, slots=True)
class SeenCard:
    """A card the camera sees, at its centre in table millimetres: ``card`` None when unread."""

    card: Card | None
    x_mm: float
    y_mm: float
    confidence: float = 1.0
    # unread: the cards the reader says it may be (vision.classify.CardReading.maybe); None
    # when not known. What an unread card taken away can be told apart from when laid again.
    maybe: frozenset[Card] | None = None


@dataclass(frozen=True, slots=True)
class LineSight:
    """The main line and side branches as the camera sees them, for the layout watch (P5)."""

    main_line: tuple[SeenCard, ...] | None = ()  # None: this zone cannot be read from here
    side_branches: tuple[SeenCard, ...] | None = ()
    prophet_token_mm: tuple[float, float] | None = None  # where the PROPHET token lies (F2)
    busy: bool = False  # a hand or a card on its way is over the line zones


@dataclass(frozen=True, slots=True)
class TableView:
    """What lies on the table at time ``t`` (seconds).

    ``hand_over_play`` and ``unexplained_in_play`` come from the zone-occupancy analysis
    (False when the observer has none): a hand or a moving object over the play zone, and
    something lying in the zone that no card found there explains. ``line`` is None when
    the camera cannot read the whole main line and side branches.
    """

    t: float
    play_cards: tuple[SeenCard, ...] = ()
    tokens_in_play: Mapping[TableToken, tuple[float, float]] = field(default_factory=dict)
    prophet_token_out: bool = False  # the PROPHET token lies on the table (F2)
    frame: int | None = None
    hand_over_play: bool = False
    unexplained_in_play: bool = False
    judge_now: bool = False  # the keyboard's "judge now" (key j): the zone counts as settled
    layout_as_is: bool = False  # the players confirm the layout as it lies (key o, P5)
    line: LineSight | None = None


class RoundView(Protocol):
    """What the protocol asks of the round, each time it needs it (never copied)."""

    @property
    def started(self) -> bool: ...  # every starter is laid (C4)

    @property
    def whose_turn(self) -> str | None: ...

    @property
    def just_played(self) -> str | None: ...  # F1: who alone may take office now

    @property
    def prophet(self) -> str | None: ...

    def hand_size(self, player: str) -> int: ...


class Phase(enum.Enum):
    STARTER = "starter"  # waiting for a starter turned face up alone in the play zone (C4)
    WAITING = "waiting"  # play zone empty, the current player's turn
    LAYING = "laying"  # cards arriving; judged once they settle
    SHOWING = "showing"  # NO PLAY token out: collecting the hand in batches
    PROPHET = "prophet"  # waiting for the prophet's ACCEPT or REJECT (F3)
    CLEARING = "clearing"  # a starter or a verdict given: waiting for the play zone to empty


@dataclass(frozen=True, slots=True)
class Intent:
    """One thing the dealer should do: decide a ``starter``, judge an ``action``, ``say``
    a sentence, or report a ``trouble`` (``lay_again``: the trouble asks the player to lay
    the cards again because they cannot be read)."""

    action: Attempt | NoPlay | BecomeProphet | None = None
    starter: Card | None = None
    say: str = ""
    trouble: str = ""
    lay_again: bool = False
    frame: int | None = None


def ordinal(n: int) -> str:
    """"the {where} card": first ... fifth, then "number 6" (as a translation declines it)."""
    words = {1: p_("ordinal, card", "first"), 2: p_("ordinal, card", "second"), 3: p_("ordinal, card", "third"),
             4: p_("ordinal, card", "fourth"), 5: p_("ordinal, card", "fifth")}
    return words.get(n) or p_("ordinal, card", "number {n}", n=n)


Picture = tuple[Card | None, ...]  # the cards in the play zone, left to right (None: unread)


def _still_laid(before: Picture | None, now: Picture) -> Picture:
    """What lies unjudged, as far as the dealer knows: the picture ``now``, and what it saw of
    the same laying ``before`` that ``now`` does not show. A card read a moment ago that fades
    into something unread (a shadow, a knocked camera) is still laid: it must come back, and
    another card is never credited in its place; as many cards as were seen, too.

    >>> from engine.cards import Card
    >>> _still_laid((Card.parse("9C"),), ())
    (Card.parse('9C'),)
    >>> _still_laid((None, None), (Card.parse("4H"),))
    (Card.parse('4H'), None)
    """
    if before is None:
        return now
    missing = Counter(c for c in before if c is not None) - Counter(c for c in now if c is not None)
    kept = now + tuple(sorted(missing.elements(), key=str))
    return kept + (None,) * max(0, len(before) - len(kept))


def _maybe_of(seen: Sequence[SeenCard]) -> frozenset[Card] | None:
    """The cards the unread ones among ``seen`` may be, together (SeenCard.maybe); None when
    one of them does not say (anything may be)."""
    out: set[Card] = set()
    for card in seen:
        if card.card is None:
            if card.maybe is None:
                return None
            out |= card.maybe
    return frozenset(out)


@dataclass(frozen=True, slots=True)
class _Relay:
    """This turn's attempt or "no play" was taken away unjudged: it must be laid again."""

    noplay: bool  # a "no play" hand (shown again with the NO PLAY token), else an attempt
    read: Counter[Card]  # the cards read of it: they must be among the cards laid again
    count: int = 0  # how many cards it had: with none of them read, as many must come again
    # other layings refused while it waited, each as the cards read of it
    refused: frozenset[frozenset[tuple[Card, int]]] = frozenset()
    # with none of its cards read: the cards its unread ones may be (the reader's guesses);
    # a card laid again that is none of them is another card. None: anything may be
    maybe: frozenset[Card] | None = None

    @property
    def lost_track(self) -> bool:
        """Nothing of it was read and the table went on without it (``LOST_TRACK_AFTER``):
        whose cards come next cannot be known from what is seen."""
        return not self.read and len(self.refused) >= LOST_TRACK_AFTER

    def refusing(self, cards: Counter[Card]) -> _Relay:
        """The same, with one more laying (``cards``, read whole) refused while it waited."""
        return dataclasses.replace(self, refused=self.refused | {frozenset(cards.items())})

    def matches(self, picture: Picture) -> bool:
        """Can ``picture`` be this attempt laid again? Never when it was a "no play"."""
        if self.noplay or self.lost_track:
            return False
        if not self.read:
            return len(picture) == self.count and (
                self.maybe is None or all(c in self.maybe for c in picture if c is not None))
        return self.read <= Counter(c for c in picture if c is not None)

    def shown_again(self, hand: Sequence[Card]) -> bool:
        """Can ``hand``, shown whole with the NO PLAY token, be this "no play" shown again?"""
        return self.noplay and not self.lost_track and self.read <= Counter(hand)


@dataclass(frozen=True, slots=True)
class _Now:
    """The frame being handled: its view, its picture, and whether that picture has settled."""

    view: TableView
    picture: Picture
    settled: bool


class TableProtocol:
    """The turn protocol as a small state machine over :class:`TableView` s."""

    def __init__(self, round_view: RoundView, settle_s: float = SETTLE_S) -> None:
        self.round = round_view
        self.settle_s = settle_s
        self.phase = Phase.WAITING if round_view.started else Phase.STARTER
        self._picture: tuple[Picture, bool] = ((), False)  # cards left to right, unexplained
        self._since = 0.0  # when the picture last changed (or a hand left the zone)
        self._steady_at: float | None = None  # when the picture was last settled, or a hand over the zone
        self._unsteady_said = False  # the zone that never settles was asked about (until a hand comes)
        self._shown: list[Card] = []  # distinct cards of a "no play" hand, in the order shown
        self._shown_batch: Picture = ()
        self._pending: Attempt | NoPlay | None = None
        self._laid_for: Counter[Card] = Counter()  # cards judged (or turned) that still lie there
        self._noplay_token_laid = False  # the NO PLAY token of the "no play" just judged lies there
        self._prophet_token_seen = False
        # F1: the next player has acted since the last verdict (cards other than those judged,
        # or a NO PLAY token, seen settled in the zone): a PROPHET token now is no one's
        self._next_acted = False
        self._said_for_picture = False  # a trouble about this picture was said already
        self._unread_asks = 0  # times a card in the zone was said unread since the last verdict
        self.unread_asks_in_round = 0  # ... since the round began (the live loop's deck hint)
        self._now = _Now(TableView(0.0), (), False)
        # a picture that lay still in the zone and could not be judged (unread);
        # when the zone empties with it unjudged, the dealer says so and asks again
        self._unjudged: Picture | None = None
        # what the unread cards of ``_unjudged`` may be (_maybe_of): read only with it, and
        # set afresh whenever a new ``_unjudged`` starts (_note_unjudged)
        self._unjudged_maybe: frozenset[Card] | None = None
        # what was taken away unjudged and must come back before anything else counts: an
        # attempt (its re-laying must hold the cards read of it) or a "no play" (shown again)
        self._relay: _Relay | None = None
        # the cards of a laying refused while a play is awaited (read whole): counted against
        # it (_Relay.refusing) once the zone is seen empty, the laying over (a chain laid a
        # card at a time is one laying)
        self._refused_laying: Counter[Card] | None = None
        self._known: tuple[SeenCard, ...] = ()  # the cards read at their places, since the last hand
        # new cards came while the dealer never saw the zone empty (a camera nudged, a hand
        # over the zone all the while): they count only once a hand lays them again
        self._untouched_since_unseen = False

    # -- the session tells the protocol what happened ------------------------------
    def judged(self, action: Attempt | NoPlay | BecomeProphet | None = None) -> None:
        """The last action was judged (or refused): wait for the play zone to clear. Its
        cards are remembered until the zone is empty: they count for nothing else. A prophet
        taking office (F1) judges no cards: what lies in the zone, and an attempt still to be
        laid again, stay as they were (never credited to another)."""
        self.phase = Phase.CLEARING
        self._untouched_since_unseen = False
        if isinstance(action, BecomeProphet):
            return
        self._next_acted = False
        self._noplay_token_laid = isinstance(self._pending, NoPlay)
        if isinstance(self._pending, Attempt):
            self._laid_for = Counter(self._pending.cards)
        elif isinstance(self._pending, NoPlay):
            self._laid_for = Counter(c for c in self._shown_batch if c is not None)
        self._pending = None
        self._shown = []
        self._unjudged = None
        self._relay, self._refused_laying = None, None
        self._unread_asks = 0

    def restart_turn(self) -> None:
        """After a verdict is taken back: the same player's turn, judged afresh once settled."""
        self.phase = Phase.WAITING
        self._picture = ((), False)
        self._pending = None
        self._shown = []
        self._laid_for = Counter()
        self._untouched_since_unseen = False
        self._noplay_token_laid = False
        self._unjudged = None
        self._relay, self._refused_laying = None, None
        self._unread_asks = 0
        self._next_acted = False

    def resume_after(self, action: Attempt | NoPlay | BecomeProphet | None, last_starter: Card,
                     prophet_out: bool) -> None:
        """`play --resume`: the state right after ``action`` was judged (None: right after the
        last starter was laid), as the uninterrupted round had it: its cards still lie in the
        play zone and count for nothing new; a prophet's token already out appoints no one."""
        self._pending = action if isinstance(action, (Attempt, NoPlay)) else None
        if isinstance(action, NoPlay):
            self._shown_batch = tuple(action.hand)
        self.judged()
        if action is None:
            self._laid_for = Counter([last_starter])
        self._prophet_token_seen = prophet_out

    def deposed(self) -> None:
        """The prophet was overthrown (F4): a token left out must not re-appoint anyone."""
        self._prophet_token_seen = True

    # -- one view per frame ----------------------------------------------------------
    def _steady(self, view: TableView) -> TableView:
        """A card read at a place keeps its reading while it lies there and no hand comes:
        a frame where the same card is found but not read (a reading at the edge of its
        confidence, flickering) is no change of the picture, so it neither delays the
        verdict nor asks for nothing. A hand over the zone forgets every reading."""
        if view.hand_over_play:
            self._known = ()
            return view
        steady: list[SeenCard] = []
        for seen in view.play_cards:
            if seen.card is None:
                near = [k for k in self._known
                        if same_place((k.x_mm, k.y_mm), (seen.x_mm, seen.y_mm))]
                if len(near) == 1:
                    seen = dataclasses.replace(seen, card=near[0].card)
            steady.append(seen)
        self._known = tuple(c for c in steady if c.card is not None)
        return dataclasses.replace(view, play_cards=tuple(steady))

    def observe(self, view: TableView) -> list[Intent]:
        out: list[Intent] = []
        view = self._steady(view)
        picture: Picture = tuple(c.card for c in sorted(view.play_cards, key=lambda c: c.x_mm))
        seen = (picture, view.unexplained_in_play)
        if seen != self._picture or view.hand_over_play:
            self._picture = seen
            self._since = view.t
            self._said_for_picture = False
        if view.judge_now:
            self._since = float("-inf")
            self._relay, self._refused_laying = None, None  # key j: the players go on with what lies there
        settled = view.t - self._since >= self.settle_s and not view.hand_over_play
        empty = not view.play_cards and not view.unexplained_in_play and not view.hand_over_play
        self._now = _Now(view, picture, settled)
        out += self._unsteady(view, settled)
        if settled and (Counter(c for c in picture if c is not None) - self._laid_for or (
                TableToken.NO_PLAY in view.tokens_in_play and not self._noplay_token_laid)):
            self._next_acted = True  # F1: "before the next player acts"

        if self.phase is Phase.STARTER:
            return out + self._await_starter(empty)
        if self._untouched_since_unseen:
            if not (view.hand_over_play or empty or view.judge_now):
                return out  # asked already (_unseen_emptying): nothing counts until a hand lays again
            self._untouched_since_unseen = False
        out += self._watch_prophet_token(view)
        if self.phase is Phase.CLEARING:
            return out + self._await_clear(empty)
        if self.phase is Phase.PROPHET:
            return out + self._await_prophet()
        if TableToken.NO_PLAY in view.tokens_in_play:
            if self._relay is not None and self.phase is not Phase.SHOWING:
                if not self._relay.noplay:
                    # this turn's attempt was taken away unjudged: a "no play" now would be
                    # another player's, or a card laid as an attempt counted for a hand
                    return out + self._once(self._relay_words(), lay_again=True)
                # the "no play" taken away unread is shown again, from the start; the cards read
                # of it must be in it (checked when the hand is complete)
            if self.phase is not Phase.SHOWING:
                self.phase = Phase.SHOWING
                self._shown, self._shown_batch = [], ()
                self._unjudged = None
            if empty:
                if self._unjudged is not None and self._now.settled:
                    return out + self._taken_unjudged()  # a batch taken away unread: show it again
                self._shown_batch = ()  # the zone was cleared between two batches
            return out + self._collect_hand()
        if self.phase is Phase.SHOWING and empty and self._now.settled:
            # the NO PLAY token was taken back before the hand was complete
            self.phase = Phase.WAITING
            shown, self._shown = self._shown, []
            if self._unjudged is not None:  # a batch was never read: not withdrawn, unseen
                self._relay = _Relay(True, Counter(shown) + Counter(c for c in self._unjudged if c is not None))
                self._unjudged = None
                return out + [Intent(trouble=_("{who}, I could not read the whole hand before it was taken away: "
                                               "put the NO PLAY token back and show the hand again.",
                                               who=self.round.whose_turn or ""), lay_again=True, frame=view.frame)]
            if self._relay is not None and self._relay.noplay:  # it was never seen whole: not withdrawn
                return out + [Intent(trouble=self._relay_words(), lay_again=True, frame=view.frame)]
            return out + [Intent(say=_("No play withdrawn."), frame=view.frame)]
        if self.phase is Phase.SHOWING and not empty:
            # the hand is shown but the NO PLAY token is not seen: hidden by a hand for a moment,
            # or gone; the cards are never taken for an attempt: ask once it holds
            if not self._now.settled:
                return out
            return out + self._once(_("I cannot see the NO PLAY token: put it back beside the cards, or take "
                                      "the cards away to withdraw the no play."), lay_again=True)
        if empty:
            if self._refused_laying is not None and self._relay is not None and self._now.settled:
                self._relay, self._refused_laying = self._relay.refusing(self._refused_laying), None
            if self.phase is Phase.LAYING and self._unjudged is not None and self._now.settled:
                return out + self._taken_unjudged()
            if self.phase not in (Phase.LAYING, Phase.SHOWING) or self._now.settled:
                self.phase = Phase.WAITING  # (an empty zone for a moment is no news: wait until it held)
            return out
        self.phase = Phase.LAYING
        if not settled:
            return out
        unread = self._unread_trouble()
        if unread is not None:
            self._note_unjudged()
            return out + unread
        player = self.round.whose_turn
        if player is None:
            return out
        if self._unjudged is not None and self._relay is None:
            missed = Counter(c for c in self._unjudged if c is not None)
            if missed and not missed <= Counter(c for c in picture if c is not None):
                # other cards than those that lay unjudged, and the zone never seen empty in
                # between: the table went on without them (never credited to another)
                self._relay = _Relay(False, missed, len(self._unjudged))
            self._unjudged = None
        if self._relay is not None and not self._relay.matches(picture):
            if None not in picture:  # another laying, read whole: the table may have gone on
                self._refused_laying = Counter(c for c in picture if c is not None)
            return out + self._once(self._relay_words(), lay_again=True)  # not what was taken away
        return out + self._submit(Attempt(player, tuple(c for c in picture if c is not None)))

    def _unsteady(self, view: TableView, settled: bool) -> list[Intent]:
        """The picture has kept changing for ``UNSTEADY_S`` with no hand over the zone (a thing
        found in one look and not the next): asked about once, until a hand comes."""
        if settled or view.hand_over_play or self._steady_at is None:
            self._steady_at = view.t
            if view.hand_over_play:
                self._unsteady_said = False
            return []
        if self._unsteady_said or view.t - self._steady_at < UNSTEADY_S:
            return []
        self._unsteady_said = True
        return [Intent(trouble=_("What lies in the play zone keeps changing from one look to the next, and no "
                                 "hand is over it: I cannot judge it. Lay the cards again, flat and apart."),
                       lay_again=True, frame=view.frame)]

    def _note_unjudged(self) -> None:
        """The settled picture cannot be judged: remember it, if it is surely laid cards (a card
        found but unread), or once the dealer has said it cannot read it. Something unread and
        nothing found may be a hand resting over the zone for a moment: no news until said."""
        if None in self._now.picture or self._said_for_picture:
            maybe, before = _maybe_of(self._now.view.play_cards), self._unjudged_maybe
            if self._unjudged is not None:  # the same laying: it may be what either look allowed
                maybe = None if maybe is None or before is None else maybe | before
            self._unjudged_maybe = maybe
            self._unjudged = _still_laid(self._unjudged, self._now.picture)

    def _taken_unjudged(self) -> list[Intent]:
        """Cards that lay still unjudged were taken away: say so, and ask for them again.
        The turn stays where it was; an attempt's re-laying must hold the cards read of it."""
        unjudged, self._unjudged = self._unjudged, None
        frame = self._now.view.frame
        if self.phase is Phase.STARTER:
            return [Intent(trouble=_("The starter was taken away before I could read it: turn it face up "
                                     "in the play zone again."), lay_again=True, frame=frame)]
        if self.phase is Phase.SHOWING:
            return [Intent(trouble=_("I could not read that batch before it was taken away: show it again."),
                           lay_again=True, frame=frame)]
        self.phase = Phase.WAITING
        if self._relay is not None:
            # a play is owed already (taken away unjudged before): this laying, refused while
            # it waited and now taken away, may be anyone's; what is owed stays as it was, and
            # is never replaced by an attempt of this player's made of what went unread
            return [Intent(trouble=self._relay_words(), lay_again=True, frame=frame)]
        if not unjudged:  # something unread, no card found: maybe a token the camera did not see
            return [Intent(trouble=_("What lay in the play zone was taken away before I could read it: lay it "
                                     "again, flat and face up."), lay_again=True, frame=frame)]
        self._relay = _Relay(False, Counter(c for c in unjudged if c is not None), len(unjudged),
                             maybe=self._unjudged_maybe)
        return [Intent(trouble=_("{who}, your cards were taken away before I could read them: lay them "
                                 "in the play zone again.", who=self.round.whose_turn or ""),
                       lay_again=True, frame=frame)]

    def _relay_words(self) -> str:
        """What to say when the cards in the zone are not the attempt taken away unjudged."""
        who = self.round.whose_turn or ""
        assert self._relay is not None
        if self._relay.lost_track:
            return _("I have lost track of the turns: {who}'s cards were taken away before I could read them, "
                     "and other cards have come since. {who}, lay your play again; or press j to judge what lies "
                     "in the play zone as {who}'s play.", who=who)
        if self._relay.noplay:
            return _("{who}, put the NO PLAY token back and show the hand again: I could not read all of it.",
                     who=who)
        if not self._relay.read:
            return _("{who}, first lay again the cards that were taken away before I could read them.", who=who)
        return _("{who}, first lay again the cards that were taken away before I could read them ({cards} "
                 "among them).", who=who, cards=and_list(card_name(c) for c in sorted(self._relay.read.elements())))

    # -- pieces ------------------------------------------------------------------------
    def _once(self, trouble: str, lay_again: bool = False) -> list[Intent]:
        """A trouble about the picture in view, said once until the picture changes, and
        only once it has held ``ASK_AFTER_S`` (a hand resting at the zone's edge for a
        moment, a card found a frame late, are no trouble)."""
        if self._said_for_picture or self._now.view.t - self._since < ASK_AFTER_S:
            return []
        self._said_for_picture = True
        return [Intent(trouble=trouble, lay_again=lay_again, frame=self._now.view.frame)]

    def _unread_trouble(self) -> list[Intent] | None:
        """None when every card in the zone is read and nothing else lies there."""
        view, picture = self._now.view, self._now.picture
        if None in picture:
            where = ordinal(picture.index(None) + 1)
            again = self._unread_asks > 0  # asked before this turn: the players may name it (dealer/keys.py)
            if self.phase is Phase.SHOWING:
                # which card, as for an attempt: a card laid apart but read unsure (a design the
                # model reads poorly) is straightened, not spread further apart
                asked = self._once(_("I still cannot read the {where} card of this batch: straighten it or spread "
                                     "the cards apart, or type its name (for example 8C).", where=where) if again else
                                   _("I cannot read the {where} card of this batch: straighten it, or spread the "
                                     "cards apart.", where=where), lay_again=True)
            else:
                asked = self._once(_("I still cannot read the {where} card in the play zone: straighten it, or type "
                                     "its name (for example 8C).", where=where) if again else
                                   _("I cannot read the {where} card in the play zone: straighten it or "
                                     "move your hand away.", where=where), lay_again=True)
            self._unread_asks += len(asked)
            self.unread_asks_in_round += len(asked)
            return asked
        if view.unexplained_in_play:
            if picture:  # every card read, and something else there: a token not seen
                return self._once(_(BESIDE_UNSEEN), lay_again=True)
            return self._once(_(LAY_AGAIN), lay_again=True)
        return None

    def _await_starter(self, empty: bool) -> list[Intent]:
        view, picture = self._now.view, self._now.picture
        if empty:
            if self._unjudged is not None and self._now.settled:
                return self._taken_unjudged()  # the starter went unread: it must come back (C4)
            return []
        if not self._now.settled:
            return []
        if view.unexplained_in_play and len(picture) <= 1:
            asked = self._once(_(LAY_AGAIN), lay_again=True)  # something there that is no card read
            self._note_unjudged()
            return asked
        if len(picture) != 1 or view.unexplained_in_play:
            return self._once(_("Lay one starter card alone in the play zone, face up."))
        card = picture[0]
        if card is None:
            self._note_unjudged()
            return self._once(_("I cannot read the starter: lay it flat, face up, alone in the play zone."),
                              lay_again=True)
        self.phase = Phase.CLEARING
        self._unjudged = None
        self._laid_for = Counter([card])
        return [Intent(starter=card, frame=view.frame)]

    def _await_clear(self, empty: bool) -> list[Intent]:
        view, picture = self._now.view, self._now.picture
        if empty and not (self._noplay_token_laid and TableToken.NO_PLAY in view.tokens_in_play):
            # Empty means no card and, with the occupancy analysis, nothing unread either:
            # a card missed for a frame still fills the zone, so it never becomes the next
            # player's attempt.
            self._laid_for = Counter()
            if not self.round.started:
                self.phase = Phase.STARTER
                return [Intent(say=_("Turn the next card of the stock."), frame=view.frame)]
            self.phase = Phase.WAITING
            player = self.round.whose_turn
            return [Intent(say=_("{who}, your turn.", who=player), frame=view.frame)] if player else []
        laid = Counter(c for c in picture if c is not None)
        if self._now.settled and self._laid_for and not laid <= self._laid_for:
            if None not in picture and not laid & self._laid_for:
                return self._unseen_emptying()
            # the table did not change as the protocol says: new cards before the zone emptied
            return self._once(_("Take the cards already judged out of the play zone before laying new ones."))
        if self._now.settled and not laid and (view.unexplained_in_play or None in picture):
            if TableToken.NO_PLAY in view.tokens_in_play and not self._noplay_token_laid:
                return self._unseen_emptying()  # the next "no play" is being shown, its cards unread
            # something unread lies there and the zone was not seen empty: never silent
            return self._once(_("I can see something in the play zone that I cannot read, and I have not seen "
                                "it empty since the last verdict: take everything out of it."))
        return []

    def _unseen_emptying(self) -> list[Intent]:
        """The cards judged are gone and others lie there, but the zone was never seen empty
        in between (the camera was nudged and re-anchored, or a hand hid the zone all the
        while). Whose cards these are is not known: the next player is called, and they
        count only once laid again (never credited to anyone unseen)."""
        asked = self._once(_("I did not see the play zone empty after the last verdict. {who}, your turn: "
                             "take these cards back and lay your play again.", who=self.round.whose_turn or ""),
                           lay_again=True)
        if asked:
            now = self._now
            self.phase = Phase.WAITING
            self._laid_for = Counter()
            self._noplay_token_laid = False
            self._untouched_since_unseen = True
            # what lies there must come back before anything else counts: with the NO PLAY
            # token, a "no play" shown again from the start; else an attempt holding these cards
            self._relay = _Relay(TableToken.NO_PLAY in now.view.tokens_in_play,
                                 Counter(c for c in now.picture if c is not None), len(now.picture),
                                 maybe=_maybe_of(now.view.play_cards))
        return asked

    def _submit(self, action: Attempt | NoPlay) -> list[Intent]:
        frame = self._now.view.frame
        self._pending = action
        if self.round.prophet is not None:
            self.phase = Phase.PROPHET
            return [Intent(say=_("Prophet {who}, accept or reject?", who=self.round.prophet), frame=frame)]
        self.phase = Phase.CLEARING
        return [Intent(action=action, frame=frame)]

    def _await_prophet(self) -> list[Intent]:
        view, picture = self._now.view, self._now.picture
        assert self._pending is not None
        accept = TableToken.ACCEPT in view.tokens_in_play
        reject = TableToken.REJECT in view.tokens_in_play
        if not self._now.settled:
            return []  # a hand over the zone, or the picture not held since it left: never judged so
        if view.unexplained_in_play or None in picture:
            # something lies there unread: most likely the token, not seen
            return self._once(_(TOKEN_UNSEEN), lay_again=True)
        if accept == reject:
            return []  # neither yet (or both: wait until one is taken back)
        pending = self._pending
        if isinstance(pending, Attempt) and Counter(picture) != Counter(pending.cards):
            # the attempt changed under the prophet's decision: ask, never judge other cards
            return self._once(_("Leave the cards as they were laid until the prophet has decided."))
        decision = ProphetDecision.agree() if accept else ProphetDecision.reject()
        if isinstance(pending, NoPlay) and reject:
            named = self._card_nearest(view, view.tokens_in_play[TableToken.REJECT])
            if named is None:
                return self._once(_("Prophet: put the REJECT token next to the card you name."))
            decision = ProphetDecision.reject(named)
        self.phase = Phase.CLEARING
        action: Attempt | NoPlay
        if isinstance(pending, Attempt):
            action = Attempt(pending.player, pending.cards, decision)
        else:
            action = NoPlay(pending.player, pending.hand, decision)
        self._pending = action
        return [Intent(action=action, frame=view.frame)]

    @staticmethod
    def _card_nearest(view: TableView, at: tuple[float, float]) -> Card | None:
        readable = [c for c in view.play_cards if c.card is not None]
        if not readable:
            return None
        best = min(readable, key=lambda c: (c.x_mm - at[0]) ** 2 + (c.y_mm - at[1]) ** 2)
        return best.card

    def _collect_hand(self) -> list[Intent]:
        view, picture = self._now.view, self._now.picture
        player = self.round.whose_turn
        if player is None or not self._now.settled:
            return []
        if not picture or picture == self._shown_batch:
            if not view.unexplained_in_play:
                return []
            # no new card read, and something there that is none: a card of the next batch
            # not found (the players wait for its count; never silent)
            asked = self._unread_trouble() or []
            self._note_unjudged()
            return asked
        unread = self._unread_trouble()
        if unread is not None:
            self._note_unjudged()
            return unread
        if self._unjudged is not None:
            missed = Counter(c for c in self._unjudged if c is not None)
            if not missed <= Counter(picture):  # the unread batch was swapped for another: show it again
                return self._once(_("I could not read the last batch before it was taken away: show it again."),
                                  lay_again=True)
            self._unjudged = None
        # Cards still lying from the last batch are not counted again: only the new ones.
        lying: Counter[Card | None] = Counter(self._shown_batch)
        batch: list[Card] = []
        for card in picture:
            if lying[card] > 0:
                lying[card] -= 1
            elif card is not None:
                batch.append(card)
        self._shown_batch = picture
        if not batch:
            return []
        need = self.round.hand_size(player)
        if len(self._shown) + len(batch) > need:
            overlap = len(self._shown) + len(batch) - need
            return [Intent(trouble=_("I have seen {seen} cards but {who} holds {need}: {over} too many. "
                                     "Show the hand again.", seen=Count(len(self._shown) + len(batch)), who=player,
                                     need=Count(need), over=Count(overlap)), frame=view.frame)]
        self._shown += batch
        if len(self._shown) < need:
            left = need - len(self._shown)
            return [Intent(say=_("{shown} of {need} seen. Show the other {left}.", shown=Count(len(self._shown)),
                                 need=Count(need), left=Count(left)), frame=view.frame)]
        if self._relay is not None and self._relay.noplay and not self._relay.shown_again(self._shown):
            # not the hand shown before it was taken away unread: another player's
            self._relay = self._relay.refusing(Counter(self._shown))
            self._shown, self._shown_batch = [], ()
            if self._relay.lost_track:
                return [Intent(trouble=self._relay_words(), lay_again=True, frame=view.frame)]
            return [Intent(trouble=_("{who}, this is not the hand you showed before: put the NO PLAY token back "
                                     "and show that hand again.", who=player), lay_again=True, frame=view.frame)]
        self._relay, self._refused_laying = None, None
        return self._submit(NoPlay(player, tuple(self._shown)))

    def _watch_prophet_token(self, view: TableView) -> list[Intent]:
        if not view.prophet_token_out:
            self._prophet_token_seen = False
            return []
        if self._prophet_token_seen:
            return []
        if not self._now.settled or view.unexplained_in_play:
            return []  # shown with a hand over the zone: taken once the hand has left
        self._prophet_token_seen = True
        if self.round.prophet is not None:
            return []  # the token of the prophet in office, seen again (a hand, or the camera, hid it a moment)
        # F1: right after your own turn, before the next player lays anything.
        player = self.round.just_played
        nothing_laid = self.phase in (Phase.CLEARING, Phase.WAITING) or (
            self.phase is Phase.LAYING and not self._now.picture)  # a hand passed over the empty zone
        # F1: "before the next player acts": a play still to be laid again is an act,
        # and so are cards laid since the verdict, even while the dealer still waits for the
        # zone to empty (after a knock the zone may never be seen empty, and a token laid five
        # players' cards after a verdict would make the wrong player prophet)
        if nothing_laid and not self._next_acted and player and self.round.prophet is None and self._relay is None:
            return [Intent(action=BecomeProphet(player), frame=view.frame)]
        return [Intent(trouble=_("The PROPHET token can only be put out right after your own turn (F1)."),
                       frame=view.frame)]
