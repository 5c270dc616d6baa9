"""The view of the table: what the picture shows (from pixels), and the window under Xvfb."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from dealer.screen import table_view
from dealer.screen.table_view import (
    VERDICT_COLOURS,
    CameraPicture,
    SeenOutline,
    ViewState,
    TableWindow,
    render_view,
    view_of_round,
    x_display_answers,
)
from engine.judging import judge_text
from engine.rules import resolve_rule

ROOT = Path(__file__).resolve().parents[3]
WORKED = (ROOT / "examples" / "worked-example.eleusis").read_text(encoding="utf-8")


def _state(verdict_kind: str = "rejected") -> ViewState:
    """The worked example (line 7H 4C 9H, QD a branch under 7H), a camera frame with one card read."""
    rnd = judge_text(WORKED, resolve_rule).round
    frame = np.full((360, 640, 3), 90, np.uint8)
    camera = CameraPicture(frame, (SeenOutline(((300, 120), (360, 120), (360, 200), (300, 200)), "9H", 0.97),),
                           (("play", ((200, 80), (460, 80), (460, 260), (200, 260))),))
    return view_of_round(rnd, ViewState(camera=camera, verdict="Бо играет 4♣ и 9♥: принято.",
                                        verdict_kind=verdict_kind, seal="ab" * 32, title="Round 1 of 3"))


def _band_colour(picture: np.ndarray) -> tuple[int, int, int]:
    """The median RGB of the verdict band's left margin (under no text)."""
    b, g, r = np.median(picture[10:120, 2:20].reshape(-1, 3), axis=0)
    return int(r), int(g), int(b)


def _card_faces(picture: np.ndarray) -> int:
    """White card-sized blobs below the camera view (the engine's layout, drawn as cards)."""
    h, w = picture.shape[:2]
    region = picture[int(h * 0.62):, : int(w * 0.70)]
    white = np.all(region > 235, axis=2).astype(np.uint8)
    count, _labels, stats, _ = cv2.connectedComponentsWithStats(white)
    area = h * w / 1000  # a card is over a thousandth of the picture, a letter is far less
    return int(sum(1 for k in range(1, count) if stats[k, cv2.CC_STAT_AREA] > area))


@pytest.mark.parametrize("kind", ["accepted", "rejected", "trouble"])
def test_the_verdict_band_has_the_verdicts_colour(kind: str) -> None:
    colour = _band_colour(render_view(_state(kind)))
    assert np.abs(np.subtract(colour, VERDICT_COLOURS[kind])).max() <= 3


def test_the_main_line_and_branches_are_drawn_as_cards() -> None:
    # given 7H 4C 9H on the main line and QD under 7H, then four card faces are drawn
    picture = render_view(_state())
    assert _card_faces(picture) == 4
    # and with one more card on the line, five
    rnd = judge_text(WORKED + "Cy: play 2S\n", resolve_rule).round
    assert _card_faces(render_view(view_of_round(rnd, _state()))) == 5
    # and with no round, none
    assert _card_faces(render_view(replace(_state(), round=None))) == 0


def test_the_camera_view_shows_the_cards_outline_in_green() -> None:
    picture = render_view(_state())
    green = np.all(np.abs(picture.astype(int) - (40, 220, 40)) <= 10, axis=2)  # BGR of the outline
    camera = _state().camera
    assert camera is not None
    unsure = render_view(replace(_state(), camera=replace(camera, cards=(
        SeenOutline(((300, 120), (360, 120), (360, 200), (300, 200)), None, 0.2),))))
    red = np.all(np.abs(unsure.astype(int) - (40, 40, 240)) <= 10, axis=2)
    assert green.sum() > 500 and red.sum() > 500


def _xvfb() -> tuple[subprocess.Popen[bytes], str]:
    """A private X server on a free display number (Xvfb picks it: -displayfd)."""
    read, write = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1600x1000x24", "-nolisten", "tcp"],
                            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as stream:
        number = stream.readline().strip()
    return proc, f":{number}"


SHOW = """
import sys, time, cv2
from pathlib import Path
from dealer.screen.table_view import TableWindow
picture = cv2.imread(sys.argv[1])
window = TableWindow(headless=False)
window.show(picture)
for _ in range(10):
    cv2.waitKey(20)
Path(sys.argv[2]).write_text("shown")
end = time.monotonic() + 300  # the test stops it once it has looked; this is only a safety net
while time.monotonic() < end:
    cv2.waitKey(50)
"""


@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed (apt install xvfb)")
def test_the_window_shows_the_view_on_a_display(tmp_path: Path) -> None:
    from PIL import ImageGrab

    picture_path = tmp_path / "view.png"
    cv2.imwrite(str(picture_path), render_view(_state("rejected")))
    server, display = _xvfb()
    shower = None
    try:
        assert x_display_answers(display)
        env = dict(os.environ, DISPLAY=display, PYTHONPATH=str(ROOT))
        shown = tmp_path / "shown"
        log = (tmp_path / "window.log").open("wb")
        shower = subprocess.Popen([sys.executable, "-c", SHOW, str(picture_path), str(shown)], env=env,
                                  stdout=log, stderr=log)
        for _ in range(600):  # starting Qt takes seconds, a minute on a loaded machine
            if shown.exists() or shower.poll() is not None:
                break
            time.sleep(0.1)
        red = np.zeros((1, 1), bool)
        for _ in range(240):  # then the window is drawn (two minutes at most on a loaded machine)
            time.sleep(0.5)
            shot = np.asarray(ImageGrab.grab(xdisplay=display).convert("RGB")).astype(int)
            red = np.all(np.abs(shot - VERDICT_COLOURS["rejected"]) <= 12, axis=2)
            if red.sum() > 20000 or shower.poll() is not None:
                break
        assert red.sum() > 20000, ("no window with the red verdict band on the screen: "
                                   + (tmp_path / "window.log").read_text(errors="replace")[-2000:])
        # the band is the top of the view: under it, the green table and white cards
        rows = np.nonzero(red.sum(axis=1) > 200)[0]
        cols = np.nonzero(red.sum(axis=0) > 20)[0]
        window = shot[rows.min():, cols.min():cols.max() + 1]
        white = np.all(window > 235, axis=2)
        assert white.sum() > 2000, "no card faces under the verdict band"
        band_h = rows.max() - rows.min()
        assert 0.08 < band_h / (window.shape[1] * 9 / 16) < 0.2  # the band is about 13% of the view's height
    finally:
        if shower is not None:
            shower.kill()
            shower.wait()
            log.close()
        server.kill()
        server.wait()


