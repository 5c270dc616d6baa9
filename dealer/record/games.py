"""A whole game on disk (G5): a game folder holding one recording folder per round.

    GAME/game.json     persons, the planned rounds, who chose to be God, the rounds played
    GAME/round-1/      a round's recording (round.eleusis: its game record)
    GAME/round-2/      ...

The totals are never stored: they are computed again from each round's game record by
the engine (``engine.game.Game``), so the scores a game announces are the ones
``eleusis judge`` gives for the same records. A game can stop between any two rounds
(a camera that vanished, no more records, Ctrl-C) and go on later from its folder.
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dealer.speech.i18n import _, and_list, n_
from dealer.record.recording import RECORD_FILE
from engine.errors import RecordError
from engine.game import Game, GameError, GameRound
from engine.judging import judge_text
from engine.rules import resolve_rule

__all__ = [
    "GAME_FILE",
    "GameFolder",
    "announce_round",
    "announce_totals",
    "announce_winner",
    "game_dir_of",
    "scores_html",
    "scores_rows",
]

GAME_FILE = "game.json"
GAME_FORMAT = "eleusis-game"
GAME_VERSION = 1


@dataclass
class GameFolder:
    """A game and its folder: create it, or open it again to go on (G5)."""

    folder: Path
    game: Game
    gods: tuple[str, ...] = ()
    played: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def create(cls, folder: Path, persons: Sequence[str], rounds: int | None = None,
               gods: Sequence[str] = (), variant: str = "howell") -> GameFolder:
        """A new game: ``gods`` are the persons who are God in their own dealing round
        (they do not play in it); in every other round the machine is God (C2)."""
        folder = Path(folder)
        if (folder / GAME_FILE).exists():
            raise GameError(f"{str(folder)!r} already holds a game: give it alone to go on with it")
        game = Game(persons, machine_deals=True, rounds=rounds, variant=variant)
        unknown = [g for g in gods if g not in game.persons]
        if unknown:
            raise GameError(f"--gods {' '.join(unknown)}: not among the persons {' '.join(game.persons)}")
        made = cls(folder, game, tuple(gods))
        for index in range(game.planned):  # every round must have 3 to 8 players (C2): say it now
            game.seating(index, made.person_deals(index))
        folder.mkdir(parents=True, exist_ok=True)
        made.save()
        return made

    @classmethod
    def open(cls, folder: Path) -> GameFolder:
        """A game folder as it was left: every played round is judged again from its record."""
        folder = Path(folder)
        path = folder / GAME_FILE
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise GameError(f"{str(folder)!r}: no game here ({GAME_FILE} is missing)") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise GameError(f"{str(path)!r}: not a readable game file: {exc}") from None
        if not isinstance(data, dict) or data.get("format") != GAME_FORMAT:
            raise GameError(f"{str(path)!r}: not an Eleusis game file")
        if data.get("version") != GAME_VERSION:
            raise GameError(f"{str(path)!r}: game file version {data.get('version')!r} is not supported "
                            f"(this dealer reads version {GAME_VERSION})")
        try:
            persons = [str(p) for p in data["persons"]]
            rounds = int(data["rounds"])
            gods = tuple(str(g) for g in data.get("gods", []))
            played = [dict(p) for p in data.get("played", [])]
            variant = str(data.get("variant", "howell"))  # a game file without it is Howell's
        except (KeyError, TypeError, ValueError) as exc:
            raise GameError(f"{str(path)!r}: a field is missing or wrong: {exc}") from None
        made = cls(folder, Game(persons, machine_deals=True, rounds=rounds, variant=variant), gods)
        for entry in played:
            made._replay(str(entry.get("folder", "")), entry.get("dealer"))
        return made

    def person_deals(self, index: int) -> bool:
        """Is the person whose turn it is to deal in round ``index`` God (not the machine)?"""
        return self.game.turn_to_deal(index) in self.gods

    @property
    def next_index(self) -> int:
        return len(self.game.rounds)

    def next_seating(self) -> tuple[str | None, tuple[str, ...]]:
        """The next round's God (None: the machine) and its seats from God's left (C5)."""
        return self.game.next_seating(self.person_deals(self.next_index))

    def next_round_folder(self) -> Path:
        """A fresh folder for the next round (a round cut short keeps its own)."""
        base = self.folder / f"round-{self.next_index + 1}"
        path, again = base, 1
        while path.exists():
            again += 1
            path = base.with_name(f"{base.name}-try{again}")
        return path

    def add_round(self, round_folder: Path) -> GameRound:
        """Judge the round recorded in ``round_folder`` and add it; the game file is saved."""
        dealer, _seats = self.next_seating()
        played = self._replay(Path(round_folder).name, dealer)
        self.save()
        return played

    def _replay(self, name: str, dealer: object) -> GameRound:
        record = self.folder / name / RECORD_FILE
        where = f"round {self.next_index + 1} ({record})"
        try:
            text = record.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise GameError(f"{where}: cannot read the game record: {exc}") from None
        try:
            judgement = judge_text(text, resolve_rule)
        except (RecordError, ValueError) as exc:
            raise GameError(f"{where}: {exc}") from None
        if judgement.record.start.variant != self.game.variant:  # scores add up one variant's way
            raise GameError(f"{where}: a round of {judgement.record.start.variant}, but this game plays "
                            f"{self.game.variant}")
        result = judgement.round.result()
        try:
            played = self.game.add(result)
        except GameError as exc:
            raise GameError(f"{where}: {exc}") from None
        if played.dealer != dealer:
            god = played.dealer or "the machine"
            raise GameError(f"{where}: the seats say {god} was God, the game file says {dealer or 'the machine'}")
        self.played.append({"folder": name, "dealer": played.dealer})
        return played

    def save(self) -> None:
        data = {"format": GAME_FORMAT, "version": GAME_VERSION, "persons": list(self.game.persons),
                "rounds": self.game.planned, "gods": list(self.gods), "played": self.played}
        if self.game.variant != "howell":
            data["variant"] = self.game.variant
        path = self.folder / GAME_FILE
        tmp = path.with_name(GAME_FILE + ".tmp")
        tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, path)


def game_dir_of(round_folder: Path) -> Path | None:
    """The game folder a round recording belongs to, or None for a round on its own."""
    parent = Path(round_folder).resolve().parent
    return parent if (parent / GAME_FILE).is_file() else None


# What the dealer says about the game. Plain sentences in one place, so the catalogs
# (dealer.speech.i18n) can carry them.

def announce_round(index: int, planned: int, dealer: str | None, seats: Sequence[str], turn: str) -> str:
    """Before a round: its number, who is God, who plays (C2, G5)."""
    if dealer:
        return _("Round {n} of {planned}. {dealer} is God and does not play. Seats from the left: {seats}.",
                 n=index + 1, planned=planned, dealer=dealer, seats=", ".join(seats))
    return _("Round {n} of {planned}. The machine is God; {turn} plays. Seats from the left: {seats}.",
             n=index + 1, planned=planned, turn=turn, seats=", ".join(seats))


def announce_totals(game: Game) -> str:
    """After a round: the totals so far, highest first (G5)."""
    totals = game.totals()
    order = sorted(game.persons, key=lambda n: (-totals[n], game.persons.index(n)))
    return _("Totals after round {n} of {planned}: {totals}.", n=len(game.rounds), planned=game.planned,
             totals=", ".join(_("{name} {count}", name=n, count=totals[n]) for n in order))


def announce_winner(game: Game) -> str:
    """At the end: the winner, or the tied leaders who share the win (G5)."""
    leaders = game.leaders()
    best = game.totals()[leaders[0]]
    if len(leaders) == 1:
        return n_("{who} wins the game with {n} points.", "{who} wins the game with {n} points.", best, who=leaders[0])
    return n_("{names} share the win with {n} points each.", "{names} share the win with {n} points each.", best,
              names=and_list(leaders))


def scores_rows(game: Game) -> tuple[list[str], list[list[str]]]:
    """The scores table: a header, then one row per person: each round's score
    (God's score in a round the person was God, marked), the total, and the winner.

    >>> from engine.round import RoundResult
    >>> g = Game(["Ana", "Bo", "Cy"], machine_deals=True)
    >>> _ = g.add(RoundResult("r", None, {"Bo": 0, "Cy": 2, "Ana": 1}, {"Bo": 2, "Cy": 0, "Ana": 1}, 2, None, None, ()))
    >>> scores_rows(g)
    (['', 'round 1', 'total'], [['Ana', '1', '1'], ['Bo', '2', '2 *'], ['Cy', '0', '0']])
    """
    header = [""] + [_("round {n}", n=i + 1) for i in range(len(game.rounds))] + [_("total")]
    totals = game.totals()
    leaders = set(game.leaders()) if game.rounds else set()
    rows = []
    for name in game.persons:
        cells = [name]
        for played in game.rounds:
            if played.dealer == name:
                cells.append(_("{score} (God)", score=played.result.dealer))
            else:
                cells.append(str(played.result.scores.get(name, "")))
        cells.append(f"{totals[name]} *" if name in leaders else str(totals[name]))
        rows.append(cells)
    return header, rows


def scores_html(round_folder: Path) -> str:
    """The game's scores table for the review page of one of its rounds ("" for a round
    played on its own); a game folder that cannot be read is said, not hidden."""
    game_dir = game_dir_of(round_folder)
    if game_dir is None:
        return ""
    esc = html.escape
    try:
        game = GameFolder.open(game_dir).game
    except GameError as exc:
        return (f"<h2>{esc(_('Game'))}</h2><p class='broken'>"
                f"{esc(_('The game scores cannot be shown: {error}', error=exc))}</p>")
    header, rows = scores_rows(game)
    head = "".join(f"<th>{esc(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows)
    end = announce_winner(game) if game.complete else announce_totals(game)
    title = _("Game: {n} of {planned} rounds (G5)", n=len(game.rounds), planned=game.planned)
    legend = _("(* the leader; God's score is the dealer's score, G4)")
    return (f"<h2 id='game-scores'>{esc(title)}</h2>"
            f"<table class='scores'><tr>{head}</tr>{body}</table><p>{esc(end)} {esc(legend)}</p>")
