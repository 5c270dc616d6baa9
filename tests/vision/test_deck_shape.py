"""vision.deck_shape: a card read by an index alone has the shape of the cards read whole,
laid on the table they lie on as the picture shows it.

A pair of glyphs measures its card only roughly (a real 8C of a poker hand implied a card 16 %
narrower than the cards read whole beside it), and always in a poker card's proportions; a
bridge card is longer (the real deals: 1.53 against 1.4), and a view from a slant squashes the
table and shrinks it far off. The paper of a card beyond the outline so implied was then taken
for a card under another.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from engine.cards import Card
from vision.by_index import deck_shape_of
from vision.deck_shape import DeckShape
from vision.readings import CardDetections

BRIDGE = 88.9 / 57.2


def _card(centre: tuple[float, float], width: float, aspect: float, degrees: float) -> np.ndarray:
    """A card on the table: top-left, top-right, bottom-right, bottom-left, turned."""
    t = np.radians(degrees)
    turn = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    half = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * [width / 2, width * aspect / 2]
    return half @ turn.T + centre


def _seen(table: np.ndarray) -> np.ndarray:
    """The table photographed from a slant, with perspective: its far side (small y) smaller."""
    view = cv2.getPerspectiveTransform(np.float32([[0, 0], [1000, 0], [1000, 1000], [0, 1000]]),
                                       np.float32([[250, 100], [750, 100], [1000, 700], [0, 700]]))
    return cv2.perspectiveTransform(np.asarray(table, np.float32).reshape(-1, 1, 2), view).reshape(-1, 2)


def _implied(card: np.ndarray, width: float) -> np.ndarray:
    """What an index at the card's top-left implies: the right corner and the way down, at
    right angles in the picture, a poker card's proportions, ``width`` pixels wide."""
    down = (card[3] - card[0]) / np.linalg.norm(card[3] - card[0])
    across = np.array([down[1], -down[0]]) * width  # image y points down: down turned back a right angle
    return np.array([card[0], card[0] + across, card[0] + across + 1.4 * width * down,
                     card[0] + 1.4 * width * down], np.float32)


def test_given_a_bridge_deck_from_above_when_a_card_is_laid_from_its_index_then_it_has_their_size_and_shape() -> None:
    whole = [_card((200, 200), 140, BRIDGE, 10), _card((500, 220), 140, BRIDGE, 80), _card((800, 200), 140, BRIDGE, 35)]
    shape = DeckShape.of_cards(whole)
    assert shape is not None and shape.aspect == pytest.approx(BRIDGE, rel=1e-3)
    truth = _card((400, 600), 140, BRIDGE, 200)  # upside down and turned
    laid = shape.laid_from_corner(_implied(truth, 120))
    assert np.abs(laid - truth).max() < 0.5


def test_given_a_view_in_perspective_when_a_card_lies_across_the_others_then_it_is_laid_as_the_table_shows_it() -> None:
    # the board upright, squashed and smaller far off; a card lying across it, nearer
    whole = [_seen(_card((300 + 120 * k, 400), 100, 1.4, 0)) for k in range(4)]
    shape = DeckShape.of_cards(whole)
    assert shape is not None and shape.aspect == pytest.approx(1.4, rel=1e-3)  # squatter than any deck
    truth = _seen(_card((500, 650), 100, 1.4, 80))
    implied = _implied(truth, 60)
    assert np.abs(shape.laid_from_corner(implied) - truth).max() < 2.0
    # sized as the cards read whole look, from its corner (the rule before): well off
    width = np.median([min(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[3] - q[0])) for q in whole])
    as_before = implied[0] + width / 60 * (implied - implied[0])
    assert np.abs(as_before - truth).max() > 15


def test_given_cards_all_squatter_than_any_deck_when_measured_then_the_deck_is_a_poker_deck() -> None:
    squat = [_card((200 + 300 * k, 300), 150, 1.2, 3) for k in range(3)]
    shape = DeckShape.of_cards(squat)
    assert shape is not None and shape.aspect == pytest.approx(88.9 / 63.5, rel=1e-3)


def test_given_a_corner_beyond_the_view_s_horizon_when_laid_then_the_implied_outline_is_kept() -> None:
    shape = DeckShape.of_cards([_seen(_card((300 + 120 * k, 400), 100, 1.4, 0)) for k in range(2)])
    assert shape is not None
    beyond = np.array([[500, -900], [560, -900], [560, -816], [500, -816]], np.float32)  # above the horizon
    assert np.array_equal(shape.laid_from_corner(beyond), beyond)


def test_given_cards_read_cut_and_unread_when_the_deck_is_measured_then_only_those_read_whole_tell_it() -> None:
    quads = [_card((200, 200), 150, 1.4, 0), _card((500, 200), 160, 1.4, 0), _card((800, 200), 155, 1.4, 0),
             _card((1100, 200), 90, 1.4, 0), _card((1400, 200), 300, 1.4, 0)]
    cards = CardDetections(quad_xy=np.stack(quads).astype(np.float32),
                           label=[Card.parse("2C"), Card.parse("3C"), Card.parse("4C"), None, Card.parse("5C")],
                           cut=[False, False, False, False, True])
    shape = deck_shape_of(cards)
    assert shape is not None and len(shape.views) == 3
    assert deck_shape_of(cards[[0, 3, 4]]) is None  # one card read whole tells nothing
    assert deck_shape_of(CardDetections.empty()) is None


def test_given_a_pile_s_outline_among_the_cards_read_whole_when_a_card_is_laid_then_its_frame_is_left_out() -> None:
    # a pile of three cards side by side found as one outline and read as its top card: a
    # "card" three times as wide, the nearest to the index
    card = _card((200, 300), 100, 1.4, 0)
    pile = np.array([[400, 230], [700, 230], [700, 370], [400, 370]], np.float64)
    shape = DeckShape.of_cards([card, pile])
    assert shape is not None
    truth = _card((550, 600), 100, 1.4, 0)
    assert np.abs(shape.laid_from_corner(_implied(truth, 90)) - truth).max() < 1.0
