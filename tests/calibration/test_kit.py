"""The printable kit: pages at true scale on A4 and Letter, read back from the PDF."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.camera import CHARUCO
from calibration.kit import PAPER_SIZES_PT, kit_pages, write_kit_pdf
from calibration.layout import default_layout
from calibration.markers import detect_markers

MM_PER_PT = 25.4 / 72.0
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
DPI = 150


def media_boxes_mm(pdf: Path) -> list[tuple[float, float]]:
    """Page sizes read from the PDF's /MediaBox entries (page dictionaries are not compressed)."""
    text = pdf.read_bytes().decode("latin-1")
    boxes = re.findall(r"/MediaBox\s*\[\s*([\d.\-]+)\s+([\d.\-]+)\s+([\d.\-]+)\s+([\d.\-]+)\s*\]", text)
    return [((float(x1) - float(x0)) * MM_PER_PT, (float(y1) - float(y0)) * MM_PER_PT) for x0, y0, x1, y1 in boxes]


@pytest.fixture(scope="module", params=sorted(PAPER_SIZES_PT))
def kit(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    paper = str(request.param)
    path = tmp_path_factory.mktemp("kit") / f"kit-{paper}.pdf"
    write_kit_pdf(path, paper)
    return paper, path


def test_given_a_paper_when_the_kit_is_written_then_every_page_has_that_paper_size(kit: tuple[str, Path]) -> None:
    paper, path = kit
    boxes = media_boxes_mm(path)
    assert len(boxes) == len(kit_pages())
    short, long_ = PAPER_MM[paper]
    for page, (w, h) in zip(kit_pages(), boxes):
        expected = (long_, short) if page.landscape else (short, long_)
        assert (w, h) == pytest.approx(expected, abs=0.5)


def _render(path: Path, page: int, out: Path) -> np.ndarray:
    subprocess.run(["pdftoppm", "-r", str(DPI), "-f", str(page), "-l", str(page), "-png", "-singlefile",
                    str(path), str(out)], check=True, capture_output=True)
    img = cv2.imread(str(out) + ".png")
    assert img is not None
    return img


def _sides_mm(corners_px: np.ndarray) -> np.ndarray:
    sides = np.linalg.norm(corners_px - np.roll(corners_px, -1, axis=0), axis=1)
    return sides / DPI * 25.4


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
def test_given_the_printed_play_sheet_then_its_markers_measure_their_size_in_mm(kit: tuple[str, Path],
                                                                               tmp_path: Path) -> None:
    _, path = kit
    layout = default_layout()
    img = _render(path, 2, tmp_path / "play")
    found = detect_markers(img, allowed_ids=layout.table_marker_ids | {t.marker_id for t in layout.tokens}).as_dict()
    anchors = {m.marker_id: m for m in layout.markers if m.role == "anchor"}
    assert set(found) == set(anchors)
    for marker_id, corners in found.items():
        assert _sides_mm(corners) == pytest.approx([anchors[marker_id].size_mm] * 4, abs=0.5)
    # the distance between two markers is true to the layout too
    a, b = found[0].mean(axis=0), found[1].mean(axis=0)
    true = np.subtract(anchors[1].centre_mm, anchors[0].centre_mm)
    assert np.linalg.norm(b - a) / DPI * 25.4 == pytest.approx(float(np.linalg.norm(true)), abs=0.7)


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
def test_given_the_printed_tokens_then_each_has_its_marker_at_true_size(kit: tuple[str, Path], tmp_path: Path) -> None:
    _, path = kit
    layout = default_layout()
    token_ids = frozenset(t.marker_id for t in layout.tokens)
    # a bold letter can decode as an unused id (17 for an "O"): only the layout's ids count
    found = detect_markers(_render(path, 3, tmp_path / "tokens"), allowed_ids=token_ids | layout.table_marker_ids).as_dict()
    assert set(found) == token_ids
    for token in layout.tokens:
        assert _sides_mm(found[token.marker_id]) == pytest.approx([token.marker_size_mm] * 4, abs=0.5)


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
def test_given_the_printed_board_then_the_charuco_corners_are_found_at_the_square_size(kit: tuple[str, Path],
                                                                                      tmp_path: Path) -> None:
    _, path = kit
    img = cv2.cvtColor(_render(path, 5, tmp_path / "board"), cv2.COLOR_BGR2GRAY)
    corners, ids, _, _ = cv2.aruco.CharucoDetector(CHARUCO.board()).detectBoard(img)
    cols, rows = CHARUCO.squares_xy
    assert ids is not None and len(ids) == (cols - 1) * (rows - 1)
    by_id = {int(i): c.reshape(2) for i, c in zip(ids.reshape(-1), corners)}
    step_mm = np.linalg.norm(by_id[1] - by_id[0]) / DPI * 25.4
    assert step_mm == pytest.approx(CHARUCO.square_mm, abs=0.4)


def test_given_an_unknown_paper_then_the_error_names_it(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="'a3'"):
        write_kit_pdf(tmp_path / "k.pdf", "a3")
