"""Layout watch (P4, P5): the table matches the record, or the dealer says what is out of place."""

from __future__ import annotations

import pytest

from calibration.layout import ZONE_MAIN_LINE as MAIN_LINE
from calibration.layout import ZONE_PLAY as PLAY
from calibration.layout import ZONE_SIDE_BRANCHES as SIDE_BRANCHES
from dealer.speech.i18n import use_language
from dealer.speech.layout_words import discrepancy_words, layout_words
from dealer.table.layout_watch import (
    AfterCard,
    AtStart,
    CardMissing,
    Discrepancy,
    ExpectedLayout,
    ExtraCard,
    LayoutRecordError,
    LayoutRight,
    LayoutWrong,
    LeftInPlay,
    LineCard,
    Misplaced,
    ObservedCard,
    OutOfOrder,
    OutOfOrderInBranch,
    OutsideLayout,
    Place,
    Problem,
    ProphetMarkerMissing,
    ProphetMarkerMoved,
    SeenInBranch,
    SeenOnLine,
    SideBranch,
    StillWrong,
    UnderCard,
    check_layout,
)
from dealer.table.protocol import TableView
from dealer.table.turn_input import LineRecord
from engine.cards import Card, parse_cards

STEP = 70.0  # mm between main-line cards
DROP = 35.0  # mm between cards of a side column


def record(main: str, *branches: tuple[int, str], prophet_after: int | None = None) -> ExpectedLayout:
    return ExpectedLayout(parse_cards(main), tuple(SideBranch(a, parse_cards(c)) for a, c in branches),
                          prophet_after)


def laid(main: str, columns: dict[int, str] | None = None, play: str = "", off: str = "") -> list[ObservedCard]:
    """Cards laid by the table's conventions: main line left to right, columns top to bottom."""
    seen = [ObservedCard.at(label, STEP * i, -270.0, MAIN_LINE) for i, label in enumerate(main.split())]
    for anchor, labels in (columns or {}).items():
        seen += [ObservedCard.at(label, STEP * anchor + 3.0, -180.0 + DROP * k, SIDE_BRANCHES)
                 for k, label in enumerate(labels.split())]
    seen += [ObservedCard.at(label, 20.0 + STEP * k, 95.0, PLAY) for k, label in enumerate(play.split())]
    seen += [ObservedCard.at(label, 600.0 + STEP * k, 400.0, None) for k, label in enumerate(off.split())]
    return seen


def card(label: str) -> Card:
    return Card.parse(label)


def on_line(label: str, copy: int | None = None) -> LineCard:
    return LineCard(card(label), copy)


# (case, record, what lies there, what is out of place, by value)
CASES: list[tuple[str, ExpectedLayout, list[ObservedCard], list[Discrepancy]]] = [
    ("seed 11: QD rejected under 7H, 4C 9H accepted",
     record("7H 4C 9H", (0, "QD")), laid("7H 4C 9H", {0: "QD"}), []),
    ("QD left on the main line instead of the side branch",
     record("7H 4C", (0, "QD")), laid("7H QD 4C"), [Misplaced(card("QD"), UnderCard(on_line("7H")), SeenOnLine())]),
    ("a main-line card missing",
     record("7H 4C 9H"), laid("7H 4C"), [CardMissing(card("9H"), AfterCard(on_line("4C")))]),
    ("the first card missing",
     record("7H 4C"), laid("4C"), [CardMissing(card("7H"), AtStart())]),
    ("two main-line cards swapped",
     record("7H 4C 9H"), laid("7H 9H 4C"), [OutOfOrder(card("4C"), AfterCard(on_line("7H")))]),
    ("an accepted card still in the play zone",
     record("7H 4C"), laid("7H", play="4C"), [LeftInPlay(card("4C"), AfterCard(on_line("7H")))]),
    ("an accepted card put in a side branch",
     record("7H 4C"), laid("7H", {0: "4C"}),
     [Misplaced(card("4C"), AfterCard(on_line("7H")), SeenInBranch(on_line("7H")))]),
    ("a side branch under the wrong main-line card",
     record("7H 4C 9H", (1, "QD")), laid("7H 4C 9H", {2: "QD"}),
     [Misplaced(card("QD"), UnderCard(on_line("4C")), SeenInBranch(on_line("9H")))]),
    ("a chain of two rejected cards laid in reverse",
     record("7H 4C", (0, "QD 3S")), laid("7H 4C", {0: "3S QD"}), [OutOfOrderInBranch(card("QD"), on_line("7H"))]),
    ("two branches under one card continue the same column",
     record("7H 4C", (0, "QD"), (0, "2H 5D")), laid("7H 4C", {0: "QD 2H 5D"}), []),
    ("a card the record does not hold lies on the main line",
     record("7H 4C"), laid("7H 4C 5C"), [ExtraCard(card("5C"), on_main_line=True)]),
    ("a new attempt waiting in the play zone is not a discrepancy",
     record("7H 4C"), laid("7H 4C", play="8S 8C"), []),
    ("a record card off every zone",
     record("7H 4C"), laid("7H", off="4C"), [OutsideLayout(card("4C"), AfterCard(on_line("7H")))]),
    ("three copies of 7H (C1): the second one named by its place",
     record("7H 4C 7H 2S 7H", (2, "KD")), laid("7H 4C 7H 2S 7H", {4: "KD"}),
     [Misplaced(card("KD"), UnderCard(on_line("7H", 2)), SeenInBranch(on_line("7H", 3)))]),
]


