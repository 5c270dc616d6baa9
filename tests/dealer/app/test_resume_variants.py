"""`play --resume` goes on with a round of a variant (docs/rules-variants.md: WK*, EX*, AB*) in
the variant its recording's header names: a round stopped at any frame and resumed from its
log ends with the verdicts and scores of `eleusis judge` on the round's script, dealt
uninterrupted. The table is a stream of synthetic views (what the observer would see), fed
through the recording as `eleusis play` does; a Kruskal round is refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dealer.app.cli import main
from dealer.app.outlets import Outlets
from dealer.app.resume import ResumeError, read_interrupted, restore
from dealer.record.recording import RecordingWriter, Undone, VerdictLine, load_recording
from dealer.speech.voice import FakeVoice
from dealer.table.protocol import SeenCard, TableView
from dealer.table.session import DealerSession, SessionConfig
from dealer.table.table_rules import TableRules
from engine.cards import Card
from engine.judging import judge_text
from engine.rules import resolve_rule

RULE = "alternate-colour"
# what is laid in the play zone, one entry a turn (the first is the starter), per variant
SCRIPTS: dict[str, tuple[int, int, tuple[str, ...]]] = {  # hand, decks, the cards laid
    "abbott-1959": (2, 1, ("7H", "QD", "4C", "9S", "5H", "8D", "10D", "QD", "8D", "9S", "QD")),  # AB5, AB7-AB9
    "express": (3, 1, ("7H", "QD", "4C", "9H", "2S", "6D 8C", "5D", "10C", "8H", "JS", "3D", "6C", "KH")),  # EX2, EX6
    "wikipedia": (4, 2, ("7H", "4C 9D 2S", "QC", "3H 6S 5D", "8C 10H", "JS", "2H", "KC", "4D")),  # WK2, WK3
}
FRAME_S = 0.5
CHAIN_FRAME = 5 * 8 + 1  # the express script's "6D 8C" is first seen then (8 frames a turn)


def _frames(labels: tuple[str, ...]) -> list[TableView]:
    """Each turn's cards lie 3 s in the play zone, then it is clear for 1 s."""
    views: list[TableView] = []
    for laid in labels:
        for shown in (laid, ""):
            cards = tuple(SeenCard(Card.parse(lab), 70.0 * i, 0.0) for i, lab in enumerate(shown.split()))
            for _ in range(6 if shown else 2):
                t = FRAME_S * (len(views) + 1)
                views.append(TableView(t, cards, frame=len(views) + 1))
    return views


def _config(variant: str) -> SessionConfig:
    hand, decks, _labels = SCRIPTS[variant]
    return SessionConfig(players=("Ana", "Bo", "Cy"), rule=RULE, hand_size=hand, decks=decks, settle_s=1.0,
                         spoken_cards=False, variant=variant)


def _feed(session: DealerSession, outlets: Outlets, views: list[TableView]) -> int:
    """The views shown to the session until the round ends; how many it saw."""
    seen = 0
    for view in views:
        seen += 1
        outlets.deliver(session.observe(view))
        if session.revealed:
            break
    return seen


def _deal_until(folder: Path, variant: str, stop: int) -> None:
    """A round recorded as `play` records it, stopped (a crash: no more lines) after ``stop`` frames."""
    config = _config(variant)
    recorder = RecordingWriter(folder, {"players": list(config.players), "hand": config.hand_size,
                                        "decks": config.decks, "source": "table.mp4", "variant": variant},
                               fsync=False)
    session = DealerSession(config, nonce="ab" * 16)
    recorder.write_envelope(config.rule, session.nonce)
    outlets = Outlets(FakeVoice(), recorder)
    outlets.deliver(session.begin())
    _feed(session, outlets, _frames(SCRIPTS[variant][2])[:stop])
    recorder.close()


def _resume(folder: Path, variant: str) -> tuple[DealerSession, FakeVoice]:
    """`play --resume`: the round read back from its log goes on with the frames after its last decision."""
    state = read_interrupted(folder)
    assert state.variant == variant
    point, said = restore(_config(variant), state)
    session = DealerSession(_config(variant), nonce=state.nonce, at=point)
    voice = FakeVoice()
    outlets = Outlets(voice, RecordingWriter.resume(folder, fsync=False))
    outlets.deliver(said)
    _feed(session, outlets, [v for v in _frames(SCRIPTS[variant][2]) if state.last_t is None or v.t > state.last_t])
    assert outlets.recorder is not None
    outlets.recorder.close()
    return session, voice


