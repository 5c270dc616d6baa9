"""Shared test setup: the round keys (dealer/record/envelope.py) go to a temporary key store,
never to the user's own ~/.local/state/eleusis/keys; the test workers keep freed memory."""

import fnmatch
import os
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_key_store(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    keys = tmp_path_factory.mktemp("keys")
    monkeypatch.setenv("ELEUSIS_KEY_DIR", str(keys))
    return keys


# The tests allocate and free frames of tens of megabytes thousands of times, and glibc gave
# each back to the kernel at once, to page-fault it in again on the next: a sixth of the
# suite's CPU time was system time. Freed memory is kept for reuse instead. Set here, before
# pytest-xdist starts its workers, it reaches them and every program the tests start; the
# allocator's own behaviour, not what any test checks, changes.
KEEP_FREED_MEMORY = {"MALLOC_TRIM_THRESHOLD_": str(1 << 30), "MALLOC_TOP_PAD_": str(256 << 20)}


def pytest_configure(config: pytest.Config) -> None:
    for name, value in KEEP_FREED_MEMORY.items():
        os.environ.setdefault(name, value)


# The modules that take longest, longest first (seconds each on this 2-core machine, as
# `--durations=0` gives them in a whole run without ../shared). pytest-xdist's --dist
# loadscope hands each worker a whole module at a time, in the order of the collection;
# started last, one of these kept one worker busy for a minute after the other had
# finished. Started first, the many short modules fill in behind them and the two workers
# end together. Only the order changes: every test runs, each module's tests in their own
# order. A module not named keeps its place after these; one named but gone is passed
# over. A name may be a pattern (fnmatch): a long file split in parts keeps its place.
LONGEST_FIRST = (
    "tests/vision/test_occupancy*.py",  # 43
    "tests/vision/test_dim_light.py",  # 25
    "tests/dealer/app/test_cli_calibrate_deck.py",  # 24
    "tests/vision/test_deck_print.py",  # 16
    "tests/bench/test_table_rounds_live.py",  # 15
    "tests/dealer/app/test_resume.py",  # 15 (and its random waits before each kill)
    "tests/dealer/app/test_cli_read.py",  # 12
    "tests/dealer/app/test_bad_input.py",  # 12
    "tests/dealer/app/test_secrecy.py",  # 10
    "tests/dealer/app/test_cli_calibrate.py",  # 10
    "tests/vision/test_deck_profile.py",  # 10 (an enrolled Russian deck read)
    "tests/dealer/table/test_layout_columns.py",  # 9
    "tests/vision/test_deck_profile_gate.py",  # 8
    "tests/dealer/app/test_kruskal_play.py",  # 8
    "tests/dealer/app/test_cli_play_stream.py",  # 8 (children that free a large heap as they end)
    "tests/dealer/app/test_demo_languages.py",  # 7
    "tests/calibration/test_check.py",  # 7
    "tests/vision/test_detect.py",  # 7
    "tests/dealer/app/test_cli_game.py",  # 7
    "tests/dealer/app/test_live.py",  # 7
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    root = Path(str(config.rootpath))
    ranks: dict[Path, int] = {}

    def module_rank(item: pytest.Item) -> int:
        module = Path(str(item.path))
        if module not in ranks:
            try:
                path = module.relative_to(root).as_posix()
            except ValueError:
                path = ""
            ranks[module] = next((k for k, pattern in enumerate(LONGEST_FIRST) if fnmatch.fnmatchcase(path, pattern)),
                                 len(LONGEST_FIRST))
        return ranks[module]

    items.sort(key=module_rank)  # stable: the rest keep the collection's order
