"""Every message of the dealer, found in the source, and the catalogs kept in step with it.

``python3 -m dealer.speech.i18n_extract`` lists what the catalogs lack (exit 1 when anything is
missing or untranslated); ``--update`` writes ``dealer/locale/eleusis.pot`` and adds the new
messages to each ``.po`` (empty, to be translated; messages gone from the source are kept
as ``#~`` comments). Messages are:

- the first string argument(s) of ``_()``, ``n_()``, ``p_()`` and ``N_()`` calls in the
  packages below (only string literals: ``_(name)`` must take a string marked with ``N_``);
- the card words (dealer/speech/i18n.py, by context "card rank", "card rank, object", "card suit");
- the rule library's descriptions (engine/rules/library.py), said at the reveal (G6), and
  its tiers (context "difficulty"), said when the machine draws a rule (--difficulty).

:func:`bare_sentences` finds sentences that skip the catalogs: a string literal or f-string
handed straight to the voice, the recording's trouble, the table protocol's ``Intent`` or
``print`` in the modules that run a round.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from dealer.speech.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, PoEntry, card_messages, catalog_path, parse_po

__all__ = ["Message", "bare_sentences", "extract", "missing", "update_catalogs"]

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("dealer", "engine", "vision", "calibration")
# The modules whose strings a player hears or reads during a round, or on the review page.
ROUND_MODULES = (
    "dealer/speech/narrate.py", "dealer/table/session.py", "dealer/app/live.py", "dealer/speech/layout_words.py",
    "dealer/table/protocol.py", "dealer/speech/turn_words.py", "dealer/app/demo.py", "dealer/record/review.py", "dealer/app/commands/play.py",
    "dealer/app/commands/review.py", "dealer/table/observer.py", "dealer/table/keys.py", "dealer/record/seal_show.py",
    "dealer/record/games.py", "dealer/app/commands/game.py", "dealer/app/commands/judge.py", "dealer/screen/table_view.py", "dealer/screen/view_outlet.py",
)
_SPEAKERS = {"say", "_say", "_trouble", "report_trouble", "print", "trouble", "Trouble", "Said"}
_INTENT_FIELDS = {"say", "trouble", "text"}
_MARKERS = {"_": 1, "N_": 1, "n_": 2, "p_": 2}
# Strings that are not sentences: a command's name as a prefix, punctuation, a format spec.
_NOT_A_SENTENCE = re.compile(r"^((eleusis[a-z -]*:)?[^A-Za-z]*|[a-z_]+=|\s*[a-z]\s*)$")


@dataclass
class Message:
    msgid: str
    plural: str | None = None
    context: str | None = None
    where: set[str] = field(default_factory=set)
    comment: str = ""

    @property
    def key(self) -> tuple[str | None, str]:
        return self.context, self.msgid


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _func_name(node: ast.Call) -> str:
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _source_files() -> list[Path]:
    files: list[Path] = []
    for pkg in PACKAGES:
        files += sorted((ROOT / pkg).rglob("*.py"))
    return files


def extract() -> dict[tuple[str | None, str], Message]:
    """Every message, keyed by (context, msgid)."""
    found: dict[tuple[str | None, str], Message] = {}

    def add(msg: Message, where: str) -> None:
        existing = found.setdefault(msg.key, msg)
        existing.where.add(where)
        if msg.plural and not existing.plural:
            existing.plural = msg.plural

    for path in _source_files():
        rel = path.relative_to(ROOT).as_posix()
        if rel == "dealer/speech/i18n_extract.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            name = node.func.id
            if name not in _MARKERS or len(node.args) < _MARKERS[name]:
                continue
            args = [_literal(a) for a in node.args[: _MARKERS[name]]]
            if name == "p_":
                if args[0] is not None and args[1] is not None:
                    add(Message(args[1], context=args[0]), rel)
            elif name == "n_":
                if args[0] is not None and args[1] is not None:
                    add(Message(args[0], plural=args[1]), rel)
            elif args[0] is not None:
                add(Message(args[0]), rel)
    for context, msgid in card_messages():
        add(Message(msgid, context=context, comment="a card's words; \"object\": after a verb such as \"plays\""),
            "dealer/speech/i18n.py")
    from engine.rules import LIBRARY
    from engine.rules.library import TIERS

    for tier in TIERS:
        add(Message(tier, context="difficulty", comment="a library tier, said as 'difficulty: easy'"),
            "engine/rules/library.py")

    for rule in LIBRARY.values():
        add(Message(rule.description, context="rule description",
                    comment=f"the library rule {rule.id} ({rule.text}), said at the reveal"), "engine/rules/library.py")
    return found


def bare_sentences(modules: Iterable[str] = ROUND_MODULES) -> list[str]:
    """``file:line: text`` for each sentence handed to the voice, a trouble, an Intent or
    print without going through the catalogs."""
    out: list[str] = []
    for rel in modules:
        path = ROOT / rel
        if not path.exists():
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = _func_name(node)
            exprs: list[ast.expr] = []
            if name in _SPEAKERS:
                exprs += node.args
                exprs += [k.value for k in node.keywords if k.arg in _INTENT_FIELDS]
            elif name == "Intent":
                exprs += [k.value for k in node.keywords if k.arg in _INTENT_FIELDS]
            for expr in exprs:
                for text, line in _bare_strings(expr):
                    out.append(f"{rel}:{line}: {text!r}")
        out += [f for f in _sentence_shaped(tree, rel) if f not in out]
    return out


# An English sentence: a capital, a word, a space and more words ending in . ? ! or :
_SENTENCE = re.compile(r"^[A-Z][A-Za-z']*,? .*[.?!:]\s*$|^[A-Z][a-z]+ [a-z]+ .*[a-z]")
_NOT_SAID_KEYWORDS = {"help", "description", "epilog", "metavar"}  # argparse's own texts


def _sentence_shaped(tree: ast.Module, rel: str) -> list[str]:
    """Any string literal or f-string shaped like an English sentence, wherever it is
    (a new kind of happening, a label on the table view), except docstrings, exception
    texts (developer errors) and argparse help, outside _()/n_()/p_()/N_()."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and body and \
                isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            skip.add(id(body[0].value))
        marked = isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _MARKERS
        if marked or isinstance(node, ast.Raise):
            skip.update(id(sub) for sub in ast.walk(node))
        if isinstance(node, ast.Call):
            for k in node.keywords:
                if k.arg in _NOT_SAID_KEYWORDS:
                    skip.update(id(sub) for sub in ast.walk(k.value))
        if isinstance(node, ast.JoinedStr):
            skip.update(id(v) for v in node.values)
    found = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        elif isinstance(node, ast.JoinedStr):
            text = "".join(str(v.value) if isinstance(v, ast.Constant) else "{}" for v in node.values)
        else:
            continue
        if _SENTENCE.search(text.strip()):
            found.append(f"{rel}:{node.lineno}: {text!r}")
    return found


