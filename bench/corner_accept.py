"""The index-corner rule's thresholds swept on the tuning sets only, for one index reader.

:data:`vision.corners.CORNER_ACCEPT` (how sure a reading must be) and
:data:`vision.corners.FIRST_LOOK` (how sure a first look must be to look again) are chosen
here, on sets no held-out figure comes from:

- deal 1 of the bridge deals (``../shared/data/real-cards/deals``, the tuning deal; scored as
  :func:`bench.real_tables.score_deal` does);
- the blackjack photos of the tuning split (``bench/data/blackjack-labels.json``; scored as
  :func:`bench.real_tables.score_photo` does);
- columns and fans of the calibration designs (rendered faces under ``cache/cards``, laid by
  :func:`vision.synthetic.columns.render_overlaps`; a reading is right when it names the card
  whose index lies under it);
- with ``--hard N``, N harder pictures of the calibration and training designs (never the
  test designs): small indices, dim, warm or lamp light, JPEG, blur, and columns and fans
  laid close, so that a neighbour's index lies near (:func:`hard_scenes`): a set big enough
  (``--hard 400``: 2,721 indices showing) to show a wrong-reading rate;
- with ``--fans N``, N pictures of two hands fanned tight (3-7 degrees a card), so that each
  index lies beside its neighbour's (:func:`tight_fans`).

Each photo's outline reading and corner proposals (of the photo evenly lit,
:func:`vision.ink.evenly_lit`, as :func:`vision.corners.read_corners` proposes them) are made once (and kept in
``cache/corner_accept_photos-<scenes>.pkl``: they depend on no index reader, so the next reader's sweep
starts at once; ``--fresh`` makes them again); each pair of thresholds reads the proposals again. Prints, per pair: cards read and wrong readings on each set.

Run: ``PYTHONPATH=$PWD python3 bench/corner_accept.py [--index-model PATH [PATH ...]] [--accept 0.3 0.4 0.5]
[--first-look 0.3 0.4] [--scenes 12] [--hard 400] [--fans 150]`` (a few minutes on 2 busy cores; the
first ``--hard 400`` run 4-5 more to render and propose).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import pickle
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from bench.real_tables import BLACKJACK, BLACKJACK_LABELS, DEALS, Tally, _covers, _deal_boxes, score_deal, score_photo
from engine.cards import Card
from models.dataset import EXCLUDED_DESIGNS, INDEX_TEST_DESIGNS, load_design
from vision import corners
from vision.classify import OnnxClassifier
from vision.closeup import read_closeup
from vision.corners import CornerProposal, corner_detections, propose_corners, read_corners
from vision.index_reader import DEFAULT_MODEL, IndexReader
from vision.ink import evenly_lit
from vision.pipeline import CardReader
from vision.readings import CardDetections
from vision.synthetic.columns import OverlapScene, render_overlaps
from vision.synthetic.light import apply_lighting, scene_condition

CALIBRATION_DESIGNS = ("gnome-rheinland", "gnome-simplistic")
# the index reader's test designs and the designs left out of everything: never in a tuning set
TEST_DESIGNS = INDEX_TEST_DESIGNS + EXCLUDED_DESIGNS
HARD_LIGHT = ("plain", "warm", "dim", "lamp", "cold")
FACE_WH = (200, 280)
PHOTOS_CACHE = Path("cache") / "corner_accept_photos.pkl"
BgrImage = npt.NDArray[np.uint8]


@dataclass
class Photo:
    """One picture, read once by its outline and proposed once, and how to score it."""

    kind: str  # "deal 1", "blackjack", "calibration scenes"
    bgr: BgrImage
    whole: CardDetections
    proposals: list[CornerProposal]
    truth: object


def _faces(folder: Path) -> list[tuple[Card, BgrImage]]:
    """The design's 52 faces, upright, on white, 200 x 280."""
    out = []
    for label, bgra in load_design(folder).items():
        if label == "back":
            continue
        alpha = bgra[:, :, 3:4].astype(np.float32) / 255
        face = (bgra[:, :, :3] * alpha + 255 * (1 - alpha)).astype(np.uint8)
        out.append((Card.parse(label), np.asarray(cv2.resize(face, FACE_WH, interpolation=cv2.INTER_AREA), np.uint8)))
    return out


def calibration_scenes(renders: Path, count: int, seed: int = 7) -> list[tuple[BgrImage, list[OverlapScene]]]:
    """``count`` pictures, each a column of 4 and a fan of 4 of one calibration design
    (cards 55-110 px wide: indices of about 15-29 px) on one of four tables."""
    designs = [_faces(renders / d) for d in CALIBRATION_DESIGNS if (renders / d / "done").exists()]
    if not designs:
        raise SystemExit(f"no calibration design rendered in {renders} (python -m models.render_cards)")
    rng = np.random.default_rng(seed)
    out = []
    for k in range(count):
        faces = designs[k % len(designs)]
        pick = rng.permutation(len(faces))
        table = ("white", "wood", "cloth", "paper")[k % 4]
        width = float(rng.uniform(55, 110))
        column = render_overlaps([faces[i] for i in pick[:4]], rng, (800, 600), "column", width, table,
                                 centre_xy=(230, 300))
        fan = render_overlaps([faces[i] for i in pick[4:8]], rng, (800, 600), "fan", width, table,
                              centre_xy=(590, 420), base=column.bgr)
        out.append((fan.bgr, [column, fan]))
    return out


