"""The variants that play Howell's round with a few rules changed (docs/rules-variants.md).

``wikipedia`` (WK) is Howell's round with the article's markers: expulsion starts after the
fourth marker, white (every 10th table card) or, while a prophet is in office, black
(every 10th card after the prophet's marker; black takes priority). ``express`` (EX) is
Golden's simplification: one card a turn, no "no play", no prophet, no expulsion.
Everything else (deal, penalties, N2/N3, F1-F7, scores G2-G4) is Howell's, unchanged.
"""

from __future__ import annotations

from engine.errors import IllegalActionError, NotInVariant, Refusal, RoundEnded
from engine.events import Attempt, NoPlay, TurnOutcome
from engine.layout import MARK_EVERY
from engine.round import Round

__all__ = ["EXPULSION_MARKERS", "ExpressRound", "WikipediaRound", "black_markers", "white_markers"]

EXPULSION_MARKERS = 4  # WK4


def white_markers(table_count: int) -> int:
    """WK3: one white marker on every 10th card laid on the table."""
    return table_count // MARK_EVERY


def black_markers(cards_after_marker: int) -> int:
    """WK3: one black marker on every 10th card laid after the prophet's marker."""
    return cards_after_marker // MARK_EVERY


class WikipediaRound(Round):
    """Howell's round with WK3-WK4's expulsion."""

    @property
    def markers(self) -> tuple[int, int]:
        """WK3: the white markers on the table now, and the black ones (while a prophet is in
        office; a deposed prophet's are taken off, WK5)."""
        black = 0 if self._prophet is None else black_markers(len(self._laid) - self._marker_table)
        return white_markers(len(self._laid)), black

    @property
    def expulsion_on(self) -> bool:
        """WK4, checked before the turn like E2: the fourth marker is down. While a prophet
        is in office only black markers count (WK3: black takes priority); a deposed
        prophet's black markers are removed, and the white ones count again (WK5)."""
        if self._prophet is None:
            return white_markers(len(self._laid)) >= EXPULSION_MARKERS
        return black_markers(len(self._laid) - self._marker_table) >= EXPULSION_MARKERS


class ExpressRound(Round):
    """Howell's round as Golden simplified it (EX2-EX5)."""

    @property
    def expulsion_on(self) -> bool:
        return False  # EX5: nobody is expelled

    def prophet_refusal(self, player: str) -> Refusal | None:
        if self.ended is not None:
            return RoundEnded(self.ended.value)
        return NotInVariant("express", "prophet", "EX4")

    def _attempt(self, action: Attempt) -> TurnOutcome:
        if len(action.cards) > 1:
            raise IllegalActionError(
                f"{action.player} plays {len(action.cards)} cards; in express a turn is one card (EX2)")
        return super()._attempt(action)

    def _no_play(self, action: NoPlay) -> TurnOutcome:
        raise IllegalActionError(f"{action.player} declares no play; express has no 'no play' (EX3)")
