"""The embedded default: what `eleusis play` deals when no camera is given.

Two shipped recordings, the first one present wins:
- ``dealer/data/demo-table.mp4``: a video of a whole round on the printed mat, made by
  ``python -m bench.harness.make_demo`` (synthetic camera, Debian card art). The live dealer
  watches it exactly as it would watch a webcam.
- ``examples/demo-round.eleusis``: a game record, dealt aloud turn by turn.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from dealer.speech.i18n import _, and_list, n_
from dealer.app.inputs import InputError, read_text_file
from dealer.speech.narrate import card_words
from dealer.table.session import rule_in_words
from dealer.speech.variant_words import judgement_sentences
from dealer.speech.voice import Voice
from engine.errors import RecordError
from engine.judging import judge_text
from engine.rules import resolve_rule

__all__ = ["DEMO_HAND", "DEMO_PLAYERS", "DEMO_RULE", "deal_record_aloud", "demo_players", "shipped_record", "shipped_video"]

HERE = Path(__file__).resolve().parents[1]
DATA = HERE / "data"
DEMO_VIDEO = DATA / "demo-table.mp4"
DEMO_RECORD_NAMES = (HERE.parent / "examples" / "demo-round.eleusis", DATA / "demo-round.eleusis")
# The round in the shipped video (bench/harness/make_demo.py writes the same values).
DEMO_PLAYERS = "Ana Bo Cy"
# The same three seats named as players of each language would name them, so the voice
# says every name in the sentence's own language.
DEMO_PLAYERS_BY_LANGUAGE = {"en": DEMO_PLAYERS, "ru": "Аня Боря Саша", "pt": "Ana Bruno Carla"}
DEMO_RULE = "alternate-colour"
DEMO_HAND = 5


def demo_players(lang: str) -> str:
    return DEMO_PLAYERS_BY_LANGUAGE.get(lang, DEMO_PLAYERS)


def shipped_video() -> Path | None:
    return DEMO_VIDEO if DEMO_VIDEO.exists() else None


def shipped_record(variant: str = "howell") -> Path:
    """The example round shipped for ``variant`` (Howell's demo round by default)."""
    if variant != "howell":
        path = HERE.parent / "examples" / f"variant-{variant}.eleusis"
        if path.exists():
            return path
        raise FileNotFoundError(f"no shipped example round of {variant}: expected {path}")
    for path in DEMO_RECORD_NAMES:
        if path.exists():
            return path
    raise FileNotFoundError("no shipped demo round: expected " + " or ".join(map(str, DEMO_RECORD_NAMES)))


def deal_record_aloud(path: Path, voice: Voice, pace_s: float = 0.0, variant: str | None = None) -> int:
    """Deal a game record turn by turn: each verdict said, then the result and the rule.
    ``variant``: of a record without a ``variant:`` header; one whose header differs is refused."""
    try:
        text = read_text_file(path, "the game record")
    except InputError as exc:
        print(f"eleusis play: {exc}", file=sys.stderr)
        return 2
    try:
        judgement = judge_text(text, resolve_rule, variant or "howell")
    except RecordError as exc:
        print(f"eleusis play: {path}: {exc}", file=sys.stderr)
        return 2
    if variant is not None and judgement.record.start.variant != variant:
        print(_("eleusis play: {path}: the record is of the variant {found}, not {variant} (--variant)",
                path=path, found=judgement.record.start.variant, variant=variant), file=sys.stderr)
        return 2
    start = judgement.record.start
    voice.say(_("A round of Eleusis for {players}. The rule is sealed.", players=", ".join(start.players)))
    voice.say(n_("The starter: {cards}.", "The starters: {cards}.", len(start.starters),
                 cards=and_list(card_words(c) for c in start.starters)))
    *turns, (_end, result) = judgement_sentences(judgement, spoken=True)  # each variant its own way
    for _number, sentence in turns:
        voice.say(sentence)
        if pace_s:
            time.sleep(pace_s)
    voice.say(result)
    voice.say(rule_in_words(start.rule))  # G6
    return 0
