"""The examples in the docstrings of the variants' and the guesses' modules run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["engine.variants", "engine.variants.spec", "engine.variants.abbott", "engine.variants.kruskal",
           "engine.variants.simulate", "engine.rules.equivalence", "engine.rules.shape", "engine.guesses", "dealer.record.guesses",
           "dealer.speech.variant_words"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
