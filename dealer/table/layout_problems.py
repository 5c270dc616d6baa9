"""What the layout watch tells (P5, F2), as values with their parameters.

dealer/table/layout_watch.py finds them; dealer/speech/layout_words.py is the one place they
become sentences. A place is named the way players say it (a main-line card, and which of
its copies when the line holds more than one, C1), so that the words need nothing else.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.cards import Card

__all__ = [
    "AfterCard",
    "AtStart",
    "CardMissing",
    "Discrepancy",
    "ExtraCard",
    "GoingOnAsItLies",
    "LayoutNote",
    "LayoutRight",
    "LayoutWrong",
    "LeftInPlay",
    "LineCard",
    "Misplaced",
    "OutOfOrder",
    "OutOfOrderInBranch",
    "OutsideLayout",
    "Place",
    "Problem",
    "ProphetMarkerMissing",
    "ProphetMarkerMoved",
    "SeenInBranch",
    "SeenOnLine",
    "StillWrong",
    "UnderCard",
]


class Problem(enum.Enum):
    MISSING = "missing"
    EXTRA = "extra"
    WRONG_ZONE = "wrong zone"  # main line <-> side branch, or still in the play zone / off the layout
    WRONG_BRANCH = "wrong branch"  # in a side branch, but under another main-line card
    OUT_OF_ORDER = "out of order"  # in the right line or column, in the wrong place
    PROPHET_MARKER = "prophet marker"


# -- places on the record, the way players name them ------------------------------------
@dataclass(frozen=True, slots=True)
class LineCard:
    """A main-line card as players name it: ``copy`` says which of its copies on the line
    (1, 2, ... from the left) when the line holds more than one, else None."""

    card: Card
    copy: int | None = None


@dataclass(frozen=True, slots=True)
class AtStart:
    """At the start of the main line."""


@dataclass(frozen=True, slots=True)
class AfterCard:
    """On the main line, right after ``card``."""

    card: LineCard


@dataclass(frozen=True, slots=True)
class UnderCard:
    """In the side branch under the main-line card ``card`` (P4)."""

    card: LineCard


Place = AtStart | AfterCard | UnderCard


@dataclass(frozen=True, slots=True)
class SeenOnLine:
    """A misplaced card seen on the main line."""


@dataclass(frozen=True, slots=True)
class SeenInBranch:
    """A misplaced card seen among the side branches, under ``under`` (None: under a card the
    record does not place)."""

    under: LineCard | None


# -- what is wrong ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CardMissing:
    """``card`` is not seen on the table; it belongs at ``belongs``."""

    card: Card
    belongs: Place
    problem = Problem.MISSING


@dataclass(frozen=True, slots=True)
class ExtraCard:
    """``card`` lies on the main line (or among the side branches), where the record has none."""

    card: Card
    on_main_line: bool
    problem = Problem.EXTRA


@dataclass(frozen=True, slots=True)
class LeftInPlay:
    """``card`` is still in the play zone after its verdict (P3, P4)."""

    card: Card
    belongs: Place
    problem = Problem.WRONG_ZONE


@dataclass(frozen=True, slots=True)
class OutsideLayout:
    """``card`` lies off the main-line and side-branch zones."""

    card: Card
    belongs: Place
    problem = Problem.WRONG_ZONE


@dataclass(frozen=True, slots=True)
class OutOfOrder:
    """``card`` is on the main line, but not where the record has it."""

    card: Card
    belongs: Place
    problem = Problem.OUT_OF_ORDER


@dataclass(frozen=True, slots=True)
class OutOfOrderInBranch:
    """``card`` is in its side branch (under ``under``) but not in the order played."""

    card: Card
    under: LineCard
    problem = Problem.OUT_OF_ORDER


@dataclass(frozen=True, slots=True)
class Misplaced:
    """``card`` belongs at ``belongs`` and is seen at ``seen``: on the main line instead of a
    side branch, the other way round, or under another main-line card."""

    card: Card
    belongs: Place
    seen: SeenOnLine | SeenInBranch

    @property
    def problem(self) -> Problem:
        both_side = isinstance(self.belongs, UnderCard) and isinstance(self.seen, SeenInBranch)
        return Problem.WRONG_BRANCH if both_side else Problem.WRONG_ZONE


@dataclass(frozen=True, slots=True)
class ProphetMarkerMissing:
    """The PROPHET token is not seen; it belongs on the main line just after ``after`` (F2)."""

    after: LineCard
    card = None
    problem = Problem.PROPHET_MARKER
    trouble = True
    marker = True


@dataclass(frozen=True, slots=True)
class ProphetMarkerMoved:
    """The PROPHET token is seen away from its place just after ``after`` (F2)."""

    after: LineCard
    card = None
    problem = Problem.PROPHET_MARKER
    trouble = True
    marker = True


Discrepancy = (CardMissing | ExtraCard | LeftInPlay | OutsideLayout | OutOfOrder | OutOfOrderInBranch | Misplaced
               | ProphetMarkerMissing | ProphetMarkerMoved)


@dataclass(frozen=True, slots=True)
class LayoutWrong:
    """The cards of a verdict have reached the layout, and ``problems`` are out of place:
    the turn is held until they are moved, or the players go on as it lies (P5)."""

    problems: tuple[Discrepancy, ...]
    trouble = True
    marker = False


@dataclass(frozen=True, slots=True)
class StillWrong:
    """While the turn is held, the table changed and ``problems`` are (still) out of place."""

    problems: tuple[Discrepancy, ...]
    trouble = True
    marker = False


@dataclass(frozen=True, slots=True)
class LayoutRight:
    """The layout matches the record again: the turn goes on."""

    trouble = False
    marker = False


@dataclass(frozen=True, slots=True)
class GoingOnAsItLies:
    """The players go on with the layout as it lies (key o, or the ACCEPT token)."""

    trouble = True
    marker = False


# One thing the layout watch says. ``trouble``: something is (or was) out of place, as opposed
# to the layout being right again; ``marker``: where the PROPHET token belongs (said once: the
# turn's ProphetToken.reminded).
LayoutNote = LayoutWrong | StillWrong | LayoutRight | GoingOnAsItLies | ProphetMarkerMissing | ProphetMarkerMoved
