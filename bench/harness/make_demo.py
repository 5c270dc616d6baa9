"""Make the recorded table shipped with the dealer: a video of a whole round on the mat.

The round is scripted (``DEMO_SCRIPT``); each step is what lies in the play zone, seen by
a synthetic camera (vision.synthetic) with room light, blur and noise. Card faces
come from a real Debian card design rasterised by ``python -m models.render_cards``
(GPL art, like the project), or plainly drawn cards when no render cache exists.

Run: ``python -m bench.harness.make_demo [--out dealer/data/demo-table.mp4] [--design gnome-anglo]``.
The video is committed (a few MB); the renders it was made from are not.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from calibration.layout import PLACE_MM, ZONE_MAIN_LINE, ZONE_PLAY, ZONE_SIDE_BRANCHES, TableLayout, default_layout
from engine.cards import Card
from vision.geometry import CARD_H_MM, CARD_W_MM
from vision.synthetic import CardPlacement, HandPlacement, Lighting, PinholeView, TokenPlacement, apply_lighting
from vision.synthetic import render_table_scene as render_scene
from vision.synthetic.auto_camera import AutoCamera
from vision.synthetic.sway import Sway
from vision.synthetic.cards import CardFace, cut_out
from dealer.app.demo import DEMO_HAND, DEMO_PLAYERS, DEMO_RULE, DEMO_VIDEO

__all__ = ["ARM_S", "DEMO_SCRIPT", "Nudge", "Step", "StepRenderer", "arm_sweep", "load_faces", "main", "render_steps"]

FPS = 2.0


@dataclass(frozen=True)
class Step:
    """What lies on the table for ``seconds``: play-zone cards left to right and tokens;
    whether a hand is over the play zone; the main line as laid (``"prophet"`` is the
    PROPHET token in its place, F2) and the side branches as (line slot, cards) (P4)."""

    cards: tuple[str, ...] = ()
    tokens: tuple[str, ...] = ()
    seconds: float = 3.5
    note: str = ""
    hand: bool = False
    line: tuple[str, ...] = ()
    branches: tuple[tuple[int, tuple[str, ...]], ...] = ()
    straight: bool = False  # laid again when the dealer asked: flat and straight
    # an arm reaching from the players' edge across the play zone to the layout beyond it:
    # its fingertip (table mm); the hand of ``hand`` is then this arm
    arm_tip_mm: tuple[float, float] | None = None
    # tokens lying elsewhere on the table, by name, at their tile's centre (table mm): a
    # Kruskal round's TRUE/FALSE tokens in the prediction strip (bench/harness/kruskal_table.py)
    placed_tokens: tuple[tuple[str, tuple[float, float]], ...] = ()


def _lay(cards: str, note: str, tokens: tuple[str, ...] = ()) -> list[Step]:
    return [Step(tuple(cards.split()), tokens, 3.5, note), Step((), (), 1.5, "the cards go to the layout")]


# alternate-colour, players Ana Bo Cy, hands of 5 (dealer/app/demo.py).
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


def _card_art(design: Path | None) -> dict[str, CardFace]:
    return load_faces(design) if design is not None else {}


def load_faces(folder: Path) -> dict[str, CardFace]:
    """Card faces by label (``"QS"``) from a folder of ``<label>.png`` renders (models/render_cards.py,
    their transparent corners kept as the outline) or ``<label>.jpg`` photographs (``qs.jpg``,
    ``10c.jpg``), cut out as they are: a photo keeps its own light. Other files are left out."""
    art: dict[str, CardFace] = {}
    if not folder.is_dir():
        return art
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() not in (".png", ".jpg", ".jpeg"):
            continue
        try:
            card = Card.parse(path.stem)
        except ValueError:
            continue
        image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
        if image is None:
            continue
        if image.ndim == 3 and image.shape[2] == 4:
            alpha = image[:, :, 3].astype(np.float32) / 255.0
            art[str(card)] = CardFace(card, np.ascontiguousarray(image[:, :, :3]), alpha)
        elif image.ndim == 3:
            art[str(card)] = cut_out(np.asarray(image, np.uint8), card)
    return art


def _placed(label: str, centre: tuple[float, float], angle: float, art: dict[str, CardFace],
            size_mm: tuple[float, float] = (CARD_W_MM, CARD_H_MM)) -> CardPlacement:
    face = art.get(label)
    if face is None:
        return CardPlacement(label, centre, angle, size_mm=size_mm)
    return CardPlacement(label, centre, angle, face.image_bgr, face.alpha, size_mm)


def _play_row(token_room_mm: float) -> tuple[float, float, float]:
    """Where a batch goes in the play zone: its left and right limits and its height (mm),
    room kept on the right for a token."""
    zx0, zy0, zx1, zy1 = _zone_box(default_layout(), ZONE_PLAY)
    return zx0 + 40.0, zx1 - 40.0 - token_room_mm, (zy0 + zy1) / 2.0


def _positions(n: int, token_room_mm: float = 0.0) -> list[tuple[float, float]]:
    """Card centres in the play zone, left to right, apart; room kept on the right for a token."""
    left, right, cy = _play_row(token_room_mm)
    step = min(75.0, (right - left) / max(1, n - 1)) if n > 1 else 0.0
    start = (left + right) / 2.0 - step * (n - 1) / 2.0
    return [(start + i * step, cy) for i in range(n)]


def _touching_positions(n: int, token_room_mm: float, rng: np.random.Generator) -> list[tuple[float, float]]:
    """Card centres of a batch laid touching, left to right: each card up to 2 mm over the
    one before it or 1 mm apart, and not lined up (up to 10 mm higher or lower)."""
    left, right, cy = _play_row(token_room_mm)
    gaps = np.array([CARD_W_MM + float(rng.uniform(-2.0, 1.0)) for _ in range(max(0, n - 1))])
    xs = (left + right) / 2.0 - gaps.sum() / 2.0 + np.concatenate([[0.0], np.cumsum(gaps)])
    return [(float(x), cy + float(rng.uniform(-10.0, 10.0))) for x in xs]


def _room_light(rng: np.random.Generator) -> Lighting:
    return Lighting(gain=float(rng.uniform(0.92, 1.05)), gradient=(0.15, -0.1), blur_sigma_px=0.7, noise_sigma=2.0)


def _zone_box(layout: TableLayout, name: str) -> tuple[float, float, float, float]:
    xs = [p[0] for p in layout.zone(name).polygon_mm]
    ys = [p[1] for p in layout.zone(name).polygon_mm]
    return min(xs), min(ys), max(xs), max(ys)


# Overlapped side-branch columns (``columns``): each card covers this share of the one before
# it, drawn per card, so that only the top of the card under it shows, its index among it
# (a standard index reaches about 25 mm down a 89 mm card; a half covers 44 mm).
COLUMN_COVER = (0.5, 0.65)


def _layout_placements(step: Step, layout: TableLayout, art: dict[str, CardFace], rng: np.random.Generator,
                       card_mm: tuple[float, float] = (CARD_W_MM, CARD_H_MM), overlapped: bool = False
                       ) -> tuple[list[CardPlacement], list[TokenPlacement]]:
    """The main line left to right in its zone, one place each (PLACE_MM), and each side branch
    down the table below its line slot, overlapping when the column is long (P3, P4); with
    ``overlapped``, every card of a column half or more over the one before it (a small table)."""
    cards: list[CardPlacement] = []
    tokens: list[TokenPlacement] = []
    if not step.line:
        return cards, tokens
    x0, y0, _x1, y1 = _zone_box(layout, ZONE_MAIN_LINE)
    line_y = (y0 + y1) / 2.0
    for slot, item in enumerate(step.line):
        x = x0 + PLACE_MM * (slot + 0.5)
        jitter = (float(rng.uniform(-2, 2)), float(rng.uniform(-2, 2)))
        if item == "prophet":
            tokens.append(TokenPlacement("prophet", (x + jitter[0], line_y + jitter[1]), float(rng.uniform(-5, 5))))
        else:
            cards.append(_placed(item, (x + jitter[0], line_y + jitter[1]), float(rng.uniform(-4, 4)), art, card_mm))
    _bx0, by0, _bx1, by1 = _zone_box(layout, ZONE_SIDE_BRANCHES)
    columns: dict[int, list[str]] = {}
    for slot, branch in step.branches:
        columns.setdefault(slot, []).extend(branch)
    for slot, column in columns.items():
        x = x0 + PLACE_MM * (slot + 0.5)
        room = (by1 - by0) - 20.0 - 88.0
        pitch = min(95.0, room / max(1, len(column) - 1))
        y = by0 + 10.0 + 44.0
        for k, label in enumerate(column):
            if overlapped and k:
                y += min(pitch, card_mm[1] * (1.0 - float(rng.uniform(*COLUMN_COVER))))
            elif k:
                y += pitch
            cards.append(_placed(label, (x + float(rng.uniform(-2, 2)), y), float(rng.uniform(-4, 4)), art, card_mm))
    return cards, tokens


# Seconds an arm takes to reach across the play zone to the layout and come back (a player
# putting the cards on the line, the main line lying beyond the play zone).
ARM_S = 1.5


def arm_sweep(step: Step, fps: float, layout: TableLayout | None = None) -> list[Step]:
    """``step`` as frames (one step each, ``1 / fps`` long) of an arm that sweeps from the
    players' edge across the whole play zone to the main line's next place, beyond it, and
    comes back: out of view at the far end when the camera sees the play zone only."""
    layout = layout or default_layout()
    zx0, _zy0, zx1, zy1 = _zone_box(layout, ZONE_PLAY)
    lx0, ly0, _lx1, ly1 = _zone_box(layout, ZONE_MAIN_LINE)
    x_line = lx0 + PLACE_MM * (len(step.line) + 0.5)
    x = min(max(x_line, zx0 + 40.0), zx1 - 40.0)
    start, end = (x, zy1 + 40.0), (x_line, (ly0 + ly1) / 2.0)
    n = max(2, round(ARM_S * fps))
    half = (n + 1) // 2
    out_to = [(k + 1) / half for k in range(half)]  # out to the line (1: there), then back
    out = []
    for reach in out_to + out_to[::-1][n % 2:]:
        tip = (start[0] + reach * (end[0] - start[0]), start[1] + reach * (end[1] - start[1]))
        out.append(replace(step, seconds=1.0 / fps, hand=True, arm_tip_mm=tip))
    return out


@dataclass(frozen=True)
class Nudge:
    """The camera knocked (an elbow against its stand) when the ``at``-th table state is
    rendered: it turns and shifts a little, and stays there."""

    at: int
    tilt_deg: float = 0.0
    yaw_deg: float = 0.0
    aim_mm: tuple[float, float] = (0.0, 0.0)  # where it looks moves by this on the table

    def of(self, view: PinholeView) -> PinholeView:
        return replace(view, tilt_deg=view.tilt_deg + self.tilt_deg, yaw_deg=view.yaw_deg + self.yaw_deg,
                       target_mm=(view.target_mm[0] + self.aim_mm[0], view.target_mm[1] + self.aim_mm[1]))


class StepRenderer:
    """Renders table states (:class:`Step`) one at a time: the still table of a step, lit once,
    then frame after frame of it with the camera's own flicker and noise. The round bench's
    scripted players (bench/harness/scripted_table.py) decide the next step after each frame.
    ``nudges`` knock the camera at given table states; ``auto_camera`` is the camera's own
    exposure and white balance, following what it films (vision/synthetic/auto_camera.py);
    ``sway`` a camera that is never quite still (vision/synthetic/sway.py)."""

    def __init__(self, art: dict[str, CardFace], seed: int = 7, view: PinholeView | None = None,
                 lighting: Callable[[np.random.Generator], Lighting] | None = None,
                 layout: TableLayout | None = None, table: str = "wood", kit_print: str = "colour",
                 touching: bool = False, nudges: Sequence[Nudge] = (),
                 auto_camera: AutoCamera | None = None, sway: Sway | None = None, card_mm: tuple[float, float] = (CARD_W_MM, CARD_H_MM),
                 columns: bool = False) -> None:
        self.card_mm = card_mm  # the deck's card size (poker 63.5 x 88.9 mm by default)
        self.columns = columns  # side branches laid as overlapped columns (_layout_placements)
        self.layout_cards: tuple[CardPlacement, ...] = ()  # the main line's and side branches' cards last rendered
        self.nudges = tuple(nudges)
        self.auto_camera = auto_camera
        self.sway = sway
        self.states = 0  # table states rendered so far
        self.rng = np.random.default_rng(seed)
        self.touching = touching  # batches laid touching, not lined up (else a finger's width apart)
        self.art = art
        self.view = view or PinholeView(tilt_deg=62.0, distance_mm=430.0, target_mm=(132.5, 95.0), size_wh=(1280, 720))
        self.layout = layout or default_layout()
        self.light_of = lighting or _room_light
        self.table, self.kit_print = table, kit_print
        self._noise: tuple[float, list[tuple[np.ndarray, np.ndarray]]] | None = None

    def still(self, step: Step) -> np.ndarray:
        """The step's table, rendered and lit once (a still table; the frames add the camera's noise)."""
        self.states += 1
        for nudge in self.nudges:
            if nudge.at == self.states:
                self.view = nudge.of(self.view)
        rng, layout = self.rng, self.layout
        zx0, zy0, zx1, zy1 = _zone_box(layout, ZONE_PLAY)
        token_x = zx1 - 35.0
        token_y = (zy0 + zy1) / 2.0
        room = 75.0 if step.tokens else 0.0
        touching = self.touching and len(step.cards) > 1
        pos = _touching_positions(len(step.cards), room, rng) if touching else _positions(len(step.cards), room)
        tilt = 1.5 if step.straight or touching else 6.0  # laid again when asked: flat and straight
        cards = [_placed(label, (x, y), float(rng.uniform(-tilt, tilt)), self.art, self.card_mm)
                 for label, (x, y) in zip(step.cards, pos, strict=True)]
        tokens = [TokenPlacement(name, (token_x, token_y), float(rng.uniform(-10, 10))) for name in step.tokens]
        tokens += [TokenPlacement(name, at, float(rng.uniform(-8, 8))) for name, at in step.placed_tokens]
        line_cards, line_tokens = _layout_placements(step, layout, self.art, rng, self.card_mm, self.columns)
        self.layout_cards = tuple(line_cards)
        hands: tuple[HandPlacement, ...] = ()
        if step.arm_tip_mm is not None:  # an arm across the zone, from beyond the players' edge
            reach = max(380.0, zy1 + 200.0 - step.arm_tip_mm[1])
            hands = (HandPlacement(step.arm_tip_mm, float(rng.uniform(-8, 8)), reach_mm=reach),)
        elif step.hand:  # a hand laying or taking cards: its fingertip somewhere over the zone
            tip = (float(rng.uniform(zx0 + 40, zx1 - 40)), float(rng.uniform(zy0 + 20, zy1 - 20)))
            hands = (HandPlacement(tip, float(rng.uniform(-25, 25))),)
        still = render_scene(layout, self.view, tuple(tokens + line_tokens), tuple(cards + line_cards), Lighting(),
                             rng, table=self.table, kit_print=self.kit_print, hands=hands).frame_bgr
        light = self.light_of(rng)
        lit = apply_lighting(still, replace(light, noise_sigma=0.0, jpeg_quality=None), rng)
        if self._noise is None or self._noise[0] != light.noise_sigma:
            self._noise = (light.noise_sigma, _noise_pool(lit.shape, light.noise_sigma, rng))
        return lit

    def frame(self, lit: np.ndarray) -> np.ndarray:
        """One camera frame of a still table: its exposure flicker and sensor noise."""
        assert self._noise is not None
        if self.sway is not None:
            lit = self.sway(lit)
        if self.auto_camera is not None:
            lit = self.auto_camera(lit)
        frame = cv2.convertScaleAbs(lit, alpha=float(self.rng.uniform(0.97, 1.03)))
        up, down = self._noise[1][int(self.rng.integers(len(self._noise[1])))]
        return np.asarray(cv2.subtract(cv2.add(frame, up), down), np.uint8)


def render_steps(steps: tuple[Step, ...], art: dict[str, CardFace], seed: int = 7,
                 view: PinholeView | None = None, fps: float = FPS,
                 lighting: Callable[[np.random.Generator], Lighting] | None = None,
                 layout: TableLayout | None = None, table: str = "wood", kit_print: str = "colour",
                 touching: bool = False) -> Iterator[np.ndarray]:
    """Every frame of ``steps`` at ``fps``: the play zone, the layout, a hand when a step has one,
    on a ``table`` of vision.synthetic's kinds with the kit printed in ``kit_print``; with
    ``touching``, a batch's cards lie touching and not lined up."""
    renderer = StepRenderer(art, seed, view, lighting, layout, table, kit_print, touching)
    for _step, frame in filmed(renderer, steps, fps):
        yield frame


