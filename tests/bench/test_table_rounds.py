"""The round bench's small version (issue 7 item 5): one short scripted round filmed on the
rendered mat (a hand laying the cards, the players moving them after each verdict), dealt
by the real `eleusis play --video`, each verdict and the scores compared with `eleusis
judge` on the scripted record. The same round dealt live to players who obey the dealer is
test_table_rounds_live.py, with the camera knocked test_table_rounds_nudged.py. The full
bench with every condition is bench/table_rounds.py."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bench.harness.make_demo import render_steps
from bench.harness.round_check import RoundFigures, compare_round, play_video, write_video
from bench.harness.scripted_round import ScriptedRound, Timeline, make_round, timeline
from engine.cards import all_kinds
from tests.bench.round_setup import FPS, faces, full_hd_view, short_round
from vision.synthetic import CardFace


@pytest.fixture(scope="module")
def card_faces() -> dict[str, CardFace]:
    return faces()


@pytest.fixture(scope="module")
def planned(card_faces: dict[str, CardFace]) -> tuple[ScriptedRound, Timeline]:
    script = short_round(card_faces)
    return script, timeline(script, FPS, whole_layout=False)


@pytest.fixture(scope="module")
def played(card_faces: dict[str, CardFace], planned: tuple[ScriptedRound, Timeline],
           tmp_path_factory: pytest.TempPathFactory) -> RoundFigures:
    script, line = planned
    work = tmp_path_factory.mktemp("round")
    write_video(render_steps(tuple(line.steps), card_faces, seed=7, view=full_hd_view(), fps=FPS), work / "table.mp4",
                FPS)
    _wall, _log = play_video(work / "table.mp4", script, work / "recording", timeout=600.0)
    return compare_round(script, line, work / "recording", work)


def test_given_a_scripted_round_then_the_plan_is_what_the_engine_judged(
        planned: tuple[ScriptedRound, Timeline]) -> None:
    script, line = planned
    assert [t.verdict for t in script.turns] == ["accepted", "rejected", "noplay-right"]
    assert [len(b) for b in script.turns[2].batches] == [2, 1]  # a hand of 3 in batches of 2 (N1)
    assert len(line.leave_s) == len(script.turns) and line.hand_frames


# The same round dealt live is test_table_rounds_live.py's, and a filmed round dealt from
# its video file is the demo's (tests/dealer/app/test_demo_languages.py): filmed and dealt
# here again (15 s), it runs in the slow pass.
@pytest.mark.slow
def test_given_the_filmed_round_when_dealt_then_every_verdict_and_the_scores_match_judge(
        played: RoundFigures) -> None:
    figures = played
    assert (figures.right, figures.wrong, figures.missing) == (figures.turns, 0, 0), figures.diff
    assert figures.scores_match, (figures.scripted_scores, figures.played_scores)
    assert figures.judged_under_hand == 0
    assert len(figures.latency_s) == figures.turns and min(figures.latency_s) > 0.0


# -- the comparison itself, on records written by hand (no film) ---------------------------
def _script() -> ScriptedRound:
    return make_round(random.Random(3), [str(c) for c in all_kinds()], ("accept", "reject_chain", "noplay_right",
                      "accept"), ("Ana", "Bo", "Cy", "Dee"), "alternate-colour", hand=5)


def _dealt(tmp_path: Path, record: str) -> Path:
    out = tmp_path / "recording"
    out.mkdir()
    (out / "round.eleusis").write_text(record, encoding="utf-8")
    return out


def test_given_a_dealer_record_equal_to_the_script_then_every_verdict_is_right(tmp_path: Path) -> None:
    script = _script()
    figures = compare_round(script, timeline(script), _dealt(tmp_path, script.record_text()), tmp_path)
    assert (figures.right, figures.wrong, figures.missing, figures.scores_match) == (4, 0, 0, True)


def test_given_a_dealer_record_missing_its_last_turn_then_the_check_says_so(tmp_path: Path) -> None:
    script = _script()
    cut = "\n".join(script.record_text().rstrip("\n").splitlines()[:-1]) + "\n"
    figures = compare_round(script, timeline(script), _dealt(tmp_path, cut), tmp_path)
    assert (figures.right, figures.wrong, figures.missing, figures.scores_match) == (3, 0, 1, False)


def test_given_a_turn_credited_to_the_next_player_then_it_is_wrong_and_the_rest_is_missing(tmp_path: Path) -> None:
    script = _script()
    lines = script.record_text().rstrip("\n").splitlines()
    first = next(i for i, ln in enumerate(lines) if ln.startswith(script.turns[0].player + ":"))
    # the dealer missed the first attempt and judged the next player's cards as that player's turn
    shifted = lines[:first] + [script.turns[0].player + ":" + lines[first + 1].split(":", 1)[1]]
    figures = compare_round(script, timeline(script), _dealt(tmp_path, "\n".join(shifted) + "\n"), tmp_path)
    assert figures.right == 0 and figures.wrong == 1 and figures.missing == 3 and not figures.scores_match
