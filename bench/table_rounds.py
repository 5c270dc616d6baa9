"""The round bench: scripted rounds filmed on rendered tables, dealt by `eleusis play --video`.

Each round is made by the engine (bench/harness/scripted_round.py: 4 players, rejected chains,
"no play" in batches, a prophet who accepts, rejects and is overthrown), laid on the mat
by the protocol of docs/playing-at-the-table.md (a hand lays the cards and leaves, the
players move them to the line or below it after each verdict), rendered at 1920x1080,
3 frames a second (bench/harness/make_demo.py). `eleusis judge` on the scripted record is the
truth (bench/harness/round_check.py).

Two ways to deal it:
- default: players who obey the dealer (bench/harness/scripted_table.py). The table is rendered
  frame by frame and dealt by `eleusis play`'s own loop (dealer.app.live.run_live, in this
  process); the players hear what the dealer says between two frames, wait for its
  answer, and lay the cards again when it asks, as people at a table do. Frames per
  second are the dealer's own (rendering excluded).
- ``--film``: deaf players. The round is filmed in advance and dealt by the real
  `eleusis play --video` in a child process; a request to lay again is not followed, so
  one unread card puts the rest of the round out of step. Frames per second include the
  start-up and the video decoding.

Cards: the real photographed cards of ../shared/data/real-cards/single as photographed
(their own light, not flattened), and designs held out of training (models/MODEL_CARD.md:
gnome bellot, KDE penguins; rendered into cache/cards when missing).
Scenes: light (a lamp's gradient, warm, cold, dim) and a black-and-white printed kit.
Views: the play zone only, and the whole layout (55-70 degrees of tilt; its line zones are
seen at 1.1-1.5 px/mm, under the 2 px/mm `calibrate table` asks, so the layout watch is off
there), and ``overhead``: the whole layout from above, every zone readable.
Batches: laid a finger's width apart, and in three rounds (``-touching``) touching, up to
2 mm over each other, not lined up, as players often lay them.

It prints per round and per condition: verdicts right / wrong / missing, whether the round
ends with the scripted scores, requests to lay again (per round and per 20 cards laid),
frames per second processed (start-up included), and the time from the hand leaving the
play zone to the verdict (median, worst). Films and recordings stay in cache/table-rounds/.

``--deck``: each round's deck is first enrolled at the same table, under the same light
and camera (``eleusis calibrate deck``'s own steps and code: three cards at a time in the
play zone, bench/harness/scripted_enrolment.py; a back is drawn when the deck has none), and the
round is dealt with that profile (`eleusis play --deck`). It prints per round the cards
enrolled of 53 and the pairs reported alike.

A camera knocked mid-round (``-bumped``, asked for by ``--only``, e.g. ``real-lamp-zone-bumped``):
the camera turns and shifts twice (``BUMPS``, 60-80 px), once while the players clear the zone.
``--size WxH`` films with another camera's picture size (the same field of view), e.g.
``1280x720`` or ``640x480`` for a webcam that gives no more.

A player leaning over the table (``-lean``, e.g. ``real-lamp-zone-lean``): a still shadow's edge
across the frame twice in the round (``LEANS``), coming and going while cards lie there.

A camera's own habits (asked for by ``--only`` with a suffix, e.g. ``real-lamp-zone-sway``):
``-auto`` its automatic exposure and white balance follow what it films
(vision/synthetic/auto_camera.py); ``-sway`` a camera on a springy clamp, ``-handheld`` a
phone held over the table (MOTIONS, vision/synthetic/sway.py); ``-bridge`` a bridge-size deck
(BRIDGE_MM). ``--fps 30`` films at a webcam's or phone's rate (3 by default: the dealer's
timings are in seconds, and a still table at 30 frames is ten times the work).

``--layout`` (LAYOUT): the layout watch on tables nearly as pale as a card (a maple top under a
lamp, a white cloth under a daylight panel), each side branch an overlapped column (``-columns``:
each card half or more over the one before, its index showing), the ``overhead`` view. Each
round then also prints what the layout watch read of the main line and side branches on
each still table state (bench/harness/layout_sight.py: cards lying whole, cards overlapped,
cards in a zone not watched, wrong readings) and what it said.

``--arms``: after each verdict a player's arm carries the cards from the players' edge across
the whole play zone to the layout beyond it and comes back (1.5 s, bench/harness/make_demo.arm_sweep),
as players do every turn, instead of a hand over the zone.

``--cards DESIGN`` deals two more rounds (lamp, zone view; cold, whole layout) with another
design under cache/cards: e.g. ``npm-kennard`` (``python -m models.fetch_npm_decks``, then link
``cache/npm-cards/npm-kennard`` into ``cache/cards``), art nobody trained or tuned on.

Run: ``python3 bench/table_rounds.py [--quick | --layout] [--only real-lamp-zone] [--cards DESIGN] [--size WxH] [--fps 30] [--arms] [--film [--keep]]``.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.harness.make_demo import Nudge, StepRenderer, filmed, load_faces  # noqa: E402
from bench.harness.round_check import RoundFigures, compare_round, play_live, play_video, write_video  # noqa: E402
from bench.harness.layout_sight import LayoutSight, LayoutTap, layout_notes, layout_sight  # noqa: E402
from bench.harness.scripted_table import ScriptedTable  # noqa: E402
from bench.harness.scripted_round import FULL_PLAN, QUICK_PLAN, all_labels, make_round, timeline  # noqa: E402
from vision.synthetic import CardFace, Lighting, PinholeView, scene_condition, with_shadow_of  # noqa: E402
from vision.geometry import CARD_H_MM, CARD_W_MM  # noqa: E402
from vision.synthetic.auto_camera import AutoCamera  # noqa: E402
from vision.synthetic.sway import handheld, springy_stand  # noqa: E402

REAL_CARDS = REPO.parent / "shared" / "data" / "real-cards" / "single"
if not REAL_CARDS.is_dir():
    REAL_CARDS = Path("/work/shared/data/real-cards/single")
RENDERS = REPO / "cache" / "cards"
WORK = REPO / "cache" / "table-rounds"
FPS = 3.0
PLAYERS = ("Ana", "Bo", "Cy", "Dee")
MOTIONS = {"sway": springy_stand, "handheld": handheld}  # a camera never quite still (vision/synthetic/sway.py)
BRIDGE_MM = (57.0, 89.0)  # a bridge-size deck, as many European and Russian decks are
RULES = ("alternate-colour", "alternate-colour", "alternate-colour")


# name -> (light condition of vision.synthetic, table kind)
SCENES: dict[str, tuple[str, str]] = {
    "lamp": ("lamp", "oak"),  # a desk lamp beside the table: a strong gradient
    "warm": ("warm", "walnut"),  # tungsten light
    "cold": ("cold", "grey"),  # a daylight LED panel
    "dim": ("dim", "cloth"),  # an evening room
    "bw-kit": ("bw_kit", "wood"),  # the kit printed in grey
    "shadow": ("shadow", "walnut"),  # a still shadow's edge across the table (a stand, someone leaning over)
    "flicker": ("flicker", "oak"),  # a flickering light's bands rolling through the frames
    "deep-flicker": ("deep_flicker", "oak"),  # the same, bands 25-35 % deep (asked for by --only)
    "pale": ("lamp", "maple"),  # a pale maple top under a desk lamp: the table nearly as pale as a card
    "whitecloth": ("cold", "whitecloth"),  # a white tablecloth (weave, soft folds) under a daylight panel
}


def _light_of(scene: str, rng: np.random.Generator, lean: bool = False,
              ) -> tuple[Callable[[np.random.Generator], Lighting], str, str]:
    """The round's light (drawn once: a lamp does not move), changing a little step to step;
    with ``lean``, a still shadow's edge across the frame in the table states of ``LEANS``."""
    condition, table = SCENES[scene]
    light, kit_print = scene_condition(condition, rng)
    shadow = scene_condition("shadow", rng)[0] if lean else None
    states = 0

    def per_step(step_rng: np.random.Generator) -> Lighting:
        nonlocal states
        states += 1  # called once per table state (StepRenderer.still)
        lit = replace(light, gain=light.gain * float(step_rng.uniform(0.97, 1.03)))
        if shadow is not None and any(first <= states < last for first, last in LEANS):
            lit = with_shadow_of(lit, shadow)
        return lit
    return per_step, table, kit_print


