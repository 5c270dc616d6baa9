"""The dealer's sentences: each verdict and the result in words.

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

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from dealer.speech.i18n import N_, Count, _, and_list, card_name, n_
from engine.cards import Card
from engine.errors import (
    AcceptTakesNoCard,
    AlreadyProphet,
    BeenProphet,
    CardNotShown,
    DecisionMissing,
    ExpelledCannotProphesy,
    ExpelledPlays,
    IllegalActionError,
    LegalCardUnnamed,
    NoCardPlayed,
    NoProphet,
    NotAfterOwnTurn,
    NotAnErrorCard,
    NotInVariant,
    OutOfTurn,
    ProphetPlays,
    Refusal,
    RejectTakesNoCard,
    RoundEnded,
    RoundError,
    TokensMissing,
    TooFewForProphet,
    TooManyCards,
    TooManyCopies,
    WrongHandShown,
)
from engine.events import Attempt, BecomeProphet, EndReason, NoPlay, TurnOutcome, Verdict
from engine.explain import first_illegal
from engine.round import RoundResult
from engine.rules.base import Rule

__all__ = ["card_words", "describe_end", "describe_result", "describe_scores", "describe_turn", "explain_verdict",
           "refusal_words", "status_words"]


def card_words(card: Card, role: str = "subject") -> str:
    """``QD`` as a synthesiser should say it, in the current language (dealer/speech/i18n.py);
    ``role="object"`` after a verb ("кладёт даму бубен").

    >>> card_words(Card.parse('QD'))
    'the queen of diamonds'
    """
    return card_name(card, role)


def _cards(cards: Iterable[Card], spoken: bool) -> str:
    """The cards of a play, as the object of "plays"."""
    if not spoken:
        return " ".join(str(c) for c in cards)
    return and_list(card_words(c, "object") for c in cards)


def describe_turn(turn: TurnOutcome, spoken: bool = False) -> str:
    """One action's verdict and consequences, in one or a few sentences."""
    who = turn.player
    if turn.verdict is Verdict.PROPHET:
        return _("{who} becomes prophet.", who=who)  # F1, F2
    parts: list[str] = []
    if turn.verdict is Verdict.ACCEPTED:
        parts.append(_("{who} plays {cards}: accepted.", who=who, cards=_cards(turn.cards, spoken)))  # P3
    elif turn.verdict is Verdict.REJECTED:
        parts.append(_("{who} plays {cards}: rejected, a side branch.", who=who, cards=_cards(turn.cards, spoken)))  # P4
    elif turn.verdict is Verdict.NOPLAY_RIGHT:
        if turn.legally_emptied:
            parts.append(_("{who} declares no play: right. The hand is cleared.", who=who))  # N2
        else:
            parts.append(n_("{who} declares no play: right. {who} takes a new hand of {n} card.",
                            "{who} declares no play: right. {who} takes a new hand of {n} cards.",
                            turn.new_hand, who=who))
    else:
        assert turn.card is not None
        parts.append(_("{who} declares no play: wrong. The dealer plays {card}.",
                       who=who, card=_cards((turn.card,), spoken)))  # N3
    if turn.overthrown and turn.prophet is not None:
        parts.append(n_("The prophet {prophet} was wrong and is overthrown, and draws {n}.",
                        "The prophet {prophet} was wrong and is overthrown, and draws {n}.",
                        turn.prophet_penalty, prophet=turn.prophet))  # F4
        if turn.verdict in (Verdict.REJECTED, Verdict.NOPLAY_WRONG):
            parts.append(_("{who} gets no penalty.", who=who))  # F5
    if turn.penalty:
        parts.append(n_("{who} draws {n}.", "{who} draws {n}.", turn.penalty, who=who))
    elif turn.verdict in (Verdict.REJECTED, Verdict.NOPLAY_WRONG) and not turn.overthrown:
        parts.append(_("{who} draws nothing: the stock is empty.", who=who))
    if turn.expelled:
        parts.append(_("{who} is expelled.", who=who))  # E3
    if turn.legally_emptied and turn.verdict is Verdict.ACCEPTED:
        if turn.ended is EndReason.EMPTIED:  # one sentence, not the same news twice (G1)
            parts.append(_("{who} has no cards left: the round is over.", who=who))
            return " ".join(parts)
        parts.append(_("{who} has no cards left.", who=who))
    if turn.ended is not None:
        parts.append(describe_end(turn.ended, who, turn.legally_emptied))
    return " ".join(parts)


