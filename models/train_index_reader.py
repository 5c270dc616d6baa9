"""Train the index-corner reader (:mod:`models.index_net`), export ONNX, calibrate, write the metadata.

Steps (all seeded):
1. designs from the render cache, split as for the card classifier (models/MODEL_CARD.md):
   training designs; calibration designs (temperature and accept threshold only); test
   designs (never touched here: ``python -m models.evaluate_index_reader`` measures them);
2. corner boxes cut by the run-time cutter from spoiled scenes (:mod:`models.index_data`),
   made in chunks cached under ``cache/index_sets`` (git-ignored);
3. training with torch on the CPU, 1 thread, AdamW with a cosine schedule over a time budget;
   with ``--init``, from a shipped reader's weights (its ONNX: the batch norms are folded into
   the convolutions there, so they stay frozen), and with ``--paint``, a share of the boxes
   with the ink beside and below the index painted out
   (:func:`models.index_data.paint_beside_index`);
4. ONNX export (opset 17, dynamic batch), onnxruntime checked against torch;
5. on the calibration designs: one temperature for the rank and suit heads (least negative
   log-likelihood), and the accept threshold: the least one at which at most
   :data:`MAX_WRONG_ACCEPTED` of the accepted boxes are wrong (a box with no index read as
   one, or an index read as another card);
6. ``models/index_reader.onnx`` and ``models/index_reader.json``.

Run: ``nohup python -m models.train_index_reader --minutes 45 > cache/index_train.log 2>&1 &``;
the shipped reader (1.1.0): ``--scenes 20000 --calibration-scenes 2500 --seed 77 --train-seed 5
--init <reader 1.0.0's ONNX> --paint 0.3 --lr 3e-4 --minutes 30 --jobs 1`` (models/MODEL_CARD.md).
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import torch
from torch import nn

from models.dataset import HOLDOUT_DESIGNS, INDEX_CALIBRATION_DESIGNS, INDEX_TEST_DESIGNS, load_design, rendered_designs
from models.index_data import MIN_FOUND, IndexSet, card_anchors, found_anchors, make_index_set, paint_beside_index
from models.index_net import OUTPUT_NAMES, IndexNet
from vision.preprocess import CORNER_H, CORNER_W

log = logging.getLogger("train_index")

CALIBRATION_DESIGNS = INDEX_CALIBRATION_DESIGNS
TEST_DESIGNS = INDEX_TEST_DESIGNS
DATA_VERSION = 3  # bump when models/index_data.py changes (names the cached sets)
MAX_WRONG_ACCEPTED = 0.001
MIN_THRESHOLD = 0.5
VERSION = "1.1.0"
SNAPSHOT_MINUTES = 8
MADE_UP_PER_CHUNK = 6  # procedural designs made for each chunk of training scenes ...
MADE_UP_SHARE = 0.25  # ... drawn about this share of the time
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")


Anchors = dict[str, tuple[float, float, float]]


def _chunk(args: tuple[dict[str, Anchors], Path, int, int, bool]) -> IndexSet:
    import cv2

    cv2.setNumThreads(1)
    named, cache, scenes, seed, with_made_up = args
    designs = [load_design(cache / n) for n in named]
    anchors = list(named.values())
    if with_made_up:  # made-up designs (fonts, court letters, inks) for variety
        from models.procedural_deck import make_design

        design_rng = np.random.default_rng(seed + 7)
        made_up = [make_design(design_rng) for _ in range(MADE_UP_PER_CHUNK)]
        copies = max(1, round(MADE_UP_SHARE * len(designs) / ((1 - MADE_UP_SHARE) * len(made_up))))
        made_up_anchors = [card_anchors(d) for d in made_up]
        designs += made_up * copies
        anchors += made_up_anchors * copies
    return make_index_set(designs, anchors, scenes, seed)


def cached_set(names: dict[str, Anchors], cache: Path, scenes: int, seed: int, tag: str, jobs: int,
               chunk: int = 3000) -> IndexSet:
    """``scenes`` scenes of the designs ``names`` (with their anchors, measured once) as
    boxes, built in chunks (each cached under cache/index_sets)."""
    folder = Path("cache") / "index_sets"
    folder.mkdir(parents=True, exist_ok=True)
    tasks = []
    for start in range(0, scenes, chunk):
        path = folder / f"{tag}-v{DATA_VERSION}-{seed}-{start}-{min(chunk, scenes - start)}.npz"
        tasks.append((path, (names, cache, min(chunk, scenes - start), seed * 100_003 + start, tag == "train")))
    parts: dict[Path, IndexSet] = {}
    todo = []
    for path, task in tasks:
        if path.exists():
            z = np.load(path)
            parts[path] = IndexSet(z["boxes"], z["rank"], z["suit"], z["height"])
        else:
            todo.append((path, task))
    # spawned, not forked: the parent has run OpenCV's thread pool (proposed_designs), which a
    # forked child inherits locked
    with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        for (path, _), part in zip(todo, pool.map(_chunk, [t for _, t in todo])):
            np.savez(path, boxes=part.boxes, rank=part.rank, suit=part.suit, height=part.height)
            parts[path] = part
            log.info("%s: %d boxes in %d chunks", tag, sum(len(p.rank) for p in parts.values()), len(parts))
    return IndexSet.concat([parts[p] for p, _ in tasks])


def design_anchors(renders: Path, among: tuple[str, ...] | None = None) -> dict[str, Anchors]:
    """The rendered designs (of ``among``, when given) whose indices the proposer finds (on
    :data:`MIN_FOUND` clean cards or more), with their cards' anchors: a design that prints
    no index the proposer takes for one (a rank alone in the top-right corner, a suit far
    from its rank) would only teach the reader boxes cut where the design has nothing."""
    kept = {}
    for name in rendered_designs(renders):
        if among is not None and name not in among:
            continue
        design = load_design(renders / name)
        found = found_anchors(design)
        if len(found) >= MIN_FOUND:
            kept[name] = card_anchors(design, found)
        else:
            log.info("%s left out: the proposer finds the index of %d of its 52 clean cards", name, len(found))
    return kept


def proposed_designs(renders: Path, among: tuple[str, ...] | None = None) -> list[str]:
    """The names of :func:`design_anchors`."""
    return list(design_anchors(renders, among))


def to_input(boxes: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(np.ascontiguousarray(boxes.transpose(0, 3, 1, 2))).float() / 255.0


def heads(net: nn.Module, boxes: np.ndarray, batch: int = 512) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    net.eval()
    out: list[list[np.ndarray]] = [[], [], []]
    with torch.no_grad():
        for s in range(0, len(boxes), batch):
            for k, t in enumerate(net(to_input(boxes[s:s + batch]))):
                out[k].append(t.numpy())
    return tuple(np.concatenate(o) for o in out)  # type: ignore[return-value]


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return np.asarray(e / e.sum(axis=1, keepdims=True))


def readings(rank_z: np.ndarray, suit_z: np.ndarray, index_z: np.ndarray, temperature: float
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Best rank, best suit and the sureness (the least of the three heads' probabilities)."""
    pr, ps = _softmax(rank_z / temperature), _softmax(suit_z / temperature)
    pi = 1 / (1 + np.exp(-index_z[:, 0]))
    return pr.argmax(1), ps.argmax(1), np.minimum(np.minimum(pr.max(1), ps.max(1)), pi)


