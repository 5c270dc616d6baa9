"""`eleusis play`: deal a round at the table, or from a recording of one.

With no source it plays the recorded table shipped in the repo (a video of a whole
round on the printed mat, when present; otherwise the shipped example game record), so a
newcomer hears a full round at once. ``--camera N`` watches a real table.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

from dealer.app import demo
from dealer.app.commands.table_options import add_secret_rule_options, add_table_options, deck_reader
from dealer.speech.i18n import _, language, p_
from dealer.app.inputs import camera_source, pace_seconds, player_names, video_file
from engine.rules.library import TIERS
from engine.variants import VARIANT_NAMES

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "play",
        help="deal a round: from a camera, a video, or the shipped recorded table",
        description="Deal a round of Eleusis. With no source, plays the recorded table shipped "
        "in the repo and says every verdict.",
    )
    src = parser.add_mutually_exclusive_group()
    src.add_argument("--camera", type=camera_source, default=None, metavar="N|URL",
                     help="watch camera N (0 = the first webcam) or a stream URL: a phone's http MJPEG or RTSP "
                     "address (README: a phone as the camera)")
    src.add_argument("--video", type=video_file, default=None, help="a recorded video of the table")
    src.add_argument("--record", type=Path, default=None,
                     help="a game record (docs/record-format.md) to deal aloud turn by turn")
    parser.add_argument("--resume", type=Path, default=None, metavar="FOLDER",
                        help="go on with a round that was interrupted (Ctrl-C, a crash, a power cut): its "
                        "recording folder; the video goes on after the last decision, a camera goes on now")
    parser.add_argument("--players", type=player_names, default=None, help="seats from the dealer's left, e.g. 'Ana Bo Cy Dee' (C2, C5)")
    parser.add_argument("--allow-rejected-rule", action="store_true",
                        help="play a rule text even though the rule checker rejects it (see `eleusis rules check`)")
    parser.add_argument("--out", type=Path, default=None,
                        help="folder for the recording of this round (default: recordings/<date-time>)")
    parser.add_argument("--pace", type=pace_seconds, default=0.0,
                        help="with --record: seconds to wait between turns (default 0)")
    parser.add_argument("--variant", choices=VARIANT_NAMES, default="howell",
                        help="the game's variant (docs/rules-variants.md); the live dealer deals every "
                        "variant, and a --record of any variant is dealt aloud (default: howell)")
    parser.add_argument("--guess", action="append", default=None, metavar="RULE",
                        help="a player's guess of the rule, judged and said after the reveal and kept with the "
                        "recording (repeat it for each guess; at a terminal the dealer asks for them instead)")
    add_secret_rule_options(parser)
    add_table_options(parser)
    parser.set_defaults(run=run)


def _source_of(recorded: str, args: argparse.Namespace) -> None:
    """With --resume and no --video/--camera: the source the recording was made from."""
    if args.camera is not None or args.video is not None:
        return
    from vision.frames import camera_from_text

    if recorded.isdigit() or "://" in recorded:
        args.camera = camera_from_text(recorded)
    else:
        args.video = Path(recorded)


def _default_out() -> Path:
    return Path("recordings") / time.strftime("%Y%m%d-%H%M%S")


def _given_with(args: argparse.Namespace, source: str, options: tuple[str, ...], why: str) -> str | None:
    """The message for ``options`` given alongside ``source``, which supplies them itself; None if none is."""
    given = [name for name in options if getattr(args, name.removeprefix("--").replace("-", "_")) is not None]
    return f"{', '.join(given)} cannot be used with {source}: {why}" if given else None


def input_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the options, checked before anything is said or written;
    None when nothing is. A rule text must pass the checker unless --allow-rejected-rule."""
    if args.resume is not None:
        return _given_with(args, "--resume", ("--players", "--rule", "--hand", "--rule-file", "--out", "--record"),
                           "the recording holds the players, the sealed rule, the hand and the folder")
    if args.record is not None:
        return _given_with(args, "--record", ("--players", "--rule", "--rule-file", "--hand", "--out"),
                           "the game record names the players, the rule and the hand, and dealing it aloud "
                           "writes no recording")
    if (args.camera is not None or args.video is not None) and not args.players:
        return "name the players, e.g. --players 'Ana Bo Cy' (3 to 8, C2)"
    problem = _profile_problem(args.profile) or _out_problem(args.out)
    if problem is not None:
        return problem
    if args.rule is not None:
        from engine.rules import LIBRARY, RuleSyntaxError, check_rule, resolve_rule

        try:
            rule = resolve_rule(args.rule)
        except RuleSyntaxError as exc:
            return f"--rule: {exc}"
        if args.rule.strip() not in LIBRARY and not args.allow_rejected_rule:  # library rules are checked in the suite
            report = check_rule(rule)
            if not report.ok:
                return ("--rule: the rule checker rejects this rule (" + "; ".join(report.problems) + "); "
                        "`eleusis rules check` says more, --allow-rejected-rule plays it anyway")
    if args.players and args.hand is not None:
        from engine.cards import DECK_SIZE
        from engine.variants import spec_for

        seats = len(args.players.replace(",", " ").split())
        decks = spec_for(getattr(args, "variant", "howell")).decks_for(seats)  # WK1, EX1, AB1
        if seats and args.hand * seats + 1 > decks * DECK_SIZE:
            return (f"--hand {args.hand}: {seats} hands of {args.hand} and a starter need more than "
                    f"{decks * DECK_SIZE} cards (C1, C3)")
    return None


