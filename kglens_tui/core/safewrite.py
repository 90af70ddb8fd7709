"""Files written to a path a user gave: all or nothing, never over an existing file unless asked
(--force), never through a symbolic link.

The content goes to a new temporary file in the destination's directory, is flushed to disk, and
is renamed over the destination only when complete, so a failure (disk full, an error while
producing the content) leaves the previous file as it was and no temporary file behind.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterator
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


def _temporary(path: Path) -> tuple[int, Path]:
    """A new file next to path (permissions from the umask, like any new file), opened to write."""
    for _ in range(100):
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
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
