"""`eleusis play` at a table: frames -> table views -> the dealer session -> voice and recording.

The camera (or a video of a table) is read frame by frame; each frame is understood by
the :class:`~dealer.observer.TableObserver` and handed to the
:class:`~dealer.session.DealerSession`. Everything is written to the recording folder
as it happens: a vanished camera ends the round with what was already judged kept on
disk (the recording, the frames judged on, and the game record so far).
"""

from __future__ import annotations

import itertools
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from dealer.keys import KEY_HELP, KeyState, stdin_keys
from dealer.layout_watch import ExpectedLayout, ObservedCard, SideBranch, check_layout
from dealer.observer import CardReader, Observation, TableObserver
from dealer.recording import RecordingWriter, Seen
from dealer.session import DealerSession, SessionConfig, players_from_text
from dealer.table_protocol import Phase
from dealer.voice import Voice
from engine.events import DEFAULT_HAND

__all__ = ["LiveOptions", "run_live"]

RECORD_FILE = "round.eleusis"


@dataclass(frozen=True)
class LiveOptions:
    camera: int | None = None
    video: Path | None = None
    players: str | None = None
    rule: str | None = None
    hand: int | None = None
    profile: Path | None = None
    out: Path = Path("recordings/latest")
    settle_s: float = 2.0
    max_frames: int | None = None


def _pick_rule(rule: str | None) -> str:
    """The machine is the dealer: with no rule given it picks an easy library rule (R1)."""
    if rule:
        return rule
    from engine.rules import LIBRARY

    easy = sorted(r.id for r in LIBRARY.values() if r.tier == "easy")
    return random.SystemRandom().choice(easy)


def _open_source(options: LiveOptions):  # type: ignore[no-untyped-def]
    from vision.frames import CameraSource, VideoFileSource

    if options.camera is not None:
        return CameraSource(options.camera)
    assert options.video is not None
    return VideoFileSource(options.video)


def _load_layout(profile: Path | None):  # type: ignore[no-untyped-def]
    from calibration.layout import default_layout

    if profile is None:
        return default_layout()
    from calibration.profile import load_table_profile

    return load_table_profile(profile).layout


def default_reader() -> CardReader:
    from vision.classify import OnnxClassifier
    from vision.pipeline import CardReader

    return CardReader(OnnxClassifier())


def run_live(options: LiveOptions, voice: Voice, reader: CardReader | None = None) -> int:
    """Check everything that can be checked before the first frame, then deal (exit 0),
    or say what is wrong (exit 2, nothing recorded), or end on a vanished camera (exit 3)."""
    from engine.deal import check_players
    from engine.rules import resolve_rule
    from vision.errors import CameraError

    if not options.players:
        print("eleusis play: name the players, e.g. --players 'Ana Bo Cy' (3 to 8, C2)", file=sys.stderr)
        return 2
    config = SessionConfig(players=players_from_text(options.players), rule=_pick_rule(options.rule),
                           hand_size=options.hand or DEFAULT_HAND, settle_s=options.settle_s)
    try:
        check_players(config.players)
        resolve_rule(config.rule)
        layout = _load_layout(options.profile)
        source = _open_source(options)
        frames = iter(source.frames())
        first = next(frames)  # a camera that cannot open says so now, before anything is recorded
    except StopIteration:
        print(f"eleusis play: {source.name} gives no frame at all", file=sys.stderr)
        return 2
    except (ValueError, OSError, CameraError) as exc:
        print(f"eleusis play: {exc}", file=sys.stderr)
        return 2
    out = Path(options.out)
    try:
        recorder = RecordingWriter(out, {"players": list(config.players), "hand": config.hand_size,
                                         "decks": config.decks, "source": str(options.video or options.camera)})
    except (FileExistsError, OSError) as exc:
        print(f"eleusis play: {exc}", file=sys.stderr)
        return 2
    print(f"recording to {out}", file=sys.stderr)
    observer = TableObserver(layout, reader or default_reader())
    session = DealerSession(config, voice, recorder)
    keys = stdin_keys() if options.camera is not None and sys.stdin.isatty() else None
    return _loop(itertools.chain([first], frames), observer, session, recorder, out, options, keys)


