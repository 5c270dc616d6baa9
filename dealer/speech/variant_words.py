"""The variants' own sentences (docs/rules-variants.md), for `eleusis judge` and the
game's totals: what Howell's narrator (dealer/speech/narrate.py) has no words for. Rounds of
``howell``, ``wikipedia`` and ``express`` are said by dealer/speech/narrate.py unchanged.

>>> from engine.events import TurnOutcome, Verdict
>>> from engine.cards import parse_cards
>>> describe_variant_turn(TurnOutcome(1, 'Ana', Verdict.REJECTED, parse_cards('QD')), 'abbott-1959')
'Ana plays QD: rejected; it lies face up in front of Ana.'
"""

from __future__ import annotations

from collections.abc import Iterable

from dealer.speech.i18n import _, and_list, n_
from dealer.speech.narrate import card_words, describe_end, describe_result, describe_scores, describe_turn
from engine.cards import Card
from engine.events import EndReason, TurnOutcome, VariantEnd, Verdict
from engine.game import Game
from engine.judging import Judgement
from engine.scoring import RoundResult
from engine.variants.abbott import AbbottRound
from engine.variants.kruskal import KruskalRound

__all__ = ["announce_stop", "announce_variant", "every_hand_empty", "marker_news", "prophet_bonus", "describe_variant_end", "describe_variant_result", "describe_variant_turn",
           "judgement_sentences"]

OWN_WORDS = ("abbott-1959", "kruskal")  # the variants whose turns Howell's sentences would misstate


def _cards(cards: Iterable[Card], spoken: bool) -> str:
    if not spoken:
        return " ".join(str(c) for c in cards)
    return and_list(card_words(c, "object") for c in cards)


def describe_variant_end(reason: EndReason | VariantEnd, player: str | None = None) -> str:
    if reason is VariantEnd.BLOCKED:
        return _("The round is over: no error card can be shed.")  # AB10
    if reason is VariantEnd.DECK:
        return _("The round is over: the whole deck is turned.")  # KR7
    if reason is EndReason.EMPTIED and player is not None:
        return _("The round is over: {who} has no card left.", who=player)  # AB9
    assert isinstance(reason, EndReason)
    return describe_end(reason, player)


def describe_variant_turn(turn: TurnOutcome, variant: str, spoken: bool = False, right: tuple[str, ...] = (),
                          ended: EndReason | VariantEnd | None = None) -> str:
    """One turn of ``variant``; ``right``: in kruskal, the players whose token was right;
    ``ended``: how the round ended when this turn ended it (a turn carries Howell's ends
    only, engine/events.py)."""
    if variant not in OWN_WORDS:
        return describe_turn(turn, spoken)
    cards = _cards(turn.cards, spoken)
    parts: list[str] = []
    if variant == "kruskal":
        if turn.verdict is Verdict.ACCEPTED:
            parts.append(_("The oracle turns {cards}: the main line.", cards=cards))  # KR3
        else:
            parts.append(_("The oracle turns {cards}: a side line.", cards=cards))
        parts.append(_("Right: {names}.", names=and_list(right)) if right else _("Nobody was right."))  # KR5
    elif turn.verdict is Verdict.ACCEPTED:
        parts.append(_("{who} plays {cards}: accepted.", who=turn.player, cards=cards))
    else:
        parts.append(_("{who} plays {cards}: rejected; it lies face up in front of {who}.",
                       who=turn.player, cards=cards))  # AB5, AB8
    end = ended if ended is not None else turn.ended
    if end is not None:
        parts.append(describe_variant_end(end, turn.player if turn.emptied else None))
    return " ".join(parts)


def describe_variant_result(result: RoundResult, variant: str, first_scoring: dict[str, int] | None = None) -> str:
    if variant not in OWN_WORDS:
        return describe_result(result)
    lines = [] if result.ended is not None else [_("The round is not over; scored as if it ended now.")]
    if variant == "abbott-1959":
        left = ", ".join(_("{name} {count}", name=n, count=c) for n, c in result.hands.items())
        lines.append(_("Cards left in hand and in front: {counts}.", counts=left))  # AB9, AB10
        if first_scoring is not None:
            lines.append(_("When the last hand was emptied the dealer was scored on the error cards in front."))  # AB7
    lines.append(describe_scores(result))
    return " ".join(lines)


