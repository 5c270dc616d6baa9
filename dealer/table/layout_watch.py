"""Layout watch: does what lies on the table match the dealer's record of the layout (P5)?

After each verdict the players move the cards (P3: to the end of the main line; P4: the
whole attempt below the line end as one side branch). The dealer compares what the
camera sees with its record and tells what is out of place, instead of judging the next
attempt on a wrong picture.

Plain data in, plain data out. Conventions of the table (docs/playing-at-the-table.md):
the main line runs left to right in the main-line zone; a side branch hangs below the
main-line card that was the line end when it was laid, top to bottom in the order
played, and a later branch under the same card continues that column further down.
Cards in the play zone or off every zone that the record does not hold are ignored (a
new attempt may already be on its way); cards the record holds are reported wherever
they are.

>>> from engine.cards import parse_cards
>>> record = ExpectedLayout(parse_cards("7H 4C"), (SideBranch(0, parse_cards("QD")),))
>>> seen = [ObservedCard.at("7H", 0, 0, ZONE_MAIN_LINE), ObservedCard.at("QD", 70, 0, ZONE_MAIN_LINE),
...         ObservedCard.at("4C", 140, 0, ZONE_MAIN_LINE)]
>>> check_layout(record, seen).discrepancies == (Misplaced(Card.parse("QD"), UnderCard(LineCard(Card.parse("7H"))),
...                                                           SeenOnLine()),)
True

Everything said is a value with its parameters; the sentences are made at the outlets, from
the gettext catalogs (dealer/speech/layout_words.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from calibration.layout import PLACE_MM, ZONE_MAIN_LINE, ZONE_PLAY, ZONE_SIDE_BRANCHES, main_line_folded
from dealer.table.layout_problems import (
    AfterCard,
    AtStart,
    CardMissing,
    Discrepancy,
    ExtraCard,
    GoingOnAsItLies,
    LayoutNote,
    LayoutRight,
    LayoutWrong,
    LeftInPlay,
    LineCard,
    Misplaced,
    OutOfOrder,
    OutOfOrderInBranch,
    OutsideLayout,
    Place,
    Problem,
    ProphetMarkerMissing,
    ProphetMarkerMoved,
    SeenInBranch,
    SeenOnLine,
    StillWrong,
    UnderCard,
)
from dealer.table.turn_input import LineRecord, LineSight, TableToken, TableView
from dealer.table.steady import Steady
from engine.cards import Card
from engine.layout import Layout

__all__ = [
    "AfterCard",
    "AtStart",
    "CardMissing",
    "Discrepancy",
    "ExpectedLayout",
    "ExtraCard",
    "GoingOnAsItLies",
    "LayoutCheck",
    "LayoutNote",
    "LayoutRecordError",
    "LayoutRight",
    "LayoutState",
    "LayoutWrong",
    "LeftInPlay",
    "LineCard",
    "Misplaced",
    "ObservedCard",
    "OutOfOrder",
    "OutOfOrderInBranch",
    "OutsideLayout",
    "Place",
    "Problem",
    "ProphetMarkerMissing",
    "ProphetMarkerMoved",
    "SeenInBranch",
    "SeenOnLine",
    "SideBranch",
    "StillWrong",
    "UnderCard",
    "check_layout",
    "go_on",
    "layout_look",
    "moving",
]



class LayoutRecordError(ValueError):
    """An expected layout that cannot be: a side branch under a card the line does not have."""


@dataclass(frozen=True, slots=True)
class SideBranch:
    """One rejected attempt (P4), laid under the main-line card ``after_index`` (0-based)."""

    after_index: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class ExpectedLayout:
    """The dealer's record: the main line in order, the side branches in the order laid,
    and where the prophet's marker lies (after main-line card ``prophet_after``, F2)."""

    main_line: tuple[Card, ...]
    branches: tuple[SideBranch, ...] = ()
    prophet_after: int | None = None

    def __post_init__(self) -> None:
        for k, branch in enumerate(self.branches):
            if not 0 <= branch.after_index < len(self.main_line):
                raise LayoutRecordError(
                    f"side branch {k + 1} hangs under main-line card {branch.after_index}, but the "
                    f"main line has {len(self.main_line)} cards")
            if not branch.cards:
                raise LayoutRecordError(f"side branch {k + 1} has no cards")
        if self.prophet_after is not None and not 0 <= self.prophet_after < len(self.main_line):
            raise LayoutRecordError(
                f"the prophet's marker lies after main-line card {self.prophet_after}, but the main "
                f"line has {len(self.main_line)} cards")

    @classmethod
    def from_engine(cls, layout: Layout, marker: int | None = None) -> ExpectedLayout:
        """The round engine's layout; ``marker`` is the main line's length when the prophet
        took office (F2), so the PROPHET token lies after card ``marker - 1``."""
        branches = tuple(SideBranch(b.anchor, b.cards) for b in layout.branches)
        return cls(layout.main, branches, None if not marker else marker - 1)


