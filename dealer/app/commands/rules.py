"""`eleusis rules list|check|show`: the rule library and the rule checker (R1).

* ``eleusis rules list [--tier T] [--json]``: ids, tiers and one-line descriptions.
* ``eleusis rules check TEXT [--seed N] [--json]``: TEXT is a library id or rule text ('-'
  reads stdin). Exit 0 when the checker accepts the rule, 1 when it rejects it, 2 for a
  syntax error (``line L, column C: ...``).
* ``eleusis rules show ID``: the rule text of a library rule, with its source.
* ``eleusis rules seal TEXT``: a fresh nonce and the commitment to show before the deal (R2);
  the rule text is never printed.
* ``eleusis rules verify COMMITMENT NONCE TEXT``: after the reveal (G6), exit 0 when the
  revealed rule and nonce are the sealed ones, 1 when they are not.
"""

from __future__ import annotations

import argparse
import json
import secrets
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
from dealer.app.inputs import read_text_file
from engine.seal import seal, verify

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

    sealing = sub.add_parser("seal", help="seal a rule before the deal: print its commitment (R2)")
    sealing.add_argument("text", nargs="+", help="a library id or a rule text ('-' reads stdin)")
    sealing.set_defaults(run=run_seal)

    verifying = sub.add_parser("verify", help="after the reveal: check a rule and nonce against the seal (G6)")
    verifying.add_argument("commitment", help="the commitment shown before the deal (sha256:... or 64 hex digits)")
    verifying.add_argument("nonce", help="the nonce revealed with the rule")
    verifying.add_argument("text", nargs="+", help="the revealed rule text or library id, exactly as sealed")
    verifying.set_defaults(run=run_verify)

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
    text = _rule_text(args.text)
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


def _rule_text(words: list[str]) -> str:
    text = " ".join(words)
    return read_text_file("-", "the rule on standard input", limit=100_000) if text == "-" else text


def run_seal(args: argparse.Namespace) -> int:
    text = _rule_text(args.text)
    try:
        resolve_rule(text)  # seal only a rule that parses
    except RuleSyntaxError as exc:
        print(f"eleusis rules seal: {exc}", file=sys.stderr)
        return 2
    nonce = secrets.token_hex(16)
    print(f"seal: {seal(text, nonce)}")
    print(f"nonce: {nonce}   (keep it with the rule; reveal both after the round)")
    return 0


def run_verify(args: argparse.Namespace) -> int:
    text = _rule_text(args.text)
    if verify(args.commitment, text, args.nonce):
        print("the revealed rule is the sealed one")
        return 0
    print("the revealed rule and nonce do NOT match the seal")
    return 1
