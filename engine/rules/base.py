"""The contract every secret rule meets (R1), whatever language it was written in.

The round (engine/round) only ever talks to a rule through this protocol.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from engine.cards import Card


@runtime_checkable
class Rule(Protocol):
    """A fixed rule deciding whether ``card`` may continue the main ``line`` (R1).

    ``line`` is the main line so far, oldest first (starter cards included, side
    branches never). ``legal((), card)`` decides the first card of the line (C4).
    ``starter_count`` is how many cards the line needs before the starter is complete
    (1 for most rules; more for a rule that fixes a starting sequence, C4).
    """

    @property
    def text(self) -> str: ...

    @property
    def starter_count(self) -> int: ...

    def legal(self, line: Sequence[Card], card: Card) -> bool: ...
