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


def test_given_the_readable_range_when_samples_are_drawn_then_every_card_lies_whole_and_fine_enough() -> None:
    """The target's range is what `calibrate table` calls readable for a whole card (the model's
    readable_px_per_mm): no card laid over another and none coarser than that."""
    import numpy as np

    from calibration.check import reader_px_per_mm
    from models.dataset import make_samples
    from models.evaluate_enrolment import PX_PER_MM_AT_FULL, readable_config
    from models.procedural_deck import make_design
    from pathlib import Path

    config = readable_config(Path("models"))
    assert abs(config.min_scale * PX_PER_MM_AT_FULL - reader_px_per_mm(Path("models/card_classifier.json"))) < 1e-6
    design = make_design(np.random.default_rng(3), "english")
    conditions: list[dict[str, float]] = []
    images, labels = make_samples([design], 40, 9, inks=False, config=config, overlaps=False, conditions=conditions)
    assert len(conditions) == len(images) == 40
    assert not any(c["occluded"] for c in conditions)
    assert min(c["scale"] for c in conditions) * PX_PER_MM_AT_FULL >= 1.15 - 1e-6
    again, _ = make_samples([design], 40, 9, inks=False, config=config, overlaps=False)
    assert all(np.array_equal(a, b) for a, b in zip(images, again))  # recording draws nothing more


def test_given_readings_and_conditions_when_counted_by_condition_then_each_bin_has_its_own_tally() -> None:
    from models.evaluate_enrolment import by_condition

    labels = [CLASSES.index("QS"), CLASSES.index("6S"), CLASSES.index("KH")]
    conditions = [{"scale": 1.0, "occluded": 0.0, "blur": 0.0}, {"scale": 0.4, "occluded": 1.0, "blur": 1.0},
                  {"scale": 0.4, "occluded": 0.0, "blur": 0.0}]
    lines = by_condition([_read("QS"), _read("9S"), _unsure("KH", "between two")], labels, conditions)
    text = "\n".join(lines)
    assert "overlapped               n=    1 right 0.00% wrong 1 unsure 0" in text
    assert "whole                    n=    2 right 50.00% wrong 0 unsure 1" in text
    assert "px/mm 1.15-1.5           n=    2 right 0.00% wrong 1 unsure 1" in text
    assert "px/mm >= 2.6             n=    1 right 100.00% wrong 0 unsure 0" in text


def test_given_a_set_larger_than_a_chunk_when_chunked_then_the_samples_add_up_and_seeds_differ() -> None:
    from models.evaluate_enrolment import CHUNK, chunks

    assert chunks(616, 600) == [(616, 600)]
    parts = chunks(616, 2 * CHUNK + 5)
    assert sum(n for _, n in parts) == 2 * CHUNK + 5 and len({s for s, _ in parts}) == 3


def test_given_the_real_singles_read_in_two_chunks_when_conditions_recorded_then_both_chunks_keep_theirs() -> None:
    # a set of more than one chunk (evaluate_enrolment.chunks) records each chunk's conditions after the last:
    # the breakdown by condition and the list of wrong readings are zipped with them
    from pathlib import Path

    import pytest

    from models.evaluate_enrolment import REAL, TABLE_CONFIG, deck_and_samples

    if not REAL.is_dir():
        pytest.skip(f"the real singles are not on this machine ({REAL})")
    conditions: list[dict[str, float]] = []
    for chunk_seed in (5, 6):
        _, images, labels = deck_and_samples("real", 5, 30, Path("cache/cards"), TABLE_CONFIG, False, conditions,
                                             chunk_seed)
        assert len(images) == len(labels) == 30
    assert len(conditions) == 60
    assert conditions[:30] != conditions[30:]  # the second chunk's own draws, not the first's again