def calibrate(net: nn.Module, data: IndexSet) -> dict[str, float]:
    rz, sz, iz = heads(net, data.boxes)
    pos = data.rank >= 0
    best_t, best_nll = 1.0, math.inf
    for t in np.arange(0.5, 3.01, 0.05):
        pr, ps = _softmax(rz[pos] / t), _softmax(sz[pos] / t)
        nll = -np.log(pr[np.arange(pos.sum()), data.rank[pos]] + 1e-12).mean() \
            - np.log(ps[np.arange(pos.sum()), data.suit[pos]] + 1e-12).mean()
        if nll < best_nll:
            best_t, best_nll = float(t), float(nll)
    rank, suit, sure = readings(rz, sz, iz, best_t)
    right = pos & (rank == data.rank) & (suit == data.suit)
    threshold = 0.999
    for t in np.arange(MIN_THRESHOLD, 0.9991, 0.005):
        acc = sure >= t
        if acc.sum() and (acc & ~right).sum() / acc.sum() <= MAX_WRONG_ACCEPTED:
            threshold = float(t)
            break
    acc = sure >= threshold
    return {"temperature": round(best_t, 3), "accept_threshold": round(threshold, 3),
            "calibration_boxes": int(len(pos)), "calibration_indices": int(pos.sum()),
            "calibration_read": round(float((acc & right).sum() / max(pos.sum(), 1)), 4),
            "calibration_wrong": int((acc & ~right).sum()),
            "calibration_no_index_accepted": int((acc & ~pos).sum())}