def _loop(source, observer: TableObserver, session: DealerSession, recorder: RecordingWriter,  # type: ignore[no-untyped-def]
          out: Path, options: LiveOptions, keys: Callable[[], str] | None = None) -> int:
    from vision.errors import CameraError

    state = KeyState()
    last_problems: list[str] = []
    session.begin()
    if keys is not None:
        print(KEY_HELP, file=sys.stderr)
    kept: set[int] = set()
    last_message = ""
    code = 0
    frames = 0
    stream = source.frames() if hasattr(source, "frames") else source  # a FrameSource, or its frames
    try:
        for frame in stream:
            frames += 1
            if keys is not None:
                state.press(keys())
                if state.quit:
                    break
            obs = observer.observe(frame.bgr, frame.time_s, frame.index)
            if obs.message != last_message and obs.view is None:
                print(f"table: {obs.message}", file=sys.stderr)
            last_message = obs.message
            if obs.view is None:
                continue
            if state.undo:
                state.undo = False
                last_problems = []
                if session.undo_last():
                    _save_record(session, out)
            view = state.apply(obs.view)
            if state.judge_now:
                session.protocol.settle_now()
                state.judge_now = False
            if last_problems:  # P5: judge nothing new while the picture is wrong
                problems = layout_problems(session, obs)
                if not problems:
                    session.voice.say("The layout is right again.")
                elif problems != last_problems:
                    session.report_trouble("Still out of place: " + " ".join(problems), frame.index)
                last_problems = problems
                continue
            before = session.decisions
            phase_before = session.protocol.phase
            session.observe(view)
            if phase_before is Phase.CLEARING and session.protocol.phase is Phase.WAITING:
                problems = layout_problems(session, obs)  # P5: check the table before the next turn
                if problems:
                    session.report_trouble("The layout does not match: " + " ".join(problems), frame.index)
                last_problems = problems
            if session.decisions != before:
                state.after_verdict()
            if session.decisions != before and frame.index not in kept:
                kept.add(frame.index)
                _keep_frame(recorder, frame.time_s, frame.index, _annotated(frame.bgr, obs.readings))
                recorder.write(Seen(t=frame.time_s, frame=frame.index, zone="play", cards=obs.readings,
                                    tokens=sorted(t.value for t in obs.view.tokens_in_play)))
                _save_record(session, out)
            if session.round is not None and session.round.ended is not None:
                break
            if options.max_frames is not None and frames >= options.max_frames:
                break
    except CameraError as exc:
        session.voice.say(f"The camera is gone ({exc}). Everything judged so far is saved in {out}.")
        code = 3
    finally:
        if session.round is not None and session.round.ended is None:
            session.voice.say("The recording ended before the round did; the round is scored as it stands.")
            session.finish()
        _save_record(session, out)
        recorder.close()
    print(f"round recorded in {out} (game record: {out / RECORD_FILE})", file=sys.stderr)
    return code


def layout_problems(session: DealerSession, obs: Observation) -> list[str]:
    """What lies out of place on the main line and side branches (P5), when the camera
    sees both zones whole; [] when it matches or cannot be checked from this view."""
    from calibration.layout import ZONE_MAIN_LINE, ZONE_SIDE_BRANCHES

    rnd = session.round
    if rnd is None or not {ZONE_MAIN_LINE, ZONE_SIDE_BRANCHES} <= obs.zones_in_view:
        return []
    layout = rnd.layout
    expected = ExpectedLayout(tuple(layout.main), tuple(SideBranch(b.anchor, b.cards) for b in layout.branches))
    observed = [ObservedCard.at(c.label, c.x_mm, c.y_mm, ZONE_MAIN_LINE) for c in obs.line_cards if c.label]
    observed += [ObservedCard.at(c.label, c.x_mm, c.y_mm, ZONE_SIDE_BRANCHES) for c in obs.branch_cards if c.label]
    return check_layout(expected, observed).messages()


def _annotated(bgr: np.ndarray, readings: list[dict[str, object]]) -> np.ndarray:
    """A copy of the frame with each play-zone card's outline and reading, for the review."""
    out = bgr.copy()
    for reading in readings:
        quad = np.asarray(reading["corners"], np.float32).reshape(-1, 1, 2).astype(np.int32)
        label = reading.get("card")
        colour = (40, 200, 40) if label else (0, 0, 230)
        cv2.polylines(out, [quad], True, colour, 3)
        text = f"{label} {float(reading['confidence']):.2f}" if label else "unsure"  # type: ignore[arg-type]
        x, y = int(quad[:, 0, 0].min()), int(quad[:, 0, 1].min()) - 8
        cv2.putText(out, text, (x, max(20, y)), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (0, 0, 0), 5, cv2.LINE_AA)
        cv2.putText(out, text, (x, max(20, y)), cv2.FONT_HERSHEY_SIMPLEX, 0.9, colour, 2, cv2.LINE_AA)
    return out


def _keep_frame(recorder: RecordingWriter, t: float, index: int, bgr: np.ndarray) -> None:
    h, w = bgr.shape[:2]
    scale = min(1.0, 1280.0 / max(w, h))
    small = cv2.resize(bgr, (int(w * scale), int(h * scale))) if scale < 1.0 else bgr
    ok, jpeg = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 80])
    if ok:
        recorder.save_frame(t, index, jpeg.tobytes())


def _save_record(session: DealerSession, out: Path) -> None:
    text = session.game_record()
    if not text:
        return
    tmp = out / (RECORD_FILE + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(out / RECORD_FILE)
