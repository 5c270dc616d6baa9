"""The scripted round of the shipped demo video, as `eleusis judge --json` says of it
(data/demo-table.judged.json), and the check that a recording dealt from the video is it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from dealer.record.recording import RECORD_FILE, Started, VerdictLine, load_recording
from engine.judging import judge_text, judgement_json
from engine.rules import resolve_rule

DATA = Path(__file__).parent / "data"
SCRIPTED_RECORD = DATA / "demo-table.eleusis"
JUDGED = DATA / "demo-table.judged.json"
SCRIPTED_PLAYERS = ("Ana", "Bo", "Cy")  # seated from the dealer's left, as the record's players: line


def judged() -> dict[str, Any]:
    stored: dict[str, Any] = json.loads(JUDGED.read_text(encoding="utf-8"))
    return stored


def _turns(verdicts: list[VerdictLine]) -> list[tuple[str, str, list[str], int, bool, bool]]:
    """The dealer's verdicts in the terms of `judge --json` turns."""
    return [(v.player, v.verdict, v.action.split()[2:], v.penalty, v.expelled, v.overthrown) for v in verdicts]


def dealt_as_judged(folder: Path) -> bool:
    """The recording's verdicts, penalties, scores and line are what `eleusis judge --json`
    says of the scripted round (asserted; True when they are). The players may bear the
    names of the language the round was dealt in (Аня for Ana): they are matched by seat."""
    expected = judged()
    rec = load_recording(folder)
    (started,) = rec.of_type(Started)
    seat = dict(zip(started.players, SCRIPTED_PLAYERS, strict=True))
    dealt_turns = [(seat[p], *rest) for p, *rest in _turns(rec.of_type(VerdictLine))]
    assert dealt_turns == [
        (t["player"], t["verdict"], t["cards"], t["penalty"], t["expelled"], t["overthrown"]) for t in expected["turns"]]
    dealt = judgement_json(judge_text((folder / RECORD_FILE).read_text(encoding="utf-8"), resolve_rule))
    scores = {seat[p]: n for p, n in dealt["scores"].items()}
    assert (scores, dealt["dealer"], dealt["line"]) == (expected["scores"], expected["dealer"], expected["line"])
    return True
