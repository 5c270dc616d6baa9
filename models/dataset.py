"""Training and validation sets for the card classifier, made from the render cache.

Classes: the 52 cards in ``engine.cards`` order (``AC`` ... ``KS``), then ``back`` and ``none``.
Samples are made by :mod:`models.synth` and passed through :func:`vision.preprocess.preprocess`
(the run-time function itself); the float feeds are stored as uint8 (``(x + 0.5) * 170``,
an error below 0.003, finer than the uint8 input) so 100k samples fit in memory.

Whole designs are held out (``HOLDOUT_DESIGNS``) to measure reading a deck never seen.
"""

from __future__ import annotations

import logging
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from engine.cards import all_kinds
from models.synth import (AugmentConfig, TextureBank, augment_photo, busy_table, ink_variant, place_card, procedural_back,
                          sample_none)
from vision.preprocess import preprocess

log = logging.getLogger("dataset")

CLASSES: tuple[str, ...] = tuple(str(c) for c in all_kinds()) + ("back", "none")
BACK_INDEX = CLASSES.index("back")
NONE_INDEX = CLASSES.index("none")
# whole designs never used for training or calibration: the "unseen deck" test
HOLDOUT_DESIGNS: tuple[str, ...] = (
    "gnome-bellot",
    "gnome-tango",
    "gnome-rheinland",
    "gnome-simplistic",
    "kde-penguins",
    "kde-nicu-white",
    "kde-oxygen-white",
)
# designs left out entirely: tango_nuevo has no bottom index and a giant top-right suit
EXCLUDED_DESIGNS: tuple[str, ...] = ("gnome-tango_nuevo",)
# the index reader's calibration designs (its thresholds) and test designs (never used to
# choose anything): models/train_index_reader.py
INDEX_CALIBRATION_DESIGNS: tuple[str, ...] = ("gnome-rheinland", "gnome-simplistic", "kde-oxygen-white")
INDEX_TEST_DESIGNS: tuple[str, ...] = tuple(d for d in HOLDOUT_DESIGNS if d not in INDEX_CALIBRATION_DESIGNS)
FEED_SCALE = 170.0  # uint8 storage of feeds in [-0.5, 1.0]
SYNTH_VERSION = 5  # bump when the recipe changes (names the feed cache)
P_BACK = 0.06
P_NONE = 0.08
P_OCCLUDED = 0.25  # share of face samples with another card laid over their lower part
P_BUSY = 0.3  # share of samples whose surroundings hold other cards, not bare table
P_SCRIBBLED = 0.02  # a face scribbled over, index included: "none" (it must stay unsure)

Design = dict[str, np.ndarray]  # label -> BGRA face


@dataclass(frozen=True, slots=True)
class FeedArrays:
    """Quantised feeds and labels: ``corners`` [N,2,3,H,W] u8, ``face`` [N,3,H,W] u8, ``labels`` [N]."""

    corners: np.ndarray
    face: np.ndarray
    labels: np.ndarray


def quantise(feed: np.ndarray) -> np.ndarray:
    return np.round((feed + 0.5) * FEED_SCALE).clip(0, 255).astype(np.uint8)


def dequantise(stored: np.ndarray) -> np.ndarray:
    return stored.astype(np.float32) / FEED_SCALE - 0.5


LOAD_HEIGHT_PX = 320  # a little above RECT_H so warping never enlarges much


def load_design(folder: Path) -> Design:
    """All 53 images of one rendered design (BGRA arrays keyed by label), about 320 px tall."""
    design: Design = {}
    for label in CLASSES[:-1]:
        path = folder / f"{label}.png"
        if not path.exists() and (folder / f"{label}.webp").exists():
            path = folder / f"{label}.webp"  # the packed renders carried to a training machine
        image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
        if image is None:
            raise ValueError(f"missing render {folder / label}.png: rerun python -m models.render_cards")
        h, w = image.shape[:2]
        size = (max(1, round(w * LOAD_HEIGHT_PX / h)), LOAD_HEIGHT_PX)
        design[label] = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    return design


