"""Serve a video as an http MJPEG stream, the way a phone IP-camera app does.

    python -m bench.harness.mjpeg_serve table.mp4 [--fps 8] [--port 8080]
    eleusis play --camera http://127.0.0.1:8080/video --players 'Ana Bo Cy'

It lets you try ``--camera URL`` without a phone, and the tests deal a round from it.
It listens on 127.0.0.1 only (this machine), sends each frame once at ``fps`` frames a
second to each viewer, then the last frame for ``hold_last_s`` more seconds (a phone
goes on filming the table), and stops after ``max_seconds`` (never unbounded in a test).
``stall_s`` plays a phone whose Wi-Fi drops after the last frame: the connection stays
open that long with nothing more sent (no end of stream), then it is cut.
"""

from __future__ import annotations

import argparse
import http.server
import socket
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

__all__ = ["MjpegServer", "main"]

BOUNDARY = "eleusisframe"
JPEG_QUALITY = 85  # what phone apps send by default: sharp enough to read card indices
SEND_BUFFER_BYTES = 32 * 1024  # less than one frame: the stream never runs far ahead of its viewer


def _jpegs(video: Path) -> list[bytes]:
    """Every frame of the video, JPEG-encoded once (the stream repeats no work per viewer)."""
    capture = cv2.VideoCapture(str(video))
    frames: list[bytes] = []
    try:
        while True:
            ok, image = capture.read()
            if not ok:
                break
            done, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
            if done:
                frames.append(np.asarray(jpeg, np.uint8).tobytes())
    finally:
        capture.release()
    if not frames:
        raise ValueError(f"{str(video)!r}: no frame could be read from it")
    return frames


class MjpegServer:
    """An http MJPEG server on 127.0.0.1 in a background thread: ``with MjpegServer(...) as url:``."""

    def __init__(self, video: Path | None = None, fps: float = 8.0, port: int = 0,
                 frames: Sequence[npt.NDArray[np.uint8]] | None = None, max_seconds: float = 120.0,
                 hold_last_s: float = 10.0, stall_s: float = 0.0,
                 paced_by: Callable[[int], None] | None = None) -> None:
        if frames is not None:
            self._jpegs = [cv2.imencode(".jpg", f)[1].tobytes() for f in frames]
        elif video is not None:
            self._jpegs = _jpegs(Path(video))
        else:
            raise ValueError("give a video or frames to stream")
        self._period = 1.0 / fps
        self._stall_s = stall_s
        # called before frame k is sent, it returns once the reader is ready for it: a test's
        # dealer on a busy machine then misses no frame (a phone would drop them)
        self._paced_by = paced_by
        # a phone goes on filming the table after the video's last frame: repeat it this long
        self._jpegs += [self._jpegs[-1]] * int(hold_last_s * fps)
        self._deadline = time.monotonic() + max_seconds
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (the http.server name)
                self.send_response(200)
                self.send_header("Content-Type", f"multipart/x-mixed-replace; boundary={BOUNDARY}")
                self.send_header("Cache-Control", "no-cache")
                self.end_headers()
                server._send(self)

            def log_message(self, format: str, *args: object) -> None:
                return  # quiet: a test or a player does not need the request log

        self._httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def deadline(self) -> float:
        """When the server stops sending (time.monotonic())."""
        return self._deadline

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/video"

    def _send(self, handler: http.server.BaseHTTPRequestHandler) -> None:
        # A small send buffer and no catching up: a viewer that falls behind slows the
        # stream down instead of getting a burst of stale frames afterwards (as a phone
        # app drops frames rather than queueing them).
        handler.request.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER_BYTES)
        send_at = time.monotonic()
        try:
            for k, jpeg in enumerate(self._jpegs):
                if self._paced_by is not None:
                    self._paced_by(k)
                if time.monotonic() > self._deadline:
                    return
                wait = send_at - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
                handler.wfile.write(f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\n"
                                    f"Content-Length: {len(jpeg)}\r\n\r\n".encode("ascii") + jpeg + b"\r\n")
                handler.wfile.flush()
                send_at = max(send_at + self._period, time.monotonic())
            if self._stall_s > 0:  # the Wi-Fi dropped: the viewer waits on an open connection
                time.sleep(min(self._stall_s, max(0.0, self._deadline - time.monotonic())))
        except (BrokenPipeError, ConnectionResetError):
            return  # the viewer went away (the round ended): fine

    def __enter__(self) -> str:
        self._thread.start()
        return self.url

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.harness.mjpeg_serve", description=__doc__.split("\n")[0])
    parser.add_argument("video", type=Path)
    parser.add_argument("--fps", type=float, default=8.0, help="frames a second (default 8)")
    parser.add_argument("--port", type=int, default=8080, help="port on 127.0.0.1 (default 8080)")
    parser.add_argument("--hold-last", type=float, default=10.0, metavar="SECONDS",
                        help="repeat the last frame this long after the video (default 10)")
    parser.add_argument("--max-seconds", type=float, default=3600.0, help="stop after this long (default 3600)")
    args = parser.parse_args(argv)
    try:
        server = MjpegServer(args.video, fps=args.fps, port=args.port, max_seconds=args.max_seconds,
                             hold_last_s=args.hold_last)
    except (ValueError, OSError) as exc:
        print(f"mjpeg_serve: {exc}", file=sys.stderr)
        return 2
    with server as url:
        print(f"streaming {args.video} at {url} (Ctrl-C stops)", file=sys.stderr)
        try:
            while time.monotonic() < server.deadline:
                time.sleep(0.5)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
