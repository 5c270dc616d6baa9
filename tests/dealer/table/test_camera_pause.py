"""A camera that goes away pauses the round and goes on when it is back (issue 9 item 4);
one that stays away ends the round as before. A fake clock: nothing waits for real."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from dealer.table import turn_input
from dealer.table.camera_pause import CAMERA_BACK, CAMERA_GONE, paused_frames
from vision.errors import CameraLost, CameraOpenError
from vision.frames import Frame

PIXELS = np.zeros((2, 2, 3), np.uint8)


def _camera(n: int, lose: bool) -> Iterator[Frame]:
    for i in range(n):
        yield Frame(i, i / 10, PIXELS)
    if lose:
        raise CameraLost("camera 0", n, "10 reads in a row gave no frame")


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, s: float) -> None:
        self.now += s


def test_a_lost_camera_pauses_then_the_round_goes_on_with_later_frames() -> None:
    # given a camera lost after 3 frames, refusing to open twice, then back with 2 frames
    clock, said = FakeClock(), []
    attempts = iter([CameraOpenError("camera 0: busy"), CameraOpenError("camera 0: busy"), None])

    def reopen() -> Iterator[Frame]:
        failure = next(attempts)
        if failure is not None:
            raise failure
        return _camera(2, lose=False)

    frames = list(paused_frames(reopen, _camera(3, lose=True), said.append, wait_s=60, retry_s=1.0,
                                clock=clock, sleep=clock.sleep))
    assert said == [CAMERA_GONE, CAMERA_BACK]
    assert [f.index for f in frames] == [0, 1, 2, 3, 4]  # numbers go on: kept frames never collide
    times = [f.time_s for f in frames]
    assert times == sorted(times) and times[3] >= 0.2 + 3.0  # the pause (3 s of fake time) is in the clock


def test_the_turn_machine_is_told_the_loss_and_the_return_at_the_frames_times() -> None:
    clock, told = FakeClock(), []
    attempts = iter([None])
    frames = list(paused_frames(lambda: (next(attempts), _camera(2, lose=False))[1], _camera(3, lose=True),
                                lambda _: None, wait_s=60, retry_s=1.0, clock=clock, sleep=clock.sleep,
                                tell=told.append))
    # lost after the frame at 0.2 s; back with the first new frame, its time on the round's clock
    assert told == [turn_input.CameraLost(0.2), turn_input.CameraBack(frames[3].time_s)]
    assert frames[3].time_s > 0.2


def test_a_camera_that_stays_away_ends_the_round_as_before() -> None:
    clock, said = FakeClock(), []

    def reopen() -> Iterator[Frame]:
        raise CameraOpenError("camera 0: no such device")

    seen = []
    with pytest.raises(CameraLost):
        for frame in paused_frames(reopen, _camera(3, lose=True), said.append, wait_s=30, retry_s=1.0,
                                   clock=clock, sleep=clock.sleep):
            seen.append(frame.index)
    assert seen == [0, 1, 2] and said == [CAMERA_GONE]
    assert clock.now == pytest.approx(30.0)


def test_a_camera_that_gives_nothing_when_reopened_counts_as_away() -> None:
    clock, said = FakeClock(), []
    with pytest.raises(CameraLost):
        list(paused_frames(lambda: iter(()), _camera(1, lose=True), said.append, wait_s=5, retry_s=1.0,
                           clock=clock, sleep=clock.sleep))
    assert said == [CAMERA_GONE]


def test_the_live_loop_pauses_on_a_lost_camera_and_judges_the_round_as_if_it_never_left(tmp_path: Path) -> None:
    # given the rendered round of test_live, a camera lost during Bo's attempt and found again 3 s later
    import importlib.util

    spec = importlib.util.spec_from_file_location("test_live", Path(__file__).parents[1] / "app" / "test_live.py")
    assert spec is not None and spec.loader is not None
    test_live = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(test_live)  # the rendered round of test_live, whichever tests are collected
    FPS, SCRIPT, VIEW, TruthReader = test_live.FPS, test_live.SCRIPT, test_live.VIEW, test_live.TruthReader

    from dealer.app.live import LiveOptions, _loop
    from bench.harness.make_demo import render_steps
    from dealer.table.observer import TableObserver
    from dealer.app.outlets import Outlets
    from dealer.record.recording import RecordingWriter, VerdictLine, load_recording
    from dealer.table.session import DealerSession, SessionConfig
    from dealer.speech.voice import FakeVoice
    from calibration.layout import default_layout
    from vision.frames import FakeSource

    images = list(render_steps(SCRIPT, {}, view=VIEW))
    lose_at, clock, voice = 14, FakeClock(), FakeVoice()
    back = iter([None, None, images[lose_at:]])  # twice not there, then the rest of the table

    def reopen() -> Iterator[Frame]:
        rest = next(back)
        if rest is None:
            raise CameraOpenError("camera fake: not there")
        return FakeSource(rest, fps=FPS).frames()

    config = SessionConfig(players=("Ana", "Bo", "Cy"), rule="alternate-colour", hand_size=3, settle_s=1.0,
                           spoken_cards=False)
    outlets = Outlets(voice, RecordingWriter(tmp_path, {"players": ["Ana", "Bo", "Cy"]}, fsync=False))
    session, phases = DealerSession(config), []

    def tell(event: turn_input.CameraLost | turn_input.CameraBack) -> None:
        session.camera(event)
        phases.append(type(session.protocol.state.phase).__name__)

    stream = paused_frames(reopen, FakeSource(images, fps=FPS, lose_after=lose_at).frames(), outlets.say,
                           wait_s=60, clock=clock, sleep=clock.sleep, tell=tell)
    code = _loop(stream, TableObserver(default_layout(), TruthReader(SCRIPT)), session, outlets,
                 tmp_path, LiveOptions(out=tmp_path))
    # the turn machine paused in its phase while the camera was gone, and went on from it
    assert len(phases) == 2 and phases[0] == "Paused" and phases[1] != "Paused"
    # then the pause is said, and the round goes on to the same verdicts as without the loss
    assert code == 0
    assert CAMERA_GONE in voice.said and CAMERA_BACK in voice.said
    assert voice.said.index(CAMERA_GONE) < voice.said.index(CAMERA_BACK)
    assert [v.verdict for v in load_recording(tmp_path).of_type(VerdictLine)] == ["accepted", "rejected", "noplay-wrong"]