def _profile_problem(profile: Path | None) -> str | None:
    """--profile that cannot be read as a table profile, said before the round starts."""
    if profile is None:
        return None
    from calibration.errors import CalibrationError
    from calibration.profile import load_table_profile

    try:
        load_table_profile(profile)
    except (CalibrationError, OSError, ValueError) as exc:
        return f"--profile: {exc}"
    return None


def _out_problem(out: Path | None) -> str | None:
    """--out that is a file, or a folder that holds a round already begun (never overwritten;
    a log left before the seal is started again, as dealer.app.resume.discard_unstarted does)."""
    if out is None:
        return None
    from dealer.record.recording import ENVELOPE_FILE, EVENTS_FILE, LoadError, load_recording

    if out.exists() and not out.is_dir():
        return f"--out {str(out)!r} is a file, not a folder for the recording"
    log = out / EVENTS_FILE
    begun = (out / ENVELOPE_FILE).exists() or log.exists() and not log.is_file()
    if not begun and log.is_file() and log.stat().st_size > 0:
        try:
            begun = bool(load_recording(out).events)
        except LoadError:
            begun = b"\n" in log.read_bytes()[:1_000_000]  # a whole line not ours: kept
    if begun:
        return f"--out {str(out)!r}: {log} already holds a recording; choose another folder (or --resume it)"
    return None


def draw_rule(tier: str, rng: random.Random | None = None) -> str:
    """A library rule of ``tier`` (engine/rules/library.py), drawn so that no one knows
    which (R1): the machine is the dealer. The id is returned, never printed."""
    from engine.rules import LIBRARY

    if tier not in TIERS:
        raise ValueError(f"difficulty must be one of {', '.join(TIERS)}, got {tier!r}")
    ids = sorted(r.id for r in LIBRARY.values() if r.tier == tier)
    return (rng or random.SystemRandom()).choice(ids)


def announce_difficulty(tier: str) -> str:
    """What the dealer says about a rule it drew: its difficulty, not the rule (the tier
    words are in the catalogs under the context "difficulty": dealer/speech/i18n_extract.py)."""
    return _("The rule is chosen, difficulty: {difficulty}. It stays secret until the end of the round.",
             difficulty=p_("difficulty", tier))


def _guesses_at_end(args: argparse.Namespace, voice: Any, *, record: Path | None = None,
                    folder: Path | None = None) -> int:
    """After the reveal: the players' guesses (``--guess``, or typed at a terminal), judged,
    said, and kept with the recording (dealer/app/end_guesses.py)."""
    from dealer.app.end_guesses import ask_guesses, judge_guesses_at_end

    guesses = args.guess if args.guess is not None else ask_guesses() if sys.stdin.isatty() else []
    return judge_guesses_at_end(guesses, voice, record=record, folder=folder)


def _kruskal_problem(args: argparse.Namespace) -> str | None:
    """A Kruskal round is dealt from a camera or a video of its own table (its tokens,
    calibration/kruskal_tokens.py); the shipped recorded table is a Howell round."""
    if args.resume is not None:
        return _("--resume does not go on with a Kruskal round; it is dealt again from its start")
    if args.camera is None and args.video is None:
        return _("a Kruskal round is dealt from --camera or --video (the recorded demo table is Howell's game)")
    return None


