"""The engine's errors: a small tree under ``ValueError`` (STYLE 3).

>>> issubclass(RecordError, ValueError) and issubclass(IllegalActionError, RoundError)
True
"""

from __future__ import annotations

__all__ = ["IllegalActionError", "RecordError", "RoundError", "RoundSetupError"]


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


class IllegalActionError(RoundError):
    """An action the state of the round does not allow: out of turn, after the end, ..."""


class RecordError(ValueError):
    """A game record that cannot be read or that breaks the rules, naming its line.

    >>> str(RecordError(7, "Cy plays out of turn"))
    'line 7: Cy plays out of turn'
    """

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.reason = message
