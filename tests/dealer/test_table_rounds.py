"""The round bench's small version (issue 7 item 5): one short scripted round filmed on the
rendered mat (a hand laying the cards, the players moving them after each verdict), dealt
by the real `eleusis play --video`, each verdict and the scores compared with `eleusis
judge` on the scripted record. The full bench with every condition is bench/table_rounds.py."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import numpy as np
import pytest

from calibration.synthetic import PinholeView
from dealer.make_demo import load_faces, render_steps
from dealer.round_check import RoundFigures, compare_round, play_video, write_video
from dealer.scripted_round import ScriptedRound, Timeline, make_round, timeline

REPO = Path(__file__).resolve().parents[2]
FACE_FOLDERS = (REPO.parent / "shared" / "data" / "real-cards" / "single",
                Path("/work/shared/data/real-cards/single"), REPO / "cache" / "cards" / "gnome-anglo")
PLAN = ("accept", "reject_chain", "noplay_right")
FPS = 3.0


def _faces() -> dict[str, np.ndarray]:
    for folder in FACE_FOLDERS:
        faces = load_faces(folder)
        if len(faces) == 52:
            return faces
    pytest.skip("no card faces: neither the real photographed cards nor cache/cards/gnome-anglo "
                "(python -m models.render_cards)")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[ScriptedRound, Timeline, Path, RoundFigures]:
    faces = _faces()
    script = make_round(random.Random(7), sorted(faces), PLAN, ("Ana", "Bo", "Cy", "Dee"), "alternate-colour", hand=3)
    line = timeline(script, FPS, whole_layout=False)
    work = tmp_path_factory.mktemp("round")
    view = PinholeView(tilt_deg=62.0, distance_mm=490.0, target_mm=(132.5, 60.0), size_wh=(1920, 1080))
    write_video(render_steps(tuple(line.steps), faces, seed=7, view=view, fps=FPS), work / "table.mp4", FPS)
    _wall, _log = play_video(work / "table.mp4", script, work / "recording", timeout=600.0)
    return script, line, work, compare_round(script, line, work / "recording", work)


def test_given_a_scripted_round_then_the_plan_is_what_the_engine_judged(
        played: tuple[ScriptedRound, Timeline, Path, RoundFigures]) -> None:
    script, line, _work, _figures = played
    assert [t.verdict for t in script.turns] == ["accepted", "rejected", "noplay-right"]
    assert [len(b) for b in script.turns[2].batches] == [2, 1]  # a hand of 3 in batches of 2 (N1)
    assert len(line.leave_s) == len(script.turns) and line.hand_frames


def test_given_the_filmed_round_when_dealt_then_every_verdict_and_the_scores_match_judge(
        played: tuple[ScriptedRound, Timeline, Path, RoundFigures]) -> None:
    _script, _line, _work, figures = played
    assert (figures.right, figures.wrong, figures.missing) == (figures.turns, 0, 0), figures.diff
    assert figures.scores_match, (figures.scripted_scores, figures.played_scores)
    assert figures.judged_under_hand == 0
    assert len(figures.latency_s) == figures.turns and min(figures.latency_s) > 0.0


def test_given_a_dealer_record_missing_its_last_turn_then_the_check_says_so(
        played: tuple[ScriptedRound, Timeline, Path, RoundFigures], tmp_path: Path) -> None:
    script, line, work, _figures = played
    cut = tmp_path / "recording"
    shutil.copytree(work / "recording", cut)
    lines = (cut / "round.eleusis").read_text(encoding="utf-8").rstrip("\n").splitlines()
    (cut / "round.eleusis").write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")
    figures = compare_round(script, line, cut, tmp_path)
    assert figures.missing == 1 and figures.right == figures.turns - 1
    assert not figures.scores_match
