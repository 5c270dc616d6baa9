"""dealer.screen.marked_cards: each card found outlined in the colour of what was read, the
label at its index corner, the photo otherwise as it was."""

from __future__ import annotations

import numpy as np
import pytest

from dealer.screen.marked_cards import NAMED, OTHER, READ, UNDER, UNSURE, label_of, marked_cards
from engine.cards import Card
from vision.readings import CardDetections


def _quad(x: float, y: float, w: float = 120.0) -> np.ndarray:
    return np.array([[x, y], [x + w, y], [x + w, y + 1.4 * w], [x, y + 1.4 * w]], np.float32)


def _cards() -> CardDetections:
    return CardDetections(quad_xy=np.stack([_quad(20, 20), _quad(200, 20), _quad(380, 20)]),
                          label=[Card.parse("QS"), None, None], confidence=np.array([0.97, 0.4, 0.0], np.float32),
                          under=[False, False, True])


def _share_of(image: np.ndarray, colour: tuple[int, int, int], quad: np.ndarray) -> float:
    """The share of points along ``quad``'s sides (away from its label) drawn in ``colour``."""
    hits = []
    for k in range(4):
        a, b = quad[k], quad[(k + 1) % 4]
        for t in np.linspace(0.55, 0.95, 9):
            x, y = np.round(a + t * (b - a)).astype(int)
            hits.append(bool((np.abs(image[y, x].astype(int) - colour) <= 40).all()))
    return float(np.mean(hits))


def test_given_a_card_read_one_unsure_and_one_under_when_marked_then_each_outline_has_its_colour() -> None:
    photo = np.full((220, 520, 3), 90, np.uint8)
    cards = _cards()
    marked = marked_cards(photo, cards)
    assert _share_of(marked, READ, cards.quad_xy[0]) > 0.9
    assert _share_of(marked, UNSURE, cards.quad_xy[1]) > 0.9
    assert _share_of(marked, UNDER, cards.quad_xy[2]) > 0.9
    assert _share_of(marked, READ, cards.quad_xy[1]) == 0.0
    assert (photo == 90).all()  # the photo itself is left as it was
    assert (marked[200:, :] == 90).all()  # nothing is drawn off the cards


def test_given_a_card_read_when_marked_then_its_name_is_written_near_its_index_corner() -> None:
    photo = np.full((220, 520, 3), 90, np.uint8)
    marked = marked_cards(photo, _cards())
    corner = marked[22:75, 22:140]  # the read card's index corner, inside its outline
    green = (np.abs(corner.astype(int) - READ) <= 60).all(axis=2)
    dark = (corner < 60).all(axis=2)  # the plate under the label
    assert green.sum() > 30 and dark.sum() > 100


@pytest.mark.parametrize(("cards", "name", "text", "colour"), [
    (CardDetections(quad_xy=_quad(0, 0)[None], label=[Card.parse("7H")], confidence=[0.91]), None, "7H 0.91", READ),
    (CardDetections(quad_xy=_quad(0, 0)[None], label=[None]), Card.parse("4C"), "4C named", NAMED),
    (CardDetections(quad_xy=_quad(0, 0)[None], label=[None], face_down=[True]), None, "face down", OTHER),
    (CardDetections(quad_xy=_quad(0, 0)[None], label=[Card.parse("2S")], cut=[True]), None, "cut", OTHER),
    (CardDetections(quad_xy=_quad(0, 0)[None], label=[Card.parse("2S")], over_shoe=[True]), None, "2S? (C1)", UNSURE),
    (CardDetections(quad_xy=_quad(0, 0)[None], label=[None]), None, "unsure", UNSURE),
])
def test_given_what_was_read_of_a_card_when_labelled_then_the_label_says_it(cards, name, text, colour) -> None:
    assert label_of(cards, 0, name) == (text, colour)
