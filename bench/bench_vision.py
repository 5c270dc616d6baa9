"""Time the vision pipeline: ms per 1920x1080 frame with 8 cards, ms per card to classify.

Not a test: it prints figures. Targets: a frame in under 100 ms on 2 cores;
one pass of the network under 2 ms a card, and a card read under the live rule,
which passes it through the network in each of the rule's framings (vision/views.py), at
most 3 ms a card in a batch ("a larger network is welcome if it stays at most 3 ms
a card in a batch"). Scenes are rendered (vision.synthetic), seeded.

    python bench/bench_vision.py [--frames 10] [--threads 2]
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import statistics
import time

import cv2
import numpy as np

from vision.classify import FakeClassifier, OnnxClassifier, default_model_paths
from vision.detect import detect_cards
from vision.pipeline import CardReader
from vision.rectify import rectify_cards
from vision.synthetic import render_scene


def _ms(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=10, help="rendered scenes to time")
    parser.add_argument("--threads", type=int, default=2, help="OpenCV and onnxruntime threads")
    args = parser.parse_args()
    cv2.setNumThreads(args.threads)
    scenes = [render_scene(np.random.default_rng(k), n_cards=8, tilt_deg=(90, 70, 50)[k % 3],
                           background=("wood", "cloth", "dark", "paper", "white")[k % 5])
              for k in range(args.frames)]
    have_model = default_model_paths()[0].is_file()
    classifier = OnnxClassifier(threads=args.threads) if have_model else FakeClassifier()
    reader = CardReader(classifier)
    reader.read_frame(scenes[0].bgr)  # warm up

    detect_ms, frame_ms, cards = [], [], []
    for scene in scenes:
        detect_ms += _ms(lambda s=scene: detect_cards(s.bgr), 3)
        frame_ms += _ms(lambda s=scene: reader.read_frame(s.bgr), 3)
        cards.append(len(detect_cards(scene.bgr)))
    crops = list(rectify_cards(scenes[0].bgr, scenes[0].truth.quad_xy[~scenes[0].truth.cut]))
    batch = (crops * 4)[:16]
    per_card = [t / len(batch) for t in _ms(lambda: classifier.classify(batch), 20)]
    one = _ms(lambda: classifier.classify(batch[:1]), 20)
    framings = 1 + len(getattr(getattr(classifier, "meta", None), "views", ()))
    single_pass = classifier
    if framings > 1 and isinstance(classifier, OnnxClassifier):
        single_pass = copy.copy(classifier)
        single_pass.meta = dataclasses.replace(classifier.meta, views=())
    per_pass = [t / len(batch) for t in _ms(lambda: single_pass.classify(batch), 20)]

    def show(name: str, values: list[float], target: float | None = None) -> None:
        med = statistics.median(values)
        p90 = sorted(values)[int(0.9 * (len(values) - 1))]
        goal = f"  (target < {target:g} ms: {'ok' if med < target else 'OVER'})" if target else ""
        print(f"{name:<44} median {med:7.1f} ms   p90 {p90:7.1f} ms{goal}")

    print(f"{args.frames} rendered 1920x1080 frames, 8 cards laid (found {statistics.mean(cards):.1f} "
          f"on average), {args.threads} threads, classifier: "
          f"{'onnx ' + default_model_paths()[0].name if have_model else 'fake (no model file)'}")
    show("detect only, per frame", detect_ms)
    show("read_frame (detect+rectify+classify), per frame", frame_ms, 100)
    show(f"classify, live rule ({framings} framings), per card (batch of 16)", per_card, 3)
    show("one network pass (1 framing), per card (batch of 16)", per_pass, 2)
    show(f"classify, live rule ({framings} framings), one card alone", one)


if __name__ == "__main__":
    main()
