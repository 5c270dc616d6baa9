"""bench.harness.make_demo: how the rendered players lay a batch in the play zone."""

from __future__ import annotations

import numpy as np

from calibration.layout import ZONE_PLAY, default_layout
from bench.harness.make_demo import _positions, _touching_positions, _zone_box
from vision.geometry import CARD_H_MM, CARD_W_MM


def _inside_zone(centre: tuple[float, float]) -> bool:
    x0, y0, x1, y1 = _zone_box(default_layout(), ZONE_PLAY)
    x, y = centre
    return x0 <= x - CARD_W_MM / 2 and x + CARD_W_MM / 2 <= x1 and y0 <= y - CARD_H_MM / 2 and y + CARD_H_MM / 2 <= y1


def test_given_a_batch_laid_touching_then_each_card_touches_the_last_and_they_are_not_lined_up() -> None:
    rng = np.random.default_rng(3)
    heights = []
    for n in (2, 3):
        for _ in range(20):
            centres = _touching_positions(n, 0.0, rng)
            assert len(centres) == n
            for (x0, y0), (x1, y1) in zip(centres, centres[1:]):
                assert CARD_W_MM - 2.0 <= x1 - x0 <= CARD_W_MM + 1.0  # up to 2 mm over it, or 1 mm apart
                heights.append(abs(y1 - y0))
            assert all(_inside_zone(c) for c in centres)
    assert max(heights) > 5.0  # not lined up


def test_given_a_batch_laid_apart_then_a_fingers_width_lies_between_cards() -> None:
    centres = _positions(3)
    assert all(x1 - x0 - CARD_W_MM >= 10.0 for (x0, _), (x1, _) in zip(centres, centres[1:]))


def test_an_arm_sweeps_from_the_players_edge_across_the_play_zone_to_the_line_and_back() -> None:
    from calibration.layout import ZONE_MAIN_LINE
    from bench.harness.make_demo import Step, arm_sweep
    from bench.harness.scripted_round import QUICK_PLAN, all_labels, make_round, timeline

    layout = default_layout()
    _x0, y0, _x1, y1 = _zone_box(layout, ZONE_PLAY)
    _lx0, ly0, _lx1, ly1 = _zone_box(layout, ZONE_MAIN_LINE)
    for fps in (3.0, 30.0):
        frames = arm_sweep(Step(line=("AS", "2C")), fps, layout)
        tips = [f.arm_tip_mm for f in frames]
        assert all(f.hand and abs(f.seconds * fps - 1.0) < 1e-9 for f in frames)
        assert all(t is not None for t in tips)
        ys = [t[1] for t in tips if t is not None]
        # from the players' side (the forearm always is), over or beyond the zone, to the main line, and back
        assert ys[0] == ys[-1] and ys[0] > ly1
        assert fps < 10 or ys[0] > y1  # filmed finely, the first frame shows the hand at the players' edge
        assert ly0 <= min(ys) <= ly1
        turn = ys.index(min(ys))
        assert all(a >= b for a, b in zip(ys[:turn], ys[1:turn + 1])) and all(a <= b for a, b in zip(ys[turn:], ys[turn + 1:]))
        assert 1.0 <= len(frames) / fps <= 2.0  # a second or two
    # and the round's film has such a sweep every turn once asked for
    import random

    script = make_round(random.Random(3), all_labels(), QUICK_PLAN, ("Ana", "Bo", "Cy"), "alternate-colour", hand=5)
    plain, arms = timeline(script, 3.0), timeline(script, 3.0, arms=True)
    assert not any(s.arm_tip_mm for s in plain.steps)
    assert sum(1 for s in arms.steps if s.arm_tip_mm and s.arm_tip_mm[1] < y0) >= len(script.turns)