def _standing(folder: Path) -> list[tuple[Any, ...]]:
    """The verdicts that stand in a recording's log (the log is the truth)."""
    standing: list[VerdictLine] = []
    for event in load_recording(folder).events:
        if isinstance(event, VerdictLine):
            standing.append(event)
        elif isinstance(event, Undone):
            standing.pop()
    return [(v.turn, v.player, v.action, v.verdict, v.penalty, v.expelled) for v in standing]


@pytest.fixture(scope="module")
def judged() -> dict[str, tuple[list[tuple[Any, ...]], dict[str, int], int]]:
    """Each variant's round dealt uninterrupted, its game record read back by `eleusis judge`,
    and the frames it took."""
    out = {}
    for variant in SCRIPTS:
        session = DealerSession(_config(variant), nonce="ab" * 16)
        outlets = Outlets(FakeVoice(), None)
        outlets.deliver(session.begin())
        frames = _feed(session, outlets, _frames(SCRIPTS[variant][2]))
        assert session.round is not None and session.round.ended is not None, f"{variant}: the script ends the round"
        judgement = judge_text(session.game_record().replace(f"sealed {session.seal.commitment}", RULE), resolve_rule)
        assert judgement.record.start.variant == variant
        verdicts = [(o.index, o.player, line.action, o.verdict.value, o.penalty, o.expelled)
                    for (_n, o), line in zip(judgement.turns, judgement.record.actions, strict=True)]
        out[variant] = (verdicts, judgement.round.result().scores, frames)
    return out


@pytest.mark.parametrize("variant", sorted(SCRIPTS))
def test_a_variant_round_stopped_anywhere_resumes_and_ends_as_judge_says(
        tmp_path: Path, variant: str, judged: dict[str, tuple[list[tuple[Any, ...]], dict[str, int], int]]) -> None:
    from engine.record import format_action

    verdicts, scores, frames = judged[variant]
    for stop in range(9, frames - 4, 7):  # mid-turn, just after a verdict, while the zone clears
        folder = tmp_path / f"stop-{stop}"
        _deal_until(folder, variant, stop)
        session, voice = _resume(folder, variant)
        assert session.table == TableRules.of(variant)
        if variant == "express" and stop < CHAIN_FRAME:  # EX2 after the resume too: the chain is answered at once
            assert "In this game a turn is one card" in "\n".join(voice.said), f"stopped at frame {stop}"
        assert session.round is not None and session.round.ended is not None, f"stopped at frame {stop}"
        assert [(n, p, format_action(a), v, pen, exp) for n, p, a, v, pen, exp in verdicts] == _standing(folder), stop
        assert session.round.result().scores == scores, f"stopped at frame {stop}"


def test_the_resumed_turn_keeps_the_variants_table_rules(tmp_path: Path) -> None:
    # EX2: after a resume, two cards laid in express are still not a chain (Howell's table would judge one)
    _deal_until(tmp_path, "express", 20)
    point, _said = restore(_config("express"), read_interrupted(tmp_path))
    assert point is not None and point.turn.rules == TableRules.of("express")
    assert point.round.start.variant == "express" and point.round.start.decks == 1  # EX1: one deck for three


def test_resume_refuses_kruskal_and_a_variant_other_than_the_recordings(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _deal_until(tmp_path / "ex", "express", 20)
    assert main(["play", "--resume", str(tmp_path / "ex"), "--variant", "wikipedia", "--voice", "text"]) == 2
    assert "holds a round of express, not wikipedia (--variant)" in capsys.readouterr().err
    kruskal = tmp_path / "kr"
    RecordingWriter(kruskal, {"players": ["Ana", "Bo", "Cy"], "variant": "kruskal"}, fsync=False).close()
    with pytest.raises(ResumeError, match="a Kruskal round cannot be resumed"):
        read_interrupted(kruskal)


def test_play_resume_deals_on_in_the_recordings_variant(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the command line takes the variant from the recording, not from --variant's default (howell)
    import dealer.app.live as live

    asked: list[Any] = []

    def run_live(options: Any, voice: Any, *rest: Any) -> int:
        asked.append(options)
        return 0

    monkeypatch.setattr(live, "run_live", run_live)
    _deal_until(tmp_path, "abbott-1959", 30)
    assert main(["play", "--resume", str(tmp_path), "--voice", "text"]) == 0
    (options,) = asked
    assert options.variant == "abbott-1959" and options.resume.variant == "abbott-1959"
    assert options.players == "Ana Bo Cy" and options.hand == 2 and options.out == tmp_path
