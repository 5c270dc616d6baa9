"""What `eleusis game` deals from, checked against the game before anything is said.

- With no table (no --camera, --video or --record) it plays the demo game: three short
  rounds from the records shipped in ``dealer/data/demo-game/``, one per person, the turn to
  deal passing to the left (G5) and the machine God each time, so the person whose turn it
  is plays, seated last. The names are the players' of the dealer's language.
- A game record must seat its players as the game seats that round (C5, G5); without
  --players the persons are read from the first record.
- The shipped video is one round of hands of 5 for Ana, Bo and Cy under its own rule: a
  game over it gets those values, and options that contradict them are refused.

A source that cannot match the options is refused, naming both, before the game folder
is made and before a word is said.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from pathlib import Path

from dealer.app import demo
from dealer.app.inputs import InputError, read_text_file
from engine.errors import RecordError
from engine.game import Game, GameError
from engine.record import parse_record

__all__ = ["DEMO_GAME_DIR", "check_sources", "demo_game", "persons_of_record"]

DEMO_GAME_DIR = demo.DATA / "demo-game"
# The demo game's persons, in the records' own names; each language names them its way.
DEMO_GAME_PERSONS = ("Ana", "Bo", "Cy")


def demo_game(lang: str, workdir: Path) -> tuple[str, list[Path]]:
    """The demo game for ``lang``: its persons (one word each, space apart) and its rounds'
    records, written into ``workdir`` with the players named in that language."""
    names = dict(zip(DEMO_GAME_PERSONS, demo.demo_players(lang).split(), strict=True))
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b")
    paths = []
    for source in sorted(DEMO_GAME_DIR.glob("round-*.eleusis")):
        text = pattern.sub(lambda m: names[m.group(1)], source.read_text(encoding="utf-8"))
        target = workdir / source.name
        target.write_text(text, encoding="utf-8")
        paths.append(target)
    if not paths:
        raise FileNotFoundError(f"no shipped demo game: {DEMO_GAME_DIR} holds no round-*.eleusis")
    return " ".join(names[p] for p in DEMO_GAME_PERSONS), paths


def _players_of(path: Path) -> tuple[str, ...]:
    """The seats of a game record, from its dealer's left; InputError naming it otherwise."""
    text = read_text_file(path, "the game record")
    try:
        return tuple(parse_record(text).start.players)
    except RecordError as exc:
        raise InputError(f"{path}: {exc}") from None


def persons_of_record(path: Path) -> str:
    """The persons of a game whose first round is ``path``, the machine God: the person whose
    turn it was to deal played seated last (G5), so the game's order starts with that person."""
    seats = _players_of(path)
    return " ".join((seats[-1], *seats[:-1]))


def _planned(args: argparse.Namespace) -> tuple[Game, int, tuple[str, ...]]:
    """The game as it will be dealt (an existing game folder as it stands), the index of its
    next round and the persons who are God in their own round; nothing is written."""
    from dealer.record.games import GAME_FILE, GameFolder

    if args.out is not None and (Path(args.out) / GAME_FILE).exists():
        folder = GameFolder.open(args.out)
        return folder.game, folder.next_index, folder.gods
    if not args.players:
        raise GameError("name everyone at the table, e.g. --players 'Ana Bo Cy Dee' (C2)")
    return Game(args.players.split(), machine_deals=True, rounds=args.rounds), 0, tuple(args.gods.split())


def _seats(game: Game, index: int, gods: Sequence[str]) -> tuple[str, ...]:
    return game.seating(index, game.turn_to_deal(index) in gods)[1]


def check_sources(args: argparse.Namespace) -> str | None:
    """What keeps the records or the shipped video from being the game's rounds, or None.
    The shipped video's hand and rule are filled in when not given."""
    sources = list(args.record or args.video or [])
    if not sources:
        return None
    try:
        game, first, gods = _planned(args)
        rounds = range(first, min(game.planned, first + len(sources)))
        for index, source in zip(rounds, sources, strict=False):
            seats = _seats(game, index, gods)
            if args.record:
                players = _players_of(source)
                if players != seats:
                    return (f"{source}: its players sit {' '.join(players)}, but round {index + 1} of this game "
                            f"seats {' '.join(seats)} (the turn to deal passes to the left, G5); a game that "
                            f"starts with this record is one of --players '{persons_of_record(source)}'")
            elif demo.shipped_video() is not None and Path(source).resolve() == demo.DEMO_VIDEO.resolve():
                problem = _shipped_video_problem(args, index, seats)
                if problem is not None:
                    return problem
    except (GameError, InputError) as exc:
        return str(exc)
    return None


def _shipped_video_problem(args: argparse.Namespace, index: int, seats: tuple[str, ...]) -> str | None:
    video = demo.DEMO_VIDEO.name
    filmed = tuple(demo.DEMO_PLAYERS.split())
    if seats != filmed:
        return (f"{video} films {' '.join(filmed)} seated in that order, but round {index + 1} of this game "
                f"seats {' '.join(seats)}: its cards would be credited to the wrong players "
                f"(a one-round game over it is --players '{filmed[-1]} {' '.join(filmed[:-1])}' --rounds 1)")
    if args.hand is not None and args.hand != demo.DEMO_HAND:
        return f"{video} films hands of {demo.DEMO_HAND}, not --hand {args.hand}"
    if args.difficulty or args.rule is not None and args.rule.strip() != demo.DEMO_RULE:
        return f"{video} films a round under its own rule: leave out --rule, --rule-file and --difficulty"
    args.hand, args.rule = demo.DEMO_HAND, demo.DEMO_RULE
    return None