@dataclass(frozen=True, slots=True)
class ObservedCard:
    """A card read on the table: its centre in table mm and the zone holding it (or None)."""

    card: Card
    x_mm: float
    y_mm: float
    zone: str | None

    @classmethod
    def at(cls, label: str, x_mm: float, y_mm: float, zone: str | None) -> ObservedCard:
        return cls(Card.parse(label), float(x_mm), float(y_mm), zone)


@dataclass(frozen=True, slots=True)
class LayoutCheck:
    discrepancies: tuple[Discrepancy, ...]

    @property
    def matches(self) -> bool:
        return not self.discrepancies


# -- the record's slots ------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Slot:
    card: Card
    main_index: int | None  # on the main line
    anchor: int | None  # in the side column under this main-line index
    column_pos: int | None = None


class _Names:
    """Names places on the record the way players say them."""

    def __init__(self, expected: ExpectedLayout) -> None:
        self.main = expected.main_line

    def card_on_line(self, index: int) -> LineCard:
        card = self.main[index]
        copies = [i for i, c in enumerate(self.main) if c == card]
        return LineCard(card, None if len(copies) == 1 else copies.index(index) + 1)

    def place(self, slot: _Slot) -> Place:
        if slot.main_index is not None:
            return AtStart() if slot.main_index == 0 else AfterCard(self.card_on_line(slot.main_index - 1))
        assert slot.anchor is not None
        return UnderCard(self.card_on_line(slot.anchor))


def _lcs_pairs(a: Sequence[Card], b: Sequence[Card]) -> list[tuple[int, int]]:
    """Index pairs of a longest common subsequence of two card sequences."""
    n, m = len(a), len(b)
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            table[i][j] = table[i + 1][j + 1] + 1 if a[i] == b[j] else max(table[i + 1][j], table[i][j + 1])
    pairs, i, j = [], 0, 0
    while i < n and j < m:
        if a[i] == b[j]:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    return pairs


# a side card hangs under the main-line card seen nearest it only when that card lies within
# this of it across the line (a column hangs straight under its card, places are PLACE_MM apart):
# farther, the card above it was not found at all, and its column is not known
COLUMN_REACH_MM = 0.5 * PLACE_MM


