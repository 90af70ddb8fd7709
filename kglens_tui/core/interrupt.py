"""SIGTERM ends a command as Ctrl-C does.

`kill PID`, a service manager stopping the command or a CI job timing out sends SIGTERM, whose
default action ends the process on the spot: a run would be left "running" by a dead process, its
requests in flight uncounted and nothing said. With `terminate_as_interrupt` the signal takes the
path of Ctrl-C instead: whatever handles SIGINT at that moment (asyncio.run's, which cancels the
run so that it commits what is whole and counts what it drops, or Python's, which raises
KeyboardInterrupt) handles it, so a command tells the user and stores the run as Ctrl-C does.
"""

from __future__ import annotations

import signal
import threading
from types import FrameType


def _as_interrupt(signum: int, frame: FrameType | None) -> None:
    """Hand SIGTERM to the SIGINT handler in place; KeyboardInterrupt when SIGINT is ignored (a
    command started in the background by a shell script)."""
    handler = signal.getsignal(signal.SIGINT)
    if callable(handler):
        handler(signal.SIGINT, frame)
    else:
        signal.default_int_handler(signal.SIGINT, frame)


def terminate_as_interrupt() -> None:
    """From now on, SIGTERM to this process is handled as Ctrl-C. Only the main thread can set
    a handler: called from another (a command run inside a program or a test), it does nothing."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _as_interrupt)
