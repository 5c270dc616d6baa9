"""The variants at the command line (docs/rules-variants.md): `judge --variant`,
`game --variant` adding scores the variant's way, `play --variant`, and `guess`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dealer.app.cli import main
from dealer.record.games import GameFolder
from dealer.record.guesses import describe_comparison
from dealer.speech.i18n import use_language
from engine.cards import parse_cards
from engine.rules.equivalence import Comparison, Counterexample

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples"
WIKI = {
    1: "variant: wikipedia\nplayers: Bo Cy Dee Ana\nrule: alternate-colour\nstart: AH\nhand: 2\nBo: play 3D\nCy: play 5S 6H\n",
    2: "variant: wikipedia\nplayers: Cy Dee Ana Bo\nrule: alternate-colour\nstart: AH\nhand: 2\nCy: play 2C\nDee: play 4D 5S\n",
}


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_wikipedia_game_stopped_early_pays_who_never_dealt(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = [_write(tmp_path, f"r{n}.eleusis", text) for n, text in WIKI.items()]
    out = tmp_path / "game"
    assert main(["game", "--players", "Ana Bo Cy Dee", "--variant", "wikipedia", "--voice", "text",
                 "--out", str(out), "--record", *records]) == 0
    said = [line.removeprefix("dealer: ") for line in capsys.readouterr().out.splitlines()]
    assert "Totals after round 2 of 4: Cy 8, Dee 7, Ana 1, Bo 0." in said
    assert said[-1] == ("If the game stops here, Cy and Dee never dealt and get 10 points each. "
                        "Totals: Ana 1, Bo 0, Cy 18, Dee 17.")  # WK10
    game = GameFolder.open(out).game
    assert game.variant == "wikipedia" and game.final_totals() == {"Ana": 1, "Bo": 0, "Cy": 18, "Dee": 17}


def test_a_game_refuses_a_round_of_another_variant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    howell = _write(tmp_path, "h.eleusis", WIKI[1].replace("variant: wikipedia\n", ""))
    assert main(["game", "--players", "Ana Bo Cy Dee", "--variant", "wikipedia", "--voice", "text",
                 "--out", str(tmp_path / "g"), "--record", howell]) == 2
    assert "a round of howell, but this game plays wikipedia (--variant)" in capsys.readouterr().err


def test_judge_variant_reads_a_record_without_the_header_and_refuses_a_mismatch(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bare = _write(tmp_path, "ex.eleusis", (EXAMPLES / "variant-express.eleusis").read_text().replace(
        "variant: express\n", ""))
    assert main(["judge", "--json", bare]) == 0  # as Howell: three decks, so a larger stock
    assert json.loads(capsys.readouterr().out)["stock"] == 156 - 9 - 1 - 4
    assert main(["judge", "--json", "--variant", "express", bare]) == 0
    assert json.loads(capsys.readouterr().out)["stock"] == 38  # EX1
    assert main(["judge", "--variant", "kruskal", str(EXAMPLES / "variant-express.eleusis")]) == 2
    assert "line 3: the record is of the variant express, not kruskal (--variant)" in capsys.readouterr().err


def test_judge_says_abbott_and_kruskal_turns_their_own_way(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["judge", str(EXAMPLES / "variant-abbott-1959.eleusis")]) == 0
    out = capsys.readouterr().out
    assert "line 9: A plays QD: rejected; it lies face up in front of A." in out
    assert "The round is over: B has no card left." in out and "Scores: A 0, B 9, C 0. The dealer scores 2." in out
    assert main(["judge", str(EXAMPLES / "variant-kruskal.eleusis")]) == 0
    assert "line 9: The oracle turns 2S: a side line. Right: Ana and Bo." in capsys.readouterr().out


def test_play_deals_a_variant_record_and_kruskal_live_only_from_its_own_table(
        capsys: pytest.CaptureFixture[str]) -> None:
    # KR3: the oracle turns the cards and the players show tokens: the shipped demo table is Howell's
    assert main(["play", "--variant", "kruskal", "--players", "Ana Bo Cy"]) == 2
    assert "a Kruskal round is dealt from --camera or --video" in capsys.readouterr().err
    assert main(["play", "--voice", "text", "--record", str(EXAMPLES / "variant-kruskal.eleusis")]) == 0
    assert "The oracle turns the two of spades: a side line." in capsys.readouterr().out


def test_a_kruskal_game_whose_video_cannot_be_read_records_no_round(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    # the live Kruskal round (tests/dealer/app/test_kruskal_play.py) opens its source before it records
    video = tmp_path / "not-a-film.mp4"
    video.write_bytes(b"no video here")
    rule = _write(tmp_path, "rule.txt", "alternate-colour\n")
    assert main(["game", "--variant", "kruskal", "--players", "Ana Bo Cy", "--video", str(video), "--rule-file", rule,
                 "--voice", "text", "--no-window", "--out", str(tmp_path / "game")]) == 2
    assert "not-a-film.mp4" in capsys.readouterr().err
    from dealer.record.recording import EVENTS_FILE

    assert not list((tmp_path / "game").glob(f"round-*/{EVENTS_FILE}"))


def test_play_with_a_variant_and_no_source_deals_its_example_round(capsys: pytest.CaptureFixture[str]) -> None:
    # Howell's demo film is no round of another game: the variant's own example is dealt aloud
    assert main(["play", "--variant", "abbott-1959", "--voice", "text"]) == 0
    captured = capsys.readouterr()
    assert "variant-abbott-1959.eleusis" in captured.err
    assert "A plays the queen of diamonds: rejected; it lies face up in front of A." in captured.out  # AB5


def test_guess_says_agreement_sameness_and_a_counterexample(capsys: pytest.CaptureFixture[str]) -> None:
    record = str(EXAMPLES / "worked-example.eleusis")
    assert main(["guess", record, "card.colour != prev.colour", "card.black"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "Guess: card.colour != prev.colour",
        "  Your guess agrees with every verdict of this round.",
        "  It is the sealed rule: the same verdict after every line that could have been played.",
        "Guess: card.black",
        "  Line 8: Bo played 4C 9H, which was accepted; your rule rejects it.",
        "  It is not the sealed rule: after the ace of clubs your rule allows the ace of clubs; the rule does not.",
    ]
    assert main(["guess", "--json", record, "if pos mod 2 == 1 then card.black else card.red"]) == 0
    answer = json.loads(capsys.readouterr().out)[0]
    assert answer["agrees"] is True and answer["same"] is False
    assert answer["counterexample"] == {"line": ["AC"], "card": "AC", "guess_allows": True}


def test_a_guess_that_does_not_parse_is_named_and_a_sealed_record_waits(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["guess", str(EXAMPLES / "worked-example.eleusis"), "prev.red or"]) == 2
    assert "Your guess cannot be read: line 1, column 12" in capsys.readouterr().out
    sealed = _write(tmp_path, "s.eleusis", "players: A B C\nrule: sealed 00ff\nstart: 7H\n")
    assert main(["guess", sealed, "card.red"]) == 2
    assert "the rule is still sealed" in capsys.readouterr().err


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "It is not the sealed rule: after the seven of hearts your rule allows the king of clubs; the rule does not."),
    ("ru", "Это не загаданное правило: когда в линии семёрка червей, ваше правило разрешает короля треф, "
           "а загаданное — нет."),
    ("pt", "Não é a regra selada: com o sete de copas na linha, a sua regra permite o rei de paus; a regra não."),
])
def test_a_counterexample_is_said_as_cards_in_each_language(lang: str, expected: str) -> None:
    example = Counterexample(tuple(parse_cards("7H")), parse_cards("KC")[0], True)
    with use_language(lang):
        assert describe_comparison(Comparison(False, True, 0, example)) == expected


def test_an_abbott_round_where_nothing_can_be_shed_ends_blocked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "b.eleusis", "variant: abbott-1959\nplayers: A B C\nrule: alternate-colour\nstart: 7H\n"
                  "hand: 1\nA: play QD\nB: play 2H\nC: play 3D\n")
    assert main(["judge", path]) == 0
    out = capsys.readouterr().out
    # every error card is red after 7H (AB10): each player has 1, the fewest, so each scores 3 - 1 - 1 (tied)
    assert "line 8: C plays 3D: rejected; it lies face up in front of C. The round is over: no error card can be shed." in out
    assert "Scores: A 1, B 1, C 1. The dealer scores 0." in out
    assert main(["judge", "--json", path]) == 0
    assert json.loads(capsys.readouterr().out)["ended"] == "blocked"
