"""`eleusis game`: a whole game from game records (G5), scored by hand here.

Four persons, three rounds, alternate-colour, hands of 2, the starter AH (an ace: the
first seat starts, C5). The deal passes to the left: Ana, Bo, Cy. The machine is God in
rounds 1 and 3 (Ana and Cy play, seated last); Bo is God in round 2 and does not play.

Round 1, seats Bo Cy Dee Ana: Bo plays 3D (red after red: rejected, P4: Bo 2-1+2 = 3);
Cy plays 5S 6H (accepted, Cy empties). H = 3 (G2): Bo 0, Cy 3+4 = 7, Dee 1, Ana 1.
Round 2, seats Cy Dee Ana, Bo is God: Cy plays 2C (accepted, Cy 1); Dee plays 4D 5S
(Dee empties). H = 2: Cy 1, Dee 2+4 = 6, Ana 0; Bo, God, takes the highest score: 6 (G4).
Round 3, seats Dee Ana Bo Cy: Dee plays 2S (accepted, Dee 1); Ana plays 3D 4S (Ana
empties). H = 2: Dee 1, Ana 6, Bo 0, Cy 0.
Totals: Ana 1+0+6 = 7, Bo 0+6+0 = 6, Cy 7+1+0 = 8, Dee 1+6+1 = 8: Cy and Dee share the win.
"""

from __future__ import annotations

import re
import json
from pathlib import Path

import pytest

from dealer.app.cli import main
from dealer.app.demo import DEMO_HAND, DEMO_RULE, shipped_video
from dealer.record.games import GameFolder, game_dir_of, scores_rows
from dealer.record.review import RoundReview, review_html
from engine.game import GameError

ROUNDS = {
    1: "players: Bo Cy Dee Ana\nrule: alternate-colour\nstart: AH\nhand: 2\nBo: play 3D\nCy: play 5S 6H\n",
    2: "players: Cy Dee Ana\nrule: alternate-colour\nstart: AH\nhand: 2\nCy: play 2C\nDee: play 4D 5S\n",
    3: "players: Dee Ana Bo Cy\nrule: alternate-colour\nstart: AH\nhand: 2\nDee: play 2S\nAna: play 3D 4S\n",
}


def _records(tmp_path: Path) -> dict[int, str]:
    paths = {}
    for number, text in ROUNDS.items():
        path = tmp_path / f"r{number}.eleusis"
        path.write_text(text, encoding="utf-8")
        paths[number] = str(path)
    return paths


def _said(capsys: pytest.CaptureFixture[str]) -> list[str]:
    """What the dealer printed, without the speaker's prefix of each language ("dealer: ", "ведущий: ", "dador: ")."""
    return [re.sub(r"^(dealer|ведущий|dador): ", "", line) for line in capsys.readouterr().out.splitlines()]


