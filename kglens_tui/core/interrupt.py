"""SIGTERM ends a command as Ctrl-C does.

`kill PID`, a service manager stopping the command or a CI job timing out sends SIGTERM, whose
default action ends the process on the spot: a run would be left "running" by a dead process, its
requests in flight uncounted and nothing said. With `terminate_as_interrupt` the signal takes the
path of Ctrl-C instead: whatever handles SIGINT at that moment (asyncio.run's, which cancels the
run so that it commits what is whole and counts what it drops, or Python's, which raises
KeyboardInterrupt) handles it, so a command tells the user and stores the run as Ctrl-C does.
"""

from __future__ import annotations

import os
import signal
import threading
from types import FrameType

REDELIVER_S = 0.05
"""How long after a SIGTERM that landed where an exception would be lost it is sent again."""
_SWALLOWING_FILES = ("_weakrefset.py", "weakref.py")
"""Modules of weak-reference callbacks: an exception raised in one is printed and dropped."""


def _as_interrupt(signum: int, frame: FrameType | None) -> None:
    """Hand SIGTERM to the SIGINT handler in place; KeyboardInterrupt when SIGINT is ignored (a
    command started in the background by a shell script). A KeyboardInterrupt raised while a
    weak-reference callback or a ``__del__`` runs would be printed and dropped ("Exception
    ignored in ...") and the command would go on: the signal is sent again a moment later
    instead."""
    handler = signal.getsignal(signal.SIGINT)
    if callable(handler) and handler is not signal.default_int_handler:
        handler(signal.SIGINT, frame)
        return
    if _swallows_exceptions(frame):
        timer = threading.Timer(REDELIVER_S, os.kill, (os.getpid(), signum))
        timer.daemon = True
        timer.start()
        return
    signal.default_int_handler(signal.SIGINT, frame)


def _swallows_exceptions(frame: FrameType | None) -> bool:
    """Whether an exception raised in ``frame`` would be dropped: a weak-reference callback's
    or a ``__del__``'s."""
    if frame is None:
        return False
    code = frame.f_code
    return code.co_name == "__del__" or code.co_filename.endswith(_SWALLOWING_FILES)


def terminate_as_interrupt() -> None:
    """From now on, SIGTERM to this process is handled as Ctrl-C. Only the main thread can set
    a handler: called from another (a command run inside a program or a test), it does nothing."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _as_interrupt)
