"""Errors of the rule language (R1): a small tree under ``ValueError``.

>>> issubclass(RuleSyntaxError, ValueError) and issubclass(RuleEvaluationError, ValueError)
True
"""

from __future__ import annotations

__all__ = ["RuleError", "RuleEvaluationError", "RuleSyntaxError"]


class RuleError(ValueError):
    """Anything wrong with a secret rule."""


class RuleSyntaxError(RuleError):
    """A rule text that does not parse or does not make sense (a type mismatch).

    The message starts with ``line L, column C:`` and quotes the offending token.
    """

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(f"line {line}, column {column}: {message}")
        self.line = line
        self.column = column
        self.reason = message

    def __reduce__(self) -> tuple[type[RuleSyntaxError], tuple[str, int, int]]:
        return (type(self), (self.reason, self.line, self.column))


class RuleEvaluationError(RuleError):
    """A rule that cannot decide an attempt on some line (R1: it must decide every one),
    e.g. ``prev`` asked for on the first card without a guard."""
