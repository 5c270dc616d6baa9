"""The table homography (pixels <-> table mm) and the tracker that keeps it over frames."""

from __future__ import annotations

import numpy as np
import pytest
from calib_scenes import framed_view, max_error_mm

from calibration.layout import default_layout
from calibration.markers import MarkerDetections, detect_markers
from vision.synthetic import PinholeView, random_lighting
from vision.synthetic import render_table_scene as render_scene
from calibration.table import (
    TableTracker,
    TrackState,
    estimate_homography,
    map_points,
    px_per_mm_at,
)

LAYOUT = default_layout()


@pytest.mark.parametrize("tilt_deg", [30, 40, 50, 60, 75, 90])
@pytest.mark.parametrize("yaw_deg", [-15, 10])
def test_given_a_rendered_table_at_a_tilt_when_fitted_then_every_zone_maps_within_3_mm(
        tilt_deg: float, yaw_deg: float) -> None:
    rng = np.random.default_rng(int(tilt_deg * 100 + yaw_deg))
    view = framed_view(LAYOUT, tilt_deg, yaw_deg)
    scene = render_scene(LAYOUT, view, lighting=random_lighting(rng), rng=rng)
    fit = estimate_homography(detect_markers(scene.frame_bgr), LAYOUT)
    assert fit is not None
    corners = [p for z in LAYOUT.zones for p in z.polygon_mm]
    assert max_error_mm(fit.px_to_table, scene.table_to_px, corners) < 3.0


def _detections_from(view: PinholeView, ids: list[int] | None = None, noise_px: float = 0.0,
                     rng: np.random.Generator | None = None) -> MarkerDetections:
    """The markers' exact projections (plus optional noise): the tracker's input without rendering."""
    rng = rng or np.random.default_rng(0)
    chosen = [m for m in LAYOUT.markers if ids is None or m.marker_id in ids]
    corners = np.stack([map_points(view.table_to_px, list(m.corners_mm)) for m in chosen])
    corners = corners + rng.normal(0.0, noise_px, corners.shape) if noise_px else corners
    return MarkerDetections(np.array([m.marker_id for m in chosen], dtype=np.int64), corners)


def test_given_too_few_markers_then_no_fit() -> None:
    view = PinholeView(tilt_deg=60)
    assert estimate_homography(_detections_from(view, [0]), LAYOUT) is None
    assert estimate_homography(_detections_from(view, [0, 2]), LAYOUT) is not None


def test_given_one_marker_detected_in_the_wrong_place_then_it_is_voted_out() -> None:
    view = PinholeView(tilt_deg=60)
    det = _detections_from(view)
    moved = det.corners_px.copy()
    moved[0] += 40.0  # marker 0 seen 40 px off (a false detection, a lifted corner)
    fit = estimate_homography(MarkerDetections(det.ids, moved), LAYOUT)
    assert fit is not None and 0 not in fit.marker_ids
    assert max_error_mm(fit.px_to_table, view.table_to_px, [(132.0, 95.0), (-150.0, -330.0)]) < 0.5


def test_given_jittery_detections_when_tracked_then_the_estimate_is_steadier_than_one_frame() -> None:
    view = PinholeView(tilt_deg=55)
    rng = np.random.default_rng(4)
    tracker = TableTracker(LAYOUT)
    probe = [(132.0, 95.0), (-150.0, -330.0), (415.0, -330.0)]
    single, tracked = [], []
    for _ in range(40):
        det = _detections_from(view, noise_px=0.8, rng=rng)
        update = tracker.update(det)
        one = estimate_homography(det, LAYOUT)
        assert one is not None and update.homography is not None
        single.append(max_error_mm(one.px_to_table, view.table_to_px, probe))
        tracked.append(max_error_mm(update.homography.px_to_table, view.table_to_px, probe))
    assert update.state is TrackState.LOCKED
    assert np.mean(tracked[10:]) < 0.8 * np.mean(single[10:])


def test_given_a_single_odd_frame_then_it_is_ignored_and_a_real_move_is_followed() -> None:
    before = PinholeView(tilt_deg=60)
    after = PinholeView(tilt_deg=60, yaw_deg=4.0, distance_mm=680.0)  # the camera was nudged
    tracker = TableTracker(LAYOUT, confirm_frames=3)
    for _ in range(5):
        tracker.update(_detections_from(before))
    odd = tracker.update(_detections_from(after))
    assert odd.rejected_frame and odd.state is TrackState.LOCKED
    assert odd.homography is not None
    assert max_error_mm(odd.homography.px_to_table, before.table_to_px, [(132.0, 95.0)]) < 0.2
    tracker.update(_detections_from(before))  # back to normal: the odd frame is forgotten
    states = [tracker.update(_detections_from(after)).state for _ in range(3)]
    assert states == [TrackState.LOCKED, TrackState.LOCKED, TrackState.MOVED]
    now = tracker.homography
    assert now is not None and max_error_mm(now.px_to_table, after.table_to_px, [(132.0, 95.0)]) < 0.2


