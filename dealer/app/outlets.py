"""Where the dealer's happenings go: the voice, the recording, and anyone listening (a
view of the table). The one place a happening becomes recording lines.

>>> from dealer.speech.voice import FakeVoice
>>> from dealer.table.happenings import Spoken
>>> voice = FakeVoice()
>>> Outlets(voice).deliver([Spoken(0.0, "Ana, your turn.")])
>>> voice.said
['Ana, your turn.']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from dealer.table.happenings import (
    AskedToLayAgain,
    Happening,
    Judged,
    RuleDisclosed,
    SealShown,
    Spoken,
    StarterDecided,
    TroubleReported,
    VerdictTakenBack,
)
from dealer.record.recording import RecordingWriter, RuleRevealed, Said, Sealed, Started, Trouble, Undone, VerdictLine
from dealer.speech.voice import Voice
from engine.record import format_action

__all__ = ["Outlets", "recording_lines"]

RecordingLine = Sealed | Started | Said | VerdictLine | Trouble | Undone | RuleRevealed


def recording_lines(happening: Happening) -> list[RecordingLine]:
    """The recording's lines for one happening, in the order they are written."""
    h = happening
    said: list[RecordingLine] = [Said(t=h.t, text=h.text)] if h.text else []
    if isinstance(h, SealShown):
        return [Sealed(t=h.t, commitment=h.commitment), *said]
    if isinstance(h, Judged):
        outcome = h.outcome
        return [*said, VerdictLine(
            t=h.t, turn=outcome.index, player=outcome.player, action=format_action(h.action),
            verdict=outcome.verdict.value, penalty=outcome.penalty, expelled=outcome.expelled,
            overthrown=outcome.overthrown, card=str(outcome.card) if outcome.card else None, frame=h.frame)]
    if isinstance(h, (AskedToLayAgain, TroubleReported)):
        return [Trouble(t=h.t, text=h.text, frame=h.frame)]
    if isinstance(h, VerdictTakenBack):
        return [Undone(t=h.t, turn=h.turn, reason=h.reason), *said]
    if isinstance(h, RuleDisclosed):  # logged before it is said: deleting the reveal breaks the chain
        return [RuleRevealed(t=h.t, rule=h.rule, nonce=h.nonce), *said]
    if isinstance(h, StarterDecided) and h.deal is not None:  # the setup the review rebuilds the record from
        d = h.deal
        return [*said, Started(t=h.t, players=list(d.players), starters=[str(c) for c in d.starters],
                               hand=d.hand_size, decks=d.decks)]
    assert isinstance(h, (Spoken, StarterDecided))
    return said


class Outlets:
    """Says each happening's text, writes its recording lines, and hands it to listeners."""

    def __init__(self, voice: Voice, recorder: RecordingWriter | None = None,
                 listeners: Iterable[Callable[[Happening], None]] = ()) -> None:
        self.voice = voice
        self.recorder = recorder
        self.listeners = list(listeners)

    def deliver(self, happenings: Iterable[Happening]) -> None:
        for happening in happenings:
            if happening.text:
                self.voice.say(happening.text)
            if self.recorder is not None:
                for line in recording_lines(happening):
                    self.recorder.write(line)
            for listener in self.listeners:
                listener(happening)

    def say(self, text: str, t: float = 0.0) -> None:
        """A sentence from the live loop itself (the camera is gone), recorded as said."""
        self.deliver([Spoken(t, text)])
