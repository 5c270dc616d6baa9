"""The layout watch's values in the players' words, from the gettext catalogs (an outlet's job).

dealer/table/layout_watch.py says what is out of place as values with their parameters
(:data:`~dealer.table.layout_problems.Discrepancy`, :data:`~dealer.table.layout_problems.LayoutNote`);
this is the one place they become sentences (P5, F2), for the voice, the view and the
recording alike.

>>> from dealer.table.layout_problems import LineCard, Misplaced, SeenOnLine, UnderCard
>>> from engine.cards import Card
>>> discrepancy_words(Misplaced(Card.parse("QD"), UnderCard(LineCard(Card.parse("7H"))), SeenOnLine()))
'QD should be in the side branch under 7H, it is on the main line.'
"""

from __future__ import annotations

from dealer.speech.i18n import N_, _
from dealer.table.layout_problems import (
    AfterCard,
    AtStart,
    CardMissing,
    Discrepancy,
    ExtraCard,
    GoingOnAsItLies,
    LayoutNote,
    LayoutRight,
    LayoutWrong,
    LeftInPlay,
    LineCard,
    Misplaced,
    OutOfOrder,
    OutOfOrderInBranch,
    OutsideLayout,
    Place,
    ProphetMarkerMissing,
    ProphetMarkerMoved,
    SeenOnLine,
    StillWrong,
    UnderCard,
)

__all__ = ["GOING_ON", "RIGHT_AGAIN", "discrepancy_words", "layout_words", "line_card", "place"]

RIGHT_AGAIN = N_("The layout is right again.")
GOING_ON = N_("Going on with the layout as it lies.")


def _ordinal_suffix(n: int) -> str:
    return "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def line_card(card: LineCard) -> str:
    """A main-line card: "7H", or "the 2nd 7H" when the line holds more than one."""
    if card.copy is None:
        return str(card.card)
    n = card.copy  # {suffix_}: English only (a translation writes "QS №2")
    return _("the {n}{suffix_} {card}", n=n, suffix_=_ordinal_suffix(n), card=card.card)


def place(where: Place) -> str:
    """Where a card belongs on the record, the way players say it."""
    if isinstance(where, AtStart):
        return _("at the start of the main line")
    if isinstance(where, AfterCard):
        return _("on the main line after {card}", card=line_card(where.card))
    return _("in the side branch under {card}", card=line_card(where.card))


def _misplaced(d: Misplaced) -> str:
    card, should = d.card, place(d.belongs)
    if isinstance(d.seen, SeenOnLine):
        return _("{card} should be {place}, it is on the main line.", card=card, place=should)
    if not isinstance(d.belongs, UnderCard):
        return _("{card} should be {place}, it is in a side branch.", card=card, place=should)
    under = _("under a card the record does not place") if d.seen.under is None else \
        _("under {card}", card=line_card(d.seen.under))
    return _("{card} should be {place}, it is {under}.", card=card, place=should, under=under)


def discrepancy_words(d: Discrepancy) -> str:
    """One thing out of place, as a sentence."""
    if isinstance(d, CardMissing):
        return _("{card} is missing: it belongs {place}.", card=d.card, place=place(d.belongs))
    if isinstance(d, ExtraCard):
        where = _("on the main line") if d.on_main_line else _("among the side branches")
        return _("{card} lies {where}, but the record has no {card} there: take it away.", card=d.card, where=where)
    if isinstance(d, LeftInPlay):
        return _("{card} is still in the play zone: it belongs {place}.", card=d.card, place=place(d.belongs))
    if isinstance(d, OutsideLayout):
        return _("{card} lies outside the layout: it belongs {place}.", card=d.card, place=place(d.belongs))
    if isinstance(d, OutOfOrder):
        return _("{card} is out of order on the main line: it belongs {place}.", card=d.card, place=place(d.belongs))
    if isinstance(d, OutOfOrderInBranch):
        return _("{card} is out of order in the side branch under {anchor}: the branch reads top to bottom in the "
                 "order played.", card=d.card, anchor=line_card(d.under))
    if isinstance(d, Misplaced):
        return _misplaced(d)
    token_place = _("on the main line just after {card}", card=line_card(d.after))
    if isinstance(d, ProphetMarkerMissing):
        return _("The PROPHET token is not on the table: lay it {place}.", place=token_place)
    return _("The PROPHET token has moved: it belongs {place}.", place=token_place)


def layout_words(note: LayoutNote) -> str:
    """What the layout watch says, as the players hear it."""
    if isinstance(note, LayoutWrong):
        return _("The layout does not match: {problems} Move it, or press o to go on as it lies.",
                 problems=" ".join(map(discrepancy_words, note.problems)))
    if isinstance(note, StillWrong):
        return _("Still out of place: {problems}", problems=" ".join(map(discrepancy_words, note.problems)))
    if isinstance(note, LayoutRight):
        return _(RIGHT_AGAIN)
    if isinstance(note, GoingOnAsItLies):
        return _(GOING_ON)
    return discrepancy_words(note)
