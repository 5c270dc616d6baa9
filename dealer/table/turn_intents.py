"""What the turn machine asks the dealer to do: typed values with their parameters.

:func:`dealer.table.turn.step` returns these; the session applies :class:`StarterTurned` and
:class:`Judge` to the round, and the outlets make sentences of the rest from the gettext
catalogs (dealer/speech/turn_words.py). Nothing decides anything on a sentence: code that needs
to tell two intents apart looks at their type and fields.

Each intent says how it reaches the players (``KIND``): ``"say"`` (the game goes on),
``"trouble"`` (something is wrong and is said once), ``"lay_again"`` (a trouble that asks the
players to lay or show something again).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar, Literal

from dealer.table.layout_problems import LayoutNote
from dealer.table.turn_input import Unseen
from engine.cards import Card
from engine.events import Attempt, BecomeProphet, NoPlay

__all__ = [
    "AskLayAgain",
    "AskProphet",
    "Busy",
    "CannotRead",
    "CardNamedAs",
    "FaceDown",
    "HandProgress",
    "Judge",
    "KeepsMoving",
    "LayoutTold",
    "Kind",
    "Missing",
    "NoPlayWithdrawn",
    "NotInGame",
    "NothingToName",
    "Owed",
    "StarterTurned",
    "TableNotSeen",
    "TableSeenAgain",
    "TakenAway",
    "TooManyShown",
    "TurnIntent",
    "TurnNextStarter",
    "Unread",
    "YourTurn",
    "ZoneBusy",
]

Kind = Literal["say", "trouble", "lay_again", "starter", "judge"]


@dataclass(frozen=True, slots=True)
class StarterTurned:
    """A card lies face up alone in the play zone: the session decides it as a starter (C4)."""

    card: Card
    KIND: ClassVar[Kind] = "starter"


@dataclass(frozen=True, slots=True)
class Judge:
    """An action for the round to judge (P1, N1, F1, F3); its verdict comes back as
    :class:`dealer.table.turn_input.VerdictGiven`."""

    action: Attempt | NoPlay | BecomeProphet
    KIND: ClassVar[Kind] = "judge"


@dataclass(frozen=True, slots=True)
class TurnNextStarter:
    """The starter left the zone and another is needed (C4)."""

    KIND: ClassVar[Kind] = "say"


@dataclass(frozen=True, slots=True)
class YourTurn:
    """The zone is empty after a verdict: ``player`` plays now."""

    player: str
    KIND: ClassVar[Kind] = "say"


@dataclass(frozen=True, slots=True)
class AskProphet:
    """The prophet decides the attempt or hand that lies there (F3)."""

    prophet: str
    KIND: ClassVar[Kind] = "say"


@dataclass(frozen=True, slots=True)
class HandProgress:
    """A "no play" hand is being shown (N1): ``shown`` distinct cards seen of ``need``."""

    shown: int
    need: int
    KIND: ClassVar[Kind] = "say"


@dataclass(frozen=True, slots=True)
class NoPlayWithdrawn:
    """The NO PLAY token and the cards were taken back before the hand was complete."""

    KIND: ClassVar[Kind] = "say"


@dataclass(frozen=True, slots=True)
class CardNamedAs:
    """The players named ``card`` (a key): the card at ``where`` (1-based from the left) that
    the camera cannot read is taken to be it, while it lies there."""

    where: int
    card: Card
    KIND: ClassVar[Kind] = "say"


@dataclass(frozen=True, slots=True)
class NothingToName:
    """The players named ``card``, but every card in the play zone is read: it names none."""

    card: Card
    KIND: ClassVar[Kind] = "say"


@dataclass(frozen=True, slots=True)
class TableNotSeen:
    """The table has not been seen for a while (``why``): nothing is judged until it is."""

    why: Unseen
    KIND: ClassVar[Kind] = "say"


@dataclass(frozen=True, slots=True)
class TableSeenAgain:
    """The table is seen again, after the dealer said it was not."""

    KIND: ClassVar[Kind] = "say"


@dataclass(frozen=True, slots=True)
class KeepsMoving:
    """Something has kept moving over the play zone for long: the dealer waits, and says why
    (``camera``: the camera itself keeps moving)."""

    camera: bool
    KIND: ClassVar[Kind] = "say"


class Busy(enum.Enum):
    """Why the zone cannot be judged as it lies (nothing unread about it)."""

    JUDGED_CARDS_LIE = "judged cards lie"  # new cards laid before the judged ones left
    NOT_SEEN_EMPTY = "not seen empty"  # something unread, and the zone not seen empty since the verdict
    PROPHET_DECIDING = "prophet deciding"  # the cards changed under the prophet's decision
    REJECT_NAMES_NO_CARD = "reject names no card"  # F6: the REJECT token lies near no card read
    ONE_STARTER = "one starter"  # more than one card (or something else) where the starter goes
    PROPHET_TOO_LATE = "prophet too late"  # F1
    NO_PLAY_TOKEN_UNSEEN = "no play token unseen"  # a hand shown, its NO PLAY token not seen
    KEEPS_CHANGING = "keeps changing"  # the picture never holds, with no hand over the zone

    @property
    def asks_again(self) -> bool:
        return self in (Busy.NO_PLAY_TOKEN_UNSEEN, Busy.KEEPS_CHANGING)


@dataclass(frozen=True, slots=True)
class ZoneBusy:
    """The zone holds what cannot be judged as it is: ``reason`` says what."""

    reason: Busy

    @property
    def KIND(self) -> Kind:  # noqa: N802 - as the class attribute of the other intents
        return "lay_again" if self.reason.asks_again else "trouble"


class Unread(enum.Enum):
    """What the camera cannot read."""

    CARD = "card"  # a card in the play zone (``where``: its place from the left)
    BATCH_CARD = "batch card"  # a card of a "no play" batch
    SOMETHING = "something"  # something in the zone, no card found
    BESIDE = "beside"  # every card read, and something beside them
    TOKEN = "token"  # the prophet's ACCEPT or REJECT token, awaited
    STARTER = "starter"


@dataclass(frozen=True, slots=True)
class CannotRead:
    """Something lies in the zone unread. ``where``: the card's place from the left (1-based),
    ``again``: asked already this turn (the players may type the card's name)."""

    what: Unread
    where: int = 0
    again: bool = False
    KIND: ClassVar[Kind] = "lay_again"


@dataclass(frozen=True, slots=True)
class FaceDown:
    """The card at ``where`` (1-based from the left) lies face down: said once; taking it
    back costs nothing."""

    where: int
    KIND: ClassVar[Kind] = "lay_again"


class Taken(enum.Enum):
    STARTER = "starter"  # the starter, found and unread, was taken away (C4)
    BATCH = "batch"  # a "no play" batch with cards not yet counted was taken away
    SWAPPED = "swapped"  # a batch taken away unread, and another laid in its place


@dataclass(frozen=True, slots=True)
class TakenAway:
    """What lay unread was taken away, and the dealer still needs it: show it again."""

    what: Taken
    KIND: ClassVar[Kind] = "lay_again"


class Owed(enum.Enum):
    """Why the cards in the zone are not taken for the turn."""

    UNSEEN_EMPTYING = "unseen emptying"  # other cards lie where the judged ones lay: lay your play again
    LAY_AGAIN_FIRST = "lay again first"  # those cards must come back before anything else counts
    SHOW_HAND_AGAIN = "show hand again"  # a "no play" not seen whole must be shown again
    NOT_THE_HAND = "not the hand"  # the hand shown now is not the one shown before
    LOST_TRACK = "lost track"  # the table went on; key j says what lies there is the play


@dataclass(frozen=True, slots=True)
class AskLayAgain:
    """``player`` is asked to lay (or show) again what lay in the zone; ``cards_read``: the
    cards the dealer read of it, which the laying again must hold."""

    player: str
    cards_read: tuple[Card, ...]
    why: Owed
    KIND: ClassVar[Kind] = "lay_again"


@dataclass(frozen=True, slots=True)
class TooManyShown:
    """More distinct cards shown for a "no play" than ``player`` holds (N1)."""

    player: str
    seen: int
    need: int
    KIND: ClassVar[Kind] = "trouble"


class Missing(enum.Enum):
    """What a variant's table does not have (dealer/table/table_rules.py)."""

    CHAIN = "chain"  # EX2, AB2: one card a turn
    NO_PLAY = "no play"  # EX3, AB3
    PROPHET = "prophet"  # EX4, AB3


@dataclass(frozen=True, slots=True)
class NotInGame:
    """The table did what ``variant`` does not have (``what``): nothing is judged; said once."""

    what: Missing
    variant: str
    KIND: ClassVar[Kind] = "trouble"


@dataclass(frozen=True, slots=True)
class LayoutTold:
    """What the layout watch says (P5, dealer/table/layout_watch.py): a misplacement, the layout
    right again, going on with it as it lies, or where the PROPHET token belongs (F2)."""

    note: LayoutNote

    @property
    def KIND(self) -> Kind:  # noqa: N802 - as the class attribute of the other intents
        return "trouble" if self.note.trouble else "say"


TurnIntent = (StarterTurned | Judge | TurnNextStarter | YourTurn | AskProphet | HandProgress | NoPlayWithdrawn
              | CardNamedAs | NothingToName | TableNotSeen | TableSeenAgain | KeepsMoving | ZoneBusy | CannotRead
              | FaceDown | TakenAway | AskLayAgain | TooManyShown | NotInGame | LayoutTold)
