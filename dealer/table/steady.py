"""The one clock of the table: how long something has held.

Every "has this held long enough?" at the table asks a :class:`Steady`: the turn's picture
of the play zone (dealer/table/turn.py, "settled"), the line zones after a verdict
(dealer/table/layout_watch.py), the camera's view of the table lost or busy
(dealer/table/sight.py). It is a value: a new one is made when what is seen changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

__all__ = ["Steady"]

What = TypeVar("What")


@dataclass(frozen=True, slots=True)
class Steady(Generic[What]):
    """``what`` has held since ``since`` (seconds): the one answer to "has this held long
    enough?" at the table. A new ``what`` (or a hand over it) starts it again.

    >>> clock = Steady(1.0, "7H")
    >>> clock.seeing("7H", 2.0) is clock, clock.seeing("8H", 2.0)
    (True, Steady(since=2.0, what='8H'))
    >>> clock.held(1.3, 0.3), clock.held(1.2, 0.3)
    (True, False)
    """

    since: float
    what: What

    def seeing(self, what: What, t: float) -> Steady[What]:
        """The clock at ``t``, when ``what`` is seen: kept while it is the same, else restarted."""
        return self if what == self.what else Steady(t, what)

    def held(self, t: float, for_s: float) -> bool:
        """``what`` has held ``for_s`` seconds at ``t``."""
        return t - self.since >= for_s
