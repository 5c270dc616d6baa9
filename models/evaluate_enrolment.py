"""Figures for reading with an enrolled deck profile (not part of the test suite).

(a) held-out Debian designs (never trained on), enrolled together as one group's three
    decks from clean views, then read under the *hard* training recipe (overlaps,
    neighbours, small index, strong light): right / wrong / unsure over all classes
    (a back counts right when it reads as face down; ``none`` right when unsure);
(b) the same profile reading cards of *other* designs (not enrolled): every confident
    reading there is wrong;
(c) a made-up deck with Russian court letters (В Д К Т), enrolled and read the same way;
    with ``--russian-decks N``, N-1 more made-up Russian decks (each its own fonts, inks and
    index sizes), each enrolled alone and read in table and plain conditions;
(d) the 52 real photographed singles (check only), enrolled from their own clean image and
    read placed on tables with rectifier errors and camera spoiling.

Each set is read under the default rule of an enrolled profile and under ``--strict``
(cards whose print is not the enrolled deck's are unsure); (a) and (c) also in plain
conditions (no overlap, no neighbours, index >= ~20 px) and in *table* conditions
(``models.dataset.TABLE_CONFIG``: the enrolled deck's own ink, the rectifier's usual error
without re-framing, index >= ~17 px, neighbours, an overlapping card from a third of the way
down at the least). The hard recipe is the training one: it re-frames a third of the crops,
covers cards down to their index strip and changes the ink of some (grey, red printed
black, colours swapped): a stress test in which some crops show no index of the card named
(see the model card).

(e) ``--per-deck N``: each deck enrolled alone from clean views and read in table conditions,
    N samples a set, with and without the enrolled print (:mod:`vision.deck_print`) from the
    same evidence. The *tuning* sets (the print's rule was chosen on them): gnome ``bellot``,
    the real singles and a made-up Russian deck (seed 614); the *held-out* sets: gnome
    ``tango``, gnome ``atlasnye`` (Russian court letters), the real singles (seed 616), a
    made-up Russian deck (seed 715) and a procedural novelty deck (random court letters,
    seed 915). Also: seconds to enrol a deck, and ms a reading (CPU time).

Run: ``python -m models.evaluate_enrolment [--models DIR] [--samples 3000] [--russian-decks 5]``
or ``python -m models.evaluate_enrolment --per-deck 2000 [--sets held-out]``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from calibration.check import reader_px_per_mm
from models.evaluate import imread
from models.dataset import (BACK_INDEX, CLASSES, NONE_INDEX, TABLE_CONFIG, load_design, make_samples,
                            rendered_designs)
from models.synth import AugmentConfig, TextureBank, augment_photo, place_card
from vision.classify import CardReading, OnnxClassifier
import dataclasses

from vision.deck_profile import STRICT_MIN_TEMPLATE, DeckProfile, Evidence, ProfiledClassifier, enrol
from vision.geometry import CARD_H_MM
from vision.preprocess import RECT_H, RECT_W

REAL = Path("/work/shared/data/real-cards/single")
CLEAN = AugmentConfig(corner_jitter=0.008, shift=0.005, rotate_deg=0.7, min_scale=0.7, max_noise=3.0,
                      jpeg_quality=(80, 95))
ENROL_DESIGNS = ("gnome-bellot", "kde-nicu-white", "kde-penguins")
OTHER_DESIGNS = ("gnome-tango", "gnome-rheinland", "gnome-simplistic", "kde-oxygen-white")


def clean_views(design: dict[str, np.ndarray], seed: int) -> dict[str, np.ndarray]:
    """Each card as enrolment would see it: on the mat, straight, well lit."""
    rng = np.random.default_rng(seed)
    bank = TextureBank(seed=seed, count=4)
    out = {}
    for label in CLASSES[:53]:
        crop = place_card(rng, design[label], bank.crop(rng), CLEAN)
        if rng.random() < 0.5:  # place_card turns half the cards: enrolment sees them upright or not
            crop = np.ascontiguousarray(crop[::-1, ::-1])
        out[label] = augment_photo(rng, crop, CLEAN)
    return out


def score(name: str, readings: list[CardReading], labels: np.ndarray) -> dict[str, object]:
    right = wrong = unsure = 0
    for r, y in zip(readings, labels):
        if y == NONE_INDEX:
            truth = None
        elif y == BACK_INDEX:
            truth = "back"
        else:
            truth = CLASSES[y]
        if r.label is not None:
            right += str(r.label) == truth
            wrong += str(r.label) != truth
        elif r.face_down:
            right += truth == "back"
            wrong += truth != "back"
        else:
            unsure += 1
            right += truth is None
            unsure -= truth is None
    n = len(labels)
    row: dict[str, object] = {"set": name, "n": n, "right": round(right / n, 4), "wrong": round(wrong / n, 5),
           "unsure": round(unsure / n, 4), "wrong_count": wrong}
    print(f"{name:44s} n={n:5d} right={row['right']:.4f} wrong={row['wrong']:.5f} ({wrong}) unsure={row['unsure']:.4f}")
    return row


def truth_of(y: int) -> str | None:
    """The reading a sample of class ``y`` should get: a card label, ``back``, or None (no card)."""
    return None if y == NONE_INDEX else "back" if y == BACK_INDEX else CLASSES[y]


def reason_kind(reason: str) -> str:
    """The rule that made a reading unsure, without its numbers: ``not like any enrolled card``..."""
    return reason.split(" (", 1)[0].split(":", 1)[0] or "no reason given"


def breakdown(readings: Sequence[CardReading], labels: Sequence[int],
              template_best: Sequence[str] | None = None, top: int = 12) -> list[str]:
    """The misses of one set, counted: by outcome (wrong or unsure), the rule that made a reading
    unsure, the cards missed most, and, with ``template_best`` (the enrolled card each sample's
    templates score highest), whether the print alone would have read the missed card."""
    outcome: Counter[tuple[str, str]] = Counter()
    cards: Counter[str] = Counter()
    by_print: Counter[str] = Counter()
    for i, (r, y) in enumerate(zip(readings, labels)):
        truth = truth_of(int(y))
        got = str(r.label) if r.label is not None else "back" if r.face_down else None
        if got == truth:
            continue
        kind = "wrong" if got is not None else "unsure"
        outcome[(kind, f"{truth} read as {got}" if kind == "wrong" else reason_kind(r.reason))] += 1
        cards[str(truth)] += 1
        if template_best is not None:
            by_print["the print's best card is right" if template_best[i] == truth
                     else "the print's best card is another"] += 1
    n = max(1, len(labels))
    lines = [f"{sum(outcome.values())} missed of {len(labels)}"]
    lines += [f"  {kind} {count} ({count / n:.1%}): {what}" for (kind, what), count in outcome.most_common(top)]
    lines.append("  cards missed most: " + ", ".join(f"{c} {k}" for c, k in cards.most_common(top)))
    if by_print:
        lines.append("  of the misses: " + ", ".join(f"{k} {v}" for k, v in by_print.most_common()))
    return lines


def template_best(profile: DeckProfile, ev: Evidence) -> list[str] | None:
    """The enrolled card each sample's templates score highest (None without templates)."""
    if profile.templates is None or ev.template_scores is None:
        return None
    return [profile.templates.labels[int(k)] for k in np.asarray(ev.template_scores).argmax(axis=1)]