def hard_scenes(renders: Path, count: int, seed: int = 31) -> list[tuple[BgrImage, list[OverlapScene]]]:
    """``count`` pictures harder than :func:`calibration_scenes`, of the calibration and
    training designs (never :data:`TEST_DESIGNS`): a column and a fan of 4-6 cards each,
    cards 42-110 px wide (indices of about 14-36 px), columns 0.15-0.3 of a card apart and
    fans turned 6-14 degrees a card (a neighbour's index close by), in plain, warm, dim,
    lamp or cold light, blurred a little and saved as JPEG of quality 55-90."""
    return _two_groups(renders, count, seed, (42, 110), ("column", (0.15, 0.3)), ("fan", (6, 14)))


def tight_fans(renders: Path, count: int, seed: int = 77) -> list[tuple[BgrImage, list[OverlapScene]]]:
    """``count`` pictures of two hands fanned tight (3-7 degrees a card, so that each card's
    index lies beside its neighbour's, as in a hand held or laid fanned), 4-6 cards each, of
    the calibration and training designs, cards 60-120 px wide, in the light of
    :func:`hard_scenes`."""
    return _two_groups(renders, count, seed, (60, 120), ("fan", (3, 7)), ("fan", (3, 7)))


def _two_groups(renders: Path, count: int, seed: int, width_px: tuple[float, float],
                first: tuple[str, tuple[float, float]], second: tuple[str, tuple[float, float]]
                ) -> list[tuple[BgrImage, list[OverlapScene]]]:
    """``count`` pictures of two groups of 4-6 overlapping cards of one training or
    calibration design each (``first`` and ``second``: a layout of
    :func:`render_overlaps` and the range of its step), on one table, in one of
    :data:`HARD_LIGHT` and saved as JPEG of quality 55-90."""
    names = sorted(d.name for d in renders.iterdir() if (d / "done").exists() and d.name not in TEST_DESIGNS)
    if not names:
        raise SystemExit(f"no design rendered in {renders} (python -m models.render_cards)")
    rng = np.random.default_rng(seed)
    designs: dict[str, list[tuple[Card, BgrImage]]] = {}
    out = []
    for k in range(count):
        name = names[k % len(names)]
        faces = designs.setdefault(name, _faces(renders / name))
        n_first, n_second = (int(v) for v in rng.integers(4, 7, size=2))
        pick = rng.permutation(len(faces))
        table = ("white", "wood", "cloth", "paper")[int(rng.integers(4))]
        width = float(rng.uniform(*width_px))
        one = render_overlaps([faces[i] for i in pick[:n_first]], rng, (800, 600), first[0], width, table,
                              centre_xy=(230, 300), step=float(rng.uniform(*first[1])))
        two = render_overlaps([faces[i] for i in pick[n_first:n_first + n_second]], rng, (800, 600), second[0],
                              width, table, centre_xy=(590, 420), base=one.bgr, step=float(rng.uniform(*second[1])))
        light, _kit = scene_condition(HARD_LIGHT[int(rng.integers(len(HARD_LIGHT)))], rng)
        light = dataclasses.replace(light, jpeg_quality=int(rng.integers(55, 91)))
        out.append((apply_lighting(two.bgr, light, rng), [one, two]))
    return out


def score_scene(found: CardDetections, parts: list[OverlapScene]) -> tuple[int, int, int]:
    """(cards whose top-left index shows that were read, how many show, wrong readings)."""
    truth = [(c, xy) for p in parts for c, xy in zip(p.cards, p.index_xy, strict=True)]
    truth += [(c, xy) for p in parts for c, xy in zip(p.cards, p.other_index_xy, strict=True)]
    showing = {c for p in parts for c, shows in zip(p.cards, p.index_shows, strict=True) if shows}
    read: set[Card] = set()
    wrong = 0
    for i in range(len(found)):
        card = found.label[i]
        if card is None:
            continue
        # grown by a tenth, as the real sets are scored: an outline fitted a little short leaves out
        # the index at its very corner
        on = [c for c, xy in truth if _covers(found.quad_xy[i], float(xy[0]), float(xy[1]))]
        if card in on:
            read.add(card)
        else:
            wrong += 1
    return len(read & showing), len(showing), wrong


