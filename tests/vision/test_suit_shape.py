"""The suit glyphs of an enrolled deck (issue 31, item 4): a club read as a spade (a heart read
as a diamond) is refused by the deck's own pips and index suits, a right reading is kept, and
the glyphs survive the profile file."""

import numpy as np
import pytest

from engine.cards import Card
from vision.classify import CardReading
from vision.deck_print import PrintBank
from vision.deck_profile import SUIT_SHAPE_MARGIN, _check_by_suit_shape
from vision.suit_shape import SuitShapes, glyphs

LABELS = [f"{rank}{suit}" for suit in "CSHD" for rank in ("2", "5", "8", "10", "Q")]


def _deck(seed: int) -> dict[str, np.ndarray]:
    from models.procedural_deck import make_design

    return make_design(np.random.default_rng(seed), "english")


def _placed(cards: list[np.ndarray], seed: int, damage: bool) -> list[np.ndarray]:
    """Each card (BGRA) as the rectifier hands it over: clean (enrolment) or with table damage
    (a few % off, turned, blurred, a light gradient, noise, JPEG, down to 60 %)."""
    from models.synth import AugmentConfig, TextureBank, augment_photo, place_card

    rng = np.random.default_rng(seed)
    bank = TextureBank(seed=seed, count=2, size=320)
    config = (AugmentConfig(corner_jitter=0.015, shift=0.01, rotate_deg=1.5, min_scale=0.6, jpeg_quality=(50, 90))
              if damage else AugmentConfig(corner_jitter=0.008, shift=0.005, rotate_deg=0.7, min_scale=0.9,
                                           max_noise=3.0))
    return [augment_photo(rng, place_card(rng, card, bank.crop(rng), config), config) for card in cards]


@pytest.fixture(scope="module")
def deck() -> tuple[dict[str, np.ndarray], PrintBank]:
    design = _deck(3131)
    return design, PrintBank.build(_placed([design[k] for k in LABELS], 1, False), LABELS, [0] * len(LABELS))


def _checked(bank: PrintBank, view: np.ndarray, read: str) -> CardReading:
    readings = [CardReading(Card.parse(read), 0.95, False, read)]
    _check_by_suit_shape(bank, readings, [view])
    return readings[0]


@pytest.mark.parametrize("card,twin", [("8S", "8C"), ("10C", "10S"), ("5H", "5D"), ("8D", "8H")])
def test_given_a_number_card_read_as_its_suit_twin_when_checked_by_its_glyphs_then_refused_and_right_kept(
        deck, card: str, twin: str) -> None:
    """Given a deck's number card under table damage, when the network reads it as the same
    rank of the twin suit, then its glyphs refuse the reading; read as itself, it is kept."""
    design, bank = deck
    for seed in (2, 3, 4):
        view = _placed([design[card]], seed, True)[0]
        wrong = _checked(bank, view, twin)
        assert wrong.label is None and f"its suit glyphs {card}" in wrong.reason, (seed, wrong)
        right = _checked(bank, view, card)
        assert str(right.label) == card, (seed, right)


def test_given_every_card_under_damage_when_read_right_or_as_its_twin_then_no_right_one_refused(deck) -> None:
    """Given every enrolled card under table damage (3 views each), when read as itself no
    reading is refused, and when read as its twin most number cards are refused (this deck's
    clubs touch in pairs, so its 5C's blobs are not a club's: the check abstains there)."""
    design, bank = deck
    refused = numbers = 0
    for seed in (5, 6, 7):
        for label, view in zip(LABELS, _placed([design[k] for k in LABELS], seed, True)):
            assert str(_checked(bank, view, label).label) == label, (seed, label)
            if not label.startswith("Q"):
                numbers += 1
                twin = label[:-1] + {"C": "S", "S": "C", "H": "D", "D": "H"}[label[-1]]
                refused += _checked(bank, view, twin).label is None
    assert refused >= 0.7 * numbers, (refused, numbers)


def test_given_a_card_with_no_glyphs_when_checked_then_the_reading_stands(deck) -> None:
    """Given no evidence (a blank face), the glyphs neither refuse nor back the reading."""
    _, bank = deck
    blank = np.full((280, 200, 3), 230, np.uint8)
    assert bank.suit_margin(blank, "5S") == 0.0
    assert str(_checked(bank, blank, "5S").label) == "5S"


def test_given_a_print_when_written_to_json_and_read_back_then_its_glyphs_agree(deck) -> None:
    design, bank = deck
    again = PrintBank.from_json(bank.to_json())
    view = _placed([design["10C"]], 6, True)[0]
    assert again.suit_margin(view, "10S") == pytest.approx(bank.suit_margin(view, "10S"))


def test_given_a_deck_without_one_suit_when_checked_then_there_is_no_twin_to_tell_apart() -> None:
    card = np.full((280, 200, 3), 230, np.uint8)
    card[100:130, 90:110] = 20
    shapes = SuitShapes.build([card], ["5C"])
    assert not shapes.knows("5C") and shapes.margin(card, "5C") == 0.0
    masks, sizes = glyphs(card)
    assert masks.shape[0] == 1 and float(sizes[0]) == 30.0


def test_given_a_court_card_when_checked_then_its_glyphs_are_not_asked(deck) -> None:
    """A court card shows only its small index suits (and art): the check leaves it to the
    network and the print, whichever suit it is read as."""
    design, bank = deck
    view = _placed([design["QC"]], 8, True)[0]
    assert str(_checked(bank, view, "QS").label) == "QS"
    assert str(_checked(bank, view, "QC").label) == "QC"
