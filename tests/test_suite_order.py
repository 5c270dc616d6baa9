"""The suite's longest files start first (tests/conftest.py): the names it gives still name
files, and the order it makes puts them first and keeps every other file's place."""

from __future__ import annotations

import fnmatch
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from tests.conftest import LONGEST_FIRST, pytest_collection_modifyitems

ROOT = Path(__file__).resolve().parents[1]


def test_every_longest_file_named_is_there() -> None:
    files = [p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").rglob("test_*.py")]
    gone = [pattern for pattern in LONGEST_FIRST if not fnmatch.filter(files, pattern)]
    assert gone == [], f"tests/conftest.py LONGEST_FIRST names files that are not there: {gone}"


def test_the_longest_files_come_first_and_the_others_keep_their_order() -> None:
    def item(path: str, name: str) -> Any:
        return SimpleNamespace(path=ROOT / path, name=name)

    items = [item("tests/engine/test_cards.py", "a"), item("tests/engine/test_cards.py", "b"),
             item(LONGEST_FIRST[1], "c"), item("tests/test_documents.py", "d"),
             item(LONGEST_FIRST[0].replace("*", ""), "e"), item(LONGEST_FIRST[1], "f")]
    pytest_collection_modifyitems(SimpleNamespace(rootpath=ROOT), items)  # type: ignore[arg-type]
    assert [i.name for i in items] == ["e", "c", "f", "a", "b", "d"]
