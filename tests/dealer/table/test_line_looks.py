"""The line zones are looked at again only where their picture changed (dealer/table/observer.py,
vision/table_read.py, vision/zone_changes.py): a still layout costs no look, a card laid or a
hand crossing is looked at, and a reading stands while its part of the picture is unchanged."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from bench.harness.make_demo import Step, StepRenderer
from calibration.layout import PLACE_MM, ZONE_MAIN_LINE, ZONE_PLAY, default_layout
from dealer.table.layout_watch import LayoutState, layout_look, moving
from dealer.table.observer import TableObserver
from dealer.table.turn_input import LineRecord, LineSight, TableView
from engine.cards import Card, parse_cards
from engine.layout import Layout
from vision.classify import CardReading, FakeClassifier
from vision.pipeline import CardReader, ReaderConfig, ZoneReading
from vision.synthetic import PinholeView
from vision.table_read import UNSETTLED_LOOKS

# from above the table, every zone readable (the round bench's overhead view)
VIEW = PinholeView(tilt_deg=89.0, distance_mm=703.0, target_mm=(132.5, -89.0), yaw_deg=0.5, size_wh=(1920, 1080))
LINE = ("4C", "9H", "2S")


class CountingReader:
    """The dealer's zone reader, counting its looks at each zone."""

    def __init__(self, inner: CardReader) -> None:
        self.inner = inner
        self.reads: Counter[str] = Counter()

    def read_zone(self, crop_bgr: npt.NDArray[np.uint8], crop_to_table: npt.ArrayLike, zone: str,
                  polygon_mm: npt.ArrayLike, token_centres_mm: Iterable[tuple[float, float]] = ()) -> ZoneReading:
        self.reads[zone] += 1
        return self.inner.read_zone(crop_bgr, crop_to_table, zone, polygon_mm, token_centres_mm)


class Sure:
    """A classifier answer that reads every card as 4C while ``sure``, and is unsure of it (its best
    guess another card) once not: a reading that would come and go from look to look."""

    def __init__(self) -> None:
        self.sure = True

    def __call__(self, _image: npt.NDArray[np.uint8], _i: int) -> CardReading:
        return CardReading(Card.parse("4C"), 0.99, best="4C") if self.sure else CardReading.unsure("9H", 0.5)


def _table(answer: Sure | None = None) -> tuple[StepRenderer, TableObserver, CountingReader]:
    renderer = StepRenderer({}, seed=4, view=VIEW, steady_layout=True)
    # every card reads as 4C: a shoe of 8 decks holds them all (C1)
    reader = CountingReader(CardReader(FakeClassifier(answer or Sure()), ReaderConfig(decks=8)))
    return renderer, TableObserver(default_layout(), reader), reader


class Film:
    """Frames a third of a second apart, as the round bench films."""

    def __init__(self, renderer: StepRenderer, observer: TableObserver) -> None:
        self.renderer, self.observer, self.k = renderer, observer, 0

    def views(self, step: Step, frames: int) -> list[TableView]:
        lit = self.renderer.still(step)
        out = []
        for _ in range(frames):
            obs = self.observer.observe(self.renderer.frame(lit), self.k / 3.0, self.k)
            self.k += 1
            assert obs.view is not None and obs.view.line is not None, obs.message
            out.append(obs.view)
        return out

    def show(self, step: Step, frames: int) -> list[LineSight]:
        return [view.line for view in self.views(step, frames) if view.line is not None]


def _read(line: LineSight) -> list[str | None]:
    return [None if c.card is None else str(c.card) for c in sorted(line.main_line or (), key=lambda c: c.x_mm)]


