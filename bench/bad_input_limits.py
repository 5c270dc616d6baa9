"""Print what each kind of bad input costs the command line: exit status, CPU seconds and
peak memory of the child (the suite asserts <= 10 s and <= 200 MB; this prints the figures).

    python3 bench/bad_input_limits.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "dealer")]

from cli_limits import run_cli  # noqa: E402
from test_bad_input import CASES, STDIN  # noqa: E402


def main() -> int:
    print(f"{'input':58} exit  cpu_s  peak_MB")
    worst_cpu = worst_mb = 0.0
    for name, args, _message in CASES:
        with tempfile.TemporaryDirectory() as tmp:
            run = run_cli(args(Path(tmp)), cwd=Path(tmp), stdin=STDIN.get(name, b""))
        worst_cpu, worst_mb = max(worst_cpu, run.cpu_s), max(worst_mb, run.peak_mb)
        print(f"{name[:58]:58} {run.code:4d}  {run.cpu_s:5.2f}  {run.peak_mb:7.1f}")
    print(f"worst: {worst_cpu:.2f} s of CPU, {worst_mb:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