def evidence_of(reader: ProfiledClassifier, images: list[np.ndarray]) -> Evidence:
    return Evidence.concatenate([reader.evidence(images[i:i + 64]) for i in range(0, len(images), 64)])


BREAKDOWN = False  # --breakdown: each set's misses counted (see :func:`breakdown`)


def both_rules(name: str, reader: ProfiledClassifier, images: list[np.ndarray], labels: np.ndarray,
               report: dict[str, object], key: str) -> None:
    """Score ``images`` under the profile's default rule and under --strict."""
    ev = evidence_of(reader, images)
    strict = dataclasses.replace(reader.profile, min_template=STRICT_MIN_TEMPLATE)
    readings = reader.decide(ev)
    report[key] = score(name, readings, labels)
    if BREAKDOWN:
        lines = breakdown(readings, [int(y) for y in labels], template_best(reader.profile, ev))
        print("\n".join("    " + line for line in lines))
        report[key + "_breakdown"] = lines
    report[key + "_strict"] = score(name + " (--strict)", reader.decide(ev, strict), labels)


def other_decks(name: str, reader: ProfiledClassifier, images: list[np.ndarray], labels: np.ndarray,
                report: dict[str, object]) -> None:
    """Cards of designs not enrolled: every card reading breaks the profile's promise (they
    should be unsure); those that name another card than the one shown are wrong readings."""
    ev = evidence_of(reader, images)
    strict = dataclasses.replace(reader.profile, min_template=STRICT_MIN_TEMPLATE)
    for rule, profile in (("", reader.profile), ("_strict", strict)):
        readings = reader.decide(ev, profile)
        read = sum(r.label is not None for r in readings)
        wrong = sum(r.label is not None and (y >= 52 or str(r.label) != CLASSES[y]) for r, y in zip(readings, labels))
        n = len(readings)
        print(f"{name + (' (--strict)' if rule else ''):44s} n={n:5d} read as a card={read / n:.5f} ({read}), "
              f"as another card than shown: {wrong}")
        report["not_enrolled_read_as_card" + rule] = {"n": n, "read": round(read / n, 5), "read_count": read,
                                                      "wrong_value_count": wrong}


