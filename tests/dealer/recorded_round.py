"""A whole round recorded the way `eleusis play` records it (the session, a frame kept and
read at each verdict, the game record saved after it), for the review, verify, what-if,
secrecy and browser tests. No camera and no vision: the table views are given."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from dealer.app.live import show_log_hash, show_seal
from dealer.app.outlets import Outlets
from dealer.record.recording import RecordingWriter, Seen, log_hash, write_record
from dealer.table.session import DealerSession, SessionConfig
from dealer.table.protocol import SeenCard, TableView
from dealer.speech.voice import FakeVoice
from engine.cards import Card

PLAYERS = ("Ana", "Bo", "Cy")
NONCE = "fixed-nonce-0123456789abcdef"
# alternate-colour, hands of 3, starter 7H (C5: Ana first). Ana 4C accepted; Bo QC rejected
# (draws 2); Cy 9D accepted; Ana 2S 3H accepted and empties her hand: the round ends (G1).
LAYS = ("7H", "4C", "QC", "9D", "2S 3H")


@dataclass
class RecordedRound:
    folder: Path
    seal: str  # the commitment shown at the table
    log_hash: str  # the log hash shown at the table
    voice: FakeVoice
    session: DealerSession


def _jpeg(turn: int, labels: str) -> bytes:
    image = np.full((120, 160, 3), (40 * turn % 255, 90, 200 - 30 * turn), np.uint8)
    cv2.putText(image, labels, (5, 60), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (255, 255, 255), 2)
    ok, data = cv2.imencode(".jpg", image)
    assert ok
    return bytes(data.tobytes())


def record_round(folder: Path, rule: str = "alternate-colour", lays: tuple[str, ...] = LAYS,
                 after_each_view: Callable[[DealerSession], None] | None = None,
                 finish: bool = True) -> RecordedRound:
    voice = FakeVoice()
    recorder = RecordingWriter(folder, {"players": list(PLAYERS), "hand": 3, "decks": 3}, fsync=False)
    config = SessionConfig(players=PLAYERS, rule=rule, hand_size=3, settle_s=1.0, spoken_cards=False)
    session = DealerSession(config, nonce=NONCE)
    outlets = Outlets(voice, recorder)
    recorder.write_envelope(rule, NONCE)  # as the live loop does (dealer/app/live.py)
    show_seal(session.seal.commitment, folder)
    outlets.deliver(session.begin())
    t, frame, kept = 0.0, 0, 0

    def show(labels: str, seconds: float) -> None:
        nonlocal t, frame, kept
        cards = tuple(SeenCard(Card.parse(lab), 70.0 * i, 0.0) for i, lab in enumerate(labels.split()))
        for _ in range(int(seconds / 0.5)):
            t += 0.5
            frame += 1
            happened = session.observe(TableView(t, cards, frame=frame))
            outlets.deliver(happened)
            if any(h.decisive for h in happened):  # as the live loop does: keep the frame, save the record
                kept += 1
                recorder.save_frame(t, frame, _jpeg(kept, labels))
                recorder.write(Seen(t=t, frame=frame, zone="play",
                                    cards=[{"card": lab, "confidence": 0.97} for lab in labels.split()]))
                write_record(folder, session.game_record())
            if after_each_view is not None:
                after_each_view(session)

    for labels in lays:
        show(labels, 3.0)
        show("", 1.0)
    if finish:
        outlets.deliver(session.finish())
        write_record(folder, session.game_record())
    recorder.close()
    if finish:
        show_log_hash(folder)
    return RecordedRound(folder, session.seal.commitment, log_hash(folder), voice, session)
