"""The pre-flight check that ends setting up: lay a few cards in the play
zone, and the dealer says whether it finds and reads them, or what to change.

It watches frames exactly as ``eleusis play`` does (dealer.table.observer.TableObserver with the
real reader) until the play zone has held the same cards, with no hand over it, for
``SETTLE_FRAMES`` frames; then it reports what it read. Given the cards that were laid
(``--cards "7H QS 2C"``), it checks each one was found and read as that card.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from calibration.layout import CHAIN_MAX, TableLayout
from dealer.speech.narrate import card_words
from dealer.table.observer import ZoneReader, TableObserver
from dealer.table.protocol import SeenCard
from engine.cards import Card

__all__ = ["SETTLE_FRAMES", "Preflight", "parse_laid", "preflight"]

SETTLE_FRAMES = 3  # the same cards, no hand, this many frames in a row: what a turn waits for too
LAY_PROMPT = (f"Pre-flight: lay 2 or 3 cards face up in the play zone (at most {CHAIN_MAX}), a finger apart, "
              "and take your hand away.")


@dataclass
class Preflight:
    """What the pre-flight saw: the cards read on the settled picture (left to right)."""

    frames_seen: int = 0
    settled: bool = False
    seen: tuple[SeenCard, ...] = ()
    unexplained: bool = False  # something lies in the zone that no card found there explains
    expected: tuple[Card, ...] | None = None
    advice: list[str] = field(default_factory=list)

    @property
    def read(self) -> tuple[Card, ...]:
        return tuple(c.card for c in self.seen if c.card is not None)

    @property
    def unread(self) -> int:
        return sum(1 for c in self.seen if c.card is None)

    @property
    def done(self) -> bool:
        """Cards were laid and looked at (False: nothing lay in the zone to check)."""
        return bool(self.seen) or self.unexplained

    @property
    def missing(self) -> tuple[Card, ...]:
        if self.expected is None:
            return ()
        left = list(self.read)
        out = []
        for card in self.expected:
            if card in left:
                left.remove(card)
            else:
                out.append(card)
        return tuple(out)

    @property
    def ok(self) -> bool:
        if not self.done or self.unread or self.unexplained:
            return False
        return self.expected is None or (not self.missing and len(self.read) == len(self.expected))

    def report_lines(self) -> list[str]:
        if not self.done:
            return [f"Pre-flight not done: no card lay still in the play zone in {self.frames_seen} frame(s). "
                    "Lay 2 or 3 cards there and run the check again to hear whether the dealer reads them."]
        names = ", ".join(card_words(c) if c is not None else "an unreadable card" for c in
                          (s.card for s in self.seen)) or "no card"
        lines = [f"Pre-flight: in the play zone I find {len(self.seen)} card(s): {names}."]
        if self.ok:
            lines.append("The dealer finds and reads the cards you laid: ready to play." if self.expected
                         else "If those are the cards you laid, the dealer is ready to play.")
        else:
            lines.append("The dealer does NOT find and read every card yet:")
        return lines + [f"- {a}" for a in self.advice]


def parse_laid(text: str) -> tuple[Card, ...]:
    """``"7H QS 2C"`` -> the cards laid for the pre-flight (ValueError names a bad card)."""
    cards = tuple(Card.parse(word) for word in text.replace(",", " ").split())
    if not cards:
        raise ValueError("--cards needs the cards you laid, e.g. --cards '7H QS 2C'")
    return cards


def _advise(result: Preflight) -> list[str]:
    advice: list[str] = []
    if result.unread:
        advice.append(f"{result.unread} card(s) found but not read: lay them flat and face up, out of any glare; "
                      "if it stays so, bring the camera closer or add light (see the zone report above).")
    if result.unexplained:
        advice.append("Something in the play zone is not found as a card: lay the cards flat, a finger apart, "
                      "wholly inside the green zone, and take away anything else.")
    for card in result.missing:
        advice.append(f"I do not find {card_words(card)}: check it lies wholly inside the play zone, apart from the "
                      "others; if it does, the light or the resolution is too poor there (see the zone report).")
    if result.expected is not None and len(result.read) > len(result.expected) - len(result.missing):
        extra = len(result.read) - (len(result.expected) - len(result.missing))
        advice.append(f"{extra} card(s) read that you did not name: one was misread, or lies in the zone unnamed.")
    if not result.settled and result.done:
        advice.append("The cards never lay still without a hand over them: take your hand away and keep still.")
    return advice


def preflight(frames: Iterable[npt.NDArray[np.uint8]], layout: TableLayout, reader: ZoneReader,
              expected: Sequence[Card] | None = None, fps: float = 10.0, settle: int = SETTLE_FRAMES) -> Preflight:
    """Watch ``frames`` until the play zone holds the same cards for ``settle`` frames; report."""
    observer = TableObserver(layout, reader)
    result = Preflight(expected=None if expected is None else tuple(expected))
    last: tuple[str | None, ...] = ()
    run = 0
    best: tuple[SeenCard, ...] = ()
    for index, frame in enumerate(frames):
        result.frames_seen += 1
        view = observer.observe(frame, index / fps, index).view
        if view is None:
            continue
        seen = tuple(sorted(view.play_cards, key=lambda c: c.x_mm))
        key = tuple(None if c.card is None else str(c.card) for c in seen)
        still = bool(seen) and not view.hand_over_play
        run = run + 1 if still and key == last else (1 if still else 0)
        last = key
        if len(seen) > len(best):
            best = seen
        # something in the zone no card explains; a token lying there is not a card and is no fault
        odd = view.unexplained_in_play and not view.hand_over_play and not view.tokens_in_play
        result.unexplained = result.unexplained or odd
        if run >= settle:
            result.settled, result.seen = True, seen
            result.unexplained = odd
            break
    if not result.settled:
        result.seen = best
    result.advice = _advise(result)
    return result