def test_keys_pressed_in_the_window_come_before_the_terminals() -> None:
    from dealer.screen.table_view import TableWindow

    window = TableWindow(headless=True)
    terminal = iter(["n\n", ""])
    poll = window.key_source(lambda: next(terminal))
    window._take_key(ord("u"))  # as cv2.waitKey gives a key pressed in the window
    window._take_key(-1)  # nothing pressed
    assert [poll(), poll(), poll()] == ["u", "n\n", ""]


def test_a_display_that_does_not_answer_gives_a_headless_view_not_an_abort(monkeypatch: pytest.MonkeyPatch) -> None:
    # given DISPLAY naming an X server that is not there (Qt would abort the whole dealer on it)
    monkeypatch.setenv("DISPLAY", ":987")
    assert not x_display_answers(":987")
    # when a window is asked for, then the view runs headless and says why
    window = TableWindow(headless=False)
    assert window.headless and "no X display answers at DISPLAY=':987'" in window.why_headless
    window.show(np.zeros((8, 8, 3), np.uint8))  # shows nothing, and returns


@pytest.mark.parametrize(("name", "kind"), [("view-rejected", "rejected"), ("view-no-play", "noplay"),
                                            ("view-round-over", "accepted"), ("view-ru", "rejected")])
def test_the_screenshots_in_the_docs_show_their_moment(name: str, kind: str) -> None:
    # the README's pictures of the demo round: each one's verdict band has its verdict's colour,
    # and the engine's layout is drawn below the camera view as cards
    picture = cv2.imread(str(ROOT / "docs" / "img" / f"{name}.jpg"))
    assert picture is not None and picture.shape[:2] == (720, 1280)
    assert np.abs(np.subtract(_band_colour(picture), VERDICT_COLOURS[kind])).max() <= 12
    assert _card_faces(picture) >= 3


def test_a_long_side_branch_is_drawn_to_its_last_card(monkeypatch: pytest.MonkeyPatch) -> None:
    # given rejected plays of 1 + 3 + 3 cards all hanging under 9H, the end of the line (P4)
    record = WORKED + "Cy: play 2H 3H 4H\nAna: play 5D 6D 8D\n"
    rnd = judge_text(record, resolve_rule).round
    hanging = sum(len(b.cards) for b in rnd.state().layout.branches)
    drawn: list[str] = []
    real_draw = table_view._draw_card

    def counting(draw: Any, card: Any, *args: Any, **kwargs: Any) -> None:
        drawn.append(str(card))
        real_draw(draw, card, *args, **kwargs)

    monkeypatch.setattr(table_view, "_draw_card", counting)
    render_view(view_of_round(rnd, _state()))
    # then every card of the line and of its branches is drawn, none left out for lack of room
    assert hanging == 7
    assert len(drawn) == len(rnd.state().layout.main) + hanging


def _drawn_text(monkeypatch: pytest.MonkeyPatch, state: ViewState) -> list[str]:
    """Every text the view draws for ``state``, in order."""
    from PIL import ImageDraw

    drawn: list[str] = []
    original = ImageDraw.ImageDraw.text

    def spy(self: Any, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        drawn.append(str(text))
        original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    render_view(state)
    return drawn


def test_the_round_over_view_shows_the_revealed_rule_and_the_scores_not_the_seal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dealer.table.happenings import RuleDisclosed
    from dealer.screen.view_outlet import ViewOutlet
    from tests.dealer.recorded_round import record_round

    # given a round played to its end (Ana emptied her hand), its view as the live loop feeds it
    r = record_round(tmp_path / "r")
    rnd = r.session.round
    assert rnd is not None and rnd.ended is not None
    saved: list[int] = []
    outlet = ViewOutlet(lambda: rnd, save=lambda t, frame, data: saved.append(frame))
    outlet.state = replace(outlet.state, seal="ab" * 32)
    # when the rule is disclosed
    outlet(RuleDisclosed(20.0, "alternate-colour", "n", "The rule was alternate-colour: the colours alternate."))
    drawn = _drawn_text(monkeypatch, outlet.state)
    # then the view shows the rule and every score, and no longer says the rule is sealed
    assert "Rule sealed:" not in drawn
    assert "The rule:" in drawn and any("colours alternate" in line for line in drawn)
    scores = rnd.result().scores
    assert "Scores:" in drawn
    assert all(f"{name}  {scores[name]}" in drawn for name in rnd.players)
    assert saved, "the round-over view is kept in the recording"


def test_a_round_still_running_shows_the_seal_and_no_scores(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = _drawn_text(monkeypatch, _state())
    assert "Rule sealed:" in drawn and "Scores:" not in drawn
