"""`eleusis calibrate deck`: learn the group's own decks, write a deck profile.

    eleusis calibrate deck (--images FILE... | --video FILE | --camera N) [--decks N]
                           [--batch K] [--out PROFILE.json] [--voice auto|speech|text]
                           [--lang en|ru|pt] [--layout FILE] [--strict]

The dealer asks, by voice and on screen, for each deck in turn: one suit at a time, ace
to king, face up, left to right, ``--batch`` cards at a time (default 3, as many as the
mat's play zone holds a finger apart: ``calibration.layout.PLAY_ZONE_PLACES``), then one
card face down for the back. It asks for each step *before* it looks for it, and says
when it has taken it.

Where it looks: with the printed mat in view, in its play zone, found and read exactly as
`eleusis play` finds cards there (``dealer.table.observer.TableObserver``: a lamp's gradient, a
kit printed in grey, a hand over the zone); a step is taken when the zone has held the
cards asked for, with no hand over it, for ``STEADY_FRAMES`` frames, after it was cleared.
Without the mat in view (a photo of cards on a plain table), anywhere in the frame
(``vision.detect``), and then a batch may be larger (``--batch 13``, in rows).

Each step is one still image (``--images``, in order) or, from a video or camera, the
first steady view of it. The cards of a step are taken in reading order and labelled
with the cards asked for. The profile holds, per deck, the classifier's embedding of each
card and the templates of its print (see :mod:`vision.deck_profile`,
:mod:`vision.deck_templates`); `eleusis play --deck` and `eleusis read --deck` use it.
``--strict``: a card whose print is not one of the enrolled decks' is unsure ("not a card
of the enrolled decks"), at a cost in cards read at the first look (figures in
models/MODEL_CARD.md).

The report names cards not found, pairs the reader cannot tell apart, and cards the model
reads as another card (laid out of order?). Exit status: 0 all 53 of each deck enrolled
and told apart; 1 a profile written with problems; 2 bad input.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path
from typing import Any

from dealer.table.enrolment import (DEFAULT_BATCH, CardFinder, enrolment_steps, gather_crops, report_sentences,
                              step_views, what_is_wrong)
from dealer.speech.i18n import LANGUAGES, _
from dealer.app.inputs import camera_source

__all__ = ["DEFAULT_DECK_PROFILE", "register_deck", "run_deck"]

DEFAULT_DECK_PROFILE = "eleusis-decks.json"


def register_deck(sub: Any) -> None:
    """Add ``deck`` to the ``eleusis calibrate`` sub-commands."""
    deck = sub.add_parser("deck", help="learn the group's own decks (up to 3); write a deck profile",
                          description=__doc__.splitlines()[0])
    source = deck.add_mutually_exclusive_group(required=True)
    source.add_argument("--images", metavar="FILE", nargs="+", help="one still image per step, in order")
    source.add_argument("--video", metavar="FILE", help="a recorded video of the decks being shown")
    source.add_argument("--camera", metavar="N|URL", type=camera_source, help="a live camera: an index or a stream URL")
    deck.add_argument("--decks", type=int, default=1, metavar="N", help="decks to enrol, 1 to 3 (C1; default 1)")
    deck.add_argument("--batch", type=int, default=DEFAULT_BATCH, metavar="K",
                      help=f"cards laid out at a time, 1 to 13 (default {DEFAULT_BATCH}: what the mat's play zone holds; "
                      "more only for photos of cards on a plain table, in rows)")
    deck.add_argument("--profile", type=Path, default=None,
                      help="table profile from `eleusis calibrate table` (its layout; default the printed kit's)")
    deck.add_argument("--lang", choices=LANGUAGES, default=None,
                      help="the dealer's language: en, ru or pt (default: the system locale, then English)")
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
        from dealer.speech.voice import SpeechVoice, TextVoice

        return SpeechVoice.open(echo=TextVoice())
    except Exception as exc:  # no speech engine: fall back to the screen, and say so
        print(f"eleusis calibrate deck: no speech ({exc}); instructions on screen only", file=sys.stderr)
        return None


def run_deck(args: argparse.Namespace) -> int:
    if not 1 <= args.decks <= 3:
        return _error(f"--decks must be 1 to 3 (C1), got {args.decks}")
    if not 1 <= args.batch <= 13:
        return _error(f"--batch must be 1 to 13, got {args.batch}")
    from vision.classify import OnnxClassifier
    from vision.deck_profile import enrol
    from vision.errors import CameraError, VisionError
    from vision.frames import CameraSource, ImageListSource, VideoFileSource
    from vision.pipeline import CardReader

    meta = args.meta or (str(args.model).removesuffix(".onnx") + ".json" if args.model else None)
    try:
        classifier = OnnxClassifier(args.model, meta)
    except VisionError as exc:
        return _error(str(exc))
    if "embedding" not in classifier.output_names:
        return _error("this model has no embedding output: deck enrolment needs model 2.0 or later")
    steps = enrolment_steps(args.decks, args.batch)
    from calibration.layout import default_layout
    from calibration.profile import load_table_profile

    try:
        layout = default_layout() if args.profile is None else load_table_profile(args.profile).layout
    except (OSError, ValueError) as exc:  # a profile that is missing, unreadable or of another version
        return _error(f"--profile {args.profile}: {exc}")
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
        stills = args.images is not None
        frames = ((f.bgr, f.time_s) for f in source.frames())
        first = next(frames, None)  # a camera that cannot open says so now, before anything is asked
        if first is None:
            return _error(f"{source.name} gives no frame at all")
        voice = _open_voice(args.voice)
        finder = CardFinder(layout, CardReader(classifier), stills)  # the model given finds the cards too
        views = step_views(itertools.chain([first], frames), steps, stills, finder,
                           lambda step: _say(voice, step.prompt), lambda step, laid: _say(voice, what_is_wrong(step, laid)))
        crops, problems = gather_crops(views, args.decks, None if stills else
                                       (lambda: _say(voice, _("Got them. Take the cards away."))), keep_partial=not stills)
    except (VisionError, CameraError) as exc:
        return _error(str(exc))
    if not any(crops):
        for line in problems:
            _say(voice, line)
        return _error("no card was found for any step: nothing to enrol (is the play zone in view, "
                      "and were the cards laid one step at a time?)")
    profile, report = enrol(classifier, crops, args.name, strict=args.strict)
    try:
        profile.save(args.out)
    except OSError as exc:
        return _error(f"cannot write {args.out!r}: {exc.strerror}")
    for line in problems + report_sentences(report):
        _say(voice, line)
    _say(voice, _("{n} of {total} cards enrolled; deck profile written to {path}.", n=len(profile.labels),
                  total=53 * args.decks, path=args.out))
    return 0 if report.ok and not problems else 1
