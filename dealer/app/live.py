"""`eleusis play` at a table: frames -> table views -> the dealer session -> voice and recording.

The camera (or a video of a table) is read frame by frame; each frame is understood by
the :class:`~dealer.table.observer.TableObserver` and handed to the
:class:`~dealer.table.session.DealerSession`. Everything is written to the recording folder
as it happens: a vanished camera ends the round with what was already judged kept on
disk (the recording, the frames judged on, and the game record so far).
"""

from __future__ import annotations

import itertools
import random
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from calibration.layout import TableLayout
from dealer.table.happenings import Happening, Spoken
from dealer.speech.i18n import _, language, n_
from dealer.table.keys import KEY_HELP, Command, NamedCard, key_of, stdin_keys
from dealer.speech.narrate import status_words
from dealer.table.observer import ZoneReader, Observation, TableObserver
from dealer.table.camera_pause import DEFAULT_WAIT_S, paused_frames
from dealer.app.outlets import Outlets
from dealer.record.recording import ENVELOPE_FILE, LOG_HASH_QR, RECORD_FILE, SEAL_QR, RecordingWriter, Seen, log_hash, write_record
from dealer.app.resume import Interrupted, ResumeError, discard_unstarted, frames_after, restore
from dealer.table.session import DealerSession, SessionConfig, players_from_text
from dealer.table.protocol import SETTLE_S, TableToken, same_place
from dealer.table.too_far import TooFarWatch
from dealer.table.turn_input import Unseen
from dealer.screen.marked_cards import marked_cards
from dealer.screen.view_outlet import ViewOutlet, camera_picture
from dealer.speech.voice import Voice
from engine.cards import Card
from engine.round import Round
from vision.frames import CameraSource, Frame, FrameSource

__all__ = ["LiveOptions", "LoopStats", "run_live"]


@dataclass(frozen=True)
class LiveOptions:
    camera: int | str | None = None  # a device number or a stream URL
    video: Path | None = None
    players: str | None = None
    rule: str | None = None
    hand: int | None = None
    profile: Path | None = None
    out: Path = Path("recordings/latest")
    settle_s: float = SETTLE_S
    max_frames: int | None = None
    window: bool | None = None  # the view of the table in a window: None = when there is a display
    fullscreen: bool = False
    title: str = "Eleusis"  # the view's heading, e.g. "Round 2 of 4" in a game
    notes: tuple[str, ...] = ()  # more lines for the view, e.g. a game's totals
    resume: Interrupted | None = None  # `play --resume`: the round read back from its recording
    camera_wait_s: float = DEFAULT_WAIT_S  # a lost camera pauses the round this long at most
    deck: Path | None = None  # the deck profile the reader was made from (`play --deck`), if any
    variant: str = "howell"  # docs/rules-variants.md (dealer/table/table_rules.py: the live ones)


@dataclass
class LoopStats:
    """How fast the round was dealt: frames handled, and the seconds spent handling them
    (the observer, the session, the outlets), not waiting for the camera or the video."""

    frames: int = 0
    busy_s: float = 0.0
    cpu_s: float = 0.0  # CPU seconds of the process (all its threads) while handling them

    @property
    def fps(self) -> float:
        """Frames a second the dealer can handle (at least 15 at 1920x1080 to follow a hand)."""
        return self.frames / self.busy_s if self.busy_s > 0 else 0.0

    @property
    def cpu_fps(self) -> float:
        """Frames per CPU second: what a quiet machine gives at least (a busy one shares its
        cores with others, and the wall clock then says less than the dealer can do)."""
        return self.frames / self.cpu_s if self.cpu_s > 0 else 0.0

    def add(self, wall_start: float, cpu_start: float) -> None:
        self.frames += 1
        self.busy_s += time.perf_counter() - wall_start
        self.cpu_s += time.process_time() - cpu_start


def _pick_rule(rule: str | None) -> str:
    """The machine is the dealer: with no rule given it picks an easy library rule (R1)."""
    if rule:
        return rule
    from engine.rules import LIBRARY

    easy = sorted(r.id for r in LIBRARY.values() if r.tier == "easy")
    return random.SystemRandom().choice(easy)


def _open_source(options: LiveOptions) -> FrameSource:
    from vision.frames import VideoFileSource

    if options.camera is not None:
        return CameraSource(options.camera)
    assert options.video is not None
    return VideoFileSource(options.video)


def _load_layout(profile: Path | None) -> TableLayout:
    from calibration.layout import default_layout

    if profile is None:
        return default_layout()
    from calibration.profile import load_table_profile

    return load_table_profile(profile).layout


def default_reader() -> ZoneReader:
    from vision.classify import OnnxClassifier
    from vision.pipeline import CardReader

    return CardReader(OnnxClassifier())