def load_onnx_weights(net: IndexNet, path: Path) -> None:
    """``net``'s weights from an exported reader (:func:`export`): each convolution's weights and
    its folded batch norm's shift, the batch norms set to pass them on (unit scale, zero mean,
    unit variance), the dense layers as they are."""
    import onnx
    from onnx import numpy_helper

    found = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in onnx.load(str(path)).graph.initializer}
    folded = sorted((k for k in found if k.startswith("onnx::Conv_")), key=lambda k: int(k.rsplit("_", 1)[1]))
    convs = [m for m in net.modules() if isinstance(m, nn.Conv2d)]
    norms = [m for m in net.modules() if isinstance(m, nn.BatchNorm2d)]
    if len(folded) != 2 * len(convs):
        raise ValueError(f"{path}: {len(folded)} folded convolution tensors, expected {2 * len(convs)}")
    with torch.no_grad():
        for conv, norm, weight, shift in zip(convs, norms, folded[0::2], folded[1::2], strict=True):
            conv.weight.copy_(found[weight])
            norm.weight.fill_(1.0)
            norm.bias.copy_(found[shift])
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
        for name, param in net.named_parameters():
            if name in found:
                param.copy_(found[name])


def train(net: IndexNet, data: IndexSet, minutes: float, batch: int, seed: int, lr: float,
          snapshot: Path | None = None, paint: float = 0.0, fine_tune: bool = False) -> int:
    """Train for ``minutes``; every :data:`SNAPSHOT_MINUTES` export ``snapshot`` (ONNX, with
    a provisional metadata file) so a long run can be looked at before it ends. ``paint``:
    the share of boxes painted beside their index (:func:`paint_beside_index`);
    ``fine_tune``: ``net`` holds a trained reader's weights (:func:`load_onnx_weights`): its
    batch norms stay frozen and the rate starts high, with no warm-up, and falls to 0."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    bce, ce = nn.BCEWithLogitsLoss(), nn.CrossEntropyLoss()
    started, step = time.time(), 0
    budget = minutes * 60
    n = len(data.rank)
    order = rng.permutation(n)
    pos_at = 0
    last_snapshot = started
    while True:
        if snapshot is not None and time.time() - last_snapshot > SNAPSHOT_MINUTES * 60:
            export(net, snapshot)
            snapshot.with_suffix(".json").write_text(json.dumps(_meta({"temperature": 1.0, "accept_threshold": 0.9},
                                                                      {"snapshot_step": step}), indent=1) + "\n")
            last_snapshot = time.time()
        frac = (time.time() - started) / budget
        if frac >= 1:
            break
        for g in opt.param_groups:
            g["lr"] = (lr * 0.5 * (1 + math.cos(math.pi * frac)) if fine_tune else
                       lr * (0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * frac))) * min(1.0, (step + 1) / 200))
        if pos_at + batch > n:
            order, pos_at = rng.permutation(n), 0
        idx = order[pos_at:pos_at + batch]
        pos_at += batch
        boxes = data.boxes[idx]
        if paint > 0:
            boxes = paint_beside_index(boxes, paint, rng)
        if rng.random() < 0.5:  # a mirrored-colour copy is no help; brightness jitter is cheap here
            boxes = np.clip(boxes.astype(np.float32) * rng.uniform(0.8, 1.15), 0, 255).astype(np.uint8)
        rank = torch.from_numpy(data.rank[idx])
        suit = torch.from_numpy(data.suit[idx])
        net.train()
        if fine_tune:
            for norm in net.modules():
                if isinstance(norm, nn.BatchNorm2d):
                    norm.eval()
        rz, sz, iz = net(to_input(boxes))
        is_index = rank >= 0
        loss = bce(iz[:, 0], is_index.float())
        if is_index.any():
            loss = loss + ce(rz[is_index], rank[is_index]) + ce(sz[is_index], suit[is_index])
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 200 == 0:
            log.info("step %d (%.0f%% of the time): loss %.3f", step, 100 * frac, float(loss))
    return step


def export(net: IndexNet, path: Path) -> None:
    net.eval()
    dummy = torch.zeros(2, 3, CORNER_H, CORNER_W)
    torch.onnx.export(net, (dummy,), str(path), input_names=["boxes"], output_names=list(OUTPUT_NAMES),
                      dynamic_axes={"boxes": {0: "n"}, **{o: {0: "n"} for o in OUTPUT_NAMES}},
                      dynamo=False, opset_version=17)
    import onnxruntime as ort

    x = np.random.default_rng(0).random((5, 3, CORNER_H, CORNER_W)).astype(np.float32)
    got = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(None, {"boxes": x})
    with torch.no_grad():
        want = net(torch.from_numpy(x))
    err = max(float(np.abs(g - w.numpy()).max()) for g, w in zip(got, want))
    log.info("onnxruntime matches torch to %.2g", err)
    if err > 1e-3:
        raise RuntimeError(f"ONNX export differs from torch by {err}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--renders", type=Path, default=Path("cache/cards"))
    ap.add_argument("--out", type=Path, default=Path("models"))
    ap.add_argument("--scenes", type=int, default=36000, help="training scenes (about 5 boxes each)")
    ap.add_argument("--calibration-scenes", type=int, default=3000)
    ap.add_argument("--minutes", type=float, default=40.0, help="training time budget")
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--jobs", type=int, default=2, help="processes making the boxes")
    ap.add_argument("--seed", type=int, default=31, help="the boxes' seed (and the training's, by default)")
    ap.add_argument("--train-seed", type=int, default=None, help="the training's own seed (order, augmentation)")
    ap.add_argument("--init", type=Path, default=None, help="start from this exported reader's weights (ONNX)")
    ap.add_argument("--paint", type=float, default=0.0,
                    help="share of training boxes painted beside their index (paint_beside_index)")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    torch.set_num_threads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    anchors = design_anchors(args.renders)
    training = [n for n in anchors if n not in HOLDOUT_DESIGNS]
    calibration = [n for n in anchors if n in CALIBRATION_DESIGNS]
    log.info("training designs (%d): %s; calibration: %s", len(training), training, calibration)
    t0 = time.time()
    train_set = cached_set({n: anchors[n] for n in training}, args.renders, args.scenes, args.seed, "train", args.jobs)
    calib_set = cached_set({n: anchors[n] for n in calibration}, args.renders, args.calibration_scenes, args.seed + 1,
                           "calib", args.jobs)
    log.info("%d training boxes (%.0f%% indices), %d calibration boxes, made in %.0f s", len(train_set.rank),
             100 * (train_set.rank >= 0).mean(), len(calib_set.rank), time.time() - t0)
    net = IndexNet()
    if args.init is not None:
        load_onnx_weights(net, args.init)
    train_seed = args.seed if args.train_seed is None else args.train_seed
    t1 = time.time()
    steps = train(net, train_set, args.minutes, args.batch, train_seed, args.lr, args.out / "index_reader_snapshot.onnx",
                  paint=args.paint, fine_tune=args.init is not None)
    log.info("%d steps in %.0f s", steps, time.time() - t1)
    cal = calibrate(net, calib_set)
    log.info("calibration: %s", cal)
    onnx_path = args.out / "index_reader.onnx"
    export(net, onnx_path)
    meta = _meta(cal, {"training_designs": training, "calibration_designs": calibration,
                       "test_designs": list(TEST_DESIGNS), "scenes": args.scenes,
                       "training_boxes": int(len(train_set.rank)), "steps": steps, "batch": args.batch,
                       "minutes": args.minutes, "seed": args.seed, "train_seed": train_seed, "lr": args.lr,
                       "init": None if args.init is None else args.init.name, "paint": args.paint,
                       "data_version": DATA_VERSION})
    (args.out / "index_reader.json").write_text(json.dumps(meta, indent=1) + "\n")
    log.info("wrote %s and its metadata", onnx_path)
    return 0


def _meta(cal: dict[str, float], recipe: dict[str, object]) -> dict[str, object]:
    return {
        "version": VERSION,
        "input": {"name": "boxes", "shape": [3, CORNER_H, CORNER_W], "channels": "BGR", "scale": 1 / 255,
                  "cut_by": "vision.corners.corner_boxes"},
        "outputs": list(OUTPUT_NAMES),
        "ranks": list(RANKS),
        "suits": list(SUITS),
        **cal,
        "recipe": recipe,
    }


if __name__ == "__main__":
    raise SystemExit(main())