def more_russian_deck(base: OnnxClassifier, k: int, seed: int, samples: int, report: dict[str, object]) -> None:
    """Made-up Russian deck number ``k`` (its own seed), enrolled alone, read in table and plain
    conditions: the spread over decks, not one deck's luck."""
    from models.procedural_deck import make_design

    deck = make_design(np.random.default_rng(seed + 99 + 1000 * k), "russian")
    profile, rep = enrol(base, [clean_views(deck, seed + 50 + 1000 * k)], f"russian-{k}")
    print(f"  enrolment (russian {k}): {len(rep.confusable)} look-alike pairs")
    reader = ProfiledClassifier(base, profile)
    images, labels = make_samples([deck], samples, seed + 7 + 1000 * k, inks=False, config=TABLE_CONFIG)
    both_rules(f"made-up Russian deck {k}, table", reader, images, labels, report, f"russian{k}_table")
    images, labels = make_samples([deck], samples, seed + 3 + 1000 * k, plain=True)
    both_rules(f"made-up Russian deck {k}, plain", reader, images, labels, report, f"russian{k}_plain")


TUNING_SETS = (("gnome-bellot", 515), ("real", 515), ("russian", 614))
HELD_OUT_SETS = (("gnome-tango", 616), ("gnome-atlasnye", 616), ("real", 616), ("russian", 715), ("novelty", 915))


PX_PER_MM_AT_FULL = RECT_H / CARD_H_MM  # the rectified crop's resolution at scale 1 (3.15 px/mm)


def readable_config(models: Path) -> AugmentConfig:
    """Table conditions limited to the range ``calibrate table`` calls readable for a whole
    card: at least the model's ``readable_px_per_mm`` (1.15 px/mm); with ``overlaps=False``."""
    return dataclasses.replace(TABLE_CONFIG, min_scale=reader_px_per_mm(models / "card_classifier.json")
                               / PX_PER_MM_AT_FULL)


def condition_bins(c: dict[str, float]) -> list[str]:
    """The bins of one sample's conditions (see :func:`models.dataset.make_samples`)."""
    ppm = c.get("scale", 1.0) * PX_PER_MM_AT_FULL
    size = ("px/mm < 1.15" if ppm < 1.15 else "px/mm 1.15-1.5" if ppm < 1.5 else "px/mm 1.5-2"
            if ppm < 2.0 else "px/mm 2-2.6" if ppm < 2.6 else "px/mm >= 2.6")
    bins = [size, "overlapped" if c.get("occluded") else "whole",
            "blurred (sigma > 0.8)" if c.get("blur", 0.0) > 0.8 else "sharp",
            "dim (light < 0.8)" if c.get("light", 1.0) < 0.8 else "lit",
            "glare" if c.get("glare") else "no glare", "neighbours" if c.get("busy") else "bare table",
            "jpeg < 50" if c.get("jpeg", 100.0) < 50 else "jpeg >= 50"]
    return bins


