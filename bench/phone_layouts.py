"""Phone-sized photos of a layout, read as `eleusis read` reads a picture without the mat.

Check-only figures for :mod:`vision.photo_size`. A phone takes 4032 x 3024 px; the real bridge
deals of ``../shared/data/real-cards/deals`` are 1200 x 1200. Each deal is read three ways:

- ``own``: as it is (1200 px: the work size does not apply, as in ``bench/real_tables.py``);
- ``close``: enlarged to 4032 px (bicubic), as a phone held close over the cards takes it:
  cards about 500 px wide;
- ``close 4:3``: the same cut to the phone's 4032 x 3024 (the top and bottom eighth of the
  deal lost, with the cards whose labels lie there);
- ``afar``: the deal at its own size in the middle of a 4032 x 3024 picture of the table (the
  table's colour round it), as a phone taken back to frame a whole table: cards about 150 px
  wide in a large picture.

A card counts as read, and a reading as wrong, as in ``bench/real_tables.py`` (the labels
moved with the deal). ``--before`` reads each picture at its own size with the proposer's
glyph range a share of the picture (:func:`vision.by_index.read_photo`), as `eleusis read`
did before the work size. Nothing is tuned here: :data:`vision.photo_size.WORK_PX` is above
every real photo the readers were checked on, and :data:`vision.photo_size.ENOUGH_CARD_PX`
was chosen on deals 3 and 7 (studied) read at 0.6 times their size.

Run: ``PYTHONPATH=$PWD python3 bench/phone_layouts.py [--deals 1-7] [--before]`` (3-30 CPU s a picture).
"""

from __future__ import annotations

import argparse
import sys
import time

import cv2
import numpy as np

from bench.real_tables import DEALS, _deal_boxes, _parse_range, score_deal
from engine.cards import Card
from vision.by_index import read_photo, read_without_mat
from vision.classify import OnnxClassifier
from vision.pipeline import CardReader
from vision.readings import CardDetections

PHONE = (3024, 4032)  # (h, w)

Labels = list[tuple[Card, float, float]]


def close(image: np.ndarray, labels: Labels) -> tuple[np.ndarray, Labels]:
    """The deal enlarged to the phone's long side."""
    k = PHONE[1] / max(image.shape[:2])
    big = cv2.resize(image, None, fx=k, fy=k, interpolation=cv2.INTER_CUBIC)
    return np.asarray(big, np.uint8), [(c, k * x, k * y) for c, x, y in labels]


def close_cut(image: np.ndarray, labels: Labels) -> tuple[np.ndarray, Labels]:
    """The deal enlarged to the phone's long side and cut to its shape (the middle kept)."""
    big, moved = close(image, labels)
    top = (big.shape[0] - PHONE[0]) // 2
    cut = big[top:top + PHONE[0]] if top > 0 else big
    return np.ascontiguousarray(cut), [(c, x, y - max(top, 0)) for c, x, y in moved if 0 <= y - max(top, 0) < PHONE[0]]


def afar(image: np.ndarray, labels: Labels) -> tuple[np.ndarray, Labels]:
    """The deal in the middle of a phone-sized picture, the table's colour (its top rows') round it."""
    h, w = image.shape[:2]
    top, left = (PHONE[0] - h) // 2, (PHONE[1] - w) // 2
    table = [int(v) for v in np.median(image[:20].reshape(-1, 3), axis=0)]
    big = cv2.copyMakeBorder(image, top, PHONE[0] - h - top, left, PHONE[1] - w - left, cv2.BORDER_CONSTANT,
                             value=table)
    return np.asarray(big, np.uint8), [(c, x + left, y + top) for c, x, y in labels]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="1-7", help="deals to read: 1-7 or 3")
    parser.add_argument("--before", action="store_true", help="read every picture at its own size, as before")
    args = parser.parse_args(argv)
    reader = CardReader(OnnxClassifier())

    def read(image: np.ndarray) -> CardDetections:
        return read_photo(reader, image) if args.before else read_without_mat(reader, image)

    totals = {way: [0.0, 0.0, 0.0, 0.0] for way in ("own", "close", "close 4:3", "afar")}
    for k in _parse_range(args.deals):
        image = np.asarray(cv2.imread(str(DEALS / f"deal{k}-md-sq.jpg")), np.uint8)
        labels = _deal_boxes(DEALS / f"deal{k}-md-sq-net1280-labels.json", (image.shape[1], image.shape[0]))
        line = []
        for way, (picture, moved) in (("own", (image, labels)), ("close", close(image, labels)),
                                      ("close 4:3", close_cut(image, labels)), ("afar", afar(image, labels))):
            cpu = time.process_time()
            right, total, wrong = score_deal(read(picture), moved)
            spent = time.process_time() - cpu
            t = totals[way]
            t[0] += right
            t[1] += total
            t[2] += len(wrong)
            t[3] += spent
            line.append(f"{way} {right}/{total}" + (f" ({len(wrong)} wrong)" if wrong else "") + f" {spent:.1f} s")
        print(f"deal {k} ({image.shape[1]} px): " + ", ".join(line), flush=True)
    n = len(_parse_range(args.deals))
    for way, (read_, labelled, wrongs, cpu_s) in totals.items():
        print(f"{way:9s} read {read_:.0f}/{labelled:.0f} ({100 * read_ / max(labelled, 1):.1f} %), wrong {wrongs:.0f}, "
              f"{cpu_s / n:.1f} CPU s a picture")
    return 0


if __name__ == "__main__":
    sys.exit(main())
