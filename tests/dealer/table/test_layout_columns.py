"""The layout watch on a white tablecloth, a side branch laid as an overlapped column (P4, P5).

The whole layout is rendered from above (the round bench's ``overhead`` view: every zone
readable at 2 px/mm), the side branch under the second main-line card as a column of four,
each card half or more over the one before it so that only its top and index show. The real
observer and reader read it; the layout watch compares it with the round's record.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from bench.harness.make_demo import Step, StepRenderer
from calibration.layout import default_layout
from dealer.table.layout_watch import (
    CardMissing,
    LayoutState,
    LayoutWrong,
    UnderCard,
    layout_look,
    moving,
    problems_in_sight,
)
from dealer.table.layout_problems import LineCard, Problem
from dealer.table.observer import LINE_EVERY_S, TableObserver
from dealer.table.turn_input import LineRecord, LineSight, SeenCard, TableView
from engine.cards import Card, parse_cards
from engine.layout import Branch, Layout
from vision.classify import OnnxClassifier
from vision.pipeline import CardReader, ReaderConfig
from vision.synthetic import Lighting, PinholeView
from vision.synthetic.cards import CardFace, cut_out

FACES = Path(__file__).parents[2] / "vision" / "data" / "overlap"
VIEW = PinholeView(tilt_deg=89.0, distance_mm=703.0, target_mm=(132.5, -89.0), yaw_deg=0.5, size_wh=(1920, 1080))
MAIN = "2C 8H 5S 10H"
COLUMN = "QH 9S AD 6C"  # rejected attempts laid under 8H, the line end then
LONE = "KS"  # one rejected under 10H


def _light(rng: np.random.Generator) -> Lighting:
    # a daylight panel: cold, a little uneven
    return Lighting(gain=1.0, gradient=(0.06, -0.05), blur_sigma_px=0.6, noise_sigma=2.0,
                    colour_gains_bgr=(1.1, 1.0, 0.84))


@pytest.fixture(scope="module")
def faces() -> dict[str, CardFace]:
    out = {}
    for path in sorted(FACES.glob("*.jpg")):
        card = Card.parse(path.name.split("_")[0])
        image = cv2.imread(str(path))
        assert image is not None
        out[str(card)] = cut_out(np.asarray(image, np.uint8), card)
    assert len(out) == 16
    return out


def _record() -> LineRecord:
    branches = tuple(Branch(1, (card,), "Bo") for card in parse_cards(COLUMN)) + (
        Branch(3, parse_cards(LONE), "Cy"),)
    return LineRecord(Layout(parse_cards(MAIN), branches))


def _seen(faces: dict[str, CardFace], column: str, reader: CardReader) -> tuple[LineSight, StepRenderer]:
    """The line zones as the observer reads them, the layout with ``column`` under 8H laid on a
    white cloth after a few frames of the line zones with the main line only."""
    renderer = StepRenderer(faces, seed=4, view=VIEW, lighting=_light, table="whitecloth", columns=True)
    observer = TableObserver(default_layout(), reader)
    steps = (Step(line=tuple(MAIN.split())),
             Step(line=tuple(MAIN.split()), branches=((1, tuple(column.split())), (3, (LONE,)))))
    k, line = 0, None
    for step in steps:
        lit = renderer.still(step)
        for _ in range(3):  # a second apart: the observer looks at the line zones every LINE_EVERY_S
            obs = observer.observe(renderer.frame(lit), k * LINE_EVERY_S, k)
            k += 1
            assert obs.view is not None and obs.view.line is not None, obs.message
            line = obs.view.line
    assert line is not None and not line.busy
    return line, renderer


@pytest.fixture(scope="module")
def model() -> OnnxClassifier:
    return OnnxClassifier()


def _cards(cards: tuple[SeenCard, ...] | None) -> list[str]:
    return sorted(str(c.card) for c in cards or () if c.card is not None)


def test_an_overlapped_column_on_a_white_cloth_is_seen_whole(faces: dict[str, CardFace], model: OnnxClassifier
                                                              ) -> None:
    # given the layout on a white cloth, the side branch under 8H an overlapped column
    line, renderer = _seen(faces, COLUMN, CardReader(model))
    covered = [c.label for c in renderer.layout_cards if c.label in COLUMN.split()[:-1]]
    assert len(covered) == 3  # three cards of the column show only their top
    # then every card of the main line and of the side branches is read, each in its zone
    assert _cards(line.main_line) == sorted(MAIN.split())
    assert _cards(line.side_branches) == sorted((COLUMN + " " + LONE).split())
    # and the watch finds nothing out of place: no card under another is taken for missing
    assert problems_in_sight(_record().layout, None, line) == []
    state, notes = layout_look(moving(LayoutState(), 0.0), TableView(1.5, line=line), _record())
    state, notes = layout_look(state, TableView(3.0, line=line), _record())
    assert state.holding is None and not any(isinstance(n, LayoutWrong) for n in notes or ())


def test_without_the_index_corners_the_covered_cards_are_not_seen(faces: dict[str, CardFace],
                                                                  model: OnnxClassifier) -> None:
    # given the same layout read by the outline alone (the reader without its corner zones)
    line, _renderer = _seen(faces, COLUMN, CardReader(model, ReaderConfig(corner_zones=frozenset())))
    # then cards under others are lost: what the index corners add is what this test is about
    assert set(COLUMN.split()[:-1]) - set(_cards(line.side_branches))


def test_a_card_really_missing_from_the_column_is_still_noticed(faces: dict[str, CardFace],
                                                                model: OnnxClassifier) -> None:
    # given the column laid without 9S (still in a player's hand), the record holding it
    line, _renderer = _seen(faces, "QH AD 6C", CardReader(model))
    # then 9S is missing under 8H, and nothing else is out of place
    assert problems_in_sight(_record().layout, None, line) == [
        CardMissing(Card.parse("9S"), UnderCard(LineCard(Card.parse("8H"))))]


@pytest.mark.parametrize(("main", "problems"), [
    (("7H", None, "9D"), []),  # the unread card lies where 4C belongs: QD hangs under it
    ((None, None, "9D"), []),  # two unread: which is 4C is not known, QD is not checked
    (("7H", "4C", "9D"), []),
    # read cards out of place are still told: 9D before 4C, and QD then under 9D
    (("7H", "9D", "4C"), [Problem.OUT_OF_ORDER, Problem.WRONG_BRANCH]),
])
def test_a_side_card_under_a_main_line_card_left_unread_is_not_taken_for_misplaced(
        main: tuple[str | None, ...], problems: list[Problem]) -> None:
    # given QD rejected under 4C, and a main-line card the camera could not read (a pale card
    # on a white cloth): QD lies nearer that card than any read one
    record = Layout(parse_cards("7H 4C 9D"), (Branch(1, parse_cards("QD"), "Bo"),))
    seen_main = tuple(SeenCard(None if c is None else Card.parse(c), 70.0 * i, 0.0) for i, c in enumerate(main))
    line = LineSight(seen_main, (SeenCard(Card.parse("QD"), 73.0, 120.0),))
    # then nothing is said misplaced that only an unread card hides
    found = [d.problem for d in problems_in_sight(record, None, line) if d.problem is not Problem.MISSING]
    assert found == problems


def test_a_side_card_under_a_main_line_card_not_found_at_all_is_not_checked() -> None:
    # given QD rejected under 4C, and 4C not found at all (no card seen there): QD, in its
    # place under 4C, lies a whole place away from 7H and from 9D
    record = Layout(parse_cards("7H 4C 9D"), (Branch(1, parse_cards("QD"), "Bo"),))
    seen_main = (SeenCard(Card.parse("7H"), 0.0, 0.0), SeenCard(Card.parse("9D"), 140.0, 0.0))
    line = LineSight(seen_main, (SeenCard(Card.parse("QD"), 72.0, 120.0),))
    # then QD is not said to hang under a neighbour (4C and QD are not seen in place: unseen)
    assert {d.problem for d in problems_in_sight(record, None, line)} == {Problem.MISSING}
    # but laid under 9D, straight under it, it is
    line = LineSight(seen_main, (SeenCard(Card.parse("QD"), 141.0, 120.0),))
    assert Problem.WRONG_BRANCH in [d.problem for d in problems_in_sight(record, None, line)]