def run_live(options: LiveOptions, voice: Voice, reader: ZoneReader | None = None,
             frame_source: FrameSource | None = None, listeners: Iterable[Callable[[Happening], None]] = (),
             stats: LoopStats | None = None) -> int:
    """Check everything that can be checked before the first frame, then deal (exit 0),
    or say what is wrong (exit 2, nothing recorded), or end on a vanished camera (exit 3).
    ``frame_source`` replaces the camera or video of ``options`` (the round bench's scripted
    table); ``listeners`` hear every happening; ``stats`` receives how fast it went."""
    from engine.deal import check_players
    from engine.rules import resolve_rule
    from vision.errors import CameraError
    from vision.frames import CameraSource

    if not options.players:
        print(_("eleusis play: name the players, e.g. --players 'Ana Bo Cy' (3 to 8, C2)"), file=sys.stderr)
        return 2
    resumed = options.resume
    rule = resumed.rule if resumed is not None and resumed.rule is not None else _pick_rule(options.rule)
    from engine.variants import spec_for

    seats = players_from_text(options.players)
    spec = spec_for(options.variant)  # WK1, EX1, AB1: the variant's shoe and hands
    config = SessionConfig(players=seats, rule=rule,
                           hand_size=options.hand or spec.hand_for(len(seats)),
                           settle_s=options.settle_s,
                           decks=resumed.decks if resumed is not None else spec.decks_for(len(seats)),
                           variant=options.variant)
    try:
        check_players(config.players)
        resolve_rule(config.rule)
        layout = _load_layout(options.profile)
        source = frame_source or _open_source(options)
        frames = iter(source.frames() if resumed is None or options.camera is not None
                      else frames_after(source.frames(), resumed.last_t))  # a video goes on after the stop
        first = next(frames)  # a camera that cannot open says so now, before anything is recorded
        if isinstance(source, CameraSource):
            print(source.report(), file=sys.stderr)  # what the camera gave: 1920x1080 was asked
    except StopIteration:
        print(_("eleusis play: {source} gives no frame at all", source=source.name), file=sys.stderr)
        return 2
    except (ValueError, OSError, CameraError) as exc:
        print(f"eleusis play: {exc}", file=sys.stderr)
        return 2
    out = Path(options.out)
    try:
        if resumed is not None:
            recorder = RecordingWriter.resume(out)
        else:
            discard_unstarted(out)  # a round stopped before its seal: nothing was dealt, start again
            header = {"players": list(config.players), "hand": config.hand_size, "decks": config.decks,
                      "source": str(options.video or options.camera or source.name),
                      "lang": language()}  # the review speaks it by default
            if config.variant != "howell":
                header["variant"] = config.variant
            recorder = RecordingWriter(out, header)
    except (FileExistsError, OSError, ValueError) as exc:
        print(f"eleusis play: {exc}", file=sys.stderr)
        return 2
    print(_("recording to {folder}", folder=out), file=sys.stderr)
    observer = TableObserver(layout, reader or default_reader())
    point, opening = None, None
    if resumed is not None and resumed.sealed:
        try:
            point, opening = restore(config, resumed, now=first.time_s if options.camera is not None else None)
        except ResumeError as exc:
            recorder.close()
            print(f"eleusis play: {exc}", file=sys.stderr)
            return 2
    session = DealerSession(config, nonce=resumed.nonce if resumed is not None else None, at=point)
    keys = stdin_keys() if options.camera is not None and sys.stdin.isatty() else None
    outlets = Outlets(voice, recorder, listeners=list(listeners))
    stream: Iterable[Frame] = itertools.chain([first], frames)
    camera = source if isinstance(source, CameraSource) else None
    if options.camera is not None:  # a camera that goes away pauses the round
        device = options.camera
        # the same camera reopened: its report counts the frames dropped over the whole round
        reopen = camera.frames if camera is not None else lambda: _open_source(LiveOptions(camera=device)).frames()
        stream = paused_frames(reopen, stream, outlets.say, wait_s=options.camera_wait_s, tell=session.camera)
    view = _view(options, session, recorder)
    outlets.listeners.append(view)
    if view.window is not None and not view.window.headless:  # keys pressed in the view's window count too
        keys = view.window.key_source(keys)
    try:
        return _loop(stream, observer, session, outlets, out, options, keys, view, opening, stats, camera)
    finally:
        view.close()


