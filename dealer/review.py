"""Review of a recorded round, for a player who disputes a verdict.

For every verdict: the frame it was judged on, what the camera read there, the verdict
and, once the rule is revealed (G6) and its seal checks out (R2), why. Before the reveal
the reasons stay hidden: a review never leaks the rule.
"""

from __future__ import annotations

import dataclasses
import html
from dataclasses import dataclass
from pathlib import Path

from dealer.recording import Recording, RuleRevealed, Sealed, Seen, Trouble, Undone, Verdict, load_recording
from engine.errors import RecordError
from engine.events import Verdict as EngineVerdict
from engine.explain import explain
from engine.judging import judge_text
from engine.rules import resolve_rule
from engine.seal import verify

__all__ = ["ReviewItem", "RoundReview", "build_review", "review_html", "review_text"]

RECORD_FILE = "round.eleusis"


@dataclass(frozen=True)
class ReviewItem:
    turn: int
    t: float
    player: str
    action: str
    verdict: str
    penalty: int
    frame_path: Path | None
    readings: list[dict[str, object]]
    why: str  # empty while the rule is sealed
    undone: bool = False  # taken back by the dealer (key u); not part of the round


@dataclass(frozen=True)
class RoundReview:
    folder: Path
    rule: str | None  # None while sealed
    seal_status: str
    items: tuple[ReviewItem, ...]
    troubles: tuple[Trouble, ...]
    notes: tuple[str, ...]


def _seal_status(rec: Recording) -> tuple[str | None, str]:
    sealed = rec.of_type(Sealed)
    revealed = rec.of_type(RuleRevealed)
    if not revealed:
        return None, "the rule is still sealed: reasons are shown after the reveal (R2)"
    rule, nonce = revealed[-1].rule, revealed[-1].nonce
    if not sealed:
        return rule, "revealed, but the recording holds no seal to check it against"
    if verify(sealed[0].commitment, rule, nonce):
        return rule, f"revealed; the seal {sealed[0].commitment[:12]}... checks out (R2)"
    return rule, "REVEALED RULE DOES NOT MATCH THE SEAL: this recording was altered"


def _reasons(rec: Recording, rule_text: str | None, notes: list[str]) -> dict[int, str]:
    """Turn index -> why, by replaying the saved game record with the revealed rule."""
    if rule_text is None:
        return {}
    path = rec.folder / RECORD_FILE
    if not path.exists():
        notes.append(f"no {RECORD_FILE} in {rec.folder}: reasons cannot be rebuilt")
        return {}
    try:
        judgement = judge_text(path.read_text(encoding="utf-8"), resolve_rule)
    except (RecordError, ValueError) as exc:
        notes.append(f"{path}: {exc}")
        return {}
    rule = resolve_rule(rule_text)
    reasons: dict[int, str] = {}
    line = list(judgement.record.start.starters)
    for (_number, turn), action in zip(judgement.turns, judgement.record.events[1:], strict=False):
        reasons[turn.index] = explain(rule, line, action)  # type: ignore[arg-type]
        if turn.verdict is EngineVerdict.ACCEPTED:  # P3
            line += turn.cards
        elif turn.verdict is EngineVerdict.NOPLAY_WRONG and turn.card is not None:  # N3
            line.append(turn.card)
    return reasons


def build_review(folder: Path) -> RoundReview:
    rec = load_recording(folder)
    rule, status = _seal_status(rec)
    notes: list[str] = []
    if rec.truncated:
        notes.append("the recording's last line was cut short (a crash); everything before it is here")
    reasons = _reasons(rec, rule, notes)
    seen_by_frame: dict[int, list[dict[str, object]]] = {}
    for seen in rec.of_type(Seen):
        seen_by_frame.setdefault(seen.frame, []).extend(seen.cards)
    items: list[ReviewItem] = []
    for event in rec.events:
        if isinstance(event, Undone):  # key u: that verdict was taken back and the turn replayed
            for k in range(len(items) - 1, -1, -1):
                if items[k].turn == event.turn and not items[k].undone:
                    items[k] = dataclasses.replace(items[k], undone=True, why=f"taken back: {event.reason}")
                    break
            continue
        if not isinstance(event, Verdict):
            continue
        v = event
        frame = rec.frame_path(v.frame) if v.frame is not None else None
        items.append(ReviewItem(v.turn, v.t, v.player, v.action, v.verdict, v.penalty, frame,
                                seen_by_frame.get(v.frame, []) if v.frame is not None else [],
                                reasons.get(v.turn, "")))
    return RoundReview(rec.folder, rule, status, tuple(items), tuple(rec.of_type(Trouble)), tuple(notes))


