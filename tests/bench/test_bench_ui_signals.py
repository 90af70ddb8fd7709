"""A `kglens bench ui` ended by a signal stops the simulated run it started: its run's process
goes, and the bench exits, whether SIGTERM comes to a foreground command, to a shell's
background job (SIGINT ignored, SIGTERM then raises KeyboardInterrupt outside asyncio's handler),
or Ctrl-C (SIGINT) comes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PRESSES = 5
"""Few presses before the run (the idle app's measure only delays it), and enough that the run
is still going when the test has seen its process start: during the full-speed run each press
waits for the app to go idle, and the run's process is seen as it starts, before its first
snapshot is awaited."""


def _state(pid: int) -> str:
    """The process's state letter from /proc ("" once it is gone and reaped)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return ""
    return text.rsplit(")", 1)[1].split()[0]


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (a child started from any of its threads): from
    each thread's list of children where the kernel keeps one (cheap: the loops below ask every
    20 ms), else from every process's state."""
    lists = list(Path(f"/proc/{pid}/task").glob("*/children"))
    found = []
    for children in lists:
        try:
            found += [int(child) for child in children.read_text().split()]
        except (FileNotFoundError, ProcessLookupError):
            continue
    if lists:
        return found
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        if int(fields[1]) == pid:
            found.append(int(entry.name))
    return found


def _run_process(pid: int) -> int | None:
    """The bench's simulated run's process (multiprocessing's spawned child), once started."""
    for child in _children(pid):
        try:
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
        except (FileNotFoundError, ProcessLookupError):
            continue
        if b"spawn_main" in cmdline:
            return child
    return None


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads process states in /proc")
@pytest.mark.parametrize(
    "signum, sigint",
    [
        (signal.SIGTERM, signal.SIG_IGN),
        (signal.SIGTERM, signal.default_int_handler),
        (signal.SIGINT, signal.default_int_handler),
    ],
    ids=["SIGTERM-background-job", "SIGTERM", "SIGINT"],
)
def test_a_killed_bench_ui_stops_its_simulated_run(
    tmp_path: Path, signum: signal.Signals, sigint: object
) -> None:
    setup = "signal.SIG_IGN" if sigint is signal.SIG_IGN else "signal.default_int_handler"
    code = (
        f"import signal; signal.signal(signal.SIGINT, {setup}); "
        "from kglens_tui.cli.main import main; "
        f"raise SystemExit(main(['bench', 'ui', '--presses', '{PRESSES}']))"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO), "TMPDIR": str(tmp_path)}
    bench = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        child = None
        while child is None:
            assert bench.poll() is None, bench.communicate()
            child = _run_process(bench.pid)
            time.sleep(0.02)
        bench.send_signal(signum)
        # the run's process ends (gone, or a zombie its new parent has not reaped yet) ...
        while _state(child) not in ("", "Z"):
            assert bench.poll() is None or _state(child) in ("", "Z"), (
                "the bench exited and left its run's process going"
            )
            time.sleep(0.02)
        # ... and so does the bench, as interrupted
        _out, err = bench.communicate()
        assert "interrupted" in err
        assert bench.returncode != 0
    finally:
        if bench.poll() is None:
            bench.kill()
            bench.communicate()
