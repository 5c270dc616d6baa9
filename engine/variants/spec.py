"""The variants as data (docs/rules-variants.md): the shoe, the hands, what a turn may be.

Pure data, so the record format (engine/record.py) can read a ``variant:`` header's
defaults without importing any round machine. The machines are in the sibling modules.

>>> VARIANT_SPECS['wikipedia'].decks_for(6), VARIANT_SPECS['wikipedia'].decks_for(8)
(2, 3)
>>> VARIANT_SPECS['abbott-1959'].hand_for(8)  # seed 003: eight players, 97 cards, 12 each
12
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from engine.cards import DECK_SIZE

__all__ = ["DEFAULT_VARIANT", "VARIANT_NAMES", "VARIANT_SPECS", "VariantSpec", "spec_for"]

DEFAULT_VARIANT = "howell"


@dataclass(frozen=True, slots=True)
class VariantSpec:
    """What a variant deals and allows, as data.

    ``decks_for``/``hand_for``: the shoe and the hand for a number of players (the record's
    ``decks:``/``hand:`` default to these). ``chains``: an attempt may hold several cards;
    ``no_play``, ``prophet``: those actions exist; ``oracle``: nobody holds cards, the
    dealer turns them (kruskal). ``compensation``: points to every person who never dealt
    when a game stops before everyone has dealt.
    """

    name: str
    title: str
    decks_for: Callable[[int], int]
    hand_for: Callable[[int], int]
    chains: bool = True
    no_play: bool = True
    prophet: bool = True
    oracle: bool = False
    compensation: int = 0


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _abbott_decks(players: int) -> int:
    return 1 if players <= 4 else 2  # AB1 [decided]


def _abbott_hand(players: int) -> int:
    return (_abbott_decks(players) * DECK_SIZE - 1) // players  # AB1: all but the starter, evenly


VARIANT_SPECS: Mapping[str, VariantSpec] = MappingProxyType({
    "howell": VariantSpec("howell", "Howell's New Eleusis (RULES.md)", lambda p: 3, lambda p: 14),
    # WK1 [decided]: two decks as the article says; a third once 7 hands of 14 would
    # leave almost no stock.
    "wikipedia": VariantSpec("wikipedia", "the Russian Wikipedia article (seed 002)",
                             lambda p: 2 if p <= 6 else 3, lambda p: 14, compensation=10),
    # EX1 [decided]: hands of 12; the fewest decks that leave a stock of 12 or more.
    "express": VariantSpec("express", "John Golden's Eleusis Express (2006)",
                           lambda p: _ceil_div(12 * p + 13, DECK_SIZE), lambda p: 12,
                           chains=False, no_play=False, prophet=False),
    "abbott-1959": VariantSpec("abbott-1959", "Abbott's game of 1959 (seed 003)", _abbott_decks, _abbott_hand,
                               chains=False, no_play=False, prophet=False),
    "kruskal": VariantSpec("kruskal", "Kruskal's variant of 1965 (seed 003)", lambda p: 1, lambda p: 0,
                           chains=False, no_play=False, prophet=False, oracle=True),
})
VARIANT_NAMES = tuple(VARIANT_SPECS)


def spec_for(name: str) -> VariantSpec:
    """The variant called ``name``; a ValueError names the known ones."""
    try:
        return VARIANT_SPECS[name]
    except KeyError:
        raise ValueError(f"{name!r} is not a variant; known: {', '.join(VARIANT_NAMES)}") from None
