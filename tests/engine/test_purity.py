"""engine/ is pure: it imports the standard library and itself, nothing else (brief, STYLE 1)."""

import ast
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
# Modules that would give the engine files, a clock or sound even though they are stdlib.
FORBIDDEN_STDLIB = {"time", "datetime", "os", "pathlib", "io", "subprocess", "socket", "threading", "shutil", "tempfile", "wave"}


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module.split(".")[0]))
    return found


SOURCES = sorted(ENGINE.rglob("*.py"))


def test_engine_has_sources() -> None:
    assert len(SOURCES) >= 2


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_engine_module_imports_only_stdlib(path: Path) -> None:
    # given an engine module, when its imports are listed, then each is stdlib or engine
    for lineno, name in _imports(path):
        where = f"{path.relative_to(ENGINE.parent)}:{lineno}"
        assert name == "engine" or name == "__future__" or name in sys.stdlib_module_names, (
            f"{where} imports {name!r}, which is not the standard library"
        )
        assert name not in FORBIDDEN_STDLIB, f"{where} imports {name!r}: no files, clock or sound in engine/"


def test_importing_engine_pulls_no_numpy_or_cv2() -> None:
    import subprocess

    code = (
        "import sys, importlib, pkgutil, engine\n"
        "for m in pkgutil.walk_packages(engine.__path__, 'engine.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = [m for m in ('cv2', 'numpy', 'onnxruntime', 'pyttsx3') if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=ENGINE.parent)
    assert out.stdout.strip() == ""
