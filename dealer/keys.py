"""The keyboard fallback: every table action by a key, for a token that got lost or a
camera that cannot see one (docs/playing-at-the-table.md).

Keys act as virtual tokens laid on the table, so the turn protocol sees one thing:

====  =====================================================================
n     NO PLAY token in the play zone (press again to take it back)
p     PROPHET token out (the player who just played takes office, F1)
a     ACCEPT token in the play zone (the prophet's decision, F3)
r     REJECT token in the play zone; for a "no play", 1-9 instead names the
      1st-9th card from the left as the legal one (F6)
j     judge now: the play zone counts as settled
u     undo: take back the last verdict (a misread card); the player plays again
q     end the round here (scored as it stands)
====  =====================================================================

Key sources: a preview window (``cv2.waitKey``) or the terminal (a letter then Enter).
"""

from __future__ import annotations

import select
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from dealer.table_protocol import TableView, Token

__all__ = ["KEY_HELP", "KeyState", "stdin_keys"]

KEY_HELP = ("keys: n no play, p prophet, a accept, r reject (1-9 names a card for a no play), "
            "j judge now, u undo the last verdict, q end the round")


@dataclass
class KeyState:
    """Virtual tokens set by keys; ``apply`` lays them on a view."""

    no_play: bool = False
    prophet: bool = False
    decision: Token | None = None
    named_card: int | None = None  # 0-based from the left, for a rejected no play
    judge_now: bool = False
    undo: bool = False
    quit: bool = False
    log: list[str] = field(default_factory=list)

    def press(self, key: str) -> None:
        key = key.strip().lower()[:1]
        if not key:
            return
        self.log.append(key)
        if key == "n":
            self.no_play = not self.no_play
        elif key == "p":
            self.prophet = not self.prophet
        elif key == "a":
            self.decision, self.named_card = Token.ACCEPT, None
        elif key == "r":
            self.decision, self.named_card = Token.REJECT, None
        elif key.isdigit() and key != "0":
            self.decision, self.named_card = Token.REJECT, int(key) - 1
        elif key == "j":
            self.judge_now = True
        elif key == "u":
            self.undo = True
        elif key == "q":
            self.quit = True

    def after_verdict(self) -> None:
        """A decision and a NO PLAY belong to one turn; the PROPHET token stays out."""
        self.no_play = False
        self.decision = None
        self.named_card = None
        self.judge_now = False

    def apply(self, view: TableView) -> TableView:
        tokens = dict(view.tokens_in_play)
        cards = sorted(view.play_cards, key=lambda c: c.x_mm)
        if self.no_play:
            tokens.setdefault(Token.NO_PLAY, (0.0, 0.0))
        if self.decision is not None:
            where = (0.0, 0.0)
            if self.named_card is not None and self.named_card < len(cards):
                chosen = cards[self.named_card]
                where = (chosen.x_mm, chosen.y_mm)
            tokens[self.decision] = where
        if tokens == view.tokens_in_play and not self.prophet:
            return view
        return replace(view, tokens_in_play=tokens, prophet_token_out=view.prophet_token_out or self.prophet)


def stdin_keys(stream=sys.stdin) -> Callable[[], str]:  # type: ignore[no-untyped-def]
    """Keys typed in the terminal (a letter and Enter), read without blocking the camera."""

    def poll() -> str:
        try:
            ready, _, _ = select.select([stream], [], [], 0)
        except (ValueError, OSError):  # not a real terminal (tests, pipes that closed)
            return ""
        return stream.readline() if ready else ""

    return poll
