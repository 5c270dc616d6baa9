"""Print what the view of the table and a phone-like stream cost.

    python3 bench/view_and_stream.py

- render: milliseconds to draw one 1920x1080 view (camera, a 34-card layout, players) and
  to encode it as the JPEG kept in the recording at each verdict;
- stream: the shipped table video served as http MJPEG on 127.0.0.1 at 6 frames a second
  and read back through vision.frames.CameraSource (OpenCV's FFmpeg backend): frames
  received, their size, and the time from opening to the first frame.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from dealer.app.demo import shipped_video  # noqa: E402
from bench.harness.mjpeg_serve import MjpegServer  # noqa: E402
from dealer.screen.table_view import CameraPicture, SeenOutline, ViewState, render_view, view_of_round  # noqa: E402
from engine.judging import judge_text  # noqa: E402
from engine.rules import resolve_rule  # noqa: E402
from vision.frames import CameraSource  # noqa: E402


def bench_render(repeats: int = 20) -> None:
    rnd = judge_text((ROOT / "examples" / "expulsion.eleusis").read_text(encoding="utf-8"), resolve_rule).round
    frame = np.full((720, 1280, 3), 90, np.uint8)
    camera = CameraPicture(frame, (SeenOutline(((500, 300), (600, 300), (600, 440), (500, 440)), "10H", 0.98),),
                           (("play", ((400, 250), (900, 250), (900, 500), (400, 500))),))
    state = view_of_round(rnd, ViewState(camera=camera, verdict="Bo plays QS: rejected.", verdict_kind="rejected",
                                         seal="ab" * 32))
    render_view(state)  # fonts loaded once
    start = time.perf_counter()
    for _ in range(repeats):
        picture = render_view(state)
    render_ms = (time.perf_counter() - start) / repeats * 1000
    start = time.perf_counter()
    for _ in range(repeats):
        ok, jpeg = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, 85])
    jpeg_ms = (time.perf_counter() - start) / repeats * 1000
    print(f"render: {render_ms:.1f} ms per 1920x1080 view, JPEG {jpeg_ms:.1f} ms, {len(jpeg) / 1024:.0f} kB")


def bench_stream(fps: float = 6.0) -> None:
    video = shipped_video()
    if video is None:
        print("stream: no shipped video")
        return
    with MjpegServer(video, fps=fps, max_seconds=60, hold_last_s=0.0) as url:
        source = CameraSource(url)
        start = time.perf_counter()
        first_s, count = None, 0
        try:
            for _frame in source.frames():
                count += 1
                if first_s is None:
                    first_s = time.perf_counter() - start
        except Exception as exc:  # the stream's end: CameraLost after the last frame
            end = type(exc).__name__
        total = time.perf_counter() - start
    print(f"stream: {count} frames at {source.report()}; first frame after {1000 * (first_s or 0):.0f} ms; "
          f"{count / total:.1f} frames/s over {total:.1f} s (served at {fps:g}); ended by {end}")


if __name__ == "__main__":
    bench_render()
    bench_stream()