def by_condition(readings: Sequence[CardReading], labels: Sequence[int],
                 conditions: Sequence[dict[str, float]]) -> list[str]:
    """Right / wrong / unsure of one set per condition bin (:func:`condition_bins`)."""
    tally: dict[str, list[int]] = {}
    for r, y, c in zip(readings, labels, conditions):
        truth = truth_of(int(y))
        got = str(r.label) if r.label is not None else "back" if r.face_down else None
        k = 0 if got == truth else 2 if got is None else 1
        for b in condition_bins(c):
            tally.setdefault(b, [0, 0, 0])[k] += 1
    lines = []
    for b in sorted(tally):
        right, wrong, unsure = tally[b]
        n = right + wrong + unsure
        lines.append(f"  {b:24s} n={n:5d} right {right / n:.2%} wrong {wrong} unsure {unsure}")
    return lines


def deck_and_samples(name: str, seed: int, count: int, renders: Path, config: AugmentConfig = TABLE_CONFIG,
                     overlaps: bool = True, conditions: list[dict[str, float]] | None = None,
                     sample_seed: int | None = None) -> tuple[dict[str, np.ndarray], list[np.ndarray], np.ndarray]:
    """The clean enrolment views of deck ``name`` and ``count`` table-condition samples of it
    (``config``; ``overlaps=False``: every card whole; ``conditions`` filled per sample). The
    deck and its views come from ``seed``, the samples from ``sample_seed`` (default ``seed``):
    a made-up deck is made from its seed, so each chunk of a set must keep it.

    ``real``: the real singles, enrolled from their own photo, placed and spoiled (no overlap);
    ``russian`` / ``novelty``: a made-up deck (:mod:`models.procedural_deck`) of ``seed``;
    otherwise a rendered design in ``renders``.
    """
    if name == "real":
        from engine.cards import Card

        views = {str(Card.parse(p.stem)): np.asarray(cv2.resize(imread(p), (RECT_W, RECT_H),
                                                                interpolation=cv2.INTER_AREA), np.uint8)
                 for p in sorted(REAL.glob("*.jpg"))}
        draw = seed if sample_seed is None else sample_seed
        rng = np.random.default_rng(draw + 4)
        bank = TextureBank(seed=draw, count=8)
        images: list[np.ndarray] = []
        labels: list[int] = []
        first = len(conditions) if conditions is not None else 0  # earlier chunks' conditions stay
        while len(images) < count:
            for label, card in views.items():
                bgra = np.dstack([card, np.full(card.shape[:2], 255, np.uint8)])
                drawn: dict[str, float] = {}
                images.append(augment_photo(rng, place_card(rng, bgra, bank.crop(rng), config), config, drawn))
                labels.append(CLASSES.index(label))
                if conditions is not None:
                    conditions.append(drawn)
        if conditions is not None:
            del conditions[first + count:]
        return views, images[:count], np.array(labels[:count])
    if name in ("russian", "novelty"):
        from models.procedural_deck import make_design

        design = make_design(np.random.default_rng(seed + 99), "russian" if name == "russian" else None)
    else:
        design = load_design(renders / name)
    images, labels_ = make_samples([design], count, seed if sample_seed is None else sample_seed, inks=False,
                                   config=config, overlaps=overlaps, conditions=conditions)
    return clean_views(design, seed), images, labels_


CHUNK = 1000  # samples made and read at a time: 10,000 crops at once would take ~1.7 GB


