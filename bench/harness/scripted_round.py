"""Scripted rounds for the round bench: a round's turns, its game record, and what lies on the table.

A scripted round is made by playing the engine itself: each planned kind of turn (an
accepted card, a rejected chain, a "no play" in batches, a prophet who accepts, rejects
and is overthrown) is filled with cards from a pool so that the engine gives that
verdict. The round is then

- a game record (``record_text``) that ``eleusis judge`` reads: the truth to compare with;
- a timeline of table states (``timeline``), each a :class:`bench.harness.make_demo.Step`, as the
  players lay it by the protocol of docs/playing-at-the-table.md: a hand lays the cards in
  the play zone and leaves, the dealer speaks, the hand moves the cards to the main line
  (P3) or below its end (P4). The timeline also says when the hand left the play zone
  before each verdict (for the time to the verdict) and on which frames a hand was over it.

>>> import random
>>> script = make_round(random.Random(1), [str(c) for c in all_kinds()], ("accept", "reject_chain"),
...                     players=("Ana", "Bo", "Cy", "Dee"), rule="alternate-colour", hand=5)
>>> [t.verdict for t in script.turns]
['accepted', 'rejected']
>>> "rule: alternate-colour" in script.record_text()
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from calibration.layout import NO_PLAY_BATCH, PROPHET_CHAIN_MAX, main_line_folded
from bench.harness.make_demo import Step, arm_sweep
from engine.cards import Card, all_kinds
from engine.errors import RoundError
from engine.events import Attempt, BecomeProphet, NoPlay, ProphetDecision, TurnOutcome, Verdict
from engine.events import RecordEvent
from engine.record import format_record
from engine.round import Round
from engine.rules import resolve_rule
from engine.variants import DEFAULT_VARIANT, new_round, round_for, spec_for
from engine.variants.abbott import AbbottRound

__all__ = ["FULL_PLAN", "QUICK_PLAN", "all_labels", "ScriptedRound", "ScriptedTurn", "Timeline", "VARIANT_PLANS", "make_round", "replayed",
           "timeline", "variant_round"]

# Kinds of turn a plan may ask for. "p_*" need a prophet in office; "prophet" makes the
# player who just played the prophet (F1).
FULL_PLAN: tuple[str, ...] = (
    "accept", "reject_chain", "accept_chain3", "noplay_right", "reject", "accept", "prophet",
    "p_accept_right", "p_reject_right", "p_noplay_accept", "p_overthrow", "accept_chain",
    "reject_chain", "accept", "noplay_wrong", "accept",
)
QUICK_PLAN: tuple[str, ...] = ("accept", "reject_chain", "noplay_right", "accept")

# The rounds a script plays: Howell's and the variants whose players lay the cards.
PlayedRound = Round | AbbottRound

# A short round of each such variant, played to its end by three players with hands of 2
# (variant_round): what each does differently from Howell's, in a few turns.
VARIANT_PLANS: dict[str, tuple[str, ...]] = {
    # WK: a chain rejected (drawn as Howell's), a prophet who judges to the end (WK8's bonus)
    "wikipedia": ("accept", "reject_chain", "prophet", "p_accept_right", "p_accept_right", "accept", "accept"),
    # EX2-EX6: one card a turn, a wrong card to the side line with two drawn
    "express": ("accept", "reject", "accept", "accept", "accept", "accept"),
    # AB5-AB9: error cards in front, every hand emptied (AB7), an error card shed to the end
    "abbott-1959": ("reject", "accept", "reject", "accept", "reject", "accept", "accept", "accept", "accept"),
}
VARIANT_PLAYERS = ("Ana", "Bo", "Cy")
VARIANT_RULE = "alternate-colour"
VARIANT_HAND = 2

# Seconds of each table state (the bench films at about 3 frames a second, like the trial).
HAND_S = 0.7  # a hand over the play zone, laying or taking cards
WAIT_S = 3.7  # cards lie still: the dealer judges (it waits 2 s of stillness today)
BATCH_WAIT_S = 3.0  # a "no play" batch lies still: the dealer counts it
GAP_S = 1.3  # the zone is empty after the cards were moved: the layout watch looks


@dataclass(frozen=True)
class ScriptedTurn:
    """One judged line of the record: what was laid and what the engine said."""

    player: str
    kind: str
    action: Attempt | NoPlay | BecomeProphet
    verdict: str
    batches: tuple[tuple[str, ...], ...] = ()  # a "no play" hand, batch by batch, as shown


@dataclass(frozen=True)
class ScriptedRound:
    players: tuple[str, ...]
    rule: str
    hand: int
    starters: tuple[str, ...]
    turns: tuple[ScriptedTurn, ...]
    round: PlayedRound = field(repr=False, compare=False)
    variant: str = DEFAULT_VARIANT  # docs/rules-variants.md

    def record_text(self) -> str:
        return format_record(self.round.events)


CardTest = Callable[[Sequence[Card], Card], bool]  # (cards chosen so far, a candidate) -> take it?


class _Pool:
    """Cards not yet used in the round (each card once: a real deck has one of each)."""

    def __init__(self, labels: Sequence[str], rng: random.Random) -> None:
        self.cards = [Card.parse(label) for label in labels]
        rng.shuffle(self.cards)

    def take(self, cards: Sequence[Card]) -> None:
        for card in cards:
            self.cards.remove(card)

    def find(self, ok: CardTest, n: int = 1) -> list[Card] | None:
        chosen: list[Card] = []
        for card in self.cards:
            if card not in chosen and ok(chosen, card):
                chosen.append(card)
                if len(chosen) == n:
                    return chosen
        return None


def replayed(rnd: PlayedRound, events: Sequence[RecordEvent] | None = None) -> PlayedRound:
    """A new round of ``rnd``'s variant folded from ``events`` (default: all of its own)."""
    log = rnd.events if events is None else events
    trial = round_for(rnd.rule, rnd.start)
    assert isinstance(trial, (Round, AbbottRound))
    for event in log[1:]:
        trial.apply(event)  # type: ignore[arg-type]
    return trial