def rendered_designs(cache: Path) -> list[str]:
    """Names of the complete, usable designs in the render cache."""
    return sorted(p.parent.name for p in cache.glob("*/done") if p.parent.name not in EXCLUDED_DESIGNS)


# down to only the index strip showing; a third of the crops framed loosely or tightly
TRAIN_CONFIG = AugmentConfig(min_overlap_shift=0.15, p_reframe=0.3)
# "plain" conditions for a second evaluation: no overlap, no neighbours, index >= ~20 px
PLAIN_CONFIG = AugmentConfig(min_scale=0.5)
# "table" conditions (the enrolled figures'): what the zone path hands the classifier at
# the table: the rectifier's usual error (no re-framing), index >= ~17 px, neighbours, and an
# overlapping card that starts at least a third of the way down, so the top index shows
TABLE_CONFIG = AugmentConfig(min_scale=0.35)


def make_samples(
    designs: list[Design], count: int, seed: int, plain: bool = False, made_up: list[Design] | None = None,
    p_made_up: float = 0.0, inks: bool = True, config: AugmentConfig | None = None,
    overlaps: bool = True, conditions: list[dict[str, float]] | None = None,
) -> tuple[list[np.ndarray], np.ndarray]:
    """``count`` rectified-crop samples (BGR uint8) and their class indices, fixed by ``seed``.

    ``plain`` makes the easier evaluation variant (no overlap, no neighbours, larger index).
    ``made_up`` are procedural designs (:mod:`models.procedural_deck`), drawn ``p_made_up``
    of the time (always when ``designs`` is empty); ``inks`` varies the ink of some cards.
    ``config`` replaces the geometric and photometric recipe (default: the training one, or
    the plain one); overlaps and neighbours still follow ``plain``. ``overlaps=False``: no card
    laid over another (a card lying whole, as in the play zone). ``conditions``, when given, gets
    one dict a sample: ``occluded`` and ``busy`` (1 or 0) and what :func:`augment_photo` drew.
    """
    made_up = made_up or []
    config = config or (PLAIN_CONFIG if plain else TRAIN_CONFIG)
    p_busy, p_occluded = (0.0, 0.0) if plain else (P_BUSY, P_OCCLUDED)
    p_occluded = p_occluded if overlaps else 0.0
    rng = np.random.default_rng(seed)
    bank = TextureBank(seed=int(rng.integers(2**31)), count=24)
    images: list[np.ndarray] = []
    labels = np.empty(count, np.int64)
    for i in range(count):
        table = bank.crop(rng)
        if made_up and (not designs or rng.random() < p_made_up):
            design = made_up[int(rng.integers(len(made_up)))]
        else:
            design = designs[int(rng.integers(len(designs)))]
        busy = rng.random() < p_busy
        occluded = False
        if busy:
            neighbours = [design[CLASSES[int(rng.integers(53))]] for _ in range(int(rng.integers(1, 4)))]
            table = busy_table(rng, table, neighbours)
        r = rng.random()
        if rng.random() < P_SCRIBBLED:
            face = scribble(rng, design[CLASSES[int(rng.integers(52))]])
            crop = place_card(rng, face, table, config)
            labels[i] = NONE_INDEX
        elif r < P_NONE:
            card = design[CLASSES[int(rng.integers(52))]] if rng.random() < 0.6 else None
            crop = sample_none(rng, table, card)
            labels[i] = NONE_INDEX
        elif r < P_NONE + P_BACK:
            back = design["back"] if rng.random() < 0.5 else procedural_back(rng)
            crop = place_card(rng, back, table, config)
            labels[i] = BACK_INDEX
        else:
            k = int(rng.integers(52))
            occluder = design[CLASSES[int(rng.integers(52))]] if rng.random() < p_occluded else None
            occluded = occluder is not None
            face = ink_variant(rng, design[CLASSES[k]]) if inks else design[CLASSES[k]]
            crop = place_card(rng, face, table, config, occluder)
            labels[i] = k
        drawn: dict[str, float] = {}
        images.append(augment_photo(rng, crop, config, drawn))
        if conditions is not None:
            conditions.append({"occluded": float(occluded), "busy": float(busy), **drawn})
    return images, labels