def chunks(seed: int, count: int) -> list[tuple[int, int]]:
    """(seed, samples) of each chunk of a set: the set's own seed up to CHUNK samples (the
    figures of smaller runs stay comparable), else ``seed * 1000 + k`` for chunk k."""
    if count <= CHUNK:
        return [(seed, count)]
    return [(seed * 1000 + k, min(CHUNK, count - k * CHUNK)) for k in range((count + CHUNK - 1) // CHUNK)]


def per_deck(base: OnnxClassifier, sets: Sequence[tuple[str, int]], count: int, renders: Path,
             kind: str, report: dict[str, object], readable: AugmentConfig | None = None) -> None:
    """Each set's deck enrolled alone and read in table conditions, without and with its print
    (``readable``: only the range ``calibrate table`` calls readable, every card whole); the
    samples are made and read a chunk at a time (:func:`chunks`)."""
    import time

    config = readable or TABLE_CONFIG
    label = "readable" if readable is not None else "table"
    for name, seed in sets:
        if name not in ("real", "russian", "novelty") and not (renders / name).is_dir():
            print(f"{kind} {name}: not rendered in {renders}, skipped")
            continue
        views, _, _ = deck_and_samples(name, seed, 1, renders, config, readable is None)
        wall, cpu = time.perf_counter(), time.process_time()
        profile, _ = enrol(base, [views], name)
        enrol_s = (time.perf_counter() - wall, time.process_time() - cpu)
        reader = ProfiledClassifier(base, profile)
        before: list[CardReading] = []
        after: list[CardReading] = []
        labels: list[int] = []
        conditions: list[dict[str, float]] = []
        net_cpu = print_cpu = 0.0
        for chunk_seed, n in chunks(seed, count):
            _, images, ys = deck_and_samples(name, seed, n, renders, config, readable is None, conditions,
                                             chunk_seed)
            cpu = time.process_time()
            ev = evidence_of(reader, images)
            net_cpu += time.process_time() - cpu
            before += reader.decide(ev, dataclasses.replace(profile, prints=None))
            cpu = time.process_time()
            after += reader.decide(ev)
            print_cpu += time.process_time() - cpu
            labels += [int(y) for y in ys]
        key = f"{kind}_{name}_{seed}" + ("_readable" if readable is not None else "")
        ys_all = np.array(labels)
        report[key + "_without_print"] = score(f"{kind} {name} {seed}, {label}, without print", before, ys_all)
        report[key] = score(f"{kind} {name} {seed}, {label}, with print", after, ys_all)
        net_ms, print_ms = 1000 * net_cpu / len(labels), 1000 * print_cpu / len(labels)
        print(f"    enrol {len(views)} crops: {enrol_s[0]:.1f} s ({enrol_s[1]:.1f} s CPU); reading: "
              f"{net_ms:.1f} ms a card CPU for the evidence + {print_ms:.1f} ms for the decision and print")
        report[key + "_cost"] = {"enrol_s": round(enrol_s[0], 2), "enrol_cpu_s": round(enrol_s[1], 2),
                                 "evidence_cpu_ms": round(net_ms, 2), "decide_cpu_ms": round(print_ms, 2)}
        wrong = [f"{truth_of(y)} read as {r.label or 'back'}: {c}" for r, y, c in zip(after, labels, conditions)
                 if (r.label is not None or r.face_down)
                 and (str(r.label) if r.label is not None else "back") != truth_of(y)]
        report[key + "_wrong"] = wrong
        print("\n".join(f"    WRONG {w}" for w in wrong))
        if BREAKDOWN:
            print("\n".join("    " + line for line in breakdown(after, labels)))
            lines = by_condition(after, labels, conditions)
            report[key + "_by_condition"] = lines
            print("\n".join("    " + line for line in lines))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=Path("models"))
    parser.add_argument("--renders", type=Path, default=Path("cache/cards"))
    parser.add_argument("--samples", type=int, default=3000, help="hard samples per set")
    parser.add_argument("--seed", type=int, default=515)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--only-real", action="store_true", help="only (d), the real photographed singles")
    parser.add_argument("--skip", default="", help="comma-separated sets to skip: held-out, russian, real")
    parser.add_argument("--russian-decks", type=int, default=1, metavar="N",
                        help="made-up Russian decks to enrol one at a time (the first as before; the others "
                             "read in table and plain conditions, --samples / 3 each)")
    parser.add_argument("--breakdown", action="store_true",
                        help="count each set's misses: wrong or unsure, why unsure, which cards, print evidence")
    parser.add_argument("--per-deck", type=int, default=0, metavar="N",
                        help="only (e): each deck enrolled alone, N table samples a set, with and without the print")
    parser.add_argument("--sets", default="tuning,held-out", help="with --per-deck: tuning, held-out or both")
    parser.add_argument("--decks", default="", help="with --per-deck: only these decks (comma-separated names)")
    parser.add_argument("--range", choices=("table", "readable"), default="table",
                        help="with --per-deck: table conditions (overlaps, down to 1.10 px/mm) or only the range "
                             "`calibrate table` calls readable (every card whole, >= the model's readable px/mm)")
    args = parser.parse_args(argv)
    global BREAKDOWN
    BREAKDOWN = args.breakdown
    base = OnnxClassifier(args.models / "card_classifier.onnx", args.models / "card_classifier.json")
    report: dict[str, object] = {"model": base.meta_version}
    if args.per_deck:
        for kind, sets in (("tuning", TUNING_SETS), ("held-out", HELD_OUT_SETS)):
            if kind in args.sets.split(","):
                chosen = [(n, seed) for n, seed in sets if not args.decks or n in args.decks.split(",")]
                per_deck(base, chosen, args.per_deck, args.renders, kind, report,
                         readable_config(args.models) if args.range == "readable" else None)
        if args.json:
            args.json.write_text(json.dumps(report, indent=1) + "\n")
        return 0
    have = set(rendered_designs(args.renders))
    skip = set(args.skip.split(","))
    names = [n for n in ENROL_DESIGNS if n in have and not args.only_real and "held-out" not in skip]
    if names:
        designs = [load_design(args.renders / n) for n in names]
        profile, rep = enrol(base, [clean_views(d, args.seed + i) for i, d in enumerate(designs)], "held-out",
                             names)
        for line in rep.lines():
            print("  enrolment:", line)
        reader = ProfiledClassifier(base, profile)
        images, labels = make_samples(designs, args.samples, args.seed)
        both_rules(f"enrolled {'+'.join(names)}, hard", reader, images, labels, report, "enrolled_hard")
        images, labels = make_samples(designs, args.samples, args.seed + 5, plain=True)
        both_rules(f"enrolled {'+'.join(names)}, plain", reader, images, labels, report, "enrolled_plain")
        images, labels = make_samples(designs, args.samples, args.seed + 6, inks=False, config=TABLE_CONFIG)
        both_rules(f"enrolled {'+'.join(names)}, table", reader, images, labels, report, "enrolled_table")
        others = [load_design(args.renders / n) for n in OTHER_DESIGNS if n in have]
        images, labels = make_samples(others, args.samples, args.seed + 1)
        other_decks("not enrolled designs, hard", reader, images, labels, report)
    from models.procedural_deck import make_design

    russian = make_design(np.random.default_rng(args.seed + 99), "russian")
    if args.only_real or "russian" in skip:
        russian = {}
    if russian:
        profile, rep = enrol(base, [clean_views(russian, args.seed + 50)], "russian")
        for line in rep.lines():
            print("  enrolment (russian):", line)
        reader = ProfiledClassifier(base, profile)
        images, labels = make_samples([russian], args.samples, args.seed + 2)
        both_rules("made-up Russian deck (В Д К Т), hard", reader, images, labels, report, "russian_hard")
        images, labels = make_samples([russian], args.samples, args.seed + 3, plain=True)
        both_rules("made-up Russian deck, plain", reader, images, labels, report, "russian_plain")
        images, labels = make_samples([russian], args.samples, args.seed + 7, inks=False, config=TABLE_CONFIG)
        both_rules("made-up Russian deck, table", reader, images, labels, report, "russian_table")
        for k in range(1, args.russian_decks):
            more_russian_deck(base, k, args.seed, max(60, args.samples // 3), report)
    files = [] if "real" in skip else sorted(REAL.glob("*.jpg"))
    if files:
        clean: dict[str, np.ndarray] = {}
        for path in files:
            from engine.cards import Card

            clean[str(Card.parse(path.stem))] = np.asarray(cv2.resize(imread(path), (RECT_W, RECT_H), interpolation=cv2.INTER_AREA), np.uint8)
        profile, rep = enrol(base, [clean], "real")
        for line in rep.lines():
            if not line.startswith("deck 1: back"):
                print("  enrolment (real):", line)
        rng = np.random.default_rng(args.seed + 4)
        bank = TextureBank(seed=args.seed, count=8)
        config = AugmentConfig(min_scale=0.35)
        imgs, labs = [], []
        for _ in range(max(1, args.samples // 52)):
            for label, card in clean.items():
                bgra = np.dstack([card, np.full(card.shape[:2], 255, np.uint8)])
                imgs.append(augment_photo(rng, place_card(rng, bgra, bank.crop(rng), config), config))
                labs.append(CLASSES.index(label))
        both_rules("real singles enrolled, placed + spoiled", ProfiledClassifier(base, profile), imgs, np.array(labs),
                   report, "real_placed")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
