"""The examples in the enrolment modules' docstrings stay true."""

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["dealer.table.enrolment", "bench.harness.scripted_enrolment"])
def test_given_a_module_when_its_docstring_examples_run_then_they_pass(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
