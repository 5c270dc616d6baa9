"""Review of a recorded round, for a player who disputes a verdict.

The recording is verified first (dealer/verify.py: the chain, the frames, the seal, the
record replayed through the engine), and every broken place is named. Then, for every
verdict: the frame it was judged on, what the camera read there, the verdict and, once
the rule is revealed (G6) and its seal checks out (R2), why, from the engine's replay.
Before the reveal the reasons stay hidden: a review never leaks the rule.
"""

from __future__ import annotations

import dataclasses
import html
import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from dealer.games import scores_html
from dealer.recording import Recording, Seen, Trouble, Undone, Verdict, load_recording
from dealer.verify import Problem, Verification, verify_recording

__all__ = ["ReviewItem", "RoundReview", "build_review", "review_html", "review_text"]


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
    problems: tuple[Problem, ...] = ()
    log_hash: str = ""

    @property
    def verified(self) -> bool:
        return not self.problems


def _seal_status(check: Verification) -> str:
    if check.commitment is None:
        return "NO SEAL IN THE LOG"
    if check.revealed is None:
        return f"the rule is still sealed ({check.commitment}): reasons are shown after the reveal (R2)"
    if any("do not match the seal" in p.what for p in check.problems):
        return "REVEALED RULE DOES NOT MATCH THE SEAL: this recording was altered"
    return f"revealed; the seal {check.commitment} checks out (R2)"


def build_review(folder: Path, seal: str | None = None, log_hash: str | None = None,
                 recording: Recording | None = None) -> RoundReview:
    """Load and verify a recording, then lay out each verdict for review.
    Raises :class:`~dealer.recording.LoadError` on a log that cannot be read at all."""
    rec = recording or load_recording(folder)
    check = verify_recording(rec, seal, log_hash)
    whys = {id(turn.logged): turn.why for turn in check.rebuilt.turns}
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
                                whys.get(id(v), "")))
    rule = check.revealed.rule if check.revealed is not None and check.rebuilt.rule is not None else None
    return RoundReview(rec.folder, rule, _seal_status(check), tuple(items), tuple(rec.of_type(Trouble)),
                       check.notes, check.problems, check.log_hash)


def _readings_text(readings: list[dict[str, object]]) -> str:
    if not readings:
        return "no reading kept"
    parts = []
    for r in readings:
        card = r.get("card") or "unread"
        conf = r.get("confidence")
        parts.append(f"{card} ({conf:.2f})" if isinstance(conf, float) else str(card))
    return ", ".join(parts)


def verdict_line(review: RoundReview) -> str:
    """One line: verified (with the log hash to compare with the one shown at the table), or not."""
    if review.verified:
        return f"VERIFIED: the chain, the frames, the seal and the record check out; log hash {review.log_hash}"
    return f"NOT VERIFIED: {len(review.problems)} broken place(s)"


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
    lines.append(verdict_line(review))
    lines += [f"  BROKEN {p}" for p in review.problems]
    return "\n".join(lines)


_IMG_EVENTS = ("onload=\"this.classList.add('loaded')\" "
               "onerror=\"this.classList.add('missing');this.alt='frame file missing'\"")


def review_html(review: RoundReview, out: Path) -> Path:
    """A page with each verdict's frame, reading and reason; images linked relative to
    ``out`` and URL-encoded (a folder named ``R #1`` still shows its pictures)."""
    esc = html.escape
    rows = []
    for item in review.items:
        img = ""
        if item.frame_path and item.frame_path.exists():
            rel = Path(os.path.relpath(item.frame_path.resolve(), out.parent.resolve())).as_posix()
            url = esc(quote(rel))
            img = f'<a href="{url}"><img src="{url}" alt="frame of turn {item.turn}" {_IMG_EVENTS}></a>'
        rows.append(
            f"<tr class='{esc(item.verdict)}'><td>{item.turn}</td><td>{item.t:.1f}s</td>"
            f"<td>{esc(item.action)}</td><td><b>{esc(item.verdict)}</b>"
            + (f"<br>draws {item.penalty}" if item.penalty else "")
            + f"</td><td>{esc(_readings_text(item.readings))}</td><td>{esc(item.why or 'sealed')}</td><td>{img}</td></tr>")
    troubles = "".join(f"<li>{t.t:.1f}s: {esc(t.text)}</li>" for t in review.troubles)
    problems = "".join(f"<li>{esc(str(p))}</li>" for p in review.problems)
    state = "verified" if review.verified else "broken"
    page = f"""<!doctype html><html><head><meta charset="utf-8"><title>Eleusis review</title>
<style>body{{font-family:sans-serif;margin:2em}} img{{width:320px}} td{{vertical-align:top;padding:4px 8px}}
tr.rejected td, tr.noplay-wrong td{{background:#fdd}} tr.accepted td, tr.noplay-right td{{background:#dfd}}
.broken{{color:#b00}} .verified{{color:#070}} img.missing{{outline:3px solid #b00}}</style>
</head><body><h1>Review of {esc(str(review.folder))}</h1>
<p><b>Rule:</b> {esc(review.rule or 'sealed')} &mdash; {esc(review.seal_status)}</p>
<p class="{state}" id="verification"><b>{esc(verdict_line(review))}</b></p><ul class="broken">{problems}</ul>
<table><tr><th>turn</th><th>time</th><th>action</th><th>verdict</th><th>read</th><th>why</th><th>frame</th></tr>
{''.join(rows)}</table><h2>Troubles</h2><ul>{troubles or '<li>none</li>'}</ul>
{''.join(f'<p>note: {esc(n)}</p>' for n in review.notes)}{scores_html(review.folder)}</body></html>"""
    out.write_text(page, encoding="utf-8")
    return out
