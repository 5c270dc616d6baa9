"""The voice off the camera loop: `QueuedVoice` says sentences from its own thread, a voice
that fails mid-round is reported once, and closing says what is queued."""

import io
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from dealer.speech.voice import FakeVoice, QueuedVoice, TextVoice, VoiceError


class HeldVoice(FakeVoice):
    """Says nothing until ``go`` is set; ``busy`` is set once a sentence is being said."""

    def __init__(self) -> None:
        super().__init__()
        self.go = threading.Event()
        self.busy = threading.Event()

    def say(self, text: str) -> None:
        self.busy.set()
        assert self.go.wait(10), "the test never let the voice speak"
        super().say(text)


class BrokenVoice(FakeVoice):
    """Says ``good`` sentences, then fails as a synthesiser that wrote no audio does."""

    def __init__(self, good: int) -> None:
        super().__init__()
        self.good = good

    def say(self, text: str) -> None:
        if len(self.said) >= self.good:
            raise VoiceError(f"speech synthesis wrote no audio for {text!r}")
        super().say(text)


def test_say_returns_while_the_voice_is_still_speaking() -> None:
    # given a voice stuck in its first sentence
    inner, echo = HeldVoice(), io.StringIO()
    voice = QueuedVoice(inner, TextVoice(echo))
    voice.say("Ana plays the four of clubs: accepted.")
    assert inner.busy.wait(10)
    # when the loop goes on and says more
    voice.say("Bo, your turn.")
    frames_meanwhile = sum(1 for _ in range(30))
    # then nothing was spoken yet, but every sentence is already printed
    assert inner.said == [] and frames_meanwhile == 30
    assert echo.getvalue().splitlines() == ["dealer: Ana plays the four of clubs: accepted.", "dealer: Bo, your turn."]
    # and once the voice may speak, it says both, in order
    inner.go.set()
    voice.wait()
    assert inner.said == ["Ana plays the four of clubs: accepted.", "Bo, your turn."]
    voice.close()


def test_a_voice_that_fails_mid_round_is_reported_once_and_the_text_goes_on() -> None:
    # given a voice that dies after two sentences
    inner, echo, reports = BrokenVoice(good=2), io.StringIO(), list[str]()
    voice = QueuedVoice(inner, TextVoice(echo), report=reports.append)
    # when five sentences are said
    for k in range(5):
        voice.say(f"sentence {k}")
    voice.wait()
    voice.close()
    # then no exception reached the caller, one line says the voice stopped and why,
    # and every sentence was printed
    assert inner.said == ["sentence 0", "sentence 1"]
    assert len(reports) == 1 and "wrote no audio for 'sentence 2'" in reports[0]
    assert echo.getvalue().splitlines() == [f"dealer: sentence {k}" for k in range(5)]


def test_close_says_every_queued_sentence_then_closes_the_voice() -> None:
    inner = HeldVoice()
    voice = QueuedVoice(inner)
    for k in range(3):
        voice.say(f"sentence {k}")
    inner.go.set()
    voice.close()
    assert inner.said == ["sentence 0", "sentence 1", "sentence 2"] and inner.closed
    with pytest.raises(VoiceError, match="after close"):
        voice.say("too late")


class SlowVoice(FakeVoice):
    def __init__(self) -> None:
        super().__init__()
        self.busy = threading.Event()

    def say(self, text: str) -> None:
        self.busy.set()
        time.sleep(0.3)  # a sentence being played
        super().say(text)


def test_ctrl_c_while_closing_drops_what_is_not_yet_begun() -> None:
    # given four sentences queued, the first being said
    inner = SlowVoice()
    voice = QueuedVoice(inner)
    for k in range(4):
        voice.say(f"sentence {k}")
    assert inner.busy.wait(10)
    # when Ctrl-C comes while close() waits for them (Python's own handler, even when
    # pytest runs in the background with SIGINT ignored)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        threading.Timer(0.05, os.kill, (os.getpid(), signal.SIGINT)).start()
        voice.close()
    finally:
        signal.signal(signal.SIGINT, before)
    # then the sentence being said is finished, the rest dropped, and the voice closed
    assert inner.said == ["sentence 0"] and voice.unsaid == 3 and inner.closed


def test_a_failing_voice_costs_the_round_nothing(tmp_path: Path) -> None:
    # given the live loop over a rendered round (tests/dealer/app/test_live.py) with a voice
    # that stops after three sentences
    from dealer.app.live import LiveOptions, _loop
    from bench.harness.make_demo import render_steps
    from dealer.table.observer import TableObserver
    from dealer.app.outlets import Outlets
    from dealer.record.recording import RecordingWriter, VerdictLine, load_recording
    from dealer.table.session import DealerSession, SessionConfig
    from calibration.layout import default_layout
    from tests.dealer.app.test_live import FPS, SCRIPT, VIEW, TruthReader
    from vision.frames import FakeSource

    inner, echo, reports = BrokenVoice(good=3), io.StringIO(), list[str]()
    voice = QueuedVoice(inner, TextVoice(echo), report=reports.append)
    config = SessionConfig(players=("Ana", "Bo", "Cy"), rule="alternate-colour", hand_size=3, settle_s=1.0,
                           spoken_cards=False)
    recorder = RecordingWriter(tmp_path, {"players": ["Ana", "Bo", "Cy"]}, fsync=False)
    frames = FakeSource(list(render_steps(SCRIPT, {}, view=VIEW)), fps=FPS)
    # when the round is dealt
    code = _loop(frames.frames(), TableObserver(default_layout(), TruthReader(SCRIPT)), DealerSession(config),
                 Outlets(voice, recorder), tmp_path, LiveOptions(out=tmp_path))
    voice.close()
    # then every verdict is judged, printed and recorded, and the failure was told once
    assert code == 0
    assert [v.verdict for v in load_recording(tmp_path).of_type(VerdictLine)] == \
        ["accepted", "rejected", "noplay-wrong"]
    assert "dealer: Cy declares no play: wrong. The dealer plays 2D." in echo.getvalue()
    assert len(inner.said) == 3 and len(reports) == 1
