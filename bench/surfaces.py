"""Cards lying alone on pale and busy table tops, read as `eleusis read` reads a photo
without the mat.

Not a test and not training: a check-only figure (issue "every card a person can read",
item 1). Rendered 1920x1080 scenes of :func:`vision.synthetic.surfaces.render_card_table`
(a board of five and pairs side by side, none covering another) on each surface of
:data:`vision.synthetic.surfaces.SURFACES`, seen from above and at a slant, the cards 160
to 560 px tall, with faces of the held-out test designs (gnome bellot, rheinland,
simplistic) and the real photographed singles of ``../shared/data/real-cards/single``.

Each scene is read as `eleusis read` reads it (:func:`vision.by_index.read_without_mat`),
or with ``--before`` as it read before cards were found by their index (outlines by
:func:`vision.closeup.read_closeup`, then :func:`vision.corners.with_corner_cards`). A card counts as
*found* when a reading's centre lies on it (read or not), *read* when a reading of its
name does, and a reading of a name lying on no card of that name is *wrong*.

``--real deals|deal1|blackjack-tuning|blackjack-held-out`` reads real photographs instead
(scored as :mod:`bench.real_tables` scores them), before and after, to check that the
dark felt and the overlapped deals read as well as they did.

``--light dim|warm_low|vignette|glare|haze`` photographs the scenes in another light
(:data:`vision.synthetic.surfaces.LIGHTS`; ``room`` by default).

``--hands`` lays a poker table as real ones are photographed: each pair a player's hand,
the second card over the first, chip stacks beside the cards, cards 260-600 px tall
(:func:`hands_photo_wh`); the figures count the cards lying alone and the overlapped ones
whose index shows apart (:func:`vision.synthetic.surfaces.laid_kinds`), and name each one
missed. ``--designs`` and ``--no-real`` choose the decks (tuning on the training designs).

Run: ``python3 bench/surfaces.py [--scenes 2] [--only maple,white_cloth] [--light dim] [--before] [--hands]``
(about 3-6 s a scene on 2 busy cores).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from engine.cards import Card, all_kinds
from vision.classify import OnnxClassifier
from vision.by_index import read_without_mat
from vision.closeup import read_closeup
from vision.corners import with_corner_cards
from vision.pipeline import CardReader
from vision.readings import CardDetections
from vision.synthetic.cards import real_card_faces
from vision.synthetic.surfaces import LIGHTS, SURFACES, SurfaceScene, laid_kinds, render_card_table

RENDERS = Path(__file__).resolve().parents[1] / "cache" / "cards"
DESIGNS = ("gnome-bellot", "gnome-rheinland", "gnome-simplistic")
CARD_H_PX = (160.0, 260.0, 400.0, 560.0)
VIEWS = (("above", 0.0), ("slant", 0.35))
HAND_CARD_H_PX = (260.0, 400.0, 600.0)
HANDS = {"overlap": 1.0, "chips": 6}


def hands_photo_wh(card_h_px: float) -> tuple[int, int]:
    """The photo a poker table is taken in: 2400 x 1800, or a phone's whole 4032 x 3024 for
    cards 600 px tall (as the boards of real table photos are), so that four hands fit."""
    return (4032, 3024) if card_h_px >= 500 else (2400, 1800)

Face = tuple[Card, npt.NDArray[np.uint8]]


def load_decks(renders: Path = RENDERS, designs: tuple[str, ...] = DESIGNS, real: bool = True
               ) -> dict[str, list[Face]]:
    """The face pictures of each design found (and ``real``: the photographed singles)."""
    decks: dict[str, list[Face]] = {}
    for design in designs:
        faces = []
        for card in all_kinds():
            image = cv2.imread(str(renders / design / f"{card}.png"), cv2.IMREAD_UNCHANGED)
            if image is not None:
                faces.append((card, np.asarray(image, np.uint8)))
        if faces:
            decks[design] = faces
    singles = [(f.card, f.image_bgr) for f in real_card_faces() if f.card is not None] if real else []
    if singles:
        decks["real"] = singles
    return decks


def _on(quad: npt.NDArray[np.float32], xy: npt.NDArray[np.float32], grow: float = 1.05) -> bool:
    centre = quad.mean(axis=0)
    grown = (centre + grow * (quad - centre)).astype(np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(grown, (float(xy[0]), float(xy[1])), False) >= 0


def score(scene: SurfaceScene, found: CardDetections) -> tuple[set[int], set[int], list[str]]:
    """For one scene: the laid cards found (a reading's centre on them, read or not), those
    read, and the wrong readings said."""
    truth = scene.truth
    hit: set[int] = set()
    right: set[int] = set()
    wrong: list[str] = []
    for i in range(len(found)):
        centre = found.quad_xy[i].mean(axis=0)
        under = [t for t in range(len(truth)) if _on(truth.quad_xy[t], centre)]
        hit.update(under)
        if not found.is_read[i]:
            continue
        card = found.label[i]
        same = [t for t in under if truth.label[t] == card]
        if same:
            right.update(same)
        else:
            names = [str(truth.label[t]) for t in under]
            wrong.append(f"{card} at ({centre[0]:.0f}, {centre[1]:.0f}) {found.confidence[i]:.2f}, on {names}")
    return hit, right, wrong


UNDER_PLACES = ("on a hidden card", "on a card not read", "on a card read", "on no card")


def under_places(scene: SurfaceScene, found: CardDetections, right: set[int]) -> Counter[str]:
    """Where the reports of a card under another lie (:data:`UNDER_PLACES`): on a laid card
    no index of which shows, on one not read, on one read, or on the bare top. The first two
    say something true; the last two are needless."""
    kinds = laid_kinds(scene)
    places: Counter[str] = Counter()
    for i in np.flatnonzero(found.under):
        centre = found.quad_xy[i].mean(axis=0)
        on = [t for t in range(len(scene.truth)) if _on(scene.truth.quad_xy[t], centre)]
        if any(kinds[t] == "hidden" for t in on):
            places[UNDER_PLACES[0]] += 1
        elif any(t not in right for t in on):
            places[UNDER_PLACES[1]] += 1
        else:
            places[UNDER_PLACES[2] if on else UNDER_PLACES[3]] += 1
    return places


def run_real(which: str) -> int:
    """The real photographs of ``which``, before (outlines, then indices alone) and after
    (:func:`vision.by_index.read_without_mat`)."""
    import json

    from bench.real_tables import BLACKJACK, BLACKJACK_LABELS, DEALS, Tally, _deal_boxes, score_deal, score_photo

    reader = CardReader(OnnxClassifier())

    def both(image: npt.NDArray[np.uint8]) -> tuple[CardDetections, CardDetections, float, float]:
        c0 = time.process_time()
        before = with_corner_cards(reader.classifier, image, read_closeup(reader, image))
        c1 = time.process_time()
        after = read_without_mat(reader, image)
        return before, after, c1 - c0, time.process_time() - c1

    if which.startswith("deal"):
        numbers = [1] if which == "deal1" else list(range(2, 8))
        sums = np.zeros(5, np.int64)
        for k in numbers:
            image = np.asarray(cv2.imread(str(DEALS / f"deal{k}-md-sq.jpg")), np.uint8)
            boxes = _deal_boxes(DEALS / f"deal{k}-md-sq-net1280-labels.json", (image.shape[1], image.shape[0]))
            before, after, cb, ca = both(image)
            (br, total, bs), (ar, _, as_) = score_deal(before, boxes), score_deal(after, boxes)
            sums += [br, ar, total, len(bs), len(as_)]
            print(f"deal{k}: {total} cards; read before {br}, after {ar}; wrong before {len(bs)}, after {len(as_)}; "
                  f"under another {int(after.under.sum())}; {cb:.1f} / {ca:.1f} CPU s", flush=True)
            for line in as_:
                print(f"  wrong after: {line}")
        print(f"{which}: read {sums[0]}/{sums[2]} before, {sums[1]}/{sums[2]} after; wrong {sums[3]} before, "
              f"{sums[4]} after")
        return 0
    split = which.removeprefix("blackjack-").replace("-", " ")
    doc = json.loads(BLACKJACK_LABELS.read_text())
    tallies = {"before": Tally(), "after": Tally()}
    for name, labels in doc["photos"].items():
        if labels["split"] != split:
            continue
        image = np.asarray(cv2.imread(str(BLACKJACK / f"{name}.jpg")), np.uint8)
        before, after, cb, ca = both(image)
        for stage, found, c in (("before", before, cb), ("after", after, ca)):
            tallies[stage].cpu_s += c
            for line in score_photo(found, labels, tallies[stage]):
                print(f"  wrong {stage} on {name}: {line}")
    for stage, tally in tallies.items():
        print(tally.line(f"blackjack {split}, {stage}"))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenes", type=int, default=2, help="scenes per surface, view and deck")
    parser.add_argument("--only", default=",".join(SURFACES), help="surfaces, comma-separated")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--renders", type=Path, default=RENDERS)
    parser.add_argument("--light", default="room", choices=LIGHTS,
                        help="the light the scenes are photographed in (vision.synthetic.surfaces.LIGHTS)")
    parser.add_argument("--before", action="store_true",
                        help="read as before the index-seeded cards: outlines, then indices alone")
    parser.add_argument("--designs", default=",".join(DESIGNS),
                        help="rendered designs, comma-separated (and the real singles unless --no-real)")
    parser.add_argument("--no-real", action="store_true", help="leave the real photographed singles out")
    parser.add_argument("--hands", action="store_true",
                        help="a poker table: the pairs laid as hands (one card over the other, an index of the "
                             "first showing), chips beside them, cards 260-600 px tall (hands_photo_wh)")
    parser.add_argument("--heights", help="cards' heights in px, comma-separated (each scene takes the next)")
    parser.add_argument("--real", choices=("deal1", "deals", "blackjack-tuning", "blackjack-held-out"),
                        help="read real photographs instead (deals: 2-7, held out)")
    args = parser.parse_args(argv)
    if args.real:
        return run_real(args.real)
    surfaces = [s for s in args.only.split(",") if s]
    unknown = [s for s in surfaces if s not in SURFACES]
    if unknown:
        print(f"--only: {', '.join(unknown)} not among {', '.join(SURFACES)}", file=sys.stderr)
        return 2
    decks = load_decks(args.renders, tuple(d for d in args.designs.split(",") if d), not args.no_real)
    if not decks:
        print(f"no card faces: neither {args.renders}/<design> nor the real singles", file=sys.stderr)
        return 2
    sizes = tuple(float(x) for x in args.heights.split(",")) if args.heights else \
        HAND_CARD_H_PX if args.hands else CARD_H_PX
    reader = CardReader(OnnxClassifier())
    totals: Counter[str] = Counter()
    wall = cpu = 0.0
    for surface in surfaces:
        tally: Counter[str] = Counter()
        rng = np.random.default_rng([args.seed, SURFACES.index(surface)])
        for view, slant in VIEWS:
            for deck_name, deck in decks.items():
                for k in range(args.scenes):
                    pick = rng.choice(len(deck), 13, replace=False)
                    height = sizes[(k + list(decks).index(deck_name)) % len(sizes)]
                    scene = render_card_table([deck[i] for i in pick], rng, surface, card_h_px=height, slant=slant,
                                              light=args.light,
                                              **({**HANDS, "size_wh": hands_photo_wh(height)} if args.hands else {}))
                    t0, c0 = time.perf_counter(), time.process_time()
                    found = with_corner_cards(reader.classifier, scene.bgr, read_closeup(reader, scene.bgr)) \
                        if args.before else read_without_mat(reader, scene.bgr)
                    wall += time.perf_counter() - t0
                    cpu += time.process_time() - c0
                    hit, right, said = score(scene, found)
                    tally.update(under_places(scene, found, right))
                    n_found, n_read, n_wrong = len(hit), len(right), len(said)
                    for key, n in (("cards", len(scene.truth)), ("found", n_found), ("read", n_read),
                                   ("wrong", n_wrong), ("scenes", 1), (f"{view} cards", len(scene.truth)),
                                   (f"{view} read", n_read)):
                        tally[key] += n
                    if args.hands:
                        for t, kind in enumerate(laid_kinds(scene)):
                            tally[f"{kind} cards"] += 1
                            tally[f"{kind} read"] += t in right
                            tally[f"{kind} {height:.0f} cards"] += 1
                            tally[f"{kind} {height:.0f} read"] += t in right
                            if kind != "hidden" and t not in right:
                                print(f"  missed on {surface} {view} {deck_name} {height:.0f} px: "
                                      f"{scene.truth.label[t]} ({kind})")
                    for line in said:
                        print(f"  wrong on {surface} {view} {deck_name} {height:.0f} px: {line}")
        totals += tally
        n = max(tally["cards"], 1)
        print(f"{surface:16s} {tally['scenes']:3d} scenes {tally['cards']:4d} cards: found {tally['found']:4d} "
              f"({100 * tally['found'] / n:5.1f} %), read {tally['read']:4d} ({100 * tally['read'] / n:5.1f} %; "
              f"above {tally['above read']}/{tally['above cards']}, slant {tally['slant read']}/{tally['slant cards']}), "
              f"wrong {tally['wrong']}" + (f"; alone {tally['alone read']}/{tally['alone cards']}, overlapped with an "
                                         f"index showing {tally['over read']}/{tally['over cards']}" if args.hands else ""),
              flush=True)
    n = max(totals["cards"], 1)
    if args.hands:
        print("by card height: " + "; ".join(
            f"{h:.0f} px alone {totals[f'alone {h:.0f} read']}/{totals[f'alone {h:.0f} cards']}, overlapped "
            f"{totals[f'over {h:.0f} read']}/{totals[f'over {h:.0f} cards']}" for h in sizes))
    print(f"{'all':16s} {totals['scenes']:3d} scenes {totals['cards']:4d} cards: found {totals['found']:4d} "
          f"({100 * totals['found'] / n:5.1f} %), read {totals['read']:4d} ({100 * totals['read'] / n:5.1f} %), "
          f"wrong {totals['wrong']}; " + (f"alone {totals['alone read']}/{totals['alone cards']}, overlapped with an "
                                           f"index showing {totals['over read']}/{totals['over cards']}; "
                                           if args.hands else "") + f"{wall / max(totals['scenes'], 1):.1f} s a scene "
          f"({cpu / max(totals['scenes'], 1):.1f} CPU s)")
    print("reports of a card under another: " + ", ".join(f"{place} {totals[place]}" for place in UNDER_PLACES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
