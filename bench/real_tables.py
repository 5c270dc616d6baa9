"""Real photographs of card tables, read as `eleusis read` reads a picture without the mat.

Not a test and not training: check-only figures (issue "every card a person can read").
For each set, before (the outline reader alone: :func:`vision.closeup.read_closeup`) and
after (plus the cards read by an index corner: :func:`vision.corners.with_corner_cards`):

- ``deals``: the 7 bridge deals of ``../shared/data/real-cards/deals`` (cork and white
  tables, cards overlapping in columns; the labels give each visible index's box). A card
  counts as read when a reading of it covers one of its index boxes; a reading that covers
  none of its card's boxes is wrong. The labels do not say which cards lie alone: almost
  all overlap, so every labelled card counts as one whose index shows. Deal 1 chose
  :data:`vision.corners.CORNER_ACCEPT` (tuned); deal 7 was looked at to find why it read
  least (its photographer's shadow: :func:`vision.ink.shadows_lifted`), so it is *studied*,
  no longer blind; deals 2-6 are held out. The three print apart.
- ``blackjack``: the 57 photos of ``../shared/data/real-tables/blackjack`` (a dark felt
  table, 1920x1080, cards about 140 px wide lying apart, chips, a shoe), labelled by eye in
  ``bench/data/blackjack-labels.json`` (each face-up card's centre and how it lies). A card
  counts as read when a reading of its name lies on it (its centre inside the reading's
  outline grown by a quarter, or within :data:`NEAR_PX` of the outline's centre); any other
  reading is wrong, except on the aces printed on the felt (counted apart). The labels fix a
  split by hand, before any scoring: the tuning photos and the held-out ones print apart.
- ``webcam``: frames of ``../shared/data/real-tables/webcam-720p/table.mp4`` (a fixed
  layout: 5 board cards alone, three overlapping pairs); the labels give names only, so a
  card counts as read when its name is read, and a name read that is not on the table, or
  read more often than it lies there, is wrong.

Run: ``python3 bench/real_tables.py [--deals 1-7|none] [--frames 3]
[--blackjack all|tuning|held-out|none] [--only NAME] [--index-model PATH [PATH ...]]`` (2-15 s a photo on 2
busy cores). A quick look at a training run's snapshot, on the tuning photos only:
``--deals 1 --blackjack tuning --frames 0 --index-model cache/index_run/index_reader_snapshot.onnx``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from engine.cards import Card
from vision.classify import OnnxClassifier
from vision.closeup import read_closeup
from vision.corners import with_corner_cards
from vision.index_reader import DEFAULT_MODEL, IndexReader
from vision.pipeline import CardReader
from vision.readings import CardDetections

SHARED = next((up / "shared" / "data" for up in Path(__file__).resolve().parents
               if (up / "shared" / "data").is_dir()), Path("../shared/data"))
DEALS = SHARED / "real-cards" / "deals"
WEBCAM = SHARED / "real-tables" / "webcam-720p"
TUNED_DEALS = {1}  # chose the corner thresholds
STUDIED_DEALS = {7}  # looked at to find what it lacked: no longer blind
BLACKJACK = SHARED / "real-tables" / "blackjack"
BLACKJACK_LABELS = Path(__file__).resolve().parent / "data" / "blackjack-labels.json"
NEAR_PX = 90.0  # a reading this close to a labelled card's centre is of that card (cards ~140 x 190 px)


def _deal_boxes(path: Path, size: tuple[int, int]) -> list[tuple[Card, float, float]]:
    w, h = size
    return [(Card.parse(item["name"].upper()), item["relative_coordinates"]["center_x"] * w,
             item["relative_coordinates"]["center_y"] * h) for item in json.loads(path.read_text())]


def _covers(quad: np.ndarray, x: float, y: float, grow: float = 1.1) -> bool:
    centre = quad.mean(axis=0)
    grown = (centre + grow * (quad - centre)).astype(np.float32).reshape(-1, 1, 2)
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


@dataclass
class Tally:
    """Counts over photos of one split: cards by how they lie, read, wrong, time."""

    photos: int = 0
    cards: Counter[str] = field(default_factory=Counter)
    read: Counter[str] = field(default_factory=Counter)
    wrong: int = 0
    printed: int = 0
    wall_s: float = 0.0
    cpu_s: float = 0.0

    def line(self, name: str) -> str:
        parts = [f"{lies} read {self.read[lies]}/{n} ({100 * self.read[lies] / n:.1f} %)"
                 for lies, n in sorted(self.cards.items()) if n]
        return (f"{name}, {self.photos} photos: {'; '.join(parts)}; wrong {self.wrong}; on the printed aces "
                f"{self.printed}; {self.wall_s / max(self.photos, 1):.1f} s a photo "
                f"({self.cpu_s / max(self.photos, 1):.1f} CPU s)")


def score_photo(found: CardDetections, labels: dict[str, Any], tally: Tally) -> list[str]:
    """Add one labelled photo's readings to ``tally``; what was read wrong, said."""
    cards = [(Card.parse(c["card"]), float(c["xy"][0]), float(c["xy"][1]), str(c["lies"])) for c in labels["cards"]]
    printed = [tuple(float(v) for v in box) for box in labels.get("printed_cards", [])]
    hit: set[int] = set()
    said: list[str] = []
    for i in range(len(found)):
        card = found.label[i]
        if card is None:
            continue
        quad = found.quad_xy[i]
        cx, cy = (float(v) for v in quad.mean(axis=0))
        on = [k for k, (c, x, y, _) in enumerate(cards) if c == card and (
            _covers(quad, x, y, 1.25) or np.hypot(x - cx, y - cy) <= NEAR_PX)]
        if on:
            hit.update(on)
        elif any(x0 <= cx <= x1 and y0 <= cy <= y1 for x0, y0, x1, y1 in printed):
            tally.printed += 1
        else:
            tally.wrong += 1
            near = [str(c) for c, x, y, _ in cards if np.hypot(x - cx, y - cy) <= 2 * NEAR_PX]
            said.append(f"{card} at ({cx:.0f}, {cy:.0f}), {found.confidence[i]:.2f}; labelled near: {near}")
    tally.photos += 1
    for k, (_, _, _, lies) in enumerate(cards):
        tally.cards[lies] += 1
        tally.read[lies] += k in hit
    return said


