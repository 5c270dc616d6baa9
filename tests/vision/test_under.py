"""A card under another with no index showing is reported, never silently dropped
(issue 31, item 2): vision.under.

The scenes are rendered with known truth (vision.synthetic.columns) from one standard
design (gnome `anglo`, tests/vision/data/overlap): a card almost covered by another (a
pile), its paper showing in a strip round the card on it, beside cards lying alone.
"""

from __future__ import annotations

import io
from pathlib import Path

import cv2
import numpy as np
import pytest

from dealer.app.commands.read import _print_text
from engine.cards import Card
from vision.by_index import read_without_mat
from vision.classify import OnnxClassifier
from vision.geometry import quad_iou
from vision.pipeline import CardReader
from vision.readings import CardDetections
from vision.synthetic.columns import OverlapScene, render_overlaps
from vision.classify import CardReading, FakeClassifier
from vision.under import cards_under, completed_cards, read_under, with_cards_under
from vision.zone_corners import zone_under

FACES = Path(__file__).parent / "data" / "overlap"
CARD_W = 150.0


@pytest.fixture(scope="module")
def classifier() -> OnnxClassifier:
    return OnnxClassifier()


@pytest.fixture(scope="module")
def faces() -> dict[str, np.ndarray]:
    found = {p.name.split("_")[0]: cv2.imread(str(p)) for p in sorted(FACES.glob("*.jpg"))}
    assert len(found) == 16 and all(img is not None for img in found.values())
    return found


def _pile(faces: dict[str, np.ndarray], table: str, seed: int, shift: tuple[float, float] = (0.13, 0.13)
          ) -> tuple[np.ndarray, OverlapScene, OverlapScene, OverlapScene]:
    """9S under 4H (shifted ``shift`` of a card's width right and down, in the card's own
    frame), and a 7D lying alone, on ``table``."""
    rng = np.random.default_rng(seed)
    turn = float(rng.uniform(-25, 25))
    under = render_overlaps([(Card.parse("9S"), faces["9S"])], rng, (1280, 720), "column", CARD_W, table,
                            centre_xy=(420, 360), turn_deg=turn)
    t = np.radians(turn)
    offset = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]]) @ (np.array(shift) * CARD_W)
    top = render_overlaps([(Card.parse("4H"), faces["4H"])], rng, (1280, 720), "column", CARD_W,
                          centre_xy=(420 + offset[0], 360 + offset[1]), turn_deg=turn, base=under.bgr)
    alone = render_overlaps([(Card.parse("7D"), faces["7D"])], rng, (1280, 720), "column", CARD_W,
                            centre_xy=(900, 360), turn_deg=float(rng.uniform(-30, 30)), base=top.bgr)
    return alone.bgr, under, top, alone


def _on(quad: np.ndarray, xy: np.ndarray) -> bool:
    return cv2.pointPolygonTest(np.asarray(quad, np.float32).reshape(-1, 1, 2), (float(xy[0]), float(xy[1])),
                                False) >= 0


@pytest.mark.parametrize("table", ["wood", "cloth", "dark"])
@pytest.mark.parametrize("seed", [1, 2])
def test_given_a_pile_when_its_top_card_is_known_then_the_card_under_it_is_reported(faces, table, seed) -> None:
    image, under, top, alone = _pile(faces, table, seed)
    found = CardDetections(quad_xy=np.concatenate([top.quad_xy, alone.quad_xy]),
                           label=[Card.parse("4H"), Card.parse("7D")], confidence=[0.99, 0.99])
    got = cards_under(image, found)
    assert len(got) == 1 and bool(got.under[0]) and got.label[0] is None and not got.is_read[0]
    centre = got.quad_xy[0].mean(axis=0)
    assert _on(under.quad_xy[0], centre)  # on the card under ...
    assert not _on(alone.quad_xy[0], centre)  # ... not on the card lying alone


@pytest.mark.parametrize("table", ["wood", "dark"])
def test_given_cards_lying_alone_when_known_then_no_card_is_under_another(faces, table) -> None:
    image, found = _two_alone(faces, table, seed=5)
    assert len(cards_under(image, found)) == 0


