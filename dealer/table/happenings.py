"""What the dealer session says happened: typed records, out to the voice, the view and the
recording (dealer/app/outlets.py).

:class:`~dealer.table.session.DealerSession` turns table views into these; it never speaks or
writes by itself. Every happening has the time ``t`` of the view it came from (seconds),
and ``text``: what the dealer says aloud ("" for nothing). A happening that settles
something (a verdict, a starter, a trouble, a request to lay again, a verdict taken back)
has ``decisive`` True: the frame it came from is worth keeping for the review.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.cards import Card
from engine.events import Attempt, BecomeProphet, NoPlay, OracleTurn, RoundStarted, TurnOutcome

__all__ = [
    "AskedToLayAgain",
    "Happening",
    "Judged",
    "RuleDisclosed",
    "SealShown",
    "Spoken",
    "StarterDecided",
    "TroubleReported",
    "VerdictTakenBack",
]


@dataclass(frozen=True, slots=True)
class Spoken:
    """A sentence for the players that decides nothing (whose turn, how many cards seen)."""

    decisive: ClassVar[bool] = False
    t: float
    text: str


@dataclass(frozen=True, slots=True)
class SealShown:
    """The rule is sealed (R2): its commitment, said and recorded before the first card."""

    decisive: ClassVar[bool] = False
    t: float
    commitment: str
    text: str


@dataclass(frozen=True, slots=True)
class StarterDecided:
    """A starter turned over (C4): taken onto the main line, or back to the stock."""

    decisive: ClassVar[bool] = True
    t: float
    frame: int | None
    card: Card
    taken: bool
    text: str
    deal: RoundStarted | None = None  # the last starter: the round begins with this setup (C4, C5)


@dataclass(frozen=True, slots=True)
class Judged:
    """A turn judged by the round engine: the action as read and the engine's outcome
    (in kruskal, the oracle's card with the players' tokens, KR3)."""

    decisive: ClassVar[bool] = True
    t: float
    frame: int | None
    action: Attempt | NoPlay | BecomeProphet | OracleTurn
    outcome: TurnOutcome
    text: str


@dataclass(frozen=True, slots=True)
class AskedToLayAgain:
    """Something lies in the play zone that cannot be read: the player is asked to lay it
    again, and nothing is judged until it can be read."""

    decisive: ClassVar[bool] = True
    t: float
    frame: int | None
    text: str


@dataclass(frozen=True, slots=True)
class TroubleReported:
    """Something the table must fix: a refused action, a misplaced card, a token out of turn."""

    decisive: ClassVar[bool] = True
    t: float
    frame: int | None
    text: str


@dataclass(frozen=True, slots=True)
class VerdictTakenBack:
    """The last verdict taken back (key u): the round is replayed without turn ``turn``."""

    decisive: ClassVar[bool] = True
    t: float
    turn: int
    reason: str
    text: str


@dataclass(frozen=True, slots=True)
class RuleDisclosed:
    """The end of the round: the rule and the nonce that open the seal (R2, G6)."""

    decisive: ClassVar[bool] = False
    t: float
    rule: str
    nonce: str
    text: str


Happening = (Spoken | SealShown | StarterDecided | Judged | AskedToLayAgain | TroubleReported
             | VerdictTakenBack | RuleDisclosed)