def filmed(renderer: StepRenderer, steps: Iterable[Step], fps: float = FPS) -> Iterator[tuple[Step, np.ndarray]]:
    """Each frame a camera films of ``steps`` at ``fps``, with the step it shows."""
    for step in steps:
        # The table is still during a step: render and light it once, then give each frame
        # its own exposure flicker and sensor noise, as a camera films a still table. A hand
        # is never still: a step with a hand is rendered afresh for each frame.
        lit = renderer.still(step)
        for k in range(max(1, round(step.seconds * fps))):
            if step.hand and k:
                lit = renderer.still(step)
            yield step, renderer.frame(lit)


def _noise_pool(shape: tuple[int, ...], sigma: float, rng: np.random.Generator, size: int = 3
                ) -> list[tuple[np.ndarray, np.ndarray]]:
    """A few frames of sensor noise, split into what it adds and what it takes (uint8, saturating)."""
    pool = []
    for _ in range(size):
        n = rng.normal(0.0, max(sigma, 0.0), shape).astype(np.float32)
        pool.append((np.clip(n, 0, 255).astype(np.uint8), np.clip(-n, 0, 255).astype(np.uint8)))
    return pool


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=DEMO_VIDEO)
    parser.add_argument("--design", default="gnome-anglo", help="a folder under --renders")
    parser.add_argument("--renders", type=Path, default=Path("cache/cards"))
    parser.add_argument("--variant", choices=("wikipedia", "express", "abbott-1959"), default=None,
                        help="film a short round of this variant instead (960x540, 3 fps; --out names the file)")
    args = parser.parse_args(argv)
    art = _card_art(args.renders / args.design)
    if not art:
        print(f"no card renders in {args.renders / args.design}: drawing plain cards "
              "(run python -m models.render_cards for real art)", file=sys.stderr)
    if args.variant is not None:
        return _film_variant(args.variant, art, args.out)
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