def _two_alone(faces: dict[str, np.ndarray], table: str, seed: int) -> tuple[np.ndarray, CardDetections]:
    """A QH and a KS lying apart on ``table``, and the two as read."""
    rng = np.random.default_rng(seed)
    a = render_overlaps([(Card.parse("QH"), faces["QH"])], rng, (1280, 720), "column", CARD_W, table,
                        centre_xy=(400, 360), turn_deg=10.0)
    b = render_overlaps([(Card.parse("KS"), faces["KS"])], rng, (1280, 720), "column", CARD_W,
                        centre_xy=(800, 360), turn_deg=-20.0, base=a.bgr)
    return b.bgr, CardDetections(quad_xy=np.concatenate([a.quad_xy, b.quad_xy]),
                                 label=[Card.parse("QH"), Card.parse("KS")])


def test_given_cards_alone_on_a_pale_table_when_looked_at_then_nothing_is_made_up(faces) -> None:
    # a table as pale as the paper reaches the picture's edge: it is no card under another
    rng = np.random.default_rng(3)
    a = render_overlaps([(Card.parse("4H"), faces["4H"])], rng, (1280, 720), "column", CARD_W, "white",
                        centre_xy=(400, 360), turn_deg=5.0)
    b = render_overlaps([(Card.parse("7D"), faces["7D"])], rng, (1280, 720), "column", CARD_W,
                        centre_xy=(800, 360), turn_deg=-15.0, base=a.bgr)
    found = CardDetections(quad_xy=np.concatenate([a.quad_xy, b.quad_xy]), label=[Card.parse("4H"), Card.parse("7D")])
    assert len(cards_under(b.bgr, found)) == 0


def test_given_a_pile_s_outline_read_as_nothing_when_its_top_card_is_read_then_the_pile_gives_way(faces) -> None:
    image, under, top, _alone = _pile(faces, "wood", 1)
    pile = np.array([under.quad_xy[0].min(axis=0), [under.quad_xy[0][:, 0].max(), under.quad_xy[0][:, 1].min()],
                     top.quad_xy[0].max(axis=0), [top.quad_xy[0][:, 0].min(), top.quad_xy[0][:, 1].max()]], np.float32)
    found = CardDetections(quad_xy=np.stack([pile, top.quad_xy[0]]), label=[None, Card.parse("4H")])
    got = with_cards_under(image, found)
    assert [str(c) for c in got.label if c is not None] == ["4H"]
    assert int(got.under.sum()) == 1 and len(got) == 2


def test_given_a_photo_of_a_pile_when_read_without_the_mat_then_the_top_card_is_read_and_the_one_under_it_too(
        faces) -> None:
    image, under, top, alone = _pile(faces, "wood", 1)
    got = read_without_mat(CardReader(OnnxClassifier()), image)
    read = sorted(str(c) for c in got.read_cards())
    flagged = [got.quad_xy[i].mean(axis=0) for i in np.flatnonzero(got.under)]
    # the 9S's index shows beside the 4H: it is read from it (issue 31), or else reported as a
    # card under another where it lies
    if "9S" in read:
        assert read == ["4H", "7D", "9S"] and not flagged
        nine = [i for i in range(len(got)) if str(got.label[i]) == "9S"]
        assert _on(under.quad_xy[0], got.quad_xy[nine[0]].mean(axis=0))
    else:
        assert read == ["4H", "7D"] and len(flagged) == 1 and _on(under.quad_xy[0], flagged[0])


def test_given_a_card_under_another_when_printed_then_it_says_so_and_json_round_trips() -> None:
    dets = CardDetections(quad_xy=np.zeros((1, 4, 2), np.float32), under=[True])
    items = dets.to_json_cards()
    assert items[0]["under"] is True and items[0]["card"] is None
    assert bool(CardDetections.from_json_cards(items).under[0])
    out = io.StringIO()
    _print_text("a.jpg", 1.0, items, out)
    assert "a card under another, no index showing" in out.getvalue()


def _column(faces: dict[str, np.ndarray], table: str, seed: int, turn: float) -> tuple[np.ndarray, OverlapScene]:
    """A 9S with a 4H laid half a card further down over it (a side branch's column), on ``table``."""
    rng = np.random.default_rng(seed)
    scene = render_overlaps([(Card.parse("9S"), faces["9S"]), (Card.parse("4H"), faces["4H"])], rng, (1280, 720),
                            "column", CARD_W, table, centre_xy=(640, 360), turn_deg=turn, step=0.5)
    return scene.bgr, scene


