"""The live dealer: one round at a real table, from table views to spoken verdicts.

It seals the rule (R2), takes the starters as they are turned over (C4), then hands every
stable view of the table to the :class:`~dealer.table_protocol.TableProtocol`, applies
the resulting actions to the :class:`~engine.round.Round`, says each verdict
(dealer/narrate.py) and writes everything to the recording as it happens. A turn the
engine refuses (out of turn, a fourth copy of a card, C1) is said and logged as trouble,
never judged on a wrong picture.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from dealer.narrate import card_words, describe_result, describe_turn
from dealer.recording import RecordingWriter, RuleRevealed, Said, Sealed, Trouble, Undone
from dealer.recording import Verdict as VerdictEvent
from dealer.table_protocol import Intent, TableProtocol, TableView
from dealer.voice import Voice
from engine.cards import DEFAULT_DECKS, Card
from engine.errors import RoundError
from engine.events import DEFAULT_HAND, Attempt, BecomeProphet, NoPlay, TurnOutcome, Verdict
from engine.record import format_action, format_record
from engine.round import Round
from engine.rules import resolve_rule
from engine.seal import seal

__all__ = ["DealerSession", "SessionConfig"]


@dataclass(frozen=True, slots=True)
class SessionConfig:
    players: tuple[str, ...]
    rule: str  # a library id or a rule text (R1)
    hand_size: int = DEFAULT_HAND
    decks: int = DEFAULT_DECKS
    settle_s: float = 2.0
    spoken_cards: bool = True  # "the four of clubs" rather than "4C" for the voice


class _NoRoundYet:
    """The protocol's view of the round while the starters are still being turned (C4)."""

    whose_turn = None
    prophet = None

    def hand_size(self, player: str) -> int:
        return 0


