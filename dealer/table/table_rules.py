"""What the live dealer does differently in each variant, as data the table machinery consults.

The turn machine (dealer/table/turn.py) and the session (dealer/table/session.py) never ask
which variant is dealt: they ask a :class:`TableRules` what the table may do (chains, "no
play", the PROPHET token) and where a wrong card goes. The engine's round of the variant
(engine/variants/) still judges every action; these rules only let the dealer say at once,
in the players' words, what the game does not have, and tell the players where to put the
cards after a verdict.

>>> TableRules.of("abbott-1959").wrong_card
<WrongCard.IN_FRONT: 'in front'>
>>> TableRules.of("express").chains, TableRules.of("express").no_play, TableRules.of("express").prophet
(False, False, False)
>>> TableRules.of("howell") == TableRules()
True
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.variants.spec import DEFAULT_VARIANT, spec_for

__all__ = ["ERROR_CARDS_IN_FRONT", "LIVE_VARIANTS", "TableRules", "WrongCard"]

# The variants the live dealer deals from a camera or a video; kruskal's oracle and its
# tokens are read by another path.
LIVE_VARIANTS = ("howell", "wikipedia", "express", "abbott-1959")
# AB5: the variants whose wrong cards stay face up with their player (error cards).
ERROR_CARDS_IN_FRONT = frozenset({"abbott-1959"})


class WrongCard(enum.Enum):
    """Where a rejected card goes once judged."""

    SIDE_LINE = "side line"  # below the end of the line, and the player draws (P4, EX6)
    IN_FRONT = "in front"  # face up in front of its player, no draw: an error card (AB5)


@dataclass(frozen=True, slots=True)
class TableRules:
    """The table's side of a variant: ``chains`` (P1: several cards a turn), ``no_play``
    (N1: the NO PLAY token), ``prophet`` (F1: the PROPHET token), ``wrong_card``."""

    variant: str = DEFAULT_VARIANT
    chains: bool = True
    no_play: bool = True
    prophet: bool = True
    wrong_card: WrongCard = WrongCard.SIDE_LINE

    @classmethod
    def of(cls, variant: str) -> TableRules:
        """The rules of ``variant`` (a ValueError names the known ones); kruskal is refused:
        nobody lays cards in it, the oracle turns them."""
        spec = spec_for(variant)
        if spec.oracle:
            raise ValueError(f"{variant}: the oracle turns the cards; the live dealer deals "
                             f"{', '.join(LIVE_VARIANTS)}")
        return cls(variant, spec.chains, spec.no_play, spec.prophet,
                   WrongCard.IN_FRONT if variant in ERROR_CARDS_IN_FRONT else WrongCard.SIDE_LINE)
