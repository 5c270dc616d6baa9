"""Random rounds of every variant and the guesses' timing.

    python3 bench/variants.py [ROUNDS]     # default 3000 rounds per variant

For each variant: rounds played at random with real cards, how they ended, and the
invariants of tests/engine/test_variant_invariants.py checked on every round. Then each
of the 20 rule pairs of tests/engine/test_rule_equivalence.py judged as a guess: the
seconds each comparison takes (a guess should be judged in under 2 s), exact or bounded, and the
length up to which a bounded search tried every line; and guesses typed at the end of
the demo round (examples/demo-round.eleusis), judged as the live dealer would.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "engine")]

import test_variant_invariants as inv  # noqa: E402
from test_rule_equivalence import DIFFERENT, SAME, _rule  # noqa: E402

from dealer.record.guesses import guesses_at_round_end  # noqa: E402
from engine.rules.equivalence import compare_rules  # noqa: E402

CHECKS = {
    "howell": inv.test_howell_rounds_keep_their_invariants,
    "wikipedia": inv.test_wikipedia_rounds_expel_only_after_the_fourth_marker,
    "express": inv.test_express_rounds_are_one_card_turns_without_prophet_or_expulsion,
    "abbott-1959": inv.test_abbott_rounds_conserve_cards_and_score_by_ab7_ab9_ab10,
    "kruskal": inv.test_kruskal_rounds_turn_the_whole_deck_and_score_the_tokens,
}
HANDS = {"howell": 6, "wikipedia": 8, "express": 6, "abbott-1959": 2, "kruskal": None}


def main() -> int:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    inv.ROUNDS = rounds
    print(f"{'variant':12} {'rounds':>6} {'seconds':>8}  ends")
    for variant, check in CHECKS.items():
        started = time.perf_counter()
        check()  # raises AssertionError on the first round that breaks an invariant
        spent = time.perf_counter() - started
        ends = Counter(str(r.ended.value if r.ended else None) for r in inv._rounds(variant, HANDS[variant]))
        print(f"{variant:12} {rounds:6d} {spent:8.2f}  {dict(ends)}")
    print()
    print(f"{'guess':46} {'sealed':22} {'same':5} {'how':8} {'seconds':>7} {'cpu s':>6}")
    worst = worst_cpu = 0.0
    for guess, sealed in SAME + DIFFERENT:
        started, cpu = time.perf_counter(), time.process_time()
        answer = compare_rules(_rule(guess), _rule(sealed))
        spent, cpu = time.perf_counter() - started, time.process_time() - cpu
        worst, worst_cpu = max(worst, spent), max(worst_cpu, cpu)
        how = "exact" if answer.exact else f"<= {answer.complete_length}"
        print(f"{guess[:46]:46} {sealed[:22]:22} {str(answer.same):5} {how:8} {spent:7.2f} {cpu:6.2f}")
    print(f"slowest guess: {worst:.2f} s ({worst_cpu:.2f} CPU s)")
    print()
    demo = (ROOT / "examples" / "demo-round.eleusis").read_text(encoding="utf-8")
    for guess in ("card.colour != prev.colour", "card.red", "if pos mod 2 == 0 then card.red else card.black",
                  "not any(line, each == card)", "no-three-of-a-colour",
                  "pos < 2 or not all(last(2), each.colour == card.colour) or card.rank == 14"):
        started, cpu = time.perf_counter(), time.process_time()
        said = guesses_at_round_end(demo, [guess])[0][1]
        print(f"demo round, guess {guess!r}: {time.perf_counter() - started:.2f} s "
              f"({time.process_time() - cpu:.2f} CPU s): {' '.join(said)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
