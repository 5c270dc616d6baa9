"""Choose the index reader's check of refused cards (``index_check`` in ``card_classifier.json``)
on the calibration sets only.

Issue 31 (without enrolment, standard designs want >= 95 % right at <= 0.1 % wrong): on a
design it never saw, model 2.0 ranks the right card first nearly always (top-1 99 % in
plain conditions) but its rule refuses about one card in ten. The index reader
(``models/index_reader.onnx``, trained on index boxes alone) is a second network that reads
the same card differently. ``OnnxClassifier.index_settle`` takes a refused card when every
view names it, the network gives it at least ``min_own``, and the index reader reads that card
at the card's own corners and no other card anywhere on it (``vision/own_index.py``). Model
2.0's own corner head reads the same corners: either it must not name another card nor doubt
an ace, a jack or a queen, or the index reader outvotes it (``over_corner_head``).

Sets, as ``models.choose_rule``'s (nothing else is looked at): the calibration designs of
the metadata (gnome ``rheinland``, ``simplistic``, KDE ``oxygen-white``, which are also the
index reader's calibration designs), plain (seed 901) and under the hard recipe (seed 902),
``--samples`` a design; made-up calibration decks (seeds 555 and 556), ``--made-up`` a
court-letter set and seed. Each rule (still, live) is scored per candidate ``min_own`` and
``over_corner_head``: the most right readings (plain designs and made-up decks) among the
candidates that add no wrong reading to any set; ties go to the higher ``min_own`` and to the
corner head kept as a veto. Both rules get the stricter of their two choices.

Run: ``python -m models.choose_index_check [--write]`` (about 10 minutes on 2 cores).
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np

from models.choose_rule import DESIGN_SEED, MADE_UP_SEEDS, design_samples, made_up_samples
from vision.classify import OnnxClassifier

CANDIDATES = (0.0, 0.3, 0.5, 0.7, 0.9)
OVER_CORNER_HEAD = (False, True)
HARD_SEED = 902


def outcomes(model: OnnxClassifier, cards: list[np.ndarray], labels: np.ndarray) -> dict[str, Any]:
    """Per card: read by the rule (with the pips), the refused card's best class and
    probability, and whether the index check (at min_own 0) would take it, with the corner
    head as a veto (``taken``) and outvoted (``taken_over``)."""
    probe = copy.copy(model)  # the same networks, the check off
    probe.meta = dataclasses.replace(model.meta, index_check=None)
    checkers = {}
    for over in OVER_CORNER_HEAD:
        checkers[over] = copy.copy(model)
        checkers[over].meta = dataclasses.replace(model.meta, index_check=0.0, index_check_over_corner_head=over)
    read, best, conf = [], [], []
    taken: dict[bool, list[bool]] = {over: [] for over in OVER_CORNER_HEAD}
    for start in range(0, len(cards), 64):
        batch = cards[start:start + 64]
        heads = probe.heads_with_views(batch)
        readings = probe.settled(batch, heads, probe.readings_of(heads))
        for r in readings:
            read.append(r.label is not None or r.face_down)
            best.append(model.meta.classes.index(r.best))
            conf.append(r.confidence)
        for over, checker in checkers.items():
            checked = checker.index_settle(batch, heads, readings)
            taken[over] += [r.label is None and c.label is not None for r, c in zip(readings, checked, strict=True)]
    return {"read": np.array(read), "best": np.array(best), "conf": np.array(conf), "taken": np.array(taken[False]),
            "taken_over": np.array(taken[True]), "labels": labels}


def rates(o: dict[str, Any], min_own: float | None, over: bool = False) -> tuple[float, float]:
    taken = o["taken_over"] if over else o["taken"]
    accepted = o["read"] | (taken & (o["conf"] >= min_own) if min_own is not None else False)
    right = accepted & (o["best"] == o["labels"])
    return float(right.mean()), float((accepted & ~(o["best"] == o["labels"])).mean())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=Path("models"))
    parser.add_argument("--renders", type=Path, default=Path("cache/cards"))
    parser.add_argument("--samples", type=int, default=1500, help="per calibration design and recipe")
    parser.add_argument("--made-up", type=int, default=300, help="per court-letter set and seed")
    parser.add_argument("--write", action="store_true", help="store the choice in card_classifier.json")
    args = parser.parse_args(argv)
    os.environ.setdefault("OMP_NUM_THREADS", "2")
    meta_path = args.models / "card_classifier.json"
    names = list(json.loads(meta_path.read_text())["holdout"]["calibration_designs"])
    missing = [n for n in names if not (args.renders / n / "done").is_file()]
    if missing:
        raise SystemExit(f"{args.renders}: no renders of {missing} (python -m models.render_cards)")
    sets = {
        "designs, plain": design_samples(args.renders, names, args.samples, DESIGN_SEED),
        "designs, hard": design_samples(args.renders, names, args.samples, HARD_SEED, plain=False),
    }
    made = [made_up_samples(args.made_up, seed) for seed in MADE_UP_SEEDS]
    sets["made-up decks"] = ([c for m in made for c in m[0]], np.concatenate([m[1] for m in made]))
    chosen: dict[str, tuple[float, bool] | None] = {}
    for rule in ("still", "live"):
        model = OnnxClassifier(args.models / "card_classifier.onnx", meta_path, rule=rule)
        found = {name: outcomes(model, *cards) for name, cards in sets.items()}
        print(f"rule {rule}: right / wrong (n: " + ", ".join(f"{k} {len(v['labels'])}" for k, v in found.items()) + ")")
        allowed = []
        before = {k: rates(o, None) for k, o in found.items()}
        for min_own, over in [(None, False)] + [(m, o) for o in OVER_CORNER_HEAD for m in CANDIDATES]:
            figures = {k: rates(o, min_own, over) for k, o in found.items()}
            within = all(figures[k][1] <= before[k][1] for k in found)
            label = "no check" if min_own is None else f"min_own {min_own:.1f}" + (", over head" if over else "")
            print(f"  {label:23s} " + "; ".join(f"{k} {r:.2%} / {w:.3%}" for k, (r, w) in figures.items())
                  + ("" if within else "  (adds wrong readings)"))
            if within and min_own is not None:
                allowed.append((figures["designs, plain"][0] + figures["made-up decks"][0], min_own, not over))
        best = max(allowed) if allowed else None
        chosen[rule] = None if best is None else (best[1], not best[2])
        print(f"  chosen: {chosen[rule]}")
    if args.write:
        meta = json.loads(meta_path.read_text())
        pick = [v for v in chosen.values() if v is not None]
        if pick:  # one check for both rules: the stricter of the two choices
            meta["index_check"] = {"min_own": max(m for m, _ in pick), "over_corner_head": all(o for _, o in pick),
                                   "note": meta.get("index_check", {}).get("note", "")}
        else:
            meta.pop("index_check", None)
        meta_path.write_text(json.dumps(meta, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
