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
from models.synth import AugmentConfig, TextureBank, augment_photo, busy_table, place_card, procedural_back, sample_none
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
FEED_SCALE = 170.0  # uint8 storage of feeds in [-0.5, 1.0]
SYNTH_VERSION = 4  # bump when the recipe changes (names the feed cache)
P_BACK = 0.06
P_NONE = 0.08
P_OCCLUDED = 0.25  # share of face samples with another card laid over their lower part
P_BUSY = 0.3  # share of samples whose surroundings hold other cards, not bare table

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
        image = cv2.imread(str(folder / f"{label}.png"), cv2.IMREAD_UNCHANGED)
        if image is None:
            raise ValueError(f"missing render {folder / label}.png: rerun python -m models.render_cards")
        h, w = image.shape[:2]
        size = (max(1, round(w * LOAD_HEIGHT_PX / h)), LOAD_HEIGHT_PX)
        design[label] = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    return design


def rendered_designs(cache: Path) -> list[str]:
    """Names of the complete, usable designs in the render cache."""
    return sorted(p.parent.name for p in cache.glob("*/done") if p.parent.name not in EXCLUDED_DESIGNS)


TRAIN_CONFIG = AugmentConfig(min_overlap_shift=0.15)  # down to only the index strip showing
# "plain" conditions for a second evaluation: no overlap, no neighbours, index >= ~20 px
PLAIN_CONFIG = AugmentConfig(min_scale=0.5)


def make_samples(
    designs: list[Design], count: int, seed: int, plain: bool = False
) -> tuple[list[np.ndarray], np.ndarray]:
    """``count`` rectified-crop samples (BGR uint8) and their class indices, fixed by ``seed``.

    ``plain`` makes the easier evaluation variant (no overlap, no neighbours, larger index).
    """
    config = PLAIN_CONFIG if plain else TRAIN_CONFIG
    p_busy, p_occluded = (0.0, 0.0) if plain else (P_BUSY, P_OCCLUDED)
    rng = np.random.default_rng(seed)
    bank = TextureBank(seed=int(rng.integers(2**31)), count=24)
    images: list[np.ndarray] = []
    labels = np.empty(count, np.int64)
    for i in range(count):
        table = bank.crop(rng)
        design = designs[int(rng.integers(len(designs)))]
        if rng.random() < p_busy:
            neighbours = [design[CLASSES[int(rng.integers(53))]] for _ in range(int(rng.integers(1, 4)))]
            table = busy_table(rng, table, neighbours)
        r = rng.random()
        if r < P_NONE:
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
            crop = place_card(rng, design[CLASSES[k]], table, config, occluder)
            labels[i] = k
        images.append(augment_photo(rng, crop, config))
    return images, labels


def _chunk(args: tuple[list[str], Path, int, int, bool]) -> FeedArrays:
    import os

    os.environ.setdefault("OMP_NUM_THREADS", "1")
    cv2.setNumThreads(1)
    names, cache, count, seed, plain = args
    designs = [load_design(cache / n) for n in names]
    images, labels = make_samples(designs, count, seed, plain)
    feeds = preprocess(images)
    return FeedArrays(quantise(feeds["corners"]), quantise(feeds["face"]), labels)


def build_feeds(
    names: list[str], cache: Path, count: int, seed: int, jobs: int = 2, chunk: int = 5000, plain: bool = False
) -> FeedArrays:
    """``count`` samples from the designs ``names`` as quantised feeds, in ``jobs`` processes."""
    tasks = [
        (names, cache, min(chunk, count - start), seed * 100_003 + start, plain) for start in range(0, count, chunk)
    ]
    parts: list[FeedArrays] = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for part in pool.map(_chunk, tasks):
            parts.append(part)
            log.info("made %d / %d samples", sum(len(p.labels) for p in parts), count)
    return FeedArrays(
        np.concatenate([p.corners for p in parts]),
        np.concatenate([p.face for p in parts]),
        np.concatenate([p.labels for p in parts]),
    )
