"""A Kruskal round's recording (KR3-KR8) proves itself like Howell's: `eleusis verify`
replays the oracle's turns with the revealed rule, and the review lists them."""

from __future__ import annotations

from pathlib import Path

from calibration.kruskal_tokens import Predictions
from dealer.app.outlets import Outlets
from dealer.record.recording import RecordingWriter, load_recording, log_hash, write_record
from dealer.record.review import build_review
from dealer.record.verify import verify_recording
from dealer.speech.voice import FakeVoice
from dealer.table.kruskal_session import KruskalConfig, KruskalSession
from dealer.table.kruskal_turn import KruskalLook
from engine.cards import Card

PLAYERS = ("Ana", "Bo", "Cy")
TURNS = (("QC", (True, False, True)), ("2S", (False, False, True)), ("9D", (True, True, True)))


def record_kruskal(folder: Path) -> KruskalSession:
    recorder = RecordingWriter(folder, {"players": list(PLAYERS), "variant": "kruskal", "decks": 1}, fsync=False)
    session = KruskalSession(KruskalConfig(PLAYERS, "alternate-colour", settle_s=1.0, spoken_cards=False),
                             nonce="fixed-nonce-kruskal")
    outlets = Outlets(FakeVoice(), recorder)
    recorder.write_envelope("alternate-colour", session.nonce)
    outlets.deliver(session.begin())
    t = 0.0

    def show(card: str | None, said: tuple[bool, ...] | None, seconds: float) -> None:
        nonlocal t
        preds = Predictions({} if said is None else {k + 1: m for k, m in enumerate(said)})
        for _ in range(int(seconds / 0.5)):
            t += 0.5
            happened = session.observe(KruskalLook(t, (Card.parse(card),) if card else (), preds))
            outlets.deliver(happened)
            if any(h.decisive for h in happened):
                write_record(folder, session.game_record())

    show("7H", None, 2.0)
    show(None, None, 2.0)
    for card, said in TURNS:
        show(card, None, 2.0)
        show(card, said, 2.0)
        show(None, None, 2.0)
    outlets.deliver(session.finish())
    write_record(folder, session.game_record())
    recorder.close()
    return session


def test_a_kruskal_recording_verifies_and_its_review_lists_the_oracles_turns(tmp_path: Path) -> None:
    record_kruskal(tmp_path)
    check = verify_recording(load_recording(tmp_path))
    assert check.problems == ()
    assert [t.outcome.verdict.value for t in check.rebuilt.turns if t.outcome] == ["accepted", "rejected", "accepted"]
    review = build_review(tmp_path)
    assert [item.action for item in review.items] == [
        "oracle: turn QC | Ana main, Bo side, Cy main", "oracle: turn 2S | Ana side, Bo side, Cy main",
        "oracle: turn 9D | Ana main, Bo main, Cy main"]


def test_a_changed_token_in_the_game_record_is_caught(tmp_path: Path) -> None:
    record_kruskal(tmp_path)
    before = log_hash(tmp_path)
    record = tmp_path / "round.eleusis"
    record.write_text(record.read_text().replace("turn 2S | Ana side", "turn 2S | Ana main"))
    problems = verify_recording(load_recording(tmp_path)).problems
    assert any("round.eleusis" in p.where for p in problems)
    assert log_hash(tmp_path) == before  # the log itself is untouched
