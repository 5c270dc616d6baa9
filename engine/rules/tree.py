"""The syntax tree of a rule (R1): what the parser builds and the compiler turns into closures.

Every node keeps the line and column where it starts, so that type errors and evaluation
errors can point at the rule text.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "Attr",
    "Binary",
    "Call",
    "CardRef",
    "Compare",
    "Conditional",
    "Literal",
    "Member",
    "Name",
    "Node",
    "RangeItem",
    "RuleTree",
    "Unary",
]


@dataclass(frozen=True, slots=True)
class Node:
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Literal(Node):
    """A constant: kind is 'int', 'bool', 'suit', 'colour' or 'card'; value its text form."""

    kind: str
    value: str


@dataclass(frozen=True, slots=True)
class Name(Node):
    """``pos``, ``line`` (the main line as a sequence) or ``each`` (the card an aggregate visits)."""

    name: str


@dataclass(frozen=True, slots=True)
class CardRef(Node):
    """``card`` (offset None, the card tried), ``prev``/``prev(k)`` (back=True),
    ``line[i]`` (back=False: i >= 0 from the start, i < 0 from the end)."""

    back: bool
    index: Node | None


@dataclass(frozen=True, slots=True)
class Attr(Node):
    target: Node
    name: str


@dataclass(frozen=True, slots=True)
class Unary(Node):
    op: str  # 'not' or '-'
    operand: Node


@dataclass(frozen=True, slots=True)
class Binary(Node):
    op: str  # 'and', 'or', 'xor', '+', '-', '*', 'mod'
    left: Node
    right: Node


@dataclass(frozen=True, slots=True)
class Compare(Node):
    """``left op right [mod m]``; with ``mod`` both sides are taken modulo m."""

    op: str  # '==', '!=', '<', '<=', '>', '>='
    left: Node
    right: Node
    modulus: Node | None


@dataclass(frozen=True, slots=True)
class RangeItem(Node):
    low: Node
    high: Node


@dataclass(frozen=True, slots=True)
class Member(Node):
    """``value [not] in {a, b, lo..hi} [mod m]`` or ``value in lo..hi [mod m]``; with ``mod``
    it is congruence: the value and every item are taken modulo m (``-2..2 mod 13`` holds for
    11, 12, 0, 1, 2)."""

    value: Node
    items: tuple[Node, ...]  # plain values or RangeItem
    negated: bool
    modulus: Node | None


@dataclass(frozen=True, slots=True)
class Conditional(Node):
    condition: Node
    then: Node
    otherwise: Node


@dataclass(frozen=True, slots=True)
class Call(Node):
    """A built-in function: count, any, all, sum, len, last, abs, min, max, next, suit."""

    name: str
    args: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class RuleTree:
    """A whole rule: the starter clause (C4) and the main expression."""

    starter_count: int
    starter: Node | None  # None: any card may start the line
    main: Node
