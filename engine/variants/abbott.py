"""Abbott's game of 1959 as Mendelev tells it (seed 003; docs/rules-variants.md AB1-AB11).

Each player plays one card a turn. A wrong card is an error card, laid face up in front of
its player (never on the table, no penalty draw). A player whose hand is empty sheds error
cards, one a turn. When every hand is empty the dealer is scored (AB7). The round ends
when a player has no card left at all (AB9) or when no error card left can be shed (AB10).
Error cards are public, so unlike Howell's hands the machine knows what each one is.

>>> from engine.rules import resolve_rule
>>> from engine.cards import parse_cards
>>> from engine.events import Attempt
>>> rnd = AbbottRound.new(resolve_rule('alternate-colour'), ['A', 'B', 'C'], parse_cards('7H'), hand_size=1)
>>> rnd.apply(Attempt('A', parse_cards('QD'))).verdict.value, rnd.errors['A']
('rejected', (Card.parse('QD'),))
>>> dealer_score({'A': 7, 'B': 4, 'C': 3, 'D': 8, 'E': 2, 'F': 10})  # seed 003's own sum
22
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.cards import DECK_SIZE, Card
from engine.errors import IllegalActionError, NotAnErrorCard, RoundSetupError
from engine.events import Attempt, EndReason, RecordAction, RecordEvent, RoundStarted, TurnOutcome, VariantEnd, Verdict
from engine.layout import LaidCard, Layout
from engine.rules.base import Rule
from engine.scoring import RoundResult
from engine.variants.common import check_copies, check_starters, laid_main
from engine.variants.spec import spec_for

__all__ = ["SHED_ALL_BONUS", "AbbottRound", "blocked_scores", "dealer_score", "shed_all_scores"]

SHED_ALL_BONUS = 6  # AB9


def dealer_score(errors: Mapping[str, int]) -> int:
    """AB7: the others' error cards minus the fewest error cards times the others' number.

    Summing the others and taking ``fewest * (players - 1)`` is the same as summing
    everyone's and taking ``fewest * players``.
    """
    fewest = min(errors.values())
    return sum(errors.values()) - fewest * len(errors)


def shed_all_scores(errors: Mapping[str, int], winner: str) -> dict[str, int]:
    """AB9: the player who shed everything scores 6 plus the error cards left in front of
    the others; nobody else scores."""
    scores = dict.fromkeys(errors, 0)
    scores[winner] = SHED_ALL_BONUS + sum(n for name, n in errors.items() if name != winner)
    return scores


def blocked_scores(errors: Mapping[str, int]) -> dict[str, int]:
    """AB10: when nothing can be shed, the player with the fewest error cards scores the
    others' error cards minus their own (no bonus). [decided] Tied players each score so."""
    fewest = min(errors.values())
    total = sum(errors.values())
    return {name: (total - 2 * n if n == fewest else 0) for name, n in errors.items()}


