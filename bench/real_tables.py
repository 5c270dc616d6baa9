"""Real photographs of card tables, read as `eleusis read` reads a picture without the mat.

Not a test and not training: check-only figures (issue "every card a person can read").
For each set, before (the outline reader alone: :func:`vision.closeup.read_closeup`) and
after (plus the cards read by an index corner: :func:`vision.corners.with_corner_cards`):

- ``deals``: the 7 bridge deals of ``../shared/data/real-cards/deals`` (cork and white
  tables, cards overlapping in columns; the labels give each visible index's box). A card
  counts as read when a reading of it covers one of its index boxes; a reading that covers
  none of its card's boxes is wrong. The labels do not say which cards lie alone: almost
  all overlap, so every labelled card counts as one whose index shows. Deal 1 chose
  :data:`vision.corners.CORNER_ACCEPT`; deals 2-7 are held out and printed apart.
- ``webcam``: frames of ``../shared/data/real-tables/webcam-720p/table.mp4`` (a fixed
  layout: 5 board cards alone, three overlapping pairs); the labels give names only, so a
  card counts as read when its name is read, and a name read that is not on the table, or
  read more often than it lies there, is wrong.

Run: ``python3 bench/real_tables.py [--deals 1-7] [--frames 3]`` (about half a minute a
photo on 2 busy cores).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from engine.cards import Card
from vision.classify import OnnxClassifier
from vision.closeup import read_closeup
from vision.corners import with_corner_cards
from vision.pipeline import CardReader
from vision.readings import CardDetections

SHARED = next((up / "shared" / "data" for up in Path(__file__).resolve().parents
               if (up / "shared" / "data").is_dir()), Path("../shared/data"))
DEALS = SHARED / "real-cards" / "deals"
WEBCAM = SHARED / "real-tables" / "webcam-720p"


def _deal_boxes(path: Path, size: tuple[int, int]) -> list[tuple[Card, float, float]]:
    w, h = size
    return [(Card.parse(item["name"].upper()), item["relative_coordinates"]["center_x"] * w,
             item["relative_coordinates"]["center_y"] * h) for item in json.loads(path.read_text())]


def _covers(quad: np.ndarray, x: float, y: float) -> bool:
    centre = quad.mean(axis=0)
    grown = (centre + 1.1 * (quad - centre)).astype(np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(grown, (x, y), False) >= 0


def score_deal(found: CardDetections, boxes: list[tuple[Card, float, float]]) -> tuple[int, int, list[str]]:
    """(cards read, cards labelled, the wrong readings, said)."""
    right: set[Card] = set()
    wrong: list[str] = []
    for i in range(len(found)):
        card = found.label[i]
        if card is None:
            continue
        if any(c == card and _covers(found.quad_xy[i], x, y) for c, x, y in boxes):
            right.add(card)
        else:
            x, y = found.quad_xy[i].mean(axis=0)
            under = sorted({str(c) for c, bx, by in boxes if _covers(found.quad_xy[i], bx, by)})
            wrong.append(f"{card} at ({x:.0f}, {y:.0f}), {found.confidence[i]:.2f}; labelled under it: {under}")
    return len(right), len({c for c, _, _ in boxes}), wrong


def score_names(found: CardDetections, alone: list[Card], paired: list[Card]) -> tuple[int, int, int]:
    """(alone read, paired read, wrong) when only the names on the table are known."""
    read = Counter(c for c in found.label if c is not None)
    present = Counter(alone + paired)
    wrong = sum(max(0, n - present[c]) for c, n in read.items())
    return sum(1 for c in alone if read[c]), sum(1 for c in paired if read[c]), wrong


def _parse_range(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", default="1-7", help="which deals, e.g. 1-7 or 3")
    parser.add_argument("--frames", type=int, default=3, help="webcam frames, spread over the clip (0: none)")
    args = parser.parse_args(argv)
    classifier = OnnxClassifier()
    reader = CardReader(classifier)
    totals = {"tuned": [0, 0, 0, 0, 0], "held out": [0, 0, 0, 0, 0]}  # read before, after, cards, wrong before, after
    for k in _parse_range(args.deals):
        loaded = cv2.imread(str(DEALS / f"deal{k}-md-sq.jpg"))
        if loaded is None:
            print(f"no photo deal{k} in {DEALS}", file=sys.stderr)
            return 2
        image = np.asarray(loaded, np.uint8)
        boxes = _deal_boxes(DEALS / f"deal{k}-md-sq-net1280-labels.json", (image.shape[1], image.shape[0]))
        start = time.perf_counter()
        before = read_closeup(reader, image)
        after = with_corner_cards(classifier, image, before)
        seconds = time.perf_counter() - start
        b_right, total, b_said = score_deal(before, boxes)
        a_right, _, a_said = score_deal(after, boxes)
        b_wrong, a_wrong = len(b_said), len(a_said)
        group = "tuned" if k == 1 else "held out"
        for slot, value in enumerate((b_right, a_right, total, b_wrong, a_wrong)):
            totals[group][slot] += value
        print(f"deal{k} ({group}): {total} cards whose index shows; read before {b_right}, after {a_right}; "
              f"wrong before {b_wrong}, after {a_wrong} ({seconds:.0f} s)", flush=True)
        for said in a_said:
            print(f"  wrong: {said}")
    for group, (b, a, n, bw, aw) in totals.items():
        if n:
            print(f"deals, {group}: read {b}/{n} ({100 * b / n:.1f} %) before, {a}/{n} ({100 * a / n:.1f} %) "
                  f"after; wrong {bw} before, {aw} after")
    if args.frames:
        labels = json.loads((WEBCAM / "labels.json").read_text())
        alone = [Card.parse(c) for c in labels["board"]]
        paired = [Card.parse(c) for hand in labels["hands"] for c in hand]
        capture = cv2.VideoCapture(str(WEBCAM / labels["video"]))
        count = int(capture.get(cv2.CAP_PROP_FRAME_COUNT)) or int(labels["frames"])
        sums = np.zeros(6, np.int64)
        for f in range(args.frames):
            capture.set(cv2.CAP_PROP_POS_FRAMES, int((f + 0.5) * count / args.frames))
            ok, grabbed = capture.read()
            if not ok or grabbed is None:
                print(f"webcam: frame {f} cannot be read", file=sys.stderr)
                return 2
            frame = np.asarray(grabbed, np.uint8)
            before = read_closeup(reader, frame)
            after = with_corner_cards(classifier, frame, before)
            sums += np.array(score_names(before, alone, paired) + score_names(after, alone, paired))
        n = args.frames
        print(f"webcam, {n} frames: alone read {sums[0]}/{5 * n} before, {sums[3]}/{5 * n} after; "
              f"overlapping read {sums[1]}/{6 * n} before, {sums[4]}/{6 * n} after; "
              f"wrong {sums[2]} before, {sums[5]} after")
    return 0


if __name__ == "__main__":
    sys.exit(main())