def _corner_gap(a: np.ndarray, b: np.ndarray) -> float:
    """The largest distance between a quad's corners and the nearest corner of another."""
    return max(float(np.min(np.linalg.norm(np.asarray(b) - p, axis=1))) for p in np.asarray(a))


def test_given_what_shows_of_a_card_when_completed_then_the_card_goes_on_under_the_card_on_it() -> None:
    turn = np.radians(30.0)
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    truth = np.array([[0, 0], [63, 0], [63, 88], [0, 88]], float) @ rot.T + (200, 100)
    shows = np.array([[0, 0], [63, 0], [63, 30], [0, 30]], float) @ rot.T + (200, 100)  # its top, the rest hidden
    (card,) = completed_cards(shows, 63.0, rot @ (0.0, 1.0))
    assert _corner_gap(card, truth) < 0.5
    # the card on it to the right (a row): the card's height shows whole, its width goes on right
    shows = np.array([[0, 0], [20, 0], [20, 88], [0, 88]], float) @ rot.T + (200, 100)
    (card,) = completed_cards(shows, 63.0, rot @ (1.0, 0.0))
    assert _corner_gap(card, truth) < 0.5
    # a strip narrower than a card across the card on it is no card's part: nothing is made up
    assert completed_cards(np.array([[0, 0], [40, 0], [40, 30], [0, 30]], float), 63.0, (0.0, 1.0)) == []
    # nor one longer than a card
    assert completed_cards(np.array([[0, 0], [63, 0], [63, 120], [0, 120]], float), 63.0, (0.0, 1.0)) == []


@pytest.mark.parametrize(("table", "seed", "turn"), [("wood", 1, 0.0), ("cloth", 2, 12.0), ("dark", 3, -20.0)])
def test_given_a_column_when_the_card_on_top_is_read_then_the_card_under_it_is_read_by_what_shows(
        faces, classifier, table, seed, turn) -> None:
    image, scene = _column(faces, table, seed, turn)
    found = CardDetections(quad_xy=scene.quad_xy[1:], label=[Card.parse("4H")], confidence=[0.99])
    under = cards_under(image, found)
    assert len(under) == 1 and bool(under.under[0])
    got = read_under(classifier, image, found, under)
    assert str(got.label[0]) == "9S" and not got.under[0] and got.is_read[0]
    assert _corner_gap(got.quad_xy[0], scene.quad_xy[0]) < 0.1 * CARD_W  # the whole card, where it lies


class _Always(FakeClassifier):
    """Reads every card given as the cards of ``names``, in turn."""

    def __init__(self, *names: str) -> None:
        self.names = names

    def classify(self, rectified_cards):  # type: ignore[no-untyped-def]
        return [CardReading(Card.parse(self.names[k % len(self.names)]), 0.99) for k in range(len(rectified_cards))]


def test_given_the_card_on_it_read_through_or_two_readings_when_read_then_the_card_under_stays_unread(faces) -> None:
    image, scene = _column(faces, "wood", 1, 0.0)
    found = CardDetections(quad_xy=scene.quad_xy[1:], label=[Card.parse("4H")], confidence=[0.99])
    under = cards_under(image, found)
    # the 4H's face, which covers the lower half of the completed card: no second 4H
    got = read_under(_Always("4H"), image, found, under)
    assert got.label[0] is None and bool(got.under[0])
    assert str(read_under(_Always("9S"), image, found, under).label[0]) == "9S"
    # a square strip fits a card standing and lying: read as two cards, it is neither
    square = CardDetections(quad_xy=np.array([[[500, 100], [620, 100], [620, 220], [500, 220]]], np.float32),
                            under=[True])
    near = CardDetections(quad_xy=np.array([[[500, 230], [620, 230], [620, 400], [500, 400]]], np.float32),
                          label=[Card.parse("4H")])
    assert read_under(_Always("9S", "2C"), image, near, square, card_wh=(120.0, 130.0)).label[0] is None