def scribble(rng: np.random.Generator, card_bgra: np.ndarray) -> np.ndarray:
    """The card with thick pen strokes over it, both corner indices included."""
    out = card_bgra.copy()
    h, w = out.shape[:2]
    colour = tuple(int(c) for c in rng.integers(0, 120, 3)) + (255,)
    corners = [(0.12 * w, 0.1 * h), (0.88 * w, 0.9 * h)]
    for k in range(int(rng.integers(6, 16))):
        p1 = corners[k % 2] if k < 4 else (rng.uniform(0, w), rng.uniform(0, h))
        p1 = (int(p1[0] + rng.normal(0, 0.05 * w)), int(p1[1] + rng.normal(0, 0.05 * h)))
        p2 = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        cv2.line(out, p1, p2, colour, int(rng.integers(max(2, w // 40), max(3, w // 12))))
    return out


@dataclass(frozen=True, slots=True)
class MadeUp:
    """Procedural designs in a set: ``per_chunk`` new designs per chunk of samples, drawn
    ``share`` of the time, with court ``letters`` (None: mixed; see COURT_LETTERS)."""

    per_chunk: int = 0
    share: float = 0.0
    letters: str | None = None


def _chunk(args: tuple[list[str], Path, int, int, bool, MadeUp]) -> FeedArrays:
    import os

    os.environ.setdefault("OMP_NUM_THREADS", "1")
    cv2.setNumThreads(1)
    names, cache, count, seed, plain, made = args
    designs = [load_design(cache / n) for n in names]
    made_up: list[Design] = []
    if made.per_chunk:
        from models.procedural_deck import make_design

        design_rng = np.random.default_rng(seed + 7)
        made_up = [make_design(design_rng, made.letters) for _ in range(made.per_chunk)]
    images, labels = make_samples(designs, count, seed, plain, made_up, made.share)
    feeds = preprocess(images)
    return FeedArrays(quantise(feeds["corners"]), quantise(feeds["face"]), labels)


def build_feeds(
    names: list[str], cache: Path, count: int, seed: int, jobs: int = 2, chunk: int = 5000, plain: bool = False,
    made: MadeUp = MadeUp(), deadline_s: float | None = None,
) -> FeedArrays:
    """``count`` samples from the designs ``names`` (and ``made`` up ones) as quantised feeds,
    in ``jobs`` processes. With ``deadline_s``, only the chunks done by then are kept (at
    least one): a time-boxed run on a lent machine."""
    import time
    from concurrent.futures import FIRST_COMPLETED, wait

    tasks = [
        (names, cache, min(chunk, count - start), seed * 100_003 + start, plain, made)
        for start in range(0, count, chunk)
    ]
    parts: list[FeedArrays] = []
    started = time.time()
    pool = ProcessPoolExecutor(max_workers=jobs)
    pending = {pool.submit(_chunk, t) for t in tasks}
    try:
        while pending:
            left = None if deadline_s is None else max(0.0, deadline_s - (time.time() - started))
            done, pending = wait(pending, timeout=left, return_when=FIRST_COMPLETED)
            for fut in done:
                parts.append(fut.result())
                log.info("made %d / %d samples", sum(len(p.labels) for p in parts), count)
            if not done and parts:
                log.warning("time is up: %d of %d samples made", sum(len(p.labels) for p in parts), count)
                break
    finally:
        pool.shutdown(wait=not pending, cancel_futures=True)
    return FeedArrays(
        np.concatenate([p.corners for p in parts]),
        np.concatenate([p.face for p in parts]),
        np.concatenate([p.labels for p in parts]),
    )
