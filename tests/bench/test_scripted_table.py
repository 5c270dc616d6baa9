"""The round bench's scripted players (bench/harness/scripted_table.py): they wait for the dealer,
and lay the cards again when it asks, as players at a table do (issue 7 item 5)."""

from __future__ import annotations

import random

from dealer.table.happenings import AskedToLayAgain, Judged, StarterDecided
from bench.harness.make_demo import StepRenderer
from bench.harness.scripted_round import make_round
from bench.harness.scripted_table import PATIENCE_S, ScriptedTable
from engine.cards import Card, all_kinds
from vision.synthetic import PinholeView

SMALL = PinholeView(tilt_deg=62.0, distance_mm=490.0, target_mm=(132.5, 60.0), size_wh=(320, 180))


def _table() -> ScriptedTable:
    script = make_round(random.Random(3), [str(c) for c in all_kinds()], ("accept", "reject"),
                        ("Ana", "Bo", "Cy", "Dee"), "alternate-colour", hand=5)
    return ScriptedTable(script, StepRenderer({}, seed=1, view=SMALL), fps=3.0, whole_layout=False)


def _layings(table: ScriptedTable, frames: int) -> list[int]:
    """The frames where a hand came over the zone (the first frame of each hand step)."""
    return [i for i in range(frames) if i in table.hand_frames and i - 1 not in table.hand_frames]


def test_the_players_wait_for_the_dealer_and_lay_again_when_asked() -> None:
    table = _table()
    script = table.script
    frames = table.frames()
    starter_said = asked = judged = False
    seen = 0
    for frame in frames:
        seen += 1
        layings = _layings(table, seen)
        if not starter_said and len(layings) == 1 and frame.index not in table.hand_frames:
            table.hear(StarterDecided(frame.time_s, frame.index, Card.parse(script.starters[0]), True, "Starter."))
            starter_said = True
        elif starter_said and not asked and len(layings) == 3 and frame.index not in table.hand_frames:
            # the first attempt lies still (layings: starter, starter to the line, attempt): the dealer asks
            table.hear(AskedToLayAgain(frame.time_s, frame.index, "I cannot read the first card."))
            asked, asked_at = True, frame.time_s
        elif asked and not judged and len(layings) == 4 and frame.index not in table.hand_frames:
            # laid again: now the dealer judges it
            turn = script.round.turns[0]
            table.hear(Judged(frame.time_s, frame.index, script.turns[0].action, turn, "accepted"))
            judged = True
        if judged and len(table.leave_s) == 1:
            break
    # then the same cards were laid again once, and the time to the verdict runs from that laying
    assert table.relays == 1 and table.gave_up == 0
    assert table.leave_s[0] > asked_at


def test_players_whose_dealer_stays_silent_go_on_after_their_patience() -> None:
    table = _table()
    for frame in table.frames():
        if frame.time_s > 40.0:
            break
    # nothing was ever said: each laying waited PATIENCE_S, then the round went on as scripted
    assert table.gave_up >= 2 and table.relays == 0
    assert len(table.leave_s) == 2 and table.leave_s[1] - table.leave_s[0] >= PATIENCE_S