VIEWS: dict[str, Callable[[random.Random], PinholeView]] = {
    "zone": lambda r: PinholeView(tilt_deg=r.uniform(55, 70), distance_mm=r.uniform(470, 520),
                                  target_mm=(132.5, 60.0), yaw_deg=r.uniform(-4, 4), size_wh=(1920, 1080)),
    "whole": lambda r: PinholeView(tilt_deg=r.uniform(55, 70), distance_mm=r.uniform(740, 770),
                                   target_mm=(132.5, -40.0), yaw_deg=r.uniform(-3, 3), size_wh=(1920, 1080)),
    # the whole layout from above (a camera on an arm over the table, set up until `eleusis
    # calibrate table` says every zone is readable): at 1920x1080 the only way a whole layout
    # is seen at the 2 px/mm an index needs (calibration/check.py), with little room to spare;
    # at the "whole" view's 55-70 degrees the line zones get 1.1-1.5 px/mm and are not watched
    "overhead": lambda r: PinholeView(tilt_deg=r.uniform(88, 90), distance_mm=r.uniform(698, 708),
                                      target_mm=(132.5, r.uniform(-91.0, -87.0)), yaw_deg=r.uniform(-1, 1),
                                      size_wh=(1920, 1080)),
}


@dataclass(frozen=True)
class Condition:
    cards: str  # "real" or a design under cache/cards
    scene: str
    view: str
    touching: bool = False  # each batch laid touching, not lined up (else a finger's width apart)
    bumped: bool = False  # the camera is nudged twice during the round (BUMPS)
    auto: bool = False  # the camera's own exposure and white balance follow what it films
    bridge: bool = False  # a bridge-size deck (BRIDGE_MM), narrower than poker cards
    motion: str = ""  # "sway": a camera on a springy stand; "handheld": a phone held over the table (MOTIONS)
    lean: bool = False  # a player leans over the table twice, casting a shadow across it (LEANS)
    columns: bool = False  # side branches laid as overlapped columns, each card half over the one before


    @property
    def card_mm(self) -> tuple[float, float]:
        return BRIDGE_MM if self.bridge else (CARD_W_MM, CARD_H_MM)

    @property
    def name(self) -> str:
        return (f"{self.cards}-{self.scene}-{self.view}" + ("-touching" if self.touching else "")
                + ("-bumped" if self.bumped else "") + ("-auto" if self.auto else "")
                + ("-bridge" if self.bridge else "") + (f"-{self.motion}" if self.motion else "")
                + ("-lean" if self.lean else "") + ("-columns" if self.columns else ""))


