"""Review of a recorded round, for a player who disputes a verdict.

The recording is verified first (dealer/record/verify.py: the chain, the frames, the seal, the
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

from dealer.record.games import scores_html
from dealer.record.guess_log import StoredGuess, guesses_with_log_hash
from dealer.speech.i18n import _, language, n_, p_
from dealer.record.recording import LoadError, Recording, Seen, Trouble, Undone, VerdictLine, load_recording
from dealer.record.verify import BrokenPlace, Verification, verify_recording

__all__ = ["ReviewItem", "RoundReview", "ShownBatch", "build_review", "review_html", "review_text", "rule_words"]

NO_PLAY_TOKEN = "noplay"  # dealer.table.protocol.TableToken.NO_PLAY's value, as logged in a `seen` line


@dataclass(frozen=True)
class ShownBatch:
    """One batch of a hand shown for "no play" (N1): its frame and what was read there."""

    frame_path: Path | None
    readings: list[dict[str, object]]


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
    shown: tuple[ShownBatch, ...] = ()  # a "no play": every batch of the hand shown, in order (N1)


@dataclass(frozen=True)
class RoundReview:
    folder: Path
    rule: str | None  # None while sealed
    seal_status: str
    items: tuple[ReviewItem, ...]
    troubles: tuple[Trouble, ...]
    notes: tuple[str, ...]
    problems: tuple[BrokenPlace, ...] = ()
    log_hash: str = ""
    anchored: bool = False  # the log hash shown at the table was given (dealer/record/verify.py)
    seal_given: bool = False
    guesses: tuple[StoredGuess, ...] = ()  # the players' guesses judged (guesses.jsonl), after the reveal only
    guesses_problem: str = ""  # a guesses file unread, or judged on another log: said, and the review goes on

    @property
    def verified(self) -> bool:
        return not self.problems


def rule_words(rule: str) -> str:
    """The revealed rule for a reader: a library rule's id, its description in the reader's
    language (the catalogs carry the library's descriptions) and its text; another rule's text."""
    from engine.rules import LIBRARY

    entry = LIBRARY.get(rule.strip())
    if entry is None:
        return rule.strip()
    return _("{id}: {description} (in the rule language: {text})", id=entry.id,
             description=p_("rule description", entry.description), text=entry.text)


def _seal_status(check: Verification) -> str:
    if check.commitment is None:
        return _("NO SEAL IN THE LOG")
    if check.seal_matches_table is False:  # never "checks out" beside a seal the table did not show
        return _("the seal in the log, {seal}, is NOT the one shown at the table", seal=check.commitment)
    if check.revealed is None:
        return _("the rule is still sealed ({seal}): reasons are shown after the reveal (R2)", seal=check.commitment)
    if any("do not match the seal" in p.what for p in check.problems):
        return _("REVEALED RULE DOES NOT MATCH THE SEAL: this recording was altered")
    return _("revealed; the seal {seal} checks out (R2)", seal=check.commitment)


def build_review(folder: Path, seal: str | None = None, log_hash: str | None = None,
                 recording: Recording | None = None) -> RoundReview:
    """Load and verify a recording, then lay out each verdict for review.
    Raises :class:`~dealer.record.recording.LoadError` on a log that cannot be read at all."""
    rec = recording or load_recording(folder)
    check = verify_recording(rec, seal, log_hash)
    whys = {id(turn.logged): turn.why for turn in check.rebuilt.turns}
    seen_by_frame: dict[int, list[dict[str, object]]] = {}
    noplay_frames: list[int] = []  # frames kept while a NO PLAY token lay out: the batches of a hand (N1)
    for seen in rec.of_type(Seen):
        seen_by_frame.setdefault(seen.frame, []).extend(seen.cards)
        if NO_PLAY_TOKEN in seen.tokens and seen.cards and seen.frame not in noplay_frames:
            noplay_frames.append(seen.frame)
    last_frame = -1  # the frame of the verdict before: a hand's batches come after it
    items: list[ReviewItem] = []
    for event in rec.events:
        if isinstance(event, Undone):  # key u: that verdict was taken back and the turn replayed
            for k in range(len(items) - 1, -1, -1):
                if items[k].turn == event.turn and not items[k].undone:
                    items[k] = dataclasses.replace(items[k], undone=True,
                                                   why=_("taken back: {reason}", reason=event.reason))
                    break
            continue
        if not isinstance(event, VerdictLine):
            continue
        v = event
        frame = rec.frame_path(v.frame) if v.frame is not None else None
        shown: tuple[ShownBatch, ...] = ()
        if v.verdict.startswith("noplay") and v.frame is not None:
            batches = [f for f in noplay_frames if last_frame < f < v.frame] + [v.frame]
            shown = tuple(ShownBatch(rec.frame_path(f), seen_by_frame.get(f, [])) for f in batches)
        items.append(ReviewItem(v.turn, v.t, v.player, v.action, v.verdict, v.penalty, frame,
                                seen_by_frame.get(v.frame, []) if v.frame is not None else [],
                                whys.get(id(v), ""), shown=shown))
        last_frame = v.frame if v.frame is not None else last_frame
    rule = check.revealed.rule if check.revealed is not None and check.rebuilt.rule is not None else None
    guesses: list[StoredGuess] = []
    guesses_problem = ""
    if rule is not None:  # a judgement gives the rule away: never shown before the reveal (G6)
        try:
            judged_against, guesses = guesses_with_log_hash(rec.folder)
        except LoadError as exc:
            guesses_problem = _("the guesses cannot be shown: {problem}", problem=str(exc))
        else:
            if guesses and judged_against != check.log_hash:  # judged on a log that has changed since
                guesses_problem = _("the guesses were judged against another log (log hash {judged}), "
                                    "not this one ({hash})", judged=judged_against or "?", hash=check.log_hash)
    return RoundReview(rec.folder, rule, _seal_status(check), tuple(items), tuple(rec.of_type(Trouble)),
                       check.notes, check.problems, check.log_hash, check.anchored, check.seal_shown is not None,
                       tuple(guesses), guesses_problem)


def _readings_text(readings: list[dict[str, object]]) -> str:
    if not readings:
        return _("no reading kept")
    parts = []
    for r in readings:
        card = r.get("card") or _("unread")
        conf = r.get("confidence")
        part = f"{card} ({conf:.2f})" if isinstance(conf, float) else str(card)
        if r.get("named"):  # the camera could not read it; the players named it (key)
            part = _("{card} named by the players (camera: {reading})", card=r["named"], reading=part)
        parts.append(part)
    return ", ".join(parts)


def verdict_line(review: RoundReview) -> str:
    """One line: verified (with the log hash to compare with the one shown at the table), or not."""
    if review.verified:
        return _("VERIFIED: the chain, the frames, the seal and the record check out; log hash {hash}",
                 hash=review.log_hash)
    return n_("NOT VERIFIED: {n} broken place(s)", "NOT VERIFIED: {n} broken place(s)", len(review.problems))


def _item_readings(item: ReviewItem) -> str:
    """What the camera read for a verdict: for a "no play", every batch of the hand shown (N1)."""
    if len(item.shown) < 2:
        return _readings_text(item.readings)
    return "; ".join(_("batch {n}: {readings}", n=k, readings=_readings_text(b.readings))
                     for k, b in enumerate(item.shown, 1))


def review_text(review: RoundReview) -> str:
    lines = [_("Review of {folder}", folder=review.folder),
             _("Rule: {rule} ({status})", rule=rule_words(review.rule) if review.rule else _("sealed"),
               status=review.seal_status)]
    for item in review.items:
        lines.append(_("turn {turn} at {t}s: {action} -> {verdict}", turn=item.turn, t=f"{item.t:.1f}",
                       action=item.action, verdict=verdict_word(item.verdict))
                     + (_(" (TAKEN BACK)") if item.undone else "")
                     + (n_(", draws {n}", ", draws {n}", item.penalty) if item.penalty else ""))
        lines.append("    " + _("read: {readings}", readings=_item_readings(item)))
        if item.frame_path:
            lines.append("    " + _("frame: {path}", path=item.frame_path))
        if item.why:
            lines.append("    " + _("why: {why}", why=item.why))
    for trouble in review.troubles:
        lines.append(_("trouble at {t}s: {text}", t=f"{trouble.t:.1f}", text=trouble.text))
    for guess in review.guesses:
        lines.append(_("Guess: {rule}", rule=guess.guess))
        lines += ["    " + sentence for sentence in guess.sentences()]
    if review.guesses_problem:
        lines.append(review.guesses_problem)
    lines += [_("note: {note}", note=n) for n in review.notes]
    lines.append(verdict_line(review))
    lines += ["  " + _("BROKEN {problem}", problem=p) for p in review.problems]
    return "\n".join(lines)


def verdict_word(verdict: str) -> str:
    """A logged verdict value (accepted, rejected, noplay-right, ...) in the reader's language."""
    words = {"accepted": p_("verdict", "accepted"), "rejected": p_("verdict", "rejected"),
             "noplay-right": p_("verdict", "no play, right"), "noplay-wrong": p_("verdict", "no play, wrong"),
             "prophet": p_("verdict", "becomes prophet")}
    return words.get(verdict, verdict)


def _img_events() -> str:
    js = _("frame file missing").replace("\\", "\\\\").replace("'", "\\'")  # a JS string inside the attribute
    missing = html.escape(js, quote=True)
    return f"onload=\"this.classList.add('loaded')\" onerror=\"this.classList.add('missing');this.alt='{missing}'\""


def _guesses_html(review: RoundReview) -> str:
    """The players' guesses and their judgements, escaped like the rest of the page."""
    esc = html.escape
    if not review.guesses and not review.guesses_problem:
        return ""
    items = "".join(f"<li><code>{esc(g.guess)}</code><br>{'<br>'.join(esc(s) for s in g.sentences())}</li>"
                    for g in review.guesses)
    problem = ""
    if review.guesses_problem:
        problem = f"<p class='broken'>{esc(review.guesses_problem)}</p>"
    return f"<h2 id='guesses'>{esc(_('Guesses'))}</h2><ul>{items}</ul>{problem}"


def review_html(review: RoundReview, out: Path) -> Path:
    """A page with each verdict's frame, reading and reason; images linked relative to
    ``out`` and URL-encoded (a folder named ``R #1`` still shows its pictures)."""
    esc = html.escape
    rows = []
    for item in review.items:
        paths = [b.frame_path for b in item.shown] if len(item.shown) > 1 else [item.frame_path]
        img = ""
        for path in paths:
            if path and path.exists():
                rel = Path(os.path.relpath(path.resolve(), out.parent.resolve())).as_posix()
                url = esc(quote(rel))
                alt = esc(_("frame of turn {turn}", turn=item.turn))
                img += f'<a href="{url}"><img src="{url}" alt="{alt}" {_img_events()}></a>'
        draws = n_("draws {n}", "draws {n}", item.penalty) if item.penalty else ""
        rows.append(
            f"<tr class='{esc(item.verdict)}'><td>{item.turn}</td><td>{item.t:.1f}s</td>"
            f"<td>{esc(item.action)}</td><td><b>{esc(verdict_word(item.verdict))}</b>"
            + (f"<br>{esc(draws)}" if draws else "")
            + f"</td><td>{esc(_item_readings(item))}</td><td>{esc(item.why or _('sealed'))}</td>"
            f"<td>{img}</td></tr>")
    troubles = "".join(f"<li>{t.t:.1f}s: {esc(t.text)}</li>" for t in review.troubles)
    problems = "".join(f"<li>{esc(str(p))}</li>" for p in review.problems)
    state = "verified" if review.verified else "broken"
    heads = "".join(f"<th>{esc(h)}</th>" for h in (
        p_("review column", "turn"), p_("review column", "time"), p_("review column", "action"),
        p_("review column", "verdict"), p_("review column", "read"), p_("review column", "why"),
        p_("review column", "frame")))
    page = f"""<!doctype html><html lang="{language()}"><head><meta charset="utf-8"><title>{esc(_("Eleusis review"))}</title>
<style>body{{font-family:sans-serif;margin:2em}} img{{width:320px}} td{{vertical-align:top;padding:4px 8px}}
tr.rejected td, tr.noplay-wrong td{{background:#fdd}} tr.accepted td, tr.noplay-right td{{background:#dfd}}
.broken{{color:#b00}} .verified{{color:#070}} img.missing{{outline:3px solid #b00}}</style>
</head><body><h1>{esc(_("Review of {folder}", folder=review.folder))}</h1>
<p id="rule"><b>{esc(_("Rule:"))}</b> {esc(rule_words(review.rule) if review.rule else _('sealed'))} &mdash; {esc(review.seal_status)}</p>
<p class="{state}" id="verification"><b>{esc(verdict_line(review))}</b></p><ul class="broken">{problems}</ul>
<table><tr>{heads}</tr>
{''.join(rows)}</table><h2>{esc(_("Troubles"))}</h2><ul>{troubles or '<li>' + esc(_('none')) + '</li>'}</ul>{_guesses_html(review)}
{''.join('<p>' + esc(_('note: {note}', note=n)) + '</p>' for n in review.notes)}{scores_html(review.folder)}</body></html>"""
    out.write_text(page, encoding="utf-8")
    return out
