"""`eleusis rules list|check|show`: the rule library and the rule checker (R1).

* ``eleusis rules list [--tier T] [--json]``: ids, tiers and one-line descriptions.
* ``eleusis rules check TEXT [--seed N] [--json]``: TEXT is a library id or rule text ('-'
  reads stdin). Exit 0 when the checker accepts the rule, 1 when it rejects it, 2 for a
  syntax error (``line L, column C: ...``).
* ``eleusis rules show ID``: the rule text of a library rule, with its source.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.rules import (
    LIBRARY,
    TIERS,
    RuleReport,
    RuleSyntaxError,
    check_rule,
    resolve_rule,
)

__all__ = ["register", "report_json", "run_check", "run_list", "run_show"]


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "rules",
        help="the rule library and the rule checker",
        description="List the library of secret rules, check a rule for fairness, show a library rule "
        "(see docs/rule-language.md).",
    )
    sub = parser.add_subparsers(dest="rules_command", metavar="ACTION")
    parser.set_defaults(run=lambda args: _usage(parser))

    listing = sub.add_parser("list", help="ids, tiers and one-line descriptions")
    listing.add_argument("--tier", choices=TIERS, help="only the rules of this tier")
    listing.add_argument("--json", action="store_true", help="print a JSON list")
    listing.set_defaults(run=run_list)

    check = sub.add_parser("check", help="check a rule (library id or rule text) for fairness")
    check.add_argument("text", nargs="+", help="a library id or a rule text ('-' reads stdin)")
    check.add_argument("--seed", type=int, default=0, help="seed of the exploration (default 0)")
    check.add_argument("--depth", type=int, default=40, help="longest main line explored (default 40)")
    check.add_argument("--json", action="store_true", help="print the report as JSON")
    check.set_defaults(run=run_check)

    show = sub.add_parser("show", help="the text of a library rule")
    show.add_argument("id", help="a library id, e.g. alternate-colour")
    show.set_defaults(run=run_show)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def run_list(args: argparse.Namespace) -> int:
    rules = [r for r in LIBRARY.values() if args.tier in (None, r.tier)]
    if args.json:
        print(json.dumps([{"id": r.id, "tier": r.tier, "description": r.description, "source": r.source}
                          for r in rules], ensure_ascii=False, indent=1))
        return 0
    width = max(len(r.id) for r in rules) if rules else 0
    for r in rules:
        print(f"{r.id:<{width}}  {r.tier:<6}  {r.description}")
    return 0


def report_json(report: RuleReport) -> dict[str, Any]:
    return {
        "ok": report.ok,
        "problems": list(report.problems),
        "starter_count": report.starter_count,
        "first_cards": report.first_cards,
        "min_legal": report.min_legal,
        "max_legal": report.max_legal,
        "mean_legal": round(report.mean_legal, 2),
        "mean_fraction": round(report.mean_fraction, 4),
        "worst_line": [str(c) for c in report.worst_line],
        "lines_explored": report.lines_explored,
        "depth": report.depth,
    }


def run_check(args: argparse.Namespace) -> int:
    text = " ".join(args.text)
    if text == "-":
        text = sys.stdin.read()
    if args.depth < 1:
        print(f"eleusis rules check: --depth must be 1 or more, got {args.depth}", file=sys.stderr)
        return 2
    try:
        rule = resolve_rule(text)
    except RuleSyntaxError as exc:
        print(f"eleusis rules check: {exc}", file=sys.stderr)
        return 2
    report = check_rule(rule, seed=args.seed, depth=args.depth)
    if args.json:
        print(json.dumps(report_json(report), ensure_ascii=False))
    else:
        print(report.summary())
    return 0 if report.ok else 1


def run_show(args: argparse.Namespace) -> int:
    entry = LIBRARY.get(args.id.strip())
    if entry is None:
        print(f"eleusis rules show: {args.id!r} is not a library id (see `eleusis rules list`)",
              file=sys.stderr)
        return 2
    print(f"{entry.id} ({entry.tier}): {entry.description}")
    print(f"source: {entry.source}")
    print(entry.text)
    return 0
