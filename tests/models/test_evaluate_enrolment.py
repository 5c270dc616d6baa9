"""The enrolled figures' breakdown of misses: wrong readings and unsure ones told apart, each
unsure one by the rule that made it so, and whether the enrolled print alone read the card."""

from engine.cards import Card
from models.dataset import BACK_INDEX, CLASSES, NONE_INDEX
from models.evaluate_enrolment import breakdown, reason_kind
from vision.classify import CardReading


def _read(label: str) -> CardReading:
    return CardReading(Card.parse(label), 0.9, False, label)


def _unsure(best: str, reason: str) -> CardReading:
    return CardReading(None, 0.5, False, best, reason=reason)


def test_given_a_reason_with_numbers_when_kinded_then_only_the_rule_is_kept() -> None:
    assert reason_kind("not like any enrolled card (nearest QS, 0.71)") == "not like any enrolled card"
    assert reason_kind("between two enrolled cards: looks like 6S or 9S") == "between two enrolled cards"
    assert reason_kind("") == "no reason given"


def test_given_right_wrong_and_unsure_readings_when_broken_down_then_each_miss_is_counted_once() -> None:
    labels = [CLASSES.index("QS"), CLASSES.index("6S"), CLASSES.index("6S"), CLASSES.index("KH"),
              NONE_INDEX, BACK_INDEX]
    readings = [_read("QS"),  # right
                _read("9S"),  # wrong
                _unsure("9S", "between two enrolled cards: looks like 9S or 6S"),
                _unsure("KH", "not like any enrolled card (nearest KH, 0.80)"),
                _unsure("QS", "not like any enrolled card (nearest QS, 0.41)"),  # no card, unsure: right
                CardReading(None, 0.9, True, "back")]  # a back read face down: right
    lines = breakdown(readings, labels, template_best=["QS", "6S", "9S", "KH", "QS", "QS"])
    text = "\n".join(lines)
    assert lines[0] == "3 missed of 6"
    assert "wrong 1 (16.7%): 6S read as 9S" in text
    assert "unsure 1 (16.7%): between two enrolled cards" in text
    assert "unsure 1 (16.7%): not like any enrolled card" in text
    assert "cards missed most: 6S 2, KH 1" in text
    assert "the print's best card is right 2" in text and "the print's best card is another 1" in text


def test_given_no_template_evidence_when_broken_down_then_no_print_line() -> None:
    lines = breakdown([_read("2C")], [CLASSES.index("3C")])
    assert lines[0] == "1 missed of 1" and not any("print" in line for line in lines)
