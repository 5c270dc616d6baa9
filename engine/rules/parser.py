"""A recursive-descent parser for the rule language (R1). Nothing is ever ``eval``-ed.

Grammar (lowest precedence first)::

    rule       := [ 'start' [INT] ':' expr (';' | newline) ] expr
    expr       := 'if' expr 'then' expr 'else' expr | or
    or         := xor ('or' xor)*
    xor        := and ('xor' and)*
    and        := not ('and' not)*
    not        := 'not' not | comparison
    comparison := sum [ compop rhs ['mod' unary]
                      | ['not'] 'in' (rhs '..' rhs | '{' item (',' item)* '}') ['mod' unary] ]
    item       := rhs ['..' rhs]
    sum        := term (('+' | '-') term)*
    rhs        := the same as sum, but without 'mod' ('%' stays): a 'mod' after the
                  right side is the congruence suffix ('a == b mod 13')
    term       := unary (('*' | '%' | 'mod') unary)*
    unary      := '-' unary | postfix
    postfix    := primary ('.' NAME)*
    primary    := INT | CARD | SUIT | 'true' | 'false' | 'card' | 'pos' | 'each'
                | 'prev' ['(' expr ')'] | 'line' ['[' expr ']'] | 'last' '(' expr ')'
                | FUNCTION '(' expr (',' expr)* ')' | '(' expr ')' | 'if' ...
                | a suit, colour or rank word (hearts, heart, red, king)

Limits: 300 tokens, 60 levels of nesting (so no text can exhaust Python's stack).

>>> parse('start 2: card.red; card.rank > prev.rank').starter_count
2
"""

from __future__ import annotations

from collections.abc import Callable

from engine.rules.errors import RuleSyntaxError
from engine.rules.lexer import Token, tokenize
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

__all__ = ["COLOUR_NAMES", "FUNCTIONS", "RANK_NAMES", "SUIT_NAMES", "parse"]

