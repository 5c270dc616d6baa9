"""bench/surfaces.py tells where its reports of a card under another lie: on a card no index
of which shows (true), on a card not read (true), on a card read or on the bare top
(needless). The bench/README figures of those reports come from this tally."""

import numpy as np

from bench.surfaces import UNDER_PLACES, under_places
from engine.cards import Card
from vision.readings import CardDetections
from vision.synthetic.surfaces import SurfaceScene


def _card(x: float, y: float) -> np.ndarray:
    return np.array([[x, y], [x + 100, y], [x + 100, y + 140], [x, y + 140]], np.float32)


def test_given_reports_on_each_kind_of_place_when_tallied_then_each_is_counted_where_it_lies() -> None:
    # a 7D alone, a 9S under a 4H laid over it whole (its indices covered), and a 2C alone
    truth = CardDetections(quad_xy=np.stack([_card(0, 0), _card(300, 0), _card(305, 5), _card(600, 0)]),
                           label=[Card.parse(c) for c in ("7D", "9S", "4H", "2C")])
    scene = SurfaceScene(bgr=np.zeros((400, 900, 3), np.uint8), truth=truth, cards=tuple(truth.label),
                         surface="maple", slant=0.0)
    strip = np.array([[300, 130], [405, 130], [405, 145], [300, 145]], np.float32)  # what shows of the 9S
    found = CardDetections(quad_xy=np.stack([_card(0, 0), _card(305, 5), strip, _card(0, 0) + [10, 10],
                                             _card(600, 0) + [5, 5], _card(0, 200)]),
                           label=[Card.parse("7D"), Card.parse("4H"), None, None, None, None],
                           under=[False, False, True, True, True, True])
    right = {0, 2}  # the 7D and the 4H read; the 2C not read
    places = under_places(scene, found, right)
    assert [places[p] for p in UNDER_PLACES] == [1, 1, 1, 1]
