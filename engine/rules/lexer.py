"""The tokenizer of the rule language (R1): text -> tokens with line and column.

>>> [t.text for t in tokenize('card.rank - prev.rank in 1..3 mod 13')][:6]
['card', '.', 'rank', '-', 'prev', '.']
>>> tokenize('card == 10H')[2]
Token(kind='CARD', text='10H', line=1, column=9, newline_before=False)
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.rules.errors import RuleSyntaxError

__all__ = ["KEYWORDS", "MAX_NUMBER", "SUIT_SYMBOLS", "Token", "tokenize"]

# Words with a fixed meaning; everything else that looks like a word is an error.
KEYWORDS = frozenset({
    "if", "then", "else", "and", "or", "xor", "not", "in", "mod", "true", "false",
    "start", "card", "prev", "line", "pos", "each", "last",
})
SUIT_SYMBOLS = {"♣": "clubs", "♧": "clubs", "♦": "diamonds", "♢": "diamonds",
                "♥": "hearts", "♡": "hearts", "♠": "spades", "♤": "spades"}
_RANK_WORDS = {"A", "J", "Q", "K"}
_CARD_RANKS = {"A", "J", "Q", "K", "T"} | {str(n) for n in range(2, 11)}
_SUIT_LETTERS = {"C", "D", "H", "S"}
_UNICODE_OPERATORS = {"≠": "!=", "≤": "<=", "≥": ">="}
# Longest first, so '==' wins over '='.
# A number in a rule is a rank, a position or a sum of ranks: what cards can be stays far
# below MAX_NUMBER (a whole shoe of 3 decks adds up to 1,092). The bound keeps a range
# such as 1..10000000 or a pasted 5,000-digit literal from costing time or memory.
MAX_NUMBER = 9_999
_OPERATORS = ("==", "!=", "<=", ">=", "..", "=", "<", ">", "+", "-", "*", "%",
              "(", ")", "[", "]", "{", "}", ",", ".", ":", ";")


@dataclass(frozen=True, slots=True)
class Token:
    """One token. ``kind`` is INT, CARD, NAME, KEYWORD, SUIT, OP or END."""

    kind: str
    text: str
    line: int
    column: int
    newline_before: bool = False

    def describe(self) -> str:
        return "the end of the rule" if self.kind == "END" else repr(self.text)


def _is_word_char(ch: str) -> bool:
    return ch.isascii() and (ch.isalnum() or ch == "_")


def _shorten(word: str) -> str:
    """A word quoted for a message, cut when long (a message never repeats a huge input)."""
    return repr(word) if len(word) <= 20 else f"{word[:12]!r}... ({len(word)} characters)"


def tokenize(text: str) -> list[Token]:
    """Split a rule text into tokens; ``#`` starts a comment up to the end of the line."""
    tokens: list[Token] = []
    i, line, line_start = 0, 1, 0
    newline_before = False
    n = len(text)
    while i < n:
        ch = text[i]
        column = i - line_start + 1
        if ch == "\n":
            i += 1
            line += 1
            line_start = i
            newline_before = True
            continue
        if ch.isspace():
            i += 1
            continue
        if ch == "#":
            while i < n and text[i] != "\n":
                i += 1
            continue
        if _is_word_char(ch):
            j = i
            while j < n and _is_word_char(text[j]):
                j += 1
            word = text[i:j]
            upper = word.upper()
            if j < n and text[j] in SUIT_SYMBOLS and upper in _CARD_RANKS:
                # 7♥, Q♦: a card written with a suit symbol
                tokens.append(Token("CARD", upper + SUIT_SYMBOLS[text[j]][0].upper(), line, column,
                                    newline_before))
                j += 1
            elif word.isdigit():
                if len(word.lstrip("0")) > len(str(MAX_NUMBER)) or int(word) > MAX_NUMBER:
                    raise RuleSyntaxError(f"the number {_shorten(word)} is larger than anything cards can "
                                          f"count to (at most {MAX_NUMBER})", line, column)
                tokens.append(Token("INT", word, line, column, newline_before))
            elif len(upper) >= 2 and upper[:-1] in _CARD_RANKS and upper[-1] in _SUIT_LETTERS:
                tokens.append(Token("CARD", upper, line, column, newline_before))
            elif upper in _RANK_WORDS:
                tokens.append(Token("INT", upper, line, column, newline_before))
            elif word[0].isdigit():
                raise RuleSyntaxError(f"{_shorten(word)} is neither a number nor a card (write 7H, 10S, QD)",
                                      line, column)
            elif word.lower() in KEYWORDS:  # keywords and names are read in any case
                tokens.append(Token("KEYWORD", word.lower(), line, column, newline_before))
            else:
                tokens.append(Token("NAME", word.lower(), line, column, newline_before))
            i = j
            newline_before = False
            continue
        if ch in SUIT_SYMBOLS:
            tokens.append(Token("SUIT", SUIT_SYMBOLS[ch], line, column, newline_before))
            i += 1
            newline_before = False
            continue
        if ch in _UNICODE_OPERATORS:
            tokens.append(Token("OP", _UNICODE_OPERATORS[ch], line, column, newline_before))
            i += 1
            newline_before = False
            continue
        for op in _OPERATORS:
            if text.startswith(op, i):
                tokens.append(Token("OP", op, line, column, newline_before))
                i += len(op)
                break
        else:
            raise RuleSyntaxError(f"unexpected character {ch!r}", line, column)
        newline_before = False
    tokens.append(Token("END", "", line, i - line_start + 1, newline_before))
    return tokens
