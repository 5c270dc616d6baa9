"""What a shadow coming over the play zone does to what lies there: rendered zones, one
``ZoneWatch`` each (vision/occupancy.py), not a test.

Two sweeps, each over seeds and lights, with the empty zone learned first:

- ``thing``: a thing (a phone, a wallet: 50 x 60 mm, lit as the mat round it, in
  brightness, not in the print's colour) lies inside the zone, away from its outline, for 3
  frames; then a player leans over and a still shadow's straight edge crosses the zone for 6
  frames. Counted: zones where the dealer still sees something there in the last frame
  (unexplained, or found as a card). ``--albedo grey`` (the default) or ``brown``.
- ``touching``: two cards lie touching (their long sides in one line) for 3 frames; then
  the shadow comes for 6. Counted: zones where both cards are still found in the last frame.

Run: ``python3 bench/shadow_things.py [--sweep thing|touching] [--seeds 16] [--lights plain,bw_kit,warm,lamp]``.
"""

from __future__ import annotations

import argparse

import numpy as np
import numpy.typing as npt

from calibration.layout import ZONE_PLAY, default_layout
from vision.occupancy import Occupancy, ZoneWatch
from vision.synthetic import CardPlacement, PinholeView, render_table_scene, scene_condition, with_shadow_of, with_thing
from vision.synthetic.light import Lighting
from vision.zone_view import crop_box

LAYOUT = default_layout()
ZONE = np.asarray(LAYOUT.zone(ZONE_PLAY).polygon_mm)
SIZE = (960, 540)
VIEW = PinholeView(tilt_deg=60.0, distance_mm=330.0, target_mm=(132.5, 93.0), size_wh=SIZE)
ALBEDO = {"grey": (0.45, 0.45, 0.45), "brown": (0.25, 0.4, 0.6)}  # BGR
Frame = tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64]]  # the zone's crop, crop px -> table mm


def _frames(light: Lighting, kit: str, rng: np.random.Generator, n: int,
            cards: tuple[CardPlacement, ...] = ()) -> list[Frame]:
    out = []
    for _ in range(n):
        scene = render_table_scene(LAYOUT, VIEW, lighting=light, rng=rng, kit_print=kit, cards=cards)
        box = crop_box(ZONE, scene.table_to_px, SIZE)
        if box is None:
            raise SystemExit("the play zone is out of the rendered picture: the view must see it")
        x0, y0, x1, y1 = box
        to_table = np.linalg.inv(scene.table_to_px) @ np.array([[1.0, 0, x0], [0, 1.0, y0], [0, 0, 1]])
        out.append((scene.frame_bgr[y0:y1, x0:x1], to_table))
    return out


def _with_thing(frames: list[Frame], box_mm: tuple[float, float, float, float],
                albedo: tuple[float, float, float]) -> list[Frame]:
    return [(with_thing(crop, to_table, box_mm, albedo), to_table) for crop, to_table in frames]


def _shadowed(light: Lighting, rng: np.random.Generator) -> Lighting:
    return with_shadow_of(light, scene_condition("shadow", rng)[0])


def _watch(light: Lighting, kit: str, rng: np.random.Generator) -> ZoneWatch:
    watch = ZoneWatch(ZONE)
    for crop, to_table in _frames(light, kit, rng, 3):
        watch.look(crop, to_table)
    return watch


def thing_seen(light_name: str, seed: int, albedo: tuple[float, float, float]) -> bool:
    rng = np.random.default_rng(1000 + seed)
    light, kit = scene_condition(light_name, rng)
    watch = _watch(light, kit, rng)
    x, y = float(rng.uniform(20, 190)), float(rng.uniform(50, 80))  # inside, 8 mm or more from the outline
    box = (x, y, x + 50.0, y + 60.0)
    shadowed = _shadowed(light, rng)
    last: Occupancy | None = None
    for crop, to_table in _with_thing(_frames(light, kit, rng, 3), box, albedo) + _with_thing(
            _frames(shadowed, kit, rng, 6), box, albedo):
        last = watch.look(crop, to_table).occupancy
    assert last is not None
    return last.unexplained_fraction > 0.02 or last.cards > 0


def touching_kept(light_name: str, seed: int) -> bool:
    rng = np.random.default_rng(500 + seed)
    light, kit = scene_condition(light_name, rng)
    watch = _watch(light, kit, rng)
    x, y = float(rng.uniform(60, 140)), float(rng.uniform(85, 105))
    cards = (CardPlacement("KS", (x, y), 0.0), CardPlacement("9C", (x + 63.5, y), 0.0))
    shadowed = _shadowed(light, rng)
    looks = [watch.look(crop, to_table).occupancy
             for crop, to_table in _frames(light, kit, rng, 3, cards) + _frames(shadowed, kit, rng, 6, cards)]
    return looks[-1].cards == 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sweep", choices=("thing", "touching"), default="thing")
    parser.add_argument("--seeds", type=int, default=16)
    parser.add_argument("--lights", default="plain,bw_kit,warm,lamp")
    parser.add_argument("--albedo", choices=sorted(ALBEDO), default="grey")
    args = parser.parse_args(argv)
    total = good = 0
    for light_name in args.lights.split(","):
        missed = [seed for seed in range(args.seeds)
                  if not (thing_seen(light_name, seed, ALBEDO[args.albedo]) if args.sweep == "thing"
                          else touching_kept(light_name, seed))]
        good += args.seeds - len(missed)
        total += args.seeds
        print(f"{light_name:8s} {args.seeds - len(missed)}/{args.seeds}  missed at seeds {missed}", flush=True)
    what = "the thing still seen" if args.sweep == "thing" else "both touching cards still found"
    print(f"all: {good}/{total} zones with {what} after the shadow came")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
