"""Typed events of a round and the records the round hands back (docs/rules.md P, N, F, E, G).

The event log is the truth of a round: a :class:`RoundStarted` followed by actions
(:class:`Attempt`, :class:`NoPlay`, :class:`BecomeProphet`). Everything else (hands,
stock, layout, verdicts, scores) is computed by folding the log (engine/round.py).

>>> Attempt('Ana', parse_cards('4C 9H'))
Attempt(player='Ana', cards=(Card.parse('4C'), Card.parse('9H')), prophet=None)
>>> ProphetDecision.reject(Card.parse('5H'))
ProphetDecision(accept=False, card=Card.parse('5H'))
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.cards import DEFAULT_DECKS, Card, parse_cards  # noqa: F401 (doctest)

__all__ = [
    "DEFAULT_HAND",
    "Action",
    "Attempt",
    "BecomeProphet",
    "EndReason",
    "Event",
    "NoPlay",
    "OracleTurn",
    "ProphetDecision",
    "RecordAction",
    "RecordEvent",
    "RoundStarted",
    "TurnOutcome",
    "VariantEnd",
    "Verdict",
]

DEFAULT_HAND = 14  # C3


class Verdict(enum.Enum):
    """What one line of a round came to."""

    ACCEPTED = "accepted"  # P3
    REJECTED = "rejected"  # P4
    NOPLAY_RIGHT = "noplay-right"  # N2
    NOPLAY_WRONG = "noplay-wrong"  # N3
    PROPHET = "prophet"  # F1, F2


class EndReason(enum.Enum):
    """Why a round ended (G1)."""

    EMPTIED = "emptied"  # a hand was emptied (legally: G2 bonus; or let go by F5)
    EXPELLED = "expelled"  # every player but a possible prophet is expelled (E3)
    STOCK = "stock"  # the stock could not cover a draw that was due


class VariantEnd(enum.Enum):
    """Ends only a variant's round has (docs/rules-variants.md); Howell's are :class:`EndReason`."""

    BLOCKED = "blocked"  # abbott-1959: no error card left can be shed (AB10)
    DECK = "deck"  # kruskal: the oracle has turned the whole deck (KR7)


@dataclass(frozen=True, slots=True)
class ProphetDecision:
    """The prophet's call on an attempt or a "no play" (F3).

    For an attempt: ``accept`` or ``reject`` (no card). For a "no play": ``accept`` agrees
    no card is legal; ``reject(card)`` names ``card`` of the shown hand as legal (F6).
    """

    accept: bool
    card: Card | None = None

    @classmethod
    def agree(cls) -> ProphetDecision:
        return cls(True, None)

    @classmethod
    def reject(cls, card: Card | None = None) -> ProphetDecision:
        return cls(False, card)


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """Setup: seats from the dealer's left (C5), the rule as written, the starters (C4)."""

    players: tuple[str, ...]
    rule: str
    starters: tuple[Card, ...]
    hand_size: int = DEFAULT_HAND
    decks: int = DEFAULT_DECKS
    variant: str = "howell"  # docs/rules-variants.md; a record without the header is Howell


@dataclass(frozen=True, slots=True)
class Attempt:
    """A player offers one card or an ordered chain (P1)."""

    player: str
    cards: tuple[Card, ...]
    prophet: ProphetDecision | None = None


@dataclass(frozen=True, slots=True)
class NoPlay:
    """A player declares "no play" and shows the whole hand, in the order shown (N1)."""

    player: str
    hand: tuple[Card, ...]
    prophet: ProphetDecision | None = None


@dataclass(frozen=True, slots=True)
class BecomeProphet:
    """A player becomes prophet right after their own turn (F1, F2)."""

    player: str


@dataclass(frozen=True, slots=True)
class OracleTurn:
    """kruskal (KR3, KR4): the oracle turns ``card``; each player's token says where they
    think it goes: True for the main line, False for a side line."""

    card: Card
    tokens: tuple[tuple[str, bool], ...]

    @property
    def player(self) -> str:
        """Who acts: the oracle, by the name a record gives it (KR3); every action has a player."""
        return "oracle"


Action = Attempt | NoPlay | BecomeProphet  # what a player does in Howell's round
RecordAction = Action | OracleTurn  # any line of a record, a variant's included
Event = RoundStarted | Attempt | NoPlay | BecomeProphet  # a Howell round's log
RecordEvent = RoundStarted | RecordAction  # any round's log, a variant's included


@dataclass(frozen=True, slots=True)
class TurnOutcome:
    """What the dealer did with one action: the verdict and its consequences.

    ``penalty``: penalty cards the player of the turn actually drew (P4 2 per card, N3 5);
    never the prophet's own 5, which are ``prophet_penalty``. ``new_hand``: cards drawn for
    a right "no play" (N2). ``card``: the card added to the main line for a wrong "no play"
    (N3, F6). ``overthrown``: this turn exposed the prophet (F4), who is then ``prophet``.
    ``emptied``: the player's hand is empty after the turn; ``legally_emptied`` earns G2's 4.
    """

    index: int
    player: str
    verdict: Verdict
    cards: tuple[Card, ...] = ()
    penalty: int = 0
    new_hand: int = 0
    expelled: bool = False
    expulsion_on: bool = False
    overthrown: bool = False
    prophet: str | None = None
    prophet_penalty: int = 0
    card: Card | None = None
    emptied: bool = False
    legally_emptied: bool = False
    ended: EndReason | None = None  # a variant's own end (VariantEnd) is the round's, not the turn's
