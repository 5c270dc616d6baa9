"""Cards about 100 px wide (a 1280x720 webcam over a whole layout): the reader reads them or
refuses them, never names another card, and the table check calls readable exactly the
scales where the reader reads them (bench/small_cards.py measures the same at 2,000 cards)."""

from pathlib import Path

import numpy as np
import pytest

from calibration.check import zone_sights
from calibration.layout import ZONE_PLAY, default_layout

REPO = Path(__file__).resolve().parents[2]
MODEL = REPO / "models" / "card_classifier.onnx"


def _faces(name: str) -> dict:
    from bench.small_cards import card_set

    try:
        return card_set(name)
    except SystemExit:
        pytest.skip(f"no card faces for {name} (cache/cards, shared/data/real-cards)")


@pytest.fixture(scope="module")
def classifier():  # type: ignore[no-untyped-def]
    if not MODEL.is_file():
        pytest.skip("needs the trained model")
    from vision.classify import OnnxClassifier

    return OnnxClassifier()


@pytest.mark.parametrize("design", ["gnome-bellot", "gnome-tango", "real"])
def test_a_card_100_px_wide_of_a_test_design_is_read_or_refused_never_wrong(classifier, design: str) -> None:  # type: ignore[no-untyped-def]
    from bench.small_cards import read_cards

    # given every card of a test design laid at 1.6 px/mm (about 100 px wide) in a 1280x720
    # frame, under room light, blurred a little and JPEG-compressed
    tally = read_cards(classifier, _faces(design), 1.6, 52, seed=3101)
    # then none is read as another card, and nearly all are read
    assert tally.wrong == 0, tally.misread
    assert tally.right >= 48, (tally.right, tally.unread)


def _table_to_px(px_per_mm: float) -> np.ndarray:
    """A camera straight above the play zone, the zone's centre in the middle of a 1280x720 frame."""
    cx, cy = default_layout().zone(ZONE_PLAY).centre_mm
    return np.array([[px_per_mm, 0, 640 - px_per_mm * cx], [0, px_per_mm, 360 - px_per_mm * cy], [0, 0, 1]])


@pytest.mark.parametrize("px_per_mm", [0.9, 1.6])
def test_the_table_checks_verdict_agrees_with_what_the_reader_does(classifier, px_per_mm: float) -> None:  # type: ignore[no-untyped-def]
    from bench.small_cards import READ_TARGET, read_cards

    # given the test design the reader finds hardest, three decks of it at this scale
    tally = read_cards(classifier, _faces("gnome-bellot"), px_per_mm, 156, seed=3102)
    # when the table check judges a play zone seen at this scale
    sight = zone_sights(_table_to_px(px_per_mm), (1280, 720), default_layout())[ZONE_PLAY]
    assert sight.whole_in_view
    # then it calls the zone readable where the reader reads the cards, and not where it does not
    reads = tally.read_share >= READ_TARGET - 0.02 and tally.wrong == 0  # 156 cards: 2 points of sampling slack
    assert sight.readable is reads, (px_per_mm, sight.needs_px_per_mm, tally)
