"""Rasterise the Debian card designs into a cache of PNG faces (training input, never committed).

Sources (both GPL, see models/MODEL_CARD.md):
- ``gnome-cards-data``: ``/usr/share/aisleriot/cards/*.svgz``, ids like ``heart_queen``, ``club_1``.
- ``kdegames-card-data-kf5``: ``/usr/share/carddecks/svg-*/*.svgz``, ids like ``queen_heart``, ``1_club``.

Each card is rendered with ``rsvg-convert -i ID -h HEIGHT -a`` and the transparent margin is
trimmed. Output: ``cache/cards/<design>/<label>.png`` (BGRA) with labels from ``engine.cards``
(``QS``, ``10H``, ``AC``) plus ``back``. Designs that fail are skipped with a log line.

Run: ``python -m models.render_cards [--out cache/cards] [--jobs 2]``.
"""

from __future__ import annotations

import argparse
import logging
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from engine.cards import Card, Suit, all_kinds

log = logging.getLogger("render_cards")

GNOME_DIR = Path("/usr/share/aisleriot/cards")
KDE_DIR = Path("/usr/share/carddecks")
# kde decks that are not standard French-suited vector decks (see ENVIRONMENT.md)
KDE_SKIP = frozenset({"svg-xskat-german", "svg-konqi-modern", "svg-xskat-french", "svg-future"})
# gnome sheets that duplicate another sheet (the same art) and would leak across the holdout
GNOME_SKIP = frozenset({"Атласные"})
RENDER_HEIGHT_PX = 420

_SUIT_WORD = {Suit.CLUBS: "club", Suit.DIAMONDS: "diamond", Suit.HEARTS: "heart", Suit.SPADES: "spade"}
_RANK_WORD = {11: "jack", 12: "queen", 13: "king"}


@dataclass(frozen=True, slots=True)
class Design:
    """One card design: a name unique across sources, its sheet, and its id scheme."""

    name: str
    source: str  # "gnome" or "kde"
    sheet: Path

    def svg_id(self, label: str) -> str:
        """The element id of ``label`` (``'QH'`` or ``'back'``) in this sheet."""
        if label == "back":
            return "back"
        card = Card.parse(label)
        rank = _RANK_WORD.get(card.rank, str(card.rank))
        suit = _SUIT_WORD[card.suit]
        return f"{suit}_{rank}" if self.source == "gnome" else f"{rank}_{suit}"


def card_labels() -> list[str]:
    """The 52 card labels in engine order, then ``back``."""
    return [str(card) for card in all_kinds()] + ["back"]


def discover_designs() -> list[Design]:
    """Every usable design installed on this machine (empty when the packages are absent)."""
    designs: list[Design] = []
    if GNOME_DIR.is_dir():
        for sheet in sorted(GNOME_DIR.glob("*.svgz")):
            if sheet.stem not in GNOME_SKIP:
                designs.append(Design(f"gnome-{sheet.stem}", "gnome", sheet))
    if KDE_DIR.is_dir():
        for folder in sorted(KDE_DIR.glob("svg-*")):
            sheets = sorted(folder.glob("*.svgz"))
            if folder.name in KDE_SKIP or not sheets:
                continue
            designs.append(Design(f"kde-{folder.name[4:]}", "kde", sheets[0]))
    return designs


def trim_transparent(bgra: np.ndarray) -> np.ndarray:
    """Crop ``bgra`` to the bounding box of its non-transparent pixels (alpha > 8)."""
    if bgra.ndim != 3 or bgra.shape[2] != 4:
        raise ValueError(f"trim_transparent needs a BGRA image, got shape {bgra.shape}")
    ys, xs = np.nonzero(bgra[:, :, 3] > 8)
    if len(ys) == 0:
        raise ValueError("trim_transparent: the image is fully transparent")
    return bgra[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def rasterise(options: list[str], what: str) -> np.ndarray:
    """``rsvg-convert OPTIONS`` as a trimmed BGRA array; ValueError naming ``what`` on failure."""
    proc = subprocess.run(["rsvg-convert", *options], capture_output=True, timeout=60)
    if proc.returncode != 0 or not proc.stdout:
        raise ValueError(f"rsvg-convert failed for {what}: {proc.stderr[:200]!r}")
    image = cv2.imdecode(np.frombuffer(proc.stdout, np.uint8), cv2.IMREAD_UNCHANGED)
    if image is None or image.ndim != 3 or image.shape[2] != 4:
        raise ValueError(f"{what} did not decode as BGRA")
    return trim_transparent(image)


def render_one(design: Design, label: str, zoom: float = 1.0) -> np.ndarray:
    """Render one card of ``design`` as a trimmed BGRA array (raises ValueError on failure).

    A fixed zoom (not ``-h``) is used: some sheets give elements a bounding box larger than the
    visible card, and ``-h`` would then shrink the card.
    """
    svg_id = design.svg_id(label)
    card = rasterise(["-i", svg_id, "-z", f"{zoom:.4f}", str(design.sheet)], f"id {svg_id!r} in {design.sheet}")
    h, w = card.shape[:2]
    if not 1.15 < h / w < 1.8 or h < 40:
        raise ValueError(f"id {svg_id!r} in {design.sheet} has an odd shape {w}x{h}")
    return card


def render_design(design: Design, out_root: Path) -> bool:
    """Render all 53 images of ``design`` into ``out_root/<name>/``; False (and logged) if broken."""
    folder = out_root / design.name
    if (folder / "done").exists():
        return True
    folder.mkdir(parents=True, exist_ok=True)
    try:
        zoom = RENDER_HEIGHT_PX / render_one(design, "AC").shape[0]
    except (ValueError, subprocess.TimeoutExpired) as err:
        log.warning("skipping design %s: %s", design.name, err)
        return False
    for label in card_labels():
        try:
            card = render_one(design, label, zoom)
        except (ValueError, subprocess.TimeoutExpired) as err:
            log.warning("skipping design %s: %s", design.name, err)
            (folder / "broken").write_text(str(err))
            return False
        cv2.imwrite(str(folder / f"{label}.png"), card)
    (folder / "done").write_text("ok\n")
    log.info("rendered %s", design.name)
    return True


def render_all(out_root: Path, jobs: int = 2) -> list[str]:
    """Render every discovered design (at most ``jobs`` rsvg processes); return the good names."""
    designs = discover_designs()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        ok = list(pool.map(lambda d: render_design(d, out_root), designs))
    return [d.name for d, good in zip(designs, ok) if good]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("cache/cards"))
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    if not discover_designs():
        log.error("no card designs found: apt-get install gnome-cards-data kdegames-card-data-kf5")
        return 1
    good = render_all(args.out, args.jobs)
    log.info("%d designs rendered: %s", len(good), " ".join(good))
    return 0


if __name__ == "__main__":
    sys.exit(main())
