"""The live dealer of a Kruskal round (docs/rules-variants.md KR1-KR8): the machine's
intents (dealer/table/kruskal_turn.py) applied to the :class:`~engine.variants.kruskal.KruskalRound`
and said as :mod:`dealer.table.happenings` records, which the live loop sends to the
voice, the view and the recording (dealer/app/outlets.py).

It seals the rule (R2) before the starter, decides the starter (C4), judges each card
turned with the players' tokens (seat k is the k-th player from the dealer's left, C5),
says the verdict, who was right and the points (KR5), and reveals the rule at the end
(KR7, G6). A card the engine refuses (a second copy of a card, C1) is reported as
trouble, never judged.
"""

from __future__ import annotations

import dataclasses
import secrets
from dataclasses import dataclass

from dealer.speech.i18n import _, and_list, capital
from dealer.speech.narrate import card_words, refusal_words
from dealer.speech.variant_words import describe_variant_result, describe_variant_turn
from dealer.table.happenings import Happening, Judged, RuleDisclosed, SealShown, Spoken, StarterDecided, TroubleReported
from dealer.table.kruskal_turn import (
    BothTokens,
    CardTakenAway,
    CardTurned,
    JudgeTurn,
    KruskalIntent,
    KruskalLook,
    OneCardAtATime,
    StarterTurned,
    TokensStillOut,
    Unreadable,
    WaitingForTokens,
    another_starter,
    initial,
    step,
)
from dealer.table.protocol import SETTLE_S
from dealer.table.session import rule_in_words
from engine.cards import Card
from engine.errors import RoundError
from engine.events import OracleTurn, Verdict
from engine.record import format_record
from engine.rules import RuleError, resolve_rule
from engine.seal import seal
from engine.variants.kruskal import KruskalRound

__all__ = ["KruskalConfig", "KruskalSession"]


@dataclass(frozen=True, slots=True)
class KruskalConfig:
    players: tuple[str, ...]  # seat 1 first: the dealer's left (C5)
    rule: str
    settle_s: float = SETTLE_S
    spoken_cards: bool = True


