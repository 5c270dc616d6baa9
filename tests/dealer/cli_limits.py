"""Run `python -m dealer ...` as a child under resource limits and measure what it used.

The child gets a CPU-time limit and an address-space ceiling (so a regression cannot take
the test machine down with it); :func:`run_cli` returns its exit status, output, CPU
seconds and peak resident memory (from ``wait4``), for tests to compare with the limits
of issue 9: at most 10 s and 200 MB for any bad input.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[2]
CPU_LIMIT_S = 10
MEMORY_LIMIT_MB = 200
_ADDRESS_CEILING = 4 << 30  # far above the limit: only there to stop a runaway child


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str
    cpu_s: float
    peak_mb: float

    def within_limits(self) -> bool:
        return self.cpu_s <= CPU_LIMIT_S and self.peak_mb <= MEMORY_LIMIT_MB


def child_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT)
    env.pop("DISPLAY", None)
    env.update(extra)
    return env


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_LIMIT_S + 1, CPU_LIMIT_S + 2))
    resource.setrlimit(resource.RLIMIT_AS, (_ADDRESS_CEILING, _ADDRESS_CEILING))


def run_cli(args: list[str | bytes], cwd: Path, stdin: bytes = b"", wall_s: float = 120.0) -> Run:
    """Run the command line with ``args`` (bytes for arguments that are not UTF-8)."""
    argv: list[str | bytes] = [sys.executable, "-m", "dealer", *args]
    proc = subprocess.Popen(argv, cwd=cwd, env=child_env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=_limit)
    chunks: dict[str, bytes] = {}

    def drain(name: str, stream: IO[bytes]) -> None:
        chunks[name] = stream.read()

    readers = [threading.Thread(target=drain, args=(name, stream), daemon=True)
               for name, stream in (("out", proc.stdout), ("err", proc.stderr))]
    for reader in readers:
        reader.start()
    killer = threading.Timer(wall_s, proc.kill)
    killer.start()
    try:
        assert proc.stdin is not None
        try:
            proc.stdin.write(stdin)
            proc.stdin.close()
        except BrokenPipeError:
            pass
        _, status, usage = os.wait4(proc.pid, 0)  # the child's own CPU time and peak memory
    finally:
        killer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)
    for reader in readers:
        reader.join()
    return Run(proc.returncode, chunks.get("out", b"").decode("utf-8", "replace"),
               chunks.get("err", b"").decode("utf-8", "replace"),
               usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)