def describe_end(reason: EndReason, player: str | None = None, legally: bool = True) -> str:
    """Why the round ended (G1)."""
    if reason is EndReason.EMPTIED:
        if player is None:
            return _("The round is over: a hand is empty.")
        if legally:
            return _("The round is over: {who} emptied the hand.", who=player)
        return _("The round is over: {who} has no cards left, without the bonus.", who=player)
    if reason is EndReason.EXPELLED:
        return _("The round is over: every player is expelled.")
    return _("The round is over: the stock ran out.")


def _name_counts(counts: dict[str, int]) -> str:
    return ", ".join(_("{name} {count}", name=name, count=count) for name, count in counts.items())


def describe_scores(result: RoundResult) -> str:
    """G2-G4 in one sentence per line of the board."""
    return n_("Scores: {scores}. The dealer scores {n}.", "Scores: {scores}. The dealer scores {n}.",
              result.dealer, scores=_name_counts(dict(result.scores)))


def describe_result(result: RoundResult) -> str:
    """The end (or that the round goes on), the hands and the scores."""
    hands = _name_counts(dict(result.hands))
    if result.ended is None:
        lines = [_("The round is not over; scored as if it ended now."), _("Hands: {hands}.", hands=hands)]
    else:
        lines = [_("Final hands: {hands}.", hands=hands)]
    if result.prophet is not None:
        lines.append(_("{who} is prophet at the end.", who=result.prophet))
    if result.expelled:
        lines.append(_("Expelled: {names}.", names=", ".join(result.expelled)))
    lines.append(describe_scores(result))
    return " ".join(lines)


def explain_verdict(rule: Rule, line: Sequence[Card], action: Attempt | NoPlay | BecomeProphet) -> str:
    """Why the action was judged as it was, once the rule is revealed (G6), in the reader's
    language: engine/explain.py's sentence (the same in English), for the review page."""
    if isinstance(action, BecomeProphet):
        return _("{who} took office as prophet (F1, F2).", who=action.player)
    end = str(line[-1]) if line else _("the start of the line")
    if isinstance(action, Attempt):
        bad = first_illegal(rule, line, action.cards)
        if bad is None:
            steps, before = [], end
            for card in action.cards:
                steps.append(_("{card} after {before}", card=card, before=before))
                before = str(card)
            return _("Each card follows the rule: {steps} (P2, P3).", steps=", ".join(steps))
        before = end if bad == 0 else str(action.cards[bad - 1])
        return _("{card} cannot follow {before} under the rule (P2), so the whole attempt is a side branch (P4).",
                 card=action.cards[bad], before=before)
    legal = [card for card in action.hand if rule.legal(line, card)]
    if not legal:
        return _("No card of the hand could follow {end}, so the no play was right (N2).", end=end)
    return _("{card} could follow {end}, so the no play was wrong (N3).", card=legal[0], end=end)


def _card(card: Card, spoken: bool) -> str:
    return card_words(card) if spoken else str(card)


# The engine's refusals (engine/errors.py) in the reader's language, from their fields;
# a refusal missing here is quoted as the engine words it.
_REFUSALS: dict[type[Refusal], Callable[[Any, bool], str]] = {
    OutOfTurn: lambda r, s: _("it is {next}'s turn, not {who}'s (C5)", next=r.expected, who=r.player),
    TooManyCards: lambda r, s: _("{who} plays {n} cards but holds {held}", who=r.player, n=Count(r.played),
                                 held=Count(r.held)),
    WrongHandShown: lambda r, s: _("{who} shows {n} cards but holds {held} (N1)", who=r.player, n=Count(r.shown),
                                   held=Count(r.held)),
    TooManyCopies: lambda r, s: _("{card}: that would be copy number {copies}, but the decks hold only {decks} (C1)",
                                  card=_card(r.card, s), copies=r.copies, decks=r.decks),
    NoCardPlayed: lambda r, s: _("{who} plays no card; an attempt has one or more (P1)", who=r.player),
    RoundEnded: lambda r, s: _("the round is over (G1)"),
    ProphetPlays: lambda r, s: _("{who} is the prophet and plays no more cards (F2); it is {next}'s turn",
                                 who=r.player, next=r.expected),
    ExpelledPlays: lambda r, s: _("{who} is expelled (E3); it is {next}'s turn", who=r.player, next=r.expected),
    NoProphet: lambda r, s: _("there is no prophet to decide (F3)"),
    DecisionMissing: lambda r, s: _("the prophet {prophet} has not decided yet (F3)", prophet=r.prophet),
    AcceptTakesNoCard: lambda r, s: _("a prophet who accepts names no card (F3)"),
    RejectTakesNoCard: lambda r, s: _("a prophet who rejects an attempt names no card (F3)"),
    LegalCardUnnamed: lambda r, s: _("a prophet who rejects a no play names the card that can be played (F6)"),
    CardNotShown: lambda r, s: _("the prophet names {card}, which is not in the hand shown (F6)",
                                 card=_card(r.card, s)),
    NotAfterOwnTurn: lambda r, s: _("{who} may become prophet only right after their own turn (F1)", who=r.player),
    ExpelledCannotProphesy: lambda r, s: _("{who} is expelled and cannot become prophet (F1)", who=r.player),
    AlreadyProphet: lambda r, s: _("{who} is prophet already (F1)", who=r.prophet),
    BeenProphet: lambda r, s: _("{who} has been prophet in this round already (F1, F4)", who=r.player),
    TooFewForProphet: lambda r, s: _("a prophet needs two other players still in the round (F1)"),
    NotAnErrorCard: lambda r, s: _("{who}'s hand is empty: shed one of your own error cards ({cards}), not {card} "
                                   "(AB8)", who=r.player, cards=and_list(_card(c, s) for c in r.errors),
                                   card=_card(r.card, s)),
    TokensMissing: lambda r, s: (
        _("no token from {who}: every player shows one token on each card (KR4)", who=and_list(r.missing))
        if r.missing else _("two tokens from {who}: every player shows one token on each card (KR4)",
                            who=and_list(r.doubled))),
    NotInVariant: lambda r, s: _("the game {variant} has no {action} ({rule})", variant=r.variant,
                                 action=_(_VARIANT_ACTIONS.get(r.action, r.action)), rule=r.rule),
}