def _film_variant(variant: str, art: dict[str, CardFace], out: Path) -> int:
    """A short scripted round of ``variant`` (bench/harness/scripted_round.py VARIANT_PLANS), filmed
    as the players lay it; says how `eleusis play` deals it."""
    from bench.harness.round_check import write_video
    from bench.harness.scripted_round import VARIANT_HAND, VARIANT_PLAYERS, VARIANT_RULE, timeline, variant_round
    from engine.cards import all_kinds

    script = variant_round(variant, sorted(art) if len(art) == 52 else [str(c) for c in all_kinds()])
    line = timeline(script, 3.0, whole_layout=False)
    view = PinholeView(tilt_deg=62.0, distance_mm=490.0, target_mm=(132.5, 60.0), size_wh=(960, 540))
    frames = write_video(render_steps(tuple(line.steps), art, seed=7, view=view, fps=3.0), out, 3.0)
    print(f"{out}: {frames} frames at 3 fps, {out.stat().st_size / 1e6:.1f} MB; {variant}, players "
          f"{' '.join(VARIANT_PLAYERS)}, rule {VARIANT_RULE}, hands of {VARIANT_HAND}. Deal it with: echo "
          f"{VARIANT_RULE} > rule.txt; eleusis play --video {out} --variant {variant} --players "
          f"'{' '.join(VARIANT_PLAYERS)}' --hand {VARIANT_HAND} --rule-file rule.txt")
    return 0


if __name__ == "__main__":
    sys.exit(main())
