"""The dealer's voice: text always, speech to WAV files when synthesis exists."""

import io
import shutil
import wave
from pathlib import Path

import pytest

from dealer.speech.voice import FakeVoice, SpeechVoice, TextVoice, VoiceError, open_voice


def test_text_voice_prints_each_sentence_with_prefix() -> None:
    out = io.StringIO()
    voice = TextVoice(out)
    voice.say("Ana plays four of clubs: accepted.")
    voice.say("Bo draws 2.")
    assert out.getvalue().splitlines() == ["dealer: Ana plays four of clubs: accepted.", "dealer: Bo draws 2."]


def test_fake_voice_keeps_order_and_refuses_after_close() -> None:
    voice = FakeVoice()
    voice.say("one")
    voice.say("two")
    voice.close()
    assert voice.said == ["one", "two"] and voice.closed
    with pytest.raises(VoiceError):
        voice.say("three")


def test_speech_voice_numbers_files_and_plays_each_when_a_device_exists(tmp_path: Path) -> None:
    # given a synthesiser that writes a tiny WAV and a recording player
    def synth(text: str, path: Path) -> None:
        with wave.open(str(path), "wb") as w:
            w.setnchannels(1), w.setsampwidth(2), w.setframerate(8000)
            w.writeframes(b"\x00\x01" * len(text))

    played: list[Path] = []
    voice = SpeechVoice(synth, keep_dir=tmp_path, play=True, player=played.append)
    # when two sentences are said
    voice.say("first")
    voice.say("second sentence")
    # then both files exist, in speaking order, and each was played once
    assert [p.name for p in voice.files] == ["0001.wav", "0002.wav"]
    assert played == voice.files


def test_speech_voice_reports_a_synthesiser_that_writes_nothing(tmp_path: Path) -> None:
    voice = SpeechVoice(lambda text, path: None, keep_dir=tmp_path, play=False)
    with pytest.raises(VoiceError, match="wrote no audio"):
        voice.say("lost words")


def test_open_voice_text_mode_prints_only() -> None:
    out = io.StringIO()
    voice, how = open_voice("text", stream=out)
    voice.say("hello")
    assert "text only" in how and out.getvalue() == "dealer: hello\n"


def test_open_voice_rejects_an_unknown_mode() -> None:
    with pytest.raises(ValueError, match="'loud'"):
        open_voice("loud")


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_real_synthesis_writes_audible_wav(tmp_path: Path) -> None:
    # given the machine's real synthesiser (pyttsx3 over espeak-ng), when a verdict is said
    out = io.StringIO()
    voice, how = open_voice("speech", keep_dir=tmp_path, stream=out)
    voice.say("Ana plays the four of clubs. Accepted.")
    voice.close()
    # then a WAV of about a second or more exists and the text was echoed
    (path,) = sorted(tmp_path.glob("*.wav"))
    with wave.open(str(path)) as w:
        seconds = w.getnframes() / w.getframerate()
    assert seconds > 0.8
    assert "Accepted" in out.getvalue() and "files" in how or "sound device" in how


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_pyttsx3_never_prints_audio_saved_in_any_language(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    # given pyttsx3's synthesiser (issue 32 item 15: "Audio saved to ..." reached stdout
    # in a Russian or Portuguese round, when the driver's callback came after runAndWait)
    import sys

    from dealer.speech.voice import _pyttsx3_synthesiser

    synthesise = _pyttsx3_synthesiser("zle/ru", None)
    # when it writes a file, and when its driver's callback says so late
    synthesise("Ана кладёт даму пик.", tmp_path / "0001.wav")
    sys.modules["pyttsx3.drivers.espeak"].print(f"Audio saved to {tmp_path / '0001.wav'}")
    # then nothing English reached the terminal, and the file is there
    out, err = capfd.readouterr()
    assert "Audio saved" not in out + err
    assert (tmp_path / "0001.wav").stat().st_size > 44


@pytest.mark.parametrize(("lang", "line"), [("en", "dealer: Ана"), ("ru", "ведущий: Ана"), ("pt", "dador: Ана")])
def test_text_voice_names_the_dealer_in_the_language(lang: str, line: str) -> None:
    # issue 32 item 15: "dealer:" before every Russian or Portuguese sentence
    from dealer.speech.i18n import use_language

    out = io.StringIO()
    with use_language(lang):
        TextVoice(out).say("Ана")
    assert out.getvalue() == line + "\n"