def run(args: argparse.Namespace) -> int:
    from dealer.speech.voice import VoiceError, open_voice

    from dealer.table.table_rules import LIVE_VARIANTS

    if args.variant == "kruskal" and args.record is None:
        problem = _kruskal_problem(args)
        if problem is not None:
            print(f"eleusis play: {problem}", file=sys.stderr)
            return 2
    elif args.variant not in LIVE_VARIANTS and args.record is None:
        print(_("eleusis play: the live dealer does not deal {variant} yet: give a round of it with --record",
                variant=args.variant), file=sys.stderr)
        return 2
    if (args.rule or args.rule_file) and args.difficulty:
        print(_("eleusis play: give --rule or --difficulty, not both"), file=sys.stderr)
        return 2
    from dealer.app.inputs import InputError
    from dealer.record.secret_rule import read_secret_rule

    if args.record is None and args.resume is None:
        try:  # R2: never from the command line itself (dealer/record/secret_rule.py)
            args.rule = read_secret_rule(args.rule, args.rule_file)
        except InputError as exc:
            print(f"eleusis play: {exc}", file=sys.stderr)
            return 2
    problem = input_problem(args)
    if problem is not None:
        print(f"eleusis play: {problem}", file=sys.stderr)
        return 2
    resumed = None
    if args.resume is not None:
        from dealer.app.resume import ResumeError, read_interrupted

        try:
            resumed = read_interrupted(args.resume)
        except ResumeError as exc:
            print(f"eleusis play: {exc}", file=sys.stderr)
            return 2
        if args.variant not in ("howell", resumed.variant):  # the header names the round's variant
            print(_("eleusis play: {folder} holds a round of {recorded}, not {variant} (--variant)",
                    folder=args.resume, recorded=resumed.variant, variant=args.variant), file=sys.stderr)
            return 2
        args.variant = resumed.variant
        _source_of(resumed.source, args)
        args.players, args.hand, args.out = " ".join(resumed.players), resumed.hand, args.resume
    wav_dir = args.wav_dir
    if args.camera is None and args.video is None and args.record is None and args.variant != "howell":
        args.record = demo.shipped_record(args.variant)  # Howell's demo film is no round of another game
        print(_("No camera given: dealing the example round {record}.", record=args.record), file=sys.stderr)
    if args.camera is None and args.video is None and args.record is None:
        video = demo.shipped_video()
        if video is not None:
            args.video = video
            args.players = args.players or demo.demo_players(language())
            if not args.difficulty:
                args.rule = args.rule or demo.DEMO_RULE
            args.hand = args.hand or demo.DEMO_HAND
            print(_("No camera given: playing the recorded table {video}.", video=video), file=sys.stderr)
        else:
            args.record = demo.shipped_record()
            print(_("No camera given: dealing the example round {record}.", record=args.record), file=sys.stderr)
        if args.out is None:  # named once: a second look at the clock may fall in the next second
            args.out = _default_out()
        if wav_dir is None and args.voice != "text":
            wav_dir = args.out / "voice"
    difficulty = None
    if args.record is None and not args.rule and resumed is None:
        difficulty = args.difficulty or "easy"
        args.rule = draw_rule(difficulty)
    try:
        voice, how = open_voice(args.voice, keep_dir=wav_dir)
    except VoiceError as exc:
        print(f"eleusis play: {exc}", file=sys.stderr)
        return 2
    print(how, file=sys.stderr)
    try:
        if args.record is not None:
            code = demo.deal_record_aloud(args.record, voice, pace_s=args.pace,
                                          variant=None if args.variant == "howell" else args.variant)
            return _guesses_at_end(args, voice, record=args.record) if code == 0 else code
        from dealer.app.live import LiveOptions, run_live

        try:
            reader = deck_reader(getattr(args, "deck", None))
        except InputError as exc:
            print(f"eleusis play: {exc}", file=sys.stderr)
            return 2
        if difficulty is not None:
            voice.say(announce_difficulty(difficulty))
        options = LiveOptions(
            camera=args.camera, video=args.video, players=args.players, rule=args.rule,
            hand=args.hand, profile=args.profile, out=args.out or _default_out(), settle_s=args.settle,
            window=args.window, fullscreen=args.fullscreen,
            resume=resumed, deck=getattr(args, "deck", None), variant=args.variant,
        )
        if args.variant == "kruskal":
            from dealer.app.kruskal_live import run_kruskal_live

            code = run_kruskal_live(options, voice, reader)
        else:
            code = run_live(options, voice) if reader is None else run_live(options, voice, reader)
        return _guesses_at_end(args, voice, folder=options.out) if code == 0 else code
    finally:
        voice.close()
