"""A rule written in the rule language, compiled to closures: an ``engine.rules.base.Rule``.

>>> rule = parse_rule('if prev.red then card.black else card.red')
>>> from engine.cards import parse_cards
>>> line = parse_cards('7H')
>>> rule.legal(line, Card.parse('4C')), rule.legal(line, Card.parse('QD'))
(True, False)
>>> rule.legal((), Card.parse('QD'))  # no start clause: any card may start the line (C4)
True
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card
from engine.rules.compiler import (
    TYPE_NAMES,
    Fn,
    check_each_scope,
    compile_node,
    dependencies,
    visits,
)
from engine.rules.errors import RuleSyntaxError
from engine.rules.parser import parse
from engine.rules.tree import Call, Node, RuleTree

__all__ = ["MAX_RULE_CHARS", "MAX_VISITS", "VISITS_LINE", "CompiledRule", "parse_rule"]

_MEMO_LIMIT = 4096
MAX_RULE_CHARS = 10_000  # a rule written in a minute has a few dozen characters
# Limits that keep every rule cheap to play and to check, whoever wrote it: one decision on a
# main line of VISITS_LINE cards may take at most MAX_VISITS steps (see compiler.visits).
# count(line, any(line, each.rank == card.rank)) takes about 8,100; a dozen
# count(line, sum(line, ...)) terms added up, 40,000.
VISITS_LINE = 40
MAX_VISITS = 10_000


def _any_card(line: Sequence[Card], card: Card, each: Card | None) -> bool:
    return True


class CompiledRule:
    """A secret rule (R1): ``legal(line, card)`` decides whether ``card`` may continue ``line``.

    While the line is shorter than ``starter_count`` the start clause decides (C4); after
    that the main expression. Raises RuleEvaluationError when the rule cannot decide.
    """

    __slots__ = ("_costs", "_main", "_memo", "_starter", "_starter_count", "_text", "_tree", "_window")

    def __init__(self, text: str, tree: RuleTree) -> None:
        self._text = text
        self._tree = tree
        self._starter_count = tree.starter_count
        self._starter: Fn = _any_card
        if tree.starter is not None:
            self._starter = _boolean(tree.starter, "the start clause")
        self._main: Fn = _boolean(tree.main, "a rule")
        _check_cost(tree)
        self._costs: dict[int, int] = {}
        deps = dependencies(tree.main)
        self._window = None if deps.dynamic else deps.max_back
        # A rule that only looks at the last card and the card tried may cache its answers.
        self._memo: dict[tuple[int, str, int, str], bool] | None = (
            {} if self._window is not None and self._window <= 1 else None)

    @property
    def text(self) -> str:
        return self._text

    @property
    def starter_count(self) -> int:
        return self._starter_count

    @property
    def tree(self) -> RuleTree:
        return self._tree

    @property
    def window(self) -> int | None:
        """k when the main test looks only at the card tried and the last k cards (not at
        ``pos``, ``line`` or aggregates); None otherwise. The checker explores such rules
        exhaustively."""
        return self._window

    def cost(self, line_length: int) -> int:
        """An upper bound on the steps of one decision after a line of ``line_length`` cards
        (the checker's budget counts these)."""
        cost = self._costs.get(line_length)
        if cost is None:
            tree = self._tree
            if line_length < tree.starter_count:
                cost = visits(tree.starter, line_length) if tree.starter is not None else 1
            else:
                cost = visits(tree.main, line_length)
            self._costs[line_length] = cost
        return cost

    def legal(self, line: Sequence[Card], card: Card) -> bool:
        if len(line) < self._starter_count:
            return bool(self._starter(line, card, None))
        memo = self._memo
        if memo is None:
            return bool(self._main(line, card, None))
        last = line[-1]
        # Cards hash slowly (their suit is an Enum); rank and suit letter hash fast.
        key = (last.rank, last.suit._value_, card.rank, card.suit._value_)
        try:
            return memo[key]
        except KeyError:
            verdict = bool(self._main(line, card, None))
            if len(memo) < _MEMO_LIMIT:
                memo[key] = verdict
            return verdict

    def __repr__(self) -> str:
        return f"parse_rule({self._text!r})"


def _boolean(node: Node, what: str) -> Fn:
    check_each_scope(node)
    kind, fn = compile_node(node)
    if kind != "bool":
        raise RuleSyntaxError(f"{what} must be true or false, but this is {TYPE_NAMES[kind]}",
                              node.line, node.column)
    return fn


def _costliest(node: Node) -> Node:
    """The aggregate that costs most (the first of equals), to point at; the node itself when
    it has none."""
    best, best_key = node, (-1, 0, 0)
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, Call) and current.name in ("count", "any", "all", "sum"):
            key = (visits(current, VISITS_LINE), -current.line, -current.column)  # the first of equals
            if key > best_key:
                best, best_key = current, key
            continue  # the outer aggregate already counts the inner ones
        for value in (getattr(current, f) for f in getattr(current, "__slots__", ())):
            stack.extend(c for c in (value if isinstance(value, tuple) else (value,)) if isinstance(c, Node))
    return best


def _check_cost(tree: RuleTree) -> None:
    cost = visits(tree.main, VISITS_LINE) + (visits(tree.starter, VISITS_LINE) if tree.starter else 0)
    if cost > MAX_VISITS:
        where = _costliest(tree.main)
        raise RuleSyntaxError(
            f"the rule is too costly: one decision on a line of {VISITS_LINE} cards takes about "
            f"{cost} steps (at most {MAX_VISITS}); aggregates over the whole line added up or nested "
            "multiply the cost: use fewer of them, or last(k)", where.line, where.column)


def parse_rule(text: str) -> CompiledRule:
    """Parse and compile a rule text; raises RuleSyntaxError (``line L, column C: ...``)."""
    if not isinstance(text, str):
        raise TypeError(f"a rule text must be a str, got {type(text).__name__}")
    if not text.strip():
        raise RuleSyntaxError("the rule is empty", 1, 1)
    if len(text) > MAX_RULE_CHARS:
        line = text.count("\n", 0, MAX_RULE_CHARS) + 1
        column = MAX_RULE_CHARS - (text.rfind("\n", 0, MAX_RULE_CHARS) + 1) + 1
        raise RuleSyntaxError(f"the rule is too long: {len(text)} characters (at most {MAX_RULE_CHARS})",
                              line, column)
    try:
        return CompiledRule(text, parse(text))
    except RecursionError:  # a guard behind the parser's own limits
        raise RuleSyntaxError("the rule is nested too deeply", 1, 1) from None

