"""Stills of decks being shown for enrolment, as `eleusis calibrate deck` asks (tests, demos).

Each step of :func:`dealer.table.enrolment.enrolment_steps` becomes one top-down
photo of a mat with the step's cards laid face up in rows, left to right (the back step
shows one card face down), slightly turned and shifted, lit unevenly, JPEG-compressed.

``python -m models.enrol_stills OUT_DIR [--letters russian] [--decks 1] [--batch 13]``
writes ``step-NN.jpg`` from made-up designs (:mod:`models.procedural_deck`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

FRAME_W, FRAME_H = 1600, 1200


def _paste(frame: np.ndarray, card_bgra: np.ndarray, quad: np.ndarray) -> None:
    """``card_bgra`` blended onto ``frame`` at ``quad``: only the box around the quad is warped."""
    h, w = card_bgra.shape[:2]
    x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int) - 2, 0)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0)).astype(int) + 2, [frame.shape[1], frame.shape[0]])
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(src, (quad - [x0, y0]).astype(np.float32))
    warped = cv2.warpPerspective(card_bgra, m, (int(x1 - x0), int(y1 - y0)))
    alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
    box = frame[y0:y1, x0:x1]
    box[:] = (warped[:, :, :3] * alpha + box * (1 - alpha)).astype(np.uint8)


def step_still(rng: np.random.Generator, design: dict[str, np.ndarray], labels: Sequence[str]) -> np.ndarray:
    """One photo of ``labels`` of ``design`` laid out in reading order on a dark mat."""
    mat = np.array(rng.uniform(30, 80, 3), np.float32)
    frame = np.empty((FRAME_H, FRAME_W, 3), np.float32)
    frame[:] = mat
    frame += rng.normal(0, 3, frame.shape).astype(np.float32)
    frame = frame.clip(0, 255).astype(np.uint8)
    per_row = 7
    card_h = 260.0
    card_w = card_h * 0.7
    for i, label in enumerate(labels):
        row, col = divmod(i, per_row)
        cx = 130 + col * (card_w + 44) + rng.normal(0, 4)
        cy = 220 + row * (card_h + 70) + rng.normal(0, 4)
        angle = np.deg2rad(rng.normal(0, 3))
        rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        corners = np.array([[-card_w / 2, -card_h / 2], [card_w / 2, -card_h / 2], [card_w / 2, card_h / 2],
                            [-card_w / 2, card_h / 2]]) @ rot.T + [cx, cy]
        _paste(frame, design[label], corners)
    ys, xs = np.mgrid[0:FRAME_H, 0:FRAME_W].astype(np.float32)
    light = 1.0 - 0.25 * (xs / FRAME_W) * rng.uniform(0, 1) - 0.15 * (ys / FRAME_H) * rng.uniform(0, 1)
    lit = (frame.astype(np.float32) * light[:, :, None]).clip(0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", lit, [cv2.IMWRITE_JPEG_QUALITY, 88])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    return np.asarray(decoded if decoded is not None else lit, np.uint8)


def write_stills(out: Path, designs: Sequence[dict[str, np.ndarray]], batch: int, seed: int = 3) -> list[Path]:
    """The stills for enrolling ``designs`` (one per deck) in batches of ``batch``."""
    from dealer.table.enrolment import enrolment_steps

    rng = np.random.default_rng(seed)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for k, step in enumerate(enrolment_steps(len(designs), batch)):
        path = out / f"step-{k:02d}.jpg"
        cv2.imwrite(str(path), step_still(rng, designs[step.deck], step.labels))
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    from models.procedural_deck import make_design

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--letters", default="english")
    parser.add_argument("--decks", type=int, default=1)
    parser.add_argument("--batch", type=int, default=13)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    designs = [make_design(rng, args.letters) for _ in range(args.decks)]
    for path in write_stills(args.out, designs, args.batch, args.seed):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
