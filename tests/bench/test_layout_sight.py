"""The round bench's layout score (bench/harness/layout_sight.py): a card lying in a line zone
the layout watch did not look at (not readable from the camera: the side branches of the
standard whole-layout view) is counted apart, never as a card the watch missed."""

from types import SimpleNamespace

import numpy as np

from bench.harness.layout_sight import STILL_FRAMES, LayoutTap, layout_sight
from calibration.layout import ZONE_MAIN_LINE, ZONE_SIDE_BRANCHES, default_layout
from vision.synthetic import CardPlacement


def _tap(zones_looked_at: tuple[str, ...]) -> LayoutTap:
    """A round whose layout lies still for STILL_FRAMES frames: the 7H in the main line, read
    there; the 2C in the side branches, read only when that zone is looked at."""
    layout = default_layout()
    main, side = (layout.zone(name) for name in (ZONE_MAIN_LINE, ZONE_SIDE_BRANCHES))
    cards = (CardPlacement("7H", main.centre_mm), CardPlacement("2C", side.centre_mm))
    table = SimpleNamespace(frame_count=0, hand_frames=set(), renderer=SimpleNamespace(layout_cards=cards))
    tap = LayoutTap(inner=SimpleNamespace(), table=table)  # type: ignore[arg-type]
    read = {ZONE_MAIN_LINE: [("7H", *main.centre_mm)], ZONE_SIDE_BRANCHES: [("2C", *side.centre_mm)]}
    for frame in range(STILL_FRAMES):
        tap.frames[frame] = (cards, {zone: read[zone] for zone in zones_looked_at})
        tap.watched[frame] = {zone: np.asarray(layout.zone(zone).polygon_mm, np.float32).reshape(-1, 1, 2)
                              for zone in zones_looked_at}
    return tap


def test_given_a_zone_not_looked_at_when_scored_then_its_cards_count_apart() -> None:
    sight = layout_sight(_tap((ZONE_MAIN_LINE,)))
    assert (sight.states, sight.read, sight.cards, sight.unwatched, sight.wrong) == (1, 1, 1, 1, 0)
    assert sight.missed_list == []
    assert "1/1 cards read" in sight.words() and "1 more in a zone not watched" in sight.words()


def test_given_both_zones_looked_at_when_scored_then_every_card_counts() -> None:
    sight = layout_sight(_tap((ZONE_MAIN_LINE, ZONE_SIDE_BRANCHES)))
    assert (sight.read, sight.cards, sight.unwatched) == (2, 2, 0)
    assert "not watched" not in sight.words()
