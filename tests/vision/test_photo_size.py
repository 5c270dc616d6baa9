"""vision.photo_size: a photo larger than the readers need is read at the work size, or, where
its cards are small in it, again where they are READ_CARD_PX wide looking for their indices' glyphs."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from bench.real_tables import _deal_boxes, score_deal
from engine.cards import Card
from vision import photo_size
from vision.by_index import read_photo, read_without_mat
from vision.classify import OnnxClassifier
from vision.corner_proposals import card_index_px, glyph_px_of
from vision.pipeline import CardReader
from vision.readings import CardDetections

FAN = Path(__file__).parent / "data" / "fan"


def _card(x: float, y: float, width: float) -> list[list[float]]:
    return [[x, y], [x + width, y], [x + width, y + 1.4 * width], [x, y + 1.4 * width]]


class Reads:
    """A reader that records what it was given and finds cards ``width`` px wide in any picture."""

    def __init__(self, width: float | None) -> None:
        self.width = width
        self.seen: list[tuple[tuple[int, int], float | None]] = []

    def __call__(self, image: np.ndarray, card_px: float | None) -> CardDetections:
        self.seen.append((image.shape[:2], card_px))
        if self.width is None:
            return CardDetections.empty()
        return CardDetections(np.array([_card(10, 20, self.width), _card(300, 20, self.width)], np.float32),
                              [Card.parse("5H"), Card.parse("QS")])


def test_a_photo_within_the_work_size_is_read_once_as_it_is_whatever_its_cards() -> None:
    for width in (photo_size.ENOUGH_CARD_PX, 40.0, None):
        read = Reads(width)
        found = photo_size.read_at_card_size(np.zeros((1080, 1920, 3), np.uint8), read)
        assert read.seen == [((1080, 1920), None)]
        assert len(found) == (0 if width is None else 2)


def test_a_large_photo_whose_cards_are_wide_enough_at_the_work_size_is_read_there_in_its_own_pixels() -> None:
    read = Reads(photo_size.ENOUGH_CARD_PX)
    found = photo_size.read_at_card_size(np.zeros((3024, 4032, 3), np.uint8), read)
    assert read.seen == [((1500, 2000), None)]
    k = 4032 / 2000
    assert np.allclose(found.quad_xy[1], np.array(_card(300, 20, photo_size.ENOUGH_CARD_PX)) * k, atol=1e-3)


def test_a_large_photo_of_cards_narrower_than_read_card_px_is_read_again_at_its_size_for_their_glyphs() -> None:
    width = photo_size.READ_CARD_PX * 2000 / 4032 * 0.9  # under READ_CARD_PX wide in the whole photo
    read = Reads(width)
    found = photo_size.read_at_card_size(np.zeros((3024, 4032, 3), np.uint8), read)
    assert read.seen[0] == ((1500, 2000), None)
    assert read.seen[1][0] == (3024, 4032)
    assert read.seen[1][1] == pytest.approx(width * 4032 / 2000)  # the cards' width in the photo read
    assert np.allclose(found.quad_xy[0], _card(10, 20, width))  # that read's own pixels


def test_a_very_large_photo_whose_cards_are_small_at_the_work_size_is_read_where_they_are_read_card_px_wide() -> None:
    # a 48-megapixel photo of a table: its cards 240 px wide, 60 at 2000 px
    read = Reads(60.0)
    found = photo_size.read_at_card_size(np.zeros((6000, 8000, 3), np.uint8), read)
    again = photo_size.READ_CARD_PX / 240.0
    assert read.seen[1][0] == (round(6000 * again), round(8000 * again))
    assert read.seen[1][1] == pytest.approx(photo_size.READ_CARD_PX)
    assert np.allclose(found.quad_xy[1], np.array(_card(300, 20, 60.0)) / again, atol=1e-3)


def test_a_large_photo_where_nothing_was_found_is_read_again_at_its_own_size_as_before() -> None:
    read = Reads(None)
    assert len(photo_size.read_at_card_size(np.zeros((2500, 2100, 3), np.uint8), read)) == 0
    assert read.seen == [((2000, 1680), None), ((2500, 2100), None)]


def test_cards_of_a_width_size_the_glyphs_looked_for_and_the_shadows_lifted() -> None:
    assert photo_size.sized_by_cards(None) == (None, None)
    glyphs, short = photo_size.sized_by_cards(80.0)
    assert glyphs == pytest.approx(glyph_px_of(card_index_px(80.0)))
    assert short == pytest.approx(80.0 * photo_size.PICTURE_PER_CARD)
    assert photo_size.sized_by_cards(160.0)[1] == pytest.approx(1200.0)  # the bridge deals' own


def test_card_width_is_the_median_of_the_shorter_sides_of_the_cards_read() -> None:
    quads = np.array([_card(0, 0, 50), _card(0, 0, 100), _card(0, 0, 400), _card(0, 0, 30)], np.float32)
    found = CardDetections(quads, [Card.parse("2C"), Card.parse("3C"), Card.parse("4C"), None],
                           under=[False, False, False, True])
    assert photo_size.card_width_px(found) == pytest.approx(100.0)  # the strip under another measures nothing
    assert photo_size.card_width_px(found[[3]]) is None
    assert photo_size.card_width_px(CardDetections.empty()) is None


@pytest.fixture(scope="module")
def fan():
    image = np.asarray(cv2.imread(str(FAN / "deal7-top.jpg")), np.uint8)
    return image, _deal_boxes(FAN / "deal7-top-labels.json", (image.shape[1], image.shape[0])), CardReader(
        OnnxClassifier())


@pytest.mark.slow
def test_a_real_fan_enlarged_to_a_phones_size_reads_as_well_as_at_its_own_and_none_wrong(fan) -> None:
    # the top of bridge deal 7 (1200 x 600) three times larger, as a phone close over the cards
    # takes it: read at 2000 px, its outlines given back in the photo's pixels
    image, labels, reader = fan
    own = score_deal(read_without_mat(reader, image), labels)
    big = cv2.resize(image, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC)
    enlarged = score_deal(read_without_mat(reader, big), [(c, 3 * x, 3 * y) for c, x, y in labels])
    assert own[2] == [] and enlarged[2] == []
    # read at another size the index reader reads a card more or fewer (reader 1.0.0: 27 at its
    # own size, 28 enlarged; 1.1.0: 30 and 29); what must not come back is the loss of a quarter
    # of the cards when the glyphs were sought at the picture's size, not the cards'
    assert enlarged[0] >= own[0] - 1 and own[0] > 0, (enlarged, own)


@pytest.mark.slow
def test_a_real_fan_small_in_a_phones_photo_reads_more_sized_by_its_cards_than_by_the_picture(fan) -> None:
    # the same fan in the middle of a 4032 x 3024 photo of the table: at 2000 px its cards are
    # about 75 px wide, so it is read at its own size, its glyphs and shadows sized by its cards
    image, labels, reader = fan
    top, left = 1200, 1400
    table = [int(v) for v in np.median(image[:20].reshape(-1, 3), axis=0)]
    far = cv2.copyMakeBorder(image, top, 3024 - 600 - top, left, 4032 - 1200 - left, cv2.BORDER_CONSTANT,
                             value=table)
    moved = [(c, x + left, y + top) for c, x, y in labels]
    by_cards = score_deal(read_without_mat(reader, far), moved)
    by_picture = score_deal(read_photo(reader, far), moved)
    assert by_cards[2] == [] and by_picture[2] == []
    assert by_cards[0] > by_picture[0], (by_cards, by_picture)
