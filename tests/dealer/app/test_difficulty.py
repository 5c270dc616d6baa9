"""`eleusis play --difficulty easy|medium|hard` (issue 10 item 5): the machine draws a secret
rule of that library tier; the difficulty is announced, the rule is not (until the reveal)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from dealer.app.cli import main
from dealer.app.commands.play import announce_difficulty, draw_rule
from dealer.speech.i18n import _, set_language, use_language
from engine.rules import LIBRARY
from engine.rules.library import TIERS


@pytest.mark.parametrize("tier", TIERS)
def test_the_drawn_rule_is_of_the_tier_and_every_rule_of_it_can_come(tier: str) -> None:
    rng = random.Random(7)
    drawn = {draw_rule(tier, rng) for _ in range(400)}
    assert drawn == {r.id for r in LIBRARY.values() if r.tier == tier}


def test_an_unknown_difficulty_is_refused() -> None:
    with pytest.raises(ValueError, match="difficulty must be one of easy, medium, hard"):
        draw_rule("impossible")


@pytest.mark.parametrize("lang,word", [("en", "medium"), ("ru", "средний"), ("pt", "média")])
def test_the_announcement_says_the_difficulty(lang: str, word: str) -> None:
    with use_language(lang):
        assert word in announce_difficulty("medium")


def _secrets(rule_id: str) -> list[str]:
    entry = LIBRARY[rule_id]
    return [entry.id, entry.description, entry.text]


@pytest.mark.parametrize("tier", TIERS)
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_play_announces_the_difficulty_and_keeps_the_rule_secret(
    tier: str, lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import dealer.app.live

    seen: dict[str, Any] = {}

    def fake_run_live(options: Any, voice: Any) -> int:
        seen["rule"] = options.rule
        return 0

    monkeypatch.setattr(dealer.app.live, "run_live", fake_run_live)
    video = tmp_path / "table.mp4"  # never opened: run_live is replaced; the option checks want a file there
    video.write_bytes(b"\0")
    try:
        code = main(["play", "--video", str(video), "--players", "Ana Bo Cy", "--difficulty", tier,
                     "--lang", lang, "--voice", "text", "--out", str(tmp_path / "rec")])
    finally:
        set_language("en")
    assert code == 0
    assert LIBRARY[seen["rule"]].tier == tier
    captured = capsys.readouterr()
    with use_language(lang):
        assert _("dealer: {sentence}", sentence=announce_difficulty(tier)) in captured.out
    for secret in _secrets(seen["rule"]):
        assert secret not in captured.out + captured.err


def test_rule_and_difficulty_together_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--rule", "alternate-colour", "--difficulty", "hard", "--voice", "text"]) == 2
    assert "give --rule or --difficulty, not both" in capsys.readouterr().err


def test_a_language_we_do_not_speak_is_refused_by_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["play", "--lang", "de"])
    assert exc.value.code == 2
    assert "invalid choice: 'de'" in capsys.readouterr().err
