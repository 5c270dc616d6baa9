"""`eleusis game`: a whole game (G5): everyone deals once, scores add up, the winner is said.

    eleusis game                                                # the demo: three rounds from shipped records
    eleusis game --players 'Ana Bo Cy Dee' --camera 0          # the machine is God each round
    eleusis game --players 'Ana Bo Cy Dee' --gods Bo --camera 0 # Bo is God in Bo's round
    eleusis game --players 'Ana Bo Cy' --rounds 2 --record r1.eleusis r2.eleusis
    eleusis game --out games/friday --camera 0                  # go on with a game left off
    eleusis game --players 'Ana Bo Cy' --camera 0 --deck our-decks.json  # read only the enrolled decks

Round ``k`` is the turn of the k-th person to deal (the role passes to the left). The
machine is God, and that person plays, seated last; a person named in ``--gods`` is God
in their own round instead and does not play in it (C2), taking the dealer's score (G4).
After each round the totals are said; at the end the winner, or the tied leaders who
share the win (G5). The game folder keeps every round's recording and ``game.json``:
give the same ``--out`` again to go on after the last round played.

Exit status: 0 when the game is over or stopped cleanly between rounds (no more
records), 2 for bad input, 3 when the camera vanished during a round (the game goes on
from the round that was cut short).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from dealer.record.games import GameFolder, announce_round, announce_totals, announce_winner
from dealer.app.commands.table_options import add_secret_rule_options, add_table_options, deck_reader
from dealer.speech.i18n import Count, _, language, n_
from dealer.app.inputs import InputError, camera_source, person_names, round_count, video_file
from dealer.app.resume import Interrupted
from dealer.record.secret_rule import read_secret_rule
from dealer.record.recording import RECORD_FILE
from dealer.speech.variant_words import announce_stop
from dealer.speech.voice import Voice
from engine.game import GameError
from engine.variants import VARIANT_NAMES

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "game", help="a whole game: everyone deals once, scores add up, the winner is said (G5)",
        description="Play a whole game of Eleusis: a round per person (or --rounds N), the totals said "
        "after each round and the winner at the end (G5). Give the same --out again to go on with a game.")
    src = parser.add_mutually_exclusive_group()
    src.add_argument("--camera", type=camera_source, default=None, metavar="N|URL",
                     help="watch a camera: its number (0 = the first webcam) or a phone's stream URL")
    src.add_argument("--video", type=video_file, nargs="+", default=None, metavar="FILE",
                     help="recorded videos of the table, one per round, in order")
    src.add_argument("--record", type=Path, nargs="+", default=None, metavar="FILE",
                     help="game records (docs/record-format.md), one per round, in order, dealt aloud")
    parser.add_argument("--players", type=person_names, default=None,
                        help="everyone at the table, in seating order to the left, starting with the first to deal")
    parser.add_argument("--rounds", type=round_count, default=None, metavar="N",
                        help="rounds in the game, 1 to 100 (default: one per person, so everyone deals once, G5)")
    parser.add_argument("--gods", default="", metavar="NAMES",
                        help="persons who are God (the dealer) in their own round instead of the machine (C2)")
    parser.add_argument("--variant", choices=VARIANT_NAMES, default=None,
                        help="the game's variant: how scores add up (docs/rules-variants.md); default howell")
    parser.add_argument("--out", type=Path, default=None,
                        help="the game folder (default: games/<date-time>); an existing one goes on")
    add_secret_rule_options(parser, " of the rounds the machine deals")
    add_table_options(parser)
    parser.set_defaults(run=run)


def _error(message: str) -> int:
    print(f"eleusis game: {message}", file=sys.stderr)
    return 2


def _open_or_create(args: argparse.Namespace) -> GameFolder:
    folder = args.out or Path("games") / time.strftime("%Y%m%d-%H%M%S")
    persons = args.players.split() if args.players else None
    gods = args.gods.split()
    if (Path(folder) / "game.json").exists():
        game = GameFolder.open(folder)
        if persons is not None and tuple(persons) != game.game.persons:
            raise GameError(f"{str(folder)!r} is a game of {' '.join(game.game.persons)}, "
                            f"not of {' '.join(persons)}: leave out --players to go on with it")
        if args.variant is not None and args.variant != game.game.variant:
            raise GameError(f"{str(folder)!r} is a game of {game.game.variant}: leave out --variant")
        if args.rounds is not None and args.rounds != game.game.planned:
            raise GameError(f"{str(folder)!r} is a game of {game.game.planned} rounds: leave out --rounds")
        return game
    if persons is None:
        raise GameError("name everyone at the table, e.g. --players 'Ana Bo Cy Dee' (C2)")
    return GameFolder.create(folder, persons, args.rounds, gods, args.variant or "howell")


def run(args: argparse.Namespace) -> int:
    import tempfile

    from dealer.app.game_sources import check_sources, demo_game, persons_of_record

    with tempfile.TemporaryDirectory(prefix="eleusis-demo-game-") as work:
        demo = args.camera is None and args.video is None and args.record is None
        try:
            if demo:  # no table: the demo game from the shipped records, in the dealer's language
                persons, args.record = demo_game(language(), Path(work))
                args.players = args.players or persons
                args.rounds = args.rounds or len(args.record)
                if _is_game(args.out):  # a demo game left off goes on with the rounds not yet played
                    args.record = args.record[GameFolder.open(args.out).next_index:]
            elif args.record is not None and args.players is None and not _is_game(args.out):
                args.players = persons_of_record(args.record[0])
            args.rule = read_secret_rule(args.rule, args.rule_file)  # never from the command line itself (R2)
            reader = deck_reader(args.deck) if args.record is None else None  # once, before anything is written
        except (InputError, GameError, OSError) as exc:
            return _error(str(exc))
        problem = check_sources(args)  # before the game folder is made and anything is said
        if problem is not None:
            return _error(problem)
        try:
            game = _open_or_create(args)
        except (GameError, OSError) as exc:
            return _error(str(exc))
        if demo:
            print(n_("No table given: a demo game of {n} round dealt from shipped records, for {players}.",
                     "No table given: a demo game of {n} rounds dealt from shipped records, for {players}.",
                     len(args.record), players=", ".join(args.players.split())), file=sys.stderr)
        return _open_voice_and_play(game, args, reader)


def _is_game(out: Path | None) -> bool:
    from dealer.record.games import GAME_FILE

    return out is not None and (Path(out) / GAME_FILE).exists()


def _open_voice_and_play(game: GameFolder, args: argparse.Namespace, reader: Any) -> int:
    from dealer.speech.voice import VoiceError, open_voice

    try:
        voice, how = open_voice(args.voice, keep_dir=args.wav_dir)
    except VoiceError as exc:
        return _error(str(exc))
    print(how, file=sys.stderr)
    print(_("game folder: {folder}", folder=game.folder), file=sys.stderr)
    try:
        return _play(game, args, voice, reader)
    finally:
        voice.close()


def _play(game: GameFolder, args: argparse.Namespace, voice: Voice, reader: Any = None) -> int:
    """The rounds still to play; ``reader``: the enrolled decks' (`--deck`), else the default."""
    sources = list(args.video or args.record or [])
    if game.game.rounds:
        voice.say(_("The game goes on after round {n}.", n=len(game.game.rounds)))
        voice.say(announce_totals(game.game))
    while not game.game.complete:
        index = game.next_index
        dealer, seats = game.next_seating()
        if args.camera is None and not sources:
            left = game.game.planned - index
            print(_("eleusis game: no more videos: the game stops before round {n} ({left} to go). Give the same "
                    "--out with the next ones to go on.", n=index + 1, left=left) if args.video else
                  _("eleusis game: no more records: the game stops before round {n} ({left} to go). Give the same "
                    "--out with the next ones to go on.", n=index + 1, left=left), file=sys.stderr)
            stop = announce_stop(game.game)  # WK10: what stopping here would pay
            if stop is not None:
                voice.say(stop)
            return 0
        voice.say(announce_round(index, game.game.planned, dealer, seats, game.game.turn_to_deal(index)))
        # a round cut short goes on from its recording in its variant (a Kruskal round is dealt again)
        resumed = _interrupted_round(game, seats) if args.record is None else None
        folder = resumed.folder if resumed is not None else game.next_round_folder()
        from dealer.table.table_rules import LIVE_VARIANTS

        if args.record is None and game.game.variant not in (*LIVE_VARIANTS, "kruskal"):
            return _error(_("the live dealer does not deal {variant} yet: give its rounds with --record",
                            variant=game.game.variant))
        if args.record is not None:
            code = _deal_record(sources.pop(0), folder, seats, voice, game.game.variant)
        else:
            code = _deal_live(args, sources.pop(0) if sources else None, folder, dealer, seats, voice, game,
                              resumed, reader)
        if code != 0:
            if code == 3:
                voice.say(_("Round {n} was cut short: it does not count. Go on with the same --out.", n=index + 1))
            if code == 130 and game.game.variant == "kruskal":  # a Kruskal round is dealt again, not resumed
                print(_("eleusis game: round {n} was stopped: give the same --out (and the same video) again, and "
                        "the oracle deals it again from its start.", n=index + 1), file=sys.stderr)
            elif code == 130:  # Ctrl-C: the round stays open; the game goes on from it
                print(_("eleusis game: the game goes on from round {n} where it stopped: give the same --out "
                        "(and the same video) again.", n=index + 1), file=sys.stderr)
            return code
        try:
            game.add_round(folder)
        except GameError as exc:
            return _error(str(exc))
        voice.say(announce_totals(game.game))
    voice.say(announce_winner(game.game))
    return 0


