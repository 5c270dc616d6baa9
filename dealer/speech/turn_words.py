"""The turn's intents in the players' words, from the gettext catalogs (an outlet's job).

:func:`words` is the one place a :mod:`dealer.table.turn_intents` value becomes a sentence; the
session calls it when it hands a happening to the voice, the view and the recording.
"""

from __future__ import annotations

from dealer.speech.i18n import N_, Count, _, and_list, card_name, p_
from dealer.speech.layout_words import layout_words
from dealer.table.sight import BACK, CAMERA_MOVES, HAND_STAYS, NO_MAT, ZONE_OUT
from dealer.table.turn_input import Unseen
from dealer.table.turn_intents import (
    AskLayAgain,
    AskProphet,
    Busy,
    CannotRead,
    CardNamedAs,
    FaceDown,
    HandProgress,
    Judge,
    KeepsMoving,
    LayoutTold,
    Missing,
    NoPlayWithdrawn,
    NotInGame,
    NothingToName,
    Owed,
    StarterTurned,
    TableNotSeen,
    TableSeenAgain,
    TakenAway,
    Taken,
    TooManyShown,
    TurnIntent,
    TurnNextStarter,
    Unread,
    YourTurn,
    ZoneBusy,
)

__all__ = ["BESIDE_UNSEEN", "LAY_AGAIN", "TOKEN_UNSEEN", "ordinal", "words"]

# Said when something lies in the play zone that the camera cannot read as cards.
LAY_AGAIN = N_("I can see something in the play zone but cannot read it: lay the cards flat and apart.")
# Said when every card in the zone is read but something else lies there unread: a token
# not seen, or a card laid touching another that the camera did not tell apart from it.
BESIDE_UNSEEN = N_("I can see something beside the cards that I cannot read: if it is a card, lay it apart "
                   "from the others; if it is a token, lay it flat and face up beside the cards.")
# Said while the prophet's token is awaited and something unread lies beside the cards.
TOKEN_UNSEEN = N_("I cannot see the ACCEPT or REJECT token: lay it flat, face up, beside the cards.")


def ordinal(n: int) -> str:
    """"the {where} card": first ... fifth, then "number 6" (as a translation declines it)."""
    words = {1: p_("ordinal, card", "first"), 2: p_("ordinal, card", "second"), 3: p_("ordinal, card", "third"),
             4: p_("ordinal, card", "fourth"), 5: p_("ordinal, card", "fifth")}
    return words.get(n) or p_("ordinal, card", "number {n}", n=n)


def _busy(reason: Busy) -> str:
    if reason is Busy.JUDGED_CARDS_LIE:
        return _("Take the cards already judged out of the play zone before laying new ones.")
    if reason is Busy.NOT_SEEN_EMPTY:
        return _("I can see something in the play zone that I cannot read, and I have not seen it empty since "
                 "the last verdict: take everything out of it.")
    if reason is Busy.PROPHET_DECIDING:
        return _("Leave the cards as they were laid until the prophet has decided.")
    if reason is Busy.REJECT_NAMES_NO_CARD:
        return _("Prophet: put the REJECT token next to the card you name.")
    if reason is Busy.ONE_STARTER:
        return _("Lay one starter card alone in the play zone, face up.")
    if reason is Busy.PROPHET_TOO_LATE:
        return _("The PROPHET token can only be put out right after your own turn (F1).")
    if reason is Busy.NO_PLAY_TOKEN_UNSEEN:
        return _("I cannot see the NO PLAY token: put it back beside the cards, or take the cards away to "
                 "withdraw the no play.")
    return _("What lies in the play zone keeps changing from one look to the next, and no hand is over it: "
             "I cannot judge it. Lay the cards again, flat and apart.")


def _unread(intent: CannotRead) -> str:
    where = ordinal(intent.where)
    if intent.what is Unread.BATCH_CARD:
        if intent.again:
            return _("I still cannot read the {where} card of this batch: straighten it or spread the cards "
                     "apart, or type its name (for example 8C).", where=where)
        return _("I cannot read the {where} card of this batch: straighten it, or spread the cards apart.",
                 where=where)
    if intent.what is Unread.CARD:
        if intent.again:
            return _("I still cannot read the {where} card in the play zone: straighten it, or type its name "
                     "(for example 8C).", where=where)
        return _("I cannot read the {where} card in the play zone: straighten it or move your hand away.",
                 where=where)
    if intent.what is Unread.BESIDE:
        return _(BESIDE_UNSEEN)
    if intent.what is Unread.TOKEN:
        return _(TOKEN_UNSEEN)
    if intent.what is Unread.STARTER:
        return _("I cannot read the starter: lay it flat, face up, alone in the play zone.")
    return _(LAY_AGAIN)


