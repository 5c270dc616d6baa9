"""An enrolled deck's cards under others: read by their index as without a profile.

A card under another in a column or a fan shows only its index corner. The enrolled print is
of whole cards, so an enrolled deck's reader (:class:`vision.deck_profile.ProfiledClassifier`)
lets its base model check the indices read alone, as without a profile
(:func:`vision.corners.index_network`); without that, the layout watch and ``eleusis read
--deck`` would lose every card under another. A ``--strict`` profile reads only the enrolled
print, and an index is any deck's: it reads none.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from engine.cards import Card
from vision.by_index import read_without_mat
from vision.classify import OnnxClassifier, default_model_paths
from vision.corners import index_network, read_corners
from vision.deck_profile import STRICT_MIN_TEMPLATE, ProfiledClassifier, enrol
from vision.pipeline import CardReader
from vision.preprocess import RECT_H, RECT_W
from vision.synthetic.columns import render_overlaps

pytestmark = pytest.mark.skipif(not default_model_paths()[0].is_file(), reason="needs the trained model")
COLUMN = ("7D", "KS", "QH")  # in the order laid: the 7D and KS under the QH show their indices


@pytest.fixture(scope="module")
def enrolled(faces) -> tuple[OnnxClassifier, ProfiledClassifier]:
    """The base model and a reader of the 16 faces of tests/vision/data/overlap enrolled as one deck."""
    base = OnnxClassifier()
    crops = {str(card): cv2.resize(face, (RECT_W, RECT_H), interpolation=cv2.INTER_AREA) for card, face in faces}
    profile, _report = enrol(base, [crops], "anglo")
    return base, ProfiledClassifier(base, profile)


@pytest.fixture(scope="module")
def column(faces) -> np.ndarray:
    by_name = {str(card): face for card, face in faces}
    laid = [(Card.parse(name), by_name[name]) for name in COLUMN]
    return render_overlaps(laid, np.random.default_rng(3), (900, 700), "column", 130.0, "white", turn_deg=0.0).bgr


def test_given_an_enrolled_deck_when_a_column_is_read_by_its_indices_then_as_without_the_profile(
        enrolled, column) -> None:
    base, profiled = enrolled
    by_base = sorted(str(r.card) for r in read_corners(base, column))
    assert {"7D", "KS"} <= set(by_base)  # the cards under the top one
    assert sorted(str(r.card) for r in read_corners(profiled, column)) == by_base


def test_given_an_enrolled_deck_when_a_photo_is_read_without_a_mat_then_the_cards_under_others_are_read(
        enrolled, column) -> None:
    _base, profiled = enrolled
    found = read_without_mat(CardReader(profiled), column)
    assert {"7D", "KS", "QH"} <= {str(c) for c in found.label if c is not None}


def test_given_a_strict_profile_when_an_index_is_read_alone_then_none_is(enrolled, column) -> None:
    base, profiled = enrolled
    strict = ProfiledClassifier(base, dataclasses.replace(profiled.profile, min_template=STRICT_MIN_TEMPLATE))
    assert index_network(profiled) is base and index_network(strict) is None
    assert read_corners(strict, column) == []