def _view(options: LiveOptions, session: DealerSession, recorder: RecordingWriter) -> ViewOutlet:
    """The view of the table: in a window when asked (or when there is a display), and
    into the recording at every decisive happening."""
    from dealer.screen.table_view import TableWindow

    window = TableWindow(headless=None if options.window is None else not options.window,
                         fullscreen=options.fullscreen)
    if not window.headless:
        print(_("the view of the table is in its window"), file=sys.stderr)
    elif window.why_headless:
        print(_("no window for the view of the table: {why}", why=window.why_headless), file=sys.stderr)
    # the view draws Howell's layout and its variants'; an abbott-1959 round is shown by its camera picture only
    return ViewOutlet(lambda: session.round if isinstance(session.round, Round) else None, window,
                      recorder.save_view, options.title, options.notes)


def _loop(frames_in: Iterable[Frame], observer: TableObserver, session: DealerSession,
          outlets: Outlets, out: Path, options: LiveOptions, keys: Callable[[], str] | None = None,
          view: ViewOutlet | None = None, resumed: list[Happening] | None = None,
          stats: LoopStats | None = None, camera: CameraSource | None = None) -> int:
    """Frames in, happenings out: to the voice, the recording and its kept frames.
    ``resumed``: what to say when a round goes on from its recording (the seal was shown).
    At the end it prints how many frames a second it handled (``stats`` gets the figures)
    and, when the dealer was slower than the ``camera``, how many of its frames it dropped."""
    from vision.errors import CameraError

    kept, undo = set[int](), False
    too_far = TooFarWatch()
    speed = stats if stats is not None else LoopStats()
    frame_size = (0, 0)
    if resumed is not None:
        outlets.deliver(resumed)
    else:
        if outlets.recorder is not None:  # R2: the rule and nonce, encrypted, before the seal is shown
            if not (out / ENVELOPE_FILE).exists():  # a resumed round keeps the rule it sealed
                outlets.recorder.write_envelope(session.config.rule, session.nonce)
            show_seal(session.seal.commitment, out)
        outlets.deliver(session.begin())
    if keys is not None:
        print(_(KEY_HELP), file=sys.stderr)
    code, frames, last_message, interrupted = 0, 0, "", False
    try:
        for frame in frames_in:
            started, cpu_started = time.perf_counter(), time.process_time()
            frames += 1
            frame_size = (frame.bgr.shape[1], frame.bgr.shape[0])
            pressed = key_of(keys(), frame.time_s) if keys is not None else None
            if pressed is Command.QUIT or (options.max_frames is not None and frames > options.max_frames):
                break
            undo = undo or pressed is Command.UNDO  # taken back on the next frame the table is seen
            key_said = session.press(pressed) if pressed is not None and not isinstance(pressed, Command) else []
            obs = observer.observe(frame.bgr, frame.time_s, frame.index)
            if view is not None:
                view.see(frame.index, frame.time_s, camera_picture(frame.bgr, obs.play_detections,
                                                                   observer.tracker.homography, observer.layout))
            if obs.view is None:
                if obs.message != last_message:
                    print(_("table: {status}", status=status_words(obs.message)), file=sys.stderr)
                last_message = obs.message
                why = Unseen.NO_MAT if obs.unseen is None else obs.unseen
                # never silent: the players hear that nothing is judged
                outlets.deliver(key_said + session.unseen(frame.time_s, why))
                speed.add(started, cpu_started)
                continue
            last_message = obs.message
            happened = session.seen(obs.view, camera_moving=observer.camera_moved_within(frame.time_s, 1.0))
            # a zone whose cards are too small in the picture: named, with how much closer
            happened += [Spoken(frame.time_s, words) for words in too_far.look(observer.sights(*frame_size))]
            happened += key_said
            happened += session.undo_last() if undo else []
            undo = False
            answered = session.observe(obs.view)
            happened += answered
            decisive = any(h.decisive for h in happened)
            named = session.protocol.state.keyed.named
            if decisive:  # the frame first: a stop just after the verdict line never loses it
                _keep(outlets.recorder, frame, obs, kept, named)
            elif answered and TableToken.NO_PLAY in obs.view.tokens_in_play:
                _keep(outlets.recorder, frame, obs, kept, named)  # a batch of a hand shown (N1): reviewed too
            outlets.deliver(happened)
            if decisive:
                _save_record(session, out)
            speed.add(started, cpu_started)
            if session.round is not None and session.round.ended is not None:
                break
    except CameraError as exc:
        outlets.say(_("The camera is gone ({error}). Everything judged so far is saved in {folder}.",
                      error=exc, folder=out))
        code = 3
    except KeyboardInterrupt:  # Ctrl-C: stop where we are; the round stays open, to be resumed
        interrupted, code = True, 130
    finally:
        if not interrupted and session.round is not None and session.round.ended is None:
            outlets.say(_("The recording ended before the round did; the round is scored as it stands."))
            outlets.deliver(session.finish())
        _save_record(session, out)
        if outlets.recorder is not None:
            outlets.recorder.close()
    if interrupted:
        print("\n" + _("Stopped by Ctrl-C. Nothing is lost: `eleusis play --resume {folder}` goes on from "
                        "here (the rule stays sealed).", folder=out), file=sys.stderr)
        return code
    if speed.frames:
        print(_("{frames} frames handled, {fps} frames a second ({cpu_fps} per CPU second) at {width}x{height}",
                frames=speed.frames, fps=f"{speed.fps:.1f}", cpu_fps=f"{speed.cpu_fps:.1f}", width=frame_size[0],
                height=frame_size[1]), file=sys.stderr)
    if camera is not None and camera.dropped:
        print(camera.report(), file=sys.stderr)  # it judged the newest frame, never a backlog
    hint = deck_hint(session.protocol.unread_asks_in_round, enrolled=options.deck is not None)
    if hint is not None:
        print(hint, file=sys.stderr)
    record = out / RECORD_FILE
    print(_("round recorded in {folder} (game record: {record})", folder=out, record=record) if record.exists() else
          _("round recorded in {folder} (no game record: the round never started)", folder=out), file=sys.stderr)
    if outlets.recorder is not None:
        show_log_hash(out)
    return code


