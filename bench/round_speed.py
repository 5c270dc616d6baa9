"""How fast `eleusis play` deals a whole filmed round at 1920x1080 in which a player's arm
crosses the play zone every turn: the speed bench of the live loop.

The round is bench/table_rounds.py's (the same script, table, light and camera for a
condition and seed), filmed with ``--arms`` at 3 frames a second; the film is kept in
cache/round-speed/ and reused. It is dealt by `eleusis play --video`'s own loop
(dealer.app.live.run_live) in this process, so that the processor time and the profile are
the dealer's alone: decoding the film is counted, rendering it is not.

Printed: frames per wall-clock second and per processor second (time.process_time, all
threads of the process: on a machine shared with other jobs the wall clock counts them
too), processor milliseconds a frame, the verdicts against `eleusis judge` on the script
(right / wrong / missing, requests to lay again), and with ``--profile`` the 20 functions
of most time under cProfile (cProfile roughly doubles the time of Python-level calls).

Run: ``python3 bench/round_speed.py [--only real-lamp-zone] [--profile] [--refilm]``.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import pstats
import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.harness.make_demo import StepRenderer, filmed  # noqa: E402
from bench.harness.round_check import compare_round, write_video  # noqa: E402
from bench.harness.scripted_round import QUICK_PLAN, ScriptedRound, all_labels, make_round, timeline  # noqa: E402
from bench.table_rounds import FPS, PLAYERS, QUICK, RULES, VIEWS, Condition, _light_of, faces_for  # noqa: E402

WORK = REPO / "cache" / "round-speed"


def film(cond: Condition, seed: int, refilm: bool) -> tuple[ScriptedRound, Path]:
    """The round of ``cond`` (table_rounds.run_condition's script and scene), filmed with arms."""
    rng = random.Random(f"{seed}-{cond.name}")
    script = make_round(rng, all_labels(), QUICK_PLAN, PLAYERS, rng.choice(RULES), hand=5)
    lighting, table, kit_print = _light_of(cond.scene, np.random.default_rng(seed), cond.lean)
    view = VIEWS[cond.view](rng)
    video = WORK / cond.name / "table.mp4"
    # the film is of one script: a film of another (the bench's script or renderer changed
    # since it was made) would be dealt against the wrong script and every verdict "wrong"
    filmed_script = video.with_suffix(".script")
    same = filmed_script.is_file() and filmed_script.read_text() == script.record_text()
    if refilm or not video.is_file() or not same:
        line = timeline(script, FPS, whole_layout=cond.view == "whole", arms=True)
        renderer = StepRenderer(faces_for(cond.cards), seed, view, lighting, table=table, kit_print=kit_print,
                                touching=cond.touching, card_mm=cond.card_mm)
        write_video((frame for _step, frame in filmed(renderer, tuple(line.steps), FPS)), video, FPS)
        filmed_script.write_text(script.record_text())
    return script, video


def deal(script: ScriptedRound, video: Path, out: Path, profiler: cProfile.Profile | None) -> tuple[int, float, float]:
    """Deal the film with run_live; returns (frames, wall seconds, processor seconds) of the
    frames handled (start-up and the waits for the film excluded)."""
    from dealer.app.live import LiveOptions, LoopStats, run_live
    from dealer.speech.i18n import use_language
    from dealer.speech.voice import FakeVoice

    stats = LoopStats()
    options = LiveOptions(video=video, players=" ".join(script.players), rule=script.rule, hand=script.hand,
                          out=out, window=False)
    out.parent.mkdir(parents=True, exist_ok=True)
    with (out.parent / "play.log").open("w", encoding="utf-8") as log, contextlib.redirect_stderr(log), \
            contextlib.redirect_stdout(io.StringIO()), use_language("en"):
        if profiler is not None:
            profiler.enable()
        try:
            code = run_live(options, FakeVoice(), stats=stats)
        finally:
            if profiler is not None:
                profiler.disable()
    if code not in (0, 3):
        raise RuntimeError(f"eleusis play (in process) exited {code}: see {out.parent / 'play.log'}")
    return stats.frames, stats.busy_s, stats.cpu_s


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    names = [c.name for c in QUICK]
    parser.add_argument("--only", action="append", choices=names, help="this condition only (repeatable)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--profile", action="store_true", help="print cProfile's top 20 (by own time and by total)")
    parser.add_argument("--refilm", action="store_true", help="film the rounds again")
    args = parser.parse_args(argv)
    conditions = [c for c in QUICK if not args.only or c.name in args.only]
    for cond in conditions:
        script, video = film(cond, args.seed, args.refilm)
        profiler = cProfile.Profile() if args.profile else None
        folder = WORK / cond.name
        with tempfile.TemporaryDirectory() as tmp:
            # a fresh recording folder each run (the dealer refuses to write over one)
            out = Path(tmp) / "recording"
            started = time.perf_counter()
            frames, wall, cpu = deal(script, video, out, profiler)
            total = time.perf_counter() - started
            line = timeline(script, FPS, whole_layout=cond.view == "whole", arms=True)
            fig = compare_round(script, line, out, folder)
        print(f"{cond.name:18s} {frames} frames: {frames / max(wall, 1e-9):.1f} frames/s wall, "
              f"{frames / max(cpu, 1e-9):.1f} per CPU s ({1000.0 * cpu / max(frames, 1):.1f} CPU ms a frame; "
              f"{total:.0f} s with start-up); verdicts {fig.right}/{fig.turns} right, {fig.wrong} wrong, "
              f"{fig.missing} missing; requests {len(fig.troubles)}; scores "
              f"{'as scripted' if fig.scores_match else 'DIFFER'}", flush=True)
        if profiler is not None:
            for key in ("tottime", "cumulative"):
                text = io.StringIO()
                pstats.Stats(profiler, stream=text).sort_stats(key).print_stats(20)
                body = text.getvalue()
                print(body[body.find("   ncalls"):].rstrip() if "   ncalls" in body else body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
