"""Type-check a rule tree and compile it into nested Python closures (R1).

Each compiled node is a function ``f(line, card, each)``: ``line`` is the main line so far,
``card`` the card tried, ``each`` the card an aggregate (count/any/all/sum) is visiting.
No ``eval``: a rule text can only combine the operations below.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from engine.cards import Card, Colour, Suit
from engine.rules.errors import RuleEvaluationError, RuleSyntaxError
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
    Unary,
)

__all__ = [
    "TYPE_NAMES",
    "Dependencies",
    "Fn",
    "check_each_scope",
    "compile_node",
    "dependencies",
    "visits",
]

Fn = Callable[[Sequence[Card], Card, "Card | None"], Any]
TYPE_NAMES = {"int": "a number", "bool": "true/false", "suit": "a suit", "colour": "a colour",
              "card": "a card", "seq": "a sequence of cards"}

_SUITS = {"clubs": Suit.CLUBS, "diamonds": Suit.DIAMONDS, "hearts": Suit.HEARTS, "spades": Suit.SPADES}
_SUIT_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
_NEXT_SUIT = {s: s.next() for s in _SUIT_ORDER}
_RED, _BLACK = Colour.RED, Colour.BLACK
_D, _H = Suit.DIAMONDS, Suit.HEARTS
_PRIMES = frozenset({2, 3, 5, 7, 11, 13})
_ANY_CARD = Card(1, Suit.CLUBS)  # evaluates constant parts of a rule at compile time
_MR_BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)  # decide every n < 3.3 * 10**24


def _is_prime(n: int) -> bool:
    """Any whole number (sums of ranks reach 17, 19, 23, ...): trial division for small
    ones, Miller-Rabin with fixed bases (exact below 3.3e24) for the rest, so a product
    of large numbers costs microseconds, not hours."""
    if n < 2:
        return False
    if n < 1_000_000:
        return all(n % d for d in range(2, math.isqrt(n) + 1))
    if n >= 3_317_044_064_679_887_385_961_981:
        raise RuleEvaluationError(f"a number of about {n.bit_length() * 3 // 10} digits is too large "
                                  "to test for .prime")
    for p in _MR_BASES:
        if n % p == 0:
            return n == p
    d, r = n - 1, 0
    while d % 2 == 0:
        d //= 2
        r += 1
    for a in _MR_BASES:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def _is_int_literal(node: Node) -> bool:
    """A number known when the rule is compiled: 7, K, -3."""
    if isinstance(node, Literal):
        return node.kind == "int"
    return isinstance(node, Unary) and node.op == "-" and _is_int_literal(node.operand)


def _is_red(c: Card) -> bool:
    s = c.suit
    return s is _D or s is _H


# attribute -> (type of the owner, type of the result, getter)
_CARD_ATTRS: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "rank": ("int", lambda c: c.rank),
    "suit": ("suit", lambda c: c.suit),
    "colour": ("colour", lambda c: _RED if _is_red(c) else _BLACK),
    "color": ("colour", lambda c: _RED if _is_red(c) else _BLACK),
    "red": ("bool", _is_red),
    "black": ("bool", lambda c: not _is_red(c)),
    "even": ("bool", lambda c: not c.rank & 1),
    "odd": ("bool", lambda c: c.rank & 1 == 1),
    "face": ("bool", lambda c: c.rank >= 11),
    "prime": ("bool", lambda c: c.rank in _PRIMES),
}


def card_attribute(name: str) -> Callable[[Any], Any]:
    """The getter of a card attribute of the rule language (``colour``, ``rank``, ...)."""
    return _CARD_ATTRS[name][1]


_OTHER_ATTRS: dict[tuple[str, str], tuple[str, Callable[[Any], Any]]] = {
    ("int", "even"): ("bool", lambda n: not n & 1),
    ("int", "odd"): ("bool", lambda n: n & 1 == 1),
    ("int", "prime"): ("bool", lambda n: _is_prime(n)),
    ("suit", "colour"): ("colour", lambda s: _RED if s is _D or s is _H else _BLACK),
    ("suit", "color"): ("colour", lambda s: _RED if s is _D or s is _H else _BLACK),
    ("suit", "red"): ("bool", lambda s: s is _D or s is _H),
    ("suit", "black"): ("bool", lambda s: not (s is _D or s is _H)),
    ("colour", "red"): ("bool", lambda c: c is _RED),
    ("colour", "black"): ("bool", lambda c: c is _BLACK),
}


def _where(node: Node) -> str:
    return f"(rule line {node.line}, column {node.column})"


def _type_error(node: Node, message: str) -> RuleSyntaxError:
    return RuleSyntaxError(message, node.line, node.column)


def _expect(node: Node, typed: tuple[str, Fn], want: str, what: str) -> Fn:
    if typed[0] != want:
        raise _type_error(node, f"{what} needs {TYPE_NAMES[want]}, got {TYPE_NAMES[typed[0]]}")
    return typed[1]


def _const(value: Any) -> Fn:
    return lambda line, card, each: value


def compile_node(node: Node) -> tuple[str, Fn]:
    """Return (type, closure) for a node; raises RuleSyntaxError on a type mismatch."""
    if isinstance(node, Literal):
        return _literal(node)
    if isinstance(node, Name):
        return _name(node)
    if isinstance(node, CardRef):
        return "card", _card_ref(node)
    if isinstance(node, Attr):
        return _attr(node)
    if isinstance(node, Unary):
        return _unary(node)
    if isinstance(node, Binary):
        return _binary(node)
    if isinstance(node, Compare):
        return "bool", _compare(node)
    if isinstance(node, Member):
        return "bool", _member(node)
    if isinstance(node, Conditional):
        return _conditional(node)
    if isinstance(node, Call):
        return _call(node)
    if isinstance(node, RangeItem):
        raise _type_error(node, "a range lo..hi may only follow 'in'")
    raise _type_error(node, f"cannot compile {type(node).__name__}")  # pragma: no cover


def _literal(node: Literal) -> tuple[str, Fn]:
    if node.kind == "int":
        return "int", _const(int(node.value))
    if node.kind == "bool":
        return "bool", _const(node.value == "true")
    if node.kind == "suit":
        return "suit", _const(_SUITS[node.value])
    if node.kind == "colour":
        return "colour", _const(_RED if node.value == "red" else _BLACK)
    return "card", _const(Card.parse(node.value))


def _name(node: Name) -> tuple[str, Fn]:
    if node.name == "pos":
        return "int", lambda line, card, each: len(line)
    if node.name == "line":
        return "seq", lambda line, card, each: line
    where = _where(node)

    def each_card(line: Sequence[Card], card: Card, each: Card | None) -> Card:
        if each is None:  # pragma: no cover -- check_each_scope refuses such a rule
            raise RuleEvaluationError(f"'each' used outside count/any/all/sum {where}")
        return each

    return "card", each_card


def _card_ref(node: CardRef) -> Fn:
    if node.index is None:
        return lambda line, card, each: card
    where = _where(node)
    if node.back:
        if isinstance(node.index, Literal) and node.index.kind == "int":
            k = int(node.index.value)
            if k < 1:
                raise _type_error(node.index, f"prev({k}) makes no sense: prev(1) is the last card")
            name = "prev" if k == 1 else f"prev({k})"

            def prev_k(line: Sequence[Card], card: Card, each: Card | None) -> Card:
                if len(line) < k:
                    raise RuleEvaluationError(
                        f"{name} does not exist at position {len(line)} {where}: "
                        f"guard it, e.g. 'if pos >= {k} then ... else ...'")
                return line[-k]

            return prev_k
        back = _expect(node.index, compile_node(node.index), "int", "prev(k)")

        def prev_dynamic(line: Sequence[Card], card: Card, each: Card | None) -> Card:
            k: int = back(line, card, each)
            if not 1 <= k <= len(line):
                raise RuleEvaluationError(f"prev({k}) does not exist at position {len(line)} {where}")
            return line[-k]

        return prev_dynamic
    index = _expect(node.index, compile_node(node.index), "int", "line[i]")

    def line_at(line: Sequence[Card], card: Card, each: Card | None) -> Card:
        i: int = index(line, card, each)
        if not -len(line) <= i < len(line):
            raise RuleEvaluationError(f"line[{i}] does not exist at position {len(line)} {where}")
        return line[i]

    return line_at


def _attr(node: Attr) -> tuple[str, Fn]:
    owner_type, owner = compile_node(node.target)
    if owner_type == "card":
        if node.name not in _CARD_ATTRS:
            raise _type_error(node, f"a card has no attribute {node.name!r} "
                                    f"(try one of {', '.join(sorted(_CARD_ATTRS))})")
        result, get = _CARD_ATTRS[node.name]
        target = node.target
        if isinstance(target, CardRef) and target.index is None:
            return result, lambda line, card, each: get(card)
        if (isinstance(target, CardRef) and target.back and isinstance(target.index, Literal)
                and target.index.value == "1"):
            def prev_attr(line: Sequence[Card], card: Card, each: Card | None) -> Any:
                if line:
                    return get(line[-1])
                return get(owner(line, card, each))  # raises the explanatory error
            return result, prev_attr
        return result, lambda line, card, each: get(owner(line, card, each))
    if (owner_type, node.name) not in _OTHER_ATTRS:
        raise _type_error(node, f"{TYPE_NAMES[owner_type]} has no attribute {node.name!r}")
    result, get = _OTHER_ATTRS[(owner_type, node.name)]
    return result, lambda line, card, each: get(owner(line, card, each))


def _unary(node: Unary) -> tuple[str, Fn]:
    if node.op == "not":
        f = _expect(node.operand, compile_node(node.operand), "bool", "'not'")
        return "bool", lambda line, card, each: not f(line, card, each)
    g = _expect(node.operand, compile_node(node.operand), "int", "'-'")
    return "int", lambda line, card, each: -g(line, card, each)


def _modulo(where: str) -> Callable[[int, int], int]:
    def mod(a: int, m: int) -> int:
        if m <= 0:
            raise RuleEvaluationError(f"'mod {m}' needs a positive number {where}")
        return a % m
    return mod


def _binary(node: Binary) -> tuple[str, Fn]:
    op = node.op
    if op in ("and", "or", "xor"):
        a = _expect(node.left, compile_node(node.left), "bool", f"'{op}'")
        b = _expect(node.right, compile_node(node.right), "bool", f"'{op}'")
        if op == "and":
            return "bool", lambda line, card, each: a(line, card, each) and b(line, card, each)
        if op == "or":
            return "bool", lambda line, card, each: a(line, card, each) or b(line, card, each)
        return "bool", lambda line, card, each: a(line, card, each) != b(line, card, each)
    x = _expect(node.left, compile_node(node.left), "int", f"'{op}'")
    y = _expect(node.right, compile_node(node.right), "int", f"'{op}'")
    if op == "+":
        return "int", lambda line, card, each: x(line, card, each) + y(line, card, each)
    if op == "-":
        return "int", lambda line, card, each: x(line, card, each) - y(line, card, each)
    if op == "*":
        return "int", lambda line, card, each: x(line, card, each) * y(line, card, each)
    if isinstance(node.right, Literal) and int(node.right.value) > 0:
        n = int(node.right.value)
        return "int", lambda line, card, each: x(line, card, each) % n
    mod = _modulo(_where(node))
    return "int", lambda line, card, each: mod(x(line, card, each), y(line, card, each))


_ORDERINGS: dict[str, Callable[[Any, Any], bool]] = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}


def _compile_modulus(node: Node | None, value_type: str, owner: Node) -> Fn | None:
    if node is None:
        return None
    if value_type != "int":
        raise _type_error(owner, f"'mod' needs numbers, got {TYPE_NAMES[value_type]}")
    m = _expect(node, compile_node(node), "int", "'mod'")
    if isinstance(node, Literal) and int(node.value) <= 0:
        raise _type_error(node, f"'mod {node.value}' needs a positive number")
    return m


def _compare(node: Compare) -> Fn:
    lt, left = compile_node(node.left)
    rt, right = compile_node(node.right)
    if lt != rt:
        raise _type_error(node, f"'{node.op}' compares {TYPE_NAMES[lt]} with {TYPE_NAMES[rt]}")
    if lt == "seq":
        raise _type_error(node, "sequences cannot be compared; use count(...) or len(...)")
    if node.op not in ("==", "!=") and lt != "int":
        raise _type_error(node, f"'{node.op}' needs numbers, got {TYPE_NAMES[lt]}")
    test = _ORDERINGS[node.op]
    m = _compile_modulus(node.modulus, lt, node)
    if m is None:
        if node.op == "==":
            return lambda line, card, each: left(line, card, each) == right(line, card, each)
        if node.op == "!=":
            return lambda line, card, each: left(line, card, each) != right(line, card, each)
        return lambda line, card, each: test(left(line, card, each), right(line, card, each))
    mod = _modulo(_where(node))

    def congruence(line: Sequence[Card], card: Card, each: Card | None) -> bool:
        n = m(line, card, each)
        return test(mod(left(line, card, each), n), mod(right(line, card, each), n))

    return congruence


def _member(node: Member) -> Fn:
    vt, value = compile_node(node.value)
    if vt == "seq":
        raise _type_error(node.value, "a sequence cannot be tested with 'in'")
    singles: list[Fn] = []
    ranges: list[tuple[Fn, Fn]] = []
    constant: set[Any] = set()
    intervals: list[tuple[int, int]] = []  # constant ranges stay (lo, hi): 1..10000000 costs nothing
    all_constant = True
    for item in node.items:
        if isinstance(item, RangeItem):
            if vt != "int":
                raise _type_error(item, f"a range lo..hi holds numbers, but the value is {TYPE_NAMES[vt]}")
            lo = _expect(item.low, compile_node(item.low), "int", "a range")
            hi = _expect(item.high, compile_node(item.high), "int", "a range")
            ranges.append((lo, hi))
            if _is_int_literal(item.low) and _is_int_literal(item.high):
                intervals.append((lo((), _ANY_CARD, None), hi((), _ANY_CARD, None)))
            else:
                all_constant = False
        else:
            it, f = compile_node(item)
            if it != vt:
                raise _type_error(item, f"the set holds {TYPE_NAMES[it]}, but the value is {TYPE_NAMES[vt]}")
            singles.append(f)
            if isinstance(item, Literal):
                constant.add(f((), _ANY_CARD, None))
            else:
                all_constant = False
    m = _compile_modulus(node.modulus, vt, node)
    negated = node.negated
    mod = _modulo(_where(node))
    if all_constant and m is None:
        members = frozenset(constant)
        spans = tuple(intervals)

        def within(v: Any) -> bool:
            return v in members or any(lo <= v <= hi for lo, hi in spans)

        if negated:
            return lambda line, card, each: not within(value(line, card, each))
        return lambda line, card, each: within(value(line, card, each))
    if all_constant and isinstance(node.modulus, Literal):
        # R1: 'in ... mod n' is congruence, so the items are reduced as well as the value
        # (x in -2..2 mod 13 holds for x = 11, 12, 0, 1, 2): the residues are worked out once
        n = int(node.modulus.value)
        reduced = frozenset(v % n for v in constant)
        spans = tuple(intervals)

        def congruent(v: int) -> bool:
            r = v % n
            return r in reduced or any(_congruent_within(r, lo, hi, n) for lo, hi in spans)

        if negated:
            return lambda line, card, each: not congruent(value(line, card, each))
        return lambda line, card, each: congruent(value(line, card, each))

    def member(line: Sequence[Card], card: Card, each: Card | None) -> bool:
        v = value(line, card, each)
        if m is None:
            found = any(v == f(line, card, each) for f in singles) or any(
                lo(line, card, each) <= v <= hi(line, card, each) for lo, hi in ranges)
            return found != negated
        n = m(line, card, each)
        r = mod(v, n)
        found = any(r == mod(f(line, card, each), n) for f in singles) or any(
            _congruent_within(r, lo(line, card, each), hi(line, card, each), n) for lo, hi in ranges)
        return found != negated

    return member


def _congruent_within(r: int, lo: int, hi: int, n: int) -> bool:
    """True when some k in lo..hi is congruent to ``r`` (already reduced) modulo ``n``."""
    if hi < lo:
        return False
    return hi - lo + 1 >= n or (r - lo) % n <= hi - lo


def _conditional(node: Conditional) -> tuple[str, Fn]:
    cond = _expect(node.condition, compile_node(node.condition), "bool", "'if'")
    tt, then = compile_node(node.then)
    et, otherwise = compile_node(node.otherwise)
    if tt != et:
        raise _type_error(node, f"'then' gives {TYPE_NAMES[tt]} but 'else' gives {TYPE_NAMES[et]}")
    return tt, lambda line, card, each: then(line, card, each) if cond(line, card, each) else otherwise(
        line, card, each)


def _arity(node: Call, *counts: int) -> None:
    if len(node.args) not in counts:
        want = " or ".join(str(c) for c in counts)
        raise _type_error(node, f"{node.name}() takes {want} argument(s), got {len(node.args)}")


def _call(node: Call) -> tuple[str, Fn]:
    name, args = node.name, node.args
    where = _where(node)
    if name == "last":
        _arity(node, 1)
        k = _expect(args[0], compile_node(args[0]), "int", "last(k)")

        def last(line: Sequence[Card], card: Card, each: Card | None) -> Sequence[Card]:
            n = k(line, card, each)
            if not 0 <= n <= len(line):
                raise RuleEvaluationError(
                    f"last({n}) needs {n} cards but the line has {len(line)} {where}: "
                    f"guard it, or write last(min(pos, {n}))")
            return line[len(line) - n:]

        return "seq", last
    if name in ("count", "any", "all", "sum"):
        _arity(node, 2)
        seq = _expect(args[0], compile_node(args[0]), "seq", f"{name}()'s first argument")
        body_type, body = compile_node(args[1])
        want = "int" if name == "sum" else "bool"
        if body_type != want:
            raise _type_error(args[1], f"{name}() needs {TYPE_NAMES[want]} to "
                                       f"{'add up' if want == 'int' else 'test'}, got {TYPE_NAMES[body_type]}")
        if name == "count":
            return "int", lambda line, card, each: sum(1 for x in seq(line, card, each) if body(line, card, x))
        if name == "sum":
            return "int", lambda line, card, each: sum(body(line, card, x) for x in seq(line, card, each))
        if name == "any":
            return "bool", lambda line, card, each: any(body(line, card, x) for x in seq(line, card, each))
        return "bool", lambda line, card, each: all(body(line, card, x) for x in seq(line, card, each))
    if name == "len":
        _arity(node, 1)
        seq = _expect(args[0], compile_node(args[0]), "seq", "len()")
        return "int", lambda line, card, each: len(seq(line, card, each))
    if name == "abs":
        _arity(node, 1)
        x = _expect(args[0], compile_node(args[0]), "int", "abs()")
        return "int", lambda line, card, each: abs(x(line, card, each))
    if name in ("min", "max"):
        if len(args) < 2:
            raise _type_error(node, f"{name}() takes 2 or more numbers, got {len(args)}")
        fs = [_expect(a, compile_node(a), "int", f"{name}()") for a in args]
        pick = min if name == "min" else max
        return "int", lambda line, card, each: pick(f(line, card, each) for f in fs)
    if name == "next":
        _arity(node, 1)
        s = _expect(args[0], compile_node(args[0]), "suit", "next()")
        return "suit", lambda line, card, each: _NEXT_SUIT[s(line, card, each)]
    if name == "suit":
        _arity(node, 1)
        i = _expect(args[0], compile_node(args[0]), "int", "suit()")
        return "suit", lambda line, card, each: _SUIT_ORDER[i(line, card, each) % 4]
    raise _type_error(node, f"unknown function {name!r}")  # pragma: no cover


MAX_AGGREGATE_NESTING = 2  # count(line, any(line, ...)) is fine; deeper costs line-length ** depth


def check_each_scope(node: Node, depth: int = 0) -> None:
    """``each`` means the card an aggregate visits: refuse it anywhere else, at parse time;
    refuse aggregates nested deeper than MAX_AGGREGATE_NESTING (their cost multiplies)."""
    if isinstance(node, Name) and node.name == "each" and depth == 0:
        raise _type_error(node, "'each' only means something inside count/any/all/sum(cards, ...)")
    if isinstance(node, Call) and node.name in ("count", "any", "all", "sum") and len(node.args) == 2:
        if depth >= MAX_AGGREGATE_NESTING:
            raise _type_error(node, f"count/any/all/sum nest at most {MAX_AGGREGATE_NESTING} deep")
        check_each_scope(node.args[0], depth)
        check_each_scope(node.args[1], depth + 1)
        return
    for value in (getattr(node, f) for f in getattr(node, "__slots__", ())):
        for child in (value if isinstance(value, tuple) else (value,)):
            if isinstance(child, Node):
                check_each_scope(child, depth)


_AGGREGATES = ("count", "any", "all", "sum")


def visits(node: Node, line_length: int) -> int:
    """An upper bound on the steps one decision costs when the line holds ``line_length``
    cards: each node is one step, an aggregate repeats its body once per card visited.
    Aggregates over the whole line added or nested are what make a rule slow."""
    if isinstance(node, Call) and node.name in _AGGREGATES and len(node.args) == 2:
        return 1 + visits(node.args[0], line_length) + (
            _sequence_length(node.args[0], line_length) * visits(node.args[1], line_length))
    total = 1
    for value in (getattr(node, f) for f in getattr(node, "__slots__", ())):
        for child in (value if isinstance(value, tuple) else (value,)):
            if isinstance(child, Node):
                total += visits(child, line_length)
    return total


def _sequence_length(node: Node, line_length: int) -> int:
    if (isinstance(node, Call) and node.name == "last" and len(node.args) == 1
            and isinstance(node.args[0], Literal) and node.args[0].kind == "int"):
        return min(int(node.args[0].value), line_length)
    return line_length  # 'line', last(pos), last(n) with n worked out at play time


class Dependencies:
    """What a rule looks at: used to decide whether answers may be cached."""

    def __init__(self) -> None:
        self.max_back = 0  # deepest constant prev(k)
        self.dynamic = False  # pos, line, aggregates, dynamic indexes


def dependencies(node: Node, deps: Dependencies | None = None) -> Dependencies:
    deps = deps or Dependencies()
    if isinstance(node, Name) and node.name in ("pos", "line"):
        deps.dynamic = True
    elif isinstance(node, CardRef) and node.index is not None:
        if node.back and isinstance(node.index, Literal):
            deps.max_back = max(deps.max_back, int(node.index.value))
        else:
            deps.dynamic = True
    elif isinstance(node, Call) and node.name == "last":
        deps.dynamic = True
    for value in (getattr(node, f) for f in getattr(node, "__slots__", ())):
        for child in (value if isinstance(value, tuple) else (value,)):
            if isinstance(child, Node):
                dependencies(child, deps)
    return deps
