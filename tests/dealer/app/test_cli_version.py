"""`eleusis --version`: the package's version, exit 0, installed or not."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from dealer.app import cli

ROOT = Path(__file__).resolve().parents[3]


def _declared_version() -> str:
    with (ROOT / "pyproject.toml").open("rb") as f:
        return str(tomllib.load(f)["project"]["version"])


def test_given_version_then_it_prints_the_package_version_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        cli.main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"eleusis {cli.package_version()}"


def test_given_an_installed_package_then_its_metadata_gives_the_version(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.metadata, "version", lambda name: "9.8.7" if name == cli.DISTRIBUTION else "0")
    assert cli.package_version() == "9.8.7"


def test_given_no_installed_package_then_pyproject_gives_the_version(monkeypatch: pytest.MonkeyPatch) -> None:
    def not_installed(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", not_installed)
    assert cli.package_version() == _declared_version()


def test_given_the_module_run_from_the_checkout_then_it_says_the_version() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "dealer", "--version"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"eleusis {_declared_version()}"
