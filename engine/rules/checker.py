"""The rule checker (R1): is a rule fair and does it decide every attempt?

It explores reachable main lines deterministically from a seed: exhaustively for a rule
that looks only at the last one or two cards (every reachable window of last cards),
otherwise every line up to one card past the starter (sampled when there are too many),
random walks and adversarial walks that steer towards the most restrictive lines. It
rejects a rule that

* fails to decide some attempt (an evaluation error, or an answer that is not True/False),
* is ambiguous (two different answers for the same line and card),
* accepts nothing (no card can start the line, a starting sequence that cannot be completed)
  or accepts everything (every card legal after every line explored),
* leaves fewer than ``min_kinds`` (10) of the 52 kinds legal after some reachable line: the
  seeds' fairness bound ("at least ten possibilities from a whole deck", seeds/003).

>>> report = check_rule('if prev.red then card.black else card.red')
>>> report.ok, report.min_legal, report.max_legal, report.exhaustive
(True, 26, 26, True)
>>> check_rule('card.rank > prev.rank').problems
('unfair: only 0 of 52 kinds are legal after KC (at least 10 are needed)',)
"""

from __future__ import annotations

import random
from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.cards import DEFAULT_DECKS, Card, all_kinds
from engine.rules.base import Rule
from engine.rules.errors import RuleError

__all__ = ["FAIRNESS_MIN_KINDS", "RuleReport", "check_rule"]

FAIRNESS_MIN_KINDS = 10  # seeds/003: "not fewer than ten possibilities from a whole deck"
# Work bound of one check, so a hostile rule cannot stall it: steps as counted by CompiledRule.cost. A cheap rule
# spends a few million; count(line, any(line, ...)) would spend 250 million unbounded.
MAX_STEPS = 40_000_000
_KINDS = all_kinds()


def _show(line: Sequence[Card]) -> str:
    return " ".join(str(c) for c in line) if line else "(empty line)"


@dataclass(frozen=True)
class RuleReport:
    """What the checker found. Fractions are of the 52 kinds of card."""

    text: str
    problems: tuple[str, ...]
    starter_count: int
    lines_explored: int
    depth: int
    first_cards: int  # kinds that may start the line
    min_legal: int  # fewest kinds legal after a line past the starter
    max_legal: int
    mean_legal: float  # mean count of kinds legal after lines past the starter
    worst_line: tuple[Card, ...] = field(default=())
    exhaustive: bool = False  # every reachable history was judged (a rule looking at 1-2 last cards)
    cut_short: bool = False  # the step budget ran out: fewer lines were explored than usual

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def mean_fraction(self) -> float:
        return self.mean_legal / len(_KINDS)

    @property
    def min_fraction(self) -> float:
        return self.min_legal / len(_KINDS)

    def summary(self) -> str:
        """A few lines for people: the verdict, then the figures."""
        verdict = "fair: the rule passes the checker" if self.ok else "rejected"
        lines = [verdict]
        lines += [f"  problem: {p}" for p in self.problems]
        lines += [
            f"  starter: {self.starter_count} card(s); {self.first_cards} of 52 kinds may start the line",
            (f"  legal after a line: mean {self.mean_legal:.1f} of 52 kinds ({self.mean_fraction:.0%}), "
             f"min {self.min_legal}, max {self.max_legal}"),
            f"  most restrictive line found: {_show(self.worst_line)}",
            (f"  explored every reachable history: {self.lines_explored} lines judged"
             if self.exhaustive else
             f"  explored {self.lines_explored} lines, up to {self.depth} cards long (a sample)"),
        ]
        if self.cut_short:
            lines.append("  note: the rule is costly to decide, so the checker stopped early (its step "
                         "budget was spent); fewer lines were explored than for a cheap rule")
        return "\n".join(lines)


class _Undecided(Exception):
    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


class _OutOfSteps(Exception):
    """The step budget is spent: stop exploring, judge on what was seen."""


