"""What the variants' own round machines share: the start check and the table's cards."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from engine.cards import DECK_SIZE, Card
from engine.deal import check_players
from engine.errors import IllegalActionError, RoundSetupError
from engine.events import RoundStarted
from engine.layout import MARK_EVERY, LaidCard
from engine.rules.base import Rule

__all__ = ["check_copies", "check_starters", "laid_main"]


def check_starters(rule: Rule, start: RoundStarted, hands: int) -> None:
    """C2 (players), C4 (starters the rule accepts, as many as it needs), C1/C3 (the shoe
    holds the hands and the starters): the checks Howell's deal makes, for any hand size."""
    check_players(start.players)
    if start.decks < 1:
        raise RoundSetupError(f"decks: {start.decks}: a shoe needs at least 1 deck (C1)", "decks")
    need = rule.starter_count
    if len(start.starters) != need:
        raise RoundSetupError(f"{len(start.starters)} starter cards, but the rule needs {need} (C4)", "start")
    line: list[Card] = []
    for card in start.starters:
        if not rule.legal(line, card):
            where = "first card" if not line else f"card {len(line) + 1}"
            raise RoundSetupError(f"the rule does not accept {card} as the {where} of the line (C4)", "start")
        line.append(card)
    check_copies(start.decks, (), start.starters, "starting with")
    total = start.decks * DECK_SIZE
    if hands * len(start.players) + len(start.starters) > total:
        raise RoundSetupError(
            f"{len(start.players)} hands of {hands} and the starters need more than {total} cards (C1)", "hand")


def check_copies(decks: int, seen: Iterable[Card], cards: Iterable[Card], what: str) -> None:
    """C1: the cards in sight never hold more copies of a card than the decks have."""
    counts = Counter(seen)
    for card in cards:
        counts[card] += 1
        if counts[card] > decks:
            error = RoundSetupError if what == "starting with" else IllegalActionError
            raise error(f"{what} {card}: {counts[card]} copies in sight, but {decks} deck(s) hold {decks} (C1)")


def laid_main(cards: Iterable[Card], branch: int | None, before: int) -> list[LaidCard]:
    """Table cards laid after ``before`` others, every 10th marked (E1)."""
    return [LaidCard(card, branch, (before + i + 1) % MARK_EVERY == 0) for i, card in enumerate(cards)]