def _try(rnd: PlayedRound, action: Attempt | NoPlay | BecomeProphet) -> TurnOutcome | None:
    """The outcome the engine would give, without changing ``rnd``."""
    trial = replayed(rnd)
    try:
        return trial.apply(action)
    except RoundError:
        return None


def _fill(kind: str, rnd: PlayedRound, pool: _Pool, player: str, rng: random.Random
          ) -> tuple[Attempt | NoPlay, str] | None:
    """Cards that make the engine give the kind's verdict, or None when the pool has none."""
    rule = rnd.rule
    line = tuple(rnd.line)
    if isinstance(rnd, AbbottRound) and rnd.hand_size(player) == 0:  # AB8: the player sheds an error card
        fits = kind.startswith("accept")
        shed = [c for c in rnd.errors[player] if rule.legal(line, c) == fits]
        return (Attempt(player, tuple(shed[:1])), "accepted" if fits else "rejected") if shed else None

    def legal_after(extra: Sequence[Card]) -> CardTest:
        return lambda chosen, card: rule.legal(line + tuple(extra) + tuple(chosen), card)

    def illegal(chosen: Sequence[Card], card: Card) -> bool:
        return not rule.legal(line + tuple(chosen), card)

    prophet = rnd.prophet is not None
    if not spec_for(rnd.start.variant).chains:
        kind = {"accept_chain": "accept", "accept_chain3": "accept", "reject_chain": "reject"}.get(kind, kind)
    if kind in ("accept", "p_accept_right"):
        cards = pool.find(legal_after(()), 1)
        want = "accepted"
    elif kind in ("accept_chain", "accept_chain3"):  # 3: the most the play zone holds (P1, CHAIN_MAX)
        cards = pool.find(legal_after(()), 3 if kind == "accept_chain3" else 2)
        want = "accepted"
    elif kind in ("reject", "p_reject_right", "p_overthrow"):
        cards = pool.find(illegal, 1)
        want = "rejected"
    elif kind == "reject_chain":
        first = pool.find(legal_after(()), 1)
        if first is None:
            return None
        second = pool.find(lambda chosen, card: card not in first and not rule.legal(line + tuple(first), card), 1)
        cards = None if second is None else first + second
        want = "rejected"
    elif kind in ("noplay_right", "p_noplay_accept", "noplay_wrong"):
        need = rnd.hand_size(player)
        if need < 1 or need > 3 * NO_PLAY_BATCH:
            return None
        if kind == "noplay_wrong":
            one = pool.find(legal_after(()), 1)
            rest = pool.find(lambda chosen, card: (one is not None and card not in one
                                                   and not rule.legal(line, card)), need - 1) if need > 1 else []
            cards = None if one is None or rest is None else rest[: len(rest) // 2] + one + rest[len(rest) // 2:]
            want = "noplay-wrong"
        else:
            cards = pool.find(lambda chosen, card: not rule.legal(line, card), need)
            want = "noplay-right"
        if cards is None:
            return None
        decision = ProphetDecision.agree() if prophet else None
        return NoPlay(player, tuple(cards), decision), want
    else:
        raise ValueError(f"unknown kind of turn {kind!r}")
    if cards is None or len(cards) > rnd.hand_size(player):
        return None
    if prophet:
        assert len(cards) <= PROPHET_CHAIN_MAX
        right = kind != "p_overthrow"
        accept = (want == "accepted") == right
        return Attempt(player, tuple(cards), ProphetDecision.agree() if accept else ProphetDecision.reject()), want
    return Attempt(player, tuple(cards)), want


def make_round(rng: random.Random, labels: Sequence[str], plan: Sequence[str], players: tuple[str, ...],
               rule: str, hand: int, variant: str = DEFAULT_VARIANT) -> ScriptedRound:
    """Play ``plan`` on the engine's round of ``variant`` with cards from ``labels``; kinds that
    cannot be filled (no such cards left, a hand too big to show, a chain or a "no play" the
    variant does not have) become a plain accepted or rejected card."""
    pool = _Pool(labels, rng)
    spec = spec_for(variant)
    resolved = resolve_rule(rule)
    starter = pool.find(lambda chosen, card: resolved.legal((), card), 1)
    if starter is None or resolved.starter_count != 1:
        raise ValueError(f"rule {rule!r}: the bench needs one starter card that some pool card satisfies")
    pool.take(starter)
    made = new_round(resolved, variant, players, starter, rule_text=rule, hand_size=hand)
    assert isinstance(made, (Round, AbbottRound)), f"{variant}: nobody lays cards in it"
    rnd: PlayedRound = made
    turns: list[ScriptedTurn] = []
    for kind in plan:
        if rnd.ended is not None:
            break
        if kind.startswith("noplay") and not spec.no_play:
            kind = "accept"  # EX3, AB3
        if kind == "prophet":
            if not isinstance(rnd, Round) or not spec.prophet:
                continue  # EX4, AB3
            last = rnd.turns[-1].player if rnd.turns else None
            if last is None or rnd.prophet_refusal(last) is not None:
                continue
            outcome = rnd.apply(BecomeProphet(last))
            turns.append(ScriptedTurn(last, kind, BecomeProphet(last), outcome.verdict.value))
            continue
        if kind.startswith("p_") and rnd.prophet is None:
            kind = kind[2:].replace("_right", "").replace("overthrow", "reject").replace("noplay_accept", "noplay_right")
        player = rnd.whose_turn
        if player is None:
            break
        filled = None
        for attempt_kind in (kind, "accept", "reject"):
            filled = _fill(attempt_kind, rnd, pool, player, rng)
            trial = None if filled is None else _try(rnd, filled[0])
            if filled is not None and trial is not None and trial.verdict.value == filled[1]:
                kind = attempt_kind
                break
            filled = None
        if filled is None:
            break
        action, _want = filled
        shedding = isinstance(rnd, AbbottRound) and rnd.hand_size(player) == 0
        outcome = rnd.apply(action)
        cards = action.cards if isinstance(action, Attempt) else action.hand
        if not shedding:  # a shed card left the pool when it was first played (AB8)
            pool.take(cards)
        batches: tuple[tuple[str, ...], ...] = ()
        if isinstance(action, NoPlay):
            shown = [str(c) for c in action.hand]
            batches = tuple(tuple(shown[i:i + NO_PLAY_BATCH]) for i in range(0, len(shown), NO_PLAY_BATCH))
        turns.append(ScriptedTurn(player, kind, action, outcome.verdict.value, batches))
    return ScriptedRound(players, rule, hand, tuple(str(c) for c in starter), tuple(turns), rnd, variant)


def variant_round(variant: str, labels: Sequence[str], seed: int = 7) -> ScriptedRound:
    """``variant``'s short round (VARIANT_PLANS) with cards from ``labels``."""
    return make_round(random.Random(seed), labels, VARIANT_PLANS[variant], VARIANT_PLAYERS, VARIANT_RULE,
                      VARIANT_HAND, variant)


@dataclass
class Timeline:
    """The table, state by state, with what the bench needs to time the dealer."""

    steps: list[Step]
    fps: float
    leave_s: list[float]  # per judged turn: when the hand last left the play zone before its verdict
    hand_frames: set[int]  # frames with a hand over the play zone
    frames: int | None = None  # frames played, when not the steps' (bench/harness/scripted_table.py)

    @property
    def frame_count(self) -> int:
        if self.frames is not None:
            return self.frames
        return sum(_frames(s.seconds, self.fps) for s in self.steps)


def _frames(seconds: float, fps: float) -> int:
    return max(1, round(seconds * fps))


class _Table:
    """What lies on the main line and the side branches, in the players' order."""

    def __init__(self, starters: Sequence[str]) -> None:
        self.line: list[str] = list(starters)
        self.branches: list[tuple[int, tuple[str, ...]]] = []
        self.prophet_at: int | None = None  # the PROPHET token lies after this many line cards (F2)

    def items(self) -> tuple[tuple[str, ...], tuple[tuple[int, tuple[str, ...]], ...]]:
        """The line as laid (the PROPHET token in its place) and the branches under its slots,
        folded when the line no longer fits the zone (the oldest slots go to a pile)."""
        line = list(self.line)
        slot_of = list(range(len(line)))
        if self.prophet_at is not None:
            line.insert(self.prophet_at, "prophet")
            slot_of = [i if i < self.prophet_at else i + 1 for i in slot_of]
        drop = main_line_folded(len(line))  # the edge of the mat (docs/playing-at-the-table.md)
        branches = tuple((slot_of[a] - drop, cards) for a, cards in self.branches if slot_of[a] >= drop)
        return tuple(line[drop:]), branches


def timeline(script: ScriptedRound, fps: float = 3.0, whole_layout: bool = True, arms: bool = False) -> Timeline:
    """The table states of ``script``; ``whole_layout`` False: the camera sees the play zone only,
    so the PROPHET token is first shown in the play zone (docs/playing-at-the-table.md). With
    ``arms``, the cards go to the layout in a player's arm that sweeps across the play zone to
    the line beyond it and back (make_demo.arm_sweep), as players do every turn."""
    steps: list[Step] = []
    leave: list[float] = []
    hand_frames: set[int] = set()
    table = _Table(())
    clock = [0.0, 0]  # seconds, frames

    def add(seconds: float, cards: Sequence[str] = (), tokens: Sequence[str] = (), hand: bool = False,
            note: str = "") -> None:
        line, branches = table.items()
        n = _frames(seconds, fps)
        if hand:
            hand_frames.update(range(int(clock[1]), int(clock[1]) + n))
        steps.append(Step(tuple(cards), tuple(tokens), n / fps, note, hand=hand, line=line, branches=branches))
        clock[0] += n / fps
        clock[1] += n

    def left() -> None:
        leave.append(clock[0])

    add(3.0, note="the empty mat: the dealer says its opening lines")
    for card in script.starters:
        add(HAND_S, (card,), hand=True, note="the starter is turned (C4)")
        add(WAIT_S, (card,))
        add(HAND_S, hand=True)
        table.line.append(card)
        add(GAP_S)
    rnd = replayed(script.round, script.round.events[:1])
    for turn in script.turns:
        outcome = rnd.apply(turn.action)
        if isinstance(turn.action, BecomeProphet):
            if whole_layout:
                table.prophet_at = len(table.line)
                left()  # laid on the line, seen from its first frame: no hand over the play zone
                add(HAND_S, hand=False, note=f"{turn.player} lays the PROPHET token after the line end (F2)")
                add(WAIT_S - 1.0)
            else:
                add(HAND_S, tokens=("prophet",), hand=True, note=f"{turn.player} shows the PROPHET token")
                left()
                add(WAIT_S - 1.0, tokens=("prophet",))
                add(HAND_S, hand=True)
                table.prophet_at = len(table.line)
                add(GAP_S)
            continue
        call = None
        if isinstance(turn.action, Attempt):
            cards = [str(c) for c in turn.action.cards]
            add(HAND_S, cards, hand=True, note=f"{turn.player} lays {' '.join(cards)}")
            if turn.action.prophet is None:
                left()
            add(WAIT_S if turn.action.prophet is None else BATCH_WAIT_S, cards)
            call = turn.action.prophet
            shown: list[str] = cards
            zone_tokens: tuple[str, ...] = ()
        else:
            zone_tokens = ("no_play",)
            for i, batch in enumerate(turn.batches):
                add(HAND_S, batch, zone_tokens, hand=True, note=f"{turn.player}: no play, batch {i + 1}")
                last = i == len(turn.batches) - 1
                if last and turn.action.prophet is None:
                    left()
                add(WAIT_S if last else BATCH_WAIT_S, batch, zone_tokens)
            shown = list(turn.batches[-1])
            call = turn.action.prophet
        if call is not None:
            token = "accept" if call.accept else "reject"
            add(HAND_S, shown, (token,), hand=True, note=f"the prophet lays {token.upper()}")
            left()
            add(WAIT_S, shown, (token,))
        if arms:  # a player's arm carries the cards across the play zone to the layout
            line, branches = table.items()
            for frame in arm_sweep(Step(line=line, branches=branches, note="the cards go to the layout"), fps):
                hand_frames.add(int(clock[1]))
                steps.append(frame)
                clock[0] += frame.seconds
                clock[1] += 1
        else:
            add(HAND_S, hand=True, note="the cards go to the layout")
        _follow(table, rnd, outcome)
        add(GAP_S)
    add(2.0, note="the end")
    return Timeline(steps, fps, leave, hand_frames)


def _follow(table: _Table, rnd: PlayedRound, outcome: TurnOutcome) -> None:
    """The table after the players followed the verdict: the engine's layout (P3, P4, N3). An
    abbott-1959 error card goes off the mat, face up in front of its player (AB5)."""
    layout = rnd.layout
    table.line = [str(c) for c in layout.main]
    table.branches = [(b.anchor, tuple(str(c) for c in b.cards)) for b in layout.branches]
    if outcome.overthrown or rnd.prophet is None:
        table.prophet_at = None  # F4: the deposed prophet takes the token back


def all_labels() -> list[str]:
    return [str(c) for c in all_kinds()]
