"""The examples in the vision modules' docstrings stay true."""

import doctest
import importlib

import pytest

MODULES = ["readings", "frames", "geometry", "classify", "consistency", "pipeline", "synthetic", "deck_profile", "flicker",
           "occupancy", "zone_cards", "shadow_edge", "synthetic.things", "corners", "synthetic.columns",
           "by_index", "under", "synthetic.surfaces", "zone_corners", "corner_proposals", "fans",
           "photo_size"]


@pytest.mark.parametrize("name", MODULES)
def test_given_a_module_when_its_docstring_examples_run_then_they_pass(name) -> None:
    module = importlib.import_module(f"vision.{name}")
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
