"""The central detections record: shapes checked, masks select, JSON round trip."""

import json

import numpy as np
import pytest

from engine.cards import Card, parse_cards
from vision.errors import DetectionsShapeError
from vision.readings import CardDetections


def _three() -> CardDetections:
    quads = np.arange(24, dtype=np.float32).reshape(3, 4, 2)
    return CardDetections(quads, label=[Card.parse("QS"), None, Card.parse("10H")],
                          confidence=np.array([0.9, 0.3, 0.8], np.float32), cut=[False, False, True])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"quad_xy": np.zeros((2, 3, 2))}, r"quad_xy must have shape \(n, 4, 2\), got \(2, 3, 2\)"),
        ({"quad_xy": np.zeros((2, 4, 2)), "confidence": np.zeros(3)}, r"confidence must have shape \(2,\)"),
        ({"quad_xy": np.zeros((1, 4, 2)), "label": ["QS"]}, r"label\[0\] must be a Card or None, got 'QS'"),
        ({"quad_xy": np.zeros((1, 4, 2)), "confidence": [1.5]}, r"confidence must lie in \[0, 1\]"),
        ({"quad_xy": np.zeros((2, 4, 2)), "cut": [True]}, r"cut must have shape \(2,\)"),
    ],
)
def test_given_mismatched_arrays_when_built_then_the_error_states_expected_and_actual(kwargs, message) -> None:
    with pytest.raises(DetectionsShapeError, match=message):
        CardDetections(**kwargs)


def test_given_a_record_when_masked_then_a_new_record_holds_the_selected_rows() -> None:
    dets = _three()
    picked = dets[np.array([True, False, True])]
    assert len(picked) == 2 and picked.label.tolist() == [Card.parse("QS"), Card.parse("10H")]
    assert np.array_equal(picked.quad_xy, dets.quad_xy[[0, 2]])
    assert len(dets) == 3  # the original is untouched


def test_given_a_mask_of_the_wrong_length_when_indexing_then_it_is_refused() -> None:
    with pytest.raises(DetectionsShapeError, match=r"mask must have shape \(3,\)"):
        _three()[np.array([True, False])]


def test_given_unread_and_cut_cards_when_listing_read_cards_then_only_sure_whole_cards_count() -> None:
    assert _three().read_cards() == [Card.parse("QS")]


def test_given_a_record_when_written_as_json_and_parsed_back_then_it_round_trips() -> None:
    dets = _three()
    items = json.loads(json.dumps(dets.to_json_cards()))
    assert [item["card"] for item in items] == ["QS", None, None]
    assert items[2]["cut"] is True and "cut" not in items[0]
    back = CardDetections.from_json_cards(items)
    assert np.allclose(back.quad_xy, dets.quad_xy) and back.cut.tolist() == [False, False, True]
    assert back.label[0] == Card.parse("QS") and back.label[1] is None


def test_given_an_unread_card_with_what_it_may_be_then_the_json_keeps_it_and_parses_it_back() -> None:
    dets = CardDetections(np.zeros((2, 4, 2)), label=[Card.parse("4D"), None], confidence=[0.99, 0.6],
                          maybe=[None, frozenset(parse_cards("8S 8C"))])
    items = json.loads(json.dumps(dets.to_json_cards()))
    assert "maybe" not in items[0] and items[1]["maybe"] == ["8C", "8S"]
    back = CardDetections.from_json_cards(items)
    assert back.maybe[0] is None and back.maybe[1] == frozenset(parse_cards("8C 8S"))


def test_given_an_over_shoe_card_when_written_then_card_is_null_and_the_doubt_is_kept() -> None:
    dets = CardDetections(np.zeros((1, 4, 2)), label=list(parse_cards("7H")), confidence=[0.99],
                          over_shoe=[True])
    (item,) = dets.to_json_cards()
    assert item["card"] is None and item["over_shoe"] is True and item["misread"] == "7H"


def test_given_quads_when_asking_geometry_then_centre_and_area_follow() -> None:
    square = np.array([[[0, 0], [10, 0], [10, 20], [0, 20]]], np.float32)
    dets = CardDetections(square)
    assert dets.center_xy.tolist() == [[5.0, 10.0]] and dets.area_px.tolist() == [200.0]


def test_given_nothing_when_empty_then_all_arrays_are_empty_and_concatenate_works() -> None:
    both = CardDetections.concatenate([CardDetections.empty(), _three()])
    assert len(CardDetections.empty()) == 0 and len(both) == 3


def test_given_new_outlines_when_taken_then_every_other_column_is_kept() -> None:
    quad = np.array([[[0, 0], [10, 0], [10, 14], [0, 14]]], np.float32)
    found = CardDetections(quad, [Card.parse("7D")], [0.9], face_down=[False], cut=[True], over_shoe=[True],
                           maybe=[frozenset({Card.parse("7D"), Card.parse("7H")})], under=[True])
    moved = found.with_quads(quad * 2)
    assert moved.quad_xy[0, 2].tolist() == [20.0, 28.0] and found.quad_xy[0, 2].tolist() == [10.0, 14.0]
    assert moved.to_json_cards() != found.to_json_cards()
    for name in ("label", "confidence", "face_down", "cut", "over_shoe", "maybe", "under"):
        assert getattr(moved, name).tolist() == getattr(found, name).tolist(), name
