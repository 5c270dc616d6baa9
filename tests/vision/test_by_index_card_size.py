"""vision.by_index: a card read by an index alone is as wide as the photo's cards read whole.

A pair of glyphs measures its card only roughly (a real 8C of a poker hand implied a card 16 %
narrower than the cards read whole beside it). The paper of that card beyond the outline so
implied was then taken for a card under another. One deck's cards are one size: where its
outline does not show, a card read by its index takes the width of the cards read whole,
laid from the corner its index lies at.
"""

from __future__ import annotations

import numpy as np

from engine.cards import Card
from vision.by_index import sized_from_corner, typical_card_width
from vision.readings import CardDetections


def _card(x: float, y: float, w: float) -> np.ndarray:
    return np.array([[x, y], [x + w, y], [x + w, y + 1.4 * w], [x, y + 1.4 * w]], np.float32)


def test_given_cards_read_whole_when_sized_then_the_median_of_those_read_and_not_cut() -> None:
    cards = CardDetections(quad_xy=np.stack([_card(0, 0, 150), _card(200, 0, 160), _card(400, 0, 155),
                                             _card(600, 0, 90), _card(800, 0, 300)]),
                           label=[Card.parse("2C"), Card.parse("3C"), Card.parse("4C"), None, Card.parse("5C")],
                           cut=[False, False, False, False, True])
    assert typical_card_width(cards) == 155.0  # the unread and the cut card tell nothing


def test_given_fewer_than_two_cards_read_when_sized_then_no_width_is_told() -> None:
    one = CardDetections(quad_xy=_card(0, 0, 150)[None], label=[Card.parse("2C")])
    assert typical_card_width(one) is None
    assert typical_card_width(CardDetections.empty()) is None


def test_given_an_index_s_outline_upside_down_and_turned_when_sized_then_it_keeps_its_corner_and_way() -> None:
    # an index at a card's bottom-right corner, the card turned 30 degrees: the implied
    # outline starts at that corner and runs back over the card
    turn = np.radians(30)
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    implied = (np.roll(_card(0, 0, 130), 2, axis=0) - [130, 182]) @ rotation.T + [500, 400]
    sized = sized_from_corner(implied.astype(np.float32), 155.0)
    assert np.allclose(sized[0], implied[0], atol=1e-3)  # the index's corner stays
    sides = np.linalg.norm(sized - np.roll(sized, -1, axis=0), axis=1)
    assert np.allclose(sorted(sides), [155, 155, 217, 217], atol=1e-2)  # a card's shape, 155 px wide
    assert np.allclose(_across(sized), _across(implied), atol=1e-6)  # the same way round


def _across(quad: np.ndarray) -> np.ndarray:
    return (quad[1] - quad[0]) / np.linalg.norm(quad[1] - quad[0])
