"""Does the dealer see the table while it speaks, and how soon after a hand leaves does it speak?

    python3 bench/voice_latency.py [--turns 5] [--turn-s 8] [--fps 15] [--work-ms 30] [--lang en]

Not a test: the figures for the voice's design (dealer/speech/voice.py). A camera loop runs in
real time at ``--fps``, spending ``--work-ms`` on each frame (slept: the reading itself is
not what is measured). Every ``--turn-s`` seconds a hand leaves the play zone and the
dealer says that turn's verdict and whose turn it is next, as the live loop does. The
sentences are really synthesised (the ``espeak-ng`` command writing WAV files); playback
is simulated by sleeping each WAV's length, as ``aplay`` would block. The same round is
dealt twice:

- inline: ``SpeechVoice.say`` in the camera loop (the voice before);
- queued: ``QueuedVoice`` (open_voice's voice), saying from its own thread.

Printed for each: frames handled, and how many of them while the dealer was speaking;
the longest time between two frames; the hand-to-first-word latency (from the frame in
which the hand left to the first sample of the verdict's sound), median and worst.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import wave
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dealer.speech.i18n import espeak_voice  # noqa: E402
from dealer.speech.voice import QueuedVoice, SpeechVoice, Voice, _espeak_synthesiser  # noqa: E402

SENTENCES = {
    "en": [("Ana plays the four of clubs: accepted.", "Bo, your turn."),
           ("Bo plays the queen of clubs: rejected, a side branch. Bo draws two.", "Cy, your turn."),
           ("Cy declares no play: wrong. The dealer plays the two of diamonds.", "Ana, your turn.")],
    "ru": [("Аня кладёт четвёрку треф: подходит.", "Ходит Боря."),
           ("Боря кладёт даму треф: не подходит — в боковую ветвь. Боря берёт две штрафные карты.", "Ходит Саша."),
           ("Саша говорит, что ходить нечем: неверно. Ведущий кладёт двойку бубен.", "Ходит Аня.")],
    "pt": [("A Ana joga o quatro de paus: aceite.", "Vez do Bruno."),
           ("O Bruno joga a dama de paus: recusada, vai para um ramo lateral. O Bruno compra duas.", "Vez da Carla."),
           ("A Carla declara «sem jogada»: está errado. O croupier joga o dois de ouros.", "Vez da Ana.")],
}


@dataclass
class Playback:
    """Plays a WAV by sleeping its length, and notes when each one sounded."""

    spans: list[tuple[float, float]] = field(default_factory=list)

    def __call__(self, path: Path) -> None:
        with wave.open(str(path)) as w:
            seconds = w.getnframes() / w.getframerate()
        start = time.perf_counter()
        self.spans.append((start, start + seconds))
        time.sleep(seconds)


@dataclass
class Figures:
    frames: int
    frames_speaking: int
    speaking_s: float
    longest_gap_s: float
    latencies_s: list[float]


def deal(voice: Voice, playback: Playback, turns: int, turn_s: float, fps: float, work_s: float,
         lang: str) -> Figures:
    """The camera loop: a frame every 1/fps s (or as soon as the last one is done), the
    verdict said in the frame in which each turn's hand leaves."""
    frame_times: list[float] = []
    left_at: list[float] = []
    start = time.perf_counter()
    k = 0
    while True:
        due = start + k / fps
        now = time.perf_counter()
        if now < due:
            time.sleep(due - now)
        t = time.perf_counter()
        if len(left_at) == turns and t - start > turns * turn_s:
            break
        frame_times.append(t)
        time.sleep(work_s)  # reading the frame
        turn = len(left_at)
        if turn < turns and t - start >= (turn + 0.5) * turn_s:  # a late loop still sees every hand leave
            left_at.append(time.perf_counter())  # the hand left in this frame: the verdict, now
            verdict, next_turn = SENTENCES[lang][turn % len(SENTENCES[lang])]
            voice.say(verdict)
            voice.say(next_turn)
        k = max(k + 1, int((time.perf_counter() - start) * fps))  # a late loop skips to the newest frame
    voice.close()
    firsts = playback.spans[0::2]  # each turn's verdict, then its "your turn"
    speaking = playback.spans
    in_speech = sum(1 for f in frame_times if any(a <= f < b for a, b in speaking))
    gaps = [b - a for a, b in zip(frame_times, frame_times[1:])]
    return Figures(len(frame_times), in_speech, sum(b - a for a, b in speaking), max(gaps),
                   [span[0] - left for span, left in zip(firsts, left_at)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=5)
    parser.add_argument("--turn-s", type=float, default=8.0)
    parser.add_argument("--fps", type=float, default=15.0)
    parser.add_argument("--work-ms", type=float, default=30.0)
    parser.add_argument("--lang", choices=sorted(SENTENCES), default="en")
    args = parser.parse_args(argv)
    synthesise = _espeak_synthesiser(espeak_voice(args.lang), None)
    print(f"{args.turns} turns of {args.turn_s:g} s, camera at {args.fps:g} fps, {args.work_ms:g} ms a frame, "
          f"espeak-ng voice {espeak_voice(args.lang)}")
    for how in ("inline", "queued"):
        with tempfile.TemporaryDirectory(prefix="voice-bench-") as folder:
            playback = Playback()
            speech = SpeechVoice(synthesise, keep_dir=Path(folder), play=True, player=playback)
            voice: Voice = speech if how == "inline" else QueuedVoice(speech)
            f = deal(voice, playback, args.turns, args.turn_s, args.fps, args.work_ms / 1000, args.lang)
        lat = f.latencies_s
        print(f"{how:>6}: {f.frames} frames handled, {f.frames_speaking} of them while the dealer spoke "
              f"({f.speaking_s:.1f} s of speech); longest gap between frames {f.longest_gap_s * 1000:.0f} ms; "
              f"hand-to-first-word {statistics.median(lat) * 1000:.0f} ms median, {max(lat) * 1000:.0f} ms worst")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
