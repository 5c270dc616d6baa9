"""A game: everyone deals once, the role passing to the left; scores add up (docs/rules.md G5).

In round ``i`` the deal is ``persons[i]``'s turn (the role passes to the left). Either that
person is God (the dealer: no hand, C2; takes the dealer's score, G4) or the machine is,
and then the person plays, seated last, and no person takes the dealer's score (G5).
Each round may choose: ``Game.add`` tells which from the round's seats.

>>> game = Game(['Ana', 'Bo', 'Cy', 'Dee'])
>>> game.seating(0)
('Ana', ('Bo', 'Cy', 'Dee'))
>>> Game(['Ana', 'Bo', 'Cy'], machine_deals=True).seating(0)
(None, ('Bo', 'Cy', 'Ana'))
>>> Game(['Ana', 'Bo', 'Cy', 'Dee'], machine_deals=True).seating(1, person_deals=True)
('Bo', ('Cy', 'Dee', 'Ana'))

A variant (docs/rules-variants.md) may pay a game that stops early: in ``wikipedia`` every
person who never dealt gets 10 points (WK10), in :meth:`Game.final_totals`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.deal import MAX_PLAYERS, MIN_PLAYERS
from engine.round import RoundResult
from engine.variants.spec import DEFAULT_VARIANT, spec_for

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

    ``machine_deals`` is who is God when a round does not say (``seating``'s
    ``person_deals``). ``rounds`` is how many rounds the game has: by default one per
    person, so everyone deals once (G5).
    """

    def __init__(self, persons: Sequence[str], machine_deals: bool = False, rounds: int | None = None,
                 variant: str = DEFAULT_VARIANT) -> None:
        try:
            self.variant = spec_for(variant).name
        except ValueError as exc:
            raise GameError(str(exc)) from None
        persons = tuple(persons)
        low, high = (MIN_PLAYERS, MAX_PLAYERS) if machine_deals else (MIN_PLAYERS + 1, MAX_PLAYERS + 1)
        if not low <= len(persons) <= high:
            who = "players" if machine_deals else "people (a dealer and 3 to 8 players)"
            raise GameError(f"{len(persons)} people: a game needs {low} to {high} {who} (C2)")
        if len(set(persons)) != len(persons):
            raise GameError(f"a person sits twice: {' '.join(persons)}")
        if rounds is not None and rounds < 1:
            raise GameError(f"a game of {rounds} rounds: it needs at least 1 (G5)")
        self.persons = persons
        self.machine_deals = machine_deals
        self.planned = len(persons) if rounds is None else rounds
        self._rounds: list[GameRound] = []

    @property
    def rounds(self) -> tuple[GameRound, ...]:
        return tuple(self._rounds)

    @property
    def complete(self) -> bool:
        """Every planned round is played: by default everyone has dealt once (G5)."""
        return len(self._rounds) >= self.planned

    def turn_to_deal(self, index: int) -> str:
        """Whose turn it is to deal in round ``index`` (from 0): the role passes to the left."""
        return self.persons[index % len(self.persons)]

    def seating(self, index: int, person_deals: bool | None = None) -> tuple[str | None, tuple[str, ...]]:
        """Round ``index``'s dealer (None: the machine) and seats from the dealer's left (C5).

        ``person_deals``: True when the person whose turn it is is God, False when the
        machine is; None takes the game's default.
        """
        if not 0 <= index < self.planned:
            raise GameError(f"round {index + 1}: this game has {self.planned} rounds (G5)")
        turn = index % len(self.persons)
        who = self.persons[turn]
        after = self.persons[turn + 1:] + self.persons[:turn]
        person = (not self.machine_deals) if person_deals is None else person_deals
        seats = after if person else after + (who,)
        if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
            god = f"with {who} as God" if person else "with the machine as God"
            raise GameError(f"round {index + 1} {god} has {len(seats)} players: a round needs "
                            f"{MIN_PLAYERS} to {MAX_PLAYERS} (C2)")
        return (who if person else None), seats

    def next_seating(self, person_deals: bool | None = None) -> tuple[str | None, tuple[str, ...]]:
        return self.seating(len(self._rounds), person_deals)

    def add(self, result: RoundResult) -> GameRound:
        """Add the next round's result. Its seats say who was God: the person whose turn
        it was (not seated) or the machine (that person seated last)."""
        if self.complete:
            raise GameError(f"the game is over: all {self.planned} rounds are played (G5)")
        index = len(self._rounds)
        seats = tuple(result.hands)
        options: list[tuple[str | None, tuple[str, ...]]] = []
        for person in (not self.machine_deals, self.machine_deals):
            try:
                options.append(self.seating(index, person))
            except GameError:
                continue
        for dealer, expected in options:
            if seats == expected:
                played = GameRound(dealer, result)
                self._rounds.append(played)
                return played
        wanted = " or ".join(" ".join(expected) for _, expected in options)
        raise GameError(f"round {index + 1} seats {wanted}, not {' '.join(seats)} (G5)")

    def totals(self) -> dict[str, int]:
        """Each person's sum over the rounds; a human dealer adds the dealer's score (G4, G5)."""
        totals = dict.fromkeys(self.persons, 0)
        for played in self._rounds:
            for name, score in played.result.scores.items():
                totals[name] += score
            if played.dealer is not None:
                totals[played.dealer] += played.result.dealer
        return totals

    def compensation(self) -> dict[str, int]:
        """What a game that stops now, before everyone has dealt, pays the variant's way:
        in ``wikipedia`` 10 points to every person who never dealt (WK10). Nothing once
        the game is complete, and nothing in a variant without compensation."""
        points = spec_for(self.variant).compensation
        if self.complete or not points:
            return {}
        dealt = {self.turn_to_deal(i) for i in range(len(self._rounds))}
        return {name: points for name in self.persons if name not in dealt}

    def final_totals(self) -> dict[str, int]:
        """The totals when the game stops now: :meth:`totals` plus :meth:`compensation`."""
        totals = self.totals()
        for name, points in self.compensation().items():
            totals[name] += points
        return totals

    def leaders(self, final: bool = False) -> tuple[str, ...]:
        """The highest total (with ``final``, as the game stops now); tied leaders share the win (G5)."""
        totals = self.final_totals() if final else self.totals()
        best = max(totals.values())
        return tuple(name for name, total in totals.items() if total == best)
