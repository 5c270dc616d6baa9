"""Figures on card art nobody trained or tuned on (not part of the test suite).

Reads the designs under ``--art`` (default ``cache/npm-cards``, made by
``python -m models.fetch_npm_decks``: Adrian Kennard's deck from npm, CC0): each design's cards
in *plain* and *table* conditions (``models.dataset.PLAIN_CONFIG`` and ``TABLE_CONFIG``, the
deck's own ink) under

- the base reader without enrolment, both accept rules: ``still`` (`eleusis read`) and
  ``live`` (play);
- a deck profile enrolled from clean views of the design (``models.evaluate_enrolment``).

Nothing here chooses a number: the rules are what `models/card_classifier.json` and
`vision/deck_profile.py` hold. Run: ``python -m models.evaluate_new_art [--samples 3000]``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from models.dataset import TABLE_CONFIG, load_design, make_samples
from models.evaluate_enrolment import both_rules, clean_views, score
from vision.classify import CardReading, OnnxClassifier
from vision.deck_profile import ProfiledClassifier, enrol


def read_all(classifier: OnnxClassifier, images: list[np.ndarray]) -> list[CardReading]:
    return [r for i in range(0, len(images), 64) for r in classifier.classify(images[i:i + 64])]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=Path("models"))
    parser.add_argument("--art", type=Path, default=Path("cache/npm-cards"))
    parser.add_argument("--samples", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=909)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    folders = sorted(p.parent for p in args.art.glob("*/done"))
    if not folders:
        print(f"no design under {args.art}: run python -m models.fetch_npm_decks", file=sys.stderr)
        return 2
    model, meta = args.models / "card_classifier.onnx", args.models / "card_classifier.json"
    readers = {rule: OnnxClassifier(model, meta, rule=rule) for rule in ("still", "live")}
    report: dict[str, object] = {"model": readers["live"].meta_version}
    for k, folder in enumerate(folders):
        design = load_design(folder)
        seed = args.seed + 100 * k
        sets = {"plain": make_samples([design], args.samples, seed, plain=True, inks=False),
                "table": make_samples([design], args.samples, seed + 1, inks=False, config=TABLE_CONFIG)}
        for cond, (images, labels) in sets.items():
            for rule, reader in readers.items():
                report[f"{folder.name}_{cond}_{rule}"] = score(f"{folder.name}, {cond}, no enrolment, {rule} rule",
                                                              read_all(reader, images), labels)
        profile, _ = enrol(readers["live"], [clean_views(design, seed + 2)], folder.name)
        enrolled = ProfiledClassifier(readers["live"], profile)
        for cond, (images, labels) in sets.items():
            both_rules(f"{folder.name}, {cond}, enrolled", enrolled, images, labels, report, f"{folder.name}_{cond}_enrolled")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
