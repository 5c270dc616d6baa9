"""Each card alone in the play zone, under six light conditions: found in how many frames?

Not a test and not training: the figure the dealer must meet ("each real card alone in the play
zone, under 6 light conditions, is found in at least 99 % of frames"). For every card
and condition (plain, lamp gradient, warm, cold, dim, black-and-white kit) the printed
mat is rendered at 1920x1080 by :func:`vision.synthetic.single.zone_cards_scene`: first
``--empty`` frames of the empty zone (as the dealer sees it before a card is laid),
then ``--card-frames`` frames with the card (other sensor noise each). Each frame's
play-zone crop goes through ``CardReader.read_zone`` (what the live observer calls).

``--arrangement``: ``anywhere`` (one card anywhere in the zone, often against its border,
now and then laid across), ``border`` (a side 0-4 mm inside the zone's printed border or
up to 8 mm over it), ``pair`` (each card with the next one, side by side a finger's
width, 10-20 mm, apart), ``touching`` (a pair side by side touching, up to 2 mm over each
other or 1 mm apart, not lined up: a batch as players lay it), ``row`` (each card with the
next two, a finger's width apart: the most the play zone holds, ~60 % of it covered). ``--tilt LO,HI`` draws the
camera's tilt from a range; ``--tilt 30,45,90`` (three or more values) takes them in turn.

Counts per condition: card-frames in which the card was found (IoU >= 0.8 with the
truth), readings right / wrong (a sure wrong card) / unsure, extra rectangles (no card
there), and per read_zone call the wall-clock milliseconds and the processor
milliseconds of this process (on a shared machine the wall clock counts other jobs).
With ``-v`` each miss, unsure or wrong reading is printed with ``--only C,K,N``, which
renders and reads that scene alone again (with ``--save DIR``: drawn into a picture).

Cards: the 52 real photographed cards (their own photo light, cut out) and, as a held-out
check that nothing is tuned to those photos, designs never used for training or tuning
(models/MODEL_CARD.md test designs: gnome ``bellot``, KDE ``penguins`` by default;
rendered into ``cache/cards`` when missing).

Run: ``python3 bench/single_cards.py [--quick] [--designs real,gnome-bellot] [--arrangement pair] [-v]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from calibration.layout import ZONE_PLAY, default_layout
from vision.classify import Classifier, FakeClassifier, OnnxClassifier
from vision.geometry import quad_iou
from vision.pipeline import CardReader
from vision.synthetic import ALL_CONDITIONS, LIGHT_CONDITIONS, CardFace, real_card_faces
from vision.synthetic.single import ARRANGEMENTS, CARDS_LAID, zone_cards_scene
from vision.zone_view import crop_box

RENDERS = Path(__file__).resolve().parents[1] / "cache" / "cards"
HELD_OUT = ("gnome-bellot", "kde-penguins")


@dataclass
class Tally:
    frames: int = 0
    found: int = 0
    right: int = 0
    wrong: int = 0
    unsure: int = 0
    extra: int = 0
    ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)  # processor time of this process (all its threads)
    missed: list[str] = field(default_factory=list)

    def line(self, name: str) -> str:
        pct = 100.0 * self.found / max(self.frames, 1)
        ms = float(np.median(self.ms)) if self.ms else 0.0
        worst = float(np.max(self.ms)) if self.ms else 0.0
        cpu = float(np.median(self.cpu_ms)) if self.cpu_ms else 0.0
        return (f"{name:<8} {self.frames:5d} frames  found {self.found:5d} ({pct:5.1f} %)  right {self.right:5d}  "
                f"wrong {self.wrong:3d}  unsure {self.unsure:4d}  extra {self.extra:3d}  "
                f"ms/read median {ms:5.1f} max {worst:6.1f}  cpu ms median {cpu:5.1f}")


def design_faces(name: str) -> list[CardFace]:
    if name == "real":
        return real_card_faces()
    from bench.harness.make_demo import load_faces

    folder = RENDERS / name
    if not (folder / "done").exists():
        from models.render_cards import discover_designs, render_design

        for design in discover_designs():
            if design.name == name:
                render_design(design, RENDERS)
    return list(load_faces(folder).values())


def _save(folder: Path, name: str, crop: np.ndarray, truth: np.ndarray, found: np.ndarray) -> None:
    """The crop with the true cards (green) and the quads found (red)."""
    import cv2

    folder.mkdir(parents=True, exist_ok=True)
    img = crop.copy()
    for q in truth:
        cv2.polylines(img, [np.round(q).astype(np.int32)], True, (0, 200, 0), 2)
    for q in found:
        cv2.polylines(img, [np.round(q).astype(np.int32)], True, (0, 0, 255), 1)
    cv2.imwrite(str(folder / f"{name}.jpg"), img)


def run_design(faces: Sequence[CardFace], classifier: Classifier, conditions: Sequence[str],
               per_card: int, empty: int, card_frames: int, seed: int, size: tuple[int, int],
               tilts: Sequence[float], verbose: bool, arrangement: str = "anywhere",
               only: tuple[int, int, int] | None = None, save: Path | None = None,
               whole_mat: bool = False) -> dict[str, Tally]:
    """Each card (with the next one for a pair) in each condition, ``per_card`` scenes;
    a tilt range ``(lo, hi)`` is drawn from, any other list of tilts is taken in turn."""
    layout = default_layout()
    zone = np.asarray(layout.zone(ZONE_PLAY).polygon_mm, np.float64)
    tallies = {c: Tally() for c in conditions}
    n_cards = CARDS_LAID.get(arrangement, 1)
    for condition in conditions:
        tally = tallies[condition]
        for fi, face in enumerate(faces):
            for k in range(per_card):
                # one generator per scene: any miss can be rendered again alone (--only)
                scene_seed = (seed, ALL_CONDITIONS.index(condition), fi, k)
                if only is not None and scene_seed[1:] != only:
                    continue
                rng = np.random.default_rng(scene_seed)
                drawn = float(rng.uniform(tilts[0], tilts[-1]))
                tilt = drawn if len(tilts) == 2 else float(tilts[(fi + k) % len(tilts)])
                laid = tuple(faces[(fi + j) % len(faces)] for j in range(n_cards))
                shot = zone_cards_scene(laid, condition, tilt, rng, arrangement, layout, size, empty_frames=empty,
                                        card_frames=card_frames, whole_mat=whole_mat)
                reader = CardReader(classifier)
                box = crop_box(zone, shot.scene.table_to_px, size)
                if box is None:
                    continue
                x0, y0, x1, y1 = box
                to_table = np.linalg.inv(shot.scene.table_to_px) @ np.array([[1.0, 0, x0], [0, 1.0, y0], [0, 0, 1]])
                for frame in shot.empty_bgr:
                    reader.read_zone(np.ascontiguousarray(frame[y0:y1, x0:x1]), to_table, ZONE_PLAY, zone)
                for frame in shot.card_bgr:
                    crop = np.ascontiguousarray(frame[y0:y1, x0:x1])
                    start, cpu = time.perf_counter(), time.process_time()
                    reading = reader.read_zone(crop, to_table, ZONE_PLAY, zone)
                    tally.ms.append(1000.0 * (time.perf_counter() - start))
                    tally.cpu_ms.append(1000.0 * (time.process_time() - cpu))
                    matched: set[int] = set()
                    bad = False
                    for card_face, quad in zip(laid, shot.quads_px, strict=True):
                        tally.frames += 1
                        truth = (quad - [x0, y0]).astype(np.float32)
                        ious = [quad_iou(q, truth) for q in reading.cards.quad_xy]
                        hit = [i for i, v in enumerate(ious) if v >= 0.8]
                        matched.update(i for i, v in enumerate(ious) if v >= 0.3)
                        where = f"{condition}, {tilt:.0f} deg, --only {','.join(map(str, scene_seed[1:]))}"
                        label = reading.cards.label[hit[0]] if hit else None
                        bad = bad or label != card_face.card
                        if not hit:
                            tally.missed.append(f"{card_face.card} at {tilt:.0f} deg")
                            if verbose:
                                best = max(ious, default=0.0)
                                print(f"  missed {card_face.card} ({where}; best IoU {best:.2f}, "
                                      f"{len(ious)} quads)", flush=True)
                            continue
                        tally.found += 1
                        if label is None:
                            tally.unsure += 1
                            if verbose:
                                print(f"  unsure {card_face.card} ({where}; "
                                      f"{float(reading.cards.confidence[hit[0]]):.2f})", flush=True)
                        elif label == card_face.card:
                            tally.right += 1
                        else:
                            tally.wrong += 1
                            if verbose:
                                print(f"  WRONG: {card_face.card} read as {label} ({where})", flush=True)
                    tally.extra += len(reading.cards) - len(matched)
                    if save is not None and (only is not None or bad):
                        _save(save, f"{condition}-{'-'.join(map(str, scene_seed[1:]))}", crop,
                              shot.quads_px - [x0, y0], reading.cards.quad_xy)
        if verbose:
            print("  " + tally.line(condition), flush=True)
    return tallies


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--designs", default="real," + ",".join(HELD_OUT),
                        help="comma-separated: 'real' and/or designs under cache/cards")
    parser.add_argument("--conditions", default=",".join(LIGHT_CONDITIONS))
    parser.add_argument("--per-card", type=int, default=1, help="scenes per card and condition")
    parser.add_argument("--empty", type=int, default=3, help="empty-zone frames before the card (0: first sight)")
    parser.add_argument("--card-frames", type=int, default=1,
                        help="frames of the card lying there (other sensor noise each; each frame counts)")
    parser.add_argument("--tilt", default="30,90",
                        help="tilt in degrees: a range LO,HI drawn from, or 3+ values (or one) taken in turn")
    parser.add_argument("--arrangement", default="anywhere", choices=ARRANGEMENTS,
                        help="one card anywhere, one at the zone's border, or a pair a finger's width apart")
    parser.add_argument("--only", default=None, metavar="COND,CARD,K",
                        help="render and read one scene again (as printed with -v)")
    parser.add_argument("--whole-mat", action="store_true",
                        help="the camera frames the whole mat, not the play zone (cards smaller)")
    parser.add_argument("--save", type=Path, default=None, metavar="DIR",
                        help="save each frame with a miss (or the --only scene) with the truth and the quads found")
    parser.add_argument("--quick", action="store_true", help="13 cards of each design")
    parser.add_argument("--no-classifier", action="store_true", help="find only, do not read")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    tilts = [float(v) for v in args.tilt.split(",")]
    if len(tilts) == 1:
        tilts = tilts * 3
    only = tuple(int(v) for v in args.only.split(",")) if args.only else None
    conditions = [c.strip() for c in args.conditions.split(",") if c.strip()]
    bad = [c for c in conditions if c not in ALL_CONDITIONS]
    if bad:
        print(f"single_cards: unknown condition(s) {bad}; known: {', '.join(ALL_CONDITIONS)}", file=sys.stderr)
        return 2
    classifier: Classifier = FakeClassifier() if args.no_classifier else OnnxClassifier()
    size = (1920, 1080)
    what = "a range" if len(tilts) == 2 else "each in turn"
    framing = "the whole mat in view" if args.whole_mat else "the play zone filling the view"
    print(f"{args.arrangement} cards in the play zone ({framing}), {size[0]}x{size[1]}, tilt {args.tilt} deg ({what}), "
          f"{args.empty} empty frame(s) first, {args.card_frames} card frame(s)")
    for name in (d.strip() for d in args.designs.split(",") if d.strip()):
        faces = design_faces(name)
        if not faces:
            print(f"{name}: no card faces found (skipped)")
            continue
        if args.quick:
            faces = faces[::4]
        tallies = run_design(faces, classifier, conditions, args.per_card, args.empty, args.card_frames,
                             args.seed, size, tilts, args.verbose, args.arrangement,
                             only if only is None else (only[0], only[1], only[2]), args.save, args.whole_mat)
        print(f"{name}: {len(faces)} cards")
        total = Tally()
        for condition, tally in tallies.items():
            print("  " + tally.line(condition))
            for key in ("frames", "found", "right", "wrong", "unsure", "extra"):
                setattr(total, key, getattr(total, key) + getattr(tally, key))
            total.ms += tally.ms
            total.cpu_ms += tally.cpu_ms
        print("  " + total.line("all"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