def announce_stop(game: Game) -> str | None:
    """A game stopping before everyone has dealt, paid the variant's way (WK10); None when
    the variant pays nothing for it."""
    paid = game.compensation()
    if not paid:
        return None
    points = next(iter(paid.values()))
    totals = game.final_totals()
    return n_("If the game stops here, {names} never dealt and get {n} point each. Totals: {totals}.",
              "If the game stops here, {names} never dealt and get {n} points each. Totals: {totals}.",
              points, names=and_list(paid),
              totals=", ".join(_("{name} {count}", name=n, count=t) for n, t in totals.items()))


def judgement_sentences(judgement: Judgement, spoken: bool = False) -> list[tuple[int, str]]:
    """Each turn of a judged record said the variant's way, with its record line, then the
    result (line 0)."""
    rnd = judgement.round
    variant = judgement.record.start.variant
    hits = rnd.hits if isinstance(rnd, KruskalRound) else ()
    out: list[tuple[int, str]] = []
    last = len(judgement.turns) - 1
    for index, (number, turn) in enumerate(judgement.turns):
        right = hits[index] if index < len(hits) else ()
        end = rnd.ended if index == last else None
        out.append((number, describe_variant_turn(turn, variant, spoken, right, end)))
    first = rnd.first_scoring if isinstance(rnd, AbbottRound) else None
    out.append((0, describe_variant_result(rnd.result(), variant, first)))
    return out


# -- the live dealer's own sentences for a variant (dealer/table/session.py) ----------------
def announce_variant(variant: str) -> str | None:
    """What the dealer says before the starter: which game, and how it differs from Howell's
    (None for Howell's own)."""
    if variant == "wikipedia":
        return _("We play Eleusis as the Russian Wikipedia article has it: two decks, chains, \"no play\" and a "
                 "prophet as usual. A white marker goes on every tenth card played, a black one on every tenth card "
                 "after the prophet's marker; after the fourth marker a wrong play expels its player. A prophet "
                 "still in office at the end scores a bonus for the cards after the first black marker.")  # WK1-WK8
    if variant == "express":
        return _("We play Eleusis Express: one card a turn, no \"no play\", no prophet, and nobody is expelled. "
                 "A wrong card goes below the line and its player draws two.")  # EX2-EX6
    if variant == "abbott-1959":
        return _("We play Abbott's Eleusis of 1959: one card a turn, no \"no play\" and no prophet. A wrong card "
                 "lies face up in front of its player, and nobody draws a penalty. Once your hand is empty, shed "
                 "your error cards, one a turn.")  # AB2-AB8
    return None


def marker_news(before: tuple[int, int], after: tuple[int, int], expulsion_began: bool) -> str:
    """WK3-WK4: the marker a turn laid, (white, black) counts before and after it (black takes
    priority), and expulsion beginning; "" when nothing changed."""
    parts: list[str] = []
    if after[1] > before[1]:
        parts.append(n_("A black marker: {n} after the prophet's marker.",
                        "A black marker: {n} after the prophet's marker.", after[1]))
    elif after[0] > before[0]:
        parts.append(n_("A white marker: {n} on the table.", "A white marker: {n} on the table.", after[0]))
    if expulsion_began:
        parts.append(_("From now on a wrong play expels its player."))
    return " ".join(parts)


def every_hand_empty(dealer: int) -> str:
    """AB7: the last hand emptied; the dealer is scored, and the error cards are shed."""
    return n_("Every hand is empty: the dealer scores {n}. Now shed your error cards, one a turn.",
              "Every hand is empty: the dealer scores {n}. Now shed your error cards, one a turn.", dealer)


def prophet_bonus(result: RoundResult) -> str:
    """WK8: the prophet in office at the end is paid for the cards after the first black marker."""
    if result.prophet is None:
        return ""
    return _("Prophet {who}'s bonus: 1 point for each main-line card and 2 for each side card after the first "
             "black marker.", who=result.prophet)
