"""A game: everyone deals once, the role passing to the left; scores add up (RULES.md G5).

>>> game = Game(['Ana', 'Bo', 'Cy', 'Dee'])
>>> game.seating(0)
('Ana', ('Bo', 'Cy', 'Dee'))
>>> Game(['Ana', 'Bo', 'Cy'], machine_deals=True).seating(0)
(None, ('Bo', 'Cy', 'Ana'))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.deal import MAX_PLAYERS, MIN_PLAYERS
from engine.round import RoundResult

__all__ = ["Game", "GameError", "GameRound"]


class GameError(ValueError):
    """A game that cannot be set up, or a round that does not belong where it is added."""


@dataclass(frozen=True, slots=True)
class GameRound:
    """One round of a game: who dealt (None: the machine) and how it came out."""

    dealer: str | None
    result: RoundResult


class Game:
    """The rounds of a game and the running totals (G5).

    With a human dealer the dealer has no hand (C2) and takes the dealer's score (G4);
    when the machine deals, the person who would have dealt plays, seated last, and no
    person takes the dealer's score.
    """

    def __init__(self, persons: Sequence[str], machine_deals: bool = False) -> None:
        persons = tuple(persons)
        low, high = (MIN_PLAYERS, MAX_PLAYERS) if machine_deals else (MIN_PLAYERS + 1, MAX_PLAYERS + 1)
        if not low <= len(persons) <= high:
            who = "players" if machine_deals else "people (a dealer and 3 to 8 players)"
            raise GameError(f"{len(persons)} people: a game needs {low} to {high} {who} (C2)")
        if len(set(persons)) != len(persons):
            raise GameError(f"a person sits twice: {' '.join(persons)}")
        self.persons = persons
        self.machine_deals = machine_deals
        self._rounds: list[GameRound] = []

    @property
    def rounds(self) -> tuple[GameRound, ...]:
        return tuple(self._rounds)

    @property
    def complete(self) -> bool:
        """Everyone has dealt once (G5)."""
        return len(self._rounds) == len(self.persons)

    def seating(self, index: int) -> tuple[str | None, tuple[str, ...]]:
        """Round ``index``'s dealer (None: the machine) and seats from the dealer's left (C5)."""
        if not 0 <= index < len(self.persons):
            raise GameError(f"round {index + 1}: a game of {len(self.persons)} has {len(self.persons)} rounds (G5)")
        turn = self.persons[index]
        after = self.persons[index + 1:] + self.persons[:index]
        if self.machine_deals:
            return None, after + (turn,)
        return turn, after

    def next_seating(self) -> tuple[str | None, tuple[str, ...]]:
        return self.seating(len(self._rounds))

    def add(self, result: RoundResult) -> GameRound:
        """Add the next round's result; its players must be that round's seats."""
        if self.complete:
            raise GameError(f"the game is over: all {len(self.persons)} have dealt (G5)")
        dealer, seats = self.next_seating()
        if tuple(result.hands) != seats:
            raise GameError(
                f"round {len(self._rounds) + 1} seats {' '.join(seats)}, not {' '.join(result.hands)} (G5)")
        played = GameRound(dealer, result)
        self._rounds.append(played)
        return played

    def totals(self) -> dict[str, int]:
        """Each person's sum over the rounds; a human dealer adds the dealer's score (G4, G5)."""
        totals = dict.fromkeys(self.persons, 0)
        for played in self._rounds:
            for name, score in played.result.scores.items():
                totals[name] += score
            if played.dealer is not None:
                totals[played.dealer] += played.result.dealer
        return totals

    def leaders(self) -> tuple[str, ...]:
        """The highest total; tied leaders share the win (G5)."""
        totals = self.totals()
        best = max(totals.values())
        return tuple(name for name, total in totals.items() if total == best)
