"""The observer: the table in millimetres from a rendered frame, with the real card
detector (a fake classifier), the real marker and token finding."""

import numpy as np
import pytest

from calibration.layout import default_layout
from vision.synthetic import CardPlacement, PinholeView, TokenPlacement
from vision.synthetic import render_table_scene as render_scene
from dealer.table.observer import TableObserver
from dealer.table.protocol import TableToken
from engine.cards import Card
from vision.classify import CardReading, FakeClassifier
from vision.geometry import card_sized_mm
from vision.pipeline import CardReader

VIEW = PinholeView(tilt_deg=62.0, distance_mm=430.0, target_mm=(132.5, 95.0), size_wh=(1280, 720))


@pytest.mark.parametrize(
    ("w", "h", "card"),
    [(63, 88, True), (70, 95, True), (88, 63, True), (190, 265, False), (40, 60, False), (63, 150, False)],
)
def test_card_sized_accepts_about_63_by_88_mm(w: float, h: float, card: bool) -> None:
    quad = np.array([[0, 0], [w, 0], [w, h], [0, h]], float)
    assert card_sized_mm(quad) is card


def test_cards_in_the_play_zone_are_found_but_not_the_mat_or_a_token() -> None:
    # given two drawn cards in the play zone and the NO PLAY token beside them
    cards = (CardPlacement("4C", (60.0, 95.0), 3.0), CardPlacement("9H", (135.0, 95.0), -4.0))
    scene = render_scene(default_layout(), VIEW, (TokenPlacement("no_play", (226.0, 95.0), 5.0),), cards,
                         rng=np.random.default_rng(1))
    reader = CardReader(FakeClassifier(lambda img, i: CardReading(Card.parse("4C"), 0.99)))
    # when the observer looks at the frame
    obs = TableObserver(default_layout(), reader).observe(scene.frame_bgr, 0.0, 0)
    # then exactly the two cards lie in the play zone, at their places within 10 mm, and the token is seen
    assert obs.view is not None
    found = sorted((c.x_mm, c.y_mm) for c in obs.view.play_cards)
    assert len(found) == 2
    for (x, y), placed in zip(found, cards):
        assert abs(x - placed.centre_mm[0]) < 10 and abs(y - placed.centre_mm[1]) < 10
    assert set(obs.view.tokens_in_play) == {TableToken.NO_PLAY}


def test_without_the_mat_there_is_no_view() -> None:
    reader = CardReader(FakeClassifier())
    obs = TableObserver(default_layout(), reader).observe(np.full((720, 1280, 3), 90, np.uint8), 0.0, 0)
    from dealer.table.turn_input import Unseen

    assert obs.view is None and obs.unseen is Unseen.NO_MAT and obs.message


@pytest.mark.parametrize(("margin", "readable"), [(1.08, True), (0.93, False)])
def test_the_line_is_read_exactly_where_calibrate_says_it_is_readable(margin: float, readable: bool) -> None:
    # given the whole empty mat seen from above a little finer (readable) or a little coarser
    # (not quite) than the reader reads whole cards, as its main line's cards lie (2.1 px/mm
    # at the line's far corner from 700 mm)
    from calibration.check import reader_px_per_mm, zone_sights
    from calibration.layout import ZONE_MAIN_LINE

    distance_mm = 700.0 * 2.1 / (reader_px_per_mm() * margin)
    view = PinholeView(tilt_deg=89.0, distance_mm=distance_mm, target_mm=(132.5, -90.0), size_wh=(1920, 1080))
    scene = render_scene(default_layout(), view, (), (), rng=np.random.default_rng(2))
    sights = zone_sights(scene.table_to_px, view.size_wh, default_layout())
    assert sights[ZONE_MAIN_LINE].readable is readable
    # when the observer looks, then it reads the main line only where `calibrate table` says it can (issue 7)
    obs = TableObserver(default_layout(), CardReader(FakeClassifier())).observe(scene.frame_bgr, 0.0, 0)
    assert obs.view is not None
    assert (obs.view.line is not None) is sights[ZONE_MAIN_LINE].readable


def test_a_nudged_camera_is_read_only_once_the_mat_is_found_again() -> None:
    # given the observer locked on the mat, with a card in the play zone
    cards = (CardPlacement("4C", (90.0, 95.0), 3.0),)
    reader = CardReader(FakeClassifier(lambda img, i: CardReading(Card.parse("4C"), 0.99)))
    observer = TableObserver(default_layout(), reader)
    still = render_scene(default_layout(), VIEW, (), cards, rng=np.random.default_rng(3)).frame_bgr
    for k in range(3):
        assert observer.observe(still, 0.5 * k, k).view is not None
    # when the camera turns a little (the zones are now ~50 px from where the kept homography puts them)
    from dataclasses import replace

    nudged = replace(VIEW, yaw_deg=VIEW.yaw_deg + 2.0, target_mm=(VIEW.target_mm[0] + 12.0, VIEW.target_mm[1]))
    moved = render_scene(default_layout(), nudged, (), cards, rng=np.random.default_rng(3)).frame_bgr
    seen = [observer.observe(moved, 1.5 + 0.5 * k, 3 + k) for k in range(6)]
    # then the frames before the move is confirmed give no view (nothing is read where the zones were)
    assert seen[0].view is None and "odd frame" in seen[0].message
    # and once re-anchored, the card is seen in the play zone at its place again
    later = [o for o in seen if o.view is not None]
    assert later and "moved" in later[0].message
    (card,) = later[-1].view.play_cards
    assert abs(card.x_mm - 90.0) < 10 and abs(card.y_mm - 95.0) < 10


