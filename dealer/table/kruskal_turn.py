"""Kruskal's round at the table as a pure machine: ``step(state, look) -> (state, intents)``
(docs/rules-variants.md KR2-KR7), on the pattern of Howell's turn machine
(dealer/table/turn.py) but its own: nobody holds cards, the oracle turns them.

The turn at the table:
- The starter (KR2, C4): the oracle turns the top card face up alone in the play zone; once
  it has lain still for ``settle_s`` it is decided (:class:`StarterTurned`), and goes to
  the main line.
- A card (KR3): the oracle turns the next card alone in the play zone. Once it has lain
  still, every player shows one token, TRUE or FALSE, face up in the prediction strip
  (calibration/kruskal_tokens.py, KR4). When every seat shows exactly one and the strip has
  been still for ``settle_s``, the card is judged with those tokens (:class:`JudgeTurn`).
- After the verdict the card goes to the main line or below its end, and the players take
  their tokens back: the next card is looked for once the play zone and the strip are both
  empty (:class:`Clearing`).

States are frozen values; the caller keeps the state and turns intents into words, the
round's verdicts and the recording (dealer/table/kruskal_session.py). Nothing here reads a
clock or a file: the time is the look's ``t``.

>>> from engine.cards import Card
>>> from calibration.kruskal_tokens import Predictions
>>> s = initial(players=2, settle_s=1.0)
>>> qc = (Card.parse('QC'),)
>>> for t in (0.0, 1.0):
...     s, out = step(s, KruskalLook(t, qc, Predictions({})))
>>> [type(i).__name__ for i in out]
['StarterTurned']
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from calibration.kruskal_tokens import Predictions
from engine.cards import Card

__all__ = [
    "WAIT_TOKENS_S",
    "AwaitingCard",
    "AwaitingStarter",
    "BothTokens",
    "CardDown",
    "CardTakenAway",
    "CardTurned",
    "Clearing",
    "JudgeTurn",
    "KruskalIntent",
    "KruskalLook",
    "KruskalState",
    "OneCardAtATime",
    "StarterTurned",
    "TokensStillOut",
    "Unreadable",
    "WaitingForTokens",
    "another_starter",
    "initial",
    "step",
]

WAIT_TOKENS_S = 8.0  # after the card lies still: who has shown no token yet is named, once


# -- what the machine is given, one look at the table per frame ----------------------------
@dataclass(frozen=True, slots=True)
class KruskalLook:
    """The table at time ``t``: the play zone's cards left to right (None: a card that
    cannot be read), the prediction strip's reading (None: the strip is out of sight),
    and whether a hand is over the play zone."""

    t: float
    cards: tuple[Card | None, ...]
    predictions: Predictions | None
    hand_over: bool = False
    frame: int | None = None


# -- the phases ----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class AwaitingStarter:
    """Waiting for the starter, turned face up alone in the play zone (KR2, C4)."""


@dataclass(frozen=True, slots=True)
class AwaitingCard:
    """The play zone and the strip are empty: the oracle turns the next card (KR3)."""


@dataclass(frozen=True, slots=True)
class CardDown:
    """``card`` lies still in the play zone; the players show their tokens (KR4).
    ``tokens``: the complete set last seen and ``tokens_since`` since when; ``named``:
    the seats already told to show one (or to show one only)."""

    card: Card
    since: float
    tokens: tuple[tuple[int, bool], ...] | None = None
    tokens_since: float = 0.0
    waiting_said: bool = False
    both_said: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Clearing:
    """A card decided (the starter, or judged): waiting for the play zone and the strip to
    empty. ``told``: the players were reminded to take their tokens back;
    ``then_starter``: the next card is a starter again (:func:`another_starter`)."""

    card: Card
    told: bool = False
    then_starter: bool = False  # the line needs another starter next (C4), not a card to judge


Phase = AwaitingStarter | AwaitingCard | CardDown | Clearing


@dataclass(frozen=True, slots=True)
class KruskalState:
    """The machine's whole state: the phase, and the play zone's picture and since when it
    has not changed (a card is taken once it lies still for ``settle_s``)."""

    players: int
    settle_s: float
    phase: Phase = AwaitingStarter()
    picture: tuple[tuple[Card | None, ...], bool] | None = None
    still_since: float = 0.0
    trouble_said: tuple[tuple[Card | None, ...], bool] | None = None  # the picture a trouble was said for


def initial(players: int, settle_s: float) -> KruskalState:
    return KruskalState(players, settle_s)


def another_starter(state: KruskalState) -> KruskalState:
    """After a starter the rule refused (back to the stock, C4), or one of a longer start
    (``start 2: ...``): the next card turned is a starter too, with no tokens shown."""
    phase = state.phase
    card = phase.card if isinstance(phase, Clearing) else None
    if card is None:
        return replace(state, phase=AwaitingStarter())
    return replace(state, phase=Clearing(card, told=True, then_starter=True))


# -- what the machine asks for ---------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class StarterTurned:
    """Decide the starter ``card`` (C4); the session tells the machine nothing back: a
    starter the rule refuses goes back to the stock and the next is awaited the same way."""

    card: Card
    frame: int | None


@dataclass(frozen=True, slots=True)
class CardTurned:
    """A card lies still in the play zone: the players are asked for their tokens."""

    card: Card


@dataclass(frozen=True, slots=True)
class JudgeTurn:
    """Judge ``card`` with each seat's token (seat from 1, True: main line) (KR3-KR5)."""

    card: Card
    tokens: tuple[tuple[int, bool], ...]
    frame: int | None


