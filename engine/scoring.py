"""Scores at the end of a round (docs/rules.md G2-G4).

>>> scores, dealer = score_round({'Ana': 0, 'Bo': 5, 'Cy': 12}, emptied='Ana')
>>> scores  # the worked example: H=12, a hand of 5 scores 7, the emptier 12+4=16
{'Ana': 16, 'Bo': 7, 'Cy': 0}
>>> dealer
16
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.events import EndReason, VariantEnd

__all__ = ["EMPTY_BONUS", "ProphetInOffice", "RoundResult", "score_round"]

EMPTY_BONUS = 4  # G2


@dataclass(frozen=True, slots=True)
class ProphetInOffice:
    """A prophet still in office at the end (G3, G4).

    ``main_after_marker`` and ``branch_after_marker``: cards laid after the marker on the
    main line (a card the dealer adds for a wrong "no play" included) and in side branches.
    ``table_at_appointment``: all table cards when this prophet was appointed (G4).
    """

    player: str
    main_after_marker: int
    branch_after_marker: int
    table_at_appointment: int

    @property
    def bonus(self) -> int:
        """G3: 1 per main-line card and 2 per side-branch card laid after the marker."""
        return self.main_after_marker + 2 * self.branch_after_marker


@dataclass(frozen=True, slots=True)
class RoundResult:
    """The outcome of a round, or of a round that goes on, scored as if it ended now (G2-G4)."""

    rule: str
    ended: EndReason | VariantEnd | None
    hands: dict[str, int]
    scores: dict[str, int]
    dealer: int
    emptied: str | None  # who emptied the hand legally (G2 bonus)
    prophet: str | None  # in office at the end (G3 bonus)
    expelled: tuple[str, ...]


def score_round(
    hands: Mapping[str, int],
    emptied: str | None = None,
    prophet: ProphetInOffice | None = None,
) -> tuple[dict[str, int], int]:
    """Each player's score and the dealer's (G2-G4).

    ``hands``: every player's hand size, the expelled and the prophet included (G2).
    ``emptied``: the player who emptied the hand legally (G1, N2), if any.
    """
    if not hands:
        raise ValueError("no players to score")
    largest = max(hands.values())  # G2: H
    scores = {name: largest - size for name, size in hands.items()}
    if emptied is not None:
        scores[emptied] += EMPTY_BONUS  # G2
    if prophet is not None:
        scores[prophet.player] += prophet.bonus  # G3
    best = max(scores.values())
    if prophet is None:
        dealer = best  # G4
    else:
        dealer = min(best, 2 * prophet.table_at_appointment)  # G4
    return scores, dealer