def _moved_middle(before: PinholeView, after: PinholeView) -> tuple[float, float]:
    """How the play zone's middle moved in the picture from one view to the other."""
    middle = np.asarray(LAYOUT.zone("play").polygon_mm, np.float64).mean(axis=0)
    a, b = map_points(before.table_to_px, [tuple(middle)])[0], map_points(after.table_to_px, [tuple(middle)])[0]
    return float(b[0] - a[0]), float(b[1] - a[1])


def test_given_the_picture_itself_moved_then_a_fit_that_moved_with_it_is_followed_at_once() -> None:
    # given a tracker locked on a still camera
    before = PinholeView(tilt_deg=60)
    swayed = PinholeView(tilt_deg=60, target_mm=(138.5, 58.0))  # a springy stand swung: ~10 px
    tracker = TableTracker(LAYOUT, confirm_frames=3)
    for _ in range(5):
        tracker.update(_detections_from(before))
    # when the picture is known to have moved the same way (vision/picture_shift.py, to about a pixel)
    dx, dy = _moved_middle(before, swayed)
    followed = tracker.update(_detections_from(swayed), picture_moved=(dx + 0.8, dy - 0.6))
    # then the new fit is taken at once, not blended, and the frame is not held back
    assert not followed.rejected_frame and followed.state is TrackState.LOCKED and "followed" in followed.message
    assert followed.homography is not None
    assert max_error_mm(followed.homography.px_to_table, swayed.table_to_px, [(132.0, 95.0)]) < 0.2
    # and a smaller move, too, is taken whole (not blended, which would lag behind the camera)
    back_view = PinholeView(tilt_deg=60, target_mm=(135.0, 56.5))  # and swung back a little: ~4 px
    back = tracker.update(_detections_from(back_view), picture_moved=_moved_middle(swayed, back_view))
    assert back.homography is not None and not back.rejected_frame
    assert max_error_mm(back.homography.px_to_table, back_view.table_to_px, [(132.0, 95.0)]) < 0.2
    # but a fit that jumped while the picture stood still is an odd frame, as before
    far = PinholeView(tilt_deg=60, yaw_deg=4.0, distance_mm=680.0)
    assert tracker.update(_detections_from(far), picture_moved=(0.0, 0.0)).rejected_frame
    # and so is one that moved otherwise than the picture (a hand over some markers while the
    # picture seemed to move a little)
    tracker.update(_detections_from(back_view))
    assert tracker.update(_detections_from(swayed), picture_moved=(1.0, -0.4)).rejected_frame
    # and a knock of tens of pixels, even with the picture, is confirmed over three looks as before
    knocked = PinholeView(tilt_deg=60, target_mm=(160.0, 70.0))
    tracker.update(_detections_from(back_view))
    assert tracker.update(_detections_from(knocked), picture_moved=_moved_middle(back_view, knocked)).rejected_frame


def test_given_no_markers_for_a_while_then_the_mat_is_lost_and_found_again() -> None:
    view = PinholeView(tilt_deg=70)
    tracker = TableTracker(LAYOUT, lost_after=5)
    assert tracker.update(MarkerDetections.empty()).state is TrackState.SEARCHING
    tracker.update(_detections_from(view))
    states = [tracker.update(MarkerDetections.empty()).state for _ in range(5)]
    assert states[:4] == [TrackState.LOCKED] * 4 and states[4] is TrackState.LOST
    assert tracker.update(_detections_from(view)).state is TrackState.LOCKED


@pytest.mark.parametrize(("tilt_deg", "distance_mm"), [(90, 400), (90, 800), (45, 400)])
def test_given_a_view_then_px_per_mm_is_the_squashed_direction(tilt_deg: float, distance_mm: float) -> None:
    view = PinholeView(tilt_deg=tilt_deg, distance_mm=distance_mm, target_mm=(132.0, 95.0))
    focal = view.camera_matrix[0, 0]
    expected = focal / distance_mm * (np.sin(np.radians(tilt_deg)) if tilt_deg < 90 else 1.0)
    assert px_per_mm_at(view.table_to_px, 132.0, 95.0) == pytest.approx(expected, rel=0.03)


def test_given_the_mat_nudged_but_not_the_guide_tiles_then_the_frame_follows_the_play_sheet() -> None:
    view = PinholeView(tilt_deg=65, distance_mm=800, target_mm=(132.0, -80.0))
    det = _detections_from(view)
    # the PLAY sheet slid 12 mm right and turned 2 degrees on the table; the guides stayed
    angle, shift = np.radians(2.0), np.array([12.0, 0.0])
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    moved = det.corners_px.copy()
    for k, marker_id in enumerate(det.ids.tolist()):
        if LAYOUT.marker(marker_id).role == "anchor":
            mm = np.asarray(LAYOUT.marker(marker_id).corners_mm) @ rot.T + shift
            moved[k] = map_points(view.table_to_px, mm)
    fit = estimate_homography(MarkerDetections(det.ids, moved), LAYOUT)
    assert fit is not None and set(fit.marker_ids) == {0, 1, 2, 3, 4, 5}
    # a card at the play zone's centre is found where it lies relative to the sheet
    true_mm = np.array([132.5, 95.0]) @ rot.T + shift
    seen_mm = fit.to_table_mm(map_points(view.table_to_px, true_mm[None, :]))[0]
    assert np.linalg.norm(seen_mm - [132.5, 95.0]) < 0.5
