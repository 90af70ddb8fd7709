"""Where KGLens keeps what it rebuilds from files it ships (answer-name tables, parsed bundled
KGs): one folder per kind under the user cache directory, moved or turned off by a variable."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def cache_dir(env: str, folder: str) -> Path | None:
    """``$env`` when set, else the user cache directory's ``folder``; None when the variable
    says "off" or is empty (nothing is kept)."""
    value = os.environ.get(env)
    if value is not None:
        return Path(value) if value.strip() and value.strip() != "off" else None
    import platformdirs

    return Path(platformdirs.user_cache_dir("kglens", appauthor=False)) / folder


@contextmanager
def building(lock: Path) -> Iterator[None]:
    """Held while one process builds what it keeps in the cache: an exclusive lock on the file
    `lock` (made when missing), so a process starting meanwhile waits, then reads what was built
    instead of building it again. Where no lock can be taken (no such file can be made, no
    `fcntl`), nothing is held: each process builds its own, as without the lock."""
    try:
        import fcntl
    except ImportError:  # not POSIX
        yield
        return
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # released by the close, or by the process's end
        yield
    finally:
        os.close(fd)
