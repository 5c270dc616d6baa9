"""Make the recorded table shipped with the dealer: a video of a whole round on the mat.

The round is scripted (``DEMO_SCRIPT``); each step is what lies in the play zone, seen by
a synthetic camera (vision.synthetic) with room light, blur and noise. Card faces
come from a real Debian card design rasterised by ``python -m models.render_cards``
(GPL art, like the project), or plainly drawn cards when no render cache exists.

Run: ``python -m dealer.make_demo [--out dealer/data/demo-table.mp4] [--design gnome-anglo]``.
The video is committed (a few MB); the renders it was made from are not.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from calibration.layout import ZONE_PLAY, default_layout
from vision.synthetic import CardPlacement, Lighting, PinholeView, TokenPlacement
from vision.synthetic import render_table_scene as render_scene
from dealer.demo import DEMO_HAND, DEMO_PLAYERS, DEMO_RULE, DEMO_VIDEO

__all__ = ["DEMO_SCRIPT", "Step", "main", "render_steps"]

FPS = 2.0


@dataclass(frozen=True)
class Step:
    """What lies in the play zone for ``seconds``: cards left to right, and tokens."""

    cards: tuple[str, ...] = ()
    tokens: tuple[str, ...] = ()
    seconds: float = 3.5
    note: str = ""


def _lay(cards: str, note: str, tokens: tuple[str, ...] = ()) -> list[Step]:
    return [Step(tuple(cards.split()), tokens, 3.5, note), Step((), (), 1.5, "the cards go to the layout")]


# alternate-colour, players Ana Bo Cy, hands of 5 (dealer/demo.py).
DEMO_SCRIPT: tuple[Step, ...] = (
    Step((), (), 1.5, "the empty mat"),
    *_lay("7H", "starter (C4); rank 7 of 3 players: Ana starts (C5)"),
    *_lay("4C", "Ana: accepted"),
    *_lay("QC", "Bo: rejected, draws 2 (P4)"),
    *_lay("9D 2S", "Cy: a chain, accepted"),
    *_lay("5S", "Ana: rejected, draws 2"),
    Step((), ("no_play",), 1.5, "Bo declares no play (N1) and shows 6 cards in batches"),
    Step(("3C", "8S"), ("no_play",), 3.5, "first batch of the hand"),
    Step((), ("no_play",), 1.0, ""),
    Step(("JS", "KC"), ("no_play",), 3.5, "second batch"),
    Step((), ("no_play",), 1.0, ""),
    Step(("6C", "10S"), ("no_play",), 3.5, "third batch: no red card, no play right (N2)"),
    Step((), (), 1.5, "Bo takes a new hand of 2"),
    *_lay("8H", "Cy: accepted"),
    *_lay("10C", "Ana: accepted"),
    *_lay("KD", "Bo: accepted"),
    *_lay("JS QD", "Cy empties the hand: the round ends (G1)"),
    Step((), (), 2.0, "the end"),
)


def _card_art(design: Path | None) -> dict[str, np.ndarray]:
    art: dict[str, np.ndarray] = {}
    if design is None or not design.is_dir():
        return art
    for png in design.glob("*.png"):
        image = cv2.imread(str(png), cv2.IMREAD_UNCHANGED)
        if image is None:
            continue
        if image.ndim == 3 and image.shape[2] == 4:
            alpha = image[:, :, 3:4].astype(np.float32) / 255.0
            image = (image[:, :, :3] * alpha + 235.0 * (1.0 - alpha)).astype(np.uint8)
        art[png.stem] = image
    return art


def _positions(n: int, token_room_mm: float = 0.0) -> list[tuple[float, float]]:
    """Card centres in the play zone, left to right, apart; room kept on the right for a token."""
    zone = default_layout().zone(ZONE_PLAY)
    xs = [p[0] for p in zone.polygon_mm]
    ys = [p[1] for p in zone.polygon_mm]
    cy = (min(ys) + max(ys)) / 2.0
    left, right = min(xs) + 40.0, max(xs) - 40.0 - token_room_mm
    step = min(75.0, (right - left) / max(1, n - 1)) if n > 1 else 0.0
    start = (left + right) / 2.0 - step * (n - 1) / 2.0
    return [(start + i * step, cy) for i in range(n)]


def render_steps(steps: tuple[Step, ...], art: dict[str, np.ndarray], seed: int = 7,
                 view: PinholeView | None = None) -> Iterator[np.ndarray]:
    rng = np.random.default_rng(seed)
    view = view or PinholeView(tilt_deg=62.0, distance_mm=430.0, target_mm=(132.5, 95.0), size_wh=(1280, 720))
    layout = default_layout()
    zone = layout.zone(ZONE_PLAY)
    token_x = max(p[0] for p in zone.polygon_mm) - 35.0
    token_y = (min(p[1] for p in zone.polygon_mm) + max(p[1] for p in zone.polygon_mm)) / 2.0
    for step in steps:
        pos = _positions(len(step.cards), 75.0 if step.tokens else 0.0)
        cards = tuple(
            CardPlacement(label, (x, y), float(rng.uniform(-6, 6)), art.get(label))
            for label, (x, y) in zip(step.cards, pos, strict=True)
        )
        tokens = tuple(TokenPlacement(name, (token_x, token_y), float(rng.uniform(-10, 10))) for name in step.tokens)
        for _ in range(max(1, round(step.seconds * FPS))):
            light = Lighting(gain=float(rng.uniform(0.92, 1.05)), gradient=(0.15, -0.1), blur_sigma_px=0.7,
                             noise_sigma=2.0)
            yield render_scene(layout, view, tokens, cards, light, rng).frame_bgr


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=DEMO_VIDEO)
    parser.add_argument("--design", default="gnome-anglo", help="a folder under --renders")
    parser.add_argument("--renders", type=Path, default=Path("cache/cards"))
    args = parser.parse_args(argv)
    art = _card_art(args.renders / args.design)
    if not art:
        print(f"no card renders in {args.renders / args.design}: drawing plain cards "
              "(run python -m models.render_cards for real art)", file=sys.stderr)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fourcc = cv2.VideoWriter.fourcc(*"mp4v")
    writer = cv2.VideoWriter(str(args.out), fourcc, FPS, (1280, 720))
    if not writer.isOpened():
        print(f"cannot write {args.out}", file=sys.stderr)
        return 2
    frames = 0
    for frame in render_steps(DEMO_SCRIPT, art):
        writer.write(frame)
        frames += 1
    writer.release()
    size = args.out.stat().st_size / 1e6
    print(f"{args.out}: {frames} frames at {FPS} fps, {size:.1f} MB; players {DEMO_PLAYERS}, "
          f"rule {DEMO_RULE}, hands of {DEMO_HAND}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
