"""`eleusis play --resume` on a filmed variant round, with real processes: the dealer deals a
rendered express or abbott-1959 film (bench/harness, as tests/bench/test_variant_rounds.py
films them), is killed (kill -9) or stopped (Ctrl-C) at random moments, resumed each time,
and the round ends with every verdict and the scores of `eleusis judge` on the film's script.
Rendering and dealing take about a minute a variant here, so the test is slow; the same
resume, driven by synthetic views, is in tests/dealer/app/test_resume_variants.py."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from bench.harness.make_demo import load_faces, render_steps
from bench.harness.round_check import compare_round, write_video
from bench.harness.scripted_round import timeline, variant_round
from tests.dealer.cli_limits import child_env, dealer_command
from vision.synthetic import PinholeView

FACES = Path("/work/shared/data/real-cards/single")
FPS = 3.0
STOPS = 3  # per variant


def _dealt(args: list[str], cwd: Path, env: dict[str, str], rng: random.Random, stop: bool) -> tuple[int, str, bool]:
    """Run `python -m dealer` ARGS; when ``stop``, kill it (or Ctrl-C it) at a random moment
    after it starts recording. Returns its exit code, its stderr and whether it was stopped."""
    proc = subprocess.Popen(dealer_command(*args), cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    recording, err = threading.Event(), list[str]()

    def read() -> None:
        assert proc.stderr is not None
        for raw in proc.stderr:
            line = raw.decode("utf-8", "replace")
            err.append(line)
            if line.startswith("recording to "):
                recording.set()
        recording.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    stopped = False
    if stop:
        recording.wait(timeout=300)
        time.sleep(rng.uniform(1.0, 6.0))  # a random moment of the round
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT if rng.random() < 0.3 else signal.SIGKILL)
            stopped = True
    code = proc.wait(timeout=900)
    reader.join(timeout=10)
    return code, "".join(err), stopped


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["express", "abbott-1959"])
def test_a_filmed_variant_round_killed_and_resumed_ends_as_judge_says(variant: str, tmp_path: Path) -> None:
    faces = load_faces(FACES)
    if len(faces) < 52:
        pytest.skip(f"no card faces in {FACES}")
    script = variant_round(variant, sorted(faces))
    line = timeline(script, FPS, whole_layout=False)
    video = tmp_path / "table.mp4"
    view = PinholeView(tilt_deg=62.0, distance_mm=490.0, target_mm=(132.5, 60.0), size_wh=(960, 540))
    write_video(render_steps(tuple(line.steps), faces, seed=7, view=view, fps=FPS), video, FPS)
    rule = tmp_path / "rule.txt"
    rule.write_text(script.rule, encoding="utf-8")
    env = child_env(ELEUSIS_KEY_DIR=str(tmp_path / "keys"))
    rng = random.Random(int(os.environ.get("ELEUSIS_RESUME_SEED", "30")))
    folder = tmp_path / "round"
    play = ["play", "--video", str(video), "--players", " ".join(script.players), "--rule-file", str(rule),
            "--hand", str(script.hand), "--variant", variant, "--voice", "text", "--no-window", "--out", str(folder)]
    args, stops, resumes = play, 0, 0
    while True:
        code, err, stopped = _dealt(args, tmp_path, env, rng, stop=stops < STOPS)
        stops += stopped
        assert "Traceback" not in err, err[-3000:]
        if code in (0, 3) or (code == 2 and "this round is over" in err):
            break
        assert stopped and code in (130, -signal.SIGKILL), (code, err[-3000:])
        if not (folder / "rule.sealed").exists():
            args = play  # stopped before the seal: nothing was dealt, start again
            continue
        args = ["play", "--resume", str(folder), "--voice", "text", "--no-window"]
        resumes += 1
        assert resumes < 20, "the round makes no progress"
    figures = compare_round(script, line, folder, tmp_path)
    assert (figures.right, figures.wrong, figures.missing) == (figures.turns, 0, 0), figures.diff
    assert figures.scores_match, (figures.scripted_scores, figures.played_scores)
    print(f"{variant}: {stops} stops, {resumes} resumes, {figures.turns} verdicts as judged")
