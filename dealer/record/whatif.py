"""What if a card had been read right? Replay a recorded round with corrected readings.

``eleusis review R --fix 3:QC=QD`` says: on turn 3 the card read as QC was really QD. The
round is rebuilt from the log (dealer/record/verify.py), the action corrected, and both rounds
replayed through the engine with the revealed rule; what would change (verdicts,
penalties, expulsions, the prophet, the end, the scores) is listed. Only the rule's
reveal makes this possible (a what-if before it would leak the rule), and the original
recording is only read, never written.

>>> parse_fix('3:QC=QD')
Fix(turn=3, read=Card.parse('QC'), real=Card.parse('QD'))
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from dealer.record.recording import Recording
from dealer.record.verify import replay_start, verify_recording
from engine.cards import Card, CardParseError
from engine.errors import RoundError
from engine.events import Action, Attempt, NoPlay, OracleTurn, TurnOutcome

__all__ = ["Fix", "FixError", "parse_fix", "what_if"]

FIX_FORM = "TURN:READ=REAL, e.g. 3:QC=QD (on turn 3 the card read as QC was really QD)"


class FixError(ValueError):
    """A --fix that cannot be applied: bad syntax, no such turn or card, or a sealed rule."""


@dataclass(frozen=True, slots=True)
class Fix:
    turn: int
    read: Card
    real: Card


def parse_fix(text: str) -> Fix:
    turn_text, colon, cards = text.partition(":")
    read_text, equals, real_text = cards.partition("=")
    if not colon or not equals or not turn_text.strip().isdigit():
        raise FixError(f"--fix {text!r}: write {FIX_FORM}")
    try:
        return Fix(int(turn_text), Card.parse(read_text.strip()), Card.parse(real_text.strip()))
    except CardParseError as exc:
        raise FixError(f"--fix {text!r}: {exc}") from None


def _corrected(action: Action, fix: Fix) -> Action:
    if isinstance(action, Attempt | NoPlay):
        cards = list(action.cards if isinstance(action, Attempt) else action.hand)
        if fix.read in cards:
            cards[cards.index(fix.read)] = fix.real
            if isinstance(action, Attempt):
                return dataclasses.replace(action, cards=tuple(cards))
            return dataclasses.replace(action, hand=tuple(cards))
    raise FixError(f"turn {fix.turn}: no {fix.read} was read in {action.player}'s turn")


def _describe(o: TurnOutcome) -> str:
    text = o.verdict.value
    if o.penalty:
        text += f", draws {o.penalty}"
    if o.expelled:
        text += ", expelled (E2)"
    if o.overthrown:
        text += ", the prophet is overthrown (F4)"
    if o.ended is not None:
        text += f", the round ends ({o.ended.value})"
    return text


def what_if(rec: Recording, fixes: Sequence[Fix]) -> list[str]:
    """Lines saying what would change with ``fixes`` applied; ``["nothing would change"]`` when so."""
    check = verify_recording(rec)
    rebuilt = check.rebuilt
    if rebuilt.rule is None or rebuilt.round is None or rebuilt.start is None:
        raise FixError("the rule is still sealed (or the round cannot be replayed): "
                       "a what-if is possible only after the reveal (R2)")
    if rebuilt.start.variant == "kruskal":
        raise FixError("a what-if replays the players' turns; a Kruskal round has the oracle's only (KR2)")
    turns = [t for t in rebuilt.turns if t.outcome is not None]
    by_turn = {t.logged.turn: k for k, t in enumerate(turns)}
    actions: list[Action] = []
    for t in turns:
        assert not isinstance(t.action, OracleTurn)  # no Kruskal round, checked above
        actions.append(t.action)
    for fix in fixes:
        if fix.turn not in by_turn:
            raise FixError(f"--fix: there is no turn {fix.turn} (turns {turns[0].logged.turn}-"
                           f"{turns[-1].logged.turn})" if turns else "--fix: the round has no turn")
        k = by_turn[fix.turn]
        actions[k] = _corrected(actions[k], fix)
    lines: list[str] = []
    changed = False
    fixed = replay_start(rebuilt.rule, rebuilt.start)  # the recording's variant
    for turn, action in zip(turns, actions, strict=True):
        assert turn.outcome is not None
        if fixed.ended is not None:
            lines.append(f"the round would have ended before turn {turn.logged.turn} ({fixed.ended.value}, G1)")
            changed = True
            break
        try:
            outcome = fixed.apply(action)
        except RoundError as exc:
            lines.append(f"turn {turn.logged.turn}: {turn.action.player}'s turn could not have been played "
                         f"as recorded ({exc}); the replay stops here")
            changed = True
            break
        before, after = _describe(turn.outcome), _describe(outcome)
        shown = f" with {' '.join(map(str, _cards(action)))}" if action != turn.action else ""
        if before != after:
            lines.append(f"turn {turn.logged.turn} ({turn.action.player}{shown}): {before} -> {after}")
            changed = True
        elif shown:
            lines.append(f"turn {turn.logged.turn} ({turn.action.player}{shown}): still {after}")
    old, new = rebuilt.round.result(), fixed.result()
    for name in old.scores:
        if old.scores[name] != new.scores[name]:
            lines.append(f"score of {name}: {old.scores[name]} -> {new.scores[name]}")
    if old.dealer != new.dealer:
        lines.append(f"dealer's score: {old.dealer} -> {new.dealer}")
    if old.expelled != new.expelled:
        lines.append(f"expelled: {', '.join(old.expelled) or 'none'} -> {', '.join(new.expelled) or 'none'}")
    if old.prophet != new.prophet:
        lines.append(f"prophet at the end: {old.prophet or 'none'} -> {new.prophet or 'none'}")
    if old.ended != new.ended:
        lines.append(f"the round's end: {old.ended.value if old.ended else 'not ended'} -> "
                     f"{new.ended.value if new.ended else 'not ended'}")
    if not changed and old.scores == new.scores and old.dealer == new.dealer:
        lines.append("no verdict, penalty, expulsion or score would change")
    return lines

def _cards(action: Action) -> tuple[Card, ...]:
    if isinstance(action, Attempt):
        return action.cards
    if isinstance(action, NoPlay):
        return action.hand
    return ()
