"""`eleusis calibrate deck`: learn the group's own decks (issue 8), write a deck profile.

    eleusis calibrate deck (--images FILE... | --video FILE | --camera N) [--decks N]
                           [--batch K] [--out PROFILE.json] [--voice auto|speech|text] [--strict]

The dealer asks, by voice and on screen, for each deck in turn: one suit at a time, ace
to king, face up, left to right (in rows, top to bottom, when a batch does not fit one
row), ``--batch`` cards at a time (as many as the play zone holds), then one card face
down for the back. Each step is one still image (``--images``, in order) or, from a video
or camera, the first steady view with the number of cards asked for after the mat was
cleared. The cards of a step are taken in reading order and labelled with the cards
asked for. The profile holds, per deck, the classifier's embedding of each card and the
templates of its print (see :mod:`vision.deck_profile`, :mod:`vision.deck_templates`);
`eleusis play --deck` and `eleusis read --deck` use it. ``--strict``: a card whose print is
not one of the enrolled decks' is unsure ("not a card of the enrolled decks"), at a cost in
cards read at the first look (figures in models/MODEL_CARD.md).

The report names cards not found, pairs the reader cannot tell apart, and cards the model
reads as another card (laid out of order?). Exit status: 0 all 53 of each deck enrolled
and told apart; 1 a profile written with problems; 2 bad input.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.cards import Card, Suit

__all__ = ["enrolment_steps", "reading_order", "register_deck", "run_deck"]

DEFAULT_DECK_PROFILE = "eleusis-decks.json"
SUIT_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
_SUIT_WORDS = {Suit.CLUBS: "clubs", Suit.DIAMONDS: "diamonds", Suit.HEARTS: "hearts", Suit.SPADES: "spades"}
_RANK_WORDS = {1: "ace", 11: "jack", 12: "queen", 13: "king"}
STEADY_FRAMES = 4  # a video step is taken when this many frames in a row show the cards asked for
BgrImage = npt.NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class EnrolmentStep:
    """One thing the players are asked to lay out: ``labels`` in reading order."""

    deck: int
    labels: tuple[str, ...]
    prompt: str


def enrolment_steps(decks: int, batch: int) -> list[EnrolmentStep]:
    """The steps for ``decks`` decks, ``batch`` cards at most a step (a suit split in batches).

    >>> [s.labels for s in enrolment_steps(1, 13)][:1]
    [('AC', '2C', '3C', '4C', '5C', '6C', '7C', '8C', '9C', '10C', 'JC', 'QC', 'KC')]
    >>> len(enrolment_steps(2, 7))
    18
    """
    steps: list[EnrolmentStep] = []
    for d in range(decks):
        for suit in SUIT_ORDER:
            cards = [Card(rank, suit) for rank in range(1, 14)]
            for start in range(0, 13, batch):
                part = cards[start:start + batch]
                first = _RANK_WORDS.get(part[0].rank, str(part[0].rank))
                last = _RANK_WORDS.get(part[-1].rank, str(part[-1].rank))
                prompt = (f"Deck {d + 1}: lay the {_SUIT_WORDS[suit]} from {first} to {last}, face up, "
                          f"left to right, in the play zone" + (" (rows top to bottom)" if len(part) > 7 else ""))
                steps.append(EnrolmentStep(d, tuple(str(c) for c in part), prompt))
        steps.append(EnrolmentStep(d, ("back",), f"Deck {d + 1}: lay one card face down in the play zone"))
    return steps


def reading_order(quads: npt.ArrayLike) -> list[int]:
    """Indices of ``quads`` [n, 4, 2] in reading order: rows top to bottom, then left to right.

    Cards whose centres lie within half a card height of each other vertically share a row.

    >>> q = np.array([[[100, 0], [150, 0], [150, 70], [100, 70]], [[0, 5], [50, 5], [50, 75], [0, 75]],
    ...               [[0, 100], [50, 100], [50, 170], [0, 170]]], float)
    >>> reading_order(q)
    [1, 0, 2]
    """
    q = np.asarray(quads, np.float64)
    if len(q) == 0:
        return []
    centres = q.mean(axis=1)
    heights = np.array([max(np.ptp(c[:, 1]), np.ptp(c[:, 0])) for c in q])
    order = list(np.argsort(centres[:, 1]))
    rows: list[list[int]] = []
    for i in order:
        if rows and abs(centres[i, 1] - np.mean([centres[j, 1] for j in rows[-1]])) < 0.5 * np.median(heights):
            rows[-1].append(int(i))
        else:
            rows.append([int(i)])
    return [i for row in rows for i in sorted(row, key=lambda j: centres[j, 0])]


def register_deck(sub: Any) -> None:
    """Add ``deck`` to the ``eleusis calibrate`` sub-commands."""
    deck = sub.add_parser("deck", help="learn the group's own decks (up to 3); write a deck profile",
                          description=__doc__.splitlines()[0])
    source = deck.add_mutually_exclusive_group(required=True)
    source.add_argument("--images", metavar="FILE", nargs="+", help="one still image per step, in order")
    source.add_argument("--video", metavar="FILE", help="a recorded video of the decks being shown")
    source.add_argument("--camera", metavar="N", type=int, help="a live camera index")
    deck.add_argument("--decks", type=int, default=1, metavar="N", help="decks to enrol, 1 to 3 (C1; default 1)")
    deck.add_argument("--batch", type=int, default=13, metavar="K",
                      help="cards laid out at a time, 1 to 13 (as many as the play zone holds; default 13)")
    deck.add_argument("--out", metavar="PROFILE.json", default=DEFAULT_DECK_PROFILE,
                      help=f"the deck profile to write (default {DEFAULT_DECK_PROFILE})")
    deck.add_argument("--name", default="our decks", help="a name for the profile")
    deck.add_argument("--voice", choices=("auto", "speech", "text"), default="text",
                      help="how to give the instructions (default text on screen)")
    deck.add_argument("--strict", action="store_true",
                      help="cards whose print is not the enrolled decks' are unsure (fewer first-look readings)")
    deck.add_argument("--model", default=None, help="ONNX model (default models/card_classifier.onnx)")
    deck.add_argument("--meta", default=None, help="model metadata JSON (default next to the model)")
    deck.set_defaults(run=run_deck)


def _error(message: str) -> int:
    print(f"eleusis calibrate deck: error: {message}", file=sys.stderr)
    return 2


def _say(voice: Any, text: str) -> None:
    if voice is None:
        print(f"dealer: {text}", flush=True)
    else:
        voice.say(text)


def _open_voice(kind: str) -> Any:
    if kind == "text":
        return None
    try:
        from dealer.voice import SpeechVoice, TextVoice

        return SpeechVoice.open(echo=TextVoice())
    except Exception as exc:  # no speech engine: fall back to the screen, and say so
        print(f"eleusis calibrate deck: no speech ({exc}); instructions on screen only", file=sys.stderr)
        return None


def _cards_in(frame: BgrImage) -> npt.NDArray[np.float32]:
    from vision.detect import detect_cards

    found = detect_cards(frame)
    return np.asarray(found.quad_xy[~np.asarray(found.cut, bool)], np.float32)


def _step_views(frames: Iterator[BgrImage], steps: Sequence[EnrolmentStep], stills: bool
                ) -> Iterator[tuple[EnrolmentStep, BgrImage | None, npt.NDArray[np.float32]]]:
    """Each step with the frame taken for it and the card quads found there."""
    frames = iter(frames)
    for step in steps:
        if stills:
            frame = next(frames, None)
            yield step, frame, (_cards_in(frame) if frame is not None else np.zeros((0, 4, 2), np.float32))
            continue
        steady, cleared, taken = 0, step is steps[0], False
        for frame in frames:
            quads = _cards_in(frame)
            if not cleared:
                cleared = len(quads) == 0
                continue
            steady = steady + 1 if len(quads) == len(step.labels) else 0
            if steady >= STEADY_FRAMES:
                yield step, frame, quads
                taken = True
                break
        if not taken:
            yield step, None, np.zeros((0, 4, 2), np.float32)


def run_deck(args: argparse.Namespace) -> int:
    if not 1 <= args.decks <= 3:
        return _error(f"--decks must be 1 to 3 (C1), got {args.decks}")
    if not 1 <= args.batch <= 13:
        return _error(f"--batch must be 1 to 13, got {args.batch}")
    from vision.classify import OnnxClassifier
    from vision.deck_profile import enrol
    from vision.errors import VisionError
    from vision.frames import CameraSource, ImageListSource, VideoFileSource
    from vision.rectify import rectify_cards

    meta = args.meta or (str(args.model).removesuffix(".onnx") + ".json" if args.model else None)
    try:
        classifier = OnnxClassifier(args.model, meta)
    except VisionError as exc:
        return _error(str(exc))
    if "embedding" not in classifier.output_names:
        return _error("this model has no embedding output: deck enrolment needs model 2.0 or later")
    steps = enrolment_steps(args.decks, args.batch)
    if args.images is not None and len(args.images) != len(steps):
        return _error(f"--images: {len(steps)} images needed ({args.decks} deck(s), batches of {args.batch}: "
                      f"{len(steps) // args.decks} steps a deck), got {len(args.images)}")
    try:
        if args.images is not None:
            source: Any = ImageListSource(args.images)
        elif args.video is not None:
            source = VideoFileSource(args.video)
        else:
            source = CameraSource(args.camera)
        frames = (f.bgr for f in source.frames())
        voice = _open_voice(args.voice)
        crops: list[dict[str, BgrImage]] = [{} for _ in range(args.decks)]
        problems: list[str] = []
        for step, frame, quads in _step_views(frames, steps, args.images is not None):
            _say(voice, step.prompt)
            if frame is None:
                problems.append(f"deck {step.deck + 1}: no view for {' '.join(step.labels)} (the source ended)")
                continue
            if len(quads) != len(step.labels):
                problems.append(f"deck {step.deck + 1}: {len(step.labels)} cards asked for "
                                f"({' '.join(step.labels)}), {len(quads)} found: step skipped")
                continue
            order = reading_order(quads)
            rectified = rectify_cards(frame, quads[order])
            for label, card in zip(step.labels, rectified):
                crops[step.deck][label] = np.ascontiguousarray(card)
    except VisionError as exc:
        return _error(str(exc))
    profile, report = enrol(classifier, crops, args.name, strict=args.strict)
    try:
        profile.save(args.out)
    except OSError as exc:
        return _error(f"cannot write {args.out!r}: {exc.strerror}")
    for line in problems + report.lines():
        print(line)
    enrolled = len(profile.labels)
    print(f"{enrolled} of {53 * args.decks} cards enrolled; deck profile written to {args.out}")
    return 0 if report.ok and not problems else 1
