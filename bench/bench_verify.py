"""How long `eleusis review` takes to verify a long recording: load, chain, frame
hashes, seal, the record rebuilt and replayed. Prints figures; asserts nothing.

    python bench/bench_verify.py [--frames 3000]

A three-hour round keeps a few hundred frames; 3000 frames of 60 KB is a generous bound.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dealer.record.recording import EVENTS_FILE, RecordingWriter, Said, Seen, load_recording  # noqa: E402
from dealer.record.verify import verify_recording  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--frames", type=int, default=3000)
    parser.add_argument("--frame-kb", type=int, default=60)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["ELEUSIS_KEY_DIR"] = str(Path(tmp) / "keys")
        folder = Path(tmp) / "round"
        start = time.perf_counter()
        with RecordingWriter(folder, {"players": ["Ana", "Bo", "Cy"]}, fsync=False) as rec:
            rec.seal(0.0, "alternate-colour", "n" * 32)
            for i in range(args.frames):
                rec.save_frame(float(i), i, os.urandom(args.frame_kb * 1024))
                rec.write(Seen(t=float(i), frame=i, zone="play",
                               cards=[{"card": "4C", "confidence": 0.97, "corners": [[0.0, 0.0]] * 4}]))
                for _ in range(3):
                    rec.write(Said(t=float(i), text="Ana plays the four of clubs: accepted."))
        written = time.perf_counter() - start
        size = (folder / EVENTS_FILE).stat().st_size
        start = time.perf_counter()
        rec_loaded = load_recording(folder)
        loaded = time.perf_counter() - start
        start = time.perf_counter()
        check = verify_recording(rec_loaded)
        verified = time.perf_counter() - start
        print(f"{len(rec_loaded.events)} events, {args.frames} frames of {args.frame_kb} KB, log {size / 1e6:.1f} MB")
        print(f"write (no fsync) {written:.2f} s; load {loaded:.2f} s; verify {verified:.2f} s; ok={check.ok}")


if __name__ == "__main__":
    main()
