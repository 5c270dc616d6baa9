"""Shared test setup: the round keys (dealer/envelope.py) go to a temporary key store,
never to the user's own ~/.local/state/eleusis/keys."""

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_key_store(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    keys = tmp_path_factory.mktemp("keys")
    monkeypatch.setenv("ELEUSIS_KEY_DIR", str(keys))
    return keys
