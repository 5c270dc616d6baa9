"""Kruskal's variant of 1965 (seed 003; docs/rules-variants.md KR1-KR8).

Nobody holds cards: the oracle turns the cards of one deck one by one. Before each verdict
every player shows a token, "main line" (True) or "side line" (False); the card goes where
the rule sends it, and every token that said so scores a point.

>>> from engine.rules import resolve_rule
>>> from engine.cards import Card, parse_cards
>>> rnd = KruskalRound.new(resolve_rule('alternate-colour'), ['A', 'B', 'C'], parse_cards('7H'))
>>> rnd.apply(OracleTurn(Card.parse('QC'), (('A', True), ('B', False), ('C', True)))).verdict.value
'accepted'
>>> rnd.result().scores
{'A': 1, 'B': 0, 'C': 1}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from engine.cards import DECK_SIZE, Card
from engine.errors import (
    IllegalActionError,
    NotInVariant,
    RoundEnded,
    RoundSetupError,
    TokensMissing,
    TooManyCopies,
    UnknownPlayer,
)
from engine.events import (
    EndReason,
    OracleTurn,
    RecordAction,
    RecordEvent,
    RoundStarted,
    TurnOutcome,
    VariantEnd,
    Verdict,
)
from engine.layout import Branch, LaidCard, Layout
from engine.rules.base import Rule
from engine.scoring import RoundResult
from engine.variants.common import check_starters, laid_main

__all__ = ["ORACLE", "KruskalRound", "oracle_score"]

ORACLE = "oracle"  # the record's name for the one who turns the cards (KR3)


def oracle_score(scores: Mapping[str, int]) -> int:
    """KR8 [decided]: the best player's points minus the worst's: a rule that one player
    finds and another does not, the spirit of Abbott's dealer score (AB7)."""
    return max(scores.values()) - min(scores.values())


class KruskalRound:
    """The state of one kruskal round, folded from its log."""

    def __init__(self, rule: Rule, start: RoundStarted) -> None:
        check_starters(rule, start, 0)
        if ORACLE in start.players:
            raise RoundSetupError(f"{ORACLE!r} is the record's name for the oracle, not a player's (KR3)", "players")
        self.rule = rule
        self.start = start
        self.players = start.players
        self._main: list[Card] = list(start.starters)
        self._branches: list[Branch] = []
        self._laid: list[LaidCard] = laid_main(start.starters, None, 0)
        self._seen = Counter(start.starters)  # C1: what the table holds, kept as cards are turned
        self._points = dict.fromkeys(start.players, 0)
        self._hits: list[tuple[str, ...]] = []
        self._ended: EndReason | VariantEnd | None = None
        self._turns: list[TurnOutcome] = []
        self._events: list[RecordEvent] = [start]

    @classmethod
    def new(cls, rule: Rule, players: Sequence[str], starters: Sequence[Card], *, decks: int = 1,
            rule_text: str | None = None) -> KruskalRound:
        return cls(rule, RoundStarted(tuple(players), rule_text or rule.text, tuple(starters), 0, decks, "kruskal"))

    @property
    def events(self) -> tuple[RecordEvent, ...]:
        return tuple(self._events)

    @property
    def turns(self) -> tuple[TurnOutcome, ...]:
        return tuple(self._turns)

    @property
    def hits(self) -> tuple[tuple[str, ...], ...]:
        """For each turned card, the players whose token was right (KR5)."""
        return tuple(self._hits)

    @property
    def ended(self) -> EndReason | VariantEnd | None:
        return self._ended

    @property
    def line(self) -> tuple[Card, ...]:
        return tuple(self._main)

    @property
    def layout(self) -> Layout:
        return Layout(tuple(self._main), tuple(self._branches), tuple(self._laid))

    @property
    def table_count(self) -> int:
        return len(self._laid)

    @property
    def stock(self) -> int:
        """The cards the oracle has still to turn (KR7)."""
        return self.start.decks * DECK_SIZE - len(self._laid)

    @property
    def prophet(self) -> str | None:
        return None

    @property
    def expelled(self) -> tuple[str, ...]:
        return ()

    @property
    def whose_turn(self) -> str | None:
        return None if self._ended is not None else ORACLE

    def hands(self) -> dict[str, int]:
        return dict.fromkeys(self.players, 0)

    def result(self) -> RoundResult:
        scores = dict(self._points)  # KR5
        return RoundResult(self.start.rule, self._ended, self.hands(), scores, oracle_score(scores), None, None, ())

    def apply(self, action: RecordAction) -> TurnOutcome:
        if not isinstance(action, OracleTurn):  # KR3: only the oracle acts, turning cards
            raise IllegalActionError(NotInVariant("kruskal", "play by a player", "KR3"))
        if self._ended is not None:  # KR7: no card is left to turn
            raise IllegalActionError(RoundEnded(self._ended.value))
        names = [name for name, _ in action.tokens]
        for name in names:
            if name not in self._points:
                raise IllegalActionError(UnknownPlayer(name, tuple(self.players)))
        if len(set(names)) != len(names) or set(names) != set(self.players):
            raise IllegalActionError(TokensMissing(tuple(p for p in self.players if p not in names),
                                                   tuple(sorted({n for n in names if names.count(n) > 1}))))
        copies = self._seen[action.card] + 1
        if copies > self.start.decks:  # C1, KR1
            raise IllegalActionError(TooManyCopies(action.card, copies, self.start.decks))
        legal = self.rule.legal(self._main, action.card)
        if legal:
            self._main.append(action.card)
            branch = None
        else:
            self._branches.append(Branch(len(self._main) - 1, (action.card,), ORACLE))
            branch = len(self._branches) - 1
        self._laid.extend(laid_main((action.card,), branch, len(self._laid)))
        hits = tuple(name for name, says_main in action.tokens if says_main == legal)
        for name in hits:
            self._points[name] += 1  # KR5
        self._hits.append(hits)
        self._seen[action.card] += 1
        if self.stock == 0:
            self._ended = VariantEnd.DECK  # KR7
        outcome = TurnOutcome(len(self._events), ORACLE, Verdict.ACCEPTED if legal else Verdict.REJECTED,
                              (action.card,), ended=self._ended if isinstance(self._ended, EndReason) else None)
        self._events.append(action)
        self._turns.append(outcome)
        return outcome