def _interrupted_round(game: GameFolder, seats: tuple[str, ...]) -> Interrupted | None:
    """The next round's latest folder when its round was stopped mid-way (Ctrl-C, a crash):
    the game goes on with that round from its recording instead of dealing it again."""
    from dealer.record.recording import EVENTS_FILE
    from dealer.app.resume import ResumeError, read_interrupted

    latest = None
    candidate = game.folder / f"round-{game.next_index + 1}"
    again = 1
    while candidate.exists():
        latest = candidate
        again += 1
        candidate = candidate.with_name(f"round-{game.next_index + 1}-try{again}")
    if latest is None or not (latest / EVENTS_FILE).exists():
        return None
    try:
        state = read_interrupted(latest)
    except ResumeError:
        return None  # over, or nothing dealt: a fresh folder is taken
    return state if state.players == seats else None


def _deal_record(path: Path, folder: Path, seats: tuple[str, ...], voice: Voice, variant: str = "howell") -> int:
    """A round from a game record: checked against the round's seats, kept in the game
    folder, and dealt aloud turn by turn."""
    from dealer.app.demo import deal_record_aloud
    from engine.errors import RecordError
    from engine.record import parse_record

    try:
        text = Path(path).read_text(encoding="utf-8")
        start = parse_record(text).start
        players = start.players
    except (OSError, UnicodeDecodeError) as exc:
        return _error(f"cannot read the game record {str(path)!r}: {exc}")
    except RecordError as exc:
        return _error(f"{path}: {exc}")
    if start.variant != variant:  # a record of a variant says so in its header (docs/record-format.md)
        return _error(f"{path}: a round of {start.variant}, but this game plays {variant} (--variant)")
    if tuple(players) != seats:
        return _error(f"{path}: players {' '.join(players)}, but this round seats {' '.join(seats)} (G5)")
    folder.mkdir(parents=True)
    shutil.copyfile(path, folder / RECORD_FILE)
    return deal_record_aloud(folder / RECORD_FILE, voice)


