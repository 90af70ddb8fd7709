"""SIGTERM and SIGHUP to the terminal UI (`kglens`, `kglens annotate tui`) go through its quit, so
the terminal is given back: cooked mode (echo, line editing) and the main screen. The TUI runs in
a pseudo-terminal under a small wrapper that reports the tty's modes once the TUI has ended."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CEILING_S = 120.0
"""A generous bound on waiting for the TUI: a broken quit fails the test instead of hanging it."""

WRAPPER = r"""
import subprocess, sys, termios
tui = subprocess.Popen([sys.executable, "-m", "kglens_tui.cli", *sys.argv[1:]])
print(f"TUI PID {tui.pid}", flush=True)
code = tui.wait()
modes = termios.tcgetattr(0)[3]
echo, icanon = int(bool(modes & termios.ECHO)), int(bool(modes & termios.ICANON))
print(f"AFTER echo={echo} icanon={icanon} code={code}", flush=True)
"""

pytestmark = [pytest.mark.tui, pytest.mark.slow]


class Pty:
    """A process on a pseudo-terminal of 100x30, and everything it has written."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child
            os.execve(argv[0], argv, env)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        self.out = b""
        self.closed = False

    def read_until(self, pattern: bytes, start: int = 0) -> re.Match[bytes]:
        """Read until ``pattern`` (a regex) shows in the output after ``start``."""
        deadline = time.monotonic() + CEILING_S
        while (found := re.compile(pattern).search(self.out, start)) is None:
            assert not self.closed, f"ended without {pattern!r}: {self.out[-2000:]!r}"
            assert time.monotonic() < deadline, f"no {pattern!r} in: {self.out[-2000:]!r}"
            self._read()
        return found

    def _read(self) -> None:
        ready, _, _ = select.select([self.fd], [], [], 1.0)
        if not ready:
            return
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: every process on the terminal has closed it
            data = b""
        self.out += data
        self.closed = not data

    def close(self) -> int:
        """Read to the end, then reap the wrapper; its exit status."""
        deadline = time.monotonic() + CEILING_S
        while not self.closed and time.monotonic() < deadline:
            self._read()
        os.close(self.fd)
        _, status = os.waitpid(self.pid, 0)
        return os.waitstatus_to_exitcode(status)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
@pytest.mark.parametrize("command", [[], ["annotate", "tui"]], ids=["kglens", "annotate-tui"])
def test_a_signal_to_the_tui_gives_the_terminal_back(
    tmp_path: Path, sig: signal.Signals, command: list[str]
) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "TERM": "xterm-256color",
        "KGLENS_DB": str(tmp_path / "w.db"),
    }
    env.pop("TEXTUAL_DRIVER", None)
    wrapper = Pty([sys.executable, "-c", WRAPPER, *command], env)
    pid: int | None = None
    try:
        pid = int(wrapper.read_until(rb"TUI PID (\d+)").group(1))
        entered = wrapper.read_until(rb"\x1b\[\?1049h").end()  # the alternate screen
        wrapper.read_until(rb"KGLens", entered)  # the app has drawn its screen: it is mounted
        os.kill(pid, sig)
        after = wrapper.read_until(rb"AFTER echo=(\d) icanon=(\d) code=(-?\d+)", entered)
        ended = wrapper.out[entered : after.start()]
        assert b"\x1b[?1049l" in ended, "the alternate screen was not left"
        assert b"\x1b[?25h" in ended, "the cursor was not shown again"
        assert after.groups() == (b"1", b"1", b"0"), wrapper.out[-2000:]
    finally:
        if pid is not None and not wrapper.closed:
            with contextlib.suppress(ProcessLookupError):  # it may have ended meanwhile
                os.kill(pid, signal.SIGKILL)
        status = wrapper.close()
    assert status == 0