class AbbottRound:
    """The state of one abbott-1959 round, folded from its log like :class:`engine.round.Round`."""

    def __init__(self, rule: Rule, start: RoundStarted) -> None:
        check_starters(rule, start, start.hand_size)
        if start.hand_size < 1:
            raise RoundSetupError(f"hand: {start.hand_size}: a hand needs at least 1 card (AB1)", "hand")
        self.rule = rule
        self.start = start
        self.players = start.players
        self._hands = dict.fromkeys(start.players, start.hand_size)
        self._errors: dict[str, list[Card]] = {name: [] for name in start.players}
        self._main: list[Card] = list(start.starters)
        self._laid: list[LaidCard] = laid_main(start.starters, None, 0)
        self._seat = -1  # AB4: the player on the dealer's left starts
        self._ended: EndReason | VariantEnd | None = None
        self._winner: str | None = None
        self._first_scoring: dict[str, int] | None = None
        self._turns: list[TurnOutcome] = []
        self._events: list[RecordEvent] = [start]

    @classmethod
    def new(cls, rule: Rule, players: Sequence[str], starters: Sequence[Card], *, hand_size: int | None = None,
            decks: int | None = None, rule_text: str | None = None) -> AbbottRound:
        spec = spec_for("abbott-1959")
        players = tuple(players)
        decks = spec.decks_for(len(players)) if decks is None else decks
        hand = spec.hand_for(len(players)) if hand_size is None else hand_size
        return cls(rule, RoundStarted(players, rule_text or rule.text, tuple(starters), hand, decks, "abbott-1959"))

    # ----- what the dealer knows ------------------------------------------------------
    @property
    def events(self) -> tuple[RecordEvent, ...]:
        return tuple(self._events)

    @property
    def turns(self) -> tuple[TurnOutcome, ...]:
        return tuple(self._turns)

    @property
    def ended(self) -> EndReason | VariantEnd | None:
        return self._ended

    @property
    def line(self) -> tuple[Card, ...]:
        return tuple(self._main)

    @property
    def layout(self) -> Layout:
        return Layout(tuple(self._main), (), tuple(self._laid))

    @property
    def table_count(self) -> int:
        return len(self._main)

    @property
    def stock(self) -> int:
        """AB1: the cards set aside unseen so that the hands come out even."""
        return self.start.decks * DECK_SIZE - self.start.hand_size * len(self.players) - len(self.start.starters)

    @property
    def errors(self) -> dict[str, tuple[Card, ...]]:
        """AB5: each player's error cards, face up, in the order they were made."""
        return {name: tuple(cards) for name, cards in self._errors.items()}

    @property
    def first_scoring(self) -> dict[str, int] | None:
        """AB7: the error cards in front of each player when the last hand was emptied."""
        return None if self._first_scoring is None else dict(self._first_scoring)

    @property
    def prophet(self) -> str | None:
        return None  # AB3

    @property
    def expelled(self) -> tuple[str, ...]:
        return ()  # AB3

    @property
    def just_played(self) -> str | None:
        """The player of the last turn (None before the first)."""
        return None if self._seat < 0 else self.players[self._seat]

    @property
    def whose_turn(self) -> str | None:
        if self._ended is not None:
            return None
        return self.players[(self._seat + 1) % len(self.players)]

    def hands(self) -> dict[str, int]:
        return dict(self._hands)

    def hand_size(self, player: str) -> int:
        return self._hands[player]

    def sheddable(self) -> bool:
        """AB10: some error card in front of some player may follow the line's end now."""
        return any(self.rule.legal(self._main, card) for cards in self._errors.values() for card in cards)

    def result(self) -> RoundResult:
        """AB7, AB9, AB10; for a round that goes on, the dealer as if scored now."""
        errors = {name: len(cards) for name, cards in self._errors.items()}
        if self._ended is EndReason.EMPTIED:
            assert self._winner is not None
            scores = shed_all_scores(errors, self._winner)
        elif self._ended is VariantEnd.BLOCKED:
            scores = blocked_scores(errors)
        else:
            scores = dict.fromkeys(self.players, 0)
        dealer = dealer_score(self._first_scoring if self._first_scoring is not None else errors)
        left = {name: self._hands[name] + errors[name] for name in self.players}
        return RoundResult(self.start.rule, self._ended, left, scores, dealer, self._winner, None, ())

    # ----- actions ----------------------------------------------------------------------
    def apply(self, action: RecordAction) -> TurnOutcome:
        if not isinstance(action, Attempt):
            kind = type(action).__name__
            raise IllegalActionError(f"{getattr(action, 'player', '?')}: {kind}: abbott-1959 knows only 'play' of one "
                                     "card (AB3)")
        outcome = self._play(action)
        self._events.append(action)
        self._turns.append(outcome)
        return outcome

    def _play(self, action: Attempt) -> TurnOutcome:
        player = action.player
        if player not in self._hands:
            raise IllegalActionError(f"{player!r} is not a player of this round ({', '.join(self.players)})")
        if self._ended is not None:
            raise IllegalActionError(f"the round has ended ({self._ended.value}); {player} cannot act")
        if player != self.whose_turn:
            raise IllegalActionError(f"it is {self.whose_turn}'s turn, not {player}'s (AB4)")
        if action.prophet is not None:
            raise IllegalActionError("a prophet decision, but abbott-1959 has no prophet (AB3)")
        if len(action.cards) != 1:
            raise IllegalActionError(f"{player} plays {len(action.cards)} cards; a turn is one card (AB2)")
        card = action.cards[0]
        errors = self._errors[player]
        shedding = self._hands[player] == 0
        if shedding and card not in errors:
            raise IllegalActionError(NotAnErrorCard(player, card, tuple(errors)))
        if not shedding:
            in_sight = self._main + [c for cards in self._errors.values() for c in cards]
            check_copies(self.start.decks, in_sight, (card,), "playing")
        legal = self.rule.legal(self._main, card)
        if legal:
            self._main.append(card)
            self._laid.extend(laid_main((card,), None, len(self._laid)))
            if shedding:
                errors.remove(card)
        elif not shedding:
            errors.append(card)  # AB5: an error card, face up in front of the player
        # AB8 [decided]: a wrong shed card stays where it was, with no penalty
        if not shedding:
            self._hands[player] -= 1
        self._seat = self.players.index(player)
        if self._first_scoring is None and not any(self._hands.values()):
            self._first_scoring = {name: len(cards) for name, cards in self._errors.items()}  # AB7
        out = self._hands[player] == 0 and not errors
        if out:
            self._ended, self._winner = EndReason.EMPTIED, player  # AB9
        elif not any(self._hands.values()) and not self.sheddable():
            self._ended = VariantEnd.BLOCKED  # AB10
        howell_end = self._ended if isinstance(self._ended, EndReason) else None  # a turn carries Howell's ends
        return TurnOutcome(len(self._events), player, Verdict.ACCEPTED if legal else Verdict.REJECTED, (card,),
                           emptied=out, legally_emptied=out, ended=howell_end)
