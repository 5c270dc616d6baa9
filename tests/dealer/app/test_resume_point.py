"""`play --resume` builds where the round goes on as a value; the session is made from it."""

import ast
import dataclasses
from pathlib import Path

from dealer.app.resume import Interrupted, restore
from dealer.table.session import DealerSession, SessionConfig
from dealer.table.turn import Clearing, ProphetToken, Steady, resumed
from engine.cards import Card, parse_cards
from engine.events import Attempt, RoundStarted

CONFIG = SessionConfig(players=("Ana", "Bo", "Cy"), rule="alternate-colour", hand_size=3)


def _interrupted(actions: tuple[Attempt, ...], last_t: float) -> Interrupted:
    start = RoundStarted(CONFIG.players, CONFIG.rule, (Card.parse("7H"),), CONFIG.hand_size, 1)
    return Interrupted(folder=Path("round"), players=CONFIG.players, hand=3, decks=1, source="video.mp4",
                       rule=CONFIG.rule, nonce="00" * 16, sealed=True, start=start, actions=actions, last_t=last_t)


def test_resume_builds_the_round_and_the_turn_state_after_the_last_verdict() -> None:
    last = Attempt("Bo", parse_cards("QD"))
    point, said = restore(CONFIG, _interrupted((Attempt("Ana", parse_cards("4C")), last), 12.5), now=3.0)
    assert point is not None and point.round.whose_turn == "Cy"
    # the judged cards still lie in the zone and count for nothing new; they may still be moving
    assert point.turn == resumed(last, Card.parse("7H"), prophet_out=False, settle_s=CONFIG.settle_s,
                                 moving_since=3.0)
    assert point.turn.phase == Clearing(parse_cards("QD")) and point.turn.prophet == ProphetToken()
    assert point.turn.layout.due == Steady(3.0, None)  # the turn's layout watch: its cards may still be moving
    assert [s.text for s in said] == ["The round goes on after 2 turns. When the play zone is clear, it is Cy's turn."]
    # and the session is made from it, as it stands
    session = DealerSession(CONFIG, nonce="00" * 16, at=point)
    assert session.round is point.round and session.protocol.state is point.turn
    assert session.starters == [Card.parse("7H")]


def test_a_round_not_started_resumes_in_the_starter_phase() -> None:
    unstarted = _interrupted((), 1.0)
    point, said = restore(CONFIG, dataclasses.replace(unstarted, start=None))
    assert point is None and [s.text for s in said] == ["The round goes on: the starter has not been laid yet."]


def test_resume_sets_no_field_of_anything() -> None:
    tree = ast.parse((Path(__file__).resolve().parents[3] / "dealer" / "app" / "resume.py").read_text(encoding="utf-8"))
    targets = [t for node in ast.walk(tree) if isinstance(node, ast.Assign) for t in node.targets]
    targets += [node.target for node in ast.walk(tree) if isinstance(node, (ast.AugAssign, ast.AnnAssign))]
    assert [t.lineno for target in targets for t in ast.walk(target) if isinstance(t, ast.Attribute)] == []
