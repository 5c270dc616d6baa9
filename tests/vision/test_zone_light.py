"""The light model of a zone (vision/zone_light.py): row bands, a shadow's straight edge and a
smooth gain field, fitted on the bare mat, explain the light and nothing else (docs/vision.md)."""

from __future__ import annotations

import numpy as np

from vision.zone_light import Light, LightModel
from vision.zone_view import RectifiedZone, ZoneWindow

PX_PER_MM = 2.0
WINDOW = ZoneWindow.around(np.array([(0.0, 0.0), (200.0, 0.0), (200.0, 100.0), (0.0, 100.0)]), 20.0, PX_PER_MM)
PRINT = (5.2, 5.3, 5.1)  # the printed zone's log colour


def _view() -> RectifiedZone:
    w, h = WINDOW.size_px
    # the crop seen straight from above: the view's rows are the camera's rows
    return RectifiedZone(np.zeros((h, w, 3), np.uint8), np.ones((h, w), bool), WINDOW, np.eye(3))


def _grid() -> tuple[np.ndarray, np.ndarray]:
    w, h = WINDOW.size_px
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    return xs, ys


def _look() -> np.ndarray:
    xs, ys = _grid()
    lamp = 0.3 * xs / xs.max()  # the lamp's gradient the look was learned under
    return np.dstack([p + lamp for p in PRINT]).astype(np.float32)


def _shade(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """A still shadow's soft straight edge: 0 in full light, -0.4 in its shade."""
    return np.asarray(-0.4 * (0.5 + 0.5 * np.tanh((xs - 0.5 * ys - 250.0) / 6.0)), np.float32)


def _card(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    return (xs > 100) & (xs < 227) & (ys > 90) & (ys < 268)


def test_one_light_explains_bands_a_shadows_edge_and_a_drift_on_the_bare_mat_and_not_a_card() -> None:
    look, (xs, ys) = _look(), _grid()
    bands = 0.08 * np.sin(ys / 9.0)  # a flickering light along the camera's rows
    drift = 0.1 + 0.15 * (ys / ys.max()) ** 2  # the room's light since the look was learned
    step = _shade(xs, ys)
    frame = look + (bands + drift + step)[..., None]
    card = _card(xs, ys)
    frame[card] += np.array([0.5, 0.35, 0.65], np.float32)  # a white card on the print
    frame = np.asarray(frame, np.float32)
    model = LightModel(PX_PER_MM)
    found = model.edge(np.asarray(frame - look, np.float32), ~card)
    assert found is not None
    rim = np.zeros(card.shape, bool)
    rim[:, :20] = rim[:, -20:] = True  # the bare outline band, both halves of every row
    light = model.fit(_view(), frame, look, rim, step=found)
    assert light.bands is not None and light.step is not None
    bare = ~card & (np.abs(xs - 0.5 * ys - 250.0) > 30)  # away from the edge's penumbra
    light = light.fit_gain(light.flat(frame), look, bare)
    left = np.max(np.abs(light.flat(frame) - light.explain(look)), axis=2)
    assert np.percentile(left[bare], 99) < 0.05  # the light is explained
    assert np.median(left[card]) > 0.3  # the card is not


def test_without_a_step_the_bands_are_all_of_the_light_taken_out_before_the_look_is_learned() -> None:
    look, (_, ys) = _look(), _grid()
    bands = (0.1 * np.sin(ys / 12.0)).astype(np.float32)
    frame = np.asarray(look + bands[..., None], np.float32)
    rim = np.zeros(ys.shape, bool)
    rim[:, :20] = rim[:, -20:] = True
    light = LightModel(PX_PER_MM).fit(_view(), frame, look, rim)
    assert light.step is None and light.bands is not None
    assert float(np.abs(light.unbanded(frame) - look).max()) < 0.02
    # a frame with nothing to measure its bands against has none
    assert LightModel(PX_PER_MM).fit(_view(), frame, None, rim).bands is None


def test_before_the_zone_is_seen_empty_the_print_itself_is_the_smooth_field() -> None:
    xs, ys = _grid()
    frame = _look()
    card = _card(xs, ys)
    frame[card] += np.array([0.5, 0.35, 0.65], np.float32)
    light = Light().fit_gain(frame, None, np.ones(card.shape, bool))
    left = np.max(np.abs(frame - light.explain(None)), axis=2)
    assert np.percentile(left[~card], 95) < 0.03 and np.median(left[card]) > 0.3
