"""The rule library (R1): classic Eleusis rules with stable ids and difficulty tiers.

Sources: Mendelev's encyclopedia (seeds/003: Abbott's examples "from the easiest to the
hardest", seven of the eight fixed ids), Gardner's "higher unless face" (Wikipedia,
seeds/002); the others are written after Abbott's kinds of rules, Golden's Eleusis Express
(matching rules) and the rule classes of the SPARC/E research (Dietterich and Michalski):
periodic, decomposition (if/then on the last card) and disjunctive rules. ``source`` says
which.

>>> LIBRARY['alternate-colour'].text
'if prev.red then card.black else card.red'
>>> len(LIBRARY) >= 30
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from engine.rules.language import CompiledRule, parse_rule

__all__ = ["LIBRARY", "TIERS", "LibraryRule"]

TIERS = ("easy", "medium", "hard")

MENDELEV = "Mendelev, Encyclopedia of games (Abbott's examples; seeds/003)"
GARDNER = "Gardner's example, via Wikipedia (seeds/002)"
GOLDEN = "after Golden's Eleusis Express (matching rules)"
SPARC_PERIODIC = "SPARC/E rule class: periodic"
SPARC_DECOMPOSITION = "SPARC/E rule class: decomposition"
SPARC_DISJUNCTIVE = "SPARC/E rule class: disjunctive"
ABBOTT = "after Abbott's single-card and sequence rules"
HOUSE = "this project (shows a feature of the language)"


@dataclass(frozen=True)
class LibraryRule:
    """A library rule: ``rule`` is the compiled form of ``text``."""

    id: str
    tier: str
    source: str
    description: str
    text: str
    rule: CompiledRule = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.tier not in TIERS:
            raise ValueError(f"library rule {self.id!r}: tier must be one of {TIERS}, got {self.tier!r}")
        object.__setattr__(self, "rule", parse_rule(self.text))


_RULES = (
    # --- the eight ids the issue fixes (any single card starts the line) ---------------
    LibraryRule("alternate-colour", "easy", MENDELEV,
                "After a red card a black one, after a black card a red one.",
                "if prev.red then card.black else card.red"),
    LibraryRule("suit-cycle", "easy", MENDELEV,
                "Clubs, then diamonds, then hearts, then spades, then clubs again.",
                "card.suit == next(prev.suit)"),
    LibraryRule("parity-alternate", "easy", MENDELEV,
                "Odd after even, even after odd (A=1, J=11, Q=12, K=13).",
                "card.even != prev.even"),
    LibraryRule("low-high", "easy", MENDELEV,
                "After A-7 a card 8-K; after 8-K a card A-7.",
                "if prev.rank in A..7 then card.rank in 8..K else card.rank in A..7"),
    LibraryRule("step-up-1-3", "medium", MENDELEV,
                "1, 2 or 3 ranks higher than the last card, counting round from K to A.",
                "card.rank - prev.rank in 1..3 mod 13"),
    LibraryRule("parity-colour", "medium", MENDELEV,
                "After an even card a red one, after an odd card a black one.",
                "if prev.even then card.red else card.black"),
    LibraryRule("rank-mod-4-suit", "hard", MENDELEV,
                "The last rank mod 4 = 0, 1, 2, 3 asks clubs, diamonds, hearts, spades.",
                "card.suit == suit(prev.rank mod 4)"),
    LibraryRule("higher-unless-face", "medium", GARDNER,
                "Higher than the last card, unless the last was J, Q or K: then any card A-10.",
                "if prev.face then card.rank in A..10 else card.rank > prev.rank"),
    # --- more classic rules ------------------------------------------------------------
    LibraryRule("different-suit", "easy", ABBOTT,
                "A suit different from the last card's.",
                "card.suit != prev.suit"),
    LibraryRule("same-suit-or-rank", "easy", GOLDEN,
                "The same suit or the same rank as the last card.",
                "card.suit == prev.suit or card.rank == prev.rank"),
    LibraryRule("red-or-face", "easy", SPARC_DISJUNCTIVE,
                "Any red card, or a face card (J, Q, K) of any colour.",
                "card.red or card.face"),
    LibraryRule("even-red-odd-black", "easy", ABBOTT,
                "Even cards must be red and odd cards black.",
                "card.even == card.red"),
    LibraryRule("prime-or-face", "easy", ABBOTT,
                "A prime rank (2, 3, 5, 7, J, K) or a face card.",
                "card.prime or card.face"),
    LibraryRule("no-face-after-face", "easy", ABBOTT,
                "Never two face cards in a row.",
                "not (prev.face and card.face)"),
    LibraryRule("colour-by-position", "easy", SPARC_PERIODIC,
                "Red cards at even positions of the line (2, 4, ...), black cards at odd ones; any card starts.",
                "if pos mod 2 == 0 then card.red else card.black"),
    LibraryRule("different-suit-and-parity", "medium", GOLDEN,
                "A different suit and a different parity from the last card.",
                "card.suit != prev.suit and card.odd != prev.odd"),
    LibraryRule("within-2", "medium", GOLDEN,
                "At most 2 ranks away from the last card, counting round K-A (Q, K, A, 2, 3 around A).",
                "card.rank - prev.rank in {0, 1, 2, 11, 12} mod 13"),
    LibraryRule("prime-alternate", "medium", ABBOTT,
                "A prime rank (2, 3, 5, 7, J, K) after a non-prime, a non-prime after a prime.",
                "card.prime xor prev.prime"),
    LibraryRule("same-colour-or-higher", "medium", SPARC_DISJUNCTIVE,
                "The same colour as the last card, or a higher rank.",
                "card.colour == prev.colour or card.rank > prev.rank"),
    LibraryRule("face-odd-else-red", "medium", SPARC_DECOMPOSITION,
                "After a face card an odd card; after A-10 a red card.",
                "if prev.face then card.odd else card.red"),
    LibraryRule("every-third-face", "medium", SPARC_PERIODIC,
                "Positions 3, 6, 9, ... take a face card, the other positions an A-10.",
                "if pos mod 3 == 0 then card.face else not card.face"),
    LibraryRule("suit-by-position", "medium", SPARC_PERIODIC,
                "The position picks the suit: 1 diamonds, 2 hearts, 3 spades, 4 clubs, ...; any card starts.",
                "card.suit == suit(pos)"),
    LibraryRule("colour-pairs", "medium", SPARC_PERIODIC,
                "Colours come in pairs: positions 0-1 share a colour, 2-3 the other one, and so on.",
                "if pos mod 2 == 1 then card.colour == prev.colour else card.colour != prev.colour"),
    LibraryRule("no-three-of-a-colour", "medium", ABBOTT,
                "Never three cards of the same colour in a row.",
                "pos < 2 or not all(last(2), each.colour == card.colour)"),
    LibraryRule("same-suit-as-two-back", "medium", SPARC_PERIODIC,
                "The same suit as the card two places back (the second card is free).",
                "if pos < 2 then true else card.suit == prev(2).suit"),
    LibraryRule("three-of-a-colour", "hard", SPARC_PERIODIC,
                "Colours come in runs of three: positions 0-2 one colour, 3-5 the other, and so on.",
                "if pos mod 3 == 0 then card.colour != prev.colour else card.colour == prev.colour"),
    LibraryRule("red-up-black-down", "hard", SPARC_DECOMPOSITION,
                "After a red card 1-6 ranks higher, after a black card 1-6 ranks lower, round K-A.",
                "if prev.red then card.rank - prev.rank in 1..6 mod 13\n"
                "else prev.rank - card.rank in 1..6 mod 13"),
    LibraryRule("colour-xor-higher", "hard", SPARC_DISJUNCTIVE,
                "Either the same colour as the last card or a higher rank, but not both.",
                "card.colour == prev.colour xor card.rank > prev.rank"),
    LibraryRule("sum-of-three-mod-3", "hard", ABBOTT,
                "The ranks of the last two cards and this one add up to a multiple of 3 "
                "(the second card is free).",
                "pos < 2 or card.rank + prev.rank + prev(2).rank == 0 mod 3"),
    LibraryRule("fresh-rank", "hard", ABBOTT,
                "A rank that is not among the last three cards of the line.",
                "not any(last(min(pos, 3)), each.rank == card.rank)"),
    LibraryRule("balance-colours", "hard", HOUSE,
                "When black cards outnumber red ones on the line, a red card; when red ones "
                "outnumber black, a black card; on a tie any card.",
                "if count(line, each.red) * 2 < pos then card.red\n"
                "else if count(line, each.red) * 2 > pos then card.black\n"
                "else true"),
    LibraryRule("starter-cdh", "hard", HOUSE,
                "The line starts with a club, a diamond and a heart (three starter cards, C4); "
                "after that a suit different from both of the last two cards.",
                "start 3: card.suit == suit(pos)\n"
                "card.suit != prev.suit and card.suit != prev(2).suit"),
    LibraryRule("starter-ace-two", "hard", HOUSE,
                "The line starts with an ace then a two (two starter cards, C4); after that "
                "alternate colours.",
                "start 2: card.rank == pos + 1; card.colour != prev.colour"),
)

LIBRARY: Mapping[str, LibraryRule] = MappingProxyType({r.id: r for r in _RULES})
assert len(LIBRARY) == len(_RULES), "duplicate library id"
