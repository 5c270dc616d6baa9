"""Layout watch: does what lies on the table match the dealer's record of the layout (P5)?

After each verdict the players move the cards (P3: to the end of the main line; P4: the
whole attempt below the line end as one side branch). The dealer compares what the
camera sees with its record and says, in words a player understands, what is out of
place, instead of judging the next attempt on a wrong picture.

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
>>> check_layout(record, seen).messages()
['QD should be in the side branch under 7H, it is on the main line.']
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Sequence
from dataclasses import dataclass, replace

from calibration.layout import ZONE_MAIN_LINE, ZONE_PLAY, ZONE_SIDE_BRANCHES, main_line_folded
from dealer.speech.i18n import N_, _
from dealer.table.turn_input import LineRecord, LineSight, TableToken, TableView
from dealer.table.steady import Steady
from engine.cards import Card
from engine.layout import Layout

__all__ = [
    "Discrepancy",
    "ExpectedLayout",
    "LayoutCheck",
    "LayoutNote",
    "LayoutRecordError",
    "LayoutState",
    "ObservedCard",
    "Problem",
    "SideBranch",
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


class Problem(enum.Enum):
    MISSING = "missing"
    EXTRA = "extra"
    WRONG_ZONE = "wrong zone"  # main line <-> side branch, or still in the play zone / off the layout
    WRONG_BRANCH = "wrong branch"  # in a side branch, but under another main-line card
    OUT_OF_ORDER = "out of order"  # in the right line or column, in the wrong place
    PROPHET_MARKER = "prophet marker"


@dataclass(frozen=True, slots=True)
class Discrepancy:
    """What is wrong with which card; ``found_zone`` and ``found_under`` (a main-line index)
    say where a misplaced card was seen, so that two discrepancies are told apart by value."""

    problem: Problem
    card: Card | None
    message: str
    found_zone: str | None = None
    found_under: int | None = None


@dataclass(frozen=True, slots=True)
class LayoutCheck:
    discrepancies: tuple[Discrepancy, ...]

    @property
    def matches(self) -> bool:
        return not self.discrepancies

    def messages(self) -> list[str]:
        return [d.message for d in self.discrepancies]


# -- the record's slots ------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Slot:
    card: Card
    main_index: int | None  # on the main line
    anchor: int | None  # in the side column under this main-line index
    column_pos: int | None = None


def _ordinal_suffix(n: int) -> str:
    return "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


class _Words:
    """Names places on the record the way players say them."""

    def __init__(self, expected: ExpectedLayout) -> None:
        self.main = expected.main_line

    def card_on_line(self, index: int) -> str:
        card = self.main[index]
        copies = [i for i, c in enumerate(self.main) if c == card]
        if len(copies) == 1:
            return str(card)
        n = copies.index(index) + 1  # {suffix_}: English only (a translation writes "QS №2")
        return _("the {n}{suffix_} {card}", n=n, suffix_=_ordinal_suffix(n), card=card)

    def place(self, slot: _Slot) -> str:
        if slot.main_index is not None:
            if slot.main_index == 0:
                return _("at the start of the main line")
            return _("on the main line after {card}", card=self.card_on_line(slot.main_index - 1))
        assert slot.anchor is not None
        return _("in the side branch under {card}", card=self.card_on_line(slot.anchor))


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


def check_layout(expected: ExpectedLayout, observed: Sequence[ObservedCard],
                 prophet_token_x_mm: float | None = None) -> LayoutCheck:
    """Compare the record with the cards seen; an empty result means the table matches.

    ``prophet_token_x_mm`` is where the PROPHET token was seen (None: not seen); it is
    checked only when the record has a prophet's marker.
    """
    words = _Words(expected)
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

    # 2. side columns: each side card hangs under the nearest main-line card (by x)
    side_cols: dict[int | None, list[ObservedCard]] = {}
    for o in obs_side:
        anchor: int | None = None
        if obs_main:
            nearest = min(range(len(obs_main)), key=lambda k: abs(obs_main[k].x_mm - o.x_mm))
            anchor = obs_to_index.get(nearest)
        side_cols.setdefault(anchor, []).append(o)
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
    disordered_columns: set[int] = set()
    for slot in all_slots:
        if id(slot) in matched_slots:
            continue
        found = next((o for o in left_obs if o.card == slot.card), None)
        if found is None:
            problems.append(Discrepancy(Problem.MISSING, slot.card, _("{card} is missing: it belongs {place}.",
                                                                      card=slot.card, place=words.place(slot))))
            continue
        left_obs.remove(found)
        anchor = obs_anchor.get(id(found))
        problems.append(dataclasses.replace(_misplaced(slot, found, anchor, words, disordered_columns),
                                            found_zone=found.zone, found_under=anchor))

    for o in left_obs:
        if o.zone in (ZONE_MAIN_LINE, ZONE_SIDE_BRANCHES):
            where = _("on the main line") if o.zone == ZONE_MAIN_LINE else _("among the side branches")
            problems.append(Discrepancy(Problem.EXTRA, o.card,
                                        _("{card} lies {where}, but the record has no {card} there: take it away.",
                                          card=o.card, where=where)))

    if expected.prophet_after is not None:
        problems.extend(_check_prophet(expected.prophet_after, prophet_token_x_mm, obs_main, obs_to_index, words))
    return LayoutCheck(tuple(problems))


def _misplaced(slot: _Slot, found: ObservedCard, found_anchor: int | None, words: _Words,
               disordered_columns: set[int]) -> Discrepancy:
    card, should = slot.card, words.place(slot)
    if found.zone == ZONE_PLAY:
        return Discrepancy(Problem.WRONG_ZONE, card, f"{card} is still in the play zone: it belongs {should}.")
    if found.zone not in (ZONE_MAIN_LINE, ZONE_SIDE_BRANCHES):
        return Discrepancy(Problem.WRONG_ZONE, card, _("{card} lies outside the layout: it belongs {place}.",
                                                       card=card, place=should))
    if slot.main_index is not None:
        if found.zone == ZONE_MAIN_LINE:
            return Discrepancy(Problem.OUT_OF_ORDER, card,
                               _("{card} is out of order on the main line: it belongs {place}.", card=card, place=should))
        return Discrepancy(Problem.WRONG_ZONE, card,
                           _("{card} should be {place}, it is in a side branch.", card=card, place=should))
    assert slot.anchor is not None
    if found.zone == ZONE_MAIN_LINE:
        return Discrepancy(Problem.WRONG_ZONE, card,
                           _("{card} should be {place}, it is on the main line.", card=card, place=should))
    if found_anchor == slot.anchor:
        disordered_columns.add(slot.anchor)
        return Discrepancy(Problem.OUT_OF_ORDER, card,
                           _("{card} is out of order in the side branch under {anchor}: the branch reads top to "
                             "bottom in the order played.", card=card, anchor=words.card_on_line(slot.anchor)))
    under = _("under a card the record does not place") if found_anchor is None else \
        _("under {card}", card=words.card_on_line(found_anchor))
    return Discrepancy(Problem.WRONG_BRANCH, card,
                       _("{card} should be {place}, it is {under}.", card=card, place=should, under=under))


def _check_prophet(after: int, token_x: float | None, obs_main: list[ObservedCard],
                   obs_to_index: dict[int, int], words: _Words) -> list[Discrepancy]:
    place = _("on the main line just after {card}", card=words.card_on_line(after))
    if token_x is None:
        return [Discrepancy(Problem.PROPHET_MARKER, None,
                            _("The PROPHET token is not on the table: lay it {place}.", place=place))]
    left = next((o.x_mm for k, o in enumerate(obs_main) if obs_to_index.get(k) == after), None)
    right = next((o.x_mm for k, o in enumerate(obs_main) if obs_to_index.get(k) == after + 1), None)
    if (left is not None and token_x < left) or (right is not None and token_x > right):
        return [Discrepancy(Problem.PROPHET_MARKER, None,
                            _("The PROPHET token has moved: it belongs {place}.", place=place))]
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
    return list(check_layout(expected, observed, token_x).discrepancies)


@dataclass(frozen=True, slots=True)
class LayoutNote:
    """One thing the layout watch says; ``trouble``: something is (or was) out of place, as
    opposed to the layout being right again."""

    text: str
    trouble: bool = True
    marker: bool = False  # where the PROPHET token belongs (said once: the turn's ProphetToken.reminded)


_LinePicture = tuple[tuple[Card | None, ...], tuple[Card | None, ...]]  # the main line, the side branches

RIGHT_AGAIN = N_("The layout is right again.")
GOING_ON = N_("Going on with the layout as it lies.")
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
    """No misplacement in ``a`` that ``b`` has not: by what is wrong with which card, and
    where it was seen (never by their words)."""
    def key(d: Discrepancy) -> tuple[Problem, Card | None, str | None, int | None]:
        return d.problem, d.card, d.found_zone, d.found_under
    return {key(d) for d in a} <= {key(d) for d in b}


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
    out = [LayoutNote(d.message, marker=True) for d in problems
           if d.problem is Problem.PROPHET_MARKER and not marker_said]
    if real:
        return replace(state, holding=real), out + [LayoutNote(_(
            "The layout does not match: {problems} Move it, or press o to go on as it lies.",
            problems=" ".join(d.message for d in real)))]
    return state, out or None


def go_on(state: LayoutState) -> tuple[LayoutState, LayoutNote | None]:
    """The players go on with the layout as it lies (key o): said, and the turn no longer held."""
    if state.holding is None:
        return state, None
    return replace(state, holding=None), LayoutNote(_(GOING_ON))


def _while_holding(state: LayoutState, view: TableView, record: LineRecord) -> tuple[LayoutState, list[LayoutNote]]:
    if TableToken.ACCEPT in view.tokens_in_play and not view.play_cards:
        return replace(state, holding=None), [LayoutNote(_(GOING_ON))]
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
        return replace(state, holding=None), [LayoutNote(_(RIGHT_AGAIN), trouble=False)]
    if not _same(real, state.holding or ()):
        return replace(state, holding=real), [LayoutNote(_("Still out of place: {problems}",
                                                           problems=" ".join(d.message for d in real)))]
    return state, []
