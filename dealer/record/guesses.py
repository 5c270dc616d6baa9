"""The players' guesses judged, in words: engine/guesses.py decides, this says
it in the reader's language. `eleusis guess` prints it; the live dealer can call
:func:`guesses_at_round_end` with the round's record and the guesses typed or dictated.

>>> from engine.judging import judge_text
>>> from engine.rules import resolve_rule
>>> text = 'players: Ana Bo Cy\\nrule: alternate-colour\\nstart: 7H\\nAna: play QD\\nBo: play 4C 9H\\n'
>>> for sentence in describe_guess(judge_guess('card.colour != prev.colour or card.rank == 1', judge_text(text, resolve_rule), resolve_rule)):
...     print(sentence)
Your guess agrees with every verdict of this round.
It is not the sealed rule: after the ace of clubs your rule allows the ace of clubs; the rule does not.
"""

from __future__ import annotations

from dataclasses import dataclass

from dealer.speech.i18n import _, and_list, card_name, n_
from engine.guesses import GuessJudgement, VerdictClash, judge_guess
from engine.judging import Judgement, judge_text
from engine.rules import resolve_rule
from engine.rules.equivalence import Comparison
from engine.rules.errors import RuleError

__all__ = ["GuessAnswer", "answer_guesses", "describe_clash", "describe_comparison", "describe_guess", "guesses_at_round_end"]


@dataclass(frozen=True, slots=True)
class GuessAnswer:
    """One guess: its judgement, or why it could not be read."""

    guess: str
    judged: GuessJudgement | None
    error: str | None = None


def describe_clash(clash: VerdictClash | None) -> str:
    if clash is None:
        return _("Your guess agrees with every verdict of this round.")
    cards = " ".join(str(c) for c in clash.cards)
    if clash.kind == "turn":  # kruskal (KR3)
        if clash.happened:
            return _("Line {line}: {cards} went to the main line; your rule sends it to a side line.",
                     line=clash.line, cards=cards)
        return _("Line {line}: {cards} went to a side line; your rule puts it on the main line.",
                 line=clash.line, cards=cards)
    if clash.kind == "noplay":
        if clash.happened:
            return _("Line {line}: {who} rightly declared no play with {cards}; your rule allows one of them.",
                     line=clash.line, who=clash.player, cards=cards)
        return _("Line {line}: {who} wrongly declared no play with {cards}; your rule allows none of them.",
                 line=clash.line, who=clash.player, cards=cards)
    if clash.happened:
        return _("Line {line}: {who} played {cards}, which was accepted; your rule rejects it.",
                 line=clash.line, who=clash.player, cards=cards)
    return _("Line {line}: {who} played {cards}, which was rejected; your rule accepts it.",
             line=clash.line, who=clash.player, cards=cards)


def describe_comparison(comparison: Comparison) -> str:
    example = comparison.counterexample
    if example is None:
        if comparison.exact:
            return _("It is the sealed rule: the same verdict after every line that could have been played.")
        return n_("No line of up to {n} card tells it from the sealed rule (every such line was tried).",
                  "No line of up to {n} cards tells it from the sealed rule (every such line was tried).",
                  max(comparison.complete_length, 0))
    card = card_name(example.card, "object")
    if not example.line:
        if example.guess_allows:
            return _("It is not the sealed rule: as the first card your rule allows {card}; the rule does not.",
                     card=card)
        return _("It is not the sealed rule: as the first card the rule allows {card}; your rule does not.", card=card)
    line = and_list(card_name(c) for c in example.line)
    if example.guess_allows:
        return _("It is not the sealed rule: after {line} your rule allows {card}; the rule does not.",
                 line=line, card=card)
    return _("It is not the sealed rule: after {line} the rule allows {card}; your rule does not.",
             line=line, card=card)


def describe_guess(judged: GuessJudgement) -> list[str]:
    """The two answers: the round's verdicts, then the rule itself."""
    return [describe_clash(judged.clash), describe_comparison(judged.comparison)]


def answer_guesses(judgement: Judgement, guesses: list[str]) -> list[GuessAnswer]:
    answers: list[GuessAnswer] = []
    for text in guesses:
        try:
            answers.append(GuessAnswer(text, judge_guess(text, judgement, resolve_rule)))
        except (RuleError, ValueError) as exc:
            answers.append(GuessAnswer(text, None, str(exc)))
    return answers


def guesses_at_round_end(record_text: str, guesses: list[str]) -> list[tuple[str, list[str]]]:
    """For the live dealer at the end of a round (the rule revealed in the record, G6):
    each guess and its sentences. A guess that does not parse is said so."""
    judgement = judge_text(record_text, resolve_rule)
    out: list[tuple[str, list[str]]] = []
    for answer in answer_guesses(judgement, guesses):
        if answer.judged is None:
            out.append((answer.guess, [_("Your guess cannot be read: {error}", error=answer.error)]))
        else:
            out.append((answer.guess, describe_guess(answer.judged)))
    return out
