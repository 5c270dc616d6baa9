"""How the classifier reads jokers, a card it never saw (unsure rather than wrong).

Decks come with jokers and one may lie among the cards on the table. Eleusis plays
without them (C1), so a joker must be read as no card: unsure, the dealer asks. This
renders the jokers of every Debian card sheet that has them (gnome-cards-data: ids
``joker_black`` / ``joker_red``; KDE nicu decks: ``black_joker`` / ``red_joker``) into
``cache/jokers`` (out of git), reads each as given and in 5 small reframings (a crop up to
4 % into the card on each side, every second one turned half round) with the still-image
rule (``eleusis read``) and the live rule, and counts those read as a card.

Run: ``python -m models.evaluate_jokers [--models models]`` (about a minute).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from models.render_cards import GNOME_DIR, KDE_DIR, rasterise
from vision.classify import OnnxClassifier
from vision.preprocess import RECT_H, RECT_W

IDS = ("joker_black", "joker_red", "black_joker", "red_joker")
TABLE_GREY = 120  # what shows through a sheet's transparent corners


def render_jokers(out: Path) -> list[tuple[str, np.ndarray]]:
    """(name, BGR image) of every joker the installed sheets hold."""
    out.mkdir(parents=True, exist_ok=True)
    sheets = sorted(GNOME_DIR.glob("*.svgz")) + sorted(KDE_DIR.glob("svg-nicu-*/*.svgz"))
    jokers = []
    for sheet in sheets:
        for svg_id in IDS:
            path = out / f"{sheet.stem}-{svg_id}.png"
            if not path.is_file():
                try:
                    img = rasterise(["-i", svg_id, "-z", "1.0", str(sheet)], svg_id)
                except (ValueError, RuntimeError, OSError):
                    continue  # this sheet has no such id
                h, w = img.shape[:2]
                if not 1.15 < h / w < 1.8:
                    continue
                if img.shape[2] == 4:
                    alpha = img[:, :, 3:4].astype(np.float32) / 255.0
                    img = (img[:, :, :3] * alpha + TABLE_GREY * (1 - alpha)).astype(np.uint8)
                cv2.imwrite(str(path), img)
            image = cv2.imread(str(path))
            if image is not None:
                jokers.append((path.stem, image))
    return jokers


def views_of(image: np.ndarray, rng: np.random.Generator, count: int = 6) -> list[np.ndarray]:
    """The joker warped upright as given, then ``count - 1`` reframings."""
    h, w = image.shape[:2]
    out = []
    for k in range(count):
        crop = image
        if k:
            m = rng.uniform(0.0, 0.04, 4)
            crop = image[int(m[1] * h):h - int(m[3] * h), int(m[0] * w):w - int(m[2] * w)]
        card = cv2.resize(crop, (RECT_W, RECT_H), interpolation=cv2.INTER_AREA)
        out.append(np.ascontiguousarray(card[::-1, ::-1]) if k % 2 else card)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=Path("models"))
    parser.add_argument("--cache", type=Path, default=Path("cache/jokers"))
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args(argv)
    jokers = render_jokers(args.cache)
    if not jokers:
        print("no jokers found: install gnome-cards-data (and kdegames-card-data-kf5)", file=sys.stderr)
        return 1
    rng = np.random.default_rng(args.seed)
    cards, names = [], []
    for name, image in jokers:
        for view in views_of(image, rng):
            cards.append(view)
            names.append(name)
    base = OnnxClassifier(args.models / "card_classifier.onnx", args.models / "card_classifier.json")
    print(f"{len(jokers)} jokers from the Debian sheets, {len(cards)} images (as given + 5 reframings each)")
    for rule, model in (("still (eleusis read)", base.with_rule("still")), ("live (eleusis play)", base)):
        readings = model.classify(cards)
        read = [(n, str(r.label), r.confidence) for n, r in zip(names, readings, strict=True) if r.label is not None]
        print(f"{rule}: read as a card {len(read)} of {len(cards)} ({len(read) / len(cards):.2%})")
        for name, label, confidence in read:
            print(f"  {name}: {label} {confidence:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
