"""The players' guesses judged: a guess in the rule language against the sealed
rule and the verdicts of a round. Structured values; dealer/record/guesses.py says them in words.

>>> from engine.judging import judge_text
>>> from engine.rules import resolve_rule
>>> text = 'players: Ana Bo Cy\\nrule: alternate-colour\\nstart: 7H\\nAna: play QD\\nBo: play 4C 9H\\n'
>>> judged = judge_guess('card.colour != prev.colour', judge_text(text, resolve_rule), resolve_rule)
>>> judged.clash is None, judged.comparison.same
(True, True)
>>> judge_guess('card.black', judge_text(text, resolve_rule), resolve_rule).clash
VerdictClash(line=5, player='Bo', cards=(Card.parse('4C'), Card.parse('9H')), happened=True, guess_says=False, kind='attempt')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.cards import Card
from engine.events import Attempt, NoPlay, OracleTurn, Verdict
from engine.judging import Judgement, apply_record_action
from engine.rules.base import Rule
from engine.rules.equivalence import Comparison, compare_rules
from engine.rules.errors import RuleError
from engine.variants import round_for

__all__ = ["GuessJudgement", "VerdictClash", "first_clash", "judge_guess"]


@dataclass(frozen=True, slots=True)
class VerdictClash:
    """The first turn of the round the guess judges otherwise: on record line ``line``,
    ``cards`` (an attempt, a turned card, or a hand shown for "no play": ``kind``) were
    accepted (``happened``: True; for a "no play": the declaration was right) and the
    guess says ``guess_says``."""

    line: int
    player: str
    cards: tuple[Card, ...]
    happened: bool
    guess_says: bool
    kind: str = "attempt"  # "attempt", "noplay" or "turn" (kruskal's oracle)


@dataclass(frozen=True, slots=True)
class GuessJudgement:
    guess: str
    clash: VerdictClash | None  # None: the guess agrees with every verdict of the round
    comparison: Comparison


def _chain(rule: Rule, line: Sequence[Card], cards: Sequence[Card]) -> bool:
    ext = list(line)
    for card in cards:
        if not rule.legal(ext, card):
            return False
        ext.append(card)
    return True


def first_clash(guess: Rule, judgement: Judgement) -> VerdictClash | None:
    """Replay the round and ask the guess each turn, on the line as it really stood."""
    record = judgement.record
    rnd = round_for(judgement.round.rule, record.start)
    for (number, turn), line in zip(judgement.turns, record.actions):
        before = rnd.line
        action = line.action
        if isinstance(action, Attempt | OracleTurn):
            cards = action.cards if isinstance(action, Attempt) else (action.card,)
            happened = turn.verdict is Verdict.ACCEPTED
            try:
                says = _chain(guess, before, cards)
            except RuleError:
                says = not happened
            if says != happened:
                kind = "attempt" if isinstance(action, Attempt) else "turn"
                return VerdictClash(number, turn.player, cards, happened, says, kind)
        elif isinstance(action, NoPlay):
            happened = turn.verdict is Verdict.NOPLAY_RIGHT
            try:
                says = not any(guess.legal(before, card) for card in action.hand)
            except RuleError:
                says = not happened
            if says != happened:
                return VerdictClash(number, turn.player, action.hand, happened, says, "noplay")
        apply_record_action(rnd, action)
    return None


def judge_guess(text: str, judgement: Judgement, resolve_rule: Callable[[str], Rule]) -> GuessJudgement:
    """A guess (a library id or rule text; a RuleError when it does not parse) against the
    round's verdicts and against the sealed rule over every line that could have been played."""
    guess = resolve_rule(text)
    return GuessJudgement(text, first_clash(guess, judgement), compare_rules(guess, judgement.round.rule))
