"""Play a filmed scripted round through ``eleusis play --video`` and compare it with ``eleusis judge``.

The round bench (bench/table_rounds.py) and its small version in the test suite use it.
Both sides go through the real commands in a child process: ``eleusis play --video`` deals
the round from the film and writes its recording (``round.jsonl``, ``round.eleusis``);
``eleusis judge --json`` then judges the scripted record and the dealer's record, and the
turns and scores are compared. Timing comes from the recording alone: each verdict event
carries the video time of the frame it was judged on, and the script knows when the hand
left the play zone.
"""

from __future__ import annotations

import difflib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from dealer.app.live import LoopStats
from dealer.table.observer import ZoneReader
from dealer.record.recording import EVENTS_FILE, RECORD_FILE
from bench.harness.layout_sight import LayoutSight
from bench.harness.scripted_round import ScriptedRound, Timeline
from bench.harness.scripted_table import ScriptedTable

__all__ = ["RoundFigures", "compare_round", "judge_json", "play_live", "play_video", "write_video"]

REPO = Path(__file__).resolve().parents[2]


def write_video(frames: Iterable[np.ndarray], path: Path, fps: float) -> int:
    """Write frames to an MP4 (mp4v); returns the number written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    writer: cv2.VideoWriter | None = None
    count = 0
    try:
        for frame in frames:
            if writer is None:
                h, w = frame.shape[:2]
                writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"), fps, (w, h))
                if not writer.isOpened():
                    raise OSError(f"cannot write the video {path}")
            writer.write(frame)
            count += 1
    finally:
        if writer is not None:
            writer.release()
    return count


def _run(args: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "dealer", *args], capture_output=True, text=True,
                          cwd=REPO, env=env, timeout=timeout, check=False)


def play_video(video: Path, script: ScriptedRound, out: Path, deck: Path | None = None,
               timeout: float = 900.0, lang: str | None = None) -> tuple[float, str]:
    """``eleusis play --video`` on the film (``--deck``, ``--lang`` when given; ``--variant`` the
    script's); returns (wall seconds, its output)."""
    with tempfile.TemporaryDirectory() as secret:  # the rule never goes on a command line (R2)
        rule_file = Path(secret) / "rule.txt"
        rule_file.write_text(script.rule, encoding="utf-8")
        start = time.perf_counter()
        proc = _run(["play", "--video", str(video), "--players", " ".join(script.players), "--rule-file",
                     str(rule_file), "--hand", str(script.hand), "--out", str(out), "--voice", "text",
                     *(["--deck", str(deck)] if deck is not None else []),
                     *(["--lang", lang] if lang is not None else []),
                     *(["--variant", script.variant] if script.variant != "howell" else [])], timeout)
        wall = time.perf_counter() - start
    if proc.returncode not in (0, 3):
        raise RuntimeError(f"eleusis play exited {proc.returncode}: {proc.stderr[-2000:]}")
    return wall, proc.stdout + proc.stderr


def play_live(table: ScriptedTable, script: ScriptedRound, out: Path, reader: ZoneReader | None = None
              ) -> tuple[LoopStats, Timeline]:
    """Deal the scripted round with ``eleusis play``'s own loop (dealer.app.live.run_live, in this
    process, English) on ``table``: players who hear the dealer. ``reader``: the zones'
    reader (default play's; e.g. one of an enrolled deck profile). Returns how fast the
    dealer handled the frames (rendering excluded) and the timeline the table played."""
    import contextlib

    from dealer.speech.i18n import use_language
    from dealer.app.live import LiveOptions, run_live
    from dealer.speech.voice import FakeVoice

    stats = LoopStats()
    options = LiveOptions(players=" ".join(script.players), rule=script.rule, hand=script.hand, out=out,
                          window=False, variant=script.variant)
    out.parent.mkdir(parents=True, exist_ok=True)
    with (out.parent / "play.log").open("w", encoding="utf-8") as log, contextlib.redirect_stderr(log), \
            use_language("en"):
        code = run_live(options, FakeVoice(), reader, frame_source=table, listeners=[table.hear], stats=stats)
    if code not in (0, 3):
        raise RuntimeError(f"eleusis play (in process) exited {code}: see {out.parent / 'play.log'}")
    return stats, Timeline([], table.fps, table.leave_s, table.hand_frames, frames=table.frame_count)


def judge_json(record_text: str, where: Path) -> dict[str, Any]:
    """``eleusis judge --json`` on a record's text (written to ``where``)."""
    where.write_text(record_text, encoding="utf-8")
    proc = _run(["judge", str(where), "--json"], 120.0)
    if proc.returncode != 0:
        raise RuntimeError(f"eleusis judge {where}: exit {proc.returncode}: {proc.stderr.strip()}")
    data: dict[str, Any] = json.loads(proc.stdout)
    return data


def _turn_key(turn: dict[str, Any]) -> tuple[Any, ...]:
    return (turn["player"], turn["verdict"], tuple(turn["cards"]), turn.get("card"), turn["penalty"],
            turn["overthrown"], turn["expelled"])


def _events(out: Path) -> list[dict[str, Any]]:
    path = out / EVENTS_FILE
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()[1:]
    return [json.loads(line) for line in lines if line.strip()]


@dataclass
class RoundFigures:
    """One played round against its script."""

    turns: int = 0  # scripted verdicts
    right: int = 0
    wrong: int = 0  # a verdict the dealer gave that the script does not hold at that place
    missing: int = 0  # a scripted verdict the dealer never gave
    scores_match: bool = False
    cards_laid: int = 0
    troubles: list[str] = field(default_factory=list)  # the dealer asked the table to do something again
    latency_s: list[float] = field(default_factory=list)  # hand left the zone -> verdict
    judged_under_hand: int = 0  # verdicts judged on a frame with a hand over the play zone
    frames: int = 0
    wall_s: float = 0.0  # seconds the dealer took over the frames (start-up included for a film)
    cpu_fps: float = 0.0  # frames per CPU second of the dealer (for a film: as `eleusis play` prints it)
    relays: int = 0  # times the scripted players laid again because the dealer asked
    gave_up: int = 0  # times they went on after the dealer stayed silent
    scripted_scores: dict[str, int] = field(default_factory=dict)
    played_scores: dict[str, int] = field(default_factory=dict)
    diff: list[str] = field(default_factory=list)  # the first few differences, for the eye
    layout: LayoutSight | None = None  # what the layout watch read of the line zones (players who obey)
    layout_notes: list[str] = field(default_factory=list)  # what the layout watch said

    @property
    def fps(self) -> float:
        return self.frames / self.wall_s if self.wall_s else 0.0


def compare_round(script: ScriptedRound, line: Timeline, out: Path, work: Path) -> RoundFigures:
    """Compare the dealer's recording in ``out`` with ``script`` (both judged by ``eleusis judge``)."""
    figures = RoundFigures(turns=len(script.turns), frames=line.frame_count)
    figures.cards_laid = len(script.starters) + sum(
        len(getattr(t.action, "cards", ())) + len(getattr(t.action, "hand", ())) for t in script.turns)
    truth = judge_json(script.record_text(), work / "scripted.eleusis")
    figures.scripted_scores = truth["scores"]
    played_record = out / RECORD_FILE
    events = _events(out)
    figures.troubles = [str(e.get("text", "")) for e in events if e.get("type") == "trouble"]
    if not played_record.exists():
        figures.missing = figures.turns
        figures.diff = ["the dealer wrote no game record (no starter seen?)"]
        return figures
    text = played_record.read_text(encoding="utf-8")
    # the record names the rule once revealed; before that, its seal (the rule is the script's)
    text = "\n".join(f"rule: {script.rule}" if ln.startswith("rule:") else ln for ln in text.splitlines()) + "\n"
    played = judge_json(text, work / "played.eleusis")
    figures.played_scores = played["scores"]
    figures.scores_match = played["scores"] == truth["scores"] and played["ended"] == truth["ended"]
    want = [_turn_key(t) for t in truth["turns"]]
    got = [_turn_key(t) for t in played["turns"]]
    verdict_events = [e for e in events if e.get("type") == "verdict"]
    undone = {e.get("turn") for e in events if e.get("type") == "undone"}
    verdict_events = [e for e in verdict_events if e.get("turn") not in undone]
    matcher = difflib.SequenceMatcher(a=want, b=got, autojunk=False)
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op == "equal":
            figures.right += a1 - a0
            for i, j in zip(range(a0, a1), range(b0, b1), strict=True):
                if j < len(verdict_events) and i < len(line.leave_s):
                    figures.latency_s.append(float(verdict_events[j]["t"]) - line.leave_s[i])
            continue
        figures.missing += a1 - a0
        figures.wrong += b1 - b0
        if op == "replace":  # a verdict given in place of the scripted one: wrong, not missing too
            paired = min(a1 - a0, b1 - b0)
            figures.missing -= paired
        if len(figures.diff) < 6:
            figures.diff.append(f"scripted {want[a0:a1]} / dealt {got[b0:b1]}")
    figures.judged_under_hand = sum(1 for e in verdict_events if e.get("frame") in line.hand_frames)
    return figures
