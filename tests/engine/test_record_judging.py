"""Judging records: every impossible record of docs/rules.md's last section names its line,
and the shipped examples judge to the figures worked out by hand in their comments."""

from __future__ import annotations

from pathlib import Path

import pytest
from rulekit import resolve

from engine.errors import RecordError
from engine.events import EndReason, Verdict
from engine.judging import judge_text, judgement_json
from engine.rules import resolve_rule

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
HEAD = "players: Ana Bo Cy\nrule: alternate-colour\nstart: KH\n"  # lines 1-3; KH seats Ana first (C5)
FOUR = "players: Ana Bo Cy Dee\nrule: alternate-colour\nstart: AH\n"
PROPHET = FOUR + "Ana: play 4C\nAna: prophet\n"  # lines 4-5; Bo is next, the line ends 4C
NO_RED = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 2C"


@pytest.mark.parametrize(("text", "line", "message"), [
    # a line out of turn (C5, F2, E3)
    (HEAD + "Bo: play 4C\n", 4, "it is Ana's turn, not Bo's"),
    (PROPHET + "Ana: play 5H\n", 6, "is the prophet and plays no more cards (F2)"),
    (HEAD + "Zed: play 4C\n", 4, "'Zed' is not a player"),
    # after the end (G1)
    (HEAD.replace("start: KH", "start: KH\nhand: 1") + "Ana: play 4C\nBo: play 5H\n", 6, "the round ended on line 5"),
    # an attempt with more cards than the hand holds
    (HEAD.replace("start: KH", "start: KH\nhand: 2") + "Ana: play 4C 5H 6S\n", 5, "plays 3 cards but holds 2"),
    # a shown hand of the wrong size (N1)
    (HEAD + "Ana: noplay 2H 3H\n", 4, "shows 2 cards but holds 14 (N1)"),
    (HEAD + "Ana: play QD\nBo: play 4C\nCy: play 5H\nAna: noplay " + NO_RED + "\n", 7, "shows 14 cards but holds 15"),
    # copies beyond C1
    (HEAD + "Ana: play KH KH KH\n", 4, "4 copies with the table, but 3 decks hold 3 (C1)"),
    (HEAD + "Ana: play 4C\nBo: play 5H 4C 5H\nCy: play 4C\nAna: play 4C\n", 7, "playing 4C: 4 copies"),
    (HEAD + "Ana: noplay KH KH KH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH\n", 4, "showing KH: 4 copies"),
    ("players: Ana Bo Cy\nrule: any-card\nstart: 2H\n", 2, "'any-card' is not a library id"),  # R1
    # the prophet names a card not in the shown hand (F6)
    (PROPHET + "Bo: noplay " + NO_RED + " | prophet reject 5H\n", 6, "names 5H, which is not in the shown hand"),
    # a prophet decision missing, present without a prophet, or of the wrong form (F3)
    (PROPHET + "Bo: play 5H\n", 6, "decision is missing (F3)"),
    (PROPHET + "Bo: noplay " + NO_RED + "\n", 6, "decision is missing (F3)"),
    (HEAD + "Ana: play 4C | prophet accept\n", 4, "there is no prophet (F3)"),
    (PROPHET + "Bo: play 5H | prophet reject 5H\n", 6, "takes no card for a play"),
    (PROPHET + "Bo: noplay " + NO_RED + " | prophet reject\n", 6, "names exactly one card"),
    # F1 does not allow the prophet
    (HEAD + "Ana: prophet\n", 4, "only right after their own turn (F1)"),
    (HEAD + "Ana: play 4C\nBo: prophet\n", 5, "only right after their own turn (F1)"),
    (PROPHET + "Bo: play 5H | prophet accept\nBo: prophet\n", 7, "Ana is prophet already (F1)"),
    (PROPHET + "Bo: play 5S | prophet accept\nCy: play 6H\nDee: play 7S\nAna: play 8H\nAna: prophet\n", 10,
     "has been prophet in this round already"),
    # starters (C4)
    ("players: Ana Bo Cy\nrule: alternate-colour\nstart: KH 4C\n", 3, "2 starter cards, but the rule needs 1 (C4)"),
    ("players: Ana Bo Cy\nrule: starter-ace-two\nstart: AH\n", 3, "the rule needs 2 starter cards"),
    ("players: Ana Bo Cy\nrule: starter-ace-two\nstart: AH 3S\n", 3, "does not accept 3S"),
    # seats (C2) and the deal (C3)
    ("players: Ana Bo\nrule: alternate-colour\nstart: KH\n", 1, "2 players: a round needs 3 to 8 (C2)"),
    ("players: Ana Bo Cy\nrule: alternate-colour\nstart: KH\nhand: 60\n", 4, "need more than 156 cards"),
])
def test_impossible_records_name_their_line(text: str, line: int, message: str) -> None:
    # given a record that breaks the rules, when judged, then RecordError 'line N: ...' says what is wrong
    with pytest.raises(RecordError) as info:
        judge_text(text, resolve_rule)
    assert str(info.value).startswith(f"line {line}: "), str(info.value)
    assert message in str(info.value)