FULL = (
    Condition("real", "lamp", "zone"), Condition("real", "lamp", "whole"),
    Condition("real", "warm", "zone"), Condition("real", "cold", "whole"),
    Condition("real", "dim", "zone"), Condition("real", "bw-kit", "zone"), Condition("real", "bw-kit", "whole"),
    Condition("gnome-bellot", "lamp", "zone"), Condition("kde-penguins", "cold", "whole"),
    Condition("real", "lamp", "zone", touching=True), Condition("real", "bw-kit", "zone", touching=True),
    Condition("real", "warm", "whole", touching=True),
    Condition("real", "shadow", "zone"), Condition("gnome-bellot", "shadow", "whole"),
    Condition("real", "flicker", "zone"), Condition("kde-penguins", "flicker", "whole"),
)
QUICK = (Condition("real", "lamp", "zone"), Condition("real", "lamp", "whole"))
# The layout watch on tables nearly as pale as a card, side branches as overlapped columns,
# the whole layout seen from above (``--layout``; not in FULL: a round each, 1-2 minutes)
LAYOUT = (Condition("real", "pale", "overhead", columns=True), Condition("real", "whitecloth", "overhead", columns=True),
          Condition("gnome-bellot", "whitecloth", "overhead", columns=True))

# A camera on a stand knocked by an elbow, twice a round: at these table states it turns
# (degrees of tilt and yaw) and its aim moves (mm), about 60-80 px of the frame at 1920x1080.
# table states (of ~90 in a round) in which a player leans over the table, with cards in the
# play zone or not, and casts a shadow across it (``-lean``)
LEANS = ((18, 34), (47, 58))

BUMPS = (Nudge(25, tilt_deg=1.5, yaw_deg=2.0, aim_mm=(12.0, -8.0)),
         Nudge(60, tilt_deg=-2.5, yaw_deg=-1.0, aim_mm=(-6.0, 10.0)))