def check_layout(expected: ExpectedLayout, observed: Sequence[ObservedCard],
                 prophet_token_x_mm: float | None = None, unread_main_x_mm: Sequence[float] = ()) -> LayoutCheck:
    """Compare the record with the cards seen; an empty result means the table matches.

    ``prophet_token_x_mm`` is where the PROPHET token was seen (None: not seen); it is
    checked only when the record has a prophet's marker. ``unread_main_x_mm``: where cards
    lie on the main line that were not read; a side card nearest one of them hangs under it,
    under a record place only when the read cards beside it leave room for exactly that one
    (:func:`_unread_places`), else its column is not known and it is not checked.
    """
    names = _Names(expected)
    slots_main = [_Slot(c, i, None) for i, c in enumerate(expected.main_line)]
    columns: dict[int, list[_Slot]] = {}
    for branch in expected.branches:
        col = columns.setdefault(branch.after_index, [])
        for card in branch.cards:
            col.append(_Slot(card, None, branch.after_index, len(col)))

    obs_main = sorted((o for o in observed if o.zone == ZONE_MAIN_LINE), key=lambda o: o.x_mm)
    obs_side = [o for o in observed if o.zone == ZONE_SIDE_BRANCHES]
    obs_other = [o for o in observed if o.zone not in (ZONE_MAIN_LINE, ZONE_SIDE_BRANCHES)]

    matched_slots: set[int] = set()  # id() of slots
    matched_obs: set[int] = set()  # id() of observations
    problems: list[Discrepancy] = []

    # 1. the main line: the longest run in the record's order is in place
    main_pairs = _lcs_pairs([s.card for s in slots_main], [o.card for o in obs_main])
    obs_to_index: dict[int, int] = {}
    for si, oi in main_pairs:
        matched_slots.add(id(slots_main[si]))
        matched_obs.add(id(obs_main[oi]))
        obs_to_index[oi] = si

    # 2. side columns: each side card hangs under the nearest main-line card (by x), read or not
    side_cols: dict[int | None, list[ObservedCard]] = {}
    places = _unread_places(obs_main, obs_to_index, unread_main_x_mm, len(expected.main_line))
    unknown: list[ObservedCard] = []  # under an unread card whose place is not known: not checked
    for o in obs_side:
        anchor: int | None = None
        if places:
            x, anchor, read = min(places, key=lambda p: abs(p[0] - o.x_mm))
            if (not read and anchor is None) or abs(x - o.x_mm) > COLUMN_REACH_MM:
                unknown.append(o)  # under no card seen (one not found at all), or one whose place is not known
                continue
        side_cols.setdefault(anchor, []).append(o)
    obs_side = [o for o in obs_side if all(o is not u for u in unknown)]
    for seen_column in side_cols.values():
        seen_column.sort(key=lambda o: o.y_mm)
    for anchor_index, slots in columns.items():
        seen_col = side_cols.get(anchor_index, [])
        pairs = _lcs_pairs([s.card for s in slots], [o.card for o in seen_col])
        for si, oi in pairs:
            matched_slots.add(id(slots[si]))
            matched_obs.add(id(seen_col[oi]))

    # 3. what is left: the same card elsewhere is misplaced; otherwise missing or extra
    all_slots = slots_main + [s for a in sorted(columns) for s in columns[a]]
    left_obs = [o for o in obs_main + obs_side + obs_other if id(o) not in matched_obs]
    obs_anchor = {id(o): a for a, col in side_cols.items() for o in col}
    for slot in all_slots:
        if id(slot) in matched_slots:
            continue
        found = next((o for o in left_obs if o.card == slot.card), None)
        if found is None:
            problems.append(CardMissing(slot.card, names.place(slot)))
            continue
        left_obs.remove(found)
        problems.append(_misplaced(slot, found, obs_anchor.get(id(found)), names))

    for o in left_obs:
        if o.zone in (ZONE_MAIN_LINE, ZONE_SIDE_BRANCHES):
            problems.append(ExtraCard(o.card, on_main_line=o.zone == ZONE_MAIN_LINE))

    if expected.prophet_after is not None:
        problems.extend(_check_prophet(expected.prophet_after, prophet_token_x_mm, obs_main, obs_to_index, names))
    return LayoutCheck(tuple(problems))


def _unread_places(obs_main: Sequence[ObservedCard], obs_to_index: dict[int, int], unread_x: Sequence[float],
                   main_len: int) -> list[tuple[float, int | None, bool]]:
    """Each main-line card seen, by x: (x, its record place or None, read). An unread card's
    place is known when the read cards beside it on the table hold the record places just
    before and after it (or it is the line's first or last, next to the read card beside it)."""
    places = sorted([(o.x_mm, obs_to_index.get(k), True) for k, o in enumerate(obs_main)]
                    + [(float(x), None, False) for x in unread_x], key=lambda p: p[0])
    out = []
    for k, (x, index, read) in enumerate(places):
        if not read:
            before = places[k - 1][1] if k > 0 and places[k - 1][2] else None
            after = places[k + 1][1] if k + 1 < len(places) and places[k + 1][2] else None
            if before is not None and (after == before + 2 or (k + 1 == len(places) and before + 2 == main_len)):
                index = before + 1
            elif after is not None and k == 0 and after == 1:
                index = 0
        out.append((x, index, read))
    return out


