"""`eleusis play --resume` (issue 9 item 4): kill the dealer at 20 random moments (a seeded
RNG picks them; the suite takes the first 4, `pytest -m slow` all 20), resume each time,
and every round ends with the verdicts and scores of an uninterrupted run: nothing lost,
nothing counted twice. Real processes, the shipped table
video, kill -9 (a crash or a power cut) and SIGINT (Ctrl-C, which must leave a resumable
recording and no traceback). An uninterrupted run deals the video's scripted round,
verdict for verdict (test_demo_languages.py checks it): that round, judged, is what every
resumed one must end as."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests.dealer.cli_limits import ROOT, child_env, dealer_command
from dealer.record.recording import Started, Undone, VerdictLine, load_recording
from engine.judging import judge_text
from engine.record import format_action
from engine.rules import resolve_rule

VIDEO = ROOT / "dealer" / "data" / "demo-table.mp4"
RULE = "alternate-colour"
SCRIPTED_RECORD = Path(__file__).resolve().parents[1] / "data" / "demo-table.eleusis"  # the video's script
RULE_FILE = Path(__file__).resolve().parents[1] / "data" / "secret.rule"  # never --rule TEXT (R2); holds RULE
PLAY = ["play", "--video", str(VIDEO), "--players", "Ana Bo Cy", "--rule-file", str(RULE_FILE), "--hand", "5",
        "--voice", "text"]
KILLS = 20
FEW_KILLS = 4
pytestmark = pytest.mark.skipif(not VIDEO.exists(), reason="the shipped table video is not built")


def outcome(folder: Path) -> tuple[list[tuple[Any, ...]], dict[str, int]]:
    """The verdicts that stand in a recording's log, and the scores they give (the log is the truth)."""
    rec = load_recording(folder)
    started = rec.of_type(Started)
    assert len(started) == 1, "one round, started once"
    standing: list[VerdictLine] = []
    for event in rec.events:
        if isinstance(event, VerdictLine):
            standing.append(event)
        elif isinstance(event, Undone):
            standing.pop()
    s = started[0]
    text = (f"players: {' '.join(s.players)}\nrule: {RULE}\nstart: {' '.join(s.starters)}\nhand: {s.hand}\n"
            + "".join(v.action + "\n" for v in standing))
    judgement = judge_text(text, resolve_rule)
    assert judgement.round.ended is not None, "the round was played to its end"
    return ([(v.turn, v.player, v.action, v.verdict, v.penalty, v.expelled) for v in standing],
            judgement.round.result().scores)


class Child:
    """`python -m dealer ...` whose stderr is watched for the line saying it records."""

    def __init__(self, args: list[str], cwd: Path, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(dealer_command(*args), cwd=cwd, env=env,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.recording = threading.Event()
        self.err: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for raw in self.proc.stderr:
            line = raw.decode("utf-8", "replace")
            self.err.append(line)
            if line.startswith("recording to "):
                self.recording.set()
        self.recording.set()  # it ended without recording: nothing to wait for

    def finish(self, timeout: float = 300) -> int:
        code = self.proc.wait(timeout=timeout)
        self._reader.join(timeout=10)
        return code


@pytest.fixture(scope="module")
def uninterrupted() -> tuple[list[tuple[Any, ...]], dict[str, int]]:
    """The verdicts and scores of the round the video films (its script as a game record)."""
    judgement = judge_text(SCRIPTED_RECORD.read_text(encoding="utf-8"), resolve_rule)
    assert judgement.record.start.rule == RULE and judgement.record.start.players == ("Ana", "Bo", "Cy")
    verdicts = [(o.index, o.player, format_action(line.action), o.verdict.value, o.penalty, o.expelled)
                for (_number, o), line in zip(judgement.turns, judgement.record.actions, strict=True)]
    return verdicts, judgement.round.result().scores


# the suite stops the dealer at the first 4 of the moments (the fourth by Ctrl-C; with
# another ELEUSIS_RESUME_SEED, the last stop is a Ctrl-C if none was);
# `python3 -m pytest -m slow` at all 20
@pytest.mark.parametrize("stops", [FEW_KILLS, pytest.param(KILLS, marks=pytest.mark.slow)])
def test_killed_at_random_moments_every_round_ends_as_if_never_stopped(
        tmp_path: Path, uninterrupted: tuple[list[tuple[Any, ...]], dict[str, int]], stops: int) -> None:
    rng = random.Random(int(os.environ.get("ELEUSIS_RESUME_SEED", "9")))  # another seed: more moments
    env = child_env(ELEUSIS_KEY_DIR=str(tmp_path / "keys"))
    kills, rounds, interrupted_by_ctrl_c, sent_ctrl_c = 0, 0, 0, False
    while kills < stops:
        rounds += 1
        assert rounds <= 2 * stops, "the stops never took: every round ended before its stop"
        folder = tmp_path / f"round-{rounds}"
        resumes = 0
        args = [*PLAY, "--out", str(folder)]
        while True:
            child = Child(args, tmp_path, env)
            stop = None
            if kills < stops:
                child.recording.wait(timeout=120)
                time.sleep(rng.uniform(0.0, 2.5))  # a random moment of the round
                ctrl_c = rng.random() < 0.25 or (kills == stops - 1 and not sent_ctrl_c)  # one at least
                stop = signal.SIGINT if ctrl_c else signal.SIGKILL
                if child.proc.poll() is None:
                    child.proc.send_signal(stop)
            code = child.finish()
            err = "".join(child.err)
            assert "Traceback" not in err, err[-3000:]
            if code == 0 or (code == 2 and "this round is over" in err):
                break  # the round ended before the stop took: a stop after its end leaves nothing to resume
            # a stop counts once it stopped the dealer (a round that ended as the signal came was
            # not stopped: on a busy machine the last Ctrl-C could land there and test nothing)
            kills += 1
            sent_ctrl_c |= stop is signal.SIGINT
            if stop is signal.SIGINT and code == 130:
                interrupted_by_ctrl_c += 1
                assert "Nothing is lost: `eleusis play --resume" in err or "stopped by Ctrl-C" in err, err[-1500:]
            else:
                assert code == -signal.SIGKILL, (code, err[-3000:])
            if not (folder / "rule.sealed").exists():
                args = [*PLAY, "--out", str(folder)]  # stopped before the seal: nothing was dealt, start again
                continue
            args = ["play", "--resume", str(folder), "--voice", "text"]
            resumes += 1
            assert resumes < 40, "the round makes no progress"
        assert outcome(folder) == uninterrupted, f"round {rounds} ended differently after {resumes} resumes"
        assert (folder / "round.eleusis").read_text(encoding="utf-8").startswith("players: Ana Bo Cy\nrule: ")
    print(f"{kills} stops ({interrupted_by_ctrl_c} by Ctrl-C) over {rounds} round(s), each ended as uninterrupted")
    assert kills == stops and rounds >= 1
    assert interrupted_by_ctrl_c >= 1


def test_resume_refuses_a_folder_without_a_round_and_options_the_recording_holds(tmp_path: Path) -> None:
    from dealer.app.cli import main

    assert main(["play", "--resume", str(tmp_path), "--voice", "text"]) == 2
    assert main(["play", "--resume", str(tmp_path), "--players", "Ana Bo Cy"]) == 2
