"""The game record: a plain-text round, for people to write and read.

What PGN is to chess: headers, then one line per action. Blank lines and ``#`` comments
are ignored; a rule of several lines continues on indented lines after ``rule:``. :func:`parse_record` reads the text into the round's own events (it needs no
rule); :func:`format_record` prints any event log, the live dealer's included, back to
text; the two round-trip. Judging a record against its rule is engine/judging.py.

>>> text = '''
... players: Ana Bo Cy Dee   # seats from the dealer's left (C5)
... rule: alternate-colour
... start: 7H
... Cy: play QD
... Dee: play 4C 9H
... Ana: prophet
... '''
>>> record = parse_record(text)
>>> record.start.players, [line.number for line in record.actions]
(('Ana', 'Bo', 'Cy', 'Dee'), [5, 6, 7])
>>> print(format_record(record.events), end="")
players: Ana Bo Cy Dee
rule: alternate-colour
start: 7H
<BLANKLINE>
Cy: play QD
Dee: play 4C 9H
Ana: prophet
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.cards import DEFAULT_DECKS, Card, CardParseError, parse_cards  # noqa: F401 (doctest)
from engine.errors import RecordError
from engine.events import (
    Attempt,
    BecomeProphet,
    NoPlay,
    OracleTurn,
    ProphetDecision,
    RecordAction,
    RecordEvent,
    RoundStarted,
)
from engine.variants.spec import DEFAULT_VARIANT, VARIANT_SPECS

__all__ = ["HEADERS", "GameRecord", "RecordLine", "format_action", "format_record", "parse_record"]

HEADERS = ("players", "rule", "start", "hand", "decks", "variant")
# Limits, so a hostile file costs neither time nor memory: a record line is a turn, never a
# book. The longest real line is a no play showing a hand that grew by penalties; 20,000
# characters hold 5,000 cards.
MAX_LINE_CHARS = 20_000
MAX_HAND = 1_000  # the deal check (C3) refuses far smaller hands for the shoe anyway
MAX_DECKS = 20
_REQUIRED = ("players", "rule", "start")
# A header or a turn; any other indented line right after ``rule:`` continues the rule.
_LINE_START = re.compile(r"^(?:(?:players|rule|start|hand|decks|variant)\s*:|[^\s:]+\s*:\s*(?:play|noplay|prophet|turn)\b)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class RecordLine:
    """One action of a record and the line it was written on (1-based)."""

    number: int
    action: RecordAction


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A parsed record: the setup, the actions, and where each header was written."""

    start: RoundStarted
    actions: tuple[RecordLine, ...]
    header_lines: dict[str, int] = field(default_factory=dict)

    @property
    def events(self) -> tuple[RecordEvent, ...]:
        return (self.start, *(line.action for line in self.actions))

    def header_line(self, name: str) -> int:
        """The line of header ``name``; the first header's line when it was left out."""
        return self.header_lines.get(name, min(self.header_lines.values(), default=1))


@functools.lru_cache(maxsize=1024)
def _card(token: str) -> Card:
    return Card.parse(token)  # cards are immutable: a parsed token can be shared


def _cards(text: str, number: int, what: str) -> tuple[Card, ...]:
    try:
        return tuple(_card(token) for token in text.replace(",", " ").split())
    except CardParseError as exc:
        raise RecordError(number, f"{what}: {exc}") from None


def _positive(value: str, number: int, name: str, maximum: int) -> int:
    shown = repr(value) if len(value) <= 20 else f"{value[:12]!r}... ({len(value)} characters)"
    digits = value.lstrip("0")
    if not (value.isascii() and value.isdigit()) or not digits:
        raise RecordError(number, f"{name}: {shown} is not a positive whole number")
    if len(digits) > len(str(maximum)) or int(digits) > maximum:
        raise RecordError(number, f"{name}: {shown} is too large (at most {maximum})")
    return int(digits)