def test_a_camera_turned_off_the_play_zone_gives_no_view_and_says_why() -> None:
    # given a camera aimed 13 cm off the mat's play zone (half of it out of the frame)
    from dataclasses import replace

    from dealer.table.observer import PLAY_ZONE_NOT_WHOLE

    off = replace(VIEW, target_mm=(VIEW.target_mm[0], VIEW.target_mm[1] - 130.0))
    frame = render_scene(default_layout(), off, (), (CardPlacement("4C", (90.0, 95.0), 3.0),),
                         rng=np.random.default_rng(4)).frame_bgr
    reader = CardReader(FakeClassifier(lambda img, i: CardReading(Card.parse("4C"), 0.99)))
    obs = TableObserver(default_layout(), reader).observe(frame, 0.0, 0)
    # then nothing is read there, the reason is typed (the words are made at the outlet), and
    # the log's message says the play zone is not whole in view
    from dealer.table.turn_input import Unseen

    assert obs.view is None and obs.unseen is Unseen.ZONE_OUT, obs
    assert obs.message.startswith(PLAY_ZONE_NOT_WHOLE), obs.message


def test_the_observer_tells_a_camera_that_moves_from_a_hand_that_moves() -> None:
    # given the observer locked on a still mat
    from vision.synthetic import HandPlacement
    from vision.synthetic.sway import moved_picture

    reader = CardReader(FakeClassifier(lambda img, i: CardReading(Card.parse("4C"), 0.99)))
    observer = TableObserver(default_layout(), reader)
    still = render_scene(default_layout(), VIEW, (), (), rng=np.random.default_rng(3)).frame_bgr
    for k in range(3):
        observer.observe(still, k / 10.0, k)
    # when a hand moves over the play zone, the camera has not moved
    for k, x in enumerate((80.0, 120.0, 160.0)):
        hand = render_scene(default_layout(), VIEW, (), (), rng=np.random.default_rng(3),
                            hands=(HandPlacement((x, 90.0), 5.0),)).frame_bgr
        observer.observe(hand, 0.3 + k / 10.0, 3 + k)
    assert not observer.camera_moved_within(0.5, 1.0)
    # when the whole picture moves by 3 px, it has
    moved = moved_picture(still, 3.0, 1.0)
    observer.observe(moved, 0.6, 6)
    assert observer.camera_moved_within(0.6, 1.0) and not observer.camera_moved_within(2.0, 1.0)


def test_an_arm_held_across_the_play_zone_is_a_hand_over_it_not_a_thing_to_ask_about() -> None:
    # given the observer that has learned the empty play zone, two cards then laid in it
    from vision.synthetic import HandPlacement

    reader = CardReader(FakeClassifier(lambda img, i: CardReading(Card.parse("4C"), 0.99)))
    observer = TableObserver(default_layout(), reader)
    cards = (CardPlacement("4C", (60.0, 95.0), 3.0), CardPlacement("9H", (190.0, 95.0), -4.0))
    for k in range(3):
        observer.observe(render_scene(default_layout(), VIEW, (), (), rng=np.random.default_rng(5)).frame_bgr,
                         k / 10.0, k)
    for k in range(3, 5):
        observer.observe(render_scene(default_layout(), VIEW, (), cards, rng=np.random.default_rng(5)).frame_bgr,
                         k / 10.0, k)
    # when a player's arm reaches across the play zone to the main line beyond it, and rests there
    arm = render_scene(default_layout(), VIEW, (), cards, rng=np.random.default_rng(5),
                       hands=(HandPlacement((120.0, -250.0), -5.0, reach_mm=650.0),)).frame_bgr
    views = [observer.observe(arm, k / 10.0, k).view for k in range(5, 9)]
    # then the dealer sees a hand over the zone in every frame, still or not, and nothing to ask about
    assert all(v is not None and v.hand_over_play and not v.unexplained_in_play for v in views)
    # and when the arm is gone, the two cards lie there again
    back = [observer.observe(render_scene(default_layout(), VIEW, (), cards, rng=np.random.default_rng(5)).frame_bgr,
                             k / 10.0, k).view for k in range(9, 12)]
    assert back[-1] is not None and not back[-1].hand_over_play and len(back[-1].play_cards) == 2


def test_once_the_mats_markers_are_seen_large_the_frame_is_searched_at_half_resolution(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import dealer.table.observer as observer_module
    from calibration.markers import detect_markers

    scales: list[float] = []

    def recording(frame: np.ndarray, dictionary: str, min_side_px: float | None = None,
                  scale: float = 1.0) -> object:
        scales.append(scale)
        return detect_markers(frame, dictionary, min_side_px=min_side_px, scale=scale)

    monkeypatch.setattr(observer_module, "detect_markers", recording)
    layout = default_layout()
    # the whole layout at 1920x1080: the mat's markers ~50-70 px a side, ~25-35 at half
    view = PinholeView(tilt_deg=62.0, distance_mm=750.0, target_mm=(132.5, -40.0), size_wh=(1920, 1080))
    frame = render_scene(layout, view, (), (), rng=np.random.default_rng(4)).frame_bgr
    observer = TableObserver(layout, CardReader(FakeClassifier()))
    seen = [observer.observe(frame, t, i) for i, t in enumerate((0.0, 1.1, 2.2))]
    assert scales == [1.0, 0.5, 0.5]  # the first look (no mat yet) at full resolution
    assert all(s.view is not None for s in seen)
    # the homography the half-resolution looks keep is the full one's, to a fraction of a pixel
    first, last = seen[0].homography, seen[-1].homography
    assert first is not None and last is not None
    corners = np.array([[0.0, 0.0], [265.0, 0.0], [265.0, 190.0], [0.0, 190.0]])
    assert np.abs(first.to_px(corners) - last.to_px(corners)).max() < 0.5
