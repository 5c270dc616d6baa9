"""What the turn machine (dealer/table/turn.py) is told: the table as seen, and what the round did.

A frame is a :class:`TableView` (the play zone's cards in table millimetres, the tokens,
whether a hand or an arm is over the zone). A key is the same kind of input: a
:class:`KeyPressed` stands for the token it names (dealer/table/keys.py parses the keys), and a
:class:`CardNamed` for a card's name typed for a card the camera cannot read. A camera that
goes away and comes back is told as :class:`CameraLost` and :class:`CameraBack`. What the
round decided comes back as values too: :class:`VerdictGiven` after an action was applied (or
refused), :class:`ProphetDeposed`, :class:`VerdictUndone`. A :class:`Look` carries, beside
the view, the facts of the round the machine needs (:class:`RoundFacts`, with the record of
the layout the layout watch compares the table with, :class:`LineRecord`), copied as values
so that :func:`dealer.table.turn.step` stays a pure function.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from engine.cards import Card
from engine.events import Attempt, BecomeProphet, NoPlay
from engine.layout import Layout
from vision.places import SAME_PLACE_MM

__all__ = [
    "ASK_AFTER_S",
    "SAME_PLACE_MM",
    "SETTLE_S",
    "UNSTEADY_S",
    "CameraBack",
    "CameraLost",
    "CardNamed",
    "Key",
    "KeyPressed",
    "LineRecord",
    "LineSight",
    "Look",
    "Observation",
    "ProphetDeposed",
    "RoundFacts",
    "RoundView",
    "SeenCard",
    "TableSeen",
    "TableToken",
    "TableUnseen",
    "TableView",
    "Unseen",
    "VerdictGiven",
    "VerdictUndone",
    "same_place",
]

# Seconds the play zone's picture must hold, with no hand or arm moving over it, before it
# counts: two frames alike at 3 frames a second. The moving hand itself is seen by the
# observer (a change between frames), so the wait after the hand has left is this short,
# and the verdict comes within a second of the hand leaving.
SETTLE_S = 0.3
# Seconds a picture that cannot be judged (something unread, a second starter) must hold,
# with no hand moving over the zone, before the dealer asks the players to fix it.
ASK_AFTER_S = 1.0
# Seconds the play zone's picture may keep changing, with no hand over it, before the dealer
# says so: a thing found in one look and not the next never settles, and would otherwise
# leave the dealer silent for good.
UNSTEADY_S = 2.5


def same_place(a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Two card centres (table mm) within ``SAME_PLACE_MM`` (vision.geometry, the one
    tolerance of every place memory): the same card's place."""
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 <= SAME_PLACE_MM ** 2


class TableToken(enum.Enum):
    NO_PLAY = "noplay"
    PROPHET = "prophet"
    ACCEPT = "accept"
    REJECT = "reject"


@dataclass(frozen=True, slots=True)
class SeenCard:
    """A card the camera sees, at its centre in table millimetres: ``card`` None when unread."""

    card: Card | None
    x_mm: float
    y_mm: float
    confidence: float = 1.0
    # unread: the cards the reader says it may be (vision.classify.CardReading.maybe); None
    # when not known. What an unread card taken away can be told apart from when laid again.
    maybe: frozenset[Card] | None = None
    face_down: bool = False  # the reader sees the card's back (vision.classify.CardReading.face_down)


@dataclass(frozen=True, slots=True)
class LineSight:
    """The main line and side branches as the camera sees them, for the layout watch (P5)."""

    main_line: tuple[SeenCard, ...] | None = ()  # None: this zone cannot be read from here
    side_branches: tuple[SeenCard, ...] | None = ()
    prophet_token_mm: tuple[float, float] | None = None  # where the PROPHET token lies (F2)
    busy: bool = False  # a hand or a card on its way is over the line zones


@dataclass(frozen=True, slots=True)
class TableView:
    """What lies on the table at time ``t`` (seconds).

    ``hand_over_play`` and ``unexplained_in_play`` come from the zone-occupancy analysis
    (False when the observer has none): a hand or a moving object over the play zone, and
    something lying in the zone that no card found there explains. ``arm_across``: an arm
    that enters from the zone's edge and reaches out of it (a player reaching for the
    layout beyond the zone); the dealer waits for it in silence, as for a hand. ``line`` is
    None when the camera cannot read the whole main line and side branches.
    """

    t: float
    play_cards: tuple[SeenCard, ...] = ()
    tokens_in_play: Mapping[TableToken, tuple[float, float]] = field(default_factory=dict)
    prophet_token_out: bool = False  # the PROPHET token lies on the table (F2)
    frame: int | None = None
    hand_over_play: bool = False
    unexplained_in_play: bool = False
    line: LineSight | None = None
    arm_across: bool = False  # an arm reaching across the play zone, in from its edge and out of it


