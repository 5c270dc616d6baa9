"""The examples in the calibration modules' docstrings, and the pictures of the players' guide."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest
from PIL import Image

from calibration.doc_images import make_doc_images

MODULES = ["calibration.layout", "calibration.markers", "vision.synthetic.mat", "calibration.camera",
           "dealer.table.layout_watch"]


@pytest.mark.parametrize("name", MODULES)
def test_given_a_module_then_its_docstring_examples_hold(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


def test_given_the_guide_when_its_pictures_are_made_then_they_are_small_pngs_the_page_uses(tmp_path: Path) -> None:
    written = make_doc_images(tmp_path)
    assert sum(p.stat().st_size for p in written) < 600 * 1024
    page = (Path(__file__).parents[2] / "docs" / "playing-at-the-table.md").read_text(encoding="utf-8")
    for path in written:
        with Image.open(path) as img:
            assert img.format == "PNG" and img.width >= 400
        assert f"img/{path.name}" in page
