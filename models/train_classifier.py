"""Train the card classifier on synthetic cards, export ONNX, calibrate, write the metadata.

Steps (all seeded):
1. designs from the render cache (``python -m models.render_cards``), split three ways:
   training designs; calibration designs (held out: temperature and accept threshold are fit
   on them, so calibration reflects decks never seen); test designs (held out: measured only);
2. synthetic samples through :func:`vision.preprocess.preprocess` (the run-time function);
3. training with torch on the CPU (1 thread: fastest on a busy 2-core box), AdamW, one-cycle;
4. ONNX export (opset 17, dynamic batch), onnxruntime checked against torch;
5. temperature fit on the calibration designs, accept threshold chosen there;
6. ``models/card_classifier.onnx`` and ``models/card_classifier.json``.

Run: ``python -m models.train_classifier --steps 3000`` (log to ``cache/train.log``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import math
import sys
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from models.dataset import SYNTH_VERSION, CLASSES, HOLDOUT_DESIGNS, FeedArrays, build_feeds, dequantise, rendered_designs
from models.net import CardNet
from vision.preprocess import INPUT_NAMES

log = logging.getLogger("train")

CALIBRATION_DESIGNS = ("gnome-simplistic", "gnome-rheinland", "kde-oxygen-white")
MAX_WRONG_ACCEPTED = 0.005  # the accept threshold keeps confident wrong readings under 0.5 %
MIN_ACCEPT_THRESHOLD = 0.5
VERSION = "1.0.0"


def cached_feeds(names: list[str], cache: Path, count: int, seed: int, tag: str) -> FeedArrays:
    """Build (or reload) ``count`` samples of ``names`` under ``cache/feeds``."""
    folder = cache.parent / "feeds"
    folder.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha1(json.dumps([names, SYNTH_VERSION]).encode()).hexdigest()[:10]
    key = f"{tag}-{count}-{seed}-{digest}"
    paths = [folder / f"{key}-{part}.npy" for part in ("corners", "face", "labels")]
    if all(p.exists() for p in paths):
        return FeedArrays(*(np.load(p) for p in paths))
    feeds = build_feeds(names, cache, count, seed)
    for p, arr in zip(paths, (feeds.corners, feeds.face, feeds.labels)):
        np.save(p, arr)
    return feeds


def to_tensors(feeds: FeedArrays, idx: np.ndarray) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    return (
        torch.from_numpy(dequantise(feeds.corners[idx])),
        torch.from_numpy(dequantise(feeds.face[idx])),
        torch.from_numpy(feeds.labels[idx]),
    )


@torch.no_grad()
def predict_logits(model: nn.Module, feeds: FeedArrays, batch: int = 512) -> np.ndarray:
    model.eval()
    out = []
    for start in range(0, len(feeds.labels), batch):
        idx = np.arange(start, min(start + batch, len(feeds.labels)))
        corners, face, _ = to_tensors(feeds, idx)
        out.append(model(corners, face).numpy())
    return np.concatenate(out)


def fit_temperature(logits: np.ndarray, labels: np.ndarray) -> float:
    """The temperature minimising the negative log-likelihood (a 1-D search on log T)."""
    best_t, best_nll = 1.0, math.inf
    for log_t in np.linspace(np.log(0.3), np.log(8.0), 200):
        z = logits / np.exp(log_t)
        z = z - z.max(axis=1, keepdims=True)
        nll = float(-(z[np.arange(len(labels)), labels] - np.log(np.exp(z).sum(axis=1))).mean())
        if nll < best_nll:
            best_t, best_nll = float(np.exp(log_t)), nll
    return best_t


def softmax(logits: np.ndarray, temperature: float) -> np.ndarray:
    z = logits / temperature
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def choose_threshold(probs: np.ndarray, labels: np.ndarray) -> float:
    """The lowest confidence threshold whose accepted-and-wrong rate is at most MAX_WRONG_ACCEPTED."""
    conf = probs.max(axis=1)
    wrong = probs.argmax(axis=1) != labels
    for t in np.arange(MIN_ACCEPT_THRESHOLD, 0.995, 0.01):
        if float((wrong & (conf >= t)).mean()) <= MAX_WRONG_ACCEPTED:
            return round(float(t), 2)
    return 0.99


def rates(probs: np.ndarray, labels: np.ndarray, threshold: float) -> dict[str, float]:
    conf = probs.max(axis=1)
    pred = probs.argmax(axis=1)
    accepted = conf >= threshold
    return {
        "n": int(len(labels)),
        "top1": round(float((pred == labels).mean()), 4),
        "right_accepted": round(float(((pred == labels) & accepted).mean()), 4),
        "wrong_accepted": round(float(((pred != labels) & accepted).mean()), 4),
        "unsure": round(float((~accepted).mean()), 4),
    }


def train(model: nn.Module, feeds: FeedArrays, steps: int, batch: int, lr: float, seed: int) -> None:
    rng = np.random.default_rng(seed)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    n = len(feeds.labels)
    started = time.time()
    running = 0.0
    for step in range(1, steps + 1):
        model.train()
        idx = np.sort(rng.choice(n, size=batch, replace=False))
        corners, face, labels = to_tensors(feeds, idx)
        loss = loss_fn(model(corners, face), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        value = loss.item()
        running = 0.98 * running + 0.02 * value if step > 1 else value
        if step % 100 == 0 or step == steps:
            log.info("step %d/%d loss %.3f (%.0f s)", step, steps, running, time.time() - started)


def export_onnx(model: nn.Module, path: Path, feeds: FeedArrays) -> float:
    """Write the ONNX file; return the largest |onnxruntime - torch| logit difference."""
    import onnxruntime as ort

    model.eval()
    idx = np.arange(min(16, len(feeds.labels)))
    corners, face, _ = to_tensors(feeds, idx)
    torch.onnx.export(
        model,
        (corners, face),
        str(path),
        input_names=list(INPUT_NAMES),
        output_names=["logits"],
        dynamic_axes={"corners": {0: "batch"}, "face": {0: "batch"}, "logits": {0: "batch"}},
        opset_version=17,
        dynamo=False,
    )
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    got = session.run(None, {"corners": corners.numpy(), "face": face.numpy()})[0]
    with torch.no_grad():
        want = model(corners, face).numpy()
    return float(np.abs(got - want).max())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=Path, default=Path("cache/cards"))
    parser.add_argument("--out", type=Path, default=Path("models"))
    parser.add_argument("--train-samples", type=int, default=60_000)
    parser.add_argument("--calib-samples", type=int, default=6_000)
    parser.add_argument("--steps", type=int, default=3_000)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--threads", type=int, default=1, help="torch threads (1 is fastest on a shared 2-core box)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)

    names = rendered_designs(args.renders)
    if not names:
        log.error("no renders under %s: run python -m models.render_cards first", args.renders)
        return 1
    calib_names = [n for n in names if n in CALIBRATION_DESIGNS]
    test_names = [n for n in names if n in HOLDOUT_DESIGNS and n not in CALIBRATION_DESIGNS]
    train_names = [n for n in names if n not in HOLDOUT_DESIGNS and n not in CALIBRATION_DESIGNS]
    log.info("train designs (%d): %s", len(train_names), " ".join(train_names))
    log.info("calibration designs: %s; test designs: %s", " ".join(calib_names), " ".join(test_names))

    train_feeds = cached_feeds(train_names, args.renders, args.train_samples, args.seed, "train")
    calib_feeds = cached_feeds(calib_names, args.renders, args.calib_samples, args.seed + 1, "calib")
    log.info("data ready: %d train, %d calibration samples", len(train_feeds.labels), len(calib_feeds.labels))

    model = CardNet(len(CLASSES))
    train(model, train_feeds, args.steps, args.batch, args.lr, args.seed)

    onnx_path = args.out / "card_classifier.onnx"
    max_diff = export_onnx(model, onnx_path, calib_feeds)
    log.info("onnx written, max |ort - torch| = %.2e", max_diff)
    if max_diff > 1e-3:
        log.error("onnxruntime disagrees with torch by %.2e", max_diff)
        return 1

    logits = predict_logits(model, calib_feeds)
    temperature = fit_temperature(logits, calib_feeds.labels)
    probs = softmax(logits, temperature)
    threshold = choose_threshold(probs, calib_feeds.labels)
    calib_rates = rates(probs, calib_feeds.labels, threshold)
    log.info("temperature %.3f, accept threshold %.2f, calibration %s", temperature, threshold, calib_rates)

    meta = {
        "version": VERSION,
        "classes": list(CLASSES),
        "input_names": list(INPUT_NAMES),
        "output_name": "logits",
        "temperature": round(temperature, 4),
        "accept_threshold": threshold,
        "preprocess": "vision.preprocess.preprocess",
        "training": {
            "seed": args.seed,
            "steps": args.steps,
            "batch": args.batch,
            "train_samples": len(train_feeds.labels),
            "train_designs": train_names,
        },
        "holdout": {
            "calibration_designs": calib_names,
            "calibration_samples": len(calib_feeds.labels),
            "calibration": calib_rates,
            "test_designs": test_names,
        },
        "onnx_max_abs_diff_vs_torch": max_diff,
    }
    (args.out / "card_classifier.json").write_text(json.dumps(meta, indent=1) + "\n")
    torch.save(model.state_dict(), args.renders.parent / "card_classifier.pt")
    log.info("wrote %s and card_classifier.json", onnx_path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