def test_a_three_round_game_resumed_between_rounds_gives_the_hand_computed_totals_and_a_shared_win(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records, out = _records(tmp_path), tmp_path / "game"
    # given the first two rounds' records, when the game runs out of records, then it stops between rounds
    assert main(["game", "--players", "Ana Bo Cy Dee", "--rounds", "3", "--gods", "Bo", "--voice", "text",
                 "--out", str(out), "--record", records[1], records[2]]) == 0
    said = _said(capsys)
    assert "Round 2 of 3. Bo is God and does not play. Seats from the left: Cy, Dee, Ana." in said
    assert "Totals after round 1 of 3: Cy 7, Ana 1, Dee 1, Bo 0." in said
    assert "Totals after round 2 of 3: Cy 8, Dee 7, Bo 6, Ana 1." in said
    assert not any("win" in line for line in said)
    # when the same game folder is given again with the last record, then it goes on from round 3
    assert main(["game", "--voice", "text", "--out", str(out), "--record", records[3]]) == 0
    said = _said(capsys)
    assert said[:2] == ["The game goes on after round 2.", "Totals after round 2 of 3: Cy 8, Dee 7, Bo 6, Ana 1."]
    assert "Round 3 of 3. The machine is God; Cy plays. Seats from the left: Dee, Ana, Bo, Cy." in said
    assert said[-2:] == ["Totals after round 3 of 3: Cy 8, Dee 8, Ana 7, Bo 6.",
                         "Cy and Dee share the win with 8 points each."]
    # and the game read back from its folder has the same totals, and the scores table
    game = GameFolder.open(out).game
    assert game.totals() == {"Ana": 7, "Bo": 6, "Cy": 8, "Dee": 8} and game.leaders() == ("Cy", "Dee")
    assert [r.dealer for r in game.rounds] == [None, "Bo", None]
    header, rows = scores_rows(game)
    assert header == ["", "round 1", "round 2", "round 3", "total"]
    assert rows == [["Ana", "1", "0", "6", "7"], ["Bo", "0", "6 (God)", "0", "6"],
                    ["Cy", "7", "1", "0", "8 *"], ["Dee", "1", "6", "1", "8 *"]]
    assert game_dir_of(out / "round-2") == out and game_dir_of(tmp_path) is None
    # and the review page of any of its rounds carries the scores table
    page = review_html(RoundReview(out / "round-2", None, "", (), (), ()), tmp_path / "review.html").read_text()
    assert "<h2 id='game-scores'>Game: 3 of 3 rounds (G5)</h2>" in page
    assert "<tr><td>Bo</td><td>0</td><td>6 (God)</td><td>0</td><td>6</td></tr>" in page
    assert "Cy and Dee share the win with 8 points each." in page
    # and a finished game says so when run again
    assert main(["game", "--voice", "text", "--out", str(out), "--record", records[3]]) == 0
    assert _said(capsys)[-1] == "Cy and Dee share the win with 8 points each."


def test_a_single_winner_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # given only round 1 as a one-round game, then Cy (7) wins alone
    records = _records(tmp_path)
    assert main(["game", "--players", "Ana Bo Cy Dee", "--rounds", "1", "--voice", "text",
                 "--out", str(tmp_path / "g"), "--record", records[1]]) == 0
    assert _said(capsys)[-1] == "Cy wins the game with 7 points."


@pytest.mark.parametrize(("args", "message"), [
    (["--players", "Ana Bo Cy Dee", "--record", "{r2}"],
     "its players sit Cy Dee Ana, but round 1 of this game seats Bo Cy Dee Ana (the turn to deal passes to the left, "
     "G5); a game that starts with this record is one of --players 'Ana Cy Dee'"),
    (["--players", "Ana Bo Cy Dee", "--record", "{r1}", "{r3}"], "its players sit Dee Ana Bo Cy, but round 2"),
    (["--players", "Ana Bo Cy Dee", "--gods", "Zed", "--record", "{r1}"], "--gods Zed: not among the persons"),
    (["--players", "Ana Bo Cy", "--gods", "Ana", "--record", "{r1}"], "round 1 with Ana as God has 2 players"),
    (["--players", "Ana Bo", "--record", "{r1}"], "2 people: a game needs 3 to 8 players (C2)"),
    (["--players", "Ana Bo Cy Dee", "--rounds", "0", "--record", "{r1}"], "at least 1"),
    (["--players", "Ana Bo Cy Dee"], "round-1.eleusis: its players sit Bo Cy Ana, but round 1 of this game seats "
                                     "Bo Cy Dee Ana"),
    (["--players", ""], "names no one"),
    (["--players", "Ana Bo Cy Dee", "--rule", "alternate-colour", "--record", "{r1}"], "would show the secret rule"),
])
def test_bad_game_input_is_named_with_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            args: list[str], message: str) -> None:
    records = _records(tmp_path)
    args = [a.format(r1=records[1], r2=records[2], r3=records[3]) for a in args]
    try:
        code = main(["game", "--voice", "text", "--out", str(tmp_path / "g"), *args])
    except SystemExit as exc:  # refused as the options are parsed
        code = int(exc.code or 0)
    assert code == 2
    said = capsys.readouterr()
    assert message in said.err
    assert said.out == "" and not (tmp_path / "g").exists()  # refused before a word is said or a folder made