def faces_for(cards: str) -> dict[str, CardFace]:
    if cards == "real":
        faces = load_faces(REAL_CARDS)
    else:
        folder = RENDERS / cards
        if not (folder / "done").exists():
            from models.render_cards import discover_designs, render_design

            for design in discover_designs():
                if design.name == cards:
                    render_design(design, RENDERS)
        faces = load_faces(folder)
    if len(faces) < 52:
        raise SystemExit(f"table_rounds: {len(faces)} card faces for {cards!r} (need 52)")
    return faces


@dataclass(frozen=True)
class Enrolled:
    """A deck enrolled at the round's table: the profile written and what enrolment said."""

    profile: Path
    cards: int  # of 53 (52 faces and the back)
    problems: tuple[str, ...]  # steps not taken, and the report's lines


def enrol_at_table(cond: Condition, seed: int, view: PinholeView, lighting: Callable[[np.random.Generator], Lighting],
                   table: str, kit_print: str, folder: Path) -> Enrolled:
    """The round's deck shown as `eleusis calibrate deck` asks, filmed at the round's table
    and enrolled by its code (dealer.table.enrolment: CardFinder, step_views,
    gather_crops; vision.deck_profile.enrol)."""
    from dealer.table.enrolment import CardFinder, enrolment_steps, gather_crops, step_views
    from bench.harness.scripted_enrolment import enrolment_frames, with_back
    from vision.classify import OnnxClassifier
    from vision.deck_profile import enrol

    back = RENDERS / cond.cards / "back.png"
    faces = with_back(faces_for(cond.cards), back if back.is_file() else None)
    renderer = StepRenderer(faces, seed=seed + 1, view=view, lighting=lighting, table=table, kit_print=kit_print)
    steps = enrolment_steps(1)
    views = step_views(enrolment_frames(renderer, steps, FPS), steps, False, CardFinder())
    crops, problems = gather_crops(views, 1)
    profile, report = enrol(OnnxClassifier(), crops, cond.name)
    path = folder / "decks.json"
    profile.save(path)
    return Enrolled(path, len(profile.labels), tuple(problems) + tuple(report.lines()))


def run_condition(cond: Condition, seed: int, plan: tuple[str, ...], keep: bool, film: bool,
                  deck: bool = False, size_wh: tuple[int, int] | None = None, fps: float = FPS,
                  arms: bool = False, variant: str = "howell") -> tuple[RoundFigures, Enrolled | None]:
    rng = random.Random(f"{seed}-{cond.name}")
    script = make_round(rng, all_labels(), plan, PLAYERS, rng.choice(RULES), hand=5, variant=variant)
    folder = WORK / cond.name
    folder.mkdir(parents=True, exist_ok=True)
    lighting, table, kit_print = _light_of(cond.scene, np.random.default_rng(seed), cond.lean)
    view = VIEWS[cond.view](rng)
    if size_wh is not None:  # another camera: the same field of view, fewer (or more) pixels
        view = replace(view, size_wh=size_wh)
    enrolled = enrol_at_table(cond, seed, view, lighting, table, kit_print, folder) if deck else None
    out = folder / "recording"
    if out.exists():
        import shutil

        shutil.rmtree(out)
    whole = cond.view != "zone"  # the layout in view: the PROPHET token goes straight to the line
    if not film:
        renderer = StepRenderer(faces_for(cond.cards), seed=seed, view=view, lighting=lighting, table=table,
                                kit_print=kit_print, touching=cond.touching, nudges=BUMPS if cond.bumped else (),
                                auto_camera=AutoCamera(fps) if cond.auto else None, card_mm=cond.card_mm,
                                sway=MOTIONS[cond.motion](fps, seed) if cond.motion else None, columns=cond.columns)
        players = ScriptedTable(script, renderer, fps, whole_layout=whole, arms=arms)
        if enrolled is not None:
            from vision.deck_profile import profiled_reader

            reader = profiled_reader(enrolled.profile)
        else:
            from dealer.app.live import default_reader

            reader = default_reader()
        tap = LayoutTap(reader, players)  # keeps what the layout watch read, beside what lay there
        stats, played = play_live(players, script, out, tap)
        figures = compare_round(script, played, out, folder)
        figures.layout, figures.layout_notes = layout_sight(tap), layout_notes(out)
        figures.wall_s, figures.cpu_fps = stats.busy_s, stats.cpu_fps
        figures.relays, figures.gave_up = players.relays, players.gave_up
        return figures, enrolled
    line = timeline(script, fps, whole_layout=whole, arms=arms)
    video = folder / "table.mp4"
    filming = StepRenderer(faces_for(cond.cards), seed, view, lighting, table=table, kit_print=kit_print,
                           touching=cond.touching, nudges=BUMPS if cond.bumped else (),
                           auto_camera=AutoCamera(fps) if cond.auto else None, card_mm=cond.card_mm,
                           sway=MOTIONS[cond.motion](fps, seed) if cond.motion else None, columns=cond.columns)
    frames = (frame for _step, frame in filmed(filming, tuple(line.steps), fps))
    write_video(frames, video, fps)
    wall, log = play_video(video, script, out, None if enrolled is None else enrolled.profile)
    figures = compare_round(script, line, out, folder)
    figures.wall_s = wall
    per_cpu = re.search(r"([0-9.]+) per CPU second", log)  # the dealer's own count, start-up excluded
    figures.cpu_fps = float(per_cpu.group(1)) if per_cpu else 0.0
    if not keep:
        video.unlink(missing_ok=True)
    return figures, enrolled


