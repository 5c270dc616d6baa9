"""The dealer's voice: verdicts and penalty draws said out loud.

Everything speaks through the small :class:`Voice` protocol, so pyttsx3 stays in this
module (STYLE.md, "pyttsx3 itself: a warning"). Implementations:

- :class:`TextVoice` prints each sentence (always works, and always runs alongside sound
  so a deaf terminal or a log still has every verdict);
- :class:`FakeVoice` keeps the sentences in a list: the contract, for tests;
- :class:`SpeechVoice` synthesises each sentence to a WAV file with pyttsx3 (or the
  ``espeak-ng`` command when pyttsx3 cannot start), keeps the files when asked to, and
  plays them when the machine has a sound device (``aplay``); it returns when the
  sentence has been played;
- :class:`QueuedVoice` puts another voice behind a queue and its own thread: ``say``
  prints the sentence and returns at once, so the camera loop keeps reading frames while
  the dealer speaks. A voice that fails mid-round is reported once and the round goes on
  in text.

:func:`open_voice` picks what the machine can do and says what it picked.
"""

from __future__ import annotations

import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TextIO

from dealer.speech.i18n import _, espeak_voice
from dealer.speech.i18n import language as current_language

__all__ = [
    "FakeVoice",
    "QueuedVoice",
    "SpeechVoice",
    "TextVoice",
    "Voice",
    "VoiceError",
    "has_sound_device",
    "open_voice",
]



class VoiceError(RuntimeError):
    """Speech synthesis is not possible here (no pyttsx3 engine and no espeak-ng)."""


class Voice(Protocol):
    """Says one sentence. ``say`` returns when the sentence is out (or queued to be)."""

    def say(self, text: str) -> None: ...

    def close(self) -> None: ...


class TextVoice:
    """Prints each sentence, prefixed so a reader can tell speech from other output: by
    default "dealer: " in the dealer's language ("ведущий: ", "dador: ")."""

    def __init__(self, stream: TextIO | None = None, prefix: str | None = None) -> None:
        self._stream = stream
        self._prefix = prefix

    def say(self, text: str) -> None:
        stream = self._stream or sys.stdout
        line = _("dealer: {sentence}", sentence=text) if self._prefix is None else f"{self._prefix}{text}"
        print(line, file=stream, flush=True)

    def close(self) -> None:
        pass


