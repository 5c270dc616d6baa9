"""`eleusis play --variant kruskal` at a table: frames -> the play zone's cards and the
prediction strip's tokens -> the Kruskal session -> voice and recording.

The play zone is read by the same :class:`~dealer.table.observer.TableObserver` as Howell's
round; the players' TRUE/FALSE tokens are looked for in the prediction strip's box
(calibration/kruskal_tokens.py). Everything is written to the recording folder as it
happens, as in dealer/app/live.py: the seal before the starter, each verdict's frame, the
game record after each verdict, and the reveal at the end; a recording that stops early is
scored as it stands.
"""

from __future__ import annotations

import itertools
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration.kruskal_tokens import PREDICTION_STRIP, Predictions, read_predictions
from calibration.layout import ZONE_PLAY
from calibration.table import TableHomography
from dealer.app.live import (
    LiveOptions,
    LoopStats,
    _load_layout,
    _open_source,
    _pick_rule,
    default_reader,
    show_log_hash,
    show_seal,
)
from dealer.app.outlets import Outlets
from dealer.screen.view_outlet import ViewOutlet, camera_picture
from dealer.record.recording import ENVELOPE_FILE, RECORD_FILE, RecordingWriter, Seen, write_record
from dealer.speech.i18n import _, language
from dealer.speech.voice import Voice
from dealer.table.camera_pause import paused_frames
from dealer.table.happenings import Happening, Spoken
from dealer.table.kruskal_session import KruskalConfig, KruskalSession
from dealer.table.keys import stdin_keys
from dealer.table.kruskal_turn import KruskalLook
from dealer.table.observer import TableObserver, ZoneReader
from dealer.table.regions import markers_in_boxes
from dealer.table.session import players_from_text
from dealer.table.too_far import TooFarWatch
from vision.frames import CameraSource, Frame, FrameSource

__all__ = ["read_strip", "run_kruskal_live"]

STRIP_MARGIN_MM = 40.0  # a tile laid at the strip's edge still has its marker inside the box


def read_strip(frame_bgr: np.ndarray, homography: TableHomography, seats: int, dictionary: str) -> Predictions | None:
    """The prediction strip's tokens in this frame; None when the strip is out of sight."""
    xs = [p[0] for p in PREDICTION_STRIP.polygon_mm]
    ys = [p[1] for p in PREDICTION_STRIP.polygon_mm]
    m = STRIP_MARGIN_MM
    corners = homography.to_px([(min(xs) - m, min(ys) - m), (max(xs) + m, min(ys) - m),
                                (max(xs) + m, max(ys) + m), (min(xs) - m, max(ys) + m)])
    h, w = frame_bgr.shape[:2]
    x0, y0 = int(max(0.0, corners[:, 0].min())), int(max(0.0, corners[:, 1].min()))
    x1, y1 = int(min(float(w), corners[:, 0].max())), int(min(float(h), corners[:, 1].max()))
    if x1 - x0 < 16 or y1 - y0 < 16:
        return None
    markers = markers_in_boxes(frame_bgr, [(x0, y0, x1, y1)], dictionary)
    return read_predictions(markers, homography, seats)


def run_kruskal_live(options: LiveOptions, voice: Voice, reader: ZoneReader | None = None,
                     frame_source: FrameSource | None = None,
                     listeners: Iterable[Callable[[Happening], None]] = ()) -> int:
    """Deal a Kruskal round from a camera or a video: exit 0 when dealt, 2 on bad input
    (nothing recorded), 3 when the camera vanished (everything judged is kept)."""
    from engine.deal import check_players
    from vision.errors import CameraError

    if not options.players:
        print(_("eleusis play: name the players, e.g. --players 'Ana Bo Cy' (3 to 8, C2)"), file=sys.stderr)
        return 2
    config = KruskalConfig(players_from_text(options.players), _pick_rule(options.rule), options.settle_s)
    try:
        check_players(config.players)
        session = KruskalSession(config)
        layout = _load_layout(options.profile)
        source = frame_source or _open_source(options)
        frames = iter(source.frames())
        first = next(frames)
    except StopIteration:
        print(_("eleusis play: {source} gives no frame at all", source=source.name), file=sys.stderr)
        return 2
    except (ValueError, OSError, CameraError) as exc:
        print(f"eleusis play: {exc}", file=sys.stderr)
        return 2
    out = Path(options.out)
    try:
        recorder = RecordingWriter(out, {"players": list(config.players), "variant": "kruskal", "decks": 1,
                                         "source": str(options.video or options.camera or source.name),
                                         "lang": language()})
    except (FileExistsError, OSError, ValueError) as exc:
        print(f"eleusis play: {exc}", file=sys.stderr)
        return 2
    print(_("recording to {folder}", folder=out), file=sys.stderr)
    observer = TableObserver(layout, reader or default_reader())
    outlets = Outlets(voice, recorder, listeners=list(listeners))
    view = _view(options, session, recorder)  # listens first: the seal and every verdict are drawn
    outlets.listeners.append(view)
    if not (out / ENVELOPE_FILE).exists():  # R2: the rule and nonce, encrypted, before the seal is shown
        recorder.write_envelope(config.rule, session.nonce)
    show_seal(session.seal.commitment, out)
    outlets.deliver(session.begin(first.time_s))
    keys = stdin_keys() if options.camera is not None and sys.stdin.isatty() else None
    if keys is not None:
        print(_("q and Enter: end the round here, scored as it stands (KR7 ends it when the deck is turned)."),
              file=sys.stderr)
    stream: Iterable[Frame] = itertools.chain([first], frames)
    if options.camera is not None and frame_source is None:  # a camera that goes away pauses the round
        camera = source if isinstance(source, CameraSource) else None
        device = options.camera
        reopen = camera.frames if camera is not None else lambda: _open_source(LiveOptions(camera=device)).frames()
        stream = paused_frames(reopen, stream, outlets.say, wait_s=options.camera_wait_s)
    if view.window is not None and not view.window.headless:  # keys pressed in the view's window count too
        keys = view.window.key_source(keys)
    try:
        return _loop(stream, observer, session, outlets, recorder, out, layout.dictionary, keys, view)
    finally:
        view.close()


