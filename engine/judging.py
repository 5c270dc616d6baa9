"""Judge a game record against its rule: replay it through a :class:`Round`.

Every rule violation comes back as a :class:`RecordError` naming the record's line
(docs/rules.md "Game records: what makes a record impossible").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.errors import IllegalActionError, RecordError, RoundError, RoundSetupError
from engine.events import OracleTurn, RecordAction, TurnOutcome
from engine.record import GameRecord, parse_record
from engine.round import Round
from engine.rules.base import Rule
from engine.rules.errors import RuleError
from engine.variants import AnyRound, round_for
from engine.variants.abbott import AbbottRound
from engine.variants.kruskal import KruskalRound
from engine.variants.spec import DEFAULT_VARIANT

__all__ = ["Judgement", "RuleResolver", "apply_record_action", "judge_record", "judge_text", "judgement_json"]

RuleResolver = Callable[[str], Rule]


@dataclass(frozen=True, slots=True)
class Judgement:
    """A judged record: the round after its last line, each turn with its line number."""

    record: GameRecord
    round: AnyRound
    turns: tuple[tuple[int, TurnOutcome], ...]


def judge_record(record: GameRecord, resolve_rule: RuleResolver) -> Judgement:
    """Replay ``record``; the first impossible line raises :class:`RecordError`."""
    rule_line = record.header_line("rule")
    if record.start.rule.startswith("sealed "):  # a live round's record before the reveal (R2, G6)
        raise RecordError(rule_line, "the rule is still sealed: this record can be judged after the reveal "
                          "(R2, G6); `eleusis review` checks a recording meanwhile")
    try:
        rule = resolve_rule(record.start.rule)
    except ValueError as exc:
        shown = record.start.rule if "\n" not in record.start.rule else record.start.rule.split("\n")[0] + " ..."
        raise RecordError(rule_line, f"rule: {shown!r} is not a library id, and as a rule text: {exc}") from None
    try:
        rnd = round_for(rule, record.start)
    except RoundSetupError as exc:
        raise RecordError(record.header_line(exc.field or "players"), str(exc)) from None
    turns: list[tuple[int, TurnOutcome]] = []
    ended_at: int | None = None
    for line in record.actions:
        if ended_at is not None:
            assert rnd.ended is not None
            raise RecordError(line.number, f"the round ended on line {ended_at} ({rnd.ended.value}, G1); nothing may follow")
        try:
            outcome = apply_record_action(rnd, line.action)
        except RoundError as exc:
            raise RecordError(line.number, str(exc)) from None
        except RuleError as exc:  # R1: the rule must decide every attempt; this one cannot
            raise RecordError(line.number, f"the rule cannot decide this turn: {exc}") from None
        turns.append((line.number, outcome))
        if rnd.ended is not None:
            ended_at = line.number
    return Judgement(record, rnd, tuple(turns))


def apply_record_action(rnd: AnyRound, action: RecordAction) -> TurnOutcome:
    """Apply one record line to any variant's round; an oracle's turn outside kruskal is refused."""
    if isinstance(rnd, Round):
        if isinstance(action, OracleTurn):
            raise IllegalActionError(f"the oracle turns cards only in kruskal, not in {rnd.start.variant} "
                                     "(KR3)")
        return rnd.apply(action)
    return rnd.apply(action)


def judge_text(text: str, resolve_rule: RuleResolver, default_variant: str = DEFAULT_VARIANT) -> Judgement:
    """Parse and judge a record's text. Faults are reported in the order of the lines:
    an impossible turn before a later line that does not parse is the one named.
    ``default_variant``: a record without a ``variant:`` header is of this one."""
    try:
        record = parse_record(text, default_variant)
    except RecordError as syntax:
        lines = text.splitlines()
        if syntax.line <= 1 or syntax.line > len(lines):
            raise
        try:
            judge_record(parse_record("\n".join(lines[:syntax.line - 1]), default_variant), resolve_rule)
        except RecordError as earlier:
            if earlier.line < syntax.line:
                raise earlier from None
        raise
    return judge_record(record, resolve_rule)


def judgement_json(judgement: Judgement) -> dict[str, Any]:
    """The summary of ``eleusis judge --json``, scored as if ended now when not ended."""
    rnd = judgement.round
    result = rnd.result()
    layout = rnd.layout
    summary: dict[str, Any] = {
        "ended": None if result.ended is None else result.ended.value,
        "table": layout.table_count,
        "stock": rnd.stock,
        "line": [str(c) for c in layout.main],
        "branches": [
            {"after": str(layout.main[b.anchor]), "anchor": b.anchor, "player": b.player,
             "cards": [str(c) for c in b.cards]}
            for b in layout.branches
        ],
        "hands": result.hands,
        "prophet": result.prophet,
        "expelled": list(result.expelled),
        "emptied": result.emptied,
        "whose_turn": rnd.whose_turn,
        "scores": result.scores,
        "dealer": result.dealer,
        "turns": [
            {
                "line": number,
                "player": t.player,
                "verdict": t.verdict.value,
                "cards": [str(c) for c in t.cards],
                "penalty": t.penalty,
                "new_hand": t.new_hand,
                "expelled": t.expelled,
                "overthrown": t.overthrown,
                "prophet_penalty": t.prophet_penalty,
                "card": None if t.card is None else str(t.card),
            }
            for number, t in judgement.turns
        ],
    }
    variant = judgement.record.start.variant
    if variant != DEFAULT_VARIANT:  # a Howell summary stays as it always was
        summary = {"variant": variant, **summary}
    if isinstance(rnd, AbbottRound):  # AB5, AB7: the error cards in front, the first scoring
        summary["errors"] = {name: [str(c) for c in cards] for name, cards in rnd.errors.items()}
        summary["first_scoring"] = rnd.first_scoring
    if isinstance(rnd, KruskalRound):  # KR5: whose token was right, card by card
        for turn, hits in zip(summary["turns"], rnd.hits):
            turn["right"] = list(hits)
    return summary
