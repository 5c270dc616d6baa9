"""The review page in a real headless browser (Debian's chromium): every frame loads, also
from a folder whose name needs URL-escaping ("R #1")."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from dealer.app.cli import main
from tests.dealer.recorded_round import record_round

BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--virtual-time-budget=5000"]

pytestmark = pytest.mark.skipif(BROWSER is None, reason="chromium is not installed (apt-get install chromium)")


def loaded_dom(page: Path, profile: Path) -> str:
    """The page's DOM after the browser loaded it (and its images) from disk."""
    assert BROWSER is not None
    run = subprocess.run([BROWSER, *FLAGS, f"--user-data-dir={profile}", "--dump-dom", page.as_uri()],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout


def images(dom: str) -> list[str]:
    return re.findall(r"<img [^>]*>", dom)


@pytest.mark.parametrize("page_in", ["the recording folder", "the folder above it"])
def test_every_frame_loads_in_chromium(tmp_path: Path, page_in: str, capsys: pytest.CaptureFixture[str]) -> None:
    # given a round recorded in a folder named "R #1", when its review page is written (in
    # the folder, or above it: then every image path holds the folder's name)
    r = record_round(tmp_path / "R #1")
    page = r.folder / "review.html" if page_in == "the recording folder" else tmp_path / "page.html"
    assert main(["review", str(r.folder), "--html", str(page)]) == 0
    capsys.readouterr()
    # then chromium loads every frame of every verdict
    imgs = images(loaded_dom(page, tmp_path / "profile"))
    assert len(imgs) == 4
    assert all('class="loaded"' in img for img in imgs), imgs
    if page_in == "the folder above it":
        assert all('src="R%20%231/frames/' in img for img in imgs)


def test_an_unescaped_path_would_show_no_picture(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the check above can fail: the page as it was written before (paths not URL-encoded)
    r = record_round(tmp_path / "R #1")
    page = tmp_path / "page.html"
    assert main(["review", str(r.folder), "--html", str(page)]) == 0
    capsys.readouterr()
    page.write_text(page.read_text().replace("R%20%231", "R #1"))
    imgs = images(loaded_dom(page, tmp_path / "profile"))
    assert imgs and all('class="missing"' in img and "frame file missing" in img for img in imgs)
