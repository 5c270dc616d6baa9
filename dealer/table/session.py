"""The live dealer: one round at a real table, from table views to typed happenings.

It seals the rule (R2), decides the starters as they are turned over (C4), then steps
the turn machine (dealer/table/turn.py, the one owner of the turn, held by
:class:`~dealer.table.protocol.TableProtocol`) with every view of the table, applies the
actions it asks for to the round of the variant dealt (:class:`~engine.round.Round` for
Howell's; engine/variants/ for the others, whose table's side is a
:class:`~dealer.table.table_rules.TableRules`) and tells it the verdicts back,
with the round's record of the layout, which the machine watches (P5, dealer/table/turn_layout.py:
the turn waits in its own phase while the layout is put right). The machine's intents are values; their words are made here
(dealer/speech/turn_words.py) as :mod:`dealer.table.happenings` records, which the live loop sends to
the voice, the view and the recording (dealer/app/outlets.py). A turn the engine refuses (out
of turn, a fourth copy of a card, C1) is reported as trouble, never judged on a wrong picture.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from dealer.table.happenings import (
    AskedToLayAgain,
    Happening,
    Judged,
    RuleDisclosed,
    SealShown,
    Spoken,
    StarterDecided,
    TroubleReported,
    VerdictTakenBack,
)
from dealer.speech.i18n import _, capital, n_, p_
from dealer.speech.narrate import card_words, refusal_words
from dealer.table.protocol import SETTLE_S, TableProtocol, TableView
from dealer.table.turn import TurnState
from dealer.table.turn_input import (
    CameraBack,
    CameraLost,
    CardNamed,
    KeyPressed,
    LineRecord,
    TableSeen,
    TableUnseen,
    Unseen,
)
from dealer.table.turn_intents import Judge, StarterTurned, TurnIntent
from dealer.speech.turn_words import words
from dealer.speech.variant_words import (
    announce_variant,
    describe_variant_result,
    describe_variant_turn,
    every_hand_empty,
    marker_news,
    prophet_bonus,
)
from dealer.table.table_rules import TableRules, WrongCard
from engine.cards import DEFAULT_DECKS, Card
from engine.errors import RoundError
from engine.events import DEFAULT_HAND, Attempt, BecomeProphet, NoPlay, RecordEvent, TurnOutcome, Verdict
from engine.record import format_record
from engine.round import Round
from engine.rules import RuleError, resolve_rule
from engine.rules.base import Rule
from engine.seal import seal
from engine.variants import DEFAULT_VARIANT, new_round, round_for
from engine.variants.abbott import AbbottRound, dealer_score
from engine.variants.howell_family import WikipediaRound

__all__ = ["DealerSession", "LiveRound", "ResumePoint", "SessionConfig"]

LiveRound = Round | AbbottRound  # the rounds the live dealer deals (dealer/table/table_rules.py)


@dataclass(frozen=True, slots=True)
class SessionConfig:
    players: tuple[str, ...]
    rule: str  # a library id or a rule text (R1)
    hand_size: int = DEFAULT_HAND
    decks: int = DEFAULT_DECKS
    settle_s: float = SETTLE_S
    spoken_cards: bool = True  # "the four of clubs" rather than "4C" for the voice
    variant: str = DEFAULT_VARIANT  # docs/rules-variants.md; its table's side is a TableRules


@dataclass(frozen=True, slots=True)
class ResumePoint:
    """Where an interrupted round goes on (`play --resume`, dealer/app/resume.py): the round
    replayed from its log, and the turn's state right after its last decision
    (:func:`dealer.table.turn.resumed`: with since when its cards may still be on their way
    to the layout, P3, P4). The round is of the session's variant."""

    round: LiveRound
    turn: TurnState


