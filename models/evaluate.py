"""Print the classifier's figures (not part of the test suite).

(a) held-out synthetic designs (never trained on, never used for calibration);
(b) the 52 real single cards of ``/work/shared/data/real-cards/single`` (check only), both
    ways up;
(c) crops around the labelled corner-index boxes of the real deal photos (check only): each
    box is turned into a "rectified card" whose top-left corner box shows that index (the
    rest of the crop is whatever lies there: often other cards); of the two turns the box's
    shape allows, the one whose best card class is more likely is kept;
(d) milliseconds per card (preprocess + onnxruntime, batched and single);
(e) with ``--made-up N``: N plain samples from 4 fresh made-up decks per court-letter set
    (``models/procedural_deck.py``: random fonts, jumbo or tiny indices, dark inks, random court
    pictures): a stand-in for novelty art, never used to choose anything.

A reading is *right* or *wrong* when its calibrated confidence reaches the accept threshold,
*unsure* otherwise. Run: ``python -m models.evaluate [--json out.json]``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from engine.cards import Card
from models.dataset import HOLDOUT_DESIGNS, build_feeds, dequantise, rendered_designs
from vision.preprocess import RECT_H, RECT_W, preprocess

REAL = Path("/work/shared/data/real-cards")
# where the labelled index box (rank over suit) sits on the deal photos' cards, as fractions
# of (W, H): judged by eye from crops of the photos (geometry of this check, not of the model)
INDEX_CENTRE = (0.085, 0.14)
INDEX_LONG = 0.28


class Reader:
    """The model with its metadata, read as vision.classify.OnnxClassifier reads it: a best
    class the accept rule refuses gets its probability scaled under the threshold, one it
    accepts (e.g. by a second opinion) is lifted to it, so ``summarise`` counts as run time does."""

    def __init__(self, model_dir: Path, rule: str = "live") -> None:
        from vision.classify import OnnxClassifier

        self.model = OnnxClassifier(model_dir / "card_classifier.onnx", model_dir / "card_classifier.json", rule=rule)
        self.meta = json.loads((model_dir / "card_classifier.json").read_text())
        self.classes: list[str] = self.meta["classes"]
        self.temperature = float(self.meta["temperature"])
        self.threshold = float(self.model.meta.accept_threshold)

    def probs_of_feeds(self, feeds: dict[str, np.ndarray]) -> np.ndarray:
        """For a rule without test-time views (feeds cannot be re-framed)."""
        return self.probs_of_heads(self.model.heads_of_feeds(feeds))

    def probs_of_heads(self, heads: dict[str, np.ndarray], cards: list[np.ndarray] | None = None) -> np.ndarray:
        """With the ``cards`` themselves, what the metadata's checks take too (the pips, the
        index reader: ``OnnxClassifier.settled``), as ``classify`` does."""
        from vision.classify import mean_view_probs

        probs = mean_view_probs(heads, self.temperature).astype(np.float64)  # the mean over views, if any
        accepted = self.model.accepted(heads)
        if cards is not None:
            settled = self.model.settled(cards, heads, self.model.readings_of(heads))
            accepted = accepted | np.array([r.label is not None for r in settled], bool)
        rows = np.arange(len(probs))
        best = probs.argmax(axis=1)
        probs[~accepted] *= 0.5 * self.threshold / np.maximum(probs[~accepted].max(axis=1, keepdims=True), 1e-9)
        probs[rows[accepted], best[accepted]] = np.maximum(probs[rows[accepted], best[accepted]], self.threshold)
        return np.asarray(probs)

    def probs(self, cards: list[np.ndarray]) -> np.ndarray:
        if self.model.meta.views:
            batches = range(0, len(cards), 64)
            out = [self.probs_of_heads(self.model.heads_with_views(cards[i : i + 64]), cards[i : i + 64]) for i in batches]
        else:
            out = [self.probs_of_feeds(preprocess(cards[i : i + 64])) for i in range(0, len(cards), 64)]
        return np.concatenate(out)


def summarise(name: str, probs: np.ndarray, labels: np.ndarray, threshold: float) -> dict[str, object]:
    conf, pred = probs.max(axis=1), probs.argmax(axis=1)
    ok, accepted = pred == labels, conf >= threshold
    row: dict[str, object] = {
        "set": name,
        "n": int(len(labels)),
        "top1": round(float(ok.mean()), 4),
        "right": round(float((ok & accepted).mean()), 4),
        "wrong": round(float((~ok & accepted).mean()), 4),
        "unsure": round(float((~accepted).mean()), 4),
    }
    print(f"{name:32s} n={row['n']:5d}  top1={row['top1']:.3f}  right={row['right']:.3f}  "
          f"wrong={row['wrong']:.4f}  unsure={row['unsure']:.3f}")
    return row


def eval_holdout(reader: Reader, renders: Path, count: int, seed: int, plain: bool = False) -> list[dict[str, object]]:
    names = [n for n in rendered_designs(renders) if n in set(HOLDOUT_DESIGNS) - set(reader.meta["holdout"]["calibration_designs"])]
    rows = []
    for name in names:
        title = f"unseen {name}" + (" (plain)" if plain else "")
        if reader.model.meta.views:  # views re-frame the card: the same samples, as images
            cards, labels = design_images(renders, name, count, seed, plain)
            rows.append(summarise(title, reader.probs(cards), labels, reader.threshold))
            continue
        feeds = build_feeds([name], renders, count, seed, jobs=2, chunk=max(1, count // 2), plain=plain)
        probs = reader.probs_of_feeds({"corners": dequantise(feeds.corners), "face": dequantise(feeds.face)})
        rows.append(summarise(title, probs, feeds.labels, reader.threshold))
    return rows


def design_images(renders: Path, name: str, count: int, seed: int, plain: bool) -> tuple[list[np.ndarray], np.ndarray]:
    """The samples ``build_feeds`` makes for one design (its two halves and seeds), as images."""
    from models.dataset import load_design, make_samples

    design = [load_design(renders / name)]
    cards: list[np.ndarray] = []
    labels = []
    step = max(1, count // 2)
    for start in range(0, count, step):
        images, lab = make_samples(design, min(step, count - start), seed * 100_003 + start, plain=plain)
        cards += images
        labels.append(lab)
    return cards, np.concatenate(labels)


def eval_made_up(reader: Reader, count: int, seed: int) -> list[dict[str, object]]:
    from models.dataset import make_samples
    from models.procedural_deck import COURT_LETTERS, make_design

    rows = []
    for i, letters in enumerate(COURT_LETTERS):
        rng = np.random.default_rng(seed + 1000 + i)
        designs = [make_design(rng, letters) for _ in range(4)]
        images, labels = make_samples(designs, count, seed + 2000 + i, plain=True)
        rows.append(summarise(f"made-up decks, {letters} (plain)", reader.probs(images), labels, reader.threshold))
    return rows


def imread(path: Path) -> np.ndarray:
    """A colour image, or a clear error naming the file."""
    image = cv2.imread(str(path))
    if image is None:
        raise SystemExit(f"{path}: not an image OpenCV can read")
    return np.asarray(image)


def _num(value: object) -> float:
    return float(value) if isinstance(value, (int, float)) else 0.0


def real_label(stem: str, classes: list[str]) -> int:
    return classes.index(str(Card.parse(stem)))


def degrade(card: np.ndarray, scale: float, jpeg_quality: int) -> np.ndarray:
    """A real card as a far camera would see it: ``scale`` of its size, JPEG, scaled back."""
    small = cv2.resize(card, (int(RECT_W * scale), int(RECT_H * scale)), interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, jpeg_quality])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    return np.asarray(cv2.resize(decoded if decoded is not None else small, (RECT_W, RECT_H),
                                 interpolation=cv2.INTER_LINEAR))


def eval_singles(
    reader: Reader, folder: Path, show_errors: bool = True, scale: float = 1.0, jpeg_quality: int = 95
) -> dict[str, object] | None:
    files = sorted(folder.glob("*.jpg"))
    if not files:
        print(f"no real singles under {folder}: skipped")
        return None
    cards, labels = [], []
    for path in files:
        image = imread(path)
        card = cv2.resize(image, (RECT_W, RECT_H), interpolation=cv2.INTER_AREA)
        if scale < 1.0:
            card = degrade(card, scale, jpeg_quality)
        for turned in (card, np.ascontiguousarray(card[::-1, ::-1])):
            cards.append(turned)
            labels.append(real_label(path.stem, reader.classes))
    probs = reader.probs(cards)
    label_arr = np.array(labels)
    if show_errors:
        for i in np.nonzero(probs.argmax(axis=1) != label_arr)[0]:
            print(f"   {files[i // 2].name} (turn {i % 2}): read {reader.classes[probs[i].argmax()]} "
                  f"conf {probs[i].max():.2f}")
    name = "real singles (both ways up)" if scale >= 1.0 else f"real singles at {scale:.0%}, jpeg {jpeg_quality}"
    return summarise(name, probs, label_arr, reader.threshold)


def eval_singles_placed(reader: Reader, folder: Path, per_card: int = 4, seed: int = 99) -> dict[str, object] | None:
    """The real singles warped with a rectifier's errors over a synthetic table, then spoiled
    like a camera frame (the synthetic recipe applied to real card images; seeded)."""
    from models.synth import AugmentConfig, TextureBank, augment_photo, place_card

    files = sorted(folder.glob("*.jpg"))
    if not files:
        return None
    rng = np.random.default_rng(seed)
    bank = TextureBank(seed=seed, count=8)
    config = AugmentConfig(min_scale=0.35)
    cards, labels = [], []
    for path in files:
        image = imread(path)
        bgra = np.dstack([image, np.full(image.shape[:2], 255, np.uint8)])
        for _ in range(per_card):
            crop = place_card(rng, bgra, bank.crop(rng), config)
            cards.append(augment_photo(rng, crop, config))
            labels.append(real_label(path.stem, reader.classes))
    return summarise("real singles, placed + spoiled", reader.probs(cards), np.array(labels), reader.threshold)


def deal_crop(image: np.ndarray, cx: float, cy: float, long_px: float, turn: int) -> np.ndarray:
    """A rectified-card-sized crop whose top-left index box shows the index centred at (cx, cy).

    ``turn`` (0..3) is the card's rotation in the photo in quarter turns.
    """
    scale = INDEX_LONG * RECT_H / long_px
    # rectified point p maps to photo point: centre + R(turn) @ (p - index_centre) / scale
    angle = turn * np.pi / 2
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    centre_rect = np.array([INDEX_CENTRE[0] * RECT_W, INDEX_CENTRE[1] * RECT_H])
    a = rot / scale
    b = np.array([cx, cy]) - a @ centre_rect
    matrix = np.hstack([a, b[:, None]])
    return cv2.warpAffine(image, matrix, (RECT_W, RECT_H), flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)


def eval_deals(reader: Reader, folder: Path) -> dict[str, object] | None:
    photos = sorted(folder.glob("deal*-md-sq.jpg"))
    if not photos:
        print(f"no deal photos under {folder}: skipped")
        return None
    best_probs, labels = [], []
    for photo in photos:
        image = imread(photo)
        h, w = image.shape[:2]
        boxes = json.loads(photo.with_name(photo.stem + "-net1280-labels.json").read_text())
        for box in boxes:
            rc = box["relative_coordinates"]
            cx, cy, bw, bh = rc["center_x"] * w, rc["center_y"] * h, rc["width"] * w, rc["height"] * h
            turns = (0, 2) if bh >= bw else (1, 3)
            crops = [deal_crop(image, cx, cy, max(bw, bh), t) for t in turns]
            probs = reader.probs(crops)
            # the turn that looks most like some card face (a wrong turn shows table: "none")
            best_probs.append(probs[int(probs[:, :52].max(axis=1).argmax())])
            labels.append(real_label(box["name"], reader.classes))
    return summarise("real deal index crops", np.stack(best_probs), np.array(labels), reader.threshold)


def timing(reader: Reader) -> dict[str, object]:
    rng = np.random.default_rng(0)
    cards = [rng.integers(0, 256, (RECT_H, RECT_W, 3), dtype=np.uint8) for _ in range(32)]
    reader.probs(cards)
    runs = 20
    t0 = time.perf_counter()
    for _ in range(runs):
        reader.probs(cards)
    batched = (time.perf_counter() - t0) / runs / len(cards) * 1000
    t0 = time.perf_counter()
    for _ in range(runs):
        reader.probs(cards[:1])
    single = (time.perf_counter() - t0) / runs * 1000
    print(f"ms per card: {batched:.3f} in batches of 32, {single:.3f} alone (preprocess + onnxruntime, 2 threads)")
    return {"ms_per_card_batch32": round(batched, 3), "ms_per_card_single": round(single, 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=Path("models"))
    parser.add_argument("--renders", type=Path, default=Path("cache/cards"))
    parser.add_argument("--real", type=Path, default=REAL)
    parser.add_argument("--holdout-samples", type=int, default=1500, help="per unseen design")
    parser.add_argument("--seed", type=int, default=777)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--into-meta", action="store_true", help="also store the figures in card_classifier.json")
    parser.add_argument("--rule", choices=("live", "still"), default="live",
                        help="the accept rule: live play's, or the stricter one of `eleusis read` (one still image)")
    parser.add_argument("--made-up", type=int, default=0, metavar="N",
                        help="also N plain samples of 4 fresh made-up decks per court-letter set (novelty stand-in)")
    args = parser.parse_args(argv)
    os.environ.setdefault("OMP_NUM_THREADS", "2")
    reader = Reader(args.models, args.rule)
    from vision.views import describe_views

    views = describe_views(reader.model.meta.views)
    print(f"model {reader.meta['version']}: temperature {reader.temperature}, rule {args.rule}, "
          f"accept threshold {reader.threshold}, test-time views: {views}")
    report: dict[str, object] = {"threshold": reader.threshold}
    if rendered_designs(args.renders):
        rows = eval_holdout(reader, args.renders, args.holdout_samples, args.seed)
        report["holdout"] = rows
        if rows:
            mean = {k: round(float(np.mean([_num(r[k]) for r in rows])), 4) for k in ("top1", "right", "wrong", "unsure")}
            print(f"{'unseen designs, mean':32s} {mean}")
            report["holdout_mean"] = mean
        plain_rows = eval_holdout(reader, args.renders, args.holdout_samples, args.seed, plain=True)
        report["holdout_plain"] = plain_rows
        if plain_rows:
            mean = {k: round(float(np.mean([_num(r[k]) for r in plain_rows])), 4) for k in ("top1", "right", "wrong", "unsure")}
            print(f"{'unseen designs (plain), mean':32s} {mean}")
            report["holdout_plain_mean"] = mean
    else:
        print("no renders: held-out designs skipped (python -m models.render_cards)")
    if args.made_up:
        rows = eval_made_up(reader, args.made_up, args.seed)
        report["made_up"] = rows
        mean = {k: round(float(np.mean([_num(r[k]) for r in rows])), 4) for k in ("top1", "right", "wrong", "unsure")}
        print(f"{'made-up decks (plain), mean':32s} {mean}")
        report["made_up_mean"] = mean
    report["singles"] = eval_singles(reader, args.real / "single")
    # the same real cards as a camera further away would see them (index about 20 and 13 px tall)
    report["singles_small"] = eval_singles(reader, args.real / "single", False, 0.5, 70)
    report["singles_tiny"] = eval_singles(reader, args.real / "single", False, 0.33, 60)
    report["singles_placed"] = eval_singles_placed(reader, args.real / "single")
    report["deals"] = eval_deals(reader, args.real / "deals")
    report["timing"] = timing(reader)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    if args.into_meta:
        meta_path = args.models / "card_classifier.json"
        meta = json.loads(meta_path.read_text())
        meta["evaluation"] = {k: v for k, v in report.items() if k != "threshold"}
        meta_path.write_text(json.dumps(meta, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
