"""How many complete, randomly played rounds the engine judges per second on one core.

Not a test: it prints figures. Rounds are first played at random with real cards
(engine/simulate.py: legal and illegal attempts, chains, "no play", prophets right and
wrong, expulsions), then judged again from their event log (Round.replay) and from their
record text (parse_record + judge_record), which is what `eleusis judge` does.

    python bench/bench_engine.py [--rounds 300] [--seed 1] [--rule alternate-colour ...]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable

from engine.judging import judge_text
from engine.record import format_record
from engine.round import Round
from engine.rules import LIBRARY, resolve_rule
from engine.simulate import simulate_round

DEFAULT_RULES = ("alternate-colour", "suit-cycle", "parity-alternate", "low-high", "step-up-1-3",
                 "higher-unless-face", "different-suit", "fresh-rank")


def _best_rate(count: int, job: Callable[[], object], repeats: int) -> tuple[float, float]:
    """Best rounds/s over ``repeats`` runs, by CPU time (one core) and by wall time."""
    cpu_rates, wall_rates = [], []
    for _ in range(repeats):
        cpu0, wall0 = time.process_time(), time.perf_counter()
        job()
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        cpu_rates.append(count / max(cpu, 1e-9))
        wall_rates.append(count / max(wall, 1e-9))
    return max(cpu_rates), max(wall_rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--rule", action="append", help="library ids (default: a mix of 8)")
    args = parser.parse_args()
    ids = args.rule or [r for r in DEFAULT_RULES if r in LIBRARY]
    rng = random.Random(args.seed)
    players = ["Ana", "Bo", "Cy", "Dee", "Eve"]
    games = []
    t0 = time.perf_counter()
    for i in range(args.rounds):
        rule_id = ids[i % len(ids)]
        rule = resolve_rule(rule_id)
        seats = players[: 3 + i % 3]
        games.append((rule, simulate_round(rule, seats, rng, rule_text=rule_id)))
    simulated = time.perf_counter() - t0
    actions = sum(len(rnd.events) - 1 for _, rnd in games)
    ends = Counter(rnd.ended.value if rnd.ended else "none" for _, rnd in games)
    verdicts = Counter(t.verdict.value for _, rnd in games for t in rnd.turns)
    overthrown = sum(t.overthrown for _, rnd in games for t in rnd.turns)
    expelled = sum(t.expelled for _, rnd in games for t in rnd.turns)
    texts = [(format_record(rnd.events)) for _, rnd in games]

    def replay_all() -> None:
        for rule, rnd in games:
            Round.replay(rule, rnd.events)

    def judge_all() -> None:
        for text in texts:
            judge_text(text, resolve_rule)

    replay_cpu, replay_wall = _best_rate(len(games), replay_all, args.repeats)
    judge_cpu, judge_wall = _best_rate(len(games), judge_all, args.repeats)
    print(f"rules: {', '.join(ids)}")
    print(f"{len(games)} random complete rounds of 3-5 players, {actions} actions "
          f"({actions / len(games):.1f} a round, median {statistics.median(len(r.events) - 1 for _, r in games)})")
    print(f"  ends: {dict(ends)}")
    print(f"  verdicts: {dict(verdicts)}; prophets overthrown: {overthrown}; expulsions: {expelled}")
    print(f"  simulating them (random players with real cards): {len(games) / simulated:,.0f} rounds/s")
    print(f"judging from the event log (Round.replay): {replay_cpu:,.0f} rounds/s per CPU-second "
          f"({replay_wall:,.0f} by wall clock), {replay_cpu * actions / len(games):,.0f} actions/s")
    print(f"judging from the record text (parse + judge): {judge_cpu:,.0f} rounds/s per CPU-second "
          f"({judge_wall:,.0f} by wall clock)")
    print(f"target: 1,000 rounds/s on one core -> {'met' if replay_cpu >= 1000 else 'NOT met'} from the log, "
          f"{'met' if judge_cpu >= 1000 else 'NOT met'} from text")


if __name__ == "__main__":
    main()
