"""Before the first turn: the seats (C2), the starters (C4), the first player (C5).

>>> from engine.cards import parse_cards
>>> first_seat(4, parse_cards('7H')[0])
2
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable

from engine.cards import DECK_SIZE, Card, parse_cards  # noqa: F401 (doctest)
from engine.errors import RoundSetupError
from engine.events import RoundStarted
from engine.rules.base import Rule

__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "check_players", "check_start", "deal_starters", "first_seat"]

MIN_PLAYERS, MAX_PLAYERS = 3, 8  # C2
_BAD_NAME_CHARS = set(":#|")


def first_seat(player_count: int, last_starter: Card) -> int:
    """C5: count the players from the dealer's left (seat 0) as many as the starter's rank.

    >>> first_seat(4, Card.parse('7H')), first_seat(4, Card.parse('AS')), first_seat(3, Card.parse('KD'))
    (2, 0, 0)
    """
    return (last_starter.rank - 1) % player_count


def deal_starters(rule: Rule, stock: Iterable[Card]) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """C4: lay the starters from the top of ``stock``; a card the rule does not accept goes
    back to the bottom unseen. A starting sequence of several cards that no card can
    continue goes back to the bottom as well, and the dealing starts again. Returns the
    starters and the stock left, top first.

    >>> class Red:
    ...     text, starter_count = 'red only', 1
    ...     def legal(self, line, card): return card.is_red
    >>> deal_starters(Red(), parse_cards('2C 3S 4H 5D'))
    ((Card.parse('4H'),), (Card.parse('5D'), Card.parse('2C'), Card.parse('3S')))
    """
    queue = deque(stock)
    line: list[Card] = []
    misses = restarts = 0
    while len(line) < rule.starter_count:
        if misses >= len(queue):  # a whole turn of the stock and no card fits
            if not line or restarts > len(queue) + len(line):
                raise RoundSetupError("no card of the stock can start the line of this rule (C4)", "start")
            queue.extend(line)  # an incomplete starting sequence goes back to the bottom too
            line.clear()
            misses, restarts = 0, restarts + 1
            continue
        card = queue.popleft()
        if rule.legal(line, card):
            line.append(card)
            misses = 0
        else:
            queue.append(card)
            misses += 1
    return tuple(line), tuple(queue)


def check_players(names: tuple[str, ...]) -> None:
    """C2: 3 to 8 players, each named once by one word that fits the record format.

    >>> check_players(('Ana', 'Bo'))
    Traceback (most recent call last):
    ...
    engine.errors.RoundSetupError: 2 players: a round needs 3 to 8 (C2)
    """
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise RoundSetupError(f"{len(names)} players: a round needs {MIN_PLAYERS} to {MAX_PLAYERS} (C2)", "players")
    for name in names:
        if not name or any(ch.isspace() or ch in _BAD_NAME_CHARS for ch in name):
            raise RoundSetupError(f"{name!r} is not a player name (one word, no ':', '#' or '|')", "players")
    if len(set(names)) != len(names):
        twice = sorted(n for n, k in Counter(names).items() if k > 1)
        raise RoundSetupError(f"the player {twice[0]!r} sits twice", "players")


def check_start(rule: Rule, start: RoundStarted) -> None:
    """Refuse a round that cannot start: C1, C2, C3, C4; names fit the record format."""
    check_players(start.players)
    if start.decks < 1:
        raise RoundSetupError(f"decks: {start.decks}: a shoe needs at least 1 deck (C1)", "decks")
    if start.hand_size < 1:
        raise RoundSetupError(f"hand: {start.hand_size}: a hand needs at least 1 card (C3)", "hand")
    need = rule.starter_count
    if len(start.starters) > need:
        raise RoundSetupError(
            f"{len(start.starters)} starter cards, but the rule needs {need} (C4): "
            + " ".join(str(c) for c in start.starters), "start")
    if len(start.starters) < need:
        raise RoundSetupError(f"the rule needs {need} starter cards, got {len(start.starters)} (C4)", "start")
    over = {c: k for c, k in Counter(start.starters).items() if k > start.decks}
    if over:
        card = min(over)
        raise RoundSetupError(f"{over[card]} copies of {card} among the starters, {start.decks} decks hold {start.decks} (C1)", "start")
    line: list[Card] = []
    for card in start.starters:
        if not rule.legal(line, card):
            where = "first card" if not line else f"card {len(line) + 1}"
            raise RoundSetupError(f"the rule does not accept {card} as the {where} of the line (C4)", "start")
        line.append(card)
    total = start.decks * DECK_SIZE
    if start.hand_size * len(start.players) + len(start.starters) > total:
        raise RoundSetupError(
            f"{len(start.players)} hands of {start.hand_size} and the starters need more than {total} cards (C1, C3)", "hand")
