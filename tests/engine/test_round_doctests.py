"""The examples in the docstrings of the round's modules run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["engine.deal", "engine.errors", "engine.events", "engine.game", "engine.judging", "engine.layout",
           "engine.record", "engine.round", "engine.scoring", "engine.simulate", "dealer.speech.narrate"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    # given a module's docstring examples, when run, then none fails
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