def _bare_strings(expr: ast.expr) -> list[tuple[str, int]]:
    """String pieces in ``expr`` that are words, outside any _/n_/p_ call."""
    found: list[tuple[str, int]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name) and node.func.id in _MARKERS:
                return
            for child in [*node.args, *(k.value for k in node.keywords)]:
                visit(child)
            if isinstance(node.func, ast.Attribute):
                visit(node.func.value)
            return
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if not _NOT_A_SENTENCE.match(node.value):
                found.append((node.value, node.lineno))
            return
        if isinstance(node, ast.JoinedStr):
            text = "".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
            if not _NOT_A_SENTENCE.match(text):
                found.append((text, node.lineno))
            return
        for sub in ast.iter_child_nodes(node):
            visit(sub)

    visit(expr)
    return found


def _plural_count(header: str) -> int:
    match = re.search(r"nplurals\s*=\s*(\d+)", header)
    if match is None:
        raise ValueError("the catalog header has no Plural-Forms nplurals")
    return int(match.group(1))


def missing(lang: str, messages: dict[tuple[str | None, str], Message] | None = None) -> list[str]:
    """What the ``lang`` catalog lacks: absent, empty, fuzzy, or with the wrong number of
    plural forms, each as one line."""
    messages = extract() if messages is None else messages
    entries = {e.key: e for e in parse_po(catalog_path(lang))}
    header = entries.get((None, ""))
    if header is None:
        return [f"{lang}: the catalog has no header"]
    nplurals = _plural_count(header.msgstr[0])
    problems = []
    for key, msg in sorted(messages.items(), key=lambda kv: (kv[0][0] or "", kv[0][1])):
        label = f"{lang}: {('[' + msg.context + '] ') if msg.context else ''}{msg.msgid!r}"
        entry = entries.get(key)
        if entry is None:
            problems.append(f"{label}: not in the catalog")
        elif "fuzzy" in entry.flags:
            problems.append(f"{label}: marked fuzzy")
        elif msg.plural is not None and (entry.msgid_plural is None or len(entry.msgstr) != nplurals):
            problems.append(f"{label}: needs {nplurals} plural forms, has {len(entry.msgstr)}")
        elif not all(s.strip() for s in entry.msgstr):
            problems.append(f"{label}: not translated")
    return problems


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{escaped}"'


