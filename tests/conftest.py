"""Shared test setup: the round keys (dealer/record/envelope.py) go to a temporary key store,
never to the user's own ~/.local/state/eleusis/keys; the test workers keep freed memory."""

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