def _view(options: LiveOptions, session: KruskalSession, recorder: RecordingWriter) -> ViewOutlet:
    """The view of the table (`--window`): the line as the oracle turned it, the points and the
    seal, shown in a window when asked and kept in the recording at every verdict."""
    from dealer.screen.table_view import TableWindow

    window = TableWindow(headless=None if options.window is None else not options.window,
                         fullscreen=options.fullscreen)
    if not window.headless:
        print(_("the view of the table is in its window"), file=sys.stderr)
    elif window.why_headless:
        print(_("no window for the view of the table: {why}", why=window.why_headless), file=sys.stderr)
    return ViewOutlet(lambda: session.round, window, recorder.save_view, options.title, options.notes)


def _loop(frames: Iterable[Frame], observer: TableObserver, session: KruskalSession, outlets: Outlets,
          recorder: RecordingWriter, out: Path, dictionary: str, keys: Callable[[], str] | None = None,
          view: ViewOutlet | None = None) -> int:
    from vision.errors import CameraError

    seats = len(session.config.players)
    speed, code, interrupted, size = LoopStats(), 0, False, (0, 0)
    too_far = TooFarWatch()  # only the play zone is read in a Kruskal round: the oracle lays out the line
    try:
        for frame in frames:
            started, cpu = time.perf_counter(), time.process_time()
            size = (frame.bgr.shape[1], frame.bgr.shape[0])
            if keys is not None and keys().strip().lower() == "q":
                break  # the round ends here and is scored as it stands
            obs = observer.observe(frame.bgr, frame.time_s, frame.index)
            if view is not None:
                view.see(frame.index, frame.time_s, camera_picture(frame.bgr, obs.play_detections, obs.homography,
                                                                   observer.layout))
            if obs.view is None or obs.homography is None:
                speed.add(started, cpu)
                continue
            cards = tuple(seen.card for seen in obs.view.play_cards)
            look = KruskalLook(frame.time_s, cards, read_strip(frame.bgr, obs.homography, seats, dictionary),
                               obs.view.hand_over_play, frame.index)
            happened = session.observe(look)
            sights = observer.sights(*size)
            play_sight = None if sights is None else {n: s for n, s in sights.items() if n == ZONE_PLAY}
            happened += [Spoken(frame.time_s, words) for words in too_far.look(play_sight)]
            decisive = any(h.decisive for h in happened)
            if decisive:  # the frame first: a stop just after the verdict never loses it
                _keep(recorder, frame, obs.play_detections.to_json_cards(), look.predictions)
            outlets.deliver(happened)
            if decisive:
                _save_record(session, out)
            speed.add(started, cpu)
            if session.revealed:
                break
    except CameraError as exc:
        outlets.say(_("The camera is gone ({error}). Everything judged so far is saved in {folder}.",
                      error=exc, folder=out))
        code = 3
    except KeyboardInterrupt:
        interrupted, code = True, 130
    finally:
        if not session.revealed and not interrupted:
            if session.round is not None:
                outlets.say(_("The recording ended before the round did; the round is scored as it stands."))
            outlets.deliver(session.finish())
        _save_record(session, out)
        recorder.close()
    if interrupted:  # no resume for a Kruskal round: the rule stays sealed until revealed on purpose
        print("\n" + _("Stopped by Ctrl-C. The rule stays sealed; `eleusis reveal {folder}` reveals it.", folder=out),
              file=sys.stderr)
        return code
    if speed.frames:
        print(_("{frames} frames handled, {fps} frames a second ({cpu_fps} per CPU second) at {width}x{height}",
                frames=speed.frames, fps=f"{speed.fps:.1f}", cpu_fps=f"{speed.cpu_fps:.1f}", width=size[0],
                height=size[1]), file=sys.stderr)
    record = out / RECORD_FILE
    print(_("round recorded in {folder} (game record: {record})", folder=out, record=record) if record.exists() else
          _("round recorded in {folder} (no game record: the round never started)", folder=out), file=sys.stderr)
    show_log_hash(out)
    return code


def _keep(recorder: RecordingWriter, frame: Frame, cards: list[dict[str, Any]],
          predictions: Predictions | None) -> None:
    """The frame a decision was taken on, with the play zone's reading and the tokens shown
    (``seat1_true``: seat 1 says main line), for the review."""
    h, w = frame.bgr.shape[:2]
    scale = min(1.0, 1280.0 / max(w, h))
    small = cv2.resize(frame.bgr, (int(w * scale), int(h * scale))) if scale < 1.0 else frame.bgr
    ok, jpeg = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 80])
    if ok:
        recorder.save_frame(frame.time_s, frame.index, jpeg.tobytes())
    shown = [] if predictions is None else [f"seat{seat}_{'true' if main else 'false'}"
                                            for seat, main in sorted(predictions.shown.items())]
    recorder.write(Seen(t=frame.time_s, frame=frame.index, zone="play", cards=cards, tokens=shown))


def _save_record(session: KruskalSession, out: Path) -> None:
    text = session.game_record()
    if text:
        write_record(out, text)