class KruskalSession:
    """Feed it :class:`KruskalLook` s with :meth:`observe`; it returns what happened."""

    def __init__(self, config: KruskalConfig, nonce: str | None = None) -> None:
        self.config = config
        self.rule = resolve_rule(config.rule)
        self.nonce = nonce or secrets.token_hex(16)
        self.seal = seal(config.rule, self.nonce)
        self.round: KruskalRound | None = None
        self.starters: list[Card] = []
        self.state = initial(len(config.players), config.settle_s)
        self.revealed = False
        self._t = 0.0

    def _card(self, card: Card) -> str:
        return card_words(card) if self.config.spoken_cards else str(card)

    def _names(self, seats: tuple[int, ...]) -> str:
        return and_list(self.config.players[s - 1] for s in seats)

    def begin(self, t: float = 0.0) -> list[Happening]:
        self._t = t
        return [
            SealShown(t, self.seal.commitment, _("The rule is sealed. Its seal begins {seal}; the whole seal is on "
                                                 "the screen.", seal=self.seal.commitment[:8])),  # R2
            Spoken(t, _("Turn the top card of the stock face up in the play zone: the starter.")),  # KR2, C4
        ]

    def observe(self, look: KruskalLook) -> list[Happening]:
        self._t = look.t
        if self.revealed or self.round is not None and self.round.ended is not None:
            return []
        self.state, intents = step(self.state, look)
        out: list[Happening] = []
        for intent in intents:
            out += self._handle(intent, look.frame)
        return out

    def _handle(self, intent: KruskalIntent, frame: int | None) -> list[Happening]:
        if isinstance(intent, StarterTurned):
            decided = self._starter(intent.card, frame)
            if self.round is None:  # refused, or the start needs more cards (C4): the next is a starter too
                self.state = another_starter(self.state)
            return [decided]
        if isinstance(intent, JudgeTurn):
            return self._judge(intent, frame)
        if isinstance(intent, CardTurned):
            return [Spoken(self._t, capital(_("{card} is turned. Show your tokens: true for the main line, false "
                                                "for a side line.", card=self._card(intent.card))))]
        if isinstance(intent, WaitingForTokens):
            return [Spoken(self._t, _("Waiting for the token of {names}.", names=self._names(intent.seats)))]
        if isinstance(intent, BothTokens):
            return [TroubleReported(self._t, frame, _("{names}: show one token only, true or false.",
                                                      names=self._names(intent.seats)))]
        if isinstance(intent, TokensStillOut):
            return [Spoken(self._t, _("Take your tokens back before the next card: {names}.",
                                      names=self._names(intent.seats)))]
        if isinstance(intent, CardTakenAway):
            return [Spoken(self._t, capital(_("{card} left the play zone before the verdict: turn it again.",
                                              card=self._card(intent.card))))]
        if isinstance(intent, OneCardAtATime):
            return [TroubleReported(self._t, frame, _("One card at a time: the oracle turns a single card into "
                                                      "the play zone."))]
        assert isinstance(intent, Unreadable)
        return [TroubleReported(self._t, frame, _("I cannot read the card in the play zone: lay it flat and "
                                                  "straight."))]

    def _starter(self, card: Card, frame: int | None) -> Happening:
        if not self.rule.legal(tuple(self.starters), card):  # C4: back to the stock, the next card is tried
            return StarterDecided(self._t, frame, card, False, capital(
                _("{card} cannot start the line: put it at the bottom of the stock.", card=self._card(card))))
        self.starters.append(card)
        if len(self.starters) == self.rule.starter_count:
            self.round = KruskalRound.new(self.rule, self.config.players, self.starters, rule_text=self.config.rule)
        return StarterDecided(self._t, frame, card, True, _("Starter {card}. Put it on the main line.",
                                                            card=self._card(card)),
                              deal=self.round.start if self.round is not None else None)

    def _judge(self, intent: JudgeTurn, frame: int | None) -> list[Happening]:
        assert self.round is not None  # the machine judges cards only after the starters (another_starter)
        players = self.config.players
        action = OracleTurn(intent.card, tuple((players[seat - 1], main) for seat, main in intent.tokens))
        try:
            outcome = self.round.apply(action)
        except RoundError as exc:
            return [TroubleReported(self._t, frame, _("I cannot take that: {error}", error=refusal_words(exc)))]
        except RuleError:  # a rule played without the checker that cannot decide
            return [TroubleReported(self._t, frame, _("The secret rule cannot decide this turn: it was played "
                                                      "without the rule checker. The round ends here.")),
                    *self.finish()]
        rnd = self.round
        sentence = describe_variant_turn(outcome, "kruskal", self.config.spoken_cards, rnd.hits[-1], rnd.ended)
        points = ", ".join(_("{name} {count}", name=n, count=c) for n, c in rnd.result().scores.items())
        where = "" if rnd.ended is not None else (
            _("Put it at the end of the main line, and take your tokens back.") if outcome.verdict is Verdict.ACCEPTED
            else _("Put it below the end of the line, and take your tokens back."))
        text = " ".join(filter(None, (sentence, _("Points: {points}.", points=points), where)))
        out: list[Happening] = [Judged(self._t, frame, action, outcome, text)]
        if rnd.ended is not None:
            out += self.finish()
        return out

    def finish(self) -> list[Happening]:
        """The end: the points, the oracle's score (KR8) and the rule revealed (G6)."""
        if self.revealed:
            return []
        self.revealed = True
        out: list[Happening] = []
        if self.round is not None:
            out.append(Spoken(self._t, describe_variant_result(self.round.result(), "kruskal")))
        out.append(RuleDisclosed(self._t, self.config.rule, self.nonce, rule_in_words(self.config.rule)))
        return out

    def game_record(self) -> str:
        """The round so far as a game record; until the reveal its rule is ``sealed
        <commitment>`` (R2, G6)."""
        if self.round is None:
            return ""
        events = self.round.events
        if not self.revealed:
            start = dataclasses.replace(self.round.start, rule=f"sealed {self.seal.commitment}")
            events = (start, *events[1:])
        return format_record(events)
