"""Real card photographs laid on rendered tables, read by the whole pipeline.

Not a test and not training: a check-only figure for the model card and the closing note.
The 52 real single cards of ``../shared/data/real-cards/single`` (see its README) are
pasted 8 to a 1920x1080 frame on rendered tables at a camera tilt, then ``read_frame``
(with the table homography, as the live dealer uses it) finds and reads them. Counts:
found, right, wrong (a confident wrong reading), unsure.

Run: ``python3 bench/real_cards_on_tables.py [--folder PATH] [--frames 14]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from engine.cards import Card
from vision.classify import OnnxClassifier
from vision.geometry import match_quads
from vision.pipeline import CardReader
from vision.synthetic import render_scene

DEFAULT = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "real-cards" / "single"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--folder", type=Path, default=DEFAULT)
    parser.add_argument("--frames", type=int, default=14, help="frames per tilt range (8 cards each)")
    args = parser.parse_args(argv)
    photos = sorted(args.folder.glob("*.jpg"))
    if not photos:
        print(f"no photos in {args.folder}", file=sys.stderr)
        return 2
    faces = [(Card.parse(p.stem), cv2.imread(str(p))) for p in photos]
    reader = CardReader(OnnxClassifier())
    rng = np.random.default_rng(2026)
    for lo, hi in ((45.0, 90.0), (30.0, 45.0)):
        found = right = wrong = total = 0
        for _ in range(args.frames):
            pick = rng.choice(len(faces), 8, replace=False)
            labels = [faces[i][0] for i in pick]
            scene = render_scene(rng, 8, tilt_deg=float(rng.uniform(lo, hi)), labels=labels,
                                 background=str(rng.choice(["wood", "cloth", "paper", "dark"])),
                                 face_images=[faces[i][1] for i in pick])
            read = reader.read_frame(scene.bgr, np.linalg.inv(scene.table_to_image))
            pairs = match_quads(scene.truth.quad_xy, read.quad_xy)
            total += len(scene.truth)
            for t, r, _iou in pairs:
                found += 1
                got = read.label[r]
                if got is None:
                    continue
                if got == scene.truth.label[t]:
                    right += 1
                else:
                    wrong += 1
                    print(f"  wrong: {scene.truth.label[t]} read as {got} at {read.confidence[r]:.3f}")
        print(f"tilt {lo:.0f}-{hi:.0f} degrees, {args.frames} frames: {total} cards, {found} found, "
              f"{right} right ({100 * right / total:.1f} %), {wrong} wrong ({100 * wrong / total:.2f} %), "
              f"{found - right - wrong} found but unsure")
    return 0


if __name__ == "__main__":
    sys.exit(main())
