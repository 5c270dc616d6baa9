"""The round bench's short round (test_table_rounds.py) dealt live by `eleusis play`'s own
loop to rendered players who obey the dealer: they lay again whenever it asks."""

from __future__ import annotations

import pytest

from bench.harness.make_demo import StepRenderer
from bench.harness.round_check import RoundFigures, compare_round, play_live
from bench.harness.scripted_table import ScriptedTable
from tests.bench.round_setup import FPS, faces, full_hd_view, short_round


@pytest.fixture(scope="module")
def played_live(tmp_path_factory: pytest.TempPathFactory) -> tuple[ScriptedTable, RoundFigures]:
    card_faces = faces()
    script = short_round(card_faces)
    view = full_hd_view()
    table = ScriptedTable(script, StepRenderer(card_faces, seed=7, view=view, kit_print="bw"), FPS, whole_layout=False)
    work = tmp_path_factory.mktemp("live")
    stats, line = play_live(table, script, work / "recording")
    figures = compare_round(script, line, work / "recording", work)
    assert stats.frames == line.frame_count or stats.frames < line.frame_count  # the round may end first
    return table, figures


def test_given_players_who_obey_the_dealer_then_every_verdict_and_the_scores_match_judge(
        played_live: tuple[ScriptedTable, RoundFigures]) -> None:
    # a black-and-white printed kit (issue 7): the players lay again whenever the dealer asks
    table, figures = played_live
    assert (figures.right, figures.wrong, figures.missing) == (figures.turns, 0, 0), figures.diff
    assert figures.scores_match, (figures.scripted_scores, figures.played_scores)
    assert figures.judged_under_hand == 0 and table.gave_up == 0
    assert len(figures.latency_s) == figures.turns and min(figures.latency_s) > 0.0
