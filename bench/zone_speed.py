"""What reading the zones costs per frame in `eleusis play`: the observer (markers, tokens,
each readable zone through ``CardReader.read_zone``) on rendered 1920x1080 frames.

Not a test: `eleusis play` must follow a hand at >= 15 frames a second at 1920x1080 on the
2-core machine. Frames: the empty mat, then a hand laying two real cards (a new hand
position each frame: every frame is looked at in full), the cards lying still, then an arm
reaching across the play zone from the players' edge to the layout beyond it and back (as
players do every turn to move cards to the line), with the cards lying there.
Printed per phase: processor milliseconds per frame of this process (all its threads;
on a shared machine the wall clock counts other jobs) and the wall-clock median, and
frames per processor second over all frames. Decoding the video or camera frame and
the session's own work come on top.

Run: ``python3 bench/zone_speed.py [--frames N] [--condition lamp] [--tilt 60]``.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from calibration.layout import default_layout
from dealer.table.observer import TableObserver
from vision.classify import OnnxClassifier
from vision.pipeline import CardReader
from vision.synthetic import (LIGHT_CONDITIONS, CardPlacement, HandPlacement, PinholeView, real_card_faces,
                              render_table_scene, scene_condition)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--frames", type=int, default=10, help="frames of each phase")
    parser.add_argument("--condition", default="lamp", choices=LIGHT_CONDITIONS)
    parser.add_argument("--tilt", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    layout = default_layout()
    faces = {str(f.card): f for f in real_card_faces()}
    if not faces:
        print("zone_speed: the real card photos are not here", file=sys.stderr)
        return 2
    rng = np.random.default_rng(args.seed)
    light, kit = scene_condition(args.condition, rng)
    view = PinholeView(tilt_deg=args.tilt, distance_mm=420.0, target_mm=(132.0, 95.0), size_wh=(1920, 1080))
    cards = tuple(CardPlacement(n, (x, 95.0), 0.0, faces[n].image_bgr, faces[n].alpha)
                  for n, x in (("AS", 90.0), ("7H", 175.0)))
    n = args.frames

    def frame(with_cards: bool, hand: int | None, arm: float | None = None) -> np.ndarray:
        hands = () if hand is None else (HandPlacement((130.0 + 8 * hand, 125.0 - 4 * hand)),)
        if arm is not None:  # the fingertip from the players' edge (y 200 mm) to the main line (y -270 mm)
            tip_y = 200.0 - 470.0 * arm
            hands = (HandPlacement((150.0 - 30.0 * arm, tip_y), angle_deg=-10.0, reach_mm=max(380.0, 400.0 - tip_y)),)
        return render_table_scene(layout, view, cards=cards if with_cards else (), lighting=light, rng=rng,
                                  table="oak", kit_print=kit, hands=hands).frame_bgr

    phases = {"empty": [frame(False, None) for _ in range(n)],
              "hand moving": [frame(True, k) for k in range(n)],
              "cards still": [frame(True, None) for _ in range(n)],
              "arm across": [frame(True, None, 1.0 - abs(1.0 - 2.0 * k / max(1, n - 1))) for k in range(n)]}
    observer = TableObserver(layout, CardReader(OnnxClassifier()))
    observer.observe(phases["empty"][0], 0.0, 0)  # the mat is found once (markers over the whole frame)
    print(f"observer per 1920x1080 frame, {args.condition}, tilt {args.tilt:.0f} deg, {n} frames a phase")
    index, cpu_all, wall_all = 1, [], []
    for name, frames in phases.items():
        cpu, wall = [], []
        for bgr in frames:
            start, c0 = time.perf_counter(), time.process_time()
            seen = observer.observe(bgr, index / 15.0, index)
            wall.append(1000.0 * (time.perf_counter() - start))
            cpu.append(1000.0 * (time.process_time() - c0))
            index += 1
        cpu_all += cpu
        wall_all += wall
        read = [str(c.card) for c in seen.view.play_cards] if seen.view else []
        print(f"  {name:<12} cpu ms median {np.median(cpu):5.1f} max {np.max(cpu):5.1f}  "
              f"wall ms median {np.median(wall):5.1f}  play zone at the end: {read}")
    print(f"  all          {1000.0 / float(np.mean(cpu_all)):.1f} frames per processor second, "
          f"{1000.0 / float(np.mean(wall_all)):.1f} per wall-clock second")
    arm_cpu, arm_wall = cpu_all[-n:], wall_all[-n:]
    print(f"  arm across   {1000.0 / float(np.mean(arm_cpu)):.1f} frames per processor second, "
          f"{1000.0 / float(np.mean(arm_wall)):.1f} per wall-clock second")
    return 0


if __name__ == "__main__":
    sys.exit(main())
