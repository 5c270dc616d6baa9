"""The pips counted on number cards (:func:`vision.pips.count_pips`): counted right, miscounted, not counted.

    PYTHONPATH=$PWD python3 -m bench.pip_count [--per-design 120] [--made-up 300] [--seed 4242] [--sets tuning|test]

The count settles a number card the network's rule refused (``OnnxClassifier.pips_settle``),
so a miscount is what must not happen; a card left uncounted only stays unsure. The samples
are the training recipe's (``models.dataset.make_samples``), plain and hard, of the rendered
*tuning* designs (every design but the test ones: ``models.dataset.HOLDOUT_DESIGNS`` less the
calibration designs) and of made-up decks (``models.procedural_deck``, 4 a court-letter set,
seed 555 as the calibration decks), or with ``--sets test`` of the test designs. Each number
card's count is printed against its rank, by design, and the miscounts are listed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

from models.dataset import CLASSES, HOLDOUT_DESIGNS, load_design, make_samples, rendered_designs
from vision.pips import count_pips

RENDERS = Path("cache/cards")
META = Path(__file__).resolve().parent.parent / "models" / "card_classifier.json"


def _rank(label: int) -> int:
    name = CLASSES[label]
    return int(name[:-1]) if name[:-1].isdigit() else 0


def tally(cards: list[np.ndarray], labels: np.ndarray, title: str, out: Counter[str]) -> str:
    """Count the number cards among ``cards`` into ``out``; one line for ``title``."""
    mine: Counter[str] = Counter()
    for card, label in zip(cards, labels, strict=True):
        rank = _rank(int(label))
        if not rank:
            continue
        n = count_pips(card)
        mine["cards"] += 1
        if n is None:
            mine["uncounted"] += 1
        elif n == rank:
            mine["right"] += 1
        else:
            mine["miscounted"] += 1
            print(f"  miscounted on {title}: {CLASSES[int(label)]} counted {n}")
    out.update(mine)
    return f"{title:36s} number cards {mine['cards']:5d}: right {mine['right']:5d}, miscounted {mine['miscounted']:3d}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-design", type=int, default=120, help="samples a design and recipe")
    parser.add_argument("--made-up", type=int, default=300, help="samples a court-letter set and recipe")
    parser.add_argument("--seed", type=int, default=4242)
    parser.add_argument("--sets", choices=("tuning", "test"), default="tuning")
    args = parser.parse_args(argv)
    calibration = set(json.loads(META.read_text())["holdout"]["calibration_designs"])
    test = [d for d in HOLDOUT_DESIGNS if d not in calibration]
    have = rendered_designs(RENDERS)
    designs = [d for d in have if (d in test) == (args.sets == "test")]
    if not designs:
        print(f"no rendered designs in {RENDERS} (python3 -m models.render_cards)", file=sys.stderr)
        return 2
    started = time.process_time()
    totals = {"plain": Counter[str](), "hard": Counter[str]()}
    for k, name in enumerate(designs):
        design = load_design(RENDERS / name)
        for recipe, plain in (("plain", True), ("hard", False)):
            cards, labels = make_samples([design], args.per_design, args.seed + 2 * k + plain, plain=plain)
            print(tally(cards, labels, f"{name} {recipe}", totals[recipe]), flush=True)
    if args.sets == "tuning" and args.made_up:
        from models.procedural_deck import COURT_LETTERS, make_design

        for j, letters in enumerate(COURT_LETTERS):
            rng = np.random.default_rng(555 + 1000 + j)
            made = [make_design(rng, letters) for _ in range(4)]
            for recipe, plain in (("plain", True), ("hard", False)):
                cards, labels = make_samples(made, args.made_up, args.seed + 100 + 2 * j + plain, plain=plain)
                print(tally(cards, labels, f"made-up {letters} {recipe}", totals[recipe]), flush=True)
    for recipe, t in totals.items():
        print(f"all, {recipe}: {t['cards']} number cards, counted right {t['right']} ({t['right'] / max(1, t['cards']):.1%}), "
              f"miscounted {t['miscounted']}, not counted {t['uncounted']}")
    print(f"{time.process_time() - started:.0f} s of processor")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
