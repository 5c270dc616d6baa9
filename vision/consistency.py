"""Readings know the shoe (C1): more copies of a card than the decks hold is a misreading.

With 3 decks, a fourth 7H among the visible cards (or among the visible cards and the
cards already known to be on the table or in a shown hand) cannot be a fact. Every
visible copy of that card is flagged ``over_shoe``: which one is wrong is unknown, so
none of them counts as read until a re-read settles it. Known cards are never changed.

>>> import numpy as np
>>> from engine.cards import parse_cards
>>> dets = CardDetections(np.zeros((2, 4, 2)), label=list(parse_cards('7H 2C')))
>>> flag_over_shoe(dets, known=parse_cards('7H 7H 7H')).over_shoe.tolist()
[True, False]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

import numpy as np

from engine.cards import DEFAULT_DECKS, Card, copies_over_shoe
from vision.readings import CardDetections

__all__ = ["flag_over_shoe"]


def flag_over_shoe(detections: CardDetections, known: Iterable[Card] = (),
                   decks: int = DEFAULT_DECKS) -> CardDetections:
    """A copy of ``detections`` with ``over_shoe`` set on every copy of a card seen too often."""
    visible = [card for card, cut in zip(detections.label, detections.cut) if card is not None and not cut]
    over = copies_over_shoe([*visible, *known], decks)
    if not over:
        return detections
    flags = detections.over_shoe | np.array(
        [card is not None and card in over and not cut for card, cut in zip(detections.label, detections.cut)],
        dtype=bool)
    return dataclasses.replace(detections, over_shoe=flags)
