"""Phone photos of one card held close, read as `eleusis read photo.jpg` reads them.

Check-only: the 52 real single cards of ``../shared/data/real-cards/single`` are placed as
a phone close-up would show them: the card fills 55-95 % of the picture's height, tilted
a little in perspective, on a table texture, sometimes running off one edge; then JPEG.
Each photo is read by :func:`vision.closeup.read_closeup` (what `eleusis read` does) and
by the plain table detection alone (which misses them). Also: a scribbled-over card must
stay unsure. Prints counts; nothing is trained or tuned on these images.

Run: ``python3 bench/phone_closeups.py [--folder PATH] [--seed 5]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from engine.cards import Card
from vision.classify import OnnxClassifier
from vision.closeup import read_closeup
from vision.pipeline import CardReader

DEFAULT = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "real-cards" / "single"


def closeup(rng: np.random.Generator, card: np.ndarray, fill: float, off_edge: bool) -> np.ndarray:
    """A 1080 x 1440 (portrait) photo with ``card`` filling ``fill`` of its height."""
    from models.synth import make_table_texture

    ph, pw = 1440, 1080
    table = cv2.resize(make_table_texture(rng, 384, 288), (pw, ph), interpolation=cv2.INTER_LINEAR)
    ch, cw = card.shape[:2]
    h = fill * ph
    w = h * cw / ch
    cx = pw / 2 + rng.uniform(-0.05, 0.05) * pw
    cy = ph / 2 + rng.uniform(-0.05, 0.05) * ph
    if off_edge:  # the card runs off one side by up to 8 % of its size
        side = int(rng.integers(4))
        dx, dy = [(1, 0), (-1, 0), (0, 1), (0, -1)][side]
        cx += dx * (pw / 2 - w / 2 + rng.uniform(0.0, 0.08) * w)
        cy += dy * (ph / 2 - h / 2 + rng.uniform(0.0, 0.08) * h)
    quad = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]], np.float32)
    angle = np.deg2rad(rng.normal(0, 4))
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]], np.float32)
    quad = quad @ rot.T + np.array([cx, cy], np.float32)
    quad += rng.normal(0, 0.015 * h, (4, 2)).astype(np.float32)  # a slight perspective
    src = np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], np.float32)
    m = cv2.getPerspectiveTransform(src, quad)
    warped = cv2.warpPerspective(card, m, (pw, ph))
    mask = cv2.warpPerspective(np.full((ch, cw), 255, np.uint8), m, (pw, ph))
    photo = np.where(mask[:, :, None] > 127, warped, table)
    photo = np.clip(photo.astype(np.float32) * rng.uniform(0.75, 1.1), 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 85])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else photo


def scribbled(rng: np.random.Generator, card: np.ndarray) -> np.ndarray:
    out = card.copy()
    h, w = out.shape[:2]
    for k in range(12):
        p1 = (int(rng.uniform(0, w)), int(rng.uniform(0, h))) if k > 3 else (int(0.1 * w), int(0.1 * h)) if k % 2 == 0 \
            else (int(0.9 * w), int(0.9 * h))
        p2 = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        cv2.line(out, p1, p2, (30, 30, 40), max(3, w // 15))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=DEFAULT)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--model", default=None)
    args = parser.parse_args(argv)
    photos = sorted(args.folder.glob("*.jpg"))
    if not photos:
        print(f"no photos in {args.folder}", file=sys.stderr)
        return 2
    meta = str(args.model).removesuffix(".onnx") + ".json" if args.model else None
    reader = CardReader(OnnxClassifier(args.model, meta))
    rng = np.random.default_rng(args.seed)
    for label, (lo, hi), off_edge in (("fills 55-80 %", (0.55, 0.8), False), ("fills 80-95 %", (0.8, 0.95), False),
                                      ("fills 70-95 %, off one edge", (0.7, 0.95), True)):
        right = wrong = plain_right = 0
        for path in photos:
            truth = Card.parse(path.stem)
            photo = closeup(rng, cv2.imread(str(path)), float(rng.uniform(lo, hi)), off_edge)
            found = read_closeup(reader, photo)
            got = found.read_cards()
            right += got == [truth]
            if not got:
                print(f"  not read: {truth} ({len(found)} card-sized region(s) found)")
            if any(c != truth for c in got):
                wrong += 1
                print(f"  wrong: {truth} read as {' '.join(map(str, got))}")
                cv2.imwrite(f"/tmp/cls_wrong_{truth}.jpg", photo)
            plain_right += reader.read_frame(photo).read_cards() == [truth]
        print(f"{label:28s}: {right} of {len(photos)} read right, {wrong} wrong "
              f"(table detection alone: {plain_right} right)")
    unsure = 0
    for path in photos[::4]:
        found = read_closeup(reader, closeup(rng, scribbled(rng, cv2.imread(str(path))), 0.8, False))
        unsure += not found.read_cards()
    print(f"scribbled over: {unsure} of {len(photos[::4])} stay unsure")
    return 0


if __name__ == "__main__":
    sys.exit(main())
