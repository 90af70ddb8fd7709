"""Which process holds a run: a 'host:pid:start' tag, and whether that process still lives.

The start time (Linux: field 22 of /proc/PID/stat) tells a live owner from a new process that
reuses a dead owner's pid; elsewhere only the pid is checked.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path


def _start_time(pid: int) -> str:
    """The process start time in clock ticks since boot, or '' where /proc cannot tell or the
    process has exited (a zombie waiting to be reaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return ""
    fields = stat.rsplit(")", 1)[-1].split()
    if len(fields) <= 19 or fields[0] in ("Z", "X"):
        return ""
    return fields[19]


def this_process() -> str:
    """The owner tag of the calling process."""
    pid = os.getpid()
    return f"{socket.gethostname()}:{pid}:{_start_time(pid)}"


def owner_pid(owner: str) -> int | None:
    """The pid in an owner tag, None if the tag is malformed."""
    parts = owner.rsplit(":", 2)
    return int(parts[1]) if len(parts) == 3 and parts[1].isdigit() else None


def is_alive(owner: str | None) -> bool | None:
    """True if the owner process still runs, False if it is gone, None if this machine cannot
    tell (no owner recorded, a malformed tag, or another host)."""
    if not owner or (pid := owner_pid(owner)) is None:
        return None
    host, _pid, start = owner.rsplit(":", 2)
    if host != socket.gethostname():
        return None
    if Path("/proc").is_dir() and start:
        return _start_time(pid) == start
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
