"""Enrolling a deck at the table: the steps the players are asked for, where the cards of a
step are found, and the crops taken of them (`eleusis calibrate deck` drives it).

With the printed mat in view, the cards of a step are found in its play zone exactly as
`eleusis play` finds cards there (``dealer.table.observer.TableObserver``: a lamp's gradient, a
kit printed in grey, a hand over the zone); a step is taken when the zone has held the
cards asked for, with no hand over it, for ``STEADY_FRAMES`` frames, after it was cleared.
Without the mat in view (a photo of cards on a plain table), anywhere in the frame
(``vision.detect``), and then a batch may be larger (rows).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from calibration.layout import PLAY_ZONE_PLACES, TableLayout
from dealer.speech.i18n import _, and_list, card_name, n_
from engine.cards import Card, Suit

__all__ = ["ASK_AFTER_S", "DEFAULT_BATCH", "STEADY_FRAMES", "CardFinder", "CardsLaid", "EnrolmentStep", "StepView",
           "cards_said", "enrolment_steps", "gather_crops", "reading_order", "report_sentences", "step_views",
           "what_is_wrong"]

if TYPE_CHECKING:
    from dealer.table.observer import ZoneReader
    from vision.readings import CardDetections

SUIT_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
STEADY_FRAMES = 4  # a video step is taken when this many frames in a row show the cards asked for
ASK_AFTER_S = 3.0  # the play zone showing other cards than asked for, still, this long: the dealer says so
DEFAULT_BATCH = PLAY_ZONE_PLACES  # the play zone holds 3 cards a finger apart
BgrImage = npt.NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class EnrolmentStep:
    """One thing the players are asked to lay out: ``labels`` in reading order."""

    deck: int
    labels: tuple[str, ...]

    @property
    def prompt(self) -> str:
        """What the dealer says for this step, in the current language (dealer.speech.i18n)."""
        if self.labels == ("back",):
            return _("Deck {deck}: lay one card face down in the play zone.", deck=self.deck + 1)
        cards = and_list(card_name(Card.parse(label), "object") for label in self.labels)
        return _("Deck {deck}: lay {cards} face up in the play zone, left to right, a finger apart.",
                 deck=self.deck + 1, cards=cards)


def enrolment_steps(decks: int, batch: int = DEFAULT_BATCH) -> list[EnrolmentStep]:
    """The steps for ``decks`` decks, ``batch`` cards at most a step (a suit split in batches).

    >>> [s.labels for s in enrolment_steps(1, 13)][:1]
    [('AC', '2C', '3C', '4C', '5C', '6C', '7C', '8C', '9C', '10C', 'JC', 'QC', 'KC')]
    >>> len(enrolment_steps(2, 7))
    18
    >>> [s.labels for s in enrolment_steps(1)][:2], len(enrolment_steps(1))
    ([('AC', '2C', '3C'), ('4C', '5C', '6C')], 21)
    """
    steps: list[EnrolmentStep] = []
    for d in range(decks):
        for suit in SUIT_ORDER:
            cards = [Card(rank, suit) for rank in range(1, 14)]
            for start in range(0, 13, batch):
                steps.append(EnrolmentStep(d, tuple(str(c) for c in cards[start:start + batch])))
        steps.append(EnrolmentStep(d, ("back",)))
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


@dataclass(frozen=True, slots=True)
class CardsLaid:
    """The cards one frame shows for an enrolment step."""

    quads: npt.NDArray[np.float32]  # [n, 4, 2] frame pixels, in reading order
    busy: bool = False  # a hand (or a card on its way) over the play zone: not laid yet
    on_mat: bool = False  # found in the mat's play zone, else anywhere in a frame without the mat
    unexplained: bool = False  # something lies in the play zone that no card found explains


class CardFinder:
    """Where enrolment looks for the cards of a step.

    With the printed mat in view: in its play zone, as `eleusis play` does
    (:class:`dealer.table.observer.TableObserver` with play's reader), so what play finds at
    a table (a lamp's gradient, warm light, a kit printed in grey) enrolment finds too, and a
    hand over the zone is seen. Without the mat (a photo of cards on a plain table): anywhere
    in the frame (:func:`vision.detect.detect_cards`).
    """

    def __init__(self, layout: TableLayout | None = None, reader: ZoneReader | None = None,
                 stills: bool = False) -> None:
        from calibration.layout import default_layout
        from dealer.app.live import default_reader
        from dealer.table.observer import TableObserver

        self.layout = layout or default_layout()
        self.reader = reader or default_reader()
        self.stills = stills  # photos, each maybe taken from elsewhere: each is looked at afresh
        self.observer = TableObserver(self.layout, self.reader)
        self.frames = 0

    def look(self, frame: BgrImage, t: float) -> CardsLaid:
        if self.stills and self.frames:
            # a photo taken from elsewhere than the last: the tracker would hold the old
            # place of the mat for a frame or two (a nudged camera, in play), so start afresh
            from dealer.table.observer import TableObserver
            from vision.pipeline import CardReader

            if isinstance(self.reader, CardReader):  # and forget the last photo's zone
                self.reader = CardReader(self.reader.classifier, self.reader.config)
            self.observer = TableObserver(self.layout, self.reader)
        seen = self.observer.observe(frame, t, self.frames)
        self.frames += 1
        if seen.view is not None:
            quads = _whole_cards(seen.play_detections)
            return CardsLaid(quads[reading_order(quads)], seen.view.hand_over_play, True,
                             seen.view.unexplained_in_play and not seen.view.hand_over_play)
        from vision.detect import detect_cards

        quads = _whole_cards(detect_cards(frame))
        return CardsLaid(quads[reading_order(quads)])


def _whole_cards(found: CardDetections) -> npt.NDArray[np.float32]:
    """The quads [n, 4, 2] of the cards found that the frame does not cut."""
    return np.asarray(found.quad_xy[~np.asarray(found.cut, bool)], np.float32).reshape(-1, 4, 2)


StepView = tuple[EnrolmentStep, BgrImage | None, npt.NDArray[np.float32]]


def what_is_wrong(step: EnrolmentStep, laid: CardsLaid) -> str:
    """What the dealer says when the play zone shows, still, something else than the step asked for."""
    asked = len(step.labels)
    if len(laid.quads) and len(laid.quads) != asked:
        return n_("I see {n} card in the play zone and asked for {asked}: lay the cards asked for face up, "
                  "a finger apart.", "I see {n} cards in the play zone and asked for {asked}: lay the cards "
                  "asked for face up, a finger apart.", len(laid.quads), asked=asked)
    from dealer.table.protocol import LAY_AGAIN

    return _(LAY_AGAIN)  # what play says of the same sight


def step_views(frames: Iterator[tuple[BgrImage, float]], steps: Sequence[EnrolmentStep], stills: bool,
               finder: CardFinder, ask: Callable[[EnrolmentStep], None] | None = None,
               tell: Callable[[EnrolmentStep, CardsLaid], None] | None = None) -> Iterator[StepView]:
    """Each step with the frame taken for it and its cards' quads (reading order).

    ``ask(step)`` is called when a step begins, before its frames are looked at: the
    players hear what to lay, then lay it. From stills each image is one step; from a
    video or camera a step is taken once the play zone was cleared (no card, no hand) and
    then held the cards asked for, with no hand over it, ``STEADY_FRAMES`` frames in a row.
    When the zone shows, still, another number of cards or something it cannot find as a
    card for ``ASK_AFTER_S`` seconds, ``tell(step, laid)`` is called once (the dealer is
    never silent about what lies in the play zone). A source that ends first gives the step
    it ended in without a view, and nothing after it (the enrolment report names the cards
    never shown).
    """
    empty = np.zeros((0, 4, 2), np.float32)
    for step in steps:
        if ask is not None:
            ask(step)
        if stills:
            shot = next(frames, None)
            if shot is None:
                yield step, None, empty
                return
            yield step, shot[0], finder.look(*shot).quads
            continue
        steady, cleared, taken = 0, step is steps[0], False
        odd_since: float | None = None  # since when the zone has shown, still, something else
        told = False
        for frame, t in frames:
            laid = finder.look(frame, t)
            if not cleared:
                cleared = len(laid.quads) == 0 and not laid.busy
                continue
            odd = not laid.busy and (laid.unexplained or 0 < len(laid.quads) != len(step.labels))
            odd_since = (t if odd_since is None else odd_since) if odd else None
            told = told and odd
            if odd_since is not None and t - odd_since >= ASK_AFTER_S and not told:
                if tell is not None:
                    tell(step, laid)
                told = True
            steady = steady + 1 if len(laid.quads) == len(step.labels) and not laid.busy else 0
            if steady >= STEADY_FRAMES:
                yield step, frame, laid.quads
                taken = True
                break
        if not taken:
            yield step, None, empty
            return


def gather_crops(views: Iterable[StepView], decks: int, taken: Callable[[], None] | None = None,
                 keep_partial: bool = True) -> tuple[list[dict[str, BgrImage]], list[str]]:
    """The rectified crop of each card shown (``crops[deck][label]``) and what went wrong.

    A step whose view has another number of cards than asked for is skipped and named; a
    camera or video that fails on the way ends the showing, and the cards taken until then
    are kept (enrolment writes a profile of them and says what is missing); with
    ``keep_partial`` False the failure is raised instead (stills: the file is named, nothing
    is written). ``taken`` is called after each step taken (the dealer says so).
    """
    from vision.errors import CameraError, VisionError
    from vision.rectify import rectify_cards

    crops: list[dict[str, BgrImage]] = [{} for _ in range(decks)]
    problems: list[str] = []
    try:
        for step, frame, quads in views:
            if frame is None:  # the last step given: the cards after it are counted as not shown
                problems.append(_("Deck {deck}: the video ended before I saw {cards}.", deck=step.deck + 1,
                                  cards=cards_said(step.labels)))
                continue
            if len(quads) != len(step.labels):
                problems.append(n_("Deck {deck}: I asked for {cards} and found {n} card: that step was skipped.",
                                   "Deck {deck}: I asked for {cards} and found {n} cards: that step was skipped.",
                                   len(quads), deck=step.deck + 1, cards=cards_said(step.labels)))
                continue
            for label, card in zip(step.labels, rectify_cards(frame, quads)):  # quads in reading order
                crops[step.deck][label] = np.ascontiguousarray(card)
            if taken is not None:
                taken()
    except (VisionError, CameraError) as exc:  # a camera unplugged half way: keep what was shown
        if not keep_partial:
            raise
        problems.append(_("The showing stopped ({why}); the cards taken before are kept.", why=str(exc)))
    return crops, problems


def cards_said(labels: Iterable[str]) -> str:
    """Enrolment labels as the dealer says them ("the ace of clubs and the back")."""
    return and_list(_("the back") if label == "back" else card_name(Card.parse(label), "object") for label in labels)


MISSING_LISTED = 6  # more cards missing from a deck than this: their number is said, not each one


def report_sentences(report: Any) -> list[str]:
    """What the dealer says of an enrolment (:class:`vision.deck_profile.EnrolmentReport`),
    in the current language: the cards not seen, the pairs it cannot tell apart, the cards
    it reads as another, and what to change."""
    out: list[str] = []
    by_deck: dict[int, list[str]] = {}
    for deck, label in report.missing:
        by_deck.setdefault(deck, []).append(label)
    for deck, labels in sorted(by_deck.items()):
        if len(labels) > MISSING_LISTED:
            out.append(n_("Deck {deck}: {n} card was not shown.", "Deck {deck}: {n} cards were not shown.",
                          len(labels), deck=deck + 1))
        else:
            out.append(_("Deck {deck}: I did not see {cards}.", deck=deck + 1, cards=cards_said(labels)))
    for deck, a, b, _similarity in report.confusable:
        out.append(_("Deck {deck}: {a} and {b} look alike to me: I may be unsure between them.",
                     deck=deck + 1, a=cards_said([a]), b=cards_said([b])))
    for deck, shown, read in report.doubtful:
        out.append(_("Deck {deck}: where {shown} should be, I read {read}: were the cards laid out of order?",
                     deck=deck + 1, shown=cards_said([shown]), read=cards_said([read])))
    if report.missing:
        out.append(_("Show the missing cards again, face up, inside the play zone, a finger apart."))
    if report.confusable:
        out.append(_("Cards that look alike will be read as unsure: enrol again closer to the camera or under "
                     "better light; if they are alike in print (a 6 and a 9 with symmetric indices), keep them "
                     "out of the game or use another deck."))
    if report.doubtful:
        out.append(_("Check the order the cards were laid out in: a suit at a time, ace to king, left to right."))
    return out