def test_a_still_layout_is_not_looked_at_again() -> None:
    # given the main line laid and seen until its looks settled (a first look, and at most
    # UNSETTLED_LOOKS more while the picture holds)
    renderer, observer, reader = _table()
    film = Film(renderer, observer)
    film.show(Step(line=LINE), 1 + UNSETTLED_LOOKS)
    settled = reader.reads[ZONE_MAIN_LINE]
    # when it lies still for three seconds more
    sights = film.show(Step(line=LINE), 9)
    # then the main line is not looked at again, the play zone is in every frame, and the line
    # reads its three cards all along, never busy
    assert 1 <= settled <= 1 + UNSETTLED_LOOKS
    assert reader.reads[ZONE_MAIN_LINE] == settled
    assert reader.reads[ZONE_PLAY] == 10 + UNSETTLED_LOOKS
    assert all(_read(s) == ["4C"] * 3 and not s.busy for s in sights)


def test_a_card_laid_on_the_line_is_looked_at_and_read() -> None:
    renderer, observer, reader = _table()
    film = Film(renderer, observer)
    film.show(Step(line=LINE), 4)
    before = reader.reads[ZONE_MAIN_LINE]
    # when a fourth card is laid at the line's end
    sights = film.show(Step(line=(*LINE, "KD")), 4)
    # then the line is looked at again and reads four cards, still
    assert reader.reads[ZONE_MAIN_LINE] > before
    assert _read(sights[-1]) == ["4C"] * 4 and not sights[-1].busy


def _arm_to_the_line(film: Film, line: tuple[str, ...]) -> list[TableView]:
    """An arm reaching across the play zone to the main line's next place, resting there a second."""
    zone = np.array(default_layout().zone(ZONE_MAIN_LINE).polygon_mm)
    tip = (float(zone[:, 0].min()) + PLACE_MM * (len(line) + 0.5), float(zone[:, 1].mean()))
    return film.views(Step(line=line, hand=True, arm_tip_mm=tip), 3)


def test_a_hand_crossing_to_the_line_keeps_it_busy_and_nothing_is_said() -> None:
    renderer, observer, reader = _table()
    film = Film(renderer, observer)
    film.show(Step(line=LINE), 4)
    # when an arm reaches across the play zone to the line, rests there, and goes
    arm = _arm_to_the_line(film, LINE)
    after = film.views(Step(line=LINE), 4)
    # then the line is busy while the arm is over it, and the watch, told the cards of a verdict
    # are on their way, says nothing while it is, nor once it has gone (the line as recorded)
    assert all(view.line is not None and view.line.busy for view in arm)
    record = LineRecord(Layout(parse_cards("4C 4C 4C")))  # as the fake classifier reads them
    state = moving(LayoutState(), arm[0].t - 0.1)
    for view in arm + after:
        state, notes = layout_look(state, view, record)
        assert not notes, (view.t, notes)
    line = after[-1].line
    assert line is not None and _read(line) == ["4C"] * 3 and not line.busy


def test_a_card_a_hand_took_from_the_line_is_looked_at_once_the_hand_is_gone() -> None:
    renderer, observer, reader = _table()
    film = Film(renderer, observer)
    film.show(Step(line=LINE), 4)
    before = reader.reads[ZONE_MAIN_LINE]
    # when a hand reaches to the line and takes its last card away
    _arm_to_the_line(film, LINE)
    after = film.show(Step(line=LINE[:2]), 4)
    # then the line is looked at again and reads two cards
    assert reader.reads[ZONE_MAIN_LINE] > before
    assert _read(after[-1]) == ["4C"] * 2 and not after[-1].busy


def test_a_reading_stands_while_its_part_of_the_picture_is_unchanged() -> None:
    # given the main line read sure, and a classifier that is then unsure of every card
    answer = Sure()
    renderer, observer, reader = _table(answer)
    film = Film(renderer, observer)
    film.show(Step(line=LINE), 4)
    answer.sure = False
    # when a card is laid at the line's end, and the line is looked at again
    sights = film.show(Step(line=(*LINE, "KD")), 6)
    # then the three cards whose place did not change keep their reading in every frame, and
    # the new card (read afresh) is unread
    assert all(_read(s)[:3] == ["4C"] * 3 for s in sights if not s.busy)
    assert _read(sights[-1]) == ["4C", "4C", "4C", None]
