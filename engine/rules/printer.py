"""Print a rule tree back as rule text (the printer of the rule language's parser).

The text is canonical: one spacing, the fewest parentheses that keep the meaning, so
``parse(format_rule(parse(text)))`` is the same tree as ``parse(text)``.

>>> from engine.rules.parser import parse
>>> format_rule(parse('IF prev.RED then card.black   else card.red'))
'if prev.red then card.black else card.red'
>>> format_rule(parse('start 2: card.rank==pos+1; (card.rank - prev.rank) in 1..3 mod 13'))
'start 2: card.rank == pos + 1;\\ncard.rank - prev.rank in 1..3 mod 13'
"""

from __future__ import annotations

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

__all__ = ["format_node", "format_rule"]

# Binding strength of each form: a child weaker than its context gets parentheses.
_IF, _OR, _XOR, _AND, _NOT, _COMPARE, _SUM, _TERM, _NEG, _ATOM = range(10)
_BINARY_LEVEL = {"or": _OR, "xor": _XOR, "and": _AND, "+": _SUM, "-": _SUM, "*": _TERM, "mod": _TERM}


def _level(node: Node) -> int:
    if isinstance(node, Conditional):
        return _IF
    if isinstance(node, Binary):
        return _BINARY_LEVEL[node.op]
    if isinstance(node, Unary):
        return _NOT if node.op == "not" else _NEG
    if isinstance(node, (Compare, Member)):
        return _COMPARE
    return _ATOM


def _has_mod(node: Node) -> bool:
    """True when printing ``node`` bare would show a ``mod`` at its top (sum/term level)."""
    if isinstance(node, Binary) and node.op in ("+", "-", "*", "mod"):
        return node.op == "mod" or _has_mod(node.left) or _has_mod(node.right)
    return False


def _at(node: Node, level: int, right_side: bool = False) -> str:
    """``node`` printed where at least ``level`` binds; on the right of a comparison a bare
    ``mod`` would read as a congruence, so such a term gets parentheses too."""
    text = format_node(node)
    if _level(node) < level or (right_side and _has_mod(node)):
        return f"({text})"
    return text


def format_node(node: Node) -> str:
    if isinstance(node, Literal):
        return node.value
    if isinstance(node, Name):
        return node.name
    if isinstance(node, CardRef):
        if node.index is None:
            return "card"
        if node.back:
            if isinstance(node.index, Literal) and node.index.value == "1":
                return "prev"
            return f"prev({format_node(node.index)})"
        return f"line[{format_node(node.index)}]"
    if isinstance(node, Attr):
        return f"{_at(node.target, _ATOM)}.{node.name}"
    if isinstance(node, Unary):
        if node.op == "not":
            return f"not {_at(node.operand, _NOT)}"
        return f"-{_at(node.operand, _NEG)}"
    if isinstance(node, Binary):
        level = _BINARY_LEVEL[node.op]
        return f"{_at(node.left, level)} {node.op} {_at(node.right, level + 1)}"
    if isinstance(node, Compare):
        text = f"{_at(node.left, _SUM)} {node.op} {_at(node.right, _SUM, right_side=True)}"
        return text + _modulus(node.modulus)
    if isinstance(node, Member):
        word = "not in" if node.negated else "in"
        if len(node.items) == 1 and isinstance(node.items[0], RangeItem):
            items = _item(node.items[0])
        else:
            items = "{" + ", ".join(_item(i) for i in node.items) + "}"
        return f"{_at(node.value, _SUM)} {word} {items}{_modulus(node.modulus)}"
    if isinstance(node, Conditional):
        return (f"if {format_node(node.condition)} then {format_node(node.then)} "
                f"else {format_node(node.otherwise)}")
    if isinstance(node, Call):
        return f"{node.name}({', '.join(format_node(a) for a in node.args)})"
    if isinstance(node, RangeItem):
        return _item(node)
    raise TypeError(f"cannot print {type(node).__name__}")  # pragma: no cover


def _item(node: Node) -> str:
    if isinstance(node, RangeItem):
        return f"{_at(node.low, _SUM, right_side=True)}..{_at(node.high, _SUM, right_side=True)}"
    return _at(node, _SUM, right_side=True)


def _modulus(node: Node | None) -> str:
    return "" if node is None else f" mod {_at(node, _NEG)}"


def format_rule(tree: RuleTree) -> str:
    """The canonical text of a whole rule; a start clause goes on its own line."""
    main = format_node(tree.main)
    if tree.starter is None:
        return main
    count = "" if tree.starter_count == 1 else f" {tree.starter_count}"
    return f"start{count}: {format_node(tree.starter)};\n{main}"