class _RoundSoFar:
    """The protocol's window on the round (a :class:`~dealer.table.protocol.RoundView`):
    every answer is the engine's own, and none before the starters are laid (C4)."""

    def __init__(self, session: DealerSession) -> None:
        self._session = session

    @property
    def started(self) -> bool:
        return self._session.round is not None

    @property
    def whose_turn(self) -> str | None:
        rnd = self._session.round
        return None if rnd is None else rnd.whose_turn

    @property
    def just_played(self) -> str | None:
        rnd = self._session.round
        return None if rnd is None else rnd.just_played

    @property
    def prophet(self) -> str | None:
        rnd = self._session.round
        return None if rnd is None else rnd.prophet

    def hand_size(self, player: str) -> int:
        rnd = self._session.round
        return 0 if rnd is None else rnd.hand_size(player)


class DealerSession:
    """Feed it :class:`TableView` s with :meth:`observe`; it returns what happened."""

    def __init__(self, config: SessionConfig, nonce: str | None = None, at: ResumePoint | None = None) -> None:
        """``at``: go on with an interrupted round from there (`play --resume`)."""
        self.config = config
        self.rule = resolve_rule(config.rule)
        self.nonce = nonce or secrets.token_hex(16)
        self.seal = seal(config.rule, self.nonce)
        self.table = TableRules.of(config.variant)
        self.round: LiveRound | None = None if at is None else at.round
        self.starters: list[Card] = [] if at is None else list(at.round.start.starters)
        self.protocol = TableProtocol(_RoundSoFar(self), settle_s=config.settle_s, rules=self.table,
                                      state=None if at is None else at.turn)
        self.revealed = False

    @property
    def _t(self) -> float:
        """The time of the last frame (the turn machine's): when what is said now happens."""
        return self.protocol.state.t

    def _card(self, card: Card) -> str:
        return card_words(card) if self.config.spoken_cards else str(card)

    # -- the round ---------------------------------------------------------------------------
    def begin(self, t: float = 0.0) -> list[Happening]:
        game = announce_variant(self.table.variant)
        return [
            SealShown(t, self.seal.commitment, _("The rule is sealed. Its seal begins {seal}; the whole seal is on "
                                                 "the screen.", seal=self.seal.commitment[:8])),  # R2
            *([Spoken(t, game)] if game else []),
            Spoken(t, _("Turn the top card of the stock face up in the play zone: the starter.")),  # C4
        ]

    def press(self, pressed: KeyPressed | CardNamed) -> list[Happening]:
        """A key at the table (dealer/table/keys.py): the turn machine takes it as the token it
        stands for. Key o, or key a with the play zone empty, while the layout watch holds the
        turn: the players go on with the layout as it lies (P5)."""
        if self.round is not None and self.round.ended is not None:
            return []
        return [h for intent in self.protocol.tell(pressed) for h in self._handle(intent, None)]

    def camera(self, event: CameraLost | CameraBack) -> None:
        """The camera went away (the turn pauses where it is) or came back (it goes on, its
        clocks started afresh): dealer/table/camera_pause.py."""
        if self.round is not None and self.round.ended is not None:
            return
        self.protocol.tell(event)

    def unseen(self, t: float, why: Unseen) -> list[Happening]:
        """A frame that gave no view of the table: nothing is judged, and the players hear why
        once it lasts (dealer/table/sight.py)."""
        return [Spoken(t, words(i)) for i in self.protocol.tell(TableUnseen(t, why))]

    def seen(self, view: TableView, camera_moving: bool = False) -> list[Happening]:
        """A frame that gave a view, before it is judged (:meth:`observe`): the table seen again
        after an outage that was said, or something that keeps moving over the play zone."""
        cards_lie = bool(view.play_cards) or view.unexplained_in_play
        return [Spoken(view.t, words(i))
                for i in self.protocol.tell(TableSeen(view.t, view.hand_over_play, camera_moving, cards_lie))]

    def observe(self, view: TableView) -> list[Happening]:
        if self.round is not None and self.round.ended is not None:
            return []
        # P5: the layout is watched against the record (an abbott-1959 line has no side
        # branches nor marker to watch); nothing new is judged while it is wrong
        line = LineRecord(self.round.layout, self.round.state().marker) if isinstance(self.round, Round) else None
        out: list[Happening] = []
        for intent in self.protocol.look(view, line):
            out += self._handle(intent, view.frame)
        return out

    def _handle(self, intent: TurnIntent, frame: int | None) -> list[Happening]:
        """An intent of the turn machine: a starter or an action goes to the round (its
        verdict goes back to the machine); the rest is said, in words made here."""
        if isinstance(intent, StarterTurned):
            return self._starter(intent.card, frame)
        if isinstance(intent, Judge):
            return self._judge(intent.action, frame)
        if intent.KIND == "say":
            return [Spoken(self._t, words(intent))]
        kind = AskedToLayAgain if intent.KIND == "lay_again" else TroubleReported
        return [kind(self._t, frame, words(intent))]

    def _starter(self, card: Card, frame: int | None) -> list[Happening]:
        if not self.rule.legal(tuple(self.starters), card):
            # C4: back to the bottom of the stock, and the next card is tried.
            return [StarterDecided(self._t, frame, card, False, capital(
                _("{card} cannot start the line: put it at the bottom of the stock.", card=self._card(card))))]
        self.starters.append(card)
        if len(self.starters) == self.rule.starter_count:
            rnd = new_round(self.rule, self.table.variant, self.config.players, self.starters,
                            rule_text=self.config.rule, hand_size=self.config.hand_size, decks=self.config.decks)
            assert isinstance(rnd, (Round, AbbottRound))  # TableRules.of refused kruskal
            self.round = rnd
        # C5: the protocol calls the first player once the starter has left the play zone.
        return [StarterDecided(self._t, frame, card, True, _("Starter {card}. Put it on the main line.",
                                                             card=self._card(card)),
                               deal=self.round.start if self.round is not None else None)]

    def _judge(self, action: Attempt | NoPlay | BecomeProphet, frame: int | None) -> list[Happening]:
        assert self.round is not None
        before = _Before.of(self.round)
        try:
            outcome = self.round.apply(action)
        except RoundError as exc:
            # Never judge on a wrong picture: say what is wrong, and let the table fix it.
            self.protocol.judged()
            return [TroubleReported(self._t, frame, _("I cannot take that: {error}", error=refusal_words(exc)))]
        except RuleError:  # a rule played without the checker (--allow-rejected-rule) that cannot decide
            self.protocol.judged()
            return [TroubleReported(self._t, frame, _("The secret rule cannot decide this turn: it was played "
                                                      "without the rule checker. The round ends here.")),
                    *self.finish()]
        sentence = describe_variant_turn(outcome, self.table.variant, spoken=self.config.spoken_cards,
                                         ended=self.round.ended)
        news = before.news(self.round)
        out: list[Happening] = [
            Judged(self._t, frame, action, outcome, " ".join(filter(None, (
                sentence, "" if self.round.ended else self._placement(outcome), news))))]
        self.protocol.judged(action, self._t)  # its cards are now on their way to the layout (P3, P4)
        if outcome.overthrown:
            self.protocol.deposed()
        if self.round.ended is not None:
            out += self.finish()
        return out

    def undo_last(self, reason: str = "taken back at the table") -> list[Happening]:
        """Take back the last verdict (a misread card, a wrong token): the round is
        replayed from its log without it (the log is the truth)."""
        if self.round is None or len(self.round.events) <= 1 or self.round.ended is not None:
            return [Spoken(self._t, _("There is no verdict to take back."))]
        last = self.round.turns[-1]
        self.round = _replayed(self.rule, self.round.events[:-1])
        self.protocol.restart_turn()
        return [VerdictTakenBack(self._t, last.index, reason,
                                 _("The verdict on {who}'s turn is taken back. Put the table back as it was; "
                                   "{next}, play again.", who=last.player, next=self.round.whose_turn))]

    def _placement(self, outcome: TurnOutcome) -> str:
        """Where the cards go now (P3, P4, AB5): the players follow the verdict by hand."""
        n = len(outcome.cards)
        if outcome.verdict is Verdict.REJECTED and self.table.wrong_card is WrongCard.IN_FRONT:
            return _("No card is drawn as a penalty.")  # AB5: the verdict said where it lies
        if outcome.verdict is Verdict.ACCEPTED:
            return n_("Put the cards at the end of the main line.", "Put the cards at the end of the main line.", n)
        if outcome.verdict is Verdict.REJECTED:
            return n_("Put the cards below the end of the line.", "Put the cards below the end of the line.", n)
        if outcome.verdict is Verdict.NOPLAY_WRONG:
            return _("That card goes to the main line; take the rest back.")
        if outcome.verdict is Verdict.NOPLAY_RIGHT:
            return _("The hand goes to the bottom of the stock.")
        return ""

    def finish(self) -> list[Happening]:
        """End of the round: the result, the scores and the rule revealed (G2-G6)."""
        if self.revealed:
            return []
        self.revealed = True
        out: list[Happening] = []
        if self.round is not None:
            result = self.round.result()
            first = self.round.first_scoring if isinstance(self.round, AbbottRound) else None
            bonus = prophet_bonus(result) if isinstance(self.round, WikipediaRound) else ""  # WK8
            out.append(Spoken(self._t, " ".join(filter(None, (
                bonus, describe_variant_result(result, self.table.variant, first))))))
        out.append(RuleDisclosed(self._t, self.config.rule, self.nonce, rule_in_words(self.config.rule)))  # R2, G6
        return out

    def game_record(self) -> str:
        """The round so far as a game record (`eleusis judge` reads it back); until the
        reveal its header says ``rule: sealed <commitment>`` (R2, G6)."""
        if self.round is None:
            return ""
        events = self.round.events
        if not self.revealed:
            start = dataclasses.replace(self.round.start, rule=f"sealed {self.seal.commitment}")
            events = (start, *events[1:])
        return format_record(events)


