"""Cards under others with a deck enrolled: rendered columns and fans of one design, read by
``eleusis read``'s path (:func:`vision.by_index.read_without_mat`) three ways:

- ``base``: without a profile;
- ``enrolled``: the design enrolled from clean views (:func:`vision.deck_profile.enrol`), an
  index read alone checked by the base model (``ProfiledClassifier.index_network``);
- ``enrolled, no index``: the same profile reading no index alone, as a ``--strict`` one
  does.

Scored as :func:`bench.corner_accept.score_scene` scores the rendered sets: cards whose
top-left index shows, read, and readings of a card whose index does not lie under them.

Run: ``PYTHONPATH=$PWD python3 bench/enrolled_columns.py [--designs gnome-rheinland gnome-bellot]
[--pictures 30]`` (about a minute a design on 2 cores; needs the renders in ``cache/cards``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from bench.corner_accept import score_scene
from engine.cards import Card
from models.dataset import load_design
from models.evaluate_enrolment import clean_views
from vision.by_index import read_without_mat
from vision.classify import OnnxClassifier
from vision.deck_profile import ProfiledClassifier, enrol
from vision.pipeline import CardReader
from vision.synthetic.columns import render_overlaps


class _NoIndex(ProfiledClassifier):
    """An enrolled reader that reads no index alone."""

    index_network = None  # type: ignore[assignment]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--designs", nargs="+", default=["gnome-rheinland", "gnome-bellot"])
    parser.add_argument("--pictures", type=int, default=30, help="pictures of 5 cards a design, columns and fans")
    parser.add_argument("--renders", type=Path, default=Path("cache/cards"))
    parser.add_argument("--seed", type=int, default=20261206)
    args = parser.parse_args(argv)
    base = OnnxClassifier()
    for name in args.designs:
        if not (args.renders / name).is_dir():
            print(f"{name}: not rendered in {args.renders}, skipped")
            continue
        views = clean_views(load_design(args.renders / name), 1)
        profile, _ = enrol(base, [views], name)
        readers = {"base": CardReader(base), "enrolled": CardReader(ProfiledClassifier(base, profile)),
                   "enrolled, no index": CardReader(_NoIndex(base, profile))}
        rng = np.random.default_rng(args.seed)
        cards = [c for c in views if c != "back"]
        totals = {k: [0, 0, 0] for k in readers}
        for s in range(args.pictures):
            laid = [(Card.parse(cards[i]), views[cards[i]]) for i in rng.choice(len(cards), 5, replace=False)]
            scene = render_overlaps(laid, rng, (1280, 720), "column" if s % 2 == 0 else "fan",
                                    float(rng.uniform(110, 160)), "white")
            for k, reader in readers.items():
                right, shown, wrong = score_scene(read_without_mat(reader, scene.bgr), [scene])
                totals[k] = [totals[k][0] + right, totals[k][1] + shown, totals[k][2] + wrong]
        for k, (right, shown, wrong) in totals.items():
            print(f"{name}, {k}: {right} of {shown} cards whose index shows read, {wrong} wrong", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
