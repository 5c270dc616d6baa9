"""The engine's errors: a small tree under ``ValueError`` (STYLE 3), and the refusals.

A :class:`Refusal` is why the round cannot take an action, as a value with its fields
(``OutOfTurn(player='Ana', expected='Bo')``): the dealer says it in the table's language
from those fields (dealer/speech/narrate.py), and :meth:`Refusal.message` is the English the
engine writes. :class:`IllegalActionError` carries one as ``refusal``.

>>> issubclass(RecordError, ValueError) and issubclass(IllegalActionError, RoundError)
True
>>> str(IllegalActionError(OutOfTurn('Ana', 'Bo')))
"it is Bo's turn, not Ana's (C5)"
>>> IllegalActionError(TooManyCards('Ana', 3, 2)).refusal
TooManyCards(player='Ana', played=3, held=2)
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card

__all__ = [
    "AcceptTakesNoCard",
    "AlreadyProphet",
    "BeenProphet",
    "CardNotShown",
    "DecisionMissing",
    "ExpelledCannotProphesy",
    "ExpelledPlays",
    "IllegalActionError",
    "LegalCardUnnamed",
    "NoCardPlayed",
    "NoProphet",
    "NotAfterOwnTurn",
    "NotAnErrorCard",
    "NotInVariant",
    "OutOfTurn",
    "ProphetPlays",
    "RecordError",
    "Refusal",
    "RejectTakesNoCard",
    "RoundEnded",
    "RoundError",
    "RoundSetupError",
    "TokensMissing",
    "TooFewForProphet",
    "TooManyCards",
    "TooManyCopies",
    "UnknownPlayer",
    "WrongHandShown",
]


class RoundError(ValueError):
    """Something the round cannot accept (docs/rules.md): the message quotes it and cites the rule."""


class RoundSetupError(RoundError):
    """A round that cannot start: players (C2), starters (C4), deal (C3), shoe (C1).

    ``field`` names the setting at fault (``players``, ``start``, ``hand``, ``decks``) so a
    record can point at its header line.
    """

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


# -- refusals: why an action cannot be taken now -----------------------------------------
@dataclass(frozen=True, slots=True)
class Refusal:
    """Why the round refuses an action. Subclasses hold the facts; ``message`` words them."""

    def message(self) -> str:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class UnknownPlayer(Refusal):
    player: str
    players: tuple[str, ...]

    def message(self) -> str:
        return f"{self.player!r} is not a player of this round ({', '.join(self.players)})"


@dataclass(frozen=True, slots=True)
class NotInVariant(Refusal):
    """An action the variant being played does not have (docs/rules-variants.md), e.g. a
    prophet in express (EX4)."""

    variant: str
    action: str
    rule: str

    def message(self) -> str:
        return f"{self.variant} has no {self.action} ({self.rule})"


@dataclass(frozen=True, slots=True)
class NotAnErrorCard(Refusal):
    """AB8: a player whose hand is empty sheds one of their own error cards (``errors``), and
    ``card`` is none of them."""

    player: str
    card: Card
    errors: tuple[Card, ...]

    def message(self) -> str:
        shown = " ".join(str(c) for c in self.errors)
        return f"{self.player}'s hand is empty: they shed one of their error cards ({shown}), not {self.card} (AB8)"


@dataclass(frozen=True, slots=True)
class TokensMissing(Refusal):
    """KR4: every player shows one token on each card the oracle turns; ``missing`` showed
    none, ``doubled`` showed more than one."""

    missing: tuple[str, ...]
    doubled: tuple[str, ...] = ()

    def message(self) -> str:
        what = f"no token from {', '.join(self.missing)}" if self.missing else f"two tokens from {', '.join(self.doubled)}"
        return f"{what}: every player shows one token per card (KR4)"


@dataclass(frozen=True, slots=True)
class RoundEnded(Refusal):
    """G1: nothing is played after the end. ``player`` is empty when nobody acted yet."""

    reason: str
    player: str = ""

    def message(self) -> str:
        if not self.player:
            return "the round has ended (G1)"
        return f"the round has ended ({self.reason}, G1); {self.player} cannot act"


@dataclass(frozen=True, slots=True)
class ProphetPlays(Refusal):
    player: str
    expected: str | None

    def message(self) -> str:
        return f"{self.player} is the prophet and plays no more cards (F2); it is {self.expected}'s turn"


@dataclass(frozen=True, slots=True)
class ExpelledPlays(Refusal):
    player: str
    expected: str | None

    def message(self) -> str:
        return f"{self.player} is expelled (E3); it is {self.expected}'s turn"


@dataclass(frozen=True, slots=True)
class OutOfTurn(Refusal):
    player: str
    expected: str | None

    def message(self) -> str:
        return f"it is {self.expected}'s turn, not {self.player}'s (C5)"


@dataclass(frozen=True, slots=True)
class NoCardPlayed(Refusal):
    player: str

    def message(self) -> str:
        return f"{self.player} plays no card; an attempt has one or more (P1)"


@dataclass(frozen=True, slots=True)
class TooManyCards(Refusal):
    player: str
    played: int
    held: int

    def message(self) -> str:
        return f"{self.player} plays {self.played} cards but holds {self.held}"


@dataclass(frozen=True, slots=True)
class WrongHandShown(Refusal):
    """N1: a "no play" shows the whole hand."""

    player: str
    shown: int
    held: int

    def message(self) -> str:
        return f"{self.player} shows {self.shown} cards but holds {self.held} (N1)"


@dataclass(frozen=True, slots=True)
class TooManyCopies(Refusal):
    """C1: the table and the cards played or shown hold more copies of ``card`` than the decks."""

    card: Card
    copies: int
    decks: int
    showing: bool = False

    def message(self) -> str:
        what = "showing" if self.showing else "playing"
        return f"{what} {self.card}: {self.copies} copies with the table, but {self.decks} decks hold {self.decks} (C1)"


@dataclass(frozen=True, slots=True)
class NoProphet(Refusal):
    def message(self) -> str:
        return "a prophet decision, but there is no prophet (F3)"


@dataclass(frozen=True, slots=True)
class DecisionMissing(Refusal):
    prophet: str

    def message(self) -> str:
        return f"the prophet {self.prophet}'s decision is missing (F3)"


@dataclass(frozen=True, slots=True)
class AcceptTakesNoCard(Refusal):
    card: Card

    def message(self) -> str:
        return f"'prophet accept' takes no card, got {self.card} (F3)"


@dataclass(frozen=True, slots=True)
class RejectTakesNoCard(Refusal):
    card: Card

    def message(self) -> str:
        return f"'prophet reject' takes no card for an attempt, got {self.card} (F3)"


@dataclass(frozen=True, slots=True)
class LegalCardUnnamed(Refusal):
    def message(self) -> str:
        return "'prophet reject' of a no play must name the legal card (F6)"


@dataclass(frozen=True, slots=True)
class CardNotShown(Refusal):
    card: Card

    def message(self) -> str:
        return f"the prophet names {self.card}, which is not in the shown hand (F6)"


@dataclass(frozen=True, slots=True)
class NotAfterOwnTurn(Refusal):
    player: str

    def message(self) -> str:
        return f"{self.player} may become prophet only right after their own turn (F1)"


@dataclass(frozen=True, slots=True)
class ExpelledCannotProphesy(Refusal):
    player: str

    def message(self) -> str:
        return f"{self.player} is expelled (F1)"


@dataclass(frozen=True, slots=True)
class AlreadyProphet(Refusal):
    prophet: str

    def message(self) -> str:
        return f"{self.prophet} is prophet already (F1)"


@dataclass(frozen=True, slots=True)
class BeenProphet(Refusal):
    player: str

    def message(self) -> str:
        return f"{self.player} has been prophet in this round already (F1, F4)"


@dataclass(frozen=True, slots=True)
class TooFewForProphet(Refusal):
    player: str
    others: int

    def message(self) -> str:
        return f"only {self.others} active player(s) besides {self.player}; a prophet needs 2 (F1)"


class IllegalActionError(RoundError):
    """An action the state of the round does not allow: out of turn, after the end, ...

    ``refusal`` holds why, as a value; the message is its English words.
    """

    def __init__(self, refusal: Refusal | str) -> None:
        super().__init__(refusal.message() if isinstance(refusal, Refusal) else refusal)
        self.refusal = refusal if isinstance(refusal, Refusal) else None


class RecordError(ValueError):
    """A game record that cannot be read or that breaks the rules, naming its line.

    >>> str(RecordError(7, "Cy plays out of turn"))
    'line 7: Cy plays out of turn'
    """

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.reason = message