class RoundView(Protocol):
    """What the turn asks of the round (the engine's own answers, never copied for long)."""

    @property
    def started(self) -> bool: ...  # every starter is laid (C4)

    @property
    def whose_turn(self) -> str | None: ...

    @property
    def just_played(self) -> str | None: ...  # F1: who alone may take office now

    @property
    def prophet(self) -> str | None: ...

    def hand_size(self, player: str) -> int: ...


@dataclass(frozen=True, slots=True)
class LineRecord:
    """The round's record of the layout (P3, P4) and the prophet's marker (F2: the main line's
    length when the prophet took office), as the layout watch compares the table with it."""

    layout: Layout
    marker: int | None = None


@dataclass(frozen=True, slots=True)
class RoundFacts:
    """The round as the turn machine needs it at one frame: C4, F1, the prophet, and how many
    cards the player whose turn it is holds (N1: a "no play" shows them all)."""

    started: bool = True
    whose_turn: str | None = None
    just_played: str | None = None
    prophet: str | None = None
    hand_size: int = 0  # of ``whose_turn``
    line: LineRecord | None = None  # the layout to watch (P5); None: none is watched (AB1, before C4)

    @classmethod
    def of(cls, rnd: RoundView, line: LineRecord | None = None) -> RoundFacts:
        """A snapshot of ``rnd`` (and of its layout's record, ``line``)."""
        who = rnd.whose_turn
        return cls(rnd.started, who, rnd.just_played, rnd.prophet, rnd.hand_size(who) if who else 0, line)


@dataclass(frozen=True, slots=True)
class Look:
    """One frame of the table, with the round as it stands at that frame."""

    view: TableView
    round: RoundFacts


@dataclass(frozen=True, slots=True)
class VerdictGiven:
    """The round applied the action the machine asked to judge (or refused it: ``action``
    None): its cards count for nothing else while they lie in the zone."""

    action: Attempt | NoPlay | BecomeProphet | None = None
    t: float | None = None  # when it was given: its cards are now on their way to the layout (P3, P4)


@dataclass(frozen=True, slots=True)
class ProphetDeposed:
    """The prophet was overthrown (F4): a token left out must not re-appoint anyone."""


@dataclass(frozen=True, slots=True)
class VerdictUndone:
    """The last verdict was taken back: the same player's turn, judged afresh once settled."""


class Key(enum.Enum):
    """A key of the keyboard fallback that stands for a token or an act at the table."""

    NO_PLAY = "n"  # the NO PLAY token in the play zone (again: taken back)
    PROPHET = "p"  # the PROPHET token out (again: taken back)
    ACCEPT = "a"  # the prophet's ACCEPT token in the play zone (F3)
    REJECT = "r"  # the REJECT token; with ``card_index``, lying at that card (F6)
    JUDGE_NOW = "j"  # the play zone counts as settled: the players go on with what lies there
    LAYOUT_AS_IS = "o"  # the layout is right as it lies (P5)


@dataclass(frozen=True, slots=True)
class KeyPressed:
    """A key pressed at time ``t``: handled as the token it stands for would be.
    ``card_index``: for REJECT, the card (0-based from the left) it names (F6)."""

    key: Key
    t: float
    card_index: int | None = None


@dataclass(frozen=True, slots=True)
class CardNamed:
    """The players typed ``card``'s name: the leftmost card in the play zone that the camera
    found but cannot read is that card, while it lies there."""

    card: Card
    t: float


@dataclass(frozen=True, slots=True)
class CameraLost:
    """The camera is gone (dealer/table/camera_pause.py): the turn pauses where it is."""

    t: float


@dataclass(frozen=True, slots=True)
class CameraBack:
    """The camera is back: the turn goes on where it was, its clock started afresh (nothing
    seen before the gap counts as having held across it)."""

    t: float


class Unseen(enum.Enum):
    """Why a frame gave no view of the table (dealer/table/observer.py)."""

    NO_MAT = "no mat"  # the mat's markers are not found (covered, the camera turned away)
    ZONE_OUT = "zone out"  # the play zone is not whole in view


@dataclass(frozen=True, slots=True)
class TableUnseen:
    """The frame at ``t`` gave no view of the table, for ``why``: nothing is judged."""

    t: float
    why: Unseen


@dataclass(frozen=True, slots=True)
class TableSeen:
    """The frame at ``t`` gave a view: whether something moved over the play zone, whether
    the camera itself has been moving, and whether cards (or something unread) lie in the
    zone. Told on every frame seen, the layout being put right or not (dealer/table/sight.py)."""

    t: float
    moving_over_play: bool = False
    camera_moving: bool = False
    cards_lie: bool = False


Observation = (Look | VerdictGiven | ProphetDeposed | VerdictUndone | KeyPressed | CardNamed | CameraLost
               | CameraBack | TableUnseen | TableSeen)