FUNCTIONS = frozenset({"count", "any", "all", "sum", "len", "abs", "min", "max", "next", "suit"})
# Words for suits and ranks, singular or plural: `card.suit == heart`, `card.rank < king`.
SUIT_NAMES = {name + end: name + "s" for name in ("club", "diamond", "heart", "spade") for end in ("", "s")}
RANK_NAMES = {"ace": 1, "jack": 11, "queen": 12, "king": 13}
COLOUR_NAMES = frozenset({"red", "black"})
_COMPARE_OPS = frozenset({"==", "=", "!=", "<", "<=", ">", ">="})
_MAX_STARTER = 8
_MAX_TOKENS = 300  # a rule written in a minute has a few dozen
_MAX_NESTING = 60  # parentheses, if/else, function arguments: keeps recursion far from Python's limit


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = tokenize(text)
        if len(self.tokens) > _MAX_TOKENS:
            t = self.tokens[_MAX_TOKENS]
            raise RuleSyntaxError(f"the rule is too long: more than {_MAX_TOKENS} words and signs",
                                  t.line, t.column)
        self.i = 0
        self.depth = 0

    # -- token helpers ------------------------------------------------------------
    @property
    def tok(self) -> Token:
        return self.tokens[self.i]

    def at(self, text: str) -> bool:
        t = self.tok
        return t.kind in ("OP", "KEYWORD") and t.text == text

    def advance(self) -> Token:
        t = self.tokens[self.i]
        if t.kind != "END":
            self.i += 1
        return t

    def error(self, expected: str, tok: Token | None = None) -> RuleSyntaxError:
        t = tok or self.tok
        return RuleSyntaxError(f"expected {expected}, found {t.describe()}", t.line, t.column)

    def expect(self, text: str) -> Token:
        if not self.at(text):
            raise self.error(repr(text))
        return self.advance()

    # -- grammar ------------------------------------------------------------------
    def rule(self) -> RuleTree:
        starter_count, starter = 1, None
        if self.at("start"):
            self.advance()
            if self.tok.kind == "INT":
                count_tok = self.advance()
                starter_count = _int_value(count_tok)
                if not 1 <= starter_count <= _MAX_STARTER:
                    raise RuleSyntaxError(
                        f"a starter has 1 to {_MAX_STARTER} cards (C4), not {count_tok.text!r}",
                        count_tok.line, count_tok.column)
            self.expect(":")
            starter = self.expr()
            if self.at(";"):
                self.advance()
            elif not self.tok.newline_before or self.tok.kind == "END":
                raise self.error("';' or a new line after the start clause")
        main = self.expr()
        if self.tok.kind != "END":
            raise self.error("an operator or the end of the rule")
        return RuleTree(starter_count, starter, main)

    def expr(self) -> Node:
        return self.nested(self._expr)

    def _expr(self) -> Node:
        if self.at("if"):
            t = self.advance()
            cond = self.expr()
            self.expect("then")
            then = self.expr()
            self.expect("else")
            otherwise = self.expr()
            return Conditional(t.line, t.column, cond, then, otherwise)
        return self.or_expr()

    def _left_assoc(self, op: str, sub: str) -> Node:
        parse_sub = getattr(self, sub)
        left: Node = parse_sub()
        while self.at(op):
            t = self.advance()
            left = Binary(t.line, t.column, op, left, parse_sub())
        return left

    def or_expr(self) -> Node:
        return self._left_assoc("or", "xor_expr")

    def xor_expr(self) -> Node:
        return self._left_assoc("xor", "and_expr")

    def and_expr(self) -> Node:
        return self._left_assoc("and", "not_expr")

    def not_expr(self) -> Node:
        if self.at("not"):
            t = self.advance()
            return Unary(t.line, t.column, "not", self.nested(self.not_expr))
        return self.comparison()

    def nested(self, parse: Callable[[], Node]) -> Node:
        self.depth += 1
        try:
            if self.depth > _MAX_NESTING:
                raise RuleSyntaxError(f"the rule is nested more than {_MAX_NESTING} deep", self.tok.line,
                                      self.tok.column)
            return parse()
        finally:
            self.depth -= 1

    def comparison(self) -> Node:
        left = self.sum(allow_mod=True)
        t = self.tok
        if t.kind == "OP" and t.text in _COMPARE_OPS:
            self.advance()
            right = self.sum(allow_mod=False)
            op = "==" if t.text == "=" else t.text
            return Compare(t.line, t.column, op, left, right, self.modulus())
        negated = False
        if self.at("not") and self.tokens[self.i + 1].text == "in":
            self.advance()
            negated = True
        if self.at("in"):
            self.advance()
            items: list[Node] = []
            if self.at("{"):
                self.advance()
                items.append(self.item())
                while self.at(","):
                    self.advance()
                    items.append(self.item())
                self.expect("}")
            else:
                item_tok = self.tok
                item = self.item()
                if not isinstance(item, RangeItem):
                    raise RuleSyntaxError(
                        f"expected a range such as 1..7 or a set such as {{1, 11..13}} after 'in', "
                        f"found {item_tok.describe()}", item_tok.line, item_tok.column)
                items.append(item)
            return Member(t.line, t.column, left, tuple(items), negated, self.modulus())
        if negated:
            raise self.error("'in'")
        return left

    def item(self) -> Node:
        low = self.sum(allow_mod=False)
        if self.at(".."):
            t = self.advance()
            return RangeItem(t.line, t.column, low, self.sum(allow_mod=False))
        return low

    def modulus(self) -> Node | None:
        if self.at("mod"):
            self.advance()
            return self.unary()
        return None

    def sum(self, allow_mod: bool) -> Node:
        left = self.term(allow_mod)
        while self.at("+") or self.at("-"):
            t = self.advance()
            left = Binary(t.line, t.column, t.text, left, self.term(allow_mod))
        return left

    def term(self, allow_mod: bool) -> Node:
        left = self.unary()
        while self.at("*") or self.at("%") or (allow_mod and self.at("mod")):
            t = self.advance()
            op = "mod" if t.text == "%" else t.text
            left = Binary(t.line, t.column, op, left, self.unary())
        return left

    def unary(self) -> Node:
        if self.at("-"):
            t = self.advance()
            return Unary(t.line, t.column, "-", self.nested(self.unary))
        node = self.primary()
        while self.at("."):
            self.advance()
            name_tok = self.tok
            if name_tok.kind not in ("NAME", "KEYWORD"):
                raise self.error("an attribute name such as rank, suit or red")
            self.advance()
            node = Attr(name_tok.line, name_tok.column, node, name_tok.text)
        return node

    def primary(self) -> Node:
        t = self.tok
        if t.kind == "INT":
            self.advance()
            return Literal(t.line, t.column, "int", str(_int_value(t)))
        if t.kind == "CARD":
            self.advance()
            return Literal(t.line, t.column, "card", t.text)
        if t.kind == "SUIT":
            self.advance()
            return Literal(t.line, t.column, "suit", t.text)
        if t.kind == "KEYWORD":
            if t.text in ("true", "false"):
                self.advance()
                return Literal(t.line, t.column, "bool", t.text)
            if t.text == "card":
                self.advance()
                return CardRef(t.line, t.column, back=True, index=None)
            if t.text in ("pos", "each"):
                self.advance()
                return Name(t.line, t.column, t.text)
            if t.text == "prev":
                self.advance()
                index: Node = Literal(t.line, t.column, "int", "1")
                if self.at("("):
                    self.advance()
                    index = self.expr()
                    self.expect(")")
                return CardRef(t.line, t.column, back=True, index=index)
            if t.text == "line":
                self.advance()
                if self.at("["):
                    self.advance()
                    index = self.expr()
                    self.expect("]")
                    return CardRef(t.line, t.column, back=False, index=index)
                return Name(t.line, t.column, "line")
            if t.text == "last":
                self.advance()
                return Call(t.line, t.column, "last", self.arguments())
            if t.text == "if":
                return self.expr()
        if t.kind == "OP" and t.text == "(":
            self.advance()
            inner = self.expr()
            self.expect(")")
            return inner
        if t.kind == "NAME":
            self.advance()
            if t.text in SUIT_NAMES:
                return Literal(t.line, t.column, "suit", SUIT_NAMES[t.text])
            if t.text in RANK_NAMES:
                return Literal(t.line, t.column, "int", str(RANK_NAMES[t.text]))
            if t.text in COLOUR_NAMES:
                return Literal(t.line, t.column, "colour", t.text)
            if t.text in FUNCTIONS:
                return Call(t.line, t.column, t.text, self.arguments())
            raise RuleSyntaxError(f"unknown name {t.text!r}", t.line, t.column)
        raise self.error("a value (a number, card, prev, pos, ...)")

    def arguments(self) -> tuple[Node, ...]:
        self.expect("(")
        args = [self.expr()]
        while self.at(","):
            self.advance()
            args.append(self.expr())
        self.expect(")")
        return tuple(args)


def _int_value(tok: Token) -> int:
    return {"A": 1, "J": 11, "Q": 12, "K": 13}.get(tok.text, 0) or int(tok.text)


def parse(text: str) -> RuleTree:
    """Parse a rule text into its tree; raises RuleSyntaxError naming line and column."""
    return _Parser(text).rule()