class FakeVoice:
    """Keeps what was said, in order. ``closed`` tells whether close() was called."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self.closed = False

    def say(self, text: str) -> None:
        if self.closed:
            raise VoiceError("say() after close()")
        self.said.append(text)

    def close(self) -> None:
        self.closed = True


def has_sound_device() -> bool:
    """True when ALSA shows a sound card and ``aplay`` exists to play on it."""
    cards = Path("/proc/asound/cards")
    try:
        listed = cards.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return "no soundcards" not in listed and bool(listed.strip()) and shutil.which("aplay") is not None


Synthesiser = Callable[[str, Path], None]


def _pyttsx3_synthesiser(voice_id: str | None, rate: int | None) -> Synthesiser:
    import pyttsx3  # imported here: the rest runs without it (untyped: see pyproject's mypy overrides)

    try:
        engine = pyttsx3.init()
    except Exception as exc:  # pyttsx3 raises bare RuntimeError/OSError variants
        raise VoiceError(f"pyttsx3 could not start ({exc}); install espeak-ng") from exc
    if voice_id:
        engine.setProperty("voice", voice_id)
    if rate:
        engine.setProperty("rate", rate)

    _silence_driver()
    fallback: Synthesiser | None = None

    def synthesise(text: str, path: Path) -> None:
        nonlocal fallback
        engine.save_to_file(text, str(path))
        engine.runAndWait()  # one runAndWait per save, or only the last file is written
        # Under load pyttsx3's espeak driver now and then returns before the file is out:
        # wait a little, then say the sentence through the espeak-ng command instead.
        for _ in range(20):
            if path.exists() and path.stat().st_size > 44:
                return
            time.sleep(0.025)
        if fallback is None and shutil.which("espeak-ng"):
            fallback = _espeak_synthesiser(voice_id, rate)
        if fallback is not None:
            fallback(text, path)

    return synthesise


def _silence_driver() -> None:
    """Stop pyttsx3's espeak driver printing "Audio saved to ..." (English, on stdout, in
    every language) after each file. Its callback may run after ``runAndWait`` returns, so
    redirecting stdout around the call leaks it now and then, and a redirect in the voice's
    thread would swallow the camera loop's own lines meanwhile; the driver's module-level
    ``print`` is the one place that catches every such line."""
    driver = sys.modules.get("pyttsx3.drivers.espeak")
    if driver is not None:
        driver.print = _quiet  # type: ignore[attr-defined]


def _quiet(*args: object, **kwargs: object) -> None:
    pass


def _espeak_synthesiser(voice_id: str | None, rate: int | None) -> Synthesiser:
    exe = shutil.which("espeak-ng")
    if exe is None:
        raise VoiceError("neither pyttsx3 nor the espeak-ng command can speak here: apt-get install espeak-ng")

    def synthesise(text: str, path: Path) -> None:
        cmd = [exe, "-w", str(path)]
        if voice_id:
            cmd += ["-v", voice_id.split("/")[-1]]
        if rate:
            cmd += ["-s", str(rate)]
        subprocess.run([*cmd, text], check=True, capture_output=True)

    return synthesise


class SpeechVoice:
    """Synthesises each sentence to ``NNNN.wav`` and plays it when a sound device exists.

    ``keep_dir`` keeps the WAV files (numbered in speaking order); otherwise they go to a
    temporary folder removed by :meth:`close`. ``echo`` also prints each sentence.
    """

    def __init__(
        self,
        synthesise: Synthesiser,
        keep_dir: Path | None = None,
        play: bool | None = None,
        echo: TextVoice | None = None,
        player: Callable[[Path], None] | None = None,
    ) -> None:
        self._synthesise = synthesise
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        if keep_dir:
            self.directory = Path(keep_dir)
        else:
            self._tmp = tempfile.TemporaryDirectory(prefix="eleusis-voice-")
            self.directory = Path(self._tmp.name)
        self.directory.mkdir(parents=True, exist_ok=True)
        self._play = has_sound_device() if play is None else play
        self._player = player or _aplay
        self._echo = echo
        self.files: list[Path] = []

    @classmethod
    def open(
        cls,
        language: str | None = None,
        keep_dir: Path | None = None,
        play: bool | None = None,
        echo: TextVoice | None = None,
        rate: int | None = None,
    ) -> SpeechVoice:
        voice_id = espeak_voice(language or current_language())  # the voice speaks the sentences' language
        try:
            synth = _pyttsx3_synthesiser(voice_id, rate)
        except (VoiceError, ImportError):
            synth = _espeak_synthesiser(voice_id, rate)
        return cls(synth, keep_dir=keep_dir, play=play, echo=echo)

    def say(self, text: str) -> None:
        if self._echo is not None:
            self._echo.say(text)
        path = self.directory / f"{len(self.files) + 1:04d}.wav"
        self._synthesise(text, path)
        if not path.exists() or path.stat().st_size <= 44:
            raise VoiceError(f"speech synthesis wrote no audio for {text!r} (expected {path})")
        self.files.append(path)
        if self._play:
            self._player(path)

    def close(self) -> None:
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None


class QueuedVoice:
    """Another voice behind a queue, spoken from its own thread.

    ``say`` prints the sentence through ``echo`` (when given) and returns at once: the
    camera loop never waits for synthesis or playback. The thread says the sentences in
    order. When the voice fails (no audio written, the synthesiser gone, a player that
    raises), ``report`` gets one line, the voice is not tried again, and the sentences go
    on in text only. :meth:`close` says what is queued, then closes the voice; a Ctrl-C
    while it waits drops the sentences not yet begun.
    """

    def __init__(self, voice: Voice, echo: Voice | None = None,
                 report: Callable[[str], None] | None = None) -> None:
        self._voice = voice
        self._echo = echo
        self._report = report or _report_to_stderr
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._drop = threading.Event()
        self._done = threading.Event()  # waited on instead of join(): an interrupted join() forgets the thread
        self._closed = False
        self.failure: Exception | None = None
        self.unsaid = 0  # sentences dropped by a Ctrl-C during close()
        self._thread = threading.Thread(target=self._speak, name="eleusis-voice", daemon=True)
        self._thread.start()

    @property
    def voice(self) -> Voice:
        return self._voice

    def say(self, text: str) -> None:
        if self._closed:
            raise VoiceError("say() after close()")
        if self._echo is not None:
            self._echo.say(text)
        self._queue.put(text)

    def wait(self) -> None:
        """Return when every sentence given so far has been said (or failed)."""
        self._queue.join()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._queue.put(None)
        try:
            self._done.wait()
        except KeyboardInterrupt:  # Ctrl-C while the last sentences are said: stop after this one
            self._drop.set()
            self._done.wait(timeout=_LAST_SENTENCE_S)
        self._voice.close()

    def _speak(self) -> None:
        while True:
            text = self._queue.get()
            try:
                if text is None:
                    self._done.set()
                    return
                if self._drop.is_set():
                    self.unsaid += 1
                elif self.failure is None:
                    self._say_once(text)
            finally:
                self._queue.task_done()

    def _say_once(self, text: str) -> None:
        try:
            self._voice.say(text)
        except Exception as exc:  # VoiceError, OSError, CalledProcessError, pyttsx3's own: the round goes on
            self.failure = exc
            self._report(_("voice: it stopped ({error}); the rest of the round is printed only", error=exc))


# How long close() still waits, after a Ctrl-C, for the sentence being said.
_LAST_SENTENCE_S = 5.0


def _report_to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _aplay(path: Path) -> None:
    subprocess.run(["aplay", "-q", str(path)], check=False, capture_output=True)


def open_voice(
    mode: str = "auto",
    language: str | None = None,
    keep_dir: Path | None = None,
    stream: TextIO | None = None,
) -> tuple[Voice, str]:
    """The best voice for ``mode`` ('auto', 'speech' or 'text'), and a line saying which.

    'auto' speaks through the sound device when there is one, writes WAV files to
    ``keep_dir`` when given, and always prints the text too. 'speech' insists on
    synthesis (raises VoiceError when impossible); 'text' only prints. ``language``
    (default: the dealer's current language, dealer/speech/i18n.py) picks the espeak-ng voice.
    """
    echo = TextVoice(stream)
    if mode == "text":
        return echo, _("voice: text only")
    if mode not in ("auto", "speech"):
        raise ValueError(f"voice mode must be auto, speech or text, got {mode!r}")
    sound = has_sound_device()
    if mode == "auto" and not sound and keep_dir is None:
        return echo, _("voice: no sound device found, so the verdicts are printed (use --wav-dir to keep spoken audio)")
    try:
        voice: Voice = QueuedVoice(SpeechVoice.open(language=language, keep_dir=keep_dir, play=sound), echo)
    except VoiceError as exc:
        if mode == "speech":
            raise
        return echo, _("voice: {error}; the verdicts are printed", error=exc)
    if sound:
        how = _("voice: speaking through the sound device") if keep_dir is None else \
            _("voice: speaking through the sound device, WAV files in {folder}", folder=keep_dir)
    elif keep_dir is None:
        how = _("voice: speaking to files only (no sound device)")
    else:
        how = _("voice: speaking to files only (no sound device), WAV files in {folder}", folder=keep_dir)
    return voice, how

