"""A phone photo of one card held close (issue 8): read even when it fills the picture or
touches its edge; a background that fills the frame does not swallow it."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.cards import Card
from vision.classify import OnnxClassifier, default_model_paths
from vision.closeup import read_closeup
from vision.pipeline import CardReader

DATA = Path(__file__).parent / "data"
FILES = sorted(DATA.glob("card_*.jpg"))
pytestmark = pytest.mark.skipif(not default_model_paths()[0].is_file() or not FILES,
                                reason="needs the trained model and tests/vision/data")


def _photo(card: np.ndarray, fill: float, shift: float, background: tuple[int, int, int]) -> np.ndarray:
    ph, pw = 1200, 900
    photo = np.full((ph, pw, 3), background, np.uint8)
    photo += np.random.default_rng(3).integers(0, 8, photo.shape, dtype=np.uint8)
    h = int(fill * ph)
    w = int(h * card.shape[1] / card.shape[0])
    big = cv2.resize(card, (w, h), interpolation=cv2.INTER_CUBIC)
    y0 = (ph - h) // 2 + int(shift * ph)
    x0 = (pw - w) // 2
    ys, xs = slice(max(0, y0), min(ph, y0 + h)), slice(max(0, x0), min(pw, x0 + w))
    photo[ys, xs] = big[ys.start - y0: ys.stop - y0, xs.start - x0: xs.stop - x0]
    return photo


@pytest.fixture(scope="module")
def reader() -> CardReader:
    return CardReader(OnnxClassifier())


@pytest.mark.parametrize(("fill", "shift", "background"), [
    (0.9, 0.0, (40, 60, 90)),      # fills 90 % of the height on a dark table
    (0.95, 0.04, (200, 205, 210)),  # runs off the bottom edge, on a pale table
])
def test_given_a_close_up_of_one_card_when_read_then_it_is_that_card_or_unsure_never_another(
        reader, fill, shift, background) -> None:
    right = 0
    for path in FILES:
        label = path.stem.split("_")[1]
        if label == "back":
            continue
        found = read_closeup(reader, _photo(cv2.imread(str(path)), fill, shift, background))
        cards = found.read_cards()
        assert all(c == Card.parse(label) for c in cards), f"{path.name}: read {cards}"
        right += cards == [Card.parse(label)]
    assert right >= len(FILES) - 3


def test_given_a_photo_of_bare_table_when_read_closeup_then_no_card_is_read(reader) -> None:
    photo = np.full((1200, 900, 3), (180, 170, 160), np.uint8)
    cv2.rectangle(photo, (100, 100), (800, 1100), (60, 60, 60), 8)
    assert read_closeup(reader, photo).read_cards() == []