# What a variant may lack (docs/rules-variants.md), said in the current language.
_VARIANT_ACTIONS: dict[str, str] = {"prophet": N_("prophet"), "no play": N_("\"no play\""),
                                    "play by a player": N_("play by a player: the oracle turns the cards")}


# The mat tracker's status lines (calibration/table.py), printed while the table is not seen.
_STATUS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (re.compile(r"^looking for the mat: fewer than (?P<n>\d+) mat markers in view$"),
     lambda m: _("looking for the mat: fewer than {n} mat markers in view", n=m["n"])),
    (re.compile(r"^mat lost: no mat markers for (?P<n>\d+) frames$"),
     lambda m: _("mat lost: no mat markers for {n} frames", n=m["n"])),
    (re.compile(r"^mat markers hidden this frame$"), lambda m: _("mat markers hidden this frame")),
    (re.compile(r"^mat found \((?P<n>\d+) markers\)$"), lambda m: _("mat found ({n} markers)", n=m["n"])),
    (re.compile(r"^mat steady$"), lambda m: _("mat steady")),
    (re.compile(r"^the camera or the mat moved \((?P<px>\d+) px\); re-anchored$"),
     lambda m: _("the camera or the mat moved ({px} px); re-anchored", px=m["px"])),
    (re.compile(r"^the camera moved \((?P<px>\d+) px\): the mat followed$"),
     lambda m: _("the camera moved ({px} px): the mat followed", px=m["px"])),
    (re.compile(r"^ignored an odd frame \((?P<px>\d+) px off\) until it repeats$"),
     lambda m: _("ignored an odd frame ({px} px off) until it repeats", px=m["px"])),
    (re.compile(r"^the play zone is not whole in view \((?P<n>\d+) of (?P<m>\d+) corners\)$"),
     lambda m: _("the play zone is not whole in view ({n} of {m} corners)", n=m["n"], m=m["m"])),
)


def status_words(text: str) -> str:
    """A mat tracker status line in the current language (unknown lines as they are)."""
    for pattern, words in _STATUS:
        match = pattern.match(text)
        if match:
            return words(match)
    return text


def refusal_words(refusal: Refusal | RoundError | str, spoken: bool = False) -> str:
    """Why the engine refuses an action, in the current language, from the refusal's fields
    (engine/errors.py). An error with no refusal, or a bare text, is quoted as it is.

    >>> from engine.errors import IllegalActionError, OutOfTurn
    >>> refusal_words(IllegalActionError(OutOfTurn('Ana', 'Bo')))
    "it is Bo's turn, not Ana's (C5)"
    >>> from dealer.speech.i18n import use_language
    >>> with use_language('ru'):
    ...     refusal_words(OutOfTurn('Ана', 'Боря'))
    'сейчас ходит Боря, а не Ана (C5)'
    """
    if isinstance(refusal, IllegalActionError) and refusal.refusal is not None:
        refusal = refusal.refusal
    if not isinstance(refusal, Refusal):
        return str(refusal)
    words = _REFUSALS.get(type(refusal))
    return words(refusal, spoken) if words is not None else refusal.message()
