"""What a rule's decision can depend on, read from its tree: the card tried, the last k
cards, and the position ``pos`` only below a threshold or modulo some m. A rule of that
shape is finite-state: after ``P`` cards a line's future depends only on its last ``K``
cards and its length modulo ``M`` (engine/rules/equivalence.py compares such rules
exactly).

>>> from engine.rules import resolve_rule
>>> rule_shape(resolve_rule('if pos mod 2 == 0 then card.red else card.black'))
Shape(back=0, below=1, period=2)
>>> rule_shape(resolve_rule('pos < 2 or card.suit == prev(2).suit'))
Shape(back=2, below=2, period=1)
>>> rule_shape(resolve_rule('pos < 2 or not all(last(2), each.colour == card.colour)'))
Shape(back=2, below=2, period=1)
>>> rule_shape(resolve_rule('not any(line, each == card)')) is None
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.rules.base import Rule
from engine.rules.tree import (
    Attr,
    Binary,
    Call,
    CardRef,
    Compare,
    Conditional,
    Literal,
    Member,
    Name,
    Node,
    RangeItem,
    RuleTree,
    Unary,
)

__all__ = ["Shape", "card_features", "rule_shape"]

_RING = ("+", "-", "*")  # arithmetic that commutes with taking a remainder


@dataclass(frozen=True, slots=True)
class Shape:
    """``back``: the deepest card looked back at; ``below``: positions below it are told
    apart exactly (thresholds, the start clause); ``period``: from there on only ``pos``
    modulo this matters."""

    back: int
    below: int
    period: int


class _NotFinite(Exception):
    pass


class _Walk:
    def __init__(self) -> None:
        self.back = 0
        self.below = 0
        self.period = 1
        self.each = 0  # inside an aggregate over the last k cards: 'each' is one of them

    def _int(self, node: Node | None) -> int | None:
        if isinstance(node, Literal) and node.kind == "int":
            return int(node.value)
        return None

    def visit(self, node: Node, modulus: int | None) -> None:
        if isinstance(node, Literal):
            return
        if isinstance(node, Name):
            if node.name == "each" and self.each:
                return
            if node.name != "pos" or modulus is None:
                raise _NotFinite  # 'line', 'each', or pos used as a plain number
            self.period = math.lcm(self.period, modulus)
            return
        if isinstance(node, CardRef):
            self._card(node)
        elif isinstance(node, Attr):
            self.visit(node.target, None)
        elif isinstance(node, Unary):
            self.visit(node.operand, modulus if node.op == "-" else None)
        elif isinstance(node, Binary):
            self._binary(node, modulus)
        elif isinstance(node, Compare):
            self._compare(node)
        elif isinstance(node, Member):
            self._member(node)
        elif isinstance(node, Conditional):
            self.visit(node.condition, None)
            self.visit(node.then, modulus)
            self.visit(node.otherwise, modulus)
        elif isinstance(node, Call):
            self._call(node)
        else:
            raise _NotFinite

    def _card(self, node: CardRef) -> None:
        if node.index is None:
            return  # the card tried
        k = self._int(node.index)
        if node.back and k is not None:
            self.back = max(self.back, k)  # prev(k)
            return
        index = node.index
        if not node.back and isinstance(index, Unary) and index.op == "-":
            k = self._int(index.operand)
            if k is not None:
                self.back = max(self.back, k)  # line[-k]
                return
        raise _NotFinite  # line[i] from the start, or an index worked out at play time

    def _binary(self, node: Binary, modulus: int | None) -> None:
        if node.op == "mod":
            m = self._int(node.right)
            if m is None or m < 1:
                raise _NotFinite
            self.visit(node.left, m)
            return
        inner = modulus if node.op in _RING else None
        self.visit(node.left, inner)
        self.visit(node.right, inner)

    def _threshold(self, value: Node, limits: list[int | None], shift: int = 1) -> bool:
        """``pos`` against whole numbers: positions up to the largest (plus ``shift``) differ."""
        if isinstance(value, Name) and value.name == "pos" and limits and None not in limits:
            self.below = max(self.below, max(n for n in limits if n is not None) + shift)
            return True
        return False

    def _compare(self, node: Compare) -> None:
        m = self._int(node.modulus) if node.modulus is not None else None
        if node.modulus is not None and (m is None or m < 1):
            raise _NotFinite
        # pos < n and pos >= n split at n; pos <= n, pos > n, pos == n, pos != n at n + 1
        left_shift = 0 if node.op in ("<", ">=") else 1
        right_shift = 0 if node.op in (">", "<=") else 1  # n > pos is pos < n
        if m is None and (self._threshold(node.left, [self._int(node.right)], left_shift)
                          or self._threshold(node.right, [self._int(node.left)], right_shift)):
            return
        self.visit(node.left, m)
        self.visit(node.right, m)

    def _member(self, node: Member) -> None:
        m = self._int(node.modulus) if node.modulus is not None else None
        if node.modulus is not None and (m is None or m < 1):
            raise _NotFinite
        bounds: list[int | None] = []
        for item in node.items:
            bounds.extend([self._int(item.low), self._int(item.high)] if isinstance(item, RangeItem)
                          else [self._int(item)])
        if m is None and self._threshold(node.value, bounds):
            return
        self.visit(node.value, m)
        for item in node.items:
            for part in (item.low, item.high) if isinstance(item, RangeItem) else (item,):
                self.visit(part, m)

    def _last(self, node: Node) -> bool:
        k = _last_k(node)
        if k is None:
            return False
        self.back = max(self.back, k)
        return True

    def _call(self, node: Call) -> None:
        if node.name == "suit":
            for arg in node.args:
                self.visit(arg, 4)  # suit(n) takes n mod 4
        elif node.name in ("next", "abs", "min", "max"):
            for arg in node.args:
                self.visit(arg, None)
        elif node.name in ("count", "any", "all", "sum") and len(node.args) == 2 and self._last(node.args[0]):
            self.each += 1  # an aggregate over last(k): the last k cards, each in turn
            self.visit(node.args[1], None)
            self.each -= 1
        else:
            raise _NotFinite  # aggregates, len, last: they read the whole line


def _last_k(node: Node) -> int | None:
    if (isinstance(node, Call) and node.name == "last" and len(node.args) == 1
            and isinstance(node.args[0], Literal) and node.args[0].kind == "int"):
        return int(node.args[0].value)
    return None


def rule_shape(rule: Rule) -> Shape | None:
    """The rule's :class:`Shape`, or None when it reads the line in ways that are not
    finite-state (aggregates, ``line``, ``pos`` as a plain number). A rule that is not
    written in the rule language is read by its ``window`` when it has one."""
    tree = getattr(rule, "tree", None)
    if not isinstance(tree, RuleTree):
        window = getattr(rule, "window", None)
        if not isinstance(window, int):
            return None
        return Shape(window, max(window, rule.starter_count), 1)
    walk = _Walk()
    try:
        walk.visit(tree.main, None)
    except _NotFinite:
        return None
    # The start clause decides lines shorter than starter_count, which are told apart exactly.
    return Shape(walk.back, max(walk.below, walk.back, tree.starter_count), walk.period)


def _features(node: Node, into: set[str]) -> bool:
    """Add the card attributes ``node`` reads to ``into``; False when it reads a card whole
    (``card == QH``, ``any(line, each == card)``, ``next(card)``)."""
    if isinstance(node, Attr) and (isinstance(node.target, CardRef)
                                   or isinstance(node.target, Name) and node.target.name == "each"):
        into.add(node.name)
        index = node.target.index if isinstance(node.target, CardRef) else None
        return index is None or _features(index, into)
    if isinstance(node, CardRef) or isinstance(node, Name) and node.name == "each":
        return False
    for value in (getattr(node, f) for f in getattr(node, "__slots__", ())):
        for child in (value if isinstance(value, tuple) else (value,)):
            if isinstance(child, Node) and not _features(child, into):
                return False
    return True


def card_features(rule: Rule) -> frozenset[str] | None:
    """The card attributes (``colour``, ``rank``, ...) through which alone the rule reads
    every card, or None when it reads some card whole or is not written in the rule
    language. Two cards alike in these attributes are the same to the rule, wherever they
    lie: a search over lines may try one card of each kind.

    >>> from engine.rules import resolve_rule
    >>> sorted(card_features(resolve_rule('pos < 2 or not all(last(2), each.colour == card.colour)')))
    ['colour']
    >>> card_features(resolve_rule('not any(line, each == card)')) is None
    True
    """
    tree = getattr(rule, "tree", None)
    if not isinstance(tree, RuleTree):
        return None
    found: set[str] = set()
    for node in (tree.starter, tree.main):
        if node is not None and not _features(node, found):
            return None
    return frozenset(found)
