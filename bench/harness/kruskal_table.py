"""A Kruskal round filmed on a rendered table (docs/rules-variants.md KR1-KR8): the oracle
turns each card alone into the play zone, the players show their TRUE/FALSE tokens in the
prediction strip (calibration/kruskal_tokens.py), and after the verdict the card goes to
the main line or below its end while the tokens are taken back.

The script is the truth: :func:`kruskal_record` is the same round as a game record, for
`eleusis judge --variant kruskal` to check what `eleusis play --video --variant kruskal`
dealt from the film.

Run: ``python -m bench.harness.kruskal_table --out kruskal-table.mp4`` (a few seconds a card).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from bench.harness.make_demo import Step, StepRenderer, filmed, load_faces
from calibration.kruskal_tokens import kruskal_tokens, strip_place
from calibration.layout import TableLayout, default_layout
from engine.cards import Card
from engine.events import OracleTurn
from engine.record import format_record
from engine.rules import resolve_rule
from engine.variants.kruskal import KruskalRound
from vision.synthetic import CardFace, PinholeView

__all__ = ["KRUSKAL_VIEW", "SHORT_ROUND", "KruskalScript", "kruskal_layout", "kruskal_record", "kruskal_steps",
           "write_kruskal_video"]

FPS = 2.0
# From the players' side, far enough back to see the play zone, the layout's near rows and the strip.
KRUSKAL_VIEW = PinholeView(tilt_deg=60.0, distance_mm=560.0, target_mm=(132.5, 170.0), size_wh=(1280, 720))


@dataclass(frozen=True)
class KruskalScript:
    """Who plays, the rule, the starter, the cards the oracle turns, and for each card each
    seat's token (True: main line)."""

    players: tuple[str, ...]
    rule: str
    starter: str
    cards: tuple[str, ...]
    tokens: tuple[tuple[bool, ...], ...]


# alternate-colour, start 7H: QC main, 2S side, 9D main, KH side, 4S main; the worked
# example of docs/rules-variants.md (Ana 5, Bo 2, Cy 3, the oracle 3).
SHORT_ROUND = KruskalScript(
    ("Ana", "Bo", "Cy"), "alternate-colour", "7H", ("QC", "2S", "9D", "KH", "4S"),
    ((True, False, True), (False, False, True), (True, True, True), (False, True, False), (True, False, False)))


def kruskal_layout(base: TableLayout | None = None) -> TableLayout:
    """The mat with every seat's Kruskal tokens, so that the renderer can draw them."""
    base = base or default_layout()
    return TableLayout(base.markers, base.zones, base.tokens + kruskal_tokens(), base.dictionary, base.sheet_size_mm)


def _round(script: KruskalScript) -> KruskalRound:
    rnd = KruskalRound.new(resolve_rule(script.rule), script.players, (Card.parse(script.starter),),
                           rule_text=script.rule)
    for card, said in zip(script.cards, script.tokens, strict=True):
        rnd.apply(OracleTurn(Card.parse(card), tuple(zip(script.players, said, strict=True))))
    return rnd


def kruskal_record(script: KruskalScript) -> str:
    """The script's round as a game record (`eleusis judge` reads it)."""
    return format_record(_round(script).events)


def kruskal_steps(script: KruskalScript) -> tuple[Step, ...]:
    """What lies on the table, step by step: each card alone, then with the tokens, then
    gone to its place in the layout (P3, P4) with the tokens taken back."""
    rnd = _round(script)
    steps = [Step((), (), 1.5, "the empty mat"), Step((script.starter,), (), 3.0, "the starter (KR2)")]
    line: list[str] = [script.starter]
    branches: list[tuple[int, tuple[str, ...]]] = []
    steps.append(Step((), (), 1.5, "the starter goes to the main line", line=tuple(line)))
    for card, said, turn in zip(script.cards, script.tokens, rnd.turns, strict=True):
        laid, branched = tuple(line), tuple(branches)
        shown = tuple((f"seat{seat}_{'true' if main else 'false'}", strip_place(seat, len(script.players)))
                      for seat, main in enumerate(said, start=1))
        steps.append(Step((card,), (), 2.5, f"the oracle turns {card}", line=laid, branches=branched))
        steps.append(Step((card,), (), 3.0, "the players show their tokens", line=laid, branches=branched,
                          placed_tokens=shown))
        if turn.verdict.value == "accepted":
            line.append(card)
        else:
            branches.append((len(line) - 1, (card,)))
        steps.append(Step((), (), 1.5, "the card to its place, the tokens taken back", line=tuple(line),
                          branches=tuple(branches)))
    steps.append(Step((), (), 2.0, "the end", line=tuple(line), branches=tuple(branches)))
    return tuple(steps)


def kruskal_frames(script: KruskalScript, faces: dict[str, CardFace], view: PinholeView = KRUSKAL_VIEW,
                   fps: float = FPS, seed: int = 11) -> Iterator[np.ndarray]:
    """The film's frames; card faces by label (bench.harness.make_demo.load_faces), plain
    drawn cards for those missing."""
    renderer = StepRenderer(faces, seed, view, layout=kruskal_layout())
    for _step, frame in filmed(renderer, kruskal_steps(script), fps):
        yield frame


def write_kruskal_video(path: Path, faces: dict[str, CardFace], script: KruskalScript = SHORT_ROUND,
                        view: PinholeView = KRUSKAL_VIEW, fps: float = FPS) -> int:
    """Film the script into ``path`` (mp4); returns the number of frames."""
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"), fps, view.size_wh)
    if not writer.isOpened():
        raise OSError(f"cannot write {path}")
    frames = 0
    try:
        for frame in kruskal_frames(script, faces, view, fps):
            writer.write(frame)
            frames += 1
    finally:
        writer.release()
    return frames


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("kruskal-table.mp4"))
    parser.add_argument("--faces", type=Path, default=Path("/work/shared/data/real-cards/single"),
                        help="a folder of card faces (<label>.png renders or photographs); plain cards without")
    args = parser.parse_args(argv)
    frames = write_kruskal_video(args.out, load_faces(args.faces))
    s = SHORT_ROUND
    print(f"{args.out}: {frames} frames at {FPS} fps; players {' '.join(s.players)}, rule {s.rule}, "
          f"starter {s.starter}, cards {' '.join(s.cards)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