def test_a_game_folder_that_does_not_match_its_rounds_is_refused(tmp_path: Path) -> None:
    # given a played game whose game file is edited to say Bo was God in round 1
    game = GameFolder.create(tmp_path / "g", ["Ana", "Bo", "Cy", "Dee"], rounds=3, gods=["Bo"])
    (game.next_round_folder()).mkdir()
    (tmp_path / "g" / "round-1" / "round.eleusis").write_text(ROUNDS[1], encoding="utf-8")
    game.add_round(tmp_path / "g" / "round-1")
    data = json.loads((tmp_path / "g" / "game.json").read_text())
    data["played"][0]["dealer"] = "Bo"
    (tmp_path / "g" / "game.json").write_text(json.dumps(data))
    # then opening it names the round and the disagreement
    with pytest.raises(GameError, match="round 1 .*the seats say the machine was God, the game file says Bo"):
        GameFolder.open(tmp_path / "g")


@pytest.mark.skipif(shipped_video() is None, reason="no shipped demo video")
def test_a_round_stopped_by_ctrl_c_goes_on_when_the_game_goes_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # given a one-round game of the shipped table video (Cy deals first: the machine is God, Cy plays)
    import vision.frames

    real_frames = vision.frames.VideoFileSource.frames
    stops = {"left": 1}

    def stopped_at_frame_50(self):  # type: ignore[no-untyped-def]
        for frame in real_frames(self):
            if stops["left"] and frame.index == 50:  # Ctrl-C after Cy's chain, before Ana's 5S
                stops["left"] = 0
                raise KeyboardInterrupt
            yield frame

    monkeypatch.setattr(vision.frames.VideoFileSource, "frames", stopped_at_frame_50)
    rule = tmp_path / "rule.txt"
    rule.write_text(DEMO_RULE, encoding="utf-8")
    args = ["game", "--voice", "text", "--no-window", "--out", str(tmp_path / "g"), "--video", str(shipped_video())]
    first = ["--players", "Cy Ana Bo", "--rounds", "1", "--rule-file", str(rule), "--hand", str(DEMO_HAND)]
    # when Ctrl-C stops round 1, then the game stops with the round open
    assert main(args + first) == 130
    assert "the game goes on from round 1 where it stopped" in capsys.readouterr().err
    # when the game goes on, then round 1 goes on in its own folder and ends as if never stopped
    assert main(args) == 0
    said = _said(capsys)
    assert "Round 1 goes on where it stopped." in said
    assert said[-1] == "Cy wins the game with 8 points."
    assert [p.name for p in (tmp_path / "g").iterdir() if p.is_dir()] == ["round-1"]
    assert GameFolder.open(tmp_path / "g").game.totals() == {"Cy": 8, "Ana": 0, "Bo": 3}