def _misplaced(slot: _Slot, found: ObservedCard, found_anchor: int | None, names: _Names) -> Discrepancy:
    card, should = slot.card, names.place(slot)
    if found.zone == ZONE_PLAY:
        return LeftInPlay(card, should)
    if found.zone not in (ZONE_MAIN_LINE, ZONE_SIDE_BRANCHES):
        return OutsideLayout(card, should)
    if found.zone == ZONE_MAIN_LINE:
        return OutOfOrder(card, should) if slot.main_index is not None else Misplaced(card, should, SeenOnLine())
    under = None if found_anchor is None else names.card_on_line(found_anchor)
    if slot.anchor is not None and found_anchor == slot.anchor:
        return OutOfOrderInBranch(card, names.card_on_line(slot.anchor))
    return Misplaced(card, should, SeenInBranch(under))


def _check_prophet(after: int, token_x: float | None, obs_main: list[ObservedCard],
                   obs_to_index: dict[int, int], names: _Names) -> list[Discrepancy]:
    if token_x is None:
        return [ProphetMarkerMissing(names.card_on_line(after))]
    left = next((o.x_mm for k, o in enumerate(obs_main) if obs_to_index.get(k) == after), None)
    right = next((o.x_mm for k, o in enumerate(obs_main) if obs_to_index.get(k) == after + 1), None)
    if (left is not None and token_x < left) or (right is not None and token_x > right):
        return [ProphetMarkerMoved(names.card_on_line(after))]
    return []


# -- the watch during a round --------------------------------------------------------------
# Problems a misread or an undetected card can cause are never said as wrong: a card not
# seen is not missing (it may be unreadable from here, or still in a hand), and the
# PROPHET token is only a reminder (the dealer keeps the marker in its record, F2).
_REAL = frozenset({Problem.EXTRA, Problem.WRONG_ZONE, Problem.WRONG_BRANCH, Problem.OUT_OF_ORDER})


def expected_on_table(layout: Layout, marker: int | None) -> ExpectedLayout:
    """The part of the record that lies on the mat: when the main line reached the mat's
    edge, its older places (cards and the PROPHET token, with their side branches) were
    folded onto a pile beside it (calibration.layout.main_line_folded)."""
    expected = ExpectedLayout.from_engine(layout, marker)
    token = expected.prophet_after
    places = len(expected.main_line) + (token is not None)
    folded = main_line_folded(places)
    if not folded:
        return expected
    token_folded = token is not None and token + 1 < folded  # the token's place is token + 1
    gone = folded - (1 if token_folded else 0)  # main-line cards on the pile
    branches = tuple(SideBranch(b.after_index - gone, b.cards) for b in expected.branches if b.after_index >= gone)
    after = None if token is None or token_folded or token - gone < 0 else token - gone
    return ExpectedLayout(expected.main_line[gone:], branches, after)


def problems_in_sight(layout: Layout, marker: int | None, line: LineSight) -> list[Discrepancy]:
    """What the camera shows out of place on the main line and side branches (P5), from
    the zones it can read; [] when nothing readable is wrong."""
    if line.main_line is None:
        return []  # side branches hang under main-line cards: nothing to check against
    expected = expected_on_table(layout, marker)
    observed = [ObservedCard(c.card, c.x_mm, c.y_mm, ZONE_MAIN_LINE) for c in line.main_line if c.card]
    if line.side_branches is None:  # unreadable from here: the branches are not checked
        expected = ExpectedLayout(expected.main_line, (), expected.prophet_after)
    else:
        observed += [ObservedCard(c.card, c.x_mm, c.y_mm, ZONE_SIDE_BRANCHES) for c in line.side_branches if c.card]
        if len(observed) > len(expected.main_line) + sum(len(b.cards) for b in expected.branches) + 3:
            return []  # many more cards than the record: not the layout (a hand dropped, a second deck)
    token_x = None if line.prophet_token_mm is None else line.prophet_token_mm[0]
    unread = [c.x_mm for c in line.main_line if c.card is None]
    return list(check_layout(expected, observed, token_x, unread).discrepancies)


_LinePicture = tuple[tuple[Card | None, ...], tuple[Card | None, ...]]  # the main line, the side branches

