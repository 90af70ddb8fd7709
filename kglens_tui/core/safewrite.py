"""Files written to a path a user gave: all or nothing, never over an existing file unless asked
(--force), never through a symbolic link.

The content goes to a new temporary file in the destination's directory, is flushed to disk, and
is renamed over the destination only when complete, so a failure (disk full, an error while
producing the content) leaves the previous file as it was and no temporary file behind.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from kglens_tui.core.errors import KGLensError


class ExportError(KGLensError):
    """A refused or failed write to a user's path, as one line naming the path."""


def check_destination(path: Path | str, force: bool = False) -> Path:
    """`path` if a file may be written there: no symbolic link (even with force), no directory or
    other non-file, no existing file unless force, and an existing parent directory."""
    path = Path(path)
    if path.is_symlink():
        raise ExportError(f"{path} is a symbolic link: refusing to write through it")
    if path.exists():
        if not path.is_file():
            raise ExportError(f"{path} exists and is not a regular file: refusing to replace it")
        if not force:
            raise ExportError(f"{path} already exists: pass --force to replace it")
    parent = path.parent
    if not parent.is_dir():
        raise ExportError(f"cannot write {path}: the directory {parent} does not exist")
    return path


def check_destinations(paths: Mapping[str, Path | str], force: bool = False) -> list[Path]:
    """Every output of one command, by the option that names it, checked as `check_destination`
    does, and no two of them the same file ("--csv X --html X" would write one over the other)."""
    seen: dict[Path, str] = {}
    checked = []
    for option, path in paths.items():
        where = Path(path)
        key = where.parent.resolve() / where.name
        if key in seen:
            raise ExportError(
                f"{path} is named by both {seen[key]} and {option}: give each output its own file"
            )
        seen[key] = option
        checked.append(check_destination(where, force))
    return checked


STALE_UNOWNED_S = 3600.0
"""Age after which a temporary file that names no process (an older version's) is stale."""


def _alive(pid: int) -> bool:
    """Whether a process with this id runs on this machine."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's
        return True
    return True


def remove_stale_temporaries(path: Path) -> list[Path]:
    """Remove the temporary files an export to ``path`` left when it was killed (SIGKILL, a
    crash: no code ran to remove them): those of a process that no longer runs, and those of
    an older version (no process id in the name) more than an hour old. Returns them."""
    pattern = re.compile(rf"\.{re.escape(path.name)}\.(?:(\d+)\.)?[0-9a-f]{{8}}\.tmp")
    removed: list[Path] = []
    try:
        candidates = list(path.parent.iterdir())
    except OSError:
        return removed
    for candidate in candidates:
        match = pattern.fullmatch(candidate.name)
        if match is None or not candidate.is_file() or candidate.is_symlink():
            continue
        try:
            if match.group(1) is not None:
                stale = not _alive(int(match.group(1)))
            else:
                stale = time.time() - candidate.stat().st_mtime > STALE_UNOWNED_S
            if stale:
                candidate.unlink()
                removed.append(candidate)
        except OSError:  # gone meanwhile, or not ours to remove: the export goes on
            continue
    return removed


def _temporary(path: Path) -> tuple[int, Path]:
    """A new file next to path (permissions from the umask, like any new file), opened to write;
    its name holds this process's id (`remove_stale_temporaries`)."""
    remove_stale_temporaries(path)
    for _ in range(100):
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), tmp
        except FileExistsError:
            continue
    raise ExportError(f"cannot write {path}: no free temporary name in {path.parent}")


@contextlib.contextmanager
def atomic_output(
    path: Path | str, *, force: bool = False, binary: bool = False, newline: str | None = None
) -> Iterator[IO[Any]]:
    """A file object whose content replaces `path` when the block ends without an error (UTF-8
    text, or bytes with binary). Refusals and OS errors raise ExportError."""
    path = check_destination(path, force)
    try:
        fd, tmp = _temporary(path)
    except OSError as exc:
        raise ExportError(f"cannot write {path}: {exc.strerror or exc}") from exc
    existed = path.exists()
    try:
        mode = "wb" if binary else "w"
        encoding = None if binary else "utf-8"
        with os.fdopen(fd, mode, encoding=encoding, newline=newline) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        check_destination(path, force)  # nothing may have appeared there meanwhile
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        kept = "the previous file is unchanged" if existed else "nothing was written"
        raise ExportError(f"could not write {path}: {exc.strerror or exc} ({kept})") from exc
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_text(path: Path | str, text: str, *, force: bool = False) -> Path:
    """Write UTF-8 text to path through atomic_output; returns the path."""
    with atomic_output(path, force=force) as fh:
        fh.write(text)
    return Path(path)