def _deal_live(args: argparse.Namespace, video: Path | None, folder: Path, dealer: str | None,
               seats: tuple[str, ...], voice: Voice, game: GameFolder, resumed: Interrupted | None = None,
               reader: Any = None) -> int:
    """A round at the table (a camera) or from a video of it, recorded in ``folder``; an
    interrupted one (``resumed``) goes on from its recording with the rule it sealed.
    ``reader``: the enrolled decks' (`--deck`), or None for the default one."""
    from dealer.app.live import LiveOptions, run_live

    index = game.next_index
    if resumed is not None:
        voice.say(_("Round {n} goes on where it stopped.", n=index + 1))
        return run_live(LiveOptions(camera=args.camera, video=video, players=" ".join(seats), hand=resumed.hand,
                                    profile=args.profile, out=folder, window=args.window, fullscreen=args.fullscreen,
                                    settle_s=args.settle, resume=resumed, deck=args.deck, variant=resumed.variant,
                                    title=_("Round {n} of {planned}", n=index + 1, planned=game.game.planned),
                                    notes=(announce_totals(game.game),) if game.game.rounds else ()), voice, reader)
    notes = (announce_totals(game.game),) if game.game.rounds else ()
    rule = args.rule
    if dealer is not None:  # a person is God: the machine judges the rule that person wrote (C2)
        rule = _ask_rule(dealer, args.rule)
        if rule is None:
            return _error(f"round {index + 1}: {dealer} is God and must type the rule (run in a terminal) "
                          "or give it with --rule-file")
    elif args.camera is not None and index > 0 and sys.stdin.isatty():
        input(_("Round {n}: shuffle the deck for the oracle, then press Enter. ", n=index + 1)
              if game.game.variant == "kruskal" else  # KR1: nobody holds cards
              _("Round {n}: shuffle, deal {hand} cards each, then press Enter. ", n=index + 1,
                hand=Count(args.hand or 14)))
    if dealer is None and rule is None and args.difficulty:
        from dealer.app.commands.play import announce_difficulty, draw_rule

        rule = draw_rule(args.difficulty)
        voice.say(announce_difficulty(args.difficulty))
    options = LiveOptions(camera=args.camera, video=video, players=" ".join(seats), rule=rule,
                          hand=args.hand, profile=args.profile, out=folder, window=args.window,
                          fullscreen=args.fullscreen, settle_s=args.settle,
                          title=_("Round {n} of {planned}", n=index + 1, planned=game.game.planned),
                          notes=notes, deck=args.deck, variant=game.game.variant)
    if game.game.variant == "kruskal":  # KR3: the oracle turns the cards, on its own machine
        from dealer.app.kruskal_live import run_kruskal_live

        return run_kruskal_live(options, voice, reader)
    return run_live(options, voice, reader)


def _ask_rule(dealer: str, given: str | None) -> str | None:
    """God's rule, typed unseen at the terminal (R1); the --rule-file's when no one can type."""
    if not sys.stdin.isatty():
        return given
    import getpass

    from engine.rules import resolve_rule

    while True:
        text = getpass.getpass(_("{dealer}, type your rule (a library id or rule text; nothing shows): ",
                                 dealer=dealer)).strip()
        try:
            resolve_rule(text)
            return text
        except ValueError as exc:
            print(_("That rule cannot be used: {error}", error=exc), file=sys.stderr)