@pytest.mark.parametrize(("case", "expected", "seen", "problems"), CASES, ids=[c[0] for c in CASES])
def test_given_a_record_and_the_table_when_checked_then_each_discrepancy_is_a_value(
        case: str, expected: ExpectedLayout, seen: list[ObservedCard], problems: list[Discrepancy]) -> None:
    result = check_layout(expected, seen)
    assert list(result.discrepancies) == problems
    assert result.matches == (not problems)


@pytest.mark.parametrize(("belongs", "seen", "problem"), [
    (UnderCard(LineCard(Card.parse("4C"))), SeenInBranch(LineCard(Card.parse("9H"))), Problem.WRONG_BRANCH),
    (UnderCard(LineCard(Card.parse("4C"))), SeenOnLine(), Problem.WRONG_ZONE),
    (AtStart(), SeenInBranch(None), Problem.WRONG_ZONE),
])
def test_a_misplaced_card_is_in_the_wrong_branch_only_when_it_hangs_under_another_card(
        belongs: Place, seen: SeenOnLine | SeenInBranch, problem: Problem) -> None:
    assert Misplaced(Card.parse("QD"), belongs, seen).problem is problem


# a few of them in the players' words, in each language (dealer/speech/layout_words.py)
WORDS = [
    (CASES[1][3][0], {
        "en": "QD should be in the side branch under 7H, it is on the main line.",
        "ru": "Карта QD должна лежать в боковой ветви под 7H, а лежит в основной линии.",
        "pt": "A carta QD devia estar na linha lateral por baixo de 7H, mas está na linha principal."}),
    (CASES[3][3][0], {"en": "7H is missing: it belongs at the start of the main line.",
                      "pt": "Falta a carta 7H: o lugar dela é no início da linha principal."}),
    (CASES[5][3][0], {"en": "4C is still in the play zone: it belongs on the main line after 7H.",
                      "ru": "Карта 4C всё ещё в игровой зоне: её место — в основной линии после 7H.",
                      "pt": "A carta 4C ainda está na zona de jogo: o lugar dela é na linha principal a seguir a 7H."}),
    (CASES[6][3][0], {"en": "4C should be on the main line after 7H, it is in a side branch."}),
    (CASES[7][3][0], {"en": "QD should be in the side branch under 4C, it is under 9H."}),
    (CASES[8][3][0], {"en": "QD is out of order in the side branch under 7H: the branch reads top to bottom in the "
                            "order played."}),
    (CASES[10][3][0], {"en": "5C lies on the main line, but the record has no 5C there: take it away."}),
    (CASES[13][3][0], {"en": "KD should be in the side branch under the 2nd 7H, it is under the 3rd 7H.",
                       "ru": "Карта KD должна лежать в боковой ветви под 7H №2, а лежит под 7H №3.",
                       "pt": "A carta KD devia estar na linha lateral por baixo de 7H número 2, mas está por baixo de "
                             "7H número 3."}),
]


def test_the_words_modules_examples_hold() -> None:
    import doctest

    from dealer.speech import layout_words as module

    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize(("problem", "said"), WORDS, ids=[type(w[0]).__name__ for w in WORDS])
def test_each_discrepancy_is_said_from_the_catalogs(problem: Discrepancy, said: dict[str, str]) -> None:
    for language, sentence in said.items():
        with use_language(language):
            assert discrepancy_words(problem) == sentence


def test_given_a_shuffled_observation_order_then_the_result_is_the_same() -> None:
    expected = record("7H 4C 9H", (0, "QD 3S"))
    seen = laid("7H 4C 9H", {0: "QD 3S"})
    assert check_layout(expected, list(reversed(seen))).matches


@pytest.mark.parametrize(
    ("token_x", "problems", "message"),
    [
        (1.5 * STEP, [], None),  # between 4C (index 1) and 9H
        (None, [ProphetMarkerMissing(LineCard(Card.parse("4C")))],
         "The PROPHET token is not on the table: lay it on the main line just after 4C."),
        (0.5 * STEP, [ProphetMarkerMoved(LineCard(Card.parse("4C")))],
         "The PROPHET token has moved: it belongs on the main line just after 4C."),
    ],
)
def test_given_a_prophet_marker_in_the_record_then_its_token_is_checked(
        token_x: float | None, problems: list[Discrepancy], message: str | None) -> None:
    result = check_layout(record("7H 4C 9H", prophet_after=1), laid("7H 4C 9H"), prophet_token_x_mm=token_x)
    assert list(result.discrepancies) == problems
    assert [discrepancy_words(d) for d in result.discrepancies] == ([] if message is None else [message])