@dataclass(frozen=True, slots=True)
class Unreadable:
    """The card in the play zone cannot be read."""


@dataclass(frozen=True, slots=True)
class OneCardAtATime:
    """More than one card lies in the play zone (KR3)."""

    count: int


@dataclass(frozen=True, slots=True)
class WaitingForTokens:
    """These seats have shown no token for a while (KR4)."""

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BothTokens:
    """These seats show both their tokens: no prediction until one is taken back (KR4)."""

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TokensStillOut:
    """The next card lies in the play zone while these seats' tokens are still out."""

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CardTakenAway:
    """The card left the play zone before its verdict: it is awaited again."""

    card: Card


KruskalIntent = (StarterTurned | CardTurned | JudgeTurn | Unreadable | OneCardAtATime | WaitingForTokens
                 | BothTokens | TokensStillOut | CardTakenAway)


# -- the machine -----------------------------------------------------------------------------
def step(state: KruskalState, look: KruskalLook) -> tuple[KruskalState, list[KruskalIntent]]:
    picture = (look.cards, look.hand_over)
    if picture != state.picture:
        state = replace(state, picture=picture, still_since=look.t)
    settled = not look.hand_over and look.t - state.still_since >= state.settle_s - 1e-9
    phase = state.phase
    if isinstance(phase, (AwaitingStarter, AwaitingCard)):
        return _awaiting(state, phase, look, settled)
    if isinstance(phase, CardDown):
        return _card_down(state, phase, look, settled)
    return _clearing(state, phase, look, settled)


def _trouble_once(state: KruskalState, intent: KruskalIntent) -> tuple[KruskalState, list[KruskalIntent]]:
    """A trouble is said once for a picture of the play zone, not on every frame."""
    if state.trouble_said == state.picture:
        return state, []
    return replace(state, trouble_said=state.picture), [intent]


def _awaiting(state: KruskalState, phase: AwaitingStarter | AwaitingCard, look: KruskalLook,
              settled: bool) -> tuple[KruskalState, list[KruskalIntent]]:
    if not settled or not look.cards:
        return state, []
    if len(look.cards) > 1:
        return _trouble_once(state, OneCardAtATime(len(look.cards)))
    card = look.cards[0]
    if card is None:
        return _trouble_once(state, Unreadable())
    if isinstance(phase, AwaitingStarter):
        return replace(state, phase=Clearing(card, told=True)), [StarterTurned(card, look.frame)]
    return replace(state, phase=CardDown(card, look.t)), [CardTurned(card)]


def _seats(state: KruskalState) -> range:
    return range(1, state.players + 1)


def _card_down(state: KruskalState, phase: CardDown, look: KruskalLook,
               settled: bool) -> tuple[KruskalState, list[KruskalIntent]]:
    if settled and look.cards != (phase.card,):
        if not look.cards:
            return replace(state, phase=AwaitingCard()), [CardTakenAway(phase.card)]
        return state, []  # another picture that has settled: a second card, or a hand's mess
    if look.cards != (phase.card,):
        return state, []  # a hand over the card, or it is moving: the tokens wait
    out: list[KruskalIntent] = []
    preds = look.predictions
    if preds is None:
        return state, out
    both = tuple(s for s in preds.both if s in _seats(state))
    if both and both != phase.both_said:
        phase = replace(phase, both_said=both)
        out.append(BothTokens(both))
    missing = preds.missing(state.players)
    if missing or both:
        if missing and not phase.waiting_said and look.t - phase.since >= WAIT_TOKENS_S:
            phase = replace(phase, waiting_said=True)
            out.append(WaitingForTokens(missing))
        return replace(state, phase=replace(phase, tokens=None)), out
    tokens = tuple((s, preds.shown[s]) for s in _seats(state))
    if tokens != phase.tokens:
        return replace(state, phase=replace(phase, tokens=tokens, tokens_since=look.t)), out
    if settled and look.t - phase.tokens_since >= state.settle_s - 1e-9:
        return replace(state, phase=Clearing(phase.card)), [*out, JudgeTurn(phase.card, tokens, look.frame)]
    return state, out


def _clearing(state: KruskalState, phase: Clearing, look: KruskalLook,
              settled: bool) -> tuple[KruskalState, list[KruskalIntent]]:
    out_seats = () if look.predictions is None else tuple(
        sorted({*look.predictions.shown, *look.predictions.both} & set(_seats(state))))
    # The judged card has gone (to the line or below its end) and the tokens are back: an
    # empty zone, or the next card turned already, read, while the tokens were taken back.
    gone = phase.card not in look.cards and None not in look.cards
    if settled and gone and not out_seats:
        return replace(state, phase=AwaitingStarter() if phase.then_starter else AwaitingCard()), []
    if settled and look.cards and phase.card not in look.cards and out_seats and not phase.told:
        return replace(state, phase=replace(phase, told=True)), [TokensStillOut(out_seats)]
    return state, []
