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
o     the layout is right as it lies: go on (after the dealer said a card is out of place, P5)
u     undo: take back the last verdict (a misread card); the player plays again
q     end the round here (scored as it stands)
8C    a card's name (8C, 10H, QS, 7♥; a line in the terminal, or key by key in the window): the leftmost card
      in the play zone that the camera found but cannot read is that card (so a
      deck the camera cannot read stalls no round). The dealer says it back in words, and
      the recording keeps it as named by the players, beside what the camera read.
====  =====================================================================

Keys come from the terminal (a letter then Enter), read without blocking the camera, and
from the window of the view of the table (a letter), when it is shown. There, a card's name
comes a key at a time: a key that may begin one (a, q, j, k, t, 1-9) waits up to
``NAME_WAIT_S`` for a suit letter (:class:`WindowSpeller`), so that "QS" typed there names
the queen of spades instead of ending the round.
"""

from __future__ import annotations

import select
import sys
import time
from collections.abc import Callable
from typing import TextIO
from dataclasses import dataclass, field, replace

from dealer.speech.i18n import N_, _, card_name
from dealer.table.protocol import TableView, TableToken, ordinal
from engine.cards import Card, CardParseError

__all__ = ["KEY_HELP", "NAME_WAIT_S", "KeyState", "NamedCard", "WindowSpeller", "card_named", "stdin_keys"]

KEY_HELP = N_("keys: n no play, p prophet, a accept, r reject (1-9 names a card for a no play), "
              "j judge now, o go on with the layout as it lies, u undo the last verdict, q end the round; "
              "a card's name (8C, 10H, QS) names the card I cannot read")


# Seconds a key that may begin a card's name waits in the window for the rest of it.
NAME_WAIT_S = 1.0
_NAME_STARTS = frozenset("A23456789TJQK1")
_SUITS = frozenset("CDHS")


def card_named(text: str) -> Card | None:
    """The card a line typed by the players names (``8C``, ``10h``, ``QS``, ``7♥``), or
    None when the line is a key or nothing. One letter is always a key (``a`` accepts)."""
    text = text.strip()
    if len(text) < 2:
        return None
    try:
        return Card.parse(text)
    except CardParseError:
        return None


@dataclass(frozen=True, slots=True)
class NamedCard:
    """A card the players named for a card the camera found but could not read, where it lay
    (table millimetres)."""

    card: Card
    x_mm: float
    y_mm: float


@dataclass
class KeyState:
    """Virtual tokens set by keys; ``apply`` lays them on a view."""

    no_play: bool = False
    prophet: bool = False
    decision: TableToken | None = None
    named_card: int | None = None  # 0-based from the left, for a rejected no play
    judge_now: bool = False
    layout_as_is: bool = False
    undo: bool = False
    quit: bool = False
    naming: Card | None = None  # typed, not yet given to a card the camera cannot read
    named: list[NamedCard] = field(default_factory=list)  # given, this turn (for the recording)
    said: list[str] = field(default_factory=list)  # what the dealer answers to the keys, not yet said
    log: list[str] = field(default_factory=list)

    def press(self, key: str) -> None:
        card = card_named(key)
        if card is not None:
            self.log.append(str(card))
            self.naming = card
            return
        key = key.strip().lower()[:1]
        if not key:
            return
        self.log.append(key)
        if key == "n":
            self.no_play = not self.no_play
        elif key == "p":
            self.prophet = not self.prophet
        elif key == "a":
            self.decision, self.named_card = TableToken.ACCEPT, None
        elif key == "r":
            self.decision, self.named_card = TableToken.REJECT, None
        elif key.isdigit() and key != "0":
            self.decision, self.named_card = TableToken.REJECT, int(key) - 1
        elif key == "j":
            self.judge_now = True
        elif key == "o":
            self.layout_as_is = True
        elif key == "u":
            self.undo = True
        elif key == "q":
            self.quit = True

    def take_undo(self) -> bool:
        """True once after u was pressed: the last verdict is to be taken back."""
        undo, self.undo = self.undo, False
        return undo

    def take_said(self) -> list[str]:
        """The dealer's answers to the keys since last asked, to be said aloud."""
        said, self.said = self.said, []
        return said

    def after_verdict(self) -> None:
        """A decision and a NO PLAY belong to one turn; the PROPHET token stays out."""
        self.no_play = False
        self.decision = None
        self.named_card = None
        self.judge_now = False
        self.naming = None
        self.named = []

    def _name_unread(self, view: TableView) -> TableView:
        """The typed name given to the leftmost card the camera found but cannot read, said
        back in words; with no such card it is said that nothing needs a name. Never while a
        hand is over the zone: the card it was typed for may be on its way."""
        card, cards = self.naming, sorted(view.play_cards, key=lambda c: c.x_mm)
        if card is None or view.hand_over_play:
            return view
        self.naming = None
        unread = [i for i, seen in enumerate(cards) if seen.card is None]
        if not unread:
            self.said.append(_("I can read every card in the play zone: {card} names none of them.",
                               card=card_name(card)))
            return view
        place = cards[unread[0]]
        self.named.append(NamedCard(card, place.x_mm, place.y_mm))
        self.said.append(_("The {where} card in the play zone is {card}, as you named it.",
                           where=ordinal(unread[0] + 1), card=card_name(card)))
        named = replace(place, card=card)
        return replace(view, play_cards=tuple(named if seen is place else seen for seen in view.play_cards))

    def apply(self, view: TableView) -> TableView:
        """The view with the keys' virtual tokens laid on it, and a card the players named
        for one the camera cannot read; "judge now" and "go on" count once."""
        view = self._name_unread(view)
        tokens = dict(view.tokens_in_play)
        cards = sorted(view.play_cards, key=lambda c: c.x_mm)
        if self.no_play:
            tokens.setdefault(TableToken.NO_PLAY, (0.0, 0.0))
        if self.decision is not None:
            where = (0.0, 0.0)
            if self.named_card is not None and self.named_card < len(cards):
                chosen = cards[self.named_card]
                where = (chosen.x_mm, chosen.y_mm)
            tokens[self.decision] = where
        judge_now, layout_as_is = self.judge_now, self.layout_as_is
        self.judge_now = self.layout_as_is = False
        if tokens == view.tokens_in_play and not (self.prophet or judge_now or layout_as_is):
            return view
        return replace(view, tokens_in_play=tokens, prophet_token_out=view.prophet_token_out or self.prophet,
                       judge_now=view.judge_now or judge_now, layout_as_is=view.layout_as_is or layout_as_is)


