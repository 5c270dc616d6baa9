"""Tokens: found at 1280x720 in more than 99% of rendered frames with realistic blur and light."""

from __future__ import annotations

import numpy as np
import pytest
from calib_scenes import framed_view

from calibration.layout import (
    ZONE_MAIN_LINE,
    ZONE_PLAY,
    ZONE_SIDE_BRANCHES,
    default_layout,
)
from calibration.markers import detect_markers
from vision.synthetic import (
    Lighting,
    PinholeView,
    TokenPlacement,
    random_lighting,
    render_table_scene as render_scene,
)
from calibration.table import TableHomography, estimate_homography
from calibration.tokens import find_tokens, tokens_from_detections

LAYOUT = default_layout()
FRAMES = 150  # 600 tokens: more than 99% means at most 5 missed
FAST_FRAMES = 10  # the same batch's first frames, in every run of the suite


def _random_tokens(rng: np.random.Generator) -> tuple[tuple[TokenPlacement, ...], dict[str, str]]:
    """All four tokens, apart, at any angle: NO PLAY and REJECT in the play zone, the PROPHET
    token on the main line (F2), ACCEPT waiting among the side branches."""
    spots = {
        "no_play": ((rng.uniform(55, 80), rng.uniform(88, 100)), ZONE_PLAY),
        "reject": ((rng.uniform(185, 210), rng.uniform(88, 100)), ZONE_PLAY),
        "prophet": ((rng.uniform(-100, 360), rng.uniform(-285, -260)), ZONE_MAIN_LINE),
        "accept": ((rng.uniform(-90, 350), rng.uniform(-140, -80)), ZONE_SIDE_BRANCHES),
    }
    placed = tuple(TokenPlacement(name, centre, float(rng.uniform(-180, 180))) for name, (centre, _) in spots.items())
    return placed, {name: zone for name, (_, zone) in spots.items()}


def _found_in_a_seeded_batch(frames: int) -> tuple[int, int, float]:
    """Tokens found (in their zone, with a table position) of those placed over ``frames``
    rendered frames of the seeded batch, and the worst centre error (mm) of those found."""
    rng = np.random.default_rng(2026)
    found = total = 0
    worst_mm = 0.0
    for _ in range(frames):
        view = framed_view(LAYOUT, float(rng.uniform(30, 90)), float(rng.uniform(-20, 20)))
        tokens, zones = _random_tokens(rng)
        scene = render_scene(LAYOUT, view, tokens=tokens, lighting=random_lighting(rng), rng=rng)
        detections = detect_markers(scene.frame_bgr)
        sightings = {s.name: s for s in tokens_from_detections(detections, LAYOUT,
                                                               estimate_homography(detections, LAYOUT))}
        for placed in tokens:
            total += 1
            seen = sightings.get(placed.name)
            if seen is None or seen.zone != zones[placed.name] or seen.centre_mm is None:
                continue
            found += 1
            worst_mm = max(worst_mm, float(np.hypot(seen.centre_mm[0] - placed.centre_mm[0],
                                                    seen.centre_mm[1] - placed.centre_mm[1])))
    return found, total, worst_mm


@pytest.mark.slow  # about a minute: `python3 -m pytest -m slow` (README)
def test_given_a_seeded_batch_of_rendered_frames_then_more_than_99_percent_of_tokens_are_found() -> None:
    found, total, worst_mm = _found_in_a_seeded_batch(FRAMES)
    assert found / total > 0.99, f"found {found} of {total} tokens"
    print(f"tokens found: {found} of {total}, worst centre error {worst_mm:.1f} mm")
    assert worst_mm < 10.0


def test_given_the_first_frames_of_the_seeded_batch_then_more_than_99_percent_of_tokens_are_found() -> None:
    # the statistic above on its first frames, in every run of the suite: the same bar, so
    # with 40 tokens not one may be missed
    found, total, worst_mm = _found_in_a_seeded_batch(FAST_FRAMES)
    assert total == 4 * FAST_FRAMES and found / total > 0.99, f"found {found} of {total} tokens"
    assert worst_mm < 10.0


@pytest.mark.parametrize("angle_deg", [0.0, 90.0, -135.0])
def test_given_a_token_at_an_angle_then_its_tile_centre_and_turn_are_found(angle_deg: float) -> None:
    view = PinholeView(tilt_deg=80, distance_mm=420.0, target_mm=(132.0, 95.0))
    placed = TokenPlacement("reject", (150.0, 95.0), angle_deg)
    scene = render_scene(LAYOUT, view, tokens=(placed,), lighting=Lighting(blur_sigma_px=0.6))
    [seen] = find_tokens(scene.frame_bgr, LAYOUT, TableHomography(scene.table_to_px))
    assert (seen.name, seen.word, seen.zone) == ("reject", "REJECT", ZONE_PLAY)
    assert seen.centre_mm is not None and seen.angle_deg is not None
    assert np.hypot(seen.centre_mm[0] - 150.0, seen.centre_mm[1] - 95.0) < 2.0
    assert abs((seen.angle_deg - angle_deg + 180.0) % 360.0 - 180.0) < 3.0


def test_given_no_homography_then_tokens_are_named_without_a_table_position() -> None:
    view = PinholeView(tilt_deg=80, distance_mm=420.0, target_mm=(132.0, 95.0))
    scene = render_scene(LAYOUT, view, tokens=(TokenPlacement("no_play", (100.0, 95.0)),))
    [seen] = find_tokens(scene.frame_bgr, LAYOUT, None)
    assert seen.name == "no_play" and seen.centre_mm is None and seen.zone is None