@dataclass(frozen=True, slots=True)
class _Before:
    """What a variant says about a turn once judged, from the round just before it: the
    markers (WK3) and expulsion (WK4) in wikipedia, the last hand emptied in abbott-1959 (AB7)."""

    markers: tuple[int, int] | None = None
    expelling: bool = False
    hands_held: bool = False

    @classmethod
    def of(cls, rnd: LiveRound) -> _Before:
        if isinstance(rnd, AbbottRound):
            return cls(hands_held=any(rnd.hands().values()))
        return cls(rnd.markers if isinstance(rnd, WikipediaRound) else None, rnd.expulsion_on)

    def news(self, rnd: LiveRound) -> str:
        """The variant's sentence about the turn just judged ("" when it has none)."""
        if rnd.ended is not None:
            return ""
        if isinstance(rnd, WikipediaRound) and self.markers is not None:
            return marker_news(self.markers, rnd.markers, rnd.expulsion_on and not self.expelling)
        if isinstance(rnd, AbbottRound) and self.hands_held and rnd.first_scoring is not None:
            return every_hand_empty(dealer_score(rnd.first_scoring))  # AB7: this turn emptied the last hand
        return ""


def _replayed(rule: Rule, events: Sequence[RecordEvent]) -> LiveRound:
    """The round of ``events`` folded again (the log is the truth), whatever its variant."""
    rnd = round_for(rule, events[0])  # type: ignore[arg-type]
    assert isinstance(rnd, (Round, AbbottRound))
    for event in events[1:]:
        rnd.apply(event)  # type: ignore[arg-type]
    return rnd


def rule_in_words(rule: str) -> str:
    """The reveal (G6): a library rule by its id and description, else the rule text."""
    from engine.rules import LIBRARY

    entry = LIBRARY.get(rule.strip())
    if entry is not None:
        return _("The rule was {id}: {description}", id=entry.id, description=p_("rule description", entry.description))
    return _("The rule was: {rule}.", rule=rule.strip())


def players_from_text(text: str | Sequence[str]) -> tuple[str, ...]:
    names = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return tuple(names)
