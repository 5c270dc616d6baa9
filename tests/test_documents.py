"""The documents hold together: every rule id the code cites is written in docs/rules.md,
and every link in the README and docs/ leads to a file of this repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules.md"
RULE_IDS = ({f"C{i}" for i in range(1, 6)} | {"R1", "R2"} | {f"P{i}" for i in range(1, 6)}
            | {f"N{i}" for i in range(1, 5)} | {f"F{i}" for i in range(1, 8)} | {"E1", "E2", "E3"}
            | {f"G{i}" for i in range(1, 7)})
CITING = ["engine", "vision", "calibration", "dealer", "models", "bench", "tests", "docs", "examples"]
# a citation is a bracket of plain words holding an id: "(P4)", "(R2, G6)", "(see N3)", "(C3-G4)";
# a bracket with quotes in it is code ("7C", "C7"), not a citation
CITATION = re.compile(r"\(([^()'\"`]*)\)")
RULE_ID = re.compile(r"\b[CRPNFEG]\d\b")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def _rule_ids_defined() -> set[str]:
    return set(re.findall(r"^- \*\*([CRPNFEG]\d)\*\*", RULES.read_text(encoding="utf-8"), re.MULTILINE))


def _cited_ids(text: str) -> set[str]:
    return {rule_id for bracket in CITATION.findall(text) for rule_id in RULE_ID.findall(bracket)}


def _citing_files() -> list[Path]:
    files = [ROOT / "README.md"]
    for folder in CITING:
        for pattern in ("*.py", "*.md", "*.po", "*.eleusis"):
            files += sorted((ROOT / folder).rglob(pattern))
    return [f for f in files if "__pycache__" not in f.parts]


def _documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "bench").glob("*.md")),
            *sorted((ROOT / "models").glob("*.md"))]


def _anchors(page: Path) -> set[str]:
    """GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces as hyphens."""
    headings = re.findall(r"^#+\s+(.+?)\s*$", page.read_text(encoding="utf-8"), re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in headings}


def test_the_rules_document_defines_each_id_once_and_no_other() -> None:
    text = RULES.read_text(encoding="utf-8")
    defined = re.findall(r"^- \*\*([CRPNFEG]\d)\*\*", text, re.MULTILINE)
    assert sorted(defined) == sorted(RULE_IDS)
    assert "[decided]" in text and "## The worked example" in text
    assert "## What makes a record impossible" in text


def test_given_a_citation_of_a_missing_id_then_it_is_found() -> None:
    # the checker itself: an id in a bracket is a citation, an id in quoted code is not
    assert _cited_ids('raise Refused("no more copies (C1)")  # see (R2, G6), (C3-G4)') == {"C1", "R2", "G6", "C3", "G4"}
    assert _cited_ids('("7C", "C7") and (E402) and (issue 29)') == set()


def test_every_rule_id_cited_in_code_tests_and_docs_is_written_in_the_rules() -> None:
    defined = _rule_ids_defined()
    missing = [f"{path.relative_to(ROOT)}: ({rule_id}) is not in docs/rules.md"
               for path in _citing_files()
               for rule_id in sorted(_cited_ids(path.read_text(encoding="utf-8", errors="replace")) - defined)]
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize("page", _documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_of_a_document_leads_to_a_file_in_the_repository(page: Path) -> None:
    broken = []
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        path, _, anchor = target.partition("#")
        if re.match(r"[a-z]+:", path):
            broken.append(f"{target}: leaves the repository")
            continue
        resolved = (page.parent / path).resolve() if path else page
        if not resolved.is_relative_to(ROOT):
            broken.append(f"{target}: leaves the repository")
        elif not resolved.exists():
            broken.append(f"{target}: no such file")
        elif anchor and resolved.suffix == ".md" and anchor not in _anchors(resolved):
            broken.append(f"{target}: no heading #{anchor} in {resolved.relative_to(ROOT)}")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


def test_the_readme_is_a_short_guide_that_opens_with_the_two_commands() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    opening = text.split("```")[1].strip().splitlines()
    assert [line.split("#")[0].split("&&")[-1].strip() for line in opening] == [
        "python3 -m dealer play", "python3 -m pytest"]
    assert len(text.splitlines()) < 150
    # internal references mean nothing to a newcomer: they live in git and in docs/
    assert not re.search(r"\bissue \d|\bseeds/\d", text)


@pytest.mark.parametrize("name", ["vision.md", "model.md", "playing-at-the-table.md", "rules.md"])
def test_a_design_document_is_no_diary(name: str) -> None:
    text = (ROOT / "docs" / name).read_text(encoding="utf-8")
    headings = re.findall(r"^#+ .*$", text, re.MULTILINE)
    assert not [h for h in headings if re.search(r"\d{4}-\d\d-\d\d|\bsession\b|\bissue \d", h)]
    assert not re.search(r"\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|"
                         r"thirteenth) session\b", text)
    assert len(text.splitlines()) <= 300