@pytest.mark.parametrize(
    ("main", "branches", "prophet_after", "needle"),
    [
        ("7H", ((1, "QD"),), None, "main line has 1 cards"),
        ("7H", ((0, ""),), None, "has no cards"),
        ("7H 4C", (), 2, "prophet"),
    ],
)
def test_given_an_impossible_record_then_it_is_refused(main: str, branches: tuple[tuple[int, str], ...],
                                                        prophet_after: int | None, needle: str) -> None:
    with pytest.raises(LayoutRecordError, match=needle):
        record(main, *branches, prophet_after=prophet_after)


@pytest.mark.parametrize(("marker", "prophet_after"), [(None, None), (3, 2)])
def test_given_the_engines_layout_then_it_becomes_the_expected_layout(marker: int | None,
                                                                       prophet_after: int | None) -> None:
    from engine.layout import Branch, Layout

    engine_layout = Layout(main=parse_cards("7H 4C 9H"), branches=(Branch(0, parse_cards("QD 3S"), "Ana"),))
    expected = ExpectedLayout.from_engine(engine_layout, marker)
    assert expected == record("7H 4C 9H", (0, "QD 3S"), prophet_after=prophet_after)
    assert check_layout(expected, laid("7H 4C 9H", {0: "QD 3S"}), prophet_token_x_mm=2.5 * STEP).matches


def test_at_the_mat_edge_only_the_places_not_folded_are_expected_on_the_table() -> None:
    # given a main line of 9 cards with the PROPHET token after the 6th (10 places, F2):
    # the oldest 4 places went to the pile beside the mat, with the branch under 2H
    from dealer.table.layout_watch import expected_on_table
    from engine.layout import Branch, Layout

    main = parse_cards("AC 2H 3C 4H 5C 6H 7C 8H 9C")
    layout = Layout(main, (Branch(1, parse_cards("KD"), "Ana"), Branch(6, parse_cards("QS"), "Bo")))
    on_table = expected_on_table(layout, 6)
    assert on_table.main_line == parse_cards("5C 6H 7C 8H 9C")
    assert on_table.branches == (SideBranch(2, parse_cards("QS")),)
    assert on_table.prophet_after == 1  # still just after 6H
    # and with the token among the folded places, no marker is expected on the mat
    assert expected_on_table(Layout(main[:8]), 3) == record("4H 5C 6H 7C 8H")


def _record(main: str, *branches: tuple[int, str]) -> LineRecord:
    """The round's record the watch compares the table with: its layout (no prophet's marker)."""
    from engine.layout import Branch, Layout

    return LineRecord(Layout(parse_cards(main), tuple(Branch(a, parse_cards(c), "Ana") for a, c in branches)))


def _line(t: float, main: str, side: dict[float, str] | None = None) -> TableView:
    from dealer.table.protocol import LineSight, SeenCard

    seen_main = tuple(SeenCard(c, i * STEP, 0.0) for i, c in enumerate(parse_cards(main)))
    seen_side = tuple(SeenCard(c, x, 120.0 + 20.0 * k) for x, cards in (side or {}).items()
                      for k, c in enumerate(parse_cards(cards)))
    return TableView(t, line=LineSight(seen_main, seen_side))


def test_the_watch_is_a_value_and_tells_misplacements_apart_by_value_not_by_words() -> None:
    from dealer.table.layout_watch import LayoutState, layout_look, moving
    # given Bo's QD rejected under 7H, the line 7H 4C, and the players who put QD on the main line
    rnd = _record("7H 4C", (0, "QD"))
    start = moving(LayoutState(), 0.0)
    state, notes = layout_look(start, _line(0.5, "7H QD 4C"), rnd)
    assert notes is None and start == moving(LayoutState(), 0.0)  # nothing it was given changed
    state, notes = layout_look(state, _line(2.0, "7H QD 4C"), rnd)
    assert state.holding is not None and tuple(d.card for d in state.holding) == parse_cards("QD")
    qd_on_line = Misplaced(card("QD"), UnderCard(on_line("7H")), SeenOnLine())
    assert notes == [LayoutWrong((qd_on_line,))]
    assert layout_words(notes[0]) == ("The layout does not match: QD should be in the side branch under 7H, it is on "
                                      "the main line. Move it, or press o to go on as it lies.")
    # the same misplacement seen again says nothing new
    state, notes = layout_look(state, _line(4.0, "7H QD 4C"), rnd)
    assert notes == []
    # QD moved, but under 4C instead of 7H: a new misplacement of the same card, said
    state, notes = layout_look(state, _line(5.0, "7H 4C", {STEP: "QD"}), rnd)
    state, notes = layout_look(state, _line(6.5, "7H 4C", {STEP: "QD"}), rnd)
    assert notes == [StillWrong((Misplaced(card("QD"), UnderCard(on_line("7H")), SeenInBranch(on_line("4C"))),))]
    assert layout_words(notes[0]) == "Still out of place: QD should be in the side branch under 7H, it is under 4C."
    # and put right, the turn goes on (the line zones read the same cards: they held)
    state, notes = layout_look(state, _line(7.0, "7H 4C", {0.0: "QD"}), rnd)
    assert state.holding is None and notes == [LayoutRight()]
    with use_language("pt"):
        assert layout_words(notes[0]) == "A mesa está outra vez certa."