# Unread-card requests in a round, without a deck profile, from which the deck is said to be
# worth enrolling: a design the model reads poorly keeps a card or two unread
# (the bench's penguins queens, bellot's 8C), and a profile of the deck reads them.
DECK_HINT_AFTER = 3


def deck_hint(unread_asks: int, enrolled: bool) -> str | None:
    """After the round: a line telling how to teach the dealer this deck, when it asked
    ``DECK_HINT_AFTER`` times or more for a card it could not read and read without a
    deck profile (``enrolled``: `play --deck` was given); else None.

    >>> deck_hint(2, enrolled=False) is None, deck_hint(5, enrolled=True) is None
    (True, True)
    >>> deck_hint(3, enrolled=False).startswith("I asked 3 times for a card I could not read. If your deck")
    True
    """
    if enrolled or unread_asks < DECK_HINT_AFTER:
        return None
    how = _("If your deck's print is unusual, let me learn it before the next round (about two minutes a deck): "
            "`eleusis calibrate deck --camera 0 --out our-decks.json`, then play with `--deck our-decks.json` "
            "(docs/playing-at-the-table.md, \"Your own decks\").")
    return n_("I asked once for a card I could not read.", "I asked {n} times for a card I could not read.",
              unread_asks) + " " + how


def show_seal(commitment: str, out: Path) -> None:
    """Before the deal: the full seal and its QR code on the terminal and in the folder (R2)."""
    from dealer.record.seal_show import save_qr, seal_block

    print(seal_block(commitment), file=sys.stderr)
    save_qr(f"sha256:{commitment}", out / SEAL_QR)


def show_log_hash(out: Path) -> None:
    """After the round: the hash of the whole log and its QR code (`eleusis verify` checks it)."""
    from dealer.record.seal_show import log_hash_block, save_qr

    digest = log_hash(out)
    print(log_hash_block(digest, out), file=sys.stderr)
    save_qr(f"sha256:{digest}", out / LOG_HASH_QR)


def _keep(recorder: RecordingWriter | None, frame: Frame, obs: Observation, kept: set[int],
          named: Sequence[NamedCard] = ()) -> None:
    """The frame a decision was taken on, with what was read in the play zone (the review's);
    a card the players named (keys) is kept as ``named`` beside the camera's reading."""
    if recorder is None or obs.view is None or frame.index in kept:
        return
    kept.add(frame.index)
    names = _names_of(obs, named)
    cards = obs.play_detections.to_json_cards()
    for item, name in zip(cards, names, strict=True):
        if name is not None:
            item["named"] = str(name)
    _keep_frame(recorder, frame.time_s, frame.index, marked_cards(frame.bgr, obs.play_detections, names))
    recorder.write(Seen(t=frame.time_s, frame=frame.index, zone="play", cards=cards,
                        tokens=sorted(t.value for t in obs.view.tokens_in_play)))


def _names_of(obs: Observation, named: Sequence[NamedCard]) -> list[Card | None]:
    """For each play-zone card the camera did not read, the card the players named at its
    place (:func:`dealer.table.protocol.same_place`), else None."""
    detections = obs.play_detections
    out: list[Card | None] = [None] * len(detections)
    if not named or obs.homography is None or not len(detections):
        return out
    centres = obs.homography.to_table_mm(detections.center_xy)
    for i, (x, y) in enumerate(centres):
        near = [n.card for n in named if same_place((n.x_mm, n.y_mm), (float(x), float(y)))]
        if near and not detections.is_read[i]:
            out[i] = near[-1]
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
    if text:
        write_record(out, text)
