"""Fetch and render card art published on npm, for *evaluation* only (card art the model never saw).

The one deck used: ``@letele/playing-cards`` 0.1.0 (licence CC0-1.0): Adrian Kennard's SVG
playing cards (https://www.me.uk/cards/) as React components. ``models/npm_deck_svgs.mjs``
(node) writes each component as a plain SVG; ``rsvg-convert`` renders it 420 px tall and the
transparent margin is trimmed, as for the Debian designs (:mod:`models.render_cards`).

Output: ``cache/npm-cards/npm-kennard/<label>.png`` (BGRA) and ``done``. It is kept apart from
``cache/cards`` on purpose: nothing trains or tunes on it; ``models/evaluate_new_art.py``
reads it as a design never seen. Needs network access to the npm registry, node and
librsvg2-bin. Looked at and not used: ``svg-cards`` (LGPL-2.1: David Bellot's SVG-cards, the
same art as gnome ``bellot``, a test design already) and ``deck-of-cards`` (MIT code; its
example faces have no corner index).

Run: ``python -m models.fetch_npm_decks [--out cache/npm-cards]``.
"""

from __future__ import annotations

import argparse
import logging
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import cv2

from engine.cards import Card
from models.render_cards import RENDER_HEIGHT_PX, card_labels, rasterise

log = logging.getLogger("fetch_npm_decks")

PACKAGE = "@letele/playing-cards@0.1.0"
DESIGN = "npm-kennard"
CONVERTER = Path(__file__).with_name("npm_deck_svgs.mjs")
BACK = "B2"  # B1 and B2 are its two backs


def component_of(label: str) -> str:
    """The package's component name of ``label``: ``QS`` -> ``Sq``, ``10D`` -> ``D10``, ``back`` -> ``B2``."""
    if label == "back":
        return BACK
    card = Card.parse(label)
    rank = {1: "a", 11: "j", 12: "q", 13: "k"}.get(card.rank, str(card.rank))
    return f"{label[-1]}{rank}"


def fetch(out_root: Path) -> Path:
    folder = out_root / DESIGN
    if (folder / "done").exists():
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        subprocess.run(["npm", "pack", PACKAGE, "--silent"], cwd=work, check=True, capture_output=True, timeout=300)
        with tarfile.open(next(work.glob("*.tgz"))) as tar:
            tar.extractall(work, filter="data")
        svgs = work / "svg"
        subprocess.run(["node", str(CONVERTER), str(work / "package/dist/index.esm.js"), str(svgs)], check=True,
                       capture_output=True, timeout=300)
        for label in card_labels():
            svg = svgs / f"{component_of(label)}.svg"
            cv2.imwrite(str(folder / f"{label}.png"), rasterise(["-h", str(RENDER_HEIGHT_PX), str(svg)], str(svg)))
    (folder / "done").write_text(f"{PACKAGE} (CC0-1.0)\n")
    return folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("cache/npm-cards"))
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        print(fetch(args.out))
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError, ValueError, StopIteration) as exc:
        print(f"fetch_npm_decks: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