def _prophet_suffix(text: str, number: int, noplay: bool) -> ProphetDecision:
    words = text.split()
    if not words or words[0].lower() != "prophet" or len(words) < 2:
        raise RecordError(number, f"{text.strip()!r}: write '| prophet accept' or '| prophet reject' (F3)")
    verb, rest = words[1].lower(), words[2:]
    if verb == "accept":
        if rest:
            raise RecordError(number, f"'prophet accept' takes no card, got {' '.join(rest)!r} (F3)")
        return ProphetDecision.agree()
    if verb != "reject":
        raise RecordError(number, f"{words[1]!r}: a prophet may 'accept' or 'reject' (F3)")
    if not noplay:
        if rest:
            raise RecordError(number, f"'prophet reject' takes no card for a play, got {' '.join(rest)!r} (F3)")
        return ProphetDecision.reject()
    if len(rest) != 1:
        raise RecordError(number, "'prophet reject' of a no play names exactly one card, the legal one (F6)")
    return ProphetDecision.reject(_cards(rest[0], number, "prophet reject")[0])


def _oracle_turn(body: str, suffix: str, number: int) -> OracleTurn:
    """kruskal (KR3, KR4): ``oracle: turn CARD | NAME main|side, ...``."""
    cards = _cards(body, number, "turn")
    if len(cards) != 1:
        raise RecordError(number, f"the oracle turns one card at a time, got {len(cards)} (KR3)")
    words = suffix.replace(",", " ").split()
    if len(words) % 2:
        raise RecordError(number, "tokens: write 'NAME main' or 'NAME side' for each player (KR4)")
    tokens: list[tuple[str, bool]] = []
    for name, side in zip(words[::2], words[1::2]):
        if side.lower() not in ("main", "side"):
            raise RecordError(number, f"{name}'s token {side!r}: a token shows 'main' or 'side' (KR4)")
        tokens.append((name, side.lower() == "main"))
    return OracleTurn(cards[0], tuple(tokens))


def _action(name: str, body: str, number: int) -> RecordAction:
    body, bar, suffix = body.partition("|")
    words = body.split()
    if words and words[0].lower() == "turn":
        if name.lower() != "oracle":
            raise RecordError(number, f"{name}: only the oracle turns cards; write 'oracle: turn CARD | ...' (KR3)")
        return _oracle_turn(" ".join(words[1:]), suffix, number)
    if not words:
        raise RecordError(number, f"{name}: no action; write 'play CARDS', 'noplay HAND' or 'prophet'")
    verb = words[0].lower()
    cards_text = " ".join(words[1:])
    if verb == "prophet":
        if len(words) > 1 or bar:
            raise RecordError(number, f"{name}: 'prophet' takes nothing after it")
        return BecomeProphet(name)
    if verb not in ("play", "noplay"):
        raise RecordError(number, f"{words[0]!r} is not an action; write 'play', 'noplay' or 'prophet'")
    cards = _cards(cards_text, number, verb)
    if not cards:
        what = "an attempt needs at least one card (P1)" if verb == "play" else "a no play shows the whole hand (N1)"
        raise RecordError(number, f"{name}: {verb} without cards: {what}")
    decision = _prophet_suffix(suffix, number, verb == "noplay") if bar else None
    if verb == "play":
        return Attempt(name, cards, decision)
    return NoPlay(name, cards, decision)


