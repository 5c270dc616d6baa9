"""vision.corners: overlapped columns and fans read by an index corner alone.

The scenes are rendered with known truth (vision.synthetic.columns) from one standard
design (gnome `anglo`, tests/vision/data/overlap); the model is the shipped one.
"""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from dealer.app import cli
from engine.cards import Card
from vision.classify import FakeClassifier, OnnxClassifier
from vision.corners import (
    CornerProposal,
    CornerReading,
    card_quad_of,
    merge_corners,
    propose_corners,
    read_corners,
    score_proposals,
    with_corner_cards,
)
from vision.index_reader import IndexReadings
from vision.readings import CardDetections
from vision.synthetic.columns import OverlapScene, render_overlaps



@pytest.fixture(scope="module")
def model() -> OnnxClassifier:
    return OnnxClassifier()


def _scene(faces: list[tuple[Card, np.ndarray]], seed: int) -> tuple[np.ndarray, list[OverlapScene]]:
    """A column of 4 and a fan of 4 on one table (800 x 600, cards 150 px wide)."""
    rng = np.random.default_rng(seed)
    pick = rng.permutation(len(faces))
    table = ("white", "wood", "cloth", "paper")[seed % 4]
    column = render_overlaps([faces[i] for i in pick[:4]], rng, (800, 600), "column", 150, table,
                             centre_xy=(230, 300))
    fan = render_overlaps([faces[i] for i in pick[4:8]], rng, (800, 600), "fan", 150, table,
                          centre_xy=(590, 420), base=column.bgr)
    return fan.bgr, [column, fan]


def test_given_overlapping_columns_and_fans_when_read_by_corners_then_most_read_and_none_wrong(
        faces, model, score_corners) -> None:
    read = shown = 0
    wrong: list[str] = []
    for seed in range(4):  # four tables: white, wood, cloth, paper
        image, parts = _scene(faces, seed)
        r, s, w = score_corners(read_corners(model, image), parts)
        read, shown = read + r, shown + s
        wrong += w
    assert shown >= 20  # the scenes hold enough overlapped cards to measure
    assert wrong == []
    assert read >= 0.8 * shown, f"{read} of {shown} cards whose index shows were read"


def test_given_a_column_photo_when_eleusis_read_then_the_cards_under_others_are_listed(
        faces, tmp_path, capsys) -> None:
    """Fails without the corner reader: the outline reader finds none of the cards under
    the top one (and often not the top one either: the column is one outline)."""
    rng = np.random.default_rng(11)
    column = render_overlaps(faces[:5], rng, (800, 600), "column", 150, "wood", centre_xy=(400, 300),
                             turn_deg=20.0)
    path = tmp_path / "column.png"
    cv2.imwrite(str(path), column.bgr)
    assert cli.main(["read", str(path), "--json"]) == 0
    cards = json.loads(capsys.readouterr().out.strip().splitlines()[0])["cards"]
    named = [Card.parse(c["card"]) for c in cards if c["card"]]
    under = [c for c, shows in zip(column.cards[:-1], column.index_shows[:-1], strict=True) if shows]
    assert len(under) == 4
    assert sum(c in named for c in under) >= 3, f"read {named}, under others {under}"
    assert all(c in column.cards for c in named), f"read {named}, on the table {column.cards}"
    # the shoe (C1) counts the cards read by an index too: one deck and a known copy
    first = next(c for c in under if c in named)
    assert cli.main(["read", str(path), "--json", "--decks", "1", "--known", str(first)]) == 0
    again = json.loads(capsys.readouterr().out.strip().splitlines()[0])["cards"]
    assert str(first) not in [c["card"] for c in again]
    assert any(c.get("over_shoe") and c.get("misread") == str(first) for c in again), again


def test_given_an_upright_index_when_proposed_then_down_is_the_card_s_down_and_the_box_holds_it(faces) -> None:
    rng = np.random.default_rng(3)
    scene = render_overlaps([faces[0]], rng, (500, 500), "column", 150, "white", centre_xy=(250, 250),
                            turn_deg=0.0)
    x, y = scene.index_xy[0]
    near = [p for p in propose_corners(scene.bgr)
            if abs(p.rank_xy[0] - x) < 12 and abs(p.rank_xy[1] - y) < 30]
    assert any(p.down[1] > 0.95 for p in near), [p.down for p in near]
    upright = next(p for p in near if p.down[1] > 0.95)
    quad = card_quad_of(CornerReading(scene.cards[0], 0.9, upright))
    # the implied card starts at the real card's top-left corner, give or take a glyph
    assert np.hypot(*(quad[0] - scene.quad_xy[0][0])) < 25


def _reading(card: str, xy: tuple[float, float], down: tuple[float, float], confidence: float = 0.9) -> CornerReading:
    return CornerReading(Card.parse(card), confidence, CornerProposal(xy, down, 0.5))


def test_given_two_cards_read_at_one_index_when_merged_then_neither_stands() -> None:
    merged = merge_corners([_reading("6S", (100, 100), (0, 1), 0.9), _reading("9S", (102, 101), (0, 1), 0.8),
                            _reading("QH", (300, 300), (0, 1))])
    assert [str(r.card) for r in merged] == ["QH"]