def run_blackjack(classifier: OnnxClassifier, reader: CardReader, which: str, only: str = "",
                  index_reader: IndexReader | None = None) -> None:
    """Score the blackjack photos of the split ``which`` (all, tuning, held-out) whose names
    contain ``only``, before and after."""
    doc = json.loads(BLACKJACK_LABELS.read_text())
    tallies: dict[str, dict[str, Tally]] = {"before": {}, "after": {}}
    for name, labels in doc["photos"].items():
        split = str(labels["split"])
        if (which != "all" and split != which.replace("-", " ")) or only not in name:
            continue
        loaded = cv2.imread(str(BLACKJACK / f"{name}.jpg"))
        if loaded is None:
            raise SystemExit(f"no photo {name}.jpg in {BLACKJACK}")
        image = np.asarray(loaded, np.uint8)
        wall, cpu = time.perf_counter(), time.process_time()
        before = read_closeup(reader, image)
        mid_wall, mid_cpu = time.perf_counter(), time.process_time()
        after = with_corner_cards(classifier, image, before, reader=index_reader)
        end_wall, end_cpu = time.perf_counter(), time.process_time()
        for stage, found, w, c in (("before", before, mid_wall - wall, mid_cpu - cpu),
                                   ("after", after, end_wall - wall, end_cpu - cpu)):
            tally = tallies[stage].setdefault(split, Tally())
            tally.wall_s += w
            tally.cpu_s += c
            was = sum(tally.read.values())
            said = score_photo(found, labels, tally)
            if stage == "after":
                print(f"{name} ({split}): read {sum(tally.read.values()) - was} of {len(labels['cards'])}; "
                      f"{w:.1f} s ({c:.1f} CPU s)", flush=True)
                for line in said:
                    print(f"  wrong: {line}")
    for stage, by_split in tallies.items():
        for split, tally in sorted(by_split.items()):
            print(tally.line(f"blackjack {split}, {stage}"))


def _parse_range(text: str) -> list[int]:
    if text == "none":
        return []
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", default="1-7", help="which deals, e.g. 1-7 or 3")
    parser.add_argument("--frames", type=int, default=3, help="webcam frames, spread over the clip (0: none)")
    parser.add_argument("--blackjack", default="all", choices=("all", "tuning", "held-out", "none"),
                        help="which split of the labelled blackjack photos")
    parser.add_argument("--only", default="", help="only the blackjack photos whose names contain this")
    parser.add_argument("--index-model", type=Path, nargs="+", default=[DEFAULT_MODEL],
                        help="the index reader to read corners with (a training run's snapshot, say); several files "
                             "are read as one, the mean of their probabilities")
    args = parser.parse_args(argv)
    classifier = OnnxClassifier()
    index_reader = IndexReader(args.index_model)
    reader = CardReader(classifier)
    # read before, after, cards, wrong before, after
    totals = {"tuned": [0, 0, 0, 0, 0], "studied": [0, 0, 0, 0, 0], "held out": [0, 0, 0, 0, 0]}
    for k in _parse_range(args.deals):
        loaded = cv2.imread(str(DEALS / f"deal{k}-md-sq.jpg"))
        if loaded is None:
            print(f"no photo deal{k} in {DEALS}", file=sys.stderr)
            return 2
        image = np.asarray(loaded, np.uint8)
        boxes = _deal_boxes(DEALS / f"deal{k}-md-sq-net1280-labels.json", (image.shape[1], image.shape[0]))
        start = time.perf_counter()
        before = read_closeup(reader, image)
        after = with_corner_cards(classifier, image, before, reader=index_reader)
        seconds = time.perf_counter() - start
        b_right, total, b_said = score_deal(before, boxes)
        a_right, _, a_said = score_deal(after, boxes)
        b_wrong, a_wrong = len(b_said), len(a_said)
        group = "tuned" if k in TUNED_DEALS else "studied" if k in STUDIED_DEALS else "held out"
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
    if args.blackjack != "none":
        run_blackjack(classifier, reader, args.blackjack, args.only, index_reader)
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
            after = with_corner_cards(classifier, frame, before, reader=index_reader)
            sums += np.array(score_names(before, alone, paired) + score_names(after, alone, paired))
        n = args.frames
        print(f"webcam, {n} frames: alone read {sums[0]}/{5 * n} before, {sums[3]}/{5 * n} after; "
              f"overlapping read {sums[1]}/{6 * n} before, {sums[4]}/{6 * n} after; "
              f"wrong {sums[2]} before, {sums[5]} after")
    return 0


if __name__ == "__main__":
    sys.exit(main())