def _quote_lines(keyword: str, text: str) -> list[str]:
    """``keyword "text"``, split after each newline as msgmerge does when there are several."""
    pieces = text.splitlines(keepends=True)
    if len(pieces) <= 1:
        return [f"{keyword} {_quote(text)}"]
    return [f'{keyword} ""'] + [_quote(p) for p in pieces]


def _entry_text(msg: Message, msgstr: list[str], nplurals: int, flags: set[str], obsolete: bool = False) -> str:
    lines = []
    if msg.comment:
        lines.append("#. " + " ".join(msg.comment.split()))
    if msg.where:
        lines.append("#: " + " ".join(sorted(msg.where)))
    if flags:
        lines.append("#, " + ", ".join(sorted(flags)))
    if msg.context is not None:
        lines.append(f"msgctxt {_quote(msg.context)}")
    lines.append(f"msgid {_quote(msg.msgid)}")
    if msg.plural is not None:
        lines.append(f"msgid_plural {_quote(msg.plural)}")
        forms = (msgstr + [""] * nplurals)[:nplurals] if msgstr else [""] * nplurals
        for i, form in enumerate(forms):
            lines += _quote_lines(f"msgstr[{i}]", form)
    else:
        lines += _quote_lines("msgstr", msgstr[0] if msgstr else "")
    if obsolete:
        lines = [("#~ " + ln) if not ln.startswith("#") else ln for ln in lines]
    return "\n".join(lines)


def _sorted(messages: Iterable[Message]) -> list[Message]:
    return sorted(messages, key=lambda m: (m.context or "", m.msgid))


def update_catalogs() -> list[str]:
    """Write the .pot and merge it into each .po; returns what changed, one line each."""
    messages = extract()
    changes = []
    pot_header = Message("", comment="")
    pot = [_entry_text(pot_header, ["Content-Type: text/plain; charset=UTF-8\n"], 1, set())]
    pot += [_entry_text(m, [], 2, set()) for m in _sorted(messages.values())]
    (LOCALE_DIR / f"{DOMAIN}.pot").write_text("\n\n".join(pot) + "\n", encoding="utf-8")
    for lang in LANGUAGES:
        path = catalog_path(lang)
        if not path.exists():
            continue
        entries = parse_po(path)
        by_key: dict[tuple[str | None, str], PoEntry] = {e.key: e for e in entries}
        header = by_key[(None, "")]
        nplurals = _plural_count(header.msgstr[0])
        blocks = [_entry_text(Message(""), header.msgstr, 1, set())]
        for msg in _sorted(messages.values()):
            old = by_key.get(msg.key)
            if old is None:
                changes.append(f"{lang}: new message {msg.msgid!r}")
            blocks.append(_entry_text(msg, old.msgstr if old else [], nplurals, old.flags if old else set()))
        for key, old in sorted(by_key.items(), key=lambda kv: (kv[0][0] or "", kv[0][1])):
            if key != (None, "") and key not in messages:
                changes.append(f"{lang}: message gone from the source, kept as #~: {old.msgid!r}")
                gone = Message(old.msgid, plural=old.msgid_plural, context=old.context)
                blocks.append(_entry_text(gone, old.msgstr, nplurals, old.flags, obsolete=True))
        path.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
    return changes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m dealer.speech.i18n_extract", description=__doc__.split("\n\n")[0])
    parser.add_argument("--update", action="store_true", help="write the .pot and add new messages to each .po")
    args = parser.parse_args(argv)
    if args.update:
        for line in update_catalogs():
            print(line)
    problems = [p for lang in LANGUAGES if lang != "en" for p in missing(lang)]
    problems += [f"not in a catalog (wrap it in _()): {s}" for s in bare_sentences()]
    for line in problems:
        print(line)
    print(f"{len(extract())} messages; {len(problems)} problems", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