def _owed(intent: AskLayAgain) -> str:
    who = intent.player
    if intent.why is Owed.UNSEEN_EMPTYING:
        return _("I did not see the play zone empty after the last verdict. {who}, your turn: take these cards "
                 "back and lay your play again.", who=who)
    if intent.why is Owed.LOST_TRACK:
        return _("I have lost track of the turns: {who}'s cards were taken away before I could read them, and "
                 "other cards have come since. {who}, lay your play again; or press j to judge what lies in the "
                 "play zone as {who}'s play.", who=who)
    if intent.why is Owed.SHOW_HAND_AGAIN:
        return _("{who}, put the NO PLAY token back and show the hand again: I could not read all of it.", who=who)
    if intent.why is Owed.NOT_THE_HAND:
        return _("{who}, this is not the hand you showed before: put the NO PLAY token back and show that hand "
                 "again.", who=who)
    if not intent.cards_read:
        return _("{who}, first lay again the cards that were taken away before I could read them.", who=who)
    return _("{who}, first lay again the cards that were taken away before I could read them ({cards} among "
             "them).", who=who, cards=and_list(card_name(c) for c in sorted(intent.cards_read)))


def _not_in_game(what: Missing) -> str:
    """A variant without chains, "no play" or prophet (EX2-EX4, AB2-AB3)."""
    if what is Missing.CHAIN:
        return _("In this game a turn is one card: leave one card in the play zone and take the others back.")
    if what is Missing.NO_PLAY:
        return _("There is no \"no play\" in this game: take the NO PLAY token away and play a card.")
    return _("There is no prophet in this game: take the PROPHET token away.")


def words(intent: TurnIntent) -> str:
    """The sentence the players hear for ``intent`` ("" for a starter or an action: the
    session words those with the round's verdict)."""
    if isinstance(intent, (StarterTurned, Judge)):
        return ""
    if isinstance(intent, TurnNextStarter):
        return _("Turn the next card of the stock.")
    if isinstance(intent, YourTurn):
        return _("{who}, your turn.", who=intent.player)
    if isinstance(intent, AskProphet):
        return _("Prophet {who}, accept or reject?", who=intent.prophet)
    if isinstance(intent, HandProgress):
        return _("{shown} of {need} seen. Show the other {left}.", shown=Count(intent.shown),
                 need=Count(intent.need), left=Count(intent.need - intent.shown))
    if isinstance(intent, NoPlayWithdrawn):
        return _("No play withdrawn.")
    if isinstance(intent, TableNotSeen):
        return _(ZONE_OUT) if intent.why is Unseen.ZONE_OUT else _(NO_MAT)
    if isinstance(intent, TableSeenAgain):
        return _(BACK)
    if isinstance(intent, KeepsMoving):
        return _(CAMERA_MOVES) if intent.camera else _(HAND_STAYS)
    if isinstance(intent, CardNamedAs):
        return _("The {where} card in the play zone is {card}, as you named it.",
                 where=ordinal(intent.where), card=card_name(intent.card))
    if isinstance(intent, NothingToName):
        return _("I can read every card in the play zone: {card} names none of them.", card=card_name(intent.card))
    if isinstance(intent, ZoneBusy):
        return _busy(intent.reason)
    if isinstance(intent, CannotRead):
        return _unread(intent)
    if isinstance(intent, FaceDown):
        return _("The {where} card in the play zone is face down: turn it face up.", where=ordinal(intent.where))
    if isinstance(intent, TakenAway):
        if intent.what is Taken.STARTER:
            return _("The starter was taken away before I could read it: turn it face up in the play zone again.")
        if intent.what is Taken.SWAPPED:
            return _("I could not read the last batch before it was taken away: show it again.")
        return _("I could not read that batch before it was taken away: show it again.")
    if isinstance(intent, AskLayAgain):
        return _owed(intent)
    if isinstance(intent, NotInGame):
        return _not_in_game(intent.what)
    if isinstance(intent, LayoutTold):
        return layout_words(intent.note)
    assert isinstance(intent, TooManyShown), intent
    return _("I have seen {seen} cards but {who} holds {need}: {over} too many. Show the hand again.",
             seen=Count(intent.seen), who=intent.player, need=Count(intent.need),
             over=Count(intent.seen - intent.need))