class _Explorer:
    def __init__(self, rule: Rule, rng: random.Random, decks: int, max_steps: int) -> None:
        self.rule = rule
        cost = getattr(rule, "cost", None)  # CompiledRule: steps of one decision by line length
        self.cost = cost if callable(cost) else (lambda line_length: 1)
        self.steps = 0
        self.max_steps = max_steps
        self.rng = rng
        self.decks = decks
        self.explored = 0
        self.after: list[tuple[int, tuple[Card, ...]]] = []  # (legal count, line) past the starter
        self.stuck_starter: tuple[Card, ...] | None = None
        self.deepest = 0

    def verdict(self, line: tuple[Card, ...], card: Card) -> bool:
        try:
            answer = self.rule.legal(line, card)
        except RuleError as exc:
            raise _Undecided(f"cannot decide {card} after {_show(line)}: {exc}") from exc
        except Exception as exc:  # a hand-written Rule may fail in any way: report it
            raise _Undecided(f"cannot decide {card} after {_show(line)}: "
                             f"{type(exc).__name__}: {exc}") from exc
        if answer is not True and answer is not False:
            raise _Undecided(f"answers {answer!r} (not True/False) for {card} after {_show(line)}")
        return answer

    def legal_kinds(self, line: tuple[Card, ...]) -> list[Card]:
        self.steps += len(_KINDS) * int(self.cost(len(line)))
        if self.steps > self.max_steps and self.explored:
            raise _OutOfSteps
        self.explored += 1
        self.deepest = max(self.deepest, len(line))
        legal = [card for card in _KINDS if self.verdict(line, card)]
        if len(line) >= self.rule.starter_count:
            self.after.append((len(legal), line))
        elif not legal and self.stuck_starter is None:
            self.stuck_starter = line
        return legal

    def playable(self, line: tuple[Card, ...], legal: list[Card]) -> list[Card]:
        used = Counter(line)
        return [c for c in legal if used[c] < self.decks]  # C1: no fourth copy

    def starter_lines(self, first: list[Card], cap: int) -> tuple[list[tuple[Card, ...]], bool]:
        """Every line as long as the starter (sampled down to ``cap`` a level); True if sampled."""
        lines: list[tuple[Card, ...]] = [(c,) for c in self.playable((), first)]
        sampled = False
        for _ in range(self.rule.starter_count - 1):
            lines = [line + (c,) for line in lines for c in self.playable(line, self.legal_kinds(line))]
            if len(lines) > cap:
                lines = self.rng.sample(lines, cap)
                sampled = True
        return lines, sampled

    def next_level(self, lines: list[tuple[Card, ...]], cap: int) -> list[tuple[Card, ...]]:
        """The lines one card longer, sampled down to ``cap``, each judged."""
        children = [line + (c,) for line in lines for c in self.playable(line, self.legal_kinds(line))]
        if len(children) > cap:
            children = self.rng.sample(children, cap)
        for line in children:
            self.legal_kinds(line)
        return children

    def windows(self, starts: list[tuple[Card, ...]], k: int) -> None:
        """For a rule that looks only at the last k cards: judge every reachable window of
        k cards once (a fixpoint), which covers every reachable history."""
        seen: set[tuple[Card, ...]] = set()
        queue: deque[tuple[Card, ...]] = deque()
        for line in starts:
            key = line[len(line) - k:]
            if key not in seen:
                seen.add(key)
                queue.append(line)
        while queue:
            line = queue.popleft()
            for card in self.playable(line, self.legal_kinds(line)):
                longer = line + (card,)
                key = longer[len(longer) - k:]
                if key not in seen:
                    seen.add(key)
                    queue.append(longer)

    def walk(self, start: tuple[Card, ...], depth: int, lookahead: int) -> None:
        line = start
        while len(line) < depth:
            options = self.playable(line, self.legal_kinds(line))
            if not options:
                return
            if lookahead and len(line) >= self.rule.starter_count:
                tries = self.rng.sample(options, min(lookahead, len(options)))
                scored = [(len(self.legal_kinds(line + (c,))), i, c) for i, c in enumerate(tries)]
                line = line + (min(scored)[2],)
            else:
                line = line + (self.rng.choice(options),)

    def determinism(self, samples: int) -> None:
        for _, line in self.after[:samples]:
            for card in _KINDS[:: 7]:
                if self.verdict(line, card) != self.verdict(line, card):
                    raise _Undecided(f"ambiguous: two different answers for {card} after {_show(line)}")


def check_rule(rule: Rule | str, *, seed: int = 0, walks: int = 24, adversarial: int = 3,
               depth: int = 40, min_kinds: int = FAIRNESS_MIN_KINDS, decks: int = DEFAULT_DECKS,
               level_cap: int = 300, starter_cap: int = 3000, max_steps: int = MAX_STEPS) -> RuleReport:
    """Explore reachable main lines of ``rule`` and report whether it is fair (see module doc).

    ``rule`` is a Rule, a library id or a rule text. Deterministic for a given ``seed``;
    ``depth`` bounds the length of the lines explored. A compiled rule that looks only at
    the last one or two cards (``CompiledRule.window``) is explored exhaustively.
    ``max_steps`` bounds the work (``CompiledRule.cost`` steps per decision, 1 for another
    Rule): a costly rule is explored less, and the report says so (``cut_short``).
    """
    if isinstance(rule, str):
        from engine.rules import resolve_rule

        rule = resolve_rule(rule)
    rng = random.Random(seed)
    ex = _Explorer(rule, rng, decks, max_steps)
    problems: list[str] = []
    first_cards = 0
    exhaustive = False
    cut_short = False
    window = getattr(rule, "window", None)
    try:
        first = ex.legal_kinds(())
        first_cards = len(first)
        starts, sampled = ex.starter_lines(first, starter_cap)
        if isinstance(window, int) and window <= 2 and not sampled:
            ex.windows(starts, window)
            exhaustive = True
        else:
            frontier = ex.next_level(starts, level_cap) or starts
            if frontier:
                for i in range(walks + adversarial):
                    start = frontier[rng.randrange(len(frontier))]
                    ex.walk(start, max(depth, rule.starter_count + 1), lookahead=6 if i >= walks else 0)
        ex.determinism(samples=20)
    except _Undecided as exc:
        problems.append(exc.problem)
    except _OutOfSteps:
        cut_short, exhaustive = True, False
    if problems:
        pass  # an undecided attempt says it all
    elif first_cards == 0:
        problems.append("accepts nothing: no card may start the line (C4)")
    elif ex.stuck_starter is not None:
        problems.append(f"the starting sequence cannot be completed after {_show(ex.stuck_starter)} (C4)")
    counts = [n for n, _ in ex.after]
    worst = min(ex.after, key=lambda item: item[0]) if ex.after else (0, ())
    if counts and not problems:
        if worst[0] < min_kinds:
            problems.append(f"unfair: only {worst[0]} of 52 kinds are legal after {_show(worst[1])} "
                            f"(at least {min_kinds} are needed)")
        if min(counts) == len(_KINDS):
            problems.append("accepts everything: every card was legal after every line explored")
    return RuleReport(
        text=rule.text,
        problems=tuple(problems),
        starter_count=rule.starter_count,
        lines_explored=ex.explored,
        depth=ex.deepest,
        first_cards=first_cards,
        min_legal=worst[0],
        max_legal=max(counts, default=0),
        mean_legal=sum(counts) / len(counts) if counts else 0.0,
        worst_line=worst[1],
        exhaustive=exhaustive,
        cut_short=cut_short,
    )
