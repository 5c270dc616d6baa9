"""ArUco markers: patterns for the kit, and detection."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.layout import default_layout
from calibration.markers import (
    MarkerDetections,
    detect_markers,
    marker_bits,
    marker_image,
)


def test_given_the_layout_then_every_marker_pattern_is_distinct_with_a_black_border() -> None:
    layout = default_layout()
    ids = [m.marker_id for m in layout.markers] + [t.marker_id for t in layout.tokens]
    patterns = {marker_bits(i).tobytes() for i in ids}
    assert len(patterns) == len(ids)
    for i in ids:
        bits = marker_bits(i)
        assert bits[0].all() and bits[-1].all() and bits[:, 0].all() and bits[:, -1].all()


@pytest.mark.parametrize("marker_id", [0, 7, 13])
def test_given_a_drawn_marker_then_it_is_detected_with_its_corners(marker_id: int) -> None:
    img = marker_image(marker_id, px_per_cell=12, quiet_cells=2)
    frame = np.dstack([img] * 3)
    found = detect_markers(frame)
    assert found.ids.tolist() == [marker_id]
    assert np.allclose(found.corners_px[0, 0], (24, 24), atol=1.5)  # top-left of the black border
    assert np.allclose(found.corners_px[0, 2], (24 + 72, 24 + 72), atol=1.5)


def test_given_allowed_ids_then_others_are_dropped() -> None:
    frame = np.hstack([marker_image(1, 10, quiet_cells=2), marker_image(12, 10, quiet_cells=2)])
    assert detect_markers(frame, allowed_ids=frozenset({12})).ids.tolist() == [12]


@pytest.mark.parametrize(("ids", "corners"), [(np.zeros((2, 1)), np.zeros((2, 4, 2))),
                                              (np.zeros(2), np.zeros((2, 3, 2)))])
def test_given_wrong_shapes_then_the_detections_record_says_what_it_expected(ids: np.ndarray,
                                                                            corners: np.ndarray) -> None:
    with pytest.raises(ValueError, match="must be"):
        MarkerDetections(ids.astype(np.int64), corners)


def test_given_the_smallest_marker_size_then_the_same_markers_are_found_and_none_smaller() -> None:
    from vision.synthetic import PinholeView, TokenPlacement, render_table_scene

    layout = default_layout()
    view = PinholeView(tilt_deg=60.0, distance_mm=900.0, target_mm=(132.0, -60.0), size_wh=(1920, 1080))
    frame = render_table_scene(layout, view, tokens=(TokenPlacement("prophet", (100.0, -270.0), 0.0),),
                               rng=np.random.default_rng(2)).frame_bgr
    every = detect_markers(frame, layout.dictionary)
    sides = np.linalg.norm(every.corners_px - np.roll(every.corners_px, -1, axis=1), axis=2).min()
    # told half the smallest side in view, the detector finds every marker it found before
    told = detect_markers(frame, layout.dictionary, min_side_px=0.5 * float(sides))
    assert sorted(told.ids.tolist()) == sorted(every.ids.tolist()) and len(every.ids) >= 6
    # told a size larger than the mat's markers, it finds none of them: the bar is applied
    assert len(detect_markers(frame, layout.dictionary, min_side_px=3.0 * float(sides)).ids) < len(every.ids)


def test_given_a_reduced_search_then_the_same_markers_are_found_with_full_resolution_corners() -> None:
    from vision.synthetic import PinholeView, TokenPlacement, render_table_scene

    layout = default_layout()
    view = PinholeView(tilt_deg=60.0, distance_mm=600.0, target_mm=(132.0, -20.0), size_wh=(1920, 1080))
    frame = render_table_scene(layout, view, tokens=(TokenPlacement("prophet", (100.0, -200.0), 0.0),),
                               rng=np.random.default_rng(3)).frame_bgr
    full = detect_markers(frame, layout.dictionary).as_dict()
    half = detect_markers(frame, layout.dictionary, scale=0.5).as_dict()
    assert sorted(half) == sorted(full) and len(full) >= 6
    # refined at full resolution: as exact as a full search (the homography's millimetres),
    # where corners taken from the reduced picture alone are off by a quarter pixel or more
    worst = max(float(np.abs(half[i] - full[i]).max()) for i in full)
    assert worst < 0.1
    # in a box of the frame (its own pixels), the same
    box = np.ascontiguousarray(frame[200:900, 300:1600])
    boxed = detect_markers(box, layout.dictionary, scale=0.5).as_dict()
    assert boxed and all(np.abs(boxed[i] + [300, 200] - full[i]).max() < 0.1 for i in boxed if i in full)
