"""CPU-bound neighbour processes: a benchmark's stand-in for a machine busy with other work."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

_SPIN = (
    "import sys, time\n"
    "end = time.monotonic() + float(sys.argv[1])\n"
    "print('spinning', flush=True)\n"
    "while time.monotonic() < end:\n"
    "    pass\n"
)
"""A neighbour: says it has started, then keeps one CPU busy until its deadline."""

STOP_WAIT_S = 5.0
"""How long a neighbour asked to stop may take before it is killed."""


@contextmanager
def cpu_neighbours(count: int, seconds: float) -> Iterator[int]:
    """``count`` processes, each spinning one CPU from when the block starts (they have all
    started by then) until it ends; each also ends on its own after ``seconds``, so none
    outlives a benchmark that was killed. Yields the number started."""
    procs: list[subprocess.Popen[str]] = []
    try:
        for _ in range(count):
            procs.append(
                subprocess.Popen(
                    [sys.executable, "-c", _SPIN, str(seconds)],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    text=True,
                )
            )
        for proc in procs:
            assert proc.stdout is not None
            proc.stdout.readline()  # started (or ended at once: EOF)
        yield len(procs)
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(STOP_WAIT_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            if proc.stdout is not None:
                proc.stdout.close()
