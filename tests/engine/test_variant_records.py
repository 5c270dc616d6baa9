"""The variants' example records, judged move for move and score for score, and the seeds'
worked examples (docs/rules-variants.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.cards import parse_cards
from engine.errors import IllegalActionError, NotInVariant, RecordError
from engine.events import Attempt, NoPlay
from engine.judging import judge_text, judgement_json
from engine.record import format_record, parse_record
from engine.rules import resolve_rule
from engine.scoring import ProphetInOffice, score_round
from engine.variants import new_round
from engine.variants.abbott import blocked_scores, dealer_score, shed_all_scores

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _judge(name: str) -> dict:
    return judgement_json(judge_text((EXAMPLES / name).read_text(encoding="utf-8"), resolve_rule))


def _verdicts(summary: dict) -> list[tuple[str, str, int]]:
    return [(t["player"], t["verdict"], t["penalty"]) for t in summary["turns"]]


def test_wikipedia_example_prophet_bonus_and_capped_dealer() -> None:
    got = _judge("variant-wikipedia.eleusis")
    assert got["variant"] == "wikipedia" and got["ended"] == "emptied"
    assert _verdicts(got) == [("Cy", "rejected", 2), ("Dee", "accepted", 0), ("Dee", "prophet", 0),
                              ("Ana", "accepted", 0), ("Bo", "rejected", 2), ("Cy", "accepted", 0),
                              ("Ana", "accepted", 0)]
    assert got["hands"] == {"Ana": 0, "Bo": 4, "Cy": 2, "Dee": 1}
    assert got["scores"] == {"Ana": 8, "Bo": 0, "Cy": 2, "Dee": 10}  # WK7, WK8: Dee 3 + 5 + 2x1
    assert got["dealer"] == 8  # WK9: min(10, 2 x 4)
    assert got["stock"] == 87  # WK1: two decks


def test_wikipedia_formulas_by_the_article() -> None:
    # seed 002: H minus own, +4 for an empty hand; the prophet +1 per line card and +2 per
    # side card after the marker; the dealer the lesser of the best and twice the cards up
    # to and including the marked card.
    scores, dealer = score_round({"A": 0, "B": 9, "C": 5, "P": 6}, emptied="A",
                                 prophet=ProphetInOffice("P", 7, 3, 12))
    assert scores == {"A": 13, "B": 0, "C": 4, "P": 16} and dealer == 16
    scores, dealer = score_round({"A": 0, "B": 9, "C": 5, "P": 6}, emptied="A",
                                 prophet=ProphetInOffice("P", 7, 3, 6))
    assert dealer == 12


def test_express_example() -> None:
    got = _judge("variant-express.eleusis")
    assert _verdicts(got) == [("Ana", "rejected", 2), ("Bo", "accepted", 0), ("Cy", "accepted", 0),
                              ("Ana", "accepted", 0), ("Bo", "rejected", 2), ("Cy", "accepted", 0),
                              ("Ana", "accepted", 0), ("Bo", "accepted", 0), ("Cy", "accepted", 0)]
    assert got["hands"] == {"Ana": 2, "Bo": 2, "Cy": 0}
    assert got["scores"] == {"Ana": 0, "Bo": 0, "Cy": 6} and got["dealer"] == 6
    assert got["stock"] == 38  # EX1: one deck for three players


def test_abbott_example_first_scoring_and_shedding() -> None:
    got = _judge("variant-abbott-1959.eleusis")
    assert [t["verdict"][0] for t in got["turns"]] == list("rarararar") + ["a", "a"]
    assert got["first_scoring"] == {"A": 2, "B": 1, "C": 2}
    assert got["dealer"] == 2  # AB7: (2 + 2) - 1 x 2
    assert got["errors"] == {"A": ["QD"], "B": [], "C": ["5C", "JH"]}
    assert got["ended"] == "emptied" and got["emptied"] == "B"
    assert got["scores"] == {"A": 0, "B": 9, "C": 0}  # AB9: 6 + 1 + 2


def test_kruskal_example_token_points() -> None:
    got = _judge("variant-kruskal.eleusis")
    assert [t["verdict"] for t in got["turns"]] == ["accepted", "rejected", "accepted", "rejected", "accepted"]
    assert [t["right"] for t in got["turns"]] == [["Ana", "Cy"], ["Ana", "Bo"], ["Ana", "Bo", "Cy"],
                                                  ["Ana", "Cy"], ["Ana"]]
    assert got["scores"] == {"Ana": 5, "Bo": 2, "Cy": 3} and got["dealer"] == 3  # KR5, KR8
    assert got["ended"] is None and got["stock"] == 46


def test_seed_003_abbott_dealer_example_as_printed_and_as_meant() -> None:
    # Seed 003: A 8, B 4, C 3, D 8, E 2, F 10 error cards; the fewest (2) times 5 others = 10.
    # The seed sums 7 + 4 + 3 + 8 + 10 = 32 and gives 22: A counted as 7.
    assert dealer_score({"A": 7, "B": 4, "C": 3, "D": 8, "E": 2, "F": 10}) == 22
    # With A's 8 as stated the same rule gives 33 - 10 = 23 (AB7 [decided]).
    assert dealer_score({"A": 8, "B": 4, "C": 3, "D": 8, "E": 2, "F": 10}) == 23


def test_abbott_end_scores() -> None:
    assert shed_all_scores({"A": 0, "B": 3, "C": 2}, "A") == {"A": 11, "B": 0, "C": 0}  # AB9
    assert blocked_scores({"A": 1, "B": 3, "C": 2}) == {"A": 4, "B": 0, "C": 0}  # AB10: 5 - 1
    assert blocked_scores({"A": 1, "B": 1, "C": 2}) == {"A": 2, "B": 2, "C": 0}  # [decided] ties


@pytest.mark.parametrize("name", ["variant-wikipedia", "variant-express", "variant-abbott-1959", "variant-kruskal"])
def test_example_records_round_trip(name: str) -> None:
    record = parse_record((EXAMPLES / f"{name}.eleusis").read_text(encoding="utf-8"))
    again = parse_record(format_record(record.events))
    assert again.events == record.events


def test_a_record_without_variant_is_howell_and_old_records_still_load() -> None:
    text = (EXAMPLES / "worked-example.eleusis").read_text(encoding="utf-8")
    record = parse_record(text)
    assert record.start.variant == "howell" and record.start.decks == 3 and record.start.hand_size == 14
    assert "variant:" not in format_record(record.events)
    assert "variant" not in judgement_json(judge_text(text, resolve_rule))  # Howell's summary as it was


def test_an_unknown_variant_is_named_with_its_line() -> None:
    with pytest.raises(RecordError, match=r"line 2: variant: 'mao' is not a variant; known: howell"):
        parse_record("players: A B C\nvariant: mao\nrule: alternate-colour\nstart: 7H\n")


def test_variant_refusals_name_the_rule() -> None:
    text = "variant: express\nplayers: A B C\nrule: alternate-colour\nstart: 7H\n"
    with pytest.raises(RecordError, match=r"line 5: .*one card \(EX2\)"):
        judge_text(text + "A: play 4C 9H\n", resolve_rule)
    with pytest.raises(RecordError, match=r"line 5: .*no 'no play' \(EX3\)"):
        judge_text(text + "hand: 1\nA: noplay 4C\n".replace("hand: 1\n", ""), resolve_rule)
    kr = "variant: kruskal\nplayers: A B C\nrule: alternate-colour\nstart: 7H\n"
    with pytest.raises(RecordError, match=r"line 5: no token from C"):
        judge_text(kr + "oracle: turn QC | A main, B side\n", resolve_rule)
    with pytest.raises(RecordError, match=r"line 5: .*only the oracle turns cards"):
        judge_text(kr + "A: turn QC | A main, B side, C main\n", resolve_rule)


def test_express_refuses_a_prophet_and_wikipedia_allows_one() -> None:
    rule = resolve_rule("alternate-colour")
    ex = new_round(rule, "express", ["A", "B", "C"], parse_cards("7H"))
    ex.apply(Attempt("A", parse_cards("4C")))
    refusal = ex.prophet_refusal("A")
    assert refusal == NotInVariant("express", "prophet", "EX4")  # a value, worded at the edge
    assert refusal is not None and refusal.message() == "express has no prophet (EX4)"
    wk = new_round(rule, "wikipedia", ["A", "B", "C", "D"], parse_cards("7H"))
    wk.apply(Attempt("C", parse_cards("4C")))
    assert wk.prophet_refusal("C") is None


def test_abbott_sheds_only_its_own_error_cards() -> None:
    rule = resolve_rule("alternate-colour")
    rnd = new_round(rule, "abbott-1959", ["A", "B", "C"], parse_cards("7H"), hand_size=2)
    for player, card in zip("ABCABC", ("QD", "4C", "5C", "9H", "2H", "3S")):
        rnd.apply(Attempt(player, parse_cards(card)))
    with pytest.raises(IllegalActionError, match=r"A's hand is empty: they shed one of their error cards \(QD\)"):
        rnd.apply(Attempt("A", parse_cards("8S")))
    assert rnd.apply(Attempt("A", parse_cards("QD"))).verdict.value == "accepted"  # red after 3S
    assert rnd.ended is not None and rnd.ended.value == "emptied"
    assert rnd.result().scores == {"A": 8, "B": 0, "C": 0}  # AB9: 6 + B's 2H + C's 5C
    with pytest.raises(IllegalActionError, match="only 'play' of one card"):
        new_round(rule, "abbott-1959", ["A", "B", "C"], parse_cards("7H")).apply(NoPlay("A", parse_cards("4C")))


def test_an_oracle_turn_outside_kruskal_is_refused_with_its_line() -> None:
    text = "players: A B C\nrule: alternate-colour\nstart: 7H\noracle: turn QC | A main, B main, C side\n"
    with pytest.raises(RecordError, match=r"line 4: the oracle turns cards only in kruskal, not in howell \(KR3\)"):
        judge_text(text, resolve_rule)
