"""Cards and the shoe (docs/rules.md C1).

>>> Card.parse('10h')
Card.parse('10H')
>>> Card.parse('q♦').colour
<Colour.RED: 'red'>
>>> str(Card.parse('TS'))
'10S'
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "Card",
    "CardParseError",
    "Colour",
    "Suit",
    "DECK_SIZE",
    "DEFAULT_DECKS",
    "RANK_NAMES",
    "all_kinds",
    "copies_over_shoe",
    "parse_cards",
    "shoe",
]

DECK_SIZE = 52
DEFAULT_DECKS = 3  # C1: three standard decks without jokers


class CardParseError(ValueError):
    """A text that is not a card (``'1X' is not a card``)."""


class Colour(enum.Enum):
    RED = "red"
    BLACK = "black"


class Suit(enum.Enum):
    """The four suits, in the order of the classic suit cycle (C, D, H, S)."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def colour(self) -> Colour:
        return Colour.RED if self in (Suit.DIAMONDS, Suit.HEARTS) else Colour.BLACK

    @property
    def index(self) -> int:
        """0..3 in the order clubs, diamonds, hearts, spades."""
        return _SUIT_ORDER.index(self)

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    def next(self) -> Suit:
        """The next suit of the cycle C -> D -> H -> S -> C."""
        return _SUIT_ORDER[(self.index + 1) % 4]

    @property
    def twin(self) -> Suit:
        """The other suit of its colour (clubs and spades, diamonds and hearts): the one a
        small printed suit is taken for.

        >>> Suit.CLUBS.twin, Suit.HEARTS.twin
        (<Suit.SPADES: 'S'>, <Suit.DIAMONDS: 'D'>)
        """
        return _SUIT_ORDER[3 - self.index]


_SUIT_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_BY_TEXT = {
    "C": Suit.CLUBS, "♣": Suit.CLUBS, "♧": Suit.CLUBS,
    "D": Suit.DIAMONDS, "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS,
    "H": Suit.HEARTS, "♥": Suit.HEARTS, "♡": Suit.HEARTS,
    "S": Suit.SPADES, "♠": Suit.SPADES, "♤": Suit.SPADES,
}
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
_RANK_BY_TEXT = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10}
_RANK_BY_TEXT.update({str(n): n for n in range(2, 11)})


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card: rank 1..13 (A=1, J=11, Q=12, K=13) and a suit."""

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if not isinstance(self.rank, int) or not 1 <= self.rank <= 13:
            raise CardParseError(f"rank must be 1..13, got {self.rank!r}")
        if not isinstance(self.suit, Suit):
            raise CardParseError(f"suit must be a Suit, got {self.suit!r}")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``7H``, ``10H``, ``TH``, ``QD``, ``7♥``, ``q♦`` (any case)."""
        raw = text
        text = text.strip().upper()
        if len(text) < 2 or text[:-1] not in _RANK_BY_TEXT or text[-1] not in _SUIT_BY_TEXT:
            raise CardParseError(f"{raw!r} is not a card (write it like 7H, 10H, TH, QD or 7♥)")
        return cls(_RANK_BY_TEXT[text[:-1]], _SUIT_BY_TEXT[text[-1]])

    @property
    def colour(self) -> Colour:
        return self.suit.colour

    @property
    def is_red(self) -> bool:
        return self.suit.colour is Colour.RED

    @property
    def is_even(self) -> bool:
        return self.rank % 2 == 0

    @property
    def is_face(self) -> bool:
        """J, Q and K."""
        return self.rank >= 11

    @property
    def rank_text(self) -> str:
        return RANK_NAMES.get(self.rank, str(self.rank))

    @property
    def index(self) -> int:
        """0..51: suit-major (clubs A..K, diamonds A..K, ...)."""
        return self.suit.index * 13 + self.rank - 1

    @classmethod
    def from_index(cls, index: int) -> Card:
        if not 0 <= index < DECK_SIZE:
            raise CardParseError(f"card index must be 0..51, got {index!r}")
        return cls(index % 13 + 1, _SUIT_ORDER[index // 13])

    def __str__(self) -> str:
        return f"{self.rank_text}{self.suit.value}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas: ``'7H 10S qd'``."""
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return tuple(Card.parse(p) for p in parts)


def all_kinds() -> tuple[Card, ...]:
    """The 52 kinds of card, in index order."""
    return tuple(Card.from_index(i) for i in range(DECK_SIZE))


def shoe(decks: int = DEFAULT_DECKS) -> tuple[Card, ...]:
    """All cards of ``decks`` standard decks without jokers (C1: 3 decks, 156 cards)."""
    if decks < 1:
        raise ValueError(f"a shoe needs at least one deck, got {decks}")
    return tuple(card for _ in range(decks) for card in all_kinds())


def copies_over_shoe(cards: Iterable[Card], decks: int = DEFAULT_DECKS) -> dict[Card, int]:
    """Cards seen more often than the shoe holds them (C1): a misreading or a mistake.

    >>> copies_over_shoe(parse_cards('7H 7H 7H 7H 2C'))
    {Card.parse('7H'): 4}
    """
    counts = Counter(cards)
    return {card: n for card, n in counts.items() if n > decks}
