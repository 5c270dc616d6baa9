"""The demo in three languages (issue 10): the README's first command, `eleusis play`, deals
the shipped round in English, Russian and Portuguese; every sentence is spoken by the
language's espeak-ng voice into a WAV file that is not silent and lasts about as long as
its text needs."""

from __future__ import annotations

import re
import shutil
import wave
from pathlib import Path

import numpy as np
import pytest

from dealer.app.cli import main
from dealer.app.demo import shipped_video
from dealer.speech.i18n import set_language
from dealer.record.recording import VerdictLine, load_recording
from tests.dealer.judged_demo import dealt_as_judged

# espeak-ng at its default rate says about 14-16 characters a second in all three languages
# (measured: 0.063-0.070 s per character); a voice that does not know the script spells it
# out letter by letter, more than twice as long (Russian text in the English voice: 0.16 s).
# Digits and hex (a seal's "144a6255") are said symbol by symbol or as long number words:
# they count three characters each. A file also holds a little silence at each end.
SECONDS_PER_CHAR = (0.03, 0.12)
EDGES_S = 0.6


def spoken_length(text: str) -> int:
    spelled = sum(len(m.group()) for m in re.finditer(r"\b\w*\d\w*\b", text))
    return len(text) + 2 * spelled

VERDICT_WORDS = {
    "en": ("plays", "accepted", "rejected, a side branch", "The rule was alternate-colour"),
    "ru": ("кладёт", "подходит", "не подходит — в боковую ветвь", "Правило было такое: после красной карты"),
    "pt": ("joga", "jogada aceite", "linha lateral", "A regra era: depois de uma carta vermelha"),
}
# Each printed sentence begins with the dealer's name in the language (issue 32 item 15).
SPEAKER = {"en": "dealer: ", "ru": "ведущий: ", "pt": "dador: "}


def wav_samples(path: Path) -> tuple[np.ndarray, int]:
    with wave.open(str(path), "rb") as w:
        assert w.getsampwidth() == 2, f"{path}: 16-bit PCM expected"
        rate = w.getframerate()
        data = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float64)
        if w.getnchannels() > 1:
            data = data.reshape(-1, w.getnchannels()).mean(axis=1)
    return data / 32768.0, rate


def speech_problems(path: Path, text: str) -> list[str]:
    """Why this WAV is not ``text`` spoken: silent, mostly quiet, or the wrong length."""
    samples, rate = wav_samples(path)
    seconds = len(samples) / rate
    problems = []
    window = max(1, rate // 50)  # 20 ms frames
    frames = samples[: len(samples) // window * window].reshape(-1, window)
    loud = float(np.mean(np.sqrt((frames**2).mean(axis=1)) > 0.01)) if len(frames) else 0.0
    if float(np.sqrt((samples**2).mean())) < 0.01:
        problems.append(f"{path.name}: silent (RMS below 1% of full scale)")
    elif loud < 0.3:
        problems.append(f"{path.name}: only {loud:.0%} of it carries sound")
    length = spoken_length(text)
    per_char = seconds / max(1, length)
    if not SECONDS_PER_CHAR[0] * length <= seconds <= SECONDS_PER_CHAR[1] * length + EDGES_S:
        problems.append(f"{path.name}: {seconds:.1f} s for {length} spoken characters ({per_char:.3f} s each): {text!r}")
    return problems


@pytest.mark.skipif(shipped_video() is None, reason="no shipped demo video")
@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed (.ci/install installs it)")
# The round is dealt once per language, the same frames judged the same way; the suite deals
# it in Russian (another script and voice), the slow pass in Portuguese and English too.
# Every sentence the dealer can say is checked in each language without a round by
# tests/dealer/speech/test_i18n.py, an English WAV by tests/dealer/speech/test_voice.py, and
# the English round is dealt to its end, verdict for verdict, by tests/dealer/app/test_resume.py.
@pytest.mark.parametrize("lang", ["ru", pytest.param("pt", marks=pytest.mark.slow),
                                  pytest.param("en", marks=pytest.mark.slow)])
def test_the_first_command_deals_the_shipped_round_aloud_in_each_language(
    lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rec"
    try:
        assert main(["play", "--lang", lang, "--voice", "speech", "--out", str(out)]) == 0
    finally:
        set_language("en")
    printed = capsys.readouterr().out.splitlines()
    said = [line.removeprefix(SPEAKER[lang]) for line in printed if line.startswith(SPEAKER[lang])]
    assert "Audio saved" not in "\n".join(printed)
    # the round is the scripted one, judged the same in every language: exactly what `eleusis
    # judge` says of the script (tests/dealer/data/demo-table.judged.json): verdicts, penalties,
    # scores and line
    verdicts = [v.verdict for v in load_recording(out).of_type(VerdictLine)]
    assert verdicts == ["accepted", "rejected", "accepted", "rejected", "noplay-right",
                        "accepted", "accepted", "accepted", "accepted"]
    assert dealt_as_judged(out)
    text = "\n".join(said)
    for words in VERDICT_WORDS[lang]:
        assert words in text
    # the rule is said once, last (G6): never before the reveal, and by its words, not its English id
    assert [i for i, s in enumerate(said) if VERDICT_WORDS[lang][-1] in s] == [len(said) - 1]
    assert lang == "en" or "alternate-colour" not in text
    if lang == "ru":  # nothing left in English: every sentence is Russian
        assert [s for s in said if not re.search("[а-яё]", s)] == []
    if lang == "pt":
        english = re.compile(r"\b(the|your|is|and|plays|cards?|Put|Turn|round|rule)\b")
        assert [s for s in said if english.search(s)] == []
    # one WAV per sentence, in speaking order, each the sentence spoken
    wavs = sorted((out / "voice").glob("*.wav"))
    assert len(wavs) == len(said) >= 12
    problems = [p for wav, sentence in zip(wavs, said, strict=True) for p in speech_problems(wav, sentence)]
    assert problems == []
    # the review, with no --lang, is in the language the round was dealt in
    try:
        assert main(["review", str(out), "--no-html"]) == 0
    finally:
        set_language("en")
    verified = {"en": "VERIFIED:", "ru": "ПОДТВЕРЖДЕНО:", "pt": "VERIFICADO:"}[lang]
    assert verified in capsys.readouterr().out


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_the_length_check_catches_a_voice_that_does_not_speak_the_language(tmp_path: Path) -> None:
    import subprocess

    text = "Аня кладёт даму пик и десятку червей: принято."
    right, wrong = tmp_path / "ru.wav", tmp_path / "en.wav"
    subprocess.run(["espeak-ng", "-v", "ru", "-w", str(right), text], check=True)
    subprocess.run(["espeak-ng", "-v", "en", "-w", str(wrong), text], check=True)
    assert speech_problems(right, text) == []
    assert speech_problems(wrong, text) != []  # English espeak spells Cyrillic letter by letter


def test_the_silence_check_catches_a_silent_file(tmp_path: Path) -> None:
    path = tmp_path / "quiet.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1), w.setsampwidth(2), w.setframerate(22050)
        w.writeframes(b"\x00\x00" * 22050 * 3)
    assert any("silent" in p for p in speech_problems(path, "Ana plays the queen of spades."))


def test_digits_and_seals_count_as_spelled() -> None:
    assert spoken_length("Its seal begins 144a6255.") == len("Its seal begins 144a6255.") + 16
    assert spoken_length("Ana plays.") == 10
