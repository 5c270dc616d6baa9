"""Where a card is lost on its way through the index proposer: check-only figures.

For each labelled card of a set, the first stage that lost it:

- ``ink``: no glyph of its index is found as ink on paper (no glyph-sized piece of ink
  within :data:`NEAR_PX` of the index);
- ``pair``: glyphs there, but no pair of them proposes an index there (the proposal's
  index centre within :data:`NEAR_PX`);
- ``paper``: proposed, but its corner box was not taken to lie on paper;
- ``first look``: on paper, but the index reader's first look dropped it;
- ``read``: looked at, but not read as the card (the reader's accept rule, the second
  reader, the size check);
- otherwise it is read.

The deals label each visible index's box (the index centre); the blackjack photos label
each card's centre, so there a proposal is at the card when the card it implies covers the
card's centre, and ``ink`` / ``pair`` cannot be told apart (both print as ``pair``).

Run: ``python3 bench/proposer_recall.py [--deals 1] [--blackjack tuning|held-out|none]
[--scenes dim,warm_low,...]`` (the deals held out are 2-7: print them only to report).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter

import cv2
import numpy as np
import numpy.typing as npt

from engine.cards import Card
from vision.classify import OnnxClassifier
from vision.corners import (CornerProposal, _index_xy, card_quad_of, glyph_pairs, on_paper, read_corners,
                            score_proposals)
from vision.ink import evenly_lit
from vision.index_reader import default_index_reader
from bench.real_tables import BLACKJACK, BLACKJACK_LABELS, DEALS, _deal_boxes

NEAR_PX = 12.0
STAGES = ("ink", "pair", "paper", "first look", "read", "read ok")
BgrImage = npt.NDArray[np.uint8]


def _near(props: list[CornerProposal], x: float, y: float) -> bool:
    return any(np.hypot(*np.subtract(_index_xy(p), (x, y))) <= NEAR_PX for p in props)


def _covers(props: list[CornerProposal], x: float, y: float) -> bool:
    from vision.corners import CornerReading

    for p in props:
        quad = card_quad_of(CornerReading(Card.parse("AS"), 1.0, p)).reshape(-1, 1, 2)
        if cv2.pointPolygonTest(quad, (x, y), False) >= 0:
            return True
    return False


def stages(classifier: OnnxClassifier, bgr: BgrImage, cards: list[tuple[Card, float, float]], by_index: bool
           ) -> Counter[str]:
    """How many of ``cards`` (card, x, y) each stage lost, and how many were read."""
    bgr = evenly_lit(bgr)  # as read_corners reads it
    pairs, pale, glyphs = glyph_pairs(bgr)
    papered = [p for p in pairs if on_paper(p, pale)]
    kept, _ = score_proposals(default_index_reader(), bgr, papered)
    read = read_corners(classifier, bgr, papered)
    out: Counter[str] = Counter()
    test = _near if by_index else _covers
    for card, x, y in cards:
        if by_index and not any(np.hypot(gx - x, gy - y) <= 2 * NEAR_PX for gx, gy in glyphs):
            out["ink"] += 1
        elif not test(pairs, x, y):
            out["pair"] += 1
        elif not test(papered, x, y):
            out["paper"] += 1
        elif not test(kept, x, y):
            out["first look"] += 1
        elif not any(r.card == card and test([r.proposal], x, y) for r in read):
            out["read"] += 1
        else:
            out["read ok"] += 1
    return out


def _line(name: str, c: Counter[str], cpu: float) -> str:
    n = sum(c.values())
    found = n - c["ink"] - c["pair"]
    return (f"{name}: {n} cards; index proposed {found} ({100 * found / max(n, 1):.1f} %); lost at "
            + ", ".join(f"{s} {c[s]}" for s in STAGES[:-1]) + f"; read {c['read ok']}; {cpu:.1f} CPU s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", default="1", help="e.g. 1 or 2-7 or none")
    parser.add_argument("--blackjack", default="tuning", choices=("tuning", "held-out", "none"))
    args = parser.parse_args(argv)
    classifier = OnnxClassifier()
    if args.deals != "none":
        lo, _, hi = args.deals.partition("-")
        for k in range(int(lo), int(hi or lo) + 1):
            image = np.asarray(cv2.imread(str(DEALS / f"deal{k}-md-sq.jpg")), np.uint8)
            boxes = _deal_boxes(DEALS / f"deal{k}-md-sq-net1280-labels.json", (image.shape[1], image.shape[0]))
            c0 = time.process_time()
            print(_line(f"deal{k}", stages(classifier, image, boxes, True), time.process_time() - c0), flush=True)
    if args.blackjack != "none":
        doc = json.loads(BLACKJACK_LABELS.read_text())
        total: Counter[str] = Counter()
        cpu = 0.0
        for name, labels in doc["photos"].items():
            if labels["split"] != args.blackjack.replace("-", " "):
                continue
            image = np.asarray(cv2.imread(str(BLACKJACK / f"{name}.jpg")), np.uint8)
            cards = [(Card.parse(c["card"]), float(c["xy"][0]), float(c["xy"][1])) for c in labels["cards"]]
            c0 = time.process_time()
            got = stages(classifier, image, cards, False)
            cpu += time.process_time() - c0
            lost = {s: n for s, n in got.items() if s != "read ok"}
            if lost:
                print(f"  {name}: {lost}", flush=True)
            total += got
        print(_line(f"blackjack {args.blackjack}", total, cpu))
    return 0


if __name__ == "__main__":
    sys.exit(main())
