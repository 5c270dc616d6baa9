"""The dealer names the zone whose cards are too small in the picture, and how much closer
the camera must come: the same test `eleusis calibrate table` reports (calibration/check.py)."""

import numpy as np
import pytest

from calibration.check import READABLE_PX_PER_MM, ZoneSight, reader_px_per_mm, zone_sights
from calibration.layout import ZONE_MAIN_LINE, ZONE_PLAY, ZONE_SIDE_BRANCHES, default_layout
from dealer.speech.i18n import use_language
from dealer.table.too_far import TooFarWatch, too_far_zones


def _sight(name: str, px_per_mm: float, needs: float, corners_in_view: int = 4) -> ZoneSight:
    return ZoneSight(name, corners_in_view, 4, px_per_mm, px_per_mm * 1.2, needs_px_per_mm=needs)


def test_the_play_zone_too_far_is_named_once_with_how_much_closer() -> None:
    # given a play zone seen at 1.0 px/mm where the reader needs 1.25
    watch = TooFarWatch()
    sights = {ZONE_PLAY: _sight(ZONE_PLAY, 1.0, 1.25)}
    # when the dealer looks, then it says the play zone is too far: 80 % of the distance
    said = watch.look(sights)
    assert len(said) == 1 and "play zone" in said[0] and "80%" in said[0]
    # and on the next frames, the same: nothing more
    assert watch.look(sights) == [] and watch.look(sights) == []


def test_a_readable_table_is_not_talked_about() -> None:
    watch = TooFarWatch()
    sights = {ZONE_PLAY: _sight(ZONE_PLAY, 1.6, 1.25), ZONE_MAIN_LINE: _sight(ZONE_MAIN_LINE, 1.4, 1.25)}
    assert watch.look(sights) == [] and watch.look(None) == []


def test_the_layouts_zones_are_named_apart_and_again_when_the_camera_moves() -> None:
    watch = TooFarWatch()
    near = {ZONE_PLAY: _sight(ZONE_PLAY, 1.6, 1.25), ZONE_MAIN_LINE: _sight(ZONE_MAIN_LINE, 1.3, 1.25),
            ZONE_SIDE_BRANCHES: _sight(ZONE_SIDE_BRANCHES, 1.5, 2.0)}
    said = watch.look(near)
    assert len(said) == 1 and "side branches" in said[0] and "main line" not in said[0] and "75%" in said[0]
    # the camera is moved back: the main line too is now too far, and it is said
    far = {name: _sight(name, s.coarsest_px_per_mm * 0.7, s.needs_px_per_mm)  # type: ignore[operator]
           for name, s in near.items()}
    said = watch.look(far)
    assert len(said) == 2 and "play zone" in said[0]
    assert "main line" in said[1] and "side branches" in said[1]


def test_a_zone_not_wholly_in_view_is_not_called_too_far() -> None:
    # a zone out of view is the tracker's and the observer's own message (the camera has moved)
    assert too_far_zones({ZONE_MAIN_LINE: _sight(ZONE_MAIN_LINE, 0.5, 1.25, corners_in_view=2)}) == frozenset()


@pytest.mark.parametrize("language", ["ru", "pt"])
def test_it_is_said_in_the_players_language(language: str) -> None:
    with use_language(language):
        said = TooFarWatch().look({ZONE_PLAY: _sight(ZONE_PLAY, 1.0, 1.25)})
    assert len(said) == 1 and "80%" in said[0] and "play zone" not in said[0]


def test_whole_cards_in_the_main_line_need_what_the_reader_needs_and_overlapped_columns_an_index() -> None:
    # the main line's cards lie one to a place, apart, read whole as in the play zone; the
    # side branches' columns overlap and show an index only
    from vision.synthetic import PinholeView

    view = PinholeView(tilt_deg=89.0, distance_mm=1000.0, target_mm=(132.5, -90.0), size_wh=(1920, 1080))
    sights = zone_sights(view.table_to_px, view.size_wh, default_layout(), play_needs=1.25)
    assert sights[ZONE_PLAY].needs_px_per_mm == sights[ZONE_MAIN_LINE].needs_px_per_mm == 1.25
    assert sights[ZONE_SIDE_BRANCHES].needs_px_per_mm == READABLE_PX_PER_MM
    assert np.isclose(zone_sights(view.table_to_px, view.size_wh, default_layout())[ZONE_MAIN_LINE].needs_px_per_mm,
                      reader_px_per_mm())
