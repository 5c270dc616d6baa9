"""The view of a Kruskal round (`play --variant kruskal --window`, KR3-KR8): the line and its
side cards as the oracle turned them, the players' points as they stand, the seal; and the
live loop keeps that view in the recording at every verdict."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from dealer.screen.table_view import ViewState, render_view, view_of_round
from dealer.screen.view_outlet import ViewOutlet
from dealer.speech.i18n import _
from dealer.table.happenings import SealShown
from engine.judging import judge_text
from engine.rules import resolve_rule
from engine.variants.kruskal import KruskalRound

ROOT = Path(__file__).resolve().parents[3]
KRUSKAL = (ROOT / "examples" / "variant-kruskal.eleusis").read_text(encoding="utf-8")


def _round(text: str = KRUSKAL) -> KruskalRound:
    rnd = judge_text(text, resolve_rule).round
    assert isinstance(rnd, KruskalRound)
    return rnd


def _card_faces(picture: np.ndarray) -> int:
    """White card-sized blobs below the camera view (the engine's layout, drawn as cards)."""
    h, w = picture.shape[:2]
    region = picture[int(h * 0.62):, : int(w * 0.70)]
    white = np.all(region > 235, axis=2).astype(np.uint8)
    count, _labels, stats, _ = cv2.connectedComponentsWithStats(white)
    return int(sum(1 for k in range(1, count) if stats[k, cv2.CC_STAT_AREA] > h * w / 1000))


def test_the_view_shows_the_oracles_line_and_the_points_as_they_stand() -> None:
    # 7H QC 9D 4S on the line, 2S and KH turned to the side (KR3); points Ana 5, Bo 2, Cy 3 (KR5)
    rnd = _round()
    state = view_of_round(rnd, ViewState(seal="cd" * 32))
    assert state.round is not None
    assert [str(c) for c in state.round.layout.main] == ["7H", "QC", "9D", "4S"]
    assert [str(c) for b in state.round.layout.branches for c in b.cards] == ["2S", "KH"]
    assert state.scores == (("Ana", 5), ("Bo", 2), ("Cy", 3))  # the round goes on: no oracle's score yet
    assert state.round.whose_turn is None and state.round.hands == ()  # nobody holds cards
    assert state.expulsion_on is None  # nobody is expelled in Kruskal's game: the panel says nothing of it
    assert state.seal == "cd" * 32 and state.round.stock == 52 - 6
    assert _card_faces(render_view(state)) == 6
    # one card more, one face more
    assert _card_faces(render_view(view_of_round(_round(KRUSKAL + "oracle: turn 8H | Ana main, Bo main, Cy side\n"),
                                                 state))) == 7


def test_the_view_adds_the_oracles_score_when_the_deck_is_turned() -> None:
    # KR7: the round ends when the whole deck is turned; KR8: the oracle's score joins the players'
    lines = [line for line in KRUSKAL.splitlines() if not line.startswith("oracle:")]
    from engine.cards import Card, all_kinds

    left = [c for c in all_kinds() if c != Card.parse("7H")]
    turns = [f"oracle: turn {c} | Ana main, Bo side, Cy main" for c in left]
    rnd = _round("\n".join([*lines, *turns]) + "\n")
    state = view_of_round(rnd)
    result = rnd.result()
    assert rnd.ended is not None and state.round is not None and state.round.ended is not None
    assert state.scores == (*((n, result.scores[n]) for n in ("Ana", "Bo", "Cy")),
                            (_("God (the dealer)"), result.dealer))


def test_the_view_outlet_draws_a_kruskal_round_and_keeps_its_pictures() -> None:
    rnd = _round()
    saved: list[tuple[float, int, bytes]] = []
    view = ViewOutlet(lambda: rnd, None, lambda t, i, b: saved.append((t, i, b)))
    view(SealShown(0.0, "ef" * 32, "sealed"))
    picture = view.picture()
    assert view.state.seal == "ef" * 32 and view.state.scores == (("Ana", 5), ("Bo", 2), ("Cy", 3))
    assert _card_faces(picture) == 6