def test_a_game_with_a_deck_profile_deals_every_round_with_the_enrolled_decks_reader(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 8: a group that enrolled its decks plays a whole game with them, as `play --deck`
    # does a round (the hint after a round with unread cards names --deck for both)
    import dealer.app.live
    import vision.deck_profile

    enrolled, dealt = object(), []
    monkeypatch.setattr(vision.deck_profile, "profiled_reader", lambda path: (enrolled, Path(path)))

    def fake_run_live(options, voice, reader=None):  # type: ignore[no-untyped-def]
        dealt.append((reader, options.deck))
        return 3  # the round cut short: the game stops here

    monkeypatch.setattr(dealer.app.live, "run_live", fake_run_live)
    profile = tmp_path / "our-decks.json"
    rule = tmp_path / "rule.txt"
    rule.write_text("alternate-colour", encoding="utf-8")
    assert main(["game", "--players", "Cy Ana Bo", "--video", str(shipped_video()), "--rule-file", str(rule),
                 "--voice", "text", "--out", str(tmp_path / "game"), "--deck", str(profile)]) == 3
    assert dealt == [((enrolled, profile), profile)]


def test_a_game_with_an_unreadable_deck_profile_stops_before_anything_is_written(tmp_path: Path,
                                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    profile = tmp_path / "our-decks.json"
    profile.write_bytes('{"format": "x"}'.encode("utf-16"))
    assert main(["game", "--players", "Ana Bo Cy", "--video", str(shipped_video()), "--voice", "text",
                 "--out", str(tmp_path / "game"), "--deck", str(profile)]) == 2
    assert "our-decks.json': not UTF-8 text (byte 0): not a deck profile" in capsys.readouterr().err
    assert not (tmp_path / "game").exists()


def _game(args: list[str]) -> int:
    try:
        return main(["game", *args])
    except SystemExit as exc:
        return int(exc.code or 0)


@pytest.mark.parametrize(("lang", "persons", "winner"), [
    ("en", ["Ana", "Bo", "Cy"], "Bo wins the game with 16 points."),
    ("ru", ["Аня", "Боря", "Саша"], "Боря выигрывает партию: шестнадцать очков."),
    ("pt", ["Ana", "Bruno", "Carla"], "Bruno ganha o jogo com 16 pontos."),
])
def test_game_with_no_table_plays_the_demo_game_to_its_winner(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str, persons: list[str], winner: str) -> None:
    from dealer.speech.i18n import set_language

    # when `eleusis game` is given no table at all
    try:
        code = _game(["--voice", "text", "--lang", lang, "--out", str(tmp_path / "g")])
    finally:
        set_language("en")
    said = _said(capsys)
    # then a whole game of three rounds is dealt, in the language asked, and its winner named
    assert code == 0, said
    assert said[-1] == winner
    game = GameFolder.open(tmp_path / "g").game
    assert game.complete and len(game.rounds) == 3 and list(game.persons) == persons
    # each round with its own dealer, the turn to deal passing to the left (G5): the person
    # whose turn it is plays, seated last, the machine being God
    assert [list(played.result.hands)[-1] for played in game.rounds] == persons
    assert all(played.dealer is None for played in game.rounds)
    assert len({played.result.rule for played in game.rounds}) == 3  # three rules, one a round
    assert max(game.totals().values()) == 16


def test_a_game_of_records_takes_its_persons_from_the_first_record(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    # the shipped demo round seats Ana Bo Cy Dee: Dee's turn to deal, Dee plays last
    demo_round = Path(__file__).resolve().parents[3] / "examples" / "demo-round.eleusis"
    assert _game(["--voice", "text", "--rounds", "1", "--out", str(tmp_path / "g"), "--record", str(demo_round)]) == 0
    assert list(GameFolder.open(tmp_path / "g").game.persons) == ["Dee", "Ana", "Bo", "Cy"]
    assert _said(capsys)[-1] == "Bo wins the game with 24 points."


@pytest.mark.skipif(shipped_video() is None, reason="no shipped demo video")
@pytest.mark.parametrize(("args", "message"), [
    (["--players", "Ana Bo Cy"], "films Ana Bo Cy seated in that order, but round 1 of this game seats Bo Cy Ana"),
    (["--players", "Cy Ana Bo", "--hand", "14"], "films hands of 5, not --hand 14"),
    (["--players", "Cy Ana Bo", "--difficulty", "hard"], "films a round under its own rule"),
    (["--players", "Cy Ana Bo", "--rule-file", "{rule}"], "films a round under its own rule"),
])
def test_the_shipped_video_is_refused_for_options_it_cannot_match(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    (tmp_path / "rule.txt").write_text("suit-cycle", encoding="utf-8")
    args = [a.format(rule=tmp_path / "rule.txt") for a in args]
    assert _game(["--voice", "text", "--out", str(tmp_path / "g"), "--video", str(shipped_video()), *args]) == 2
    said = capsys.readouterr()
    assert message in said.err
    assert said.out == "" and not (tmp_path / "g").exists()


@pytest.mark.skipif(shipped_video() is None, reason="no shipped demo video")
def test_the_shipped_video_gives_its_own_hand_and_rule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import dealer.app.live

    dealt = []

    def fake_run_live(options, voice, reader=None):  # type: ignore[no-untyped-def]
        dealt.append((options.players, options.hand, options.rule))
        return 3

    monkeypatch.setattr(dealer.app.live, "run_live", fake_run_live)
    assert _game(["--players", "Cy Ana Bo", "--rounds", "1", "--video", str(shipped_video()), "--voice", "text",
                  "--out", str(tmp_path / "g")]) == 3
    assert dealt == [("Ana Bo Cy", DEMO_HAND, DEMO_RULE)]
