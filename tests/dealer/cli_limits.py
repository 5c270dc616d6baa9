"""Run `python -m dealer ...` as a child under resource limits and measure what it used.

The child gets a CPU-time limit and an address-space ceiling (so a regression cannot take
the test machine down with it); :func:`run_cli` returns its exit status, output, CPU
seconds and peak resident memory (from ``wait4``), for tests to compare with the limits
of issue 9: at most 10 s and 200 MB for any bad input.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
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


# A test run in the background (`nohup python3 -m pytest ... &` from a script) starts with
# SIGINT ignored, and an ignored signal stays ignored across fork and exec: a child sent
# Ctrl-C would go on as if nothing came. The child first sets SIGINT back to its default,
# then execs the command in its place (same pid), so Python installs its Ctrl-C handler.
# A trampoline, not ``preexec_fn``: the tests read a child's output in threads, and
# ``preexec_fn`` is not safe with threads.
_CTRL_C_ABLE = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
                "os.execv(sys.executable, [sys.executable, *sys.argv[1:]])")


def dealer_command(*args: str) -> list[str]:
    """``python -m dealer ARGS`` as a child that Ctrl-C (SIGINT) reaches, however the test runs."""
    return [sys.executable, "-c", _CTRL_C_ABLE, "-m", "dealer", *args]


def child_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT)
    env.pop("DISPLAY", None)
    env.update(extra)
    return env


# The command runs as the grandchild of the test, under a small launcher: Linux counts a
# forked process's copy of its parent in the process's peak memory, even past exec, and a
# pytest process past the vision tests is over 200 MB. The launcher, fresh from exec, is
# small: its fork is the command, measured by ``wait4`` there and written to ``argv[1]``
# (exit status, CPU seconds, peak kB).
_LAUNCH = f"""
import os, resource, sys
resource.setrlimit(resource.RLIMIT_CPU, ({CPU_LIMIT_S + 1}, {CPU_LIMIT_S + 2}))
resource.setrlimit(resource.RLIMIT_AS, ({_ADDRESS_CEILING}, {_ADDRESS_CEILING}))
pid = os.fork()
if pid == 0:
    os.execv(sys.executable, [sys.executable, "-m", "dealer", *sys.argv[2:]])
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as report:
    report.write(f"{{os.waitstatus_to_exitcode(status)}} {{usage.ru_utime + usage.ru_stime}} {{usage.ru_maxrss}}")
"""


def run_cli(args: list[str | bytes], cwd: Path, stdin: bytes = b"", wall_s: float = 120.0) -> Run:
    """Run the command line with ``args`` (bytes for arguments that are not UTF-8)."""
    with tempfile.TemporaryDirectory() as tmp:
        return _run(args, cwd, stdin, wall_s, Path(tmp) / "usage")


def _run(args: list[str | bytes], cwd: Path, stdin: bytes, wall_s: float, report: Path) -> Run:
    argv: list[str | bytes] = [sys.executable, "-c", _LAUNCH, str(report), *args]
    proc = subprocess.Popen(argv, cwd=cwd, env=child_env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    chunks: dict[str, bytes] = {}

    def drain(name: str, stream: IO[bytes]) -> None:
        chunks[name] = stream.read()

    readers = [threading.Thread(target=drain, args=(name, stream), daemon=True)
               for name, stream in (("out", proc.stdout), ("err", proc.stderr))]
    for reader in readers:
        reader.start()
    killer = threading.Timer(wall_s, os.killpg, (proc.pid, signal.SIGKILL))  # the launcher and the command
    killer.start()
    try:
        assert proc.stdin is not None
        try:
            proc.stdin.write(stdin)
            proc.stdin.close()
        except BrokenPipeError:
            pass
        _, status, usage = os.wait4(proc.pid, 0)
    finally:
        killer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)
    for reader in readers:
        reader.join()
    try:  # the command's own exit status, CPU time and peak memory
        code, cpu_s, peak_kb = report.read_text().split()
    except (OSError, ValueError):  # the launcher itself was killed: what it used, with its command
        code, cpu_s, peak_kb = str(proc.returncode), str(usage.ru_utime + usage.ru_stime), str(usage.ru_maxrss)
    return Run(int(code), chunks.get("out", b"").decode("utf-8", "replace"),
               chunks.get("err", b"").decode("utf-8", "replace"), float(cpu_s), float(peak_kb) / 1024)
