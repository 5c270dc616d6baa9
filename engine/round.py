"""One round of Eleusis as a state machine driven by typed events (docs/rules.md C3-G4).

The event log is the truth: a :class:`~engine.events.RoundStarted`, then actions. The
state (hand sizes, never hand contents; the stock count; the layout; the prophet and the
marker; expulsions; the end) is a fold over the log, and :meth:`Round.replay` rebuilds it
exactly. The live dealer drives the same machine turn by turn::

    rnd = Round.new(rule, ['Ana', 'Bo', 'Cy'], parse_cards('7H'))
    rnd.whose_turn                  # 'Ana' (C5: a 7 counts round to the first seat)
    rnd.attempt('Ana', parse_cards('4C 9H'))
    rnd.become_prophet('Ana')       # F1
    rnd.no_play('Bo', hand, ProphetDecision.reject(card))

>>> from engine.cards import parse_cards
>>> class AnyCard:
...     text, starter_count = 'any card', 1
...     def legal(self, line, card): return True
>>> rnd = Round.new(AnyCard(), ['Ana', 'Bo', 'Cy'], parse_cards('2S'))
>>> rnd.whose_turn, rnd.stock
('Bo', 113)
>>> rnd.attempt('Bo', parse_cards('4C 9H')).verdict
<Verdict.ACCEPTED: 'accepted'>
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.cards import DECK_SIZE, DEFAULT_DECKS, Card, Suit
from engine.deal import MAX_PLAYERS, MIN_PLAYERS, check_start, deal_starters, first_seat
from engine.errors import (
    AcceptTakesNoCard,
    AlreadyProphet,
    BeenProphet,
    CardNotShown,
    DecisionMissing,
    ExpelledCannotProphesy,
    ExpelledPlays,
    IllegalActionError,
    LegalCardUnnamed,
    NoCardPlayed,
    NoProphet,
    NotAfterOwnTurn,
    OutOfTurn,
    ProphetPlays,
    Refusal,
    RejectTakesNoCard,
    RoundEnded,
    RoundError,
    RoundSetupError,
    TooFewForProphet,
    TooManyCards,
    TooManyCopies,
    UnknownPlayer,
    WrongHandShown,
)
from engine.events import (
    DEFAULT_HAND,
    Action,
    Attempt,
    BecomeProphet,
    EndReason,
    Event,
    NoPlay,
    ProphetDecision,
    RoundStarted,
    TurnOutcome,
    Verdict,
)
from engine.layout import MARK_EVERY, Branch, LaidCard, Layout
from engine.rules.base import Rule
from engine.scoring import ProphetInOffice, RoundResult, score_round

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NOPLAY_PENALTY",
    "NOPLAY_SHRINK",
    "PROPHET_PENALTY",
    "Round",
    "RoundResult",
    "RoundState",
    "deal_starters",
    "first_seat",
]

ATTEMPT_PENALTY_PER_CARD = 2  # P4
NOPLAY_PENALTY = 5  # N3
NOPLAY_SHRINK = 4  # N2
PROPHET_PENALTY = 5  # F4
EXPULSION_TABLE = 30  # E2, no prophet
EXPULSION_AFTER_MARKER = 20  # E2, with a prophet
_SUIT_SLOT = {id(suit): i for i, suit in enumerate(Suit)}  # by identity: hashing an enum is slow


def _kind(card: Card) -> int:
    """A small int per kind of card, for counting copies fast (C1)."""
    return card.rank * 4 + _SUIT_SLOT[id(card.suit)]


@dataclass(frozen=True, slots=True)
class RoundState:
    """Everything the fold over the log computes; equal states mean equal rounds."""

    players: tuple[str, ...]
    hands: tuple[int, ...]
    stock: int
    layout: Layout
    whose_turn: str | None
    prophet: str | None
    marker: int | None  # main-line length when the prophet was appointed (F2)
    been_prophet: tuple[str, ...]
    expelled: tuple[str, ...]
    ended: EndReason | None
    emptied: str | None
    turns: tuple[TurnOutcome, ...]


class Round:
    """The state of one round; every change goes through :meth:`apply` and is logged."""

    def __init__(self, rule: Rule, start: RoundStarted) -> None:
        self.rule = rule
        check_start(rule, start)
        self.start = start
        self.players = start.players
        self._seat = {name: i for i, name in enumerate(start.players)}
        self._hands = [start.hand_size] * len(start.players)  # C3
        self._stock = start.decks * DECK_SIZE - start.hand_size * len(start.players) - len(start.starters)
        self._main: list[Card] = list(start.starters)  # C4: starters are main-line cards
        self._branches: list[Branch] = []
        self._laid: list[LaidCard] = []
        self._counts = [0] * (14 * 4)  # copies on the table by _kind (C1)
        for card in start.starters:
            self._lay(card, None)
        self._expelled: set[int] = set()
        self._prophet: int | None = None
        self._marker_main = 0  # F2: main-line length at the marker
        self._marker_table = 0  # G4: table count at the appointment
        self._been_prophet: list[int] = []
        self._last_seat = (first_seat(len(start.players), start.starters[-1]) - 1) % len(start.players)
        self._just_played: int | None = None  # F1: the seat whose turn was the last action
        self._ended: EndReason | None = None
        self._emptied: int | None = None
        self._short = False
        self._turns: list[TurnOutcome] = []
        self._events: list[Event] = [start]

    # ----- construction -------------------------------------------------------------
    @classmethod
    def new(
        cls,
        rule: Rule,
        players: Sequence[str],
        starters: Sequence[Card],
        *,
        rule_text: str | None = None,
        hand_size: int = DEFAULT_HAND,
        decks: int = DEFAULT_DECKS,
    ) -> Round:
        """Start a round; ``rule_text`` is what a record's ``rule:`` header will say."""
        start = RoundStarted(tuple(players), rule_text or rule.text, tuple(starters), hand_size, decks)
        return cls(rule, start)

    @classmethod
    def replay(cls, rule: Rule, events: Iterable[Event]) -> Round:
        """Rebuild a round by folding its log (the log is the truth)."""
        it = iter(events)
        start = next(it, None)
        if not isinstance(start, RoundStarted):
            raise RoundSetupError(f"a round log starts with RoundStarted, not {start!r}")
        rnd = cls(rule, start)
        for event in it:
            if isinstance(event, RoundStarted):
                raise RoundSetupError("a round log holds one RoundStarted, at its start")
            rnd.apply(event)
        return rnd

    # ----- what the dealer knows --------------------------------------------------------
    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    @property
    def turns(self) -> tuple[TurnOutcome, ...]:
        return tuple(self._turns)

    @property
    def stock(self) -> int:
        return self._stock

    @property
    def line(self) -> tuple[Card, ...]:
        """The main line, starters first."""
        return tuple(self._main)

    @property
    def table_count(self) -> int:
        return len(self._laid)

    @property
    def layout(self) -> Layout:
        return Layout(tuple(self._main), tuple(self._branches), tuple(self._laid))

    @property
    def ended(self) -> EndReason | None:
        return self._ended

    @property
    def prophet(self) -> str | None:
        return None if self._prophet is None else self.players[self._prophet]

    @property
    def expelled(self) -> tuple[str, ...]:
        return tuple(self.players[s] for s in sorted(self._expelled))

    @property
    def whose_turn(self) -> str | None:
        """Who acts next (C5): to the left, skipping the expelled and the prophet."""
        if self._ended is not None:
            return None
        seat = self._next_seat(self._last_seat)
        return None if seat is None else self.players[seat]

    @property
    def just_played(self) -> str | None:
        """The player whose turn was the last action, who alone may now become prophet (F1)."""
        return None if self._just_played is None else self.players[self._just_played]

    @property
    def expulsion_on(self) -> bool:
        """E2, as checked before the next turn."""
        if self._prophet is None:
            return len(self._laid) >= EXPULSION_TABLE
        return len(self._laid) - self._marker_table >= EXPULSION_AFTER_MARKER

    @property
    def needs_prophet_decision(self) -> bool:
        """F3: while a prophet is in office every attempt and "no play" needs their call."""
        return self._prophet is not None

    def hand_size(self, player: str) -> int:
        return self._hands[self._seat_of(player)]

    def hands(self) -> dict[str, int]:
        return dict(zip(self.players, self._hands))

    def prophet_refusal(self, player: str) -> Refusal | None:
        """Why ``player`` may not become prophet now (F1), or None when they may."""
        seat = self._seat_of(player)
        if self._ended is not None:
            return RoundEnded(self._ended.value)
        if self._just_played != seat:
            return NotAfterOwnTurn(player)
        if seat in self._expelled:
            return ExpelledCannotProphesy(player)
        if self._prophet is not None:
            return AlreadyProphet(self.players[self._prophet])
        if seat in self._been_prophet:
            return BeenProphet(player)
        others = sum(1 for s in range(len(self.players)) if s != seat and s not in self._expelled)
        if others < 2:
            return TooFewForProphet(player, others)
        return None

    def state(self) -> RoundState:
        return RoundState(
            players=self.players,
            hands=tuple(self._hands),
            stock=self._stock,
            layout=self.layout,
            whose_turn=self.whose_turn,
            prophet=self.prophet,
            marker=self._marker_main if self._prophet is not None else None,
            been_prophet=tuple(self.players[s] for s in self._been_prophet),
            expelled=self.expelled,
            ended=self._ended,
            emptied=None if self._emptied is None else self.players[self._emptied],
            turns=tuple(self._turns),
        )

    def result(self) -> RoundResult:
        """G2-G4, for an ended round or as if the round ended now."""
        office = None
        if self._prophet is not None:
            main_after = len(self._main) - self._marker_main
            office = ProphetInOffice(
                self.players[self._prophet], main_after,
                len(self._laid) - self._marker_table - main_after, self._marker_table)
        emptied = None if self._emptied is None else self.players[self._emptied]
        scores, dealer = score_round(self.hands(), emptied, office)
        return RoundResult(self.start.rule, self._ended, self.hands(), scores, dealer, emptied,
                           self.prophet, self.expelled)

    # ----- actions ----------------------------------------------------------------------
    def attempt(self, player: str, cards: Sequence[Card], prophet_decision: ProphetDecision | None = None) -> TurnOutcome:
        """P1-P4: ``player`` offers ``cards`` in order."""
        return self.apply(Attempt(player, tuple(cards), prophet_decision))

    def no_play(self, player: str, hand: Sequence[Card], prophet_decision: ProphetDecision | None = None) -> TurnOutcome:
        """N1-N3: ``player`` declares "no play" and shows ``hand`` in this order."""
        return self.apply(NoPlay(player, tuple(hand), prophet_decision))

    def become_prophet(self, player: str) -> TurnOutcome:
        """F1, F2: ``player`` becomes prophet right after their own turn."""
        return self.apply(BecomeProphet(player))

    def apply(self, action: Action) -> TurnOutcome:
        """Fold one action into the state; it is logged only when it is allowed."""
        if isinstance(action, Attempt):
            outcome = self._attempt(action)
        elif isinstance(action, NoPlay):
            outcome = self._no_play(action)
        elif isinstance(action, BecomeProphet):
            outcome = self._become_prophet(action)
        else:
            raise RoundError(f"not an action: {action!r}")
        self._events.append(action)
        self._turns.append(outcome)
        return outcome

    # ----- the fold ---------------------------------------------------------------------
    def _seat_of(self, player: str) -> int:
        try:
            return self._seat[player]
        except KeyError:
            raise IllegalActionError(UnknownPlayer(player, self.players)) from None

    def _next_seat(self, after: int) -> int | None:
        n = len(self.players)
        for step in range(1, n + 1):
            seat = (after + step) % n
            if seat not in self._expelled and seat != self._prophet:
                return seat
        return None

    def _check_turn(self, player: str) -> int:
        seat = self._seat_of(player)
        if self._ended is not None:
            raise IllegalActionError(RoundEnded(self._ended.value, player))
        expected = self.whose_turn
        if seat == self._prophet:
            raise IllegalActionError(ProphetPlays(player, expected))
        if seat in self._expelled:
            raise IllegalActionError(ExpelledPlays(player, expected))
        if player != expected:
            raise IllegalActionError(OutOfTurn(player, expected))
        return seat

    def _check_decision(self, decision: ProphetDecision | None, *, noplay: bool, shown: tuple[Card, ...]) -> None:
        if self._prophet is None:
            if decision is not None:
                raise IllegalActionError(NoProphet())
            return
        prophet = self.players[self._prophet]
        if decision is None:
            raise IllegalActionError(DecisionMissing(prophet))
        if decision.accept and decision.card is not None:
            raise IllegalActionError(AcceptTakesNoCard(decision.card))
        if not noplay and decision.card is not None:
            raise IllegalActionError(RejectTakesNoCard(decision.card))
        if noplay and not decision.accept:
            if decision.card is None:
                raise IllegalActionError(LegalCardUnnamed())
            if decision.card not in shown:
                raise IllegalActionError(CardNotShown(decision.card))

    def _check_copies(self, cards: tuple[Card, ...], showing: bool) -> None:
        """C1: the table and the cards shown now never hold more copies than the decks."""
        decks = self.start.decks
        counts = self._counts
        seen: dict[int, int] = {}
        for card in cards:
            kind = _kind(card)
            copies = seen.get(kind, counts[kind]) + 1
            if copies > decks:
                raise IllegalActionError(TooManyCopies(card, copies, decks, showing))
            seen[kind] = copies

    def _lay(self, card: Card, branch: int | None) -> None:
        self._laid.append(LaidCard(card, branch, (len(self._laid) + 1) % MARK_EVERY == 0))  # E1
        self._counts[_kind(card)] += 1

    def _draw(self, wanted: int) -> int:
        """Draw from the stock; a short stock ends the round (G1) after the turn."""
        got = min(wanted, self._stock)
        self._stock -= got
        if got < wanted:
            self._short = True
        return got

    def _chain_legal(self, cards: tuple[Card, ...]) -> bool:
        """P2: the first card after the line's end, each next after the one before it."""
        if len(cards) == 1:
            return self.rule.legal(self._main, cards[0])
        line = list(self._main)
        for card in cards:
            if not self.rule.legal(line, card):
                return False
            line.append(card)
        return True

    def _depose(self) -> tuple[str, int]:
        """F4: the marker goes, the prophet draws 5 and returns to the turn order."""
        assert self._prophet is not None
        seat = self._prophet
        got = self._draw(PROPHET_PENALTY)
        self._hands[seat] += got
        self._prophet = None
        return self.players[seat], got

    def _finish_turn(self, seat: int, emptied_end: bool) -> EndReason | None:
        self._last_seat = seat
        self._just_played = seat
        end: EndReason | None = None
        if emptied_end:
            end = EndReason.EMPTIED
        elif self._short:
            end = EndReason.STOCK
        elif self._next_seat(seat) is None:
            end = EndReason.EXPELLED  # G1: every player but a possible prophet is expelled
        self._ended = end
        return end

    def _attempt(self, action: Attempt) -> TurnOutcome:
        seat = self._check_turn(action.player)
        cards = action.cards
        if not cards:
            raise IllegalActionError(NoCardPlayed(action.player))
        if len(cards) > self._hands[seat]:
            raise IllegalActionError(TooManyCards(action.player, len(cards), self._hands[seat]))
        self._check_copies(cards, showing=False)
        self._check_decision(action.prophet, noplay=False, shown=cards)
        expulsion_on = self.expulsion_on  # E2: checked before the turn
        legal = self._chain_legal(cards)
        overthrown = action.prophet is not None and action.prophet.accept != legal  # F4
        self._hands[seat] -= len(cards)
        if legal:
            self._main.extend(cards)  # P3
            for card in cards:
                self._lay(card, None)
        else:
            self._branches.append(Branch(len(self._main) - 1, cards, action.player))  # P4, P5
            for card in cards:
                self._lay(card, len(self._branches) - 1)
        emptied = self._hands[seat] == 0
        penalty, expelled = 0, False
        if legal and emptied:
            self._emptied = seat  # G1, G2
        elif not legal and not overthrown:  # F5 lets the exposer go
            penalty = self._draw(ATTEMPT_PENALTY_PER_CARD * len(cards))  # P4
            self._hands[seat] += penalty
            if expulsion_on:
                self._expelled.add(seat)  # E3
                expelled = True
        prophet, prophet_penalty = self._depose() if overthrown else (None, 0)
        emptied = self._hands[seat] == 0
        end = self._finish_turn(seat, emptied_end=emptied and (legal or overthrown))
        return TurnOutcome(
            len(self._events), action.player, Verdict.ACCEPTED if legal else Verdict.REJECTED, cards,
            penalty=penalty, expelled=expelled, expulsion_on=expulsion_on, overthrown=overthrown,
            prophet=prophet, prophet_penalty=prophet_penalty, emptied=emptied,
            legally_emptied=legal and emptied, ended=end)

    def _no_play(self, action: NoPlay) -> TurnOutcome:
        seat = self._check_turn(action.player)
        hand = action.hand
        if len(hand) != self._hands[seat]:
            raise IllegalActionError(WrongHandShown(action.player, len(hand), self._hands[seat]))
        self._check_copies(hand, showing=True)
        decision = action.prophet
        self._check_decision(decision, noplay=True, shown=hand)
        expulsion_on = self.expulsion_on  # E2
        first_legal = next((c for c in hand if self.rule.legal(self._main, c)), None)
        right = first_legal is None
        overthrown = False
        if decision is not None:
            if decision.accept:
                prophet_right = right
            else:
                assert decision.card is not None
                prophet_right = not right and self.rule.legal(self._main, decision.card)
            overthrown = not prophet_right
        penalty = new_hand = 0
        expelled = emptied_end = legally = False
        card: Card | None = None
        if right:  # N2
            size = self._hands[seat]
            self._stock += size  # the hand goes to the bottom of the stock
            self._hands[seat] = 0
            if size <= NOPLAY_SHRINK:
                self._emptied = seat  # N2 [decided]: a legal emptying
                emptied_end = legally = True
            else:
                new_hand = self._draw(size - NOPLAY_SHRINK)
                self._hands[seat] = new_hand
        else:  # N3, F6
            card = decision.card if decision is not None and not overthrown else first_legal
            assert card is not None
            self._main.append(card)
            self._lay(card, None)
            self._hands[seat] -= 1
            if overthrown:
                emptied_end = self._hands[seat] == 0  # F5: nothing to draw, nothing left
            else:
                penalty = self._draw(NOPLAY_PENALTY)
                self._hands[seat] += penalty
                if expulsion_on:
                    self._expelled.add(seat)  # E3
                    expelled = True
        prophet, prophet_penalty = self._depose() if overthrown else (None, 0)  # F4 after N2's draw
        end = self._finish_turn(seat, emptied_end)
        return TurnOutcome(
            len(self._events), action.player, Verdict.NOPLAY_RIGHT if right else Verdict.NOPLAY_WRONG, hand,
            penalty=penalty, new_hand=new_hand, expelled=expelled, expulsion_on=expulsion_on,
            overthrown=overthrown, prophet=prophet, prophet_penalty=prophet_penalty, card=card,
            emptied=self._hands[seat] == 0, legally_emptied=legally, ended=end)

    def _become_prophet(self, action: BecomeProphet) -> TurnOutcome:
        seat = self._seat_of(action.player)
        refusal = self.prophet_refusal(action.player)
        if refusal is not None:
            raise IllegalActionError(refusal)
        self._prophet = seat  # F2: the hand is set aside, kept for scoring
        self._been_prophet.append(seat)
        self._marker_main = len(self._main)
        self._marker_table = len(self._laid)
        self._just_played = None
        return TurnOutcome(len(self._events), action.player, Verdict.PROPHET)
