"""The dealer's sentences: each verdict and the result in words (issue 2).

`eleusis judge` prints them and the live dealer's voice says the same ones, so they are
short, complete sentences. ``spoken=True`` writes cards as words ("the four of clubs")
for a speech synthesiser; otherwise cards are written as on the record (``4C``).

>>> from engine.events import TurnOutcome, Verdict
>>> from engine.cards import parse_cards
>>> describe_turn(TurnOutcome(1, 'Ana', Verdict.ACCEPTED, parse_cards('4C 9H')))
'Ana plays 4C 9H: accepted.'
>>> describe_turn(TurnOutcome(1, 'Ana', Verdict.ACCEPTED, parse_cards('4C')), spoken=True)
'Ana plays the four of clubs: accepted.'
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.cards import Card, Suit
from engine.events import EndReason, TurnOutcome, Verdict
from engine.round import RoundResult

__all__ = ["card_words", "describe_end", "describe_result", "describe_scores", "describe_turn"]

_RANK_WORDS = {1: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
               8: "eight", 9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king"}
_SUIT_WORDS = {Suit.CLUBS: "clubs", Suit.DIAMONDS: "diamonds", Suit.HEARTS: "hearts", Suit.SPADES: "spades"}


def card_words(card: Card) -> str:
    """``QD`` as a synthesiser should say it.

    >>> card_words(Card.parse('QD'))
    'the queen of diamonds'
    """
    return f"the {_RANK_WORDS[card.rank]} of {_SUIT_WORDS[card.suit]}"


def _cards(cards: Iterable[Card], spoken: bool) -> str:
    items = [card_words(c) if spoken else str(c) for c in cards]
    if not spoken or len(items) == 1:
        return " ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _cards_count(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def describe_turn(turn: TurnOutcome, spoken: bool = False) -> str:
    """One action's verdict and consequences, in one or a few sentences."""
    who = turn.player
    if turn.verdict is Verdict.PROPHET:
        return f"{who} becomes prophet."  # F1, F2
    parts: list[str] = []
    if turn.verdict is Verdict.ACCEPTED:
        parts.append(f"{who} plays {_cards(turn.cards, spoken)}: accepted.")  # P3
    elif turn.verdict is Verdict.REJECTED:
        parts.append(f"{who} plays {_cards(turn.cards, spoken)}: rejected, a side branch.")  # P4
    elif turn.verdict is Verdict.NOPLAY_RIGHT:
        if turn.legally_emptied:
            parts.append(f"{who} declares no play: right. The hand is cleared.")  # N2
        else:
            parts.append(f"{who} declares no play: right. {who} takes a new hand of {_cards_count(turn.new_hand)}.")
    else:
        assert turn.card is not None
        parts.append(f"{who} declares no play: wrong. The dealer plays {_cards((turn.card,), spoken)}.")  # N3
    if turn.overthrown and turn.prophet is not None:
        parts.append(f"The prophet {turn.prophet} was wrong and is overthrown, and draws {turn.prophet_penalty}.")  # F4
        if turn.verdict in (Verdict.REJECTED, Verdict.NOPLAY_WRONG):
            parts.append(f"{who} gets no penalty.")  # F5
    if turn.penalty:
        parts.append(f"{who} draws {turn.penalty}.")
    elif turn.verdict in (Verdict.REJECTED, Verdict.NOPLAY_WRONG) and not turn.overthrown:
        parts.append(f"{who} draws nothing: the stock is empty.")
    if turn.expelled:
        parts.append(f"{who} is expelled.")  # E3
    if turn.legally_emptied and turn.verdict is Verdict.ACCEPTED:
        parts.append(f"{who} has no cards left.")
    if turn.ended is not None:
        parts.append(describe_end(turn.ended, who, turn.legally_emptied))
    return " ".join(parts)


def describe_end(reason: EndReason, player: str | None = None, legally: bool = True) -> str:
    """Why the round ended (G1)."""
    if reason is EndReason.EMPTIED:
        if player is None:
            return "The round is over: a hand is empty."
        if legally:
            return f"The round is over: {player} emptied the hand."
        return f"The round is over: {player} has no cards left, without the bonus."
    if reason is EndReason.EXPELLED:
        return "The round is over: every player is expelled."
    return "The round is over: the stock ran out."


def describe_scores(result: RoundResult) -> str:
    """G2-G4 in one sentence per line of the board."""
    scores = ", ".join(f"{name} {score}" for name, score in result.scores.items())
    return f"Scores: {scores}. The dealer scores {result.dealer}."


def describe_result(result: RoundResult) -> str:
    """The end (or that the round goes on), the hands and the scores."""
    hands = ", ".join(f"{name} {size}" for name, size in result.hands.items())
    if result.ended is None:
        lines = ["The round is not over; scored as if it ended now.", f"Hands: {hands}."]
    else:
        lines = [f"Final hands: {hands}."]
    if result.prophet is not None:
        lines.append(f"{result.prophet} is prophet at the end.")
    if result.expelled:
        lines.append(f"Expelled: {', '.join(result.expelled)}.")
    lines.append(describe_scores(result))
    return " ".join(lines)