def _size_arg(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"([0-9]{3,4})x([0-9]{3,4})", text.strip())
    if m is None:
        raise argparse.ArgumentTypeError(f"{text!r}: give the picture size as WIDTHxHEIGHT, e.g. 1280x720")
    return int(m.group(1)), int(m.group(2))


def _ms(values: list[float]) -> str:
    if not values:
        return "-"
    return f"{statistics.median(values):.1f} s median, {max(values):.1f} s worst, {min(values):.1f} s least"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="two short rounds (real cards, lamp, both views)")
    parser.add_argument("--layout", action="store_true",
                        help="the layout rounds: pale wood and white cloth, overlapped side-branch columns, "
                             "the whole layout seen from above (LAYOUT)")
    parser.add_argument("--only", metavar="NAME", action="append",
                        help="run only this condition (repeatable): one of the rounds, or any CARDS-SCENE-VIEW[-touching] "
                             "of real, gnome-bellot, kde-penguins and the scenes and views here (e.g. real-flicker-zone)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--variant", choices=("howell", "wikipedia", "express", "abbott-1959"), default="howell",
                        help="deal the plan as this variant's round (docs/rules-variants.md; default howell)")
    parser.add_argument("--film", action="store_true",
                        help="deaf players: film each round in advance and deal it with `eleusis play --video`")
    parser.add_argument("--keep", action="store_true", help="keep the films in cache/table-rounds/ (--film)")
    parser.add_argument("--arms", action="store_true",
                        help="the players' arms sweep across the play zone to the layout and back every turn")
    parser.add_argument("--verbose", "-v", action="store_true", help="print each difference and request")
    parser.add_argument("--deck", action="store_true",
                        help="enrol each round's deck at its table first, and deal the round with that profile")
    parser.add_argument("--size", metavar="WxH", type=_size_arg, default=None,
                        help="the camera's picture size (default 1920x1080), e.g. 1280x720 for a 720p webcam")
    parser.add_argument("--fps", type=float, default=FPS,
                        help=f"frames a second the camera films (default {FPS:g}; a webcam or phone gives 30)")
    parser.add_argument("--cards", metavar="DESIGN", action="append", default=[],
                        help="also deal a lamp/zone and a cold/whole round with this design (repeatable)")
    args = parser.parse_args(argv)
    extra = tuple(c for d in args.cards for c in (Condition(d, "lamp", "zone"), Condition(d, "cold", "whole")))
    conditions: tuple[Condition, ...] = (LAYOUT if args.layout else QUICK if args.quick else FULL) + extra
    if args.only:
        every = {c.name: c for c in FULL + QUICK + LAYOUT + extra}
        every.update({c.name: c for c in (Condition(cards, scene, view, touching, bumped, auto, bridge, motion, lean,
                                                    columns)  # any mix
                                          for cards in ("real", "gnome-bellot", "kde-penguins") for scene in SCENES
                                          for view in VIEWS for touching in (False, True)
                                          for bumped in (False, True) for auto in (False, True)
                                          for bridge in (False, True) for motion in ("", *MOTIONS)
                                          for lean in (False, True) for columns in (False, True))
                                          if c.name not in every})
        unknown = [n for n in args.only if n not in every]
        if unknown:
            print(f"table_rounds: unknown condition(s) {unknown}; known: {sorted(every)}", file=sys.stderr)
            return 2
        conditions = tuple(every[n] for n in args.only)
    plan = QUICK_PLAN if args.quick else FULL_PLAN
    started = time.perf_counter()
    rows: list[tuple[Condition, RoundFigures]] = []
    for cond in conditions:
        fig, enrolled = run_condition(cond, args.seed, plan, args.keep, args.film, args.deck, args.size, args.fps,
                                      args.arms, args.variant)
        rows.append((cond, fig))
        if enrolled is not None:
            alike = sum("look alike" in line for line in enrolled.problems)
            print(f"{cond.name:28s} enrolled at the table: {enrolled.cards} of 53 cards, {alike} pair(s) reported alike",
                  flush=True)
            if args.verbose:
                for line in enrolled.problems:
                    print(f"    enrolment: {line}")
        per20 = 20.0 * len(fig.troubles) / max(1, fig.cards_laid)
        print(f"{cond.name:28s} verdicts {fig.right}/{fig.turns} right, {fig.wrong} wrong, {fig.missing} missing; "
              f"scores {'as scripted' if fig.scores_match else 'DIFFER'}; requests {len(fig.troubles)} "
              f"({per20:.1f} per 20 cards laid); {fig.fps:.1f} frames/s ({fig.cpu_fps:.1f} per CPU s); hand left -> verdict {_ms(fig.latency_s)}; "
              f"judged under a hand {fig.judged_under_hand}; laid again when asked {fig.relays}, "
              f"went on unanswered {fig.gave_up}", flush=True)
        if fig.layout is not None:
            print(f"{'':28s} {fig.layout.words()}; layout notes {len(fig.layout_notes)}", flush=True)
        if args.verbose:
            for d in fig.layout.wrong_list[:8] if fig.layout is not None else []:
                print(f"    layout: {d}")
            for d in fig.layout.missed_list[:8] if fig.layout is not None else []:
                print(f"    layout: {d}")
            for note in fig.layout_notes:
                print(f"    layout note: {note}")
            for d in fig.diff:
                print(f"    diff: {d}")
            for t in fig.troubles:
                print(f"    request: {t}")
            if not fig.scores_match:
                print(f"    scores: scripted {fig.scripted_scores}, dealt {fig.played_scores}")
    print()
    for view in VIEWS:
        part = [f for c, f in rows if c.view == view]
        if not part:
            continue
        turns = sum(f.turns for f in part)
        right = sum(f.right for f in part)
        laid = sum(f.cards_laid for f in part)
        asks = sum(len(f.troubles) for f in part)
        lat = [x for f in part for x in f.latency_s]
        print(f"view {view:5s}: {right}/{turns} verdicts right ({100.0 * right / max(1, turns):.1f} %), "
              f"{sum(f.wrong for f in part)} wrong, {sum(f.missing for f in part)} missing; "
              f"{sum(f.scores_match for f in part)}/{len(part)} rounds end with the scripted scores; "
              f"{asks} requests ({20.0 * asks / max(1, laid):.2f} per 20 cards laid); "
              f"{statistics.median([f.fps for f in part]):.1f} frames/s, "
              f"{statistics.median([f.cpu_fps for f in part]):.1f} per CPU s (median round); hand left -> verdict {_ms(lat)}; "
              f"judged under a hand {sum(f.judged_under_hand for f in part)}")
        sight = LayoutSight()
        for f in part:
            if f.layout is not None:
                sight.add(f.layout)
        if any(f.layout is not None for f in part):
            print(f"{'':12s}{sight.words()}; layout notes {sum(len(f.layout_notes) for f in part)}")
    how = ("deaf players, `eleusis play --video` on films (frames/s with start-up)" if args.film else
           "players who obey the dealer, `eleusis play`'s loop in process (frames/s: the dealer's own)")
    print(f"({len(rows)} rounds in {time.perf_counter() - started:.0f} s; {how})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