def test_the_kit_rules_judge_like_the_library() -> None:
    # given the worked example, when judged with the test kit's alternate colours and with the library's, then equal
    text = (EXAMPLES / "worked-example.eleusis").read_text(encoding="utf-8")
    assert judgement_json(judge_text(text, resolve)) == judgement_json(judge_text(text, resolve_rule))


def _judge(name: str) -> dict[str, object]:
    return judgement_json(judge_text((EXAMPLES / name).read_text(encoding="utf-8"), resolve_rule))


def test_worked_example() -> None:
    # docs/rules.md's worked example: A's QD is a branch and A draws 2; B's 4C 9H are accepted; the line still ends 9H
    got = _judge("worked-example.eleusis")
    assert got["line"] == ["7H", "4C", "9H"]
    assert got["hands"] == {"Ana": 15, "Bo": 12, "Cy": 14}
    assert got["table"] == 4 and got["stock"] == 156 - 42 - 1 - 2
    assert [(t["verdict"], t["penalty"]) for t in got["turns"]] == [("rejected", 2), ("accepted", 0)]  # type: ignore[index, union-attr]
    assert got["ended"] is None and got["scores"] == {"Ana": 0, "Bo": 3, "Cy": 1}


@pytest.mark.parametrize(("name", "ended", "hands", "expelled", "prophet"), [
    ("no-play.eleusis", "emptied", {"Ana": 0, "Bo": 10, "Cy": 7}, [], None),
    ("stock-out.eleusis", "stock", {"Ana": 16, "Bo": 13, "Cy": 15}, [], None),
    ("expulsion.eleusis", "expelled", {"Ana": 5, "Bo": 4, "Cy": 9}, ["Ana", "Bo", "Cy"], None),
    ("prophet-overthrown.eleusis", None, {"Ana": 13 + 5 - 1, "Bo": 11, "Cy": 15, "Dee": 13}, [], None),
    ("prophet-no-play.eleusis", None, {"Ana": 17, "Bo": 18, "Cy": 10, "Dee": 13}, [], None),
])
def test_examples_come_out_as_their_comments_say(name: str, ended: str | None, hands: dict[str, int],
                                                 expelled: list[str], prophet: str | None) -> None:
    got = _judge(name)
    assert (got["ended"], got["hands"], got["expelled"], got["prophet"]) == (ended, hands, expelled, prophet)
    largest = max(hands.values())
    emptied = got["emptied"]
    assert got["scores"] == {n: largest - h + (4 if n == emptied else 0) for n, h in hands.items()}  # G2


def test_no_play_example_details() -> None:
    got = _judge("no-play.eleusis")
    turns = got["turns"]
    assert [t["verdict"] for t in turns] == ["noplay-right", "noplay-wrong", "rejected", "noplay-right"]  # type: ignore[attr-defined, index]
    assert turns[1]["card"] == "4S" and turns[1]["penalty"] == 5  # type: ignore[index]
    assert turns[0]["new_hand"] == 2  # type: ignore[index]
    assert got["emptied"] == "Ana" and got["scores"]["Ana"] == 10 + 4  # type: ignore[index]


def test_prophet_no_play_example_details() -> None:
    turns = _judge("prophet-no-play.eleusis")["turns"]
    cards = [(t["verdict"], t["card"], t["penalty"], t["overthrown"]) for t in turns]  # type: ignore[attr-defined, index]
    assert cards == [("accepted", None, 0, False), ("prophet", None, 0, False), ("noplay-wrong", "6D", 5, False),
                     ("noplay-right", None, 0, False), ("noplay-wrong", "9C", 0, True), ("accepted", None, 0, False)]


def test_demo_round_is_complete_and_lively() -> None:
    # the README's first command judges it: 4 players, ended by an emptied hand, with prophets and expulsions
    judgement = judge_text((EXAMPLES / "demo-round.eleusis").read_text(encoding="utf-8"), resolve_rule)
    rnd = judgement.round
    assert len(rnd.players) == 4 and rnd.ended is EndReason.EMPTIED
    verdicts = {t.verdict for t in rnd.turns}
    assert verdicts == set(Verdict)
    assert any(t.overthrown for t in rnd.turns) and rnd.expelled
