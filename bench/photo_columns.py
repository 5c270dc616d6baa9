"""Photos of overlapped columns, read as `eleusis read` reads a picture without the mat.

Check-only figures: each picture is one column of 3-5 cards of one design
(:func:`vision.synthetic.columns.render_overlaps`, each card 0.3-0.6 of a card's height
further down, over the one before), the cards 110-200 px wide, on a white, wood, cloth, paper
or dark table, 1280 x 960, read by :func:`vision.by_index.read_without_mat`. ``--under``
also reads each card reported under another by what shows of it
(:func:`vision.under.read_under`, as the layout watch's line zones do), to measure what that
would add to `eleusis read`.

A card is read when a reading of its name has its centre on the card (its outline grown by a
tenth); any other reading is wrong. The column's last card lies whole; the others are covered,
their top showing, and count apart. Designs: the calibration designs (gnome ``rheinland``,
``simplistic``) and the test designs (gnome ``bellot``, ``tango``), never trained on; nothing
is tuned here.

Run: ``PYTHONPATH=$PWD python3 bench/photo_columns.py [--per-design 10] [--designs gnome-bellot] [--under]``
(about 1 CPU s a picture).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
import cv2
import numpy as np

from engine.cards import Card
from vision.by_index import read_without_mat
from vision.classify import OnnxClassifier
from vision.pipeline import CardReader
from vision.readings import CardDetections
from vision.synthetic.columns import OverlapScene, render_overlaps
from vision.under import read_under

RENDERS = Path("cache/cards")
DESIGNS = ("gnome-rheinland", "gnome-simplistic", "gnome-bellot", "gnome-tango")
TABLES = ("white", "wood", "cloth", "paper", "dark")
FACE_WH = (228, 318)


def _faces(folder: Path) -> list[tuple[Card, np.ndarray]]:
    out = []
    for path in sorted(folder.glob("*.png")):
        try:
            card = Card.parse(path.stem)
        except ValueError:
            continue  # backs, jokers
        bgra = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
        if bgra is None or bgra.ndim != 3:
            continue
        if bgra.shape[2] == 4:
            alpha = bgra[:, :, 3:4].astype(np.float32) / 255
            face = (bgra[:, :, :3] * alpha + 255 * (1 - alpha)).astype(np.uint8)
        else:
            face = bgra
        out.append((card, np.asarray(cv2.resize(face, FACE_WH, interpolation=cv2.INTER_AREA), np.uint8)))
    return out


def _on(quad: np.ndarray, xy: np.ndarray, grow: float = 1.1) -> bool:
    centre = quad.mean(axis=0)
    grown = (centre + grow * (quad - centre)).astype(np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(grown, (float(xy[0]), float(xy[1])), False) >= 0


def score(found: CardDetections, scene: OverlapScene) -> tuple[Counter[str], list[str]]:
    """Cards read (``whole`` / ``covered``) and the wrong readings of one column."""
    read: Counter[str] = Counter()
    wrong = []
    for i in range(len(found)):
        card = found.label[i]
        if card is None or not found.is_read[i]:
            continue
        centre = found.quad_xy[i].mean(axis=0)
        if not any(c == card and _on(scene.quad_xy[k], centre) for k, c in enumerate(scene.cards)):
            wrong.append(f"{card} at ({centre[0]:.0f}, {centre[1]:.0f})")
    for k, card in enumerate(scene.cards):
        if any(found.label[i] == card and found.is_read[i] and _on(scene.quad_xy[k], found.quad_xy[i].mean(axis=0))
               for i in range(len(found))):
            read["whole" if k == len(scene.cards) - 1 else "covered"] += 1
    return read, wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-design", type=int, default=10)
    parser.add_argument("--designs", default=",".join(DESIGNS))
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--under", action="store_true", help="read the cards under others by what shows of them")
    args = parser.parse_args(argv)
    reader = CardReader(OnnxClassifier())
    rng = np.random.default_rng(args.seed)
    read: Counter[str] = Counter()
    wrong: list[str] = []
    cards: Counter[str] = Counter()
    started = time.process_time()
    for design in args.designs.split(","):
        faces = _faces(RENDERS / design)
        if not faces:
            print(f"{design}: not rendered in {RENDERS} (python3 -m models.render_cards)", file=sys.stderr)
            return 2
        mine: Counter[str] = Counter()
        for k in range(args.per_design):
            n = int(rng.integers(3, 6))
            pick = rng.permutation(len(faces))[:n]
            scene = render_overlaps([faces[i] for i in pick], rng, (1280, 960), "column", float(rng.uniform(110, 200)),
                                    TABLES[k % len(TABLES)], centre_xy=(640, 480), turn_deg=float(rng.uniform(-15, 15)),
                                    step=float(rng.uniform(0.3, 0.6)))
            cards["whole"] += 1
            cards["covered"] += n - 1
            found = read_without_mat(reader, scene.bgr)
            if args.under and found.under.any():
                under = np.flatnonzero(found.under)
                rest = found[np.setdiff1d(np.arange(len(found)), under)]
                found = CardDetections.concatenate([rest, read_under(reader.classifier, scene.bgr, rest, found[under])])
            got, bad = score(found, scene)
            mine.update(got)
            wrong.extend(f"{design} #{k}: {w}" for w in bad)
        read.update(mine)
        print(f"{design}: covered {mine['covered']}, lying whole {mine['whole']} of {args.per_design} columns", flush=True)
    print(f"all: covered {read['covered']}/{cards['covered']}, lying whole {read['whole']}/{cards['whole']}, "
          f"wrong {len(wrong)}")
    for w in wrong:
        print(f"    wrong: {w}")
    print(f"({time.process_time() - started:.0f} CPU s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