def test_given_fanned_neighbours_indices_side_by_side_when_merged_then_both_stand() -> None:
    # two cards' indices 18 px apart across "down" (closer than 1.2 rank-to-suit distances,
    # 16.5 px here): separate glyphs, so two cards
    merged = merge_corners([_reading("3D", (100, 100), (1, 0), 0.9), _reading("7C", (100, 118), (1, 0), 0.8)])
    assert sorted(str(r.card) for r in merged) == ["3D", "7C"]
    # a third reading pairing 3D's rank with 7C's suit shares a glyph with each: a doubt
    # at both indices, so none stands
    cross = _reading("3C", (100, 100), (0.45, 0.89), 0.85)
    assert merge_corners([_reading("3D", (100, 100), (1, 0), 0.9), _reading("7C", (100, 118), (1, 0), 0.8),
                          cross]) == []


def test_given_one_card_read_at_both_its_indices_when_merged_then_one_card() -> None:
    top = _reading("7D", (100, 100), (0, 1))
    quad = card_quad_of(top)
    # the other index: the same offset from the opposite corner, turned 180 degrees
    other_xy = tuple(quad[2] - (np.asarray(top.proposal.rank_xy) - quad[0]))
    merged = merge_corners([top, _reading("7D", (float(other_xy[0]), float(other_xy[1])), (0, -1), 0.85)])
    assert len(merged) == 1
    # the same card elsewhere (a second deck's copy) is another card
    assert len(merge_corners([top, _reading("7D", (400, 100), (0, 1), 0.85)])) == 2


def test_given_a_card_s_two_indices_sizing_it_differently_when_merged_then_one_card() -> None:
    # a 6C on the 720p webcam clip: its bottom-right index, read surer, implies a card 40 %
    # bigger than its top-left one does; seen from the smaller, the other index lies at its corner
    bottom = CornerReading(Card.parse("6C"), 0.89, CornerProposal((272.8, 169.7), (0.08, -1.0), 0.396))
    top = CornerReading(Card.parse("6C"), 0.77, CornerProposal((225.2, 105.6), (-0.14, 0.99), 0.286))
    assert len(merge_corners([bottom, top])) == 1


def test_given_a_classifier_without_a_corner_head_when_reading_corners_then_none_and_whole_cards_kept() -> None:
    image = np.full((200, 300, 3), 220, np.uint8)
    cv2.putText(image, "7", (40, 60), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 0, 0), 2)
    whole = CardDetections(quad_xy=[[[0, 0], [10, 0], [10, 10], [0, 10]]], label=[Card.parse("KS")])
    assert read_corners(FakeClassifier(), image) == []
    assert with_corner_cards(FakeClassifier(), image, whole) is whole


def test_given_two_pips_of_one_shape_when_proposing_then_no_index_but_a_rank_over_a_pip_is_one() -> None:
    pips = np.full((200, 200, 3), 225, np.uint8)
    for y in (60, 84):  # two like pips a pip apart, as on a card's face
        cv2.circle(pips, (100, y), 6, (30, 30, 30), -1)
    assert propose_corners(pips) == []
    index = np.full((200, 200, 3), 225, np.uint8)
    cv2.putText(index, "7", (94, 66), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (30, 30, 30), 2)
    cv2.circle(index, (100, 84), 6, (30, 30, 30), -1)
    downs = [p.down for p in propose_corners(index)]
    assert any(d[1] > 0.9 for d in downs), downs  # the 7 over the pip: "down" points down


class _WayUpReader:
    """An index reader that reads a pair of glyphs one way up as a sure card that is no
    index and the other way up as a less sure card that is one (by the box's ink: the
    glyph drawn darker lies at the top of the box read upright)."""

    def read(self, boxes: np.ndarray) -> IndexReadings:
        n = len(boxes)
        grey = boxes.mean(axis=3)
        upright = grey[:, : grey.shape[1] // 2].mean(axis=(1, 2)) < grey[:, grey.shape[1] // 2:].mean(axis=(1, 2))
        rank, suit = np.full((n, 13), 0.01), np.full((n, 4), 0.01)
        rank[:, 2], suit[:, 2] = np.where(upright, 0.66, 0.0), 1.0  # 3H upright
        rank[:, 0] = np.where(upright, 0.0, 0.87)  # the ace the other way up, read surer
        return IndexReadings(rank, suit, np.where(upright, 0.6, 0.0))


def test_given_two_ways_up_of_one_pair_when_they_disagree_then_both_are_looked_at() -> None:
    image = np.full((200, 200, 3), 235, np.uint8)
    cv2.rectangle(image, (90, 62), (110, 82), (20, 20, 20), -1)  # the rank, dark
    cv2.rectangle(image, (90, 95), (110, 115), (120, 120, 120), -1)  # the suit under it, lighter
    down = CornerProposal((100.0, 72.0), (0.0, 1.0), 1.0)  # one pair of glyphs, 33 px apart ...
    up = CornerProposal((100.0, 105.0), (0.0, -1.0), 1.0)  # ... taken the other way up
    kept, readings = score_proposals(_WayUpReader(), image, [down, up])  # type: ignore[arg-type]
    assert len(kept) == 2  # the surer rank and suit, and the one the reader takes for an index
    assert {round(p.down[1]) for p in kept} == {1, -1}
    assert max(readings.index) > 0.5
