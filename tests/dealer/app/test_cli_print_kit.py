"""`eleusis print-kit OUT.pdf [--paper a4|letter]`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dealer.app.cli import main

PAPER_PT = {"a4": (595.3, 841.9), "letter": (612.0, 792.0)}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_given_a_paper_when_the_kit_is_printed_then_a_pdf_of_that_size_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], paper: str) -> None:
    out = tmp_path / "kit.pdf"
    assert main(["print-kit", str(out), "--paper", paper]) == 0
    said = capsys.readouterr().out
    assert "9 pages" in said and "100 %" in said and "Kruskal tokens, seats 7 and 8" in said
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    boxes = re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data)
    sizes = {tuple(sorted((round(float(w), 1), round(float(h), 1)))) for w, h in boxes}
    assert sizes == {PAPER_PT[paper]}


@pytest.mark.parametrize(
    ("argv", "needle"),
    [(["print-kit", "{tmp}/kit.png"], "should end in .pdf"),
     (["print-kit", "{tmp}/no/such/dir/kit.pdf"], "does not exist")],
)
def test_given_a_bad_output_path_then_a_clear_message_and_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], needle: str) -> None:
    assert main([a.replace("{tmp}", str(tmp_path)) for a in argv]) == 2
    assert needle in capsys.readouterr().err


def test_given_an_unknown_paper_then_argparse_refuses_with_exit_2(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as info:
        main(["print-kit", str(tmp_path / "k.pdf"), "--paper", "a3"])
    assert info.value.code == 2
