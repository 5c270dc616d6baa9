"""`eleusis calibrate table|camera|deck`: check the table view and write the profiles `eleusis play` uses.

    eleusis calibrate table [--video FILE | --image FILE | --camera N|URL] [--headless]
                            [--cards 'C1 C2 ...'] [--skip-cards]
                            [--out PROFILE.json] [--annotated PNG] [--camera-profile CAM.json]
    eleusis calibrate camera (--video FILE | --images FILE... | --camera N|URL) [--out CAM.json]

The check ends with a pre-flight (skip it with --skip-cards): with cards laid in the play
zone, the dealer says which it finds and reads (--cards names what was laid, to check).

Exit status: 0 when the mat was found, cards will be readable and the pre-flight (when
cards lay in the zone) read them; 1 when the check found a problem (the table profile is still written if the mat was found); 2 for bad
input (a missing file, an unreadable profile).
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections import deque
from collections.abc import Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

from calibration.camera import CHARUCO, CameraProfile, calibrate_from_frames
from calibration.check import TableCheck, check_table
from calibration.errors import CalibrationError
from calibration.layout import TableLayout, default_layout
from calibration.markers import detect_markers
from calibration.overlay import draw_table_overlay
from calibration.profile import TableProfile
from calibration.table import TableTracker
from calibration.tokens import tokens_from_detections
from dealer.app.inputs import camera_source
from engine.cards import Card
from vision.errors import CameraError
from vision.frames import CameraSource, FrameSource, ImageListSource, VideoFileSource

ImageBGR = npt.NDArray[np.uint8]

DEFAULT_TABLE_PROFILE = "eleusis-table.json"
DEFAULT_CAMERA_PROFILE = "eleusis-camera.json"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "calibrate", help="check the camera's view of the table; write the table or camera profile",
        description="Calibrate the table (the mat's markers, zones, readability) or the camera (ChArUco board).")
    sub = parser.add_subparsers(dest="target", metavar="WHAT")
    parser.set_defaults(run=_no_target(parser))

    table = sub.add_parser("table", help="find the mat, show the zones, judge readability, write a profile")
    source = table.add_mutually_exclusive_group()
    source.add_argument("--video", metavar="FILE", help="a recorded video of the table")
    source.add_argument("--image", metavar="FILE", help="a still photograph of the table")
    source.add_argument("--camera", metavar="N|URL", type=camera_source,
                        help="a live camera: its number (default 0) or a stream URL (a phone: http://..., rtsp://...)")
    table.add_argument("--headless", action="store_true", help="no preview window: check and report only")
    table.add_argument("--out", metavar="PROFILE.json", default=DEFAULT_TABLE_PROFILE,
                       help=f"the table profile to write (default {DEFAULT_TABLE_PROFILE})")
    table.add_argument("--annotated", metavar="PNG", help="also save a picture of the zones drawn on the view")
    table.add_argument("--camera-profile", metavar="CAM.json", help="intrinsics from `eleusis calibrate camera`")
    table.add_argument("--layout", metavar="LAYOUT.json", help="a table layout other than the kit's")
    table.add_argument("--frames", type=int, default=90, metavar="N", help="frames to check (default 90)")
    table.add_argument("--cards", metavar="'7H QS 2C'",
                       help="pre-flight: the cards you laid in the play zone; the dealer checks it reads each")
    table.add_argument("--skip-cards", action="store_true", help="no pre-flight reading of cards in the play zone")
    table.set_defaults(run=run_table)

    camera = sub.add_parser("camera", help="intrinsics from views of the kit's ChArUco board")
    csource = camera.add_mutually_exclusive_group(required=True)
    csource.add_argument("--video", metavar="FILE", help="a video showing the board at several angles")
    csource.add_argument("--images", metavar="FILE", nargs="+", help="still photographs of the board")
    csource.add_argument("--camera", metavar="N|URL", type=camera_source,
                         help="a live camera: its number or a stream URL (a phone: http://..., rtsp://...)")
    camera.add_argument("--out", metavar="CAM.json", default=DEFAULT_CAMERA_PROFILE,
                        help=f"the camera profile to write (default {DEFAULT_CAMERA_PROFILE})")
    camera.add_argument("--frames", type=int, default=300, metavar="N", help="frames to read at most")
    camera.add_argument("--step", type=int, default=10, metavar="K", help="use every K-th video frame")
    camera.set_defaults(run=run_camera)

    from dealer.app.commands.calibrate_deck import register_deck  # learn the group's decks

    register_deck(sub)


def _images(source: FrameSource, max_frames: int | None) -> Iterator[ImageBGR]:
    """The BGR pictures of a frame source, at most ``max_frames`` of them."""
    return (frame.bgr for frame in itertools.islice(source.frames(), max_frames))


def _no_target(parser: argparse.ArgumentParser) -> Any:
    def run(_args: argparse.Namespace) -> int:
        parser.print_help(sys.stderr)
        return 2
    return run


def _error(message: str) -> int:
    print(f"eleusis calibrate: error: {message}", file=sys.stderr)
    return 2


def _has_display() -> bool:
    """A display a preview window can open on (one that does not answer would make Qt abort)."""
    from dealer.screen.table_view import has_display

    return has_display()


def _table_source(args: argparse.Namespace) -> FrameSource:
    if args.video:
        return VideoFileSource(args.video)
    if args.image:
        return ImageListSource([args.image])
    return CameraSource(0 if args.camera is None else args.camera)


def run_table(args: argparse.Namespace) -> int:
    if args.frames < 1:
        return _error(f"--frames must be at least 1, got {args.frames}")
    expected: tuple[Card, ...] | None = None
    if args.cards is not None:
        from dealer.app.preflight import parse_laid

        try:
            expected = parse_laid(args.cards)
        except ValueError as exc:
            return _error(f"--cards {args.cards!r}: {exc}")
    try:
        layout = TableLayout.load(args.layout) if args.layout else default_layout()
        camera = CameraProfile.load(args.camera_profile) if args.camera_profile else None
        frame_source = _table_source(args)
        frames = _images(frame_source, args.frames)
        source = args.video or args.image or frame_source.name
        if not args.headless and _has_display():
            frames = _live_preview(frames, layout)
        check, last = check_table(frames, layout, camera, max_frames=args.frames)
    except (CalibrationError, CameraError) as exc:
        return _error(str(exc))
    if isinstance(frame_source, CameraSource):
        print(frame_source.report())
    for line in check.report_lines():
        print(line)
    if not check.found:
        print("No profile written.")
        return 1
    try:
        profile = TableProfile.from_check(check, layout, camera, source)
        profile.save(args.out)
    except (CalibrationError, OSError) as exc:
        return _error(f"cannot write {args.out!r}: {exc}")
    print(f"Table profile written to {args.out}")
    if args.annotated and last is not None:
        if not _save_annotated(args.annotated, last, check, layout):
            return _error(f"cannot write the picture {args.annotated!r}")
        print(f"Zones drawn in {args.annotated}")
    code = 0 if check.readable else 1
    if args.skip_cards:
        return code
    return max(code, _preflight(args, profile.layout, expected))


PREFLIGHT_FRAMES = 600  # a minute of a webcam at 10 frames a second; a whole recorded video at most


def _preflight(args: argparse.Namespace, layout: TableLayout, expected: tuple[Card, ...] | None) -> int:
    """Issue 7 item 6: the dealer finds and reads the cards laid in the play zone, or says what to change.
    1 when it does not (or when --cards was given and nothing lay there), else 0."""
    from dealer.app.live import default_reader
    from dealer.app.preflight import LAY_PROMPT, preflight

    try:
        source = _table_source(args)  # from the start again: a video or a still shows the cards too
        if isinstance(source, CameraSource):
            print(LAY_PROMPT, flush=True)
        result = preflight(_images(source, PREFLIGHT_FRAMES), layout, default_reader(), expected)
    except (CalibrationError, CameraError) as exc:
        return _error(str(exc))
    for line in result.report_lines():
        print(line)
    if not result.done:
        return 1 if expected is not None else 0
    return 0 if result.ok else 1


def _save_annotated(path: str, frame: ImageBGR, check: TableCheck, layout: TableLayout) -> bool:
    import cv2

    tokens = tokens_from_detections(detect_markers(frame, layout.dictionary), layout, check.homography)
    lines = [(f"{check.px_per_mm:.2f} px/mm at the play zone, glare {100 * check.glare_fraction:.1f}%, "
             f"exposure {check.exposure}"), "READABLE" if check.readable else "NOT READABLE: see the report"]
    return bool(cv2.imwrite(path, draw_table_overlay(frame, check.homography, layout, tokens, lines)))


def _live_preview(frames: Iterator[ImageBGR], layout: TableLayout) -> Iterator[ImageBGR]:
    """Show each frame with the zones; yields the frames to the check. Keys: Enter/s check now, q/Esc quit."""
    import cv2

    tracker = TableTracker(layout)
    recent: deque[ImageBGR] = deque(maxlen=30)
    try:
        for frame in frames:
            detections = detect_markers(frame, layout.dictionary)
            update = tracker.update(detections)
            tokens = tokens_from_detections(detections, layout, update.homography)
            recent.append(frame)
            shown = draw_table_overlay(frame, update.homography, layout, tokens,
                                       [update.message, "Enter or s: check now   q: quit"])
            cv2.imshow("eleusis calibrate table", shown)
            key = cv2.waitKey(1) & 0xFF
            if key in (ord("q"), 27):
                return
            if key in (ord("s"), 13, 10):
                break
        yield from recent
    finally:
        cv2.destroyAllWindows()


def run_camera(args: argparse.Namespace) -> int:
    try:
        frame_source: FrameSource
        if args.video:
            frame_source = VideoFileSource(args.video, step=max(1, args.step))
            source = args.video
        elif args.images:
            frame_source = ImageListSource(args.images)
            source = f"{len(args.images)} image(s)"
        else:
            frame_source = CameraSource(args.camera)
            source = frame_source.name
        profile = calibrate_from_frames(_images(frame_source, args.frames), CHARUCO, source=source)
    except (CalibrationError, CameraError) as exc:
        return _error(str(exc))
    try:
        profile.save(args.out)
    except OSError as exc:
        return _error(f"cannot write {args.out!r}: {exc.strerror}")
    w, h = profile.size_wh
    print(f"Camera calibrated from {profile.views} views at {w}x{h}: focal length {profile.focal_px:.0f} px, "
          f"reprojection error {profile.rms_px:.2f} px.")
    if profile.rms_px is not None and profile.rms_px > 1.0:
        print("The error is high: hold the board flat and still, and film it in sharper light.")
    print(f"Camera profile written to {args.out}")
    return 0
