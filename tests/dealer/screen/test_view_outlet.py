"""The view fed by the live loop: a picture at every decisive happening, its band the verdict's colour."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from tests.dealer.app.test_live import FPS, SCRIPT, VIEW, TruthReader

from calibration.layout import default_layout
from dealer.table.happenings import Happening, Judged, RuleDisclosed
from dealer.app.live import LiveOptions, _loop
from bench.harness.make_demo import render_steps
from dealer.table.observer import TableObserver
from dealer.app.outlets import Outlets
from dealer.table.session import DealerSession, SessionConfig
from dealer.screen.table_view import VERDICT_COLOURS
from dealer.screen.view_outlet import ViewOutlet
from dealer.speech.voice import FakeVoice
from vision.frames import FakeSource


def _band(picture: np.ndarray) -> tuple[int, int, int]:
    b, g, r = np.median(picture[10:120, 2:20].reshape(-1, 3), axis=0)
    return int(r), int(g), int(b)


def _kind_of(rgb: tuple[int, int, int]) -> str:
    return min(VERDICT_COLOURS, key=lambda k: np.abs(np.subtract(VERDICT_COLOURS[k], rgb)).max())


def test_each_verdict_puts_the_view_with_its_colour_into_the_recording(tmp_path: Path) -> None:
    # given the live loop over rendered frames of a round, with the view listening
    saved: list[tuple[float, int, bytes]] = []
    judged: list[Happening] = []
    session = DealerSession(SessionConfig(players=("Ana", "Bo", "Cy"), rule="alternate-colour", hand_size=3,
                                          settle_s=1.0, spoken_cards=False))
    view = ViewOutlet(lambda: session.round, None, lambda t, i, b: saved.append((t, i, b)), title="Round 1 of 3")
    outlets = Outlets(FakeVoice(), None, [view, judged.append])
    observer = TableObserver(default_layout(), TruthReader(SCRIPT))
    frames = FakeSource(list(render_steps(SCRIPT, {}, view=VIEW)), fps=FPS).frames()
    assert _loop(frames, observer, session, outlets, tmp_path, LiveOptions(out=tmp_path), None, view) == 0
    # then a picture was kept for each frame a decision was taken on
    decided = sorted({h.frame for h in judged if h.decisive and getattr(h, "frame", None) is not None})
    # and one more at the end: the round-over view, with the rule revealed and the scores (G6)
    assert [index for _t, index, _b in saved] == [*decided, saved[-1][1]]
    assert isinstance(judged[-1], RuleDisclosed)
    saved = saved[:-1]
    # and each verdict's picture has the verdict's colour: accepted, rejected, a wrong no play
    by_frame = {index: cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) for _t, index, data in saved}
    verdicts = [h for h in judged if isinstance(h, Judged)]
    assert [_kind_of(_band(by_frame[h.frame])) for h in verdicts if h.frame is not None] == [
        "accepted", "rejected", "noplay"]
    # and the last picture shows the camera and the line below it as cards (7H 4C 2D, QC a branch)
    last = by_frame[verdicts[-1].frame]  # type: ignore[index]
    h, w = last.shape[:2]
    white = np.all(last[int(h * 0.62):, : int(w * 0.70)] > 235, axis=2).astype(np.uint8)
    count, _l, stats, _c = cv2.connectedComponentsWithStats(white)
    assert sum(1 for k in range(1, count) if stats[k, cv2.CC_STAT_AREA] > h * w / 1000) == 4
