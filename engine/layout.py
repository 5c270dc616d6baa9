"""The table as the dealer sees it: the main line, the side branches, the 10-card marks.

P4: a rejected attempt becomes one side branch at the old end of the line, kept whole.
P5: every branch, its order and the grouping of each chain stay visible.
E1: main line and branches are counted together, starters included; every 10th is marked.

>>> layout = Layout(main=parse_cards('7H 4C 9H'), branches=(Branch(0, parse_cards('QD'), 'Ana'),))
>>> layout.table_count, layout.end
(4, Card.parse('9H'))
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card, parse_cards  # noqa: F401 (doctest)

__all__ = ["MARK_EVERY", "Branch", "LaidCard", "Layout"]

MARK_EVERY = 10  # E1


@dataclass(frozen=True, slots=True)
class Branch:
    """One rejected attempt (P4), hanging below main-line card ``anchor`` (0-based).

    ``anchor`` is the index of the line's end when the attempt was made; -1 would mean an
    empty line, which never happens once the starters are laid (C4).
    """

    anchor: int
    cards: tuple[Card, ...]
    player: str


@dataclass(frozen=True, slots=True)
class LaidCard:
    """One table card in the order it was laid (E1): on the main line or in branch ``branch``."""

    card: Card
    branch: int | None  # None: the main line; else the index in Layout.branches
    marked: bool  # E1: every 10th card laid


@dataclass(frozen=True, slots=True)
class Layout:
    """A snapshot of the table, for a layout check against what the camera sees."""

    main: tuple[Card, ...]
    branches: tuple[Branch, ...] = ()
    laid: tuple[LaidCard, ...] = ()

    @property
    def table_count(self) -> int:
        """Main line and every branch together, starters included (E1)."""
        return len(self.main) + sum(len(b.cards) for b in self.branches)

    @property
    def end(self) -> Card:
        """The end of the main line: what the next attempt is judged against (P2)."""
        return self.main[-1]

    @property
    def marked(self) -> tuple[LaidCard, ...]:
        """The 10th, 20th, ... cards laid (E1)."""
        return tuple(c for c in self.laid if c.marked)

    def describe(self) -> str:
        """The main line with each branch under its anchor, one line each.

        >>> print(Layout(parse_cards('7H 4C'), (Branch(0, parse_cards('QD 2H'), 'Ana'),)).describe())
        main: 7H 4C
          after 7H: [QD 2H] (Ana)
        """
        lines = ["main: " + " ".join(str(c) for c in self.main)]
        for branch in self.branches:
            where = str(self.main[branch.anchor]) if branch.anchor >= 0 else "the start"
            cards = " ".join(str(c) for c in branch.cards)
            lines.append(f"  after {where}: [{cards}] ({branch.player})")
        return "\n".join(lines)