def _readings_text(readings: list[dict[str, object]]) -> str:
    if not readings:
        return "no reading kept"
    parts = []
    for r in readings:
        card = r.get("card") or "unread"
        conf = r.get("confidence")
        parts.append(f"{card} ({conf:.2f})" if isinstance(conf, float) else str(card))
    return ", ".join(parts)


def review_text(review: RoundReview) -> str:
    lines = [f"Review of {review.folder}", f"Rule: {review.rule or 'sealed'} ({review.seal_status})"]
    for item in review.items:
        lines.append(f"turn {item.turn} at {item.t:.1f}s: {item.action} -> {item.verdict}"
                     + (" (TAKEN BACK)" if item.undone else "")
                     + (f", draws {item.penalty}" if item.penalty else ""))
        lines.append(f"    read: {_readings_text(item.readings)}")
        if item.frame_path:
            lines.append(f"    frame: {item.frame_path}")
        if item.why:
            lines.append(f"    why: {item.why}")
    for trouble in review.troubles:
        lines.append(f"trouble at {trouble.t:.1f}s: {trouble.text}")
    lines += [f"note: {n}" for n in review.notes]
    return "\n".join(lines)


def review_html(review: RoundReview, out: Path) -> Path:
    """A page with each verdict's frame, reading and reason; images linked relative to ``out``."""
    esc = html.escape
    rows = []
    for item in review.items:
        img = ""
        if item.frame_path and item.frame_path.exists():
            rel = Path(_relative(item.frame_path, out.parent))
            img = f'<a href="{esc(str(rel))}"><img src="{esc(str(rel))}" alt="frame of turn {item.turn}"></a>'
        rows.append(
            f"<tr class='{esc(item.verdict)}'><td>{item.turn}</td><td>{item.t:.1f}s</td>"
            f"<td>{esc(item.action)}</td><td><b>{esc(item.verdict)}</b>"
            + (f"<br>draws {item.penalty}" if item.penalty else "")
            + f"</td><td>{esc(_readings_text(item.readings))}</td><td>{esc(item.why or 'sealed')}</td><td>{img}</td></tr>")
    troubles = "".join(f"<li>{t.t:.1f}s: {esc(t.text)}</li>" for t in review.troubles)
    page = f"""<!doctype html><html><head><meta charset="utf-8"><title>Eleusis review</title>
<style>body{{font-family:sans-serif;margin:2em}} img{{width:320px}} td{{vertical-align:top;padding:4px 8px}}
tr.rejected td, tr.noplay-wrong td{{background:#fdd}} tr.accepted td, tr.noplay-right td{{background:#dfd}}</style>
</head><body><h1>Review of {esc(str(review.folder))}</h1>
<p><b>Rule:</b> {esc(review.rule or 'sealed')} &mdash; {esc(review.seal_status)}</p>
<table><tr><th>turn</th><th>time</th><th>action</th><th>verdict</th><th>read</th><th>why</th><th>frame</th></tr>
{''.join(rows)}</table><h2>Troubles</h2><ul>{troubles or '<li>none</li>'}</ul>
{''.join(f'<p>note: {esc(n)}</p>' for n in review.notes)}</body></html>"""
    out.write_text(page, encoding="utf-8")
    return out


def _relative(path: Path, start: Path) -> str:
    import os

    return os.path.relpath(path.resolve(), start.resolve())