def parse_record(text: str, default_variant: str = DEFAULT_VARIANT) -> GameRecord:
    """Read a record's text; syntax only (no rule is needed). Raises :class:`RecordError`.

    ``default_variant``: the variant of a record without a ``variant:`` header (Howell
    unless the reader was told otherwise, e.g. ``eleusis judge --variant``)."""
    headers: dict[str, str] = {}
    header_lines: dict[str, int] = {}
    actions: list[RecordLine] = []
    continues_rule = False
    for number, raw in enumerate(text.splitlines(), start=1):
        if len(raw) > MAX_LINE_CHARS:
            raise RecordError(number, f"the line is {len(raw)} characters long; a record line holds at most "
                                      f"{MAX_LINE_CHARS}")
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if continues_rule and raw[:1].isspace() and not _LINE_START.match(line):
            headers["rule"] += "\n" + line  # an indented line continues a rule of several lines
            continue
        continues_rule = False
        key, colon, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if not colon or not key or " " in key:
            raise RecordError(number, f"{line!r}: expected 'header: value' or 'NAME: play|noplay|prophet ...'")
        if key.lower() in HEADERS and not actions:
            name = key.lower()
            if name in headers:
                raise RecordError(number, f"the header '{name}:' is given twice (first on line {header_lines[name]})")
            headers[name], header_lines[name] = value, number
            continues_rule = name == "rule"
            continue
        if key.lower() in HEADERS:
            raise RecordError(number, f"the header '{key}:' comes after the first turn; headers come first")
        missing = [h for h in _REQUIRED if h not in headers]
        if missing:
            raise RecordError(number, f"the header '{missing[0]}:' is missing before the first turn")
        actions.append(RecordLine(number, _action(key, value, number)))
    missing = [h for h in _REQUIRED if h not in headers]
    if missing:
        last = len(text.splitlines()) or 1
        raise RecordError(last, f"the header '{missing[0]}:' is missing")
    players = tuple(headers["players"].split())
    for name in players:
        if name.lower() in HEADERS or "|" in name:
            raise RecordError(header_lines["players"], f"{name!r} cannot be a player name")
    if not headers["rule"]:
        raise RecordError(header_lines["rule"], "rule: give a library id or a rule text (R1)")
    variant = headers.get("variant", default_variant).lower()  # no header: Howell (docs/record-format.md)
    spec = VARIANT_SPECS.get(variant)
    if spec is None:
        raise RecordError(header_lines.get("variant", 1), f"variant: {variant!r} is not a variant; known: "
                                                   f"{', '.join(VARIANT_SPECS)}")
    start = RoundStarted(
        players=players,
        rule=headers["rule"],
        starters=_cards(headers["start"], header_lines["start"], "start"),
        hand_size=(_positive(headers["hand"], header_lines["hand"], "hand", MAX_HAND)
                   if "hand" in headers else spec.hand_for(len(players))),
        decks=(_positive(headers["decks"], header_lines["decks"], "decks", MAX_DECKS)
               if "decks" in headers else spec.decks_for(len(players))),
        variant=variant,
    )
    if not start.starters:
        raise RecordError(header_lines["start"], "start: no starter card (C4)")
    return GameRecord(start, tuple(actions), header_lines)


def _card_list(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def format_action(action: RecordAction) -> str:
    """One action as a record line.

    >>> format_action(NoPlay('Bo', parse_cards('2D 4H'), ProphetDecision.reject(Card.parse('4H'))))
    'Bo: noplay 2D 4H | prophet reject 4H'
    """
    if isinstance(action, BecomeProphet):
        return f"{action.player}: prophet"
    if isinstance(action, OracleTurn):
        tokens = ", ".join(f"{name} {'main' if main else 'side'}" for name, main in action.tokens)
        return f"oracle: turn {action.card} | {tokens}"
    verb = "play" if isinstance(action, Attempt) else "noplay"
    cards = action.cards if isinstance(action, Attempt) else action.hand
    text = f"{action.player}: {verb} {_card_list(cards)}"
    decision = action.prophet
    if decision is not None:
        text += " | prophet accept" if decision.accept else " | prophet reject"
        if decision.card is not None:
            text += f" {decision.card}"
    return text


def format_record(events: Iterable[RecordEvent], comments: Iterable[str | None] | None = None) -> str:
    """Print an event log (a :class:`RoundStarted`, then actions) as a record.

    ``comments``, one per action, are written after it as ``# ...`` (a verdict, say).
    """
    it = iter(events)
    start = next(it, None)
    if not isinstance(start, RoundStarted):
        raise TypeError(f"an event log starts with RoundStarted, not {start!r}")
    lines = [
        f"players: {' '.join(start.players)}",
        "rule: " + "\n      ".join(start.rule.split("\n")),
        f"start: {_card_list(start.starters)}",
    ]
    spec = VARIANT_SPECS[start.variant]
    if start.variant != DEFAULT_VARIANT:
        lines.append(f"variant: {start.variant}")
    if start.hand_size != spec.hand_for(len(start.players)):
        lines.append(f"hand: {start.hand_size}")
    if start.decks != spec.decks_for(len(start.players)):
        lines.append(f"decks: {start.decks}")
    lines.append("")
    notes = iter(comments) if comments is not None else None
    for event in it:
        if isinstance(event, RoundStarted):
            raise TypeError("an event log holds one RoundStarted, at its start")
        line = format_action(event)
        note = next(notes, None) if notes is not None else None
        lines.append(f"{line}  # {note}" if note else line)
    return "\n".join(lines) + "\n"