def with_corners(classifier: OnnxClassifier, photo: Photo, reader: IndexReader, accept: float) -> CardDetections:
    """:func:`vision.corners.with_corner_cards` on the photo's own proposals at ``accept``."""
    readings = read_corners(classifier, photo.bgr, photo.proposals, accept, whole=photo.whole, reader=reader)
    fresh = [r for r in readings if not any(photo.whole.label[i] == r.card and corners._on(photo.whole.quad_xy[i], r.index_xy)
                                            for i in range(len(photo.whole)))]
    return CardDetections.concatenate([photo.whole, corner_detections(fresh)]) if fresh else photo.whole


def photos(card_reader: CardReader, renders: Path, scenes: int, hard: int = 0, fans: int = 0) -> list[Photo]:
    out = []
    image = np.asarray(cv2.imread(str(DEALS / "deal1-md-sq.jpg")), np.uint8)
    boxes = _deal_boxes(DEALS / "deal1-md-sq-net1280-labels.json", (image.shape[1], image.shape[0]))
    out.append(Photo("deal 1", image, read_closeup(card_reader, image), propose_corners(evenly_lit(image)), boxes))
    doc = json.loads(BLACKJACK_LABELS.read_text())
    for name, labels in doc["photos"].items():
        if labels["split"] != "tuning":
            continue
        image = np.asarray(cv2.imread(str(BLACKJACK / f"{name}.jpg")), np.uint8)
        out.append(Photo("blackjack", image, read_closeup(card_reader, image), propose_corners(evenly_lit(image)),
                         labels))
    for kind, make, count in (("calibration scenes", calibration_scenes, scenes), ("hard scenes", hard_scenes, hard),
                              ("tight fans", tight_fans, fans)):
        for bgr, parts in make(renders, count):
            out.append(Photo(kind, bgr, card_reader.read_frame(bgr), propose_corners(evenly_lit(bgr)), parts))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index-model", type=Path, nargs="+", default=[DEFAULT_MODEL],
                        help="the index reader; several files are read as one, the mean of their probabilities")
    parser.add_argument("--renders", type=Path, default=Path("cache/cards"))
    parser.add_argument("--accept", type=float, nargs="+", default=[0.3, 0.4, 0.5, 0.6])
    parser.add_argument("--first-look", type=float, nargs="+", default=[corners.FIRST_LOOK])
    parser.add_argument("--scenes", type=int, default=12, help="pictures of the calibration designs")
    parser.add_argument("--hard", type=int, default=0,
                        help="harder pictures of the calibration and training designs (hard_scenes)")
    parser.add_argument("--fans", type=int, default=0,
                        help="pictures of hands fanned tight, indices side by side (tight_fans)")
    parser.add_argument("--fresh", action="store_true", help="read and propose the pictures again")
    args = parser.parse_args(argv)
    classifier = OnnxClassifier()
    reader = IndexReader(args.index_model)
    kept = PHOTOS_CACHE.with_name(f"{PHOTOS_CACHE.stem}-{args.scenes}" + (f"-hard{args.hard}" if args.hard else "")
                              + (f"-fans{args.fans}" if args.fans else "") + ".pkl")
    if kept.exists() and not args.fresh:
        made = [Photo(*fields) for fields in pickle.loads(kept.read_bytes())]
    else:
        made = photos(CardReader(classifier), args.renders, args.scenes, args.hard, args.fans)
        kept.parent.mkdir(parents=True, exist_ok=True)
        # plain fields, not Photo itself: a pickled class of a script run as __main__ loads nowhere else
        kept.write_bytes(pickle.dumps([(p.kind, p.bgr, p.whole, p.proposals, p.truth) for p in made]))
    print(f"index reader {args.index_model}: {len(made)} pictures")
    for first_look in args.first_look:
        corners.FIRST_LOOK = first_look  # the module's own threshold, as read_corners reads it
        for accept in args.accept:
            counts: dict[str, list[int]] = {}
            tally = Tally()
            for photo in made:
                found = with_corners(classifier, photo, reader, accept)
                c = counts.setdefault(photo.kind, [0, 0, 0])
                if photo.kind == "deal 1":
                    right, total, said = score_deal(found, photo.truth)  # type: ignore[arg-type]
                    c[0], c[1], c[2] = c[0] + right, c[1] + total, c[2] + len(said)
                elif photo.kind == "blackjack":
                    wrong_before = tally.wrong
                    score_photo(found, photo.truth, tally)  # type: ignore[arg-type]
                    c[2] += tally.wrong - wrong_before
                else:
                    right, total, wrong = score_scene(found, photo.truth)  # type: ignore[arg-type]
                    c[0], c[1], c[2] = c[0] + right, c[1] + total, c[2] + wrong
            counts["blackjack"][0] = sum(tally.read.values())
            counts["blackjack"][1] = sum(tally.cards.values())
            print(f"first look {first_look:.2f}, accept {accept:.2f}: "
                  + "; ".join(f"{kind} {r}/{n} read, {w} wrong" for kind, (r, n, w) in counts.items()), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
