"""Measure the index reader (``models/index_reader.onnx``) on the TEST designs, by index height.

For each index height (rank top to suit bottom, in image pixels) the scenes of
:mod:`models.index_data` are made from the test designs only (never trained on, never used
to calibrate) with the cards at that size, and every box is read by
:class:`vision.index_reader.IndexReader` (onnxruntime, as at run time). Printed per height:
indices that show, read right (sure at the threshold and the right card), read wrong (sure
of another card), boxes with no index read as one; at the metadata's threshold and at the
accept threshold of :mod:`vision.corners`. Also the reader's time per box.

A test design whose indices the proposer does not find (:func:`models.train_index_reader.proposed_designs`)
is left out: no box of it reaches the reader at run time.

Run: ``python -m models.evaluate_index_reader [--model PATH] [--scenes 300] [--heights 8,10,12,15,20,25,30]``
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from pathlib import Path

import numpy as np

from models.dataset import load_design
from models.index_data import INDEX_SHARE, card_anchors, make_index_set
from models.train_index_reader import TEST_DESIGNS, proposed_designs
from vision.corners import CORNER_ACCEPT
from vision.index_reader import DEFAULT_MODEL, IndexReader


def evaluate(reader: IndexReader, designs: list[str], renders: Path, heights: list[float], scenes: int,
             seed: int) -> list[dict[str, float]]:
    loaded = [load_design(renders / n) for n in designs]
    anchors = [card_anchors(d) for d in loaded]
    rows = []
    for k, h in enumerate(heights):
        px = h / INDEX_SHARE
        data = make_index_set(loaded, anchors, scenes, seed + k, card_px=(px, px * 1.0001), small_share=0.0)
        read = reader.read(data.boxes)
        cards = read.cards()
        sure = read.sureness()
        pos = data.rank >= 0
        right = np.array([c.rank - 1 == r and c.suit.index == s for c, r, s in zip(cards, data.rank, data.suit)])
        row: dict[str, float] = {"index_px": h, "indices": int(pos.sum()), "no_index_boxes": int((~pos).sum())}
        for name, t in (("meta", reader.accept_threshold), ("corners", CORNER_ACCEPT)):
            acc = sure >= t
            row[f"read_{name}"] = float((acc & pos & right).sum() / max(pos.sum(), 1))
            row[f"wrong_{name}"] = int((acc & pos & ~right).sum())
            row[f"false_index_{name}"] = int((acc & ~pos).sum())
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--renders", type=Path, default=Path("cache/cards"))
    ap.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    ap.add_argument("--scenes", type=int, default=300, help="scenes per height (about 2 indices and 3 other boxes each)")
    ap.add_argument("--heights", default="8,10,12,15,20,25,30")
    ap.add_argument("--seed", type=int, default=2031)
    ap.add_argument("--json", type=Path, help="write the rows here too")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    reader = IndexReader(args.model)
    designs = proposed_designs(args.renders, TEST_DESIGNS)
    if not designs:
        raise SystemExit(f"no test design rendered in {args.renders} whose indices the proposer finds "
                         "(python -m models.render_cards)")
    heights = [float(h) for h in args.heights.split(",")]
    rows = evaluate(reader, designs, args.renders, heights, args.scenes, args.seed)
    print(f"test designs: {', '.join(designs)}; thresholds: metadata {reader.accept_threshold}, "
          f"vision.corners {CORNER_ACCEPT}")
    print("| index px | indices | read (meta) | wrong | no index read | read (corners) | wrong | no index read |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['index_px']:.0f} | {r['indices']} | {100 * r['read_meta']:.1f} % | {r['wrong_meta']} | "
              f"{r['false_index_meta']} of {r['no_index_boxes']} | {100 * r['read_corners']:.1f} % | "
              f"{r['wrong_corners']} | {r['false_index_corners']} |")
    boxes = np.random.default_rng(0).integers(0, 255, (256, 56, 40, 3), dtype=np.uint8)
    reader.read(boxes)
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(5):
        reader.read(boxes)
    wall, cpu = (time.perf_counter() - t0) / (5 * 256), (time.process_time() - c0) / (5 * 256)
    print(f"time: {1000 * wall:.3f} ms a box wall, {1000 * cpu:.3f} ms of processor (batches of 256)")
    if args.json:
        args.json.write_text(json.dumps({"designs": designs, "rows": rows, "ms_per_box_cpu": 1000 * cpu}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