class DealerSession:
    """Feed it :class:`TableView` s with :meth:`observe`; it speaks and records."""

    def __init__(
        self,
        config: SessionConfig,
        voice: Voice,
        recorder: RecordingWriter | None = None,
        nonce: str | None = None,
    ) -> None:
        self.config = config
        self.rule = resolve_rule(config.rule)
        self.voice = voice
        self.recorder = recorder
        self.nonce = nonce or secrets.token_hex(16)
        self.seal = seal(config.rule, self.nonce)
        self.round: Round | None = None
        self.starters: list[Card] = []
        self._starter_seen: tuple[str | None, ...] = ()
        self._starter_since = 0.0
        self._starter_waiting_clear = False
        self.protocol = TableProtocol(_NoRoundYet(), settle_s=config.settle_s)
        self._t = 0.0
        self.revealed = False
        self.decisions = 0  # verdicts, starter decisions and troubles: the frames worth keeping

    # -- speaking and recording --------------------------------------------------------
    def _say(self, text: str) -> None:
        self.voice.say(text)
        if self.recorder:
            self.recorder.write(Said(t=self._t, text=text))

    def _trouble(self, text: str, frame: int | None) -> None:
        self.decisions += 1
        self.voice.say(text)
        if self.recorder:
            self.recorder.write(Trouble(t=self._t, text=text, frame=frame))

    def report_trouble(self, text: str, frame: int | None = None) -> None:
        """Say and record something the table must fix (a misplaced card, P5)."""
        self._trouble(text, frame)

    def _card(self, card: Card) -> str:
        return card_words(card) if self.config.spoken_cards else str(card)

    # -- the round ---------------------------------------------------------------------------
    def begin(self, t: float = 0.0) -> None:
        self._t = t
        if self.recorder:
            self.recorder.write(Sealed(t=t, commitment=self.seal.commitment))
        self._say(f"The rule is sealed. Its seal begins {self.seal.commitment[:8]}.")  # R2
        self._say("Turn the top card of the stock face up in the play zone: the starter.")  # C4

    def observe(self, view: TableView) -> None:
        self._t = view.t
        if self.round is None:
            self._observe_starter(view)
            return
        if self.round.ended is not None:
            return
        for intent in self.protocol.observe(view):
            self._handle(intent)

    def _observe_starter(self, view: TableView) -> None:
        labels = tuple(c.label for c in view.play_cards)
        if self._starter_waiting_clear:
            if not labels:
                self._starter_waiting_clear = False
                if self.round is None:
                    self._say("Turn the next card of the stock.")
            return
        if labels != self._starter_seen:
            self._starter_seen, self._starter_since = labels, view.t
            return
        if not labels or view.t - self._starter_since < self.config.settle_s:
            return
        if len(labels) != 1 or labels[0] is None:
            self._trouble("Lay one starter card alone in the play zone, face up.", view.frame)
            self._starter_since = view.t + 1e9  # say it once for this picture
            return
        card = Card.parse(labels[0])
        self.decisions += 1
        self._starter_waiting_clear = True
        if not self.rule.legal(tuple(self.starters), card):
            # C4: back to the bottom of the stock, and the next card is tried.
            self._say(f"{self._card(card)} cannot start the line: put it at the bottom of the stock.")
            return
        self.starters.append(card)
        if len(self.starters) < self.rule.starter_count:
            self._say(f"Starter {self._card(card)}. Put it on the main line.")
            return
        self.round = Round.new(
            self.rule, self.config.players, self.starters, rule_text=self.config.rule,
            hand_size=self.config.hand_size, decks=self.config.decks,
        )
        self.protocol = TableProtocol(self.round, settle_s=self.config.settle_s)
        # C5: the protocol calls the first player once the starter has left the play zone.
        self._say(f"Starter {self._card(card)}. Put it on the main line.")
        self._starter_waiting_clear = False
        self.protocol.expect_clear()

    def _handle(self, intent: Intent) -> None:
        if intent.say:
            self._say(intent.say)
        if intent.trouble:
            self._trouble(intent.trouble, intent.frame)
        if intent.action is not None:
            self._judge(intent.action, intent.frame)

    def _judge(self, action: Attempt | NoPlay | BecomeProphet, frame: int | None) -> None:
        assert self.round is not None
        try:
            outcome = self.round.apply(action)
        except RoundError as exc:
            # Never judge on a wrong picture: say what is wrong, and let the table fix it.
            self._trouble(f"I cannot take that: {exc}", frame)
            self.protocol.judged(action.player)
            return
        self.decisions += 1
        sentence = describe_turn(outcome, spoken=self.config.spoken_cards)
        self._say(sentence + ("" if outcome.ended else self._placement(outcome)))
        if self.recorder:
            self.recorder.write(_verdict_event(self._t, outcome, action, frame))
        self.protocol.judged(action.player)
        if outcome.overthrown:
            self.protocol.deposed()
        if outcome.ended is not None:
            self.finish()

    def undo_last(self, reason: str = "taken back at the table") -> bool:
        """Take back the last verdict (a misread card, a wrong token): the round is
        replayed from its log without it (the log is the truth). False when none."""
        if self.round is None or len(self.round.events) <= 1 or self.round.ended is not None:
            self._say("There is no verdict to take back.")
            return False
        last = self.round.turns[-1]
        self.round = Round.replay(self.rule, self.round.events[:-1])
        self.protocol.round = self.round
        self.protocol.restart_turn()
        self.decisions += 1
        if self.recorder:
            self.recorder.write(Undone(t=self._t, turn=last.index, reason=reason))
        self._say(f"The verdict on {last.player}'s turn is taken back. Put the table back as it was; "
                  f"{self.round.whose_turn}, play again.")
        return True

    @staticmethod
    def _placement(outcome: TurnOutcome) -> str:
        """Where the cards go now (P3, P4): the players follow the verdict by hand."""
        if outcome.verdict is Verdict.ACCEPTED:
            return " Put the cards at the end of the main line."
        if outcome.verdict is Verdict.REJECTED:
            return " Put the cards below the end of the line."
        if outcome.verdict is Verdict.NOPLAY_WRONG:
            return " That card goes to the main line; take the rest back."
        if outcome.verdict is Verdict.NOPLAY_RIGHT:
            return " The hand goes to the bottom of the stock."
        return ""

    def finish(self) -> None:
        """End of the round: the result, the scores and the rule revealed (G2-G6)."""
        if self.revealed:
            return
        self.revealed = True
        if self.round is not None:
            self._say(describe_result(self.round.result()))
        self._say(rule_in_words(self.config.rule))  # R2, G6
        if self.recorder:
            self.recorder.write(RuleRevealed(t=self._t, rule=self.config.rule, nonce=self.nonce))

    def game_record(self) -> str:
        """The round so far as a game record (`eleusis judge` reads it back)."""
        if self.round is None:
            return ""
        return format_record(self.round.events)


def _verdict_event(t: float, outcome: TurnOutcome, action: Attempt | NoPlay | BecomeProphet,
                   frame: int | None) -> VerdictEvent:
    return VerdictEvent(
        t=t, turn=outcome.index, player=outcome.player, action=format_action(action),
        verdict=outcome.verdict.value, penalty=outcome.penalty, expelled=outcome.expelled,
        overthrown=outcome.overthrown, card=str(outcome.card) if outcome.card else None, frame=frame,
    )


def rule_in_words(rule: str) -> str:
    """The reveal (G6): a library rule by its id and description, else the rule text."""
    from engine.rules import LIBRARY

    entry = LIBRARY.get(rule.strip())
    if entry is not None:
        return f"The rule was {entry.id}: {entry.description}"
    return f"The rule was: {rule.strip()}."


def players_from_text(text: str | Sequence[str]) -> tuple[str, ...]:
    names = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return tuple(names)