def stdin_keys(stream: TextIO = sys.stdin) -> Callable[[], str]:
    """Keys typed in the terminal (a letter and Enter), read without blocking the camera."""

    def poll() -> str:
        try:
            ready, _, _ = select.select([stream], [], [], 0)
        except (ValueError, OSError):  # not a real terminal (tests, pipes that closed)
            return ""
        return stream.readline() if ready else ""

    return poll


class WindowSpeller:
    """Keys pressed one at a time (the view's window) to lines for :meth:`KeyState.press`: a
    rank then a suit within ``wait_s`` is a card's name ("QS", "10H"); a rank left alone
    that long, or followed by anything else, is the key it is ("q" ends the round)."""

    def __init__(self, wait_s: float = NAME_WAIT_S, clock: Callable[[], float] = time.monotonic) -> None:
        self.wait_s = wait_s
        self.clock = clock
        self._pending = ""
        self._since = 0.0
        self._out: list[str] = []

    def take(self, key: str = "") -> str:
        """Give the key just pressed ("" for none); returns the next line, or ""."""
        now = self.clock()
        if key:
            self._feed(key, now)
        elif self._pending and now - self._since >= self.wait_s:
            self._out.append(self._pending)
            self._pending = ""
        return self._out.pop(0) if self._out else ""

    def _feed(self, key: str, now: float) -> None:
        upper = key.upper()
        if self._pending:
            if upper in _SUITS and card_named(self._pending + key) is not None:
                self._out.append(self._pending + key)
                self._pending = ""
                return
            if self._pending == "1" and upper == "0":  # 10, its suit still to come
                self._pending = "10"
                return
            self._out.append(self._pending)  # the rank was a key after all
            self._pending = ""
        if upper in _NAME_STARTS:
            self._pending, self._since = key, now
        else:
            self._out.append(key)