def test_given_a_zone_s_column_when_read_then_the_card_under_is_read_on_the_table_and_only_inside_the_zone(
        faces, classifier) -> None:
    image, scene = _column(faces, "cloth", 4, 0.0)
    to_table = np.diag([0.5, 0.5, 1.0])  # 2 px a mm
    card_mm = (CARD_W / 2, CARD_W / 2 * 88 / 63)
    found = CardDetections(quad_xy=scene.quad_xy[1:], label=[Card.parse("4H")], confidence=[0.99])
    zone = [(0, 0), (640, 0), (640, 360), (0, 360)]
    got = zone_under(classifier, image, found, to_table, card_mm, zone)
    assert [str(c) for c in got.label] == ["9S"] and not got.cut[0] and not got.under[0]
    assert _corner_gap(got.quad_xy[0], scene.quad_xy[0]) < 0.1 * CARD_W
    elsewhere = [(400, 0), (640, 0), (640, 360), (400, 360)]  # the zone beside: the card is not in it
    assert len(zone_under(classifier, image, found, to_table, card_mm, elsewhere)) == 0


class _Seeing(FakeClassifier):
    """Reads every card as ``name`` and keeps the pictures it was given."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.seen: list[np.ndarray] = []

    def classify(self, rectified_cards):  # type: ignore[no-untyped-def]
        self.seen.extend(rectified_cards)
        return [CardReading(Card.parse(self.name), 0.99) for _ in range(len(rectified_cards))]


def test_given_a_column_s_card_under_when_read_then_the_classifier_sees_only_what_shows_of_it(faces) -> None:
    image, scene = _column(faces, "wood", 1, 0.0)
    found = CardDetections(quad_xy=scene.quad_xy[1:], label=[Card.parse("4H")], confidence=[0.99])
    seeing = _Seeing("9S")
    nine, four = scene.quad_xy
    shows = np.array([nine[0], nine[1], [nine[1][0], four[0][1]], [nine[0][0], four[0][1]]], np.float32)  # its top
    read_under(seeing, image, found, CardDetections(quad_xy=shows[None], under=[True]))
    assert seeing.seen
    def spread(part: np.ndarray) -> float:
        return float(part.reshape(-1, 3).std(axis=0).max())

    assert len(seeing.seen) == 2  # completed towards the 4H, and the other way
    for picture in seeing.seen:
        h = picture.shape[0]
        # what the completed card does not show (the 4H's face, with its index and hearts, or the table
        # the other way) is painted the paper's colour, one colour; the 9S's top, its index and spades,
        # shows as it is
        ends = sorted([picture[int(0.62 * h):], picture[:int(0.38 * h)]], key=spread)
        assert spread(ends[0]) < 2.0 and spread(ends[1]) > 20.0


def test_given_pieces_of_paper_when_side_by_side_by_one_card_then_one_card_and_when_one_beyond_the_other_then_two(
        ) -> None:
    image = np.full((400, 400, 3), 200, np.uint8)
    on_it = CardDetections(quad_xy=np.array([[[100, 150], [163, 150], [163, 238], [100, 238]]], np.float32),
                           label=[Card.parse("4H")])

    def pieces(*boxes: tuple[int, int, int, int]) -> CardDetections:
        return CardDetections(quad_xy=np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]] for x0, y0, x1, y1 in boxes],
                                               np.float32), under=[True] * len(boxes))

    # a court card's picture reaching the card on it splits its top in two, side by side
    split = read_under(_Always("QC"), image, on_it, pieces((100, 110, 125, 150), (138, 110, 163, 150)), card_wh=(63, 88))
    assert [str(c) for c in split.label] == ["QC"] and not split.under[0]
    assert _corner_gap(split.quad_xy[0], np.array([[100, 110], [163, 110], [163, 198], [100, 198]])) < 2.0
    # two cards of a column, one strip beyond the other: never one card
    column = read_under(_Always("QC", "2D"), image, on_it, pieces((100, 60, 163, 100), (100, 105, 163, 145)),
                        card_wh=(63, 88))
    assert len(column) == 2


@pytest.mark.parametrize("table", ["wood", "dark"])
def test_given_a_white_chip_beside_the_cards_when_looked_at_then_it_is_no_card_under_another(faces, table) -> None:
    # a white poker chip is paper-grey and card-sized in part, but round: what shows of a
    # card under another is bounded by straight sides
    image, found = _two_alone(faces, table, seed=7)
    cv2.circle(image, (560, 510), int(0.4 * CARD_W), (236, 238, 240), -1, cv2.LINE_AA)
    assert len(cards_under(image, found)) == 0


@pytest.mark.parametrize("table", ["wood", "dark"])
def test_given_a_pale_streak_of_the_table_by_the_cards_when_looked_at_then_it_is_no_card_under_another(
        faces, table) -> None:
    # a streak of a pale top as bright as the paper at its middle fades into the table: what
    # shows of a card under another ends at its rim, a step down to the table (RIM_STEP)
    image, found = _two_alone(faces, table, seed=7)
    streak = np.zeros(image.shape[:2], np.float32)
    cv2.rectangle(streak, (470, 440), (730, 500), 1.0, -1)  # between the two cards' lower corners
    streak = cv2.GaussianBlur(streak, (0, 0), 0.1 * CARD_W)
    streak *= 0.97 / streak.max()
    paper = np.array([236, 238, 240], np.float32)
    image = (image * (1 - streak[..., None]) + paper * streak[..., None]).astype(np.uint8)
    assert len(cards_under(image, found)) == 0


def test_given_a_lone_card_whose_index_outline_fits_its_printed_frame_when_read_then_it_keeps_its_own(
        faces, monkeypatch) -> None:
    # a court card's printed frame lies inside its rim, and the outline its index implies may
    # be fitted to it: a whole outline a good deal smaller than the one found, as a pile's top
    # card's is. A pile's top card is a card of the deck's size; this one is smaller than the
    # KS beside it, so the QH keeps its own outline and no strip of it is a card under another
    import vision.by_index as by_index

    image, truth = _two_alone(faces, "wood", seed=5)
    queen = truth.quad_xy[0]
    fit_outline = by_index.outline_of

    def fitted_to_the_frame(bgr: np.ndarray, quad: np.ndarray) -> by_index.OutlineFit:
        if not _on(queen, np.asarray(quad, np.float64).mean(axis=0)):
            return fit_outline(bgr, quad)
        centre = queen.mean(axis=0)
        return by_index.OutlineFit((centre + 0.85 * (queen - centre)).astype(np.float32), (1.0, 1.0, 1.0, 1.0))

    monkeypatch.setattr(by_index, "outline_of", fitted_to_the_frame)
    got = read_without_mat(CardReader(OnnxClassifier()), image)
    queens = [i for i in range(len(got)) if str(got.label[i]) == "QH"]
    assert len(queens) == 1 and quad_iou(got.quad_xy[queens[0]], queen) > 0.9
    assert not got.under.any()


@pytest.mark.parametrize("table", ["wood", "dark"])
def test_given_a_whole_card_beside_a_card_read_when_not_found_then_it_is_a_card_not_read_not_one_under_another(
        faces, table) -> None:
    rng = np.random.default_rng(7)
    a = render_overlaps([(Card.parse("QH"), faces["QH"])], rng, (1280, 720), "column", CARD_W, table,
                        centre_xy=(400, 360), turn_deg=5.0)
    b = render_overlaps([(Card.parse("KS"), faces["KS"])], rng, (1280, 720), "column", CARD_W,
                        centre_xy=(600, 360), turn_deg=-8.0, base=a.bgr)
    found = CardDetections(quad_xy=a.quad_xy, label=[Card.parse("QH")])  # the KS not found at all
    assert len(cards_under(b.bgr, found)) == 1  # its paper is found ...
    got = with_cards_under(b.bgr, found)
    assert len(got) == 2 and not got.under.any() and got.label[1] is None  # ... as a card lying there unread
    assert _on(b.quad_xy[0], got.quad_xy[1].mean(axis=0))
    image, under, top, alone = _pile(faces, table, 1)  # a strip of a card under another stays one
    piled = with_cards_under(image, CardDetections(quad_xy=np.concatenate([top.quad_xy, alone.quad_xy]),
                                                   label=[Card.parse("4H"), Card.parse("7D")]))
    assert int(piled.under.sum()) == 1
