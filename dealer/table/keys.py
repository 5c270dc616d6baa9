"""The keyboard fallback: every table action by a key, for a token that got lost or a
camera that cannot see one (docs/playing-at-the-table.md).

A key is an observation of the table like the token it stands for (:func:`key_of`): the turn
machine (dealer/table/turn.py) takes it and lays its token with the next frame's, so the
protocol sees one thing:

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

u and q act on the round (:class:`Command`), not on the table.

Keys come from the terminal (a letter then Enter), read without blocking the camera, and
from the window of the view of the table (a letter), when it is shown. There, a card's name
comes a key at a time: a key that may begin one (a, q, j, k, t, 1-9) waits up to
``NAME_WAIT_S`` for a suit letter (:class:`WindowSpeller`), so that "QS" typed there names
the queen of spades instead of ending the round.
"""

from __future__ import annotations

import enum
import select
import sys
import time
from collections.abc import Callable
from typing import TextIO

from dealer.speech.i18n import N_
from dealer.table.turn_input import CardNamed, Key, KeyPressed
from dealer.table.turn_state import NamedCard
from engine.cards import Card, CardParseError

__all__ = ["KEY_HELP", "NAME_WAIT_S", "Command", "NamedCard", "WindowSpeller", "card_named", "key_of", "stdin_keys"]

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


class Command(enum.Enum):
    """A key that acts on the round rather than on the table."""

    UNDO = "u"  # take back the last verdict (a misread card); the player plays again
    QUIT = "q"  # end the round here (scored as it stands)


_TABLE_KEYS = {key.value: key for key in Key}


def key_of(text: str, t: float) -> KeyPressed | CardNamed | Command | None:
    """What a line typed by the players (a key, or a card's name) stands for at time ``t``:
    a token or an act at the table for the turn machine, a :class:`Command` for the round,
    or None (nothing, or a key that means nothing).

    >>> key_of("n", 2.0), key_of("3", 2.0)
    (KeyPressed(key=<Key.NO_PLAY: 'n'>, t=2.0, card_index=None), KeyPressed(key=<Key.REJECT: 'r'>, t=2.0, card_index=2))
    >>> key_of("QS", 2.0), key_of("u", 2.0), key_of("x", 2.0)
    (CardNamed(card=Card.parse('QS'), t=2.0), <Command.UNDO: 'u'>, None)
    """
    card = card_named(text)
    if card is not None:
        return CardNamed(card, t)
    key = text.strip().lower()[:1]
    if key in _TABLE_KEYS:
        return KeyPressed(_TABLE_KEYS[key], t)
    if key.isdigit() and key != "0":  # REJECT, naming the card counted from the left (F6)
        return KeyPressed(Key.REJECT, t, int(key) - 1)
    if key in ("u", "q"):
        return Command(key)
    return None


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
    """Keys pressed one at a time (the view's window) to lines for :func:`key_of`: a
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
