"""`eleusis read IMAGE... [--json] [--single] [--decks N] [--known CARDS] [--deck PROFILE] [--profile TABLE]
[--marked DIR]`: read still images.

A frame of the table with the mat's markers in view is read zone by zone as the live
dealer reads it (:mod:`vision.table_read`: each zone seen from above, cards found by
their size in millimetres, colour and the zone's print); ``--profile`` gives the table
profile of `eleusis calibrate table` (else the kit's layout). Without the mat, cards
are found by their outlines, and cards under others by an index corner alone
(:mod:`vision.corners`; the text output says so).
Without the mat, a card's index also finds the card where its outline is faint (a pale
wood top, a white cloth: :mod:`vision.by_index`), and a card under others with no index
showing is reported as one (:mod:`vision.under`).
A photo of one card held close (filling up to ~95 % of it, or touching its edge) is read
too (:mod:`vision.closeup`); ``--deck`` reads only the decks of a deck profile.

With ``--json`` one JSON object per image, one per line::

    {"image": "a.jpg", "ms": 41.0, "cards": [{"card": "QS", "confidence": 0.98,
     "corners": [[x, y], [x, y], [x, y], [x, y]]}]}

A card found but not read with confidence has ``"card": null`` (a back adds
``"face_down": true``, a card cut by the frame ``"cut": true``, a card under another
with no index showing ``"under": true``, a fourth copy of a card
with 3 decks ``"over_shoe": true`` and the doubtful label under ``"misread"``, C1).
Without the mat, the JSON also gives ``"card_px"``, the median width in pixels of the cards
read (null when none was), and ``"too_small": true`` when that is under
:data:`vision.photo_size.SMALL_CARD_PX`: cards so small in the photo are missed markedly more
often, and the text output says to take the photo closer or at a higher resolution.
A missing or unreadable image is reported on stderr, the other images are still
read, and the exit status is 2.

``--marked DIR`` also writes each image into ``DIR`` as ``<name>-marked.jpg``, every card found
outlined and named at its index corner (:mod:`dealer.screen.marked_cards`): the picture to
settle a dispute over which card lies where. The text output names that file on a last line,
the JSON under ``"marked"``; a file that cannot be written is reported on stderr (exit
status 2) and the readings are still printed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from dealer.speech.i18n import _
from engine.cards import Card, CardParseError, parse_cards

__all__ = ["load_classifier", "register", "run"]


def load_classifier(model: str | None, meta: str | None) -> Any:
    """The classifier the command uses (a seam for tests)."""
    from vision.classify import OnnxClassifier

    return OnnxClassifier(model, meta)


def _decks(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--decks must be a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"--decks must be at least 1, got {text!r}")
    return value


def _cards(text: str) -> tuple[Card, ...]:
    try:
        return parse_cards(text)
    except CardParseError as exc:
        raise argparse.ArgumentTypeError(f"--known: {exc}") from None


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "read", help="read the cards in still images",
        description="Find and read the cards in still images (photos of cards on a table).")
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="image files (jpg, png, ...)")
    parser.add_argument("--json", action="store_true", help="one JSON object per image, one per line")
    parser.add_argument("--single", action="store_true",
                        help="each image is one card filling most of the frame: skip detection")
    parser.add_argument("--decks", type=_decks, default=3, metavar="N",
                        help="decks in the shoe (C1; default 3): more copies than that is a misreading")
    parser.add_argument("--known", type=_cards, default=(), metavar="CARDS",
                        help="cards known to be on the table already, e.g. '7H 7H QS' (count toward C1)")
    parser.add_argument("--deck", default=None, metavar="PROFILE",
                        help="deck profile from `eleusis calibrate deck`: read only the enrolled decks")
    parser.add_argument("--profile", type=Path, default=None, metavar="TABLE",
                        help="table profile from `eleusis calibrate table` (default: the kit's layout)")
    parser.add_argument("--marked", type=Path, default=None, metavar="DIR",
                        help="also write each image into DIR with every card found outlined and named")
    parser.add_argument("--model", default=None, help="ONNX model (default models/card_classifier.onnx)")
    parser.add_argument("--meta", default=None, help="model metadata JSON (default next to the model)")
    parser.set_defaults(run=run)


def _print_text(path: str, ms: float, cards: list[dict[str, Any]], out: TextIO, how: str = "",
                too_small: tuple[float, float] | None = None, marked: Path | None = None) -> None:
    """One line for the image, one for each card; with ``too_small`` (the cards' width and
    the width they need, :data:`vision.photo_size.SMALL_CARD_PX`) a line asking for a
    closer photo; with ``marked``, a last line naming the picture marked with the cards."""
    print(f"{path}: {len(cards)} card{'s' if len(cards) != 1 else ''} ({ms:.0f} ms){how}", file=out)
    for item in cards:
        x = sum(c[0] for c in item["corners"]) / 4
        y = sum(c[1] for c in item["corners"]) / 4
        if item["card"]:
            what = f"{item['card']:>3}  {item['confidence']:.2f}"
        elif item.get("cut"):
            what = "cut by the frame edge, not read"
        elif item.get("under"):
            what = _("a card under another, no index showing")
        elif item.get("over_shoe"):
            what = f"  ?  read as {item['misread']}, but more copies than the shoe holds (C1): re-read"
        elif item.get("face_down"):
            what = "face down"
        else:
            what = "  ?  not sure"
        where = f"  in {item['zone']}" if item.get("zone") else ""
        print(f"  {what}  at ({x:.0f}, {y:.0f}){where}", file=out)
    if too_small is not None:
        print("  " + _("The cards are about {px} px wide in this photo: cards narrower than {need} px are often "
                       "missed. Take the photo closer, or at a higher resolution.",
                       px=f"{too_small[0]:.0f}", need=f"{too_small[1]:.0f}"), file=out)
    if marked is not None:
        print(f"  marked: {marked}", file=out)


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    from vision.errors import ImageReadError, ModelLoadError
    from vision.frames import read_image
    from vision.by_index import read_without_mat
    from vision.consistency import flag_over_shoe
    from vision.photo_size import SMALL_CARD_PX, card_width_px
    from vision.pipeline import CardReader, ReaderConfig
    from vision.table_read import read_table_frame

    meta = args.meta
    if args.model and not meta:
        meta = str(args.model).removesuffix(".onnx") + ".json"
    try:
        classifier = load_classifier(args.model, meta)
        if args.single and hasattr(classifier, "with_rule"):
            # one tight crop of one card, one look: the stricter still-image rule (since
            # a confident wrong reading is the worst outcome; models/MODEL_CARD.md)
            classifier = classifier.with_rule("still")
        if getattr(args, "deck", None):
            from vision.deck_profile import DeckProfile, ProfiledClassifier

            classifier = ProfiledClassifier(classifier, DeckProfile.load(args.deck))
    except ModelLoadError as exc:
        print(f"eleusis read: {exc}", file=err)
        return 2
    reader = CardReader(classifier, ReaderConfig(decks=args.decks), known=args.known)
    layout = None
    if not args.single:
        try:
            layout = _layout(args.profile)
        except (OSError, ValueError) as exc:
            print(f"eleusis read: --profile {args.profile}: {exc}", file=err)
            return 2
    status = 0
    written: set[Path] = set()
    for path in args.images:
        try:
            image = read_image(path)
        except ImageReadError as exc:
            print(f"eleusis read: {exc}", file=err)
            status = 2
            continue
        start = time.perf_counter()
        card_px = None
        table = None if layout is None else read_table_frame(reader, image, layout)
        if table is not None:  # the mat is in view: zone by zone, as the dealer reads
            found = table.cards
            how = f", mat found: zones {', '.join(table.zones_seen)}"
        else:
            # a photo of one card held close, cards found by their outline or their index,
            # cards under others read by an index alone or reported; C1 over all
            found = reader.read_single(image) if args.single else flag_over_shoe(
                read_without_mat(reader, image), reader.known, reader.config.decks)
            how = "" if args.single else ", no mat in view: cards found by their outlines and index corners"
            card_px = None if args.single else card_width_px(found)
        small = (card_px, SMALL_CARD_PX) if card_px is not None and card_px < SMALL_CARD_PX else None
        ms = (time.perf_counter() - start) * 1000
        cards = found.to_json_cards()
        if table is not None:
            for item, zone in zip(cards, table.zones, strict=True):
                item["zone"] = zone
        marked = None
        if args.marked is not None:
            marked = _write_marked(args.marked, Path(path), image, found, written, err)
            status = status if marked is not None else 2
        if args.json:
            line: dict[str, Any] = {"image": path, "ms": round(ms, 1), "cards": cards}
            if marked is not None:
                line["marked"] = str(marked)
            if not args.single:
                line["mat"] = table is not None
                if table is None:
                    line["card_px"] = None if card_px is None else round(card_px, 1)
                    line["too_small"] = small is not None
            print(json.dumps(line), file=out, flush=True)
        else:
            _print_text(path, ms, cards, out, how, small, marked)
    return status


def _write_marked(folder: Path, source: Path, image: Any, found: Any, written: set[Path], err: TextIO) -> Path | None:
    """``image`` marked with the cards ``found`` (:func:`dealer.screen.marked_cards.marked_cards`),
    written into ``folder`` as ``<source's name>-marked.jpg`` (``-2``, ``-3`` ... after a name
    this run already wrote); None, said on ``err``, when it cannot be written."""
    import cv2

    from dealer.screen.marked_cards import marked_cards

    target = folder / f"{source.stem}-marked.jpg"
    k = 2
    while target in written:
        target, k = folder / f"{source.stem}-marked-{k}.jpg", k + 1
    try:
        folder.mkdir(parents=True, exist_ok=True)
        ok, jpeg = cv2.imencode(".jpg", marked_cards(image, found), [cv2.IMWRITE_JPEG_QUALITY, 90])
        if not ok:
            raise OSError("the picture could not be encoded")
        target.write_bytes(jpeg.tobytes())
    except OSError as exc:
        print(f"eleusis read: --marked {folder}: cannot write {target.name}: {exc}", file=err)
        return None
    written.add(target)
    return target


def _layout(profile: Path | None) -> Any:
    from calibration.layout import default_layout

    if profile is None:
        return default_layout()
    from calibration.profile import load_table_profile

    return load_table_profile(profile).layout
