"""How fine the picture must be for the card reader: its accuracy against pixels per mm.

    python -m bench.readable_scale [--faces FOLDER] [--distances 430 520 ...] [--frames 6]

Cards (photographs of a real deck, or renders) are laid three at a time in the play zone
of the rendered mat and filmed from further and further away (the demo's camera, 1280x720);
each frame is read by the dealer's own observer and reader, as in a round. For each
distance it prints the pixels per mm at the play zone's farthest card place (where the
table check judges it, calibration/check.py) and the share of cards read right. The reader's
threshold for the table check (``readable_px_per_mm`` in models/card_classifier.json) is
measured by bench/small_cards.py, on far more cards of every standard test set.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from calibration.check import zone_sights
from calibration.layout import ZONE_PLAY, default_layout
from calibration.table import px_per_mm_at
from bench.harness.make_demo import Step, load_faces, render_steps
from dealer.table.observer import TableObserver
from vision.synthetic import CardFace, PinholeView

FACES = Path("/work/shared/data/real-cards/single")


def accuracy_at(faces: dict[str, CardFace], distance_mm: float, frames: int,
                seed: int = 5, tilt_deg: float = 62.0) -> tuple[float | None, float | None, int, int]:
    """(px/mm at the play zone's centre, where the cards lie, and at its coarsest card
    place; cards read right; cards laid)."""
    from dealer.app.live import default_reader

    rng = random.Random(seed)
    labels = sorted(faces)
    steps = tuple(Step(tuple(rng.sample(labels, 3)), (), 1.0) for _ in range(frames))
    view = PinholeView(tilt_deg=tilt_deg, distance_mm=distance_mm, target_mm=(132.5, 95.0), size_wh=(1280, 720))
    layout = default_layout()
    observer = TableObserver(layout, default_reader())
    right = laid = 0
    scale = centre = None
    for k, (step, frame) in enumerate(zip(steps, render_steps(steps, faces, seed=seed, view=view, fps=1.0))):
        obs = observer.observe(frame, float(k), k)
        if observer.tracker.homography is not None and scale is None:
            h = frame.shape[:2]
            sight = zone_sights(observer.tracker.homography.table_to_px, (h[1], h[0]), layout)[ZONE_PLAY]
            scale = sight.coarsest_px_per_mm
            cx, cy = layout.zone(ZONE_PLAY).centre_mm
            centre = px_per_mm_at(observer.tracker.homography.table_to_px, cx, cy)
        read = [str(c) for c in obs.play_detections.label if c is not None] if obs.view is not None else []
        laid += len(step.cards)
        right += sum(1 for c in step.cards if c in read)
    return centre, scale, right, laid


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--faces", type=Path, default=FACES)
    parser.add_argument("--distances", type=float, nargs="+", default=[380, 430, 480, 530, 580, 630, 680])
    parser.add_argument("--frames", type=int, default=6)
    parser.add_argument("--tilt", type=float, default=62.0, help="the camera's angle to the table (90: straight down)")
    args = parser.parse_args(argv)
    faces = {label.upper(): face for label, face in load_faces(args.faces).items()}
    if len(faces) < 10:
        print(f"no card faces in {args.faces}", file=sys.stderr)
        return 2
    print("distance_mm  px/mm at the centre  at the coarsest place  read/laid")
    for d in args.distances:
        centre, scale, right, laid = accuracy_at(faces, d, args.frames, tilt_deg=args.tilt)
        print(f"{d:8.0f}  {_num(centre):>10}  {_num(scale):>10}  {right}/{laid}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
