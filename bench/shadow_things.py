"""What a shadow coming over the play zone does to what lies there: rendered zones, one
``ZoneWatch`` each (vision/occupancy.py), not a test.

Two sweeps, each over seeds and lights, with the empty zone learned first:

- ``thing``: a thing (a phone, a wallet: 50 x 60 mm, lit as the mat round it, in
  brightness, not in the print's colour) lies inside the zone, away from its outline, for 3
  frames; then a player leans over and a still shadow's straight edge crosses the zone for 6
  frames. Counted: zones where the dealer still sees something there in the last frame
  (unexplained, or found as a card). ``--albedo grey`` (the default) or ``brown``.
- ``touching``: two cards lie touching (their long sides in one line) for 3 frames; then
  the shadow comes for 6; then the cards are taken away, the shadow staying, for 6. Each
  zone's last frame with the cards is one of: ``both`` found (and nothing else there);
  ``asks`` (a card not found and something unexplained there, or more than two cards: the
  dealer asks); ``lost`` (a card not found and nothing else there: a picture judged without
  it). Counted too: zones seen empty in the last frame once the cards are gone.

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


def touching_outcome(light_name: str, seed: int) -> tuple[str, bool]:
    """``both``, ``asks`` or ``lost`` (see the module's text), and whether the zone is seen
    empty once the cards are taken away."""
    rng = np.random.default_rng(500 + seed)
    light, kit = scene_condition(light_name, rng)
    watch = _watch(light, kit, rng)
    x, y = float(rng.uniform(60, 140)), float(rng.uniform(85, 105))
    cards = (CardPlacement("KS", (x, y), 0.0), CardPlacement("9C", (x + 63.5, y), 0.0))
    shadowed = _shadowed(light, rng)
    looks = [watch.look(crop, to_table).occupancy
             for crop, to_table in _frames(light, kit, rng, 3, cards) + _frames(shadowed, kit, rng, 6, cards)]
    after = [watch.look(crop, to_table).occupancy for crop, to_table in _frames(shadowed, kit, rng, 6)]
    last = looks[-1]
    if last.cards == 2 and last.unexplained_fraction <= 0.02:
        outcome = "both"
    elif last.cards > 2 or last.unexplained_fraction > 0.02:
        outcome = "asks"
    else:
        outcome = "lost"
    return outcome, not after[-1].occupied


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sweep", choices=("thing", "touching"), default="thing")
    parser.add_argument("--seeds", type=int, default=16)
    parser.add_argument("--lights", default="plain,bw_kit,warm,lamp")
    parser.add_argument("--albedo", choices=sorted(ALBEDO), default="grey")
    args = parser.parse_args(argv)
    if args.sweep == "touching":
        return _touching(args.lights.split(","), args.seeds)
    total = good = 0
    for light_name in args.lights.split(","):
        missed = [seed for seed in range(args.seeds) if not thing_seen(light_name, seed, ALBEDO[args.albedo])]
        good += args.seeds - len(missed)
        total += args.seeds
        print(f"{light_name:8s} {args.seeds - len(missed)}/{args.seeds}  missed at seeds {missed}", flush=True)
    print(f"all: {good}/{total} zones with the thing still seen after the shadow came")
    return 0


def _touching(lights: list[str], seeds: int) -> int:
    tally = {"both": 0, "asks": 0, "lost": 0}
    emptied = 0
    for light_name in lights:
        outcomes = {seed: touching_outcome(light_name, seed) for seed in range(seeds)}
        for outcome, empty in outcomes.values():
            tally[outcome] += 1
            emptied += empty
        print(f"{light_name:8s} both {sum(o == 'both' for o, _ in outcomes.values())}/{seeds}"
              f"  asks at seeds {[s for s, (o, _) in outcomes.items() if o == 'asks']}"
              f"  lost at seeds {[s for s, (o, _) in outcomes.items() if o == 'lost']}"
              f"  not seen empty after at seeds {[s for s, (_, e) in outcomes.items() if not e]}", flush=True)
    total = seeds * len(lights)
    print(f"all: {total} zones: both cards found in {tally['both']}, the dealer asks in {tally['asks']}, "
          f"a card lost unsaid in {tally['lost']}; seen empty once the cards are gone in {emptied}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