# the line zones stay unchanged this long (seconds) before the cards count as placed
PLACED_S = 1.0
# a move not seen complete after this long (seconds) is checked as it lies
MOVE_TIMEOUT_S = 8.0


@dataclass(frozen=True, slots=True)
class LayoutState:
    """The layout watch as a value: since when the cards of a verdict are on their way
    (``due``; None: nothing is moving), how long the line zones have held (``clock``, the
    table's one clock), and the misplacements said while the turn is held (``holding``)."""

    due: Steady[None] | None = None
    clock: Steady[_LinePicture] = Steady(0.0, ((), ()))
    holding: tuple[Discrepancy, ...] | None = None


def _line_picture(line: LineSight) -> _LinePicture:
    return tuple(c.card for c in line.main_line or ()), tuple(c.card for c in line.side_branches or ())


def _same(a: Sequence[Discrepancy], b: Sequence[Discrepancy]) -> bool:
    """No misplacement in ``a`` that ``b`` has not: by value, what is wrong with which card
    and where it was seen."""
    return set(a) <= set(b)


def moving(state: LayoutState, t: float) -> LayoutState:
    """A verdict was given at ``t``: the players now move the cards to the layout (P3, P4)."""
    return replace(state, due=Steady(t, None), clock=Steady(t, ((), ())))


def layout_look(state: LayoutState, view: TableView, record: LineRecord, marker_said: bool = False
                ) -> tuple[LayoutState, list[LayoutNote] | None]:
    """One frame: None, the turn goes on; a list (maybe empty), what to say now, and the
    turn is held. ``marker_said``: where the PROPHET token belongs was said already."""
    line = view.line
    if state.holding is not None:
        return _while_holding(state, view, record)
    if state.due is None or line is None:
        return state, None
    picture = _line_picture(line)
    busy = line.busy or bool(view.play_cards) or view.hand_over_play
    clock = Steady(view.t, picture) if busy else state.clock.seeing(picture, view.t)
    waited = state.due.held(view.t, MOVE_TIMEOUT_S)
    changed = clock is not state.clock
    state = replace(state, clock=clock)
    if changed and not waited:
        return state, None  # the cards are still on their way
    laid = len(line.main_line or ()) + len(line.side_branches or ())
    on_table = expected_on_table(record.layout, record.marker)
    due = len(on_table.main_line) + (0 if line.side_branches is None else
                                     sum(len(b.cards) for b in on_table.branches))
    if not waited and (not clock.held(view.t, PLACED_S) or laid < due):
        return state, None  # not every card has reached its place yet (P3, P4)
    state = replace(state, due=None)
    problems = problems_in_sight(record.layout, record.marker, line)
    real = tuple(d for d in problems if d.problem in _REAL)
    out: list[LayoutNote] = [] if marker_said else [
        d for d in problems if isinstance(d, (ProphetMarkerMissing, ProphetMarkerMoved))]
    if real:
        return replace(state, holding=real), [*out, LayoutWrong(real)]
    return state, out or None


def go_on(state: LayoutState) -> tuple[LayoutState, LayoutNote | None]:
    """The players go on with the layout as it lies (key o): said, and the turn no longer held."""
    if state.holding is None:
        return state, None
    return replace(state, holding=None), GoingOnAsItLies()


def _while_holding(state: LayoutState, view: TableView, record: LineRecord) -> tuple[LayoutState, list[LayoutNote]]:
    if TableToken.ACCEPT in view.tokens_in_play and not view.play_cards:
        return replace(state, holding=None), [GoingOnAsItLies()]
    line = view.line
    if line is None:
        return state, []
    picture = _line_picture(line)
    clock = Steady(view.t, picture) if line.busy or view.hand_over_play else state.clock.seeing(picture, view.t)
    state = replace(state, clock=clock)
    if not clock.held(view.t, PLACED_S):
        return state, []  # a card being moved, or a reading that flickers: wait until it holds
    real = tuple(d for d in problems_in_sight(record.layout, record.marker, line) if d.problem in _REAL)
    if not real:
        return replace(state, holding=None), [LayoutRight()]
    if not _same(real, state.holding or ()):
        return replace(state, holding=real), [StillWrong(real)]
    return state, []
