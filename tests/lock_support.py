"""A file lock that tells when a caller has to wait for it (tests of one process building or
storing at a time, `kg.disk_cache.building`)."""

from __future__ import annotations

import fcntl
import threading

import pytest


def tell_waits(monkeypatch: pytest.MonkeyPatch, waiting: threading.Event) -> None:
    """Patch fcntl.flock so that an exclusive lock another holder keeps sets ``waiting`` before
    the caller waits for it."""
    real_flock = fcntl.flock

    def flock(fd: int, operation: int) -> None:
        if operation == fcntl.LOCK_EX:
            try:
                return real_flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                waiting.set()
        return real_flock(fd, operation)

    monkeypatch.setattr(fcntl, "flock", flock)
