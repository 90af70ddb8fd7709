"""Shared fixtures: a fresh workspace database per test, never the user's. A test declares
what it needs (`pytestmark = pytest.mark.tui` in a module, or `@pytest.mark.tui` on a test) for
the fast lane `pytest -m "not llm and not tui"`: `llm` loads the local model, `tui` drives the
terminal UI (test_test_layout_rules.py checks that a test driving it says so)."""

# ruff: noqa: E402 (the package is imported below the bytecode setting)

from __future__ import annotations

import asyncio
import functools
import gc
import hashlib
import itertools
import json
import os
import shutil
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

# Compiled modules are kept (in __pycache__, ignored by git) even where PYTHONDONTWRITEBYTECODE
# is set: without them each xdist worker compiles every module it imports and rewrites every
# test module again (about 5 s of a worker's 9 s collection), and each `kglens` child process
# compiles the package again (about 0.3 s a child). Set before the package is imported here.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

import kglens_tui
from kglens_tui.bench.ground_truth import GroundTruth
from kglens_tui.bench.verifier_bench import Rivals
from kglens_tui.core.console import name_workspace
from kglens_tui.kg.bundled import ensure_kg
from kglens_tui.kg.bundled_data import bundled_names
from kglens_tui.kg.graph import KGIndex, load_kg
from kglens_tui.kg.importers import import_kg
from kglens_tui.modes import ModeSnapshot
from kglens_tui.store.connection import connect

if TYPE_CHECKING:
    from textual.pilot import Pilot


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """`-n N` with no `--dist` steals work (pytest-xdist's worksteal) instead of handing out
    chunks of tests in file order (its default, load): the slow tests (runs in a child process,
    statistical replays) sit in a few files, and a late chunk of them kept one worker busy for
    5-8 s after the other had run out of tests. A --dist given is kept."""
    option = config.option
    if (
        getattr(option, "numprocesses", None)
        and getattr(option, "dist", None) == "no"
        and not getattr(option, "distload", False)
    ):
        option.dist = "worksteal"


def pytest_configure(config: pytest.Config) -> None:
    """The garbage collector runs less often, from before collection to the end: importing the
    test modules and starting a Textual app leave tens of thousands of objects in reference
    cycles, and at the default thresholds (700, 10, 10) a collect walked them in several full
    collections, and each TUI test again (some 90,000 objects an app). At (50,000, 20, 20) the
    same garbage goes in young collections: a worker's collection takes about 20% less CPU
    (19.1 s against 15.4 s) and a TUI test about 15% (3.8 s against 3.2 s an app). Only when
    cycles are freed changes, never whether."""
    gc.set_threshold(50_000, 20, 20)
    _temp_root_in_memory()


MEMORY_TEMP_ROOT = Path("/dev/shm")
MEMORY_TEMP_ROOM = 4 << 30
"""Free bytes /dev/shm must have to take the session's folders (a full run's caches and the
workspaces of the tests running at once stay far under it)."""


def _temp_root_in_memory() -> None:
    """pytest's temporary folders (each tmp_path, the session's caches, the xdist workers'
    folders) go under /dev/shm where it is a memory file system and nobody chose a temporary
    folder ($TMPDIR, $PYTEST_DEBUG_TEMPROOT, --basetemp): SQLite syncs each new workspace to
    disk (about 6 ms a sync on a shared machine's disk), and the fast lane's workers sat idle
    waiting for it (233 store, KG and annotation tests: 25.5 s on disk, 19.7 s in memory, the
    same CPU), if it has MEMORY_TEMP_ROOM free. pytest still numbers the session folders and
    keeps the last three."""
    if any(os.environ.get(name) for name in ("TMPDIR", "PYTEST_DEBUG_TEMPROOT")):
        return
    try:
        mounts = Path("/proc/mounts").read_text().split("\n")
    except OSError:
        return
    in_memory = any(
        line.split()[1:3] == [str(MEMORY_TEMP_ROOT), "tmpfs"] for line in mounts if line.strip()
    )
    if not in_memory or not os.access(MEMORY_TEMP_ROOT, os.W_OK | os.X_OK):
        return
    disk = os.statvfs(MEMORY_TEMP_ROOT)
    if disk.f_bavail * disk.f_frsize >= MEMORY_TEMP_ROOM:  # a container's 64 MB /dev/shm is not
        os.environ["PYTEST_DEBUG_TEMPROOT"] = str(MEMORY_TEMP_ROOT)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Move what collection built (every imported module, test item and fixture definition:
    some 350,000 objects in a worker) out of the garbage collector's sight. Every full
    collection walked all of them again, about 0.15 s each: in the fast lane about 20 s of the
    workers' 170 s, 8 s with them frozen. Frozen objects stay alive as they would anyway; what
    the tests create is collected as before."""
    gc.collect()
    gc.freeze()


@pytest.fixture(scope="session")
def _names_cache() -> Path:
    """Where the answer-name tables (kglens_tui.kg.names_store) are kept, never the user's cache
    directory: one folder shared by the session's xdist workers, so the tables are built once
    and read back by every other process, a run's or a `kglens` command's child included.
    test_names_store checks that the table read back is the one built, and that a process with
    the store switched off builds its own."""
    return _test_caches() / "answer-names"


PACKAGE_DIR = Path(kglens_tui.__file__).parent

TEST_CACHES = "kglens-test-caches"
"""The folder (in the temporary root the session's folders go to) of the caches test sessions
share: one subfolder for each state of the package's files."""

STALE_CACHE_S = 86_400.0
"""A subfolder of TEST_CACHES no session has used for this long is removed."""


@functools.cache
def _test_caches() -> Path:
    """The caches of every test session of the package as its files are now: a digest of every
    file under kglens_tui names the folder, so an edit anywhere in the package (a table's
    builder, a KG's files, a module a builder calls) gives a new, empty one, and sessions of one
    checkout share what an earlier one built (building the answer-name tables is 5.5 s of CPU a
    session, with one worker waiting for the other). The stores' own keys (module source,
    package versions, the day) still decide within it. Folders of other states unused for a
    day are removed."""
    digest = hashlib.sha256()
    for path in sorted(PACKAGE_DIR.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(PACKAGE_DIR)).encode() + b"\0")
            digest.update(path.read_bytes())
    parent = Path(os.environ.get("PYTEST_DEBUG_TEMPROOT") or tempfile.gettempdir()) / TEST_CACHES
    here = parent / digest.hexdigest()[:16]
    here.mkdir(parents=True, exist_ok=True)
    os.utime(here)  # in use: not stale
    now = time.time()
    for other in parent.iterdir():
        try:
            stale = other != here and now - other.stat().st_mtime > STALE_CACHE_S
        except OSError:  # another session removed it meanwhile
            continue
        if stale:
            shutil.rmtree(other, ignore_errors=True)
    return here


@pytest.fixture(scope="session")
def _kg_cache(_names_cache: Path) -> Path:
    """Where the bundled KGs' stored copies (kglens_tui.kg.bundled_store) are kept, beside the
    answer-name tables: each is stored once for the sessions' processes, and every fresh
    workspace copies its rows in instead of importing the files. test_bundled_store checks that
    a copy stores the rows and ids an import does."""
    return _names_cache.parent / "bundled-kgs"


def _isolate(
    monkeypatch: pytest.MonkeyPatch,
    workspace: Path,
    settings: Path,
    names_cache: Path,
    kg_cache: Path,
) -> None:
    monkeypatch.setenv("KGLENS_DB", str(workspace))
    # the user's settings file and KGLENS_* variables must not change what a test runs (an empty
    # settings file: the app only reads it)
    monkeypatch.setenv("KGLENS_CONFIG", str(settings))
    for name in list(os.environ):
        if name.startswith("KGLENS_") and name not in ("KGLENS_DB", "KGLENS_CONFIG"):
            monkeypatch.delenv(name)
    # answer-name tables and bundled KG copies are kept for the session, not in the user's cache
    monkeypatch.setenv("KGLENS_NAMES_CACHE", str(names_cache))
    monkeypatch.setenv("KGLENS_KG_CACHE", str(kg_cache))
    name_workspace(
        None
    )  # commands suggested by an earlier test's `main(["--db", ...])` do not leak


_TESTS = itertools.count()
"""Numbers each test's own workspace folder."""


@pytest.fixture(autouse=True)
def _isolated_workspace(
    monkeypatch: pytest.MonkeyPatch, _session_folder: Path, _names_cache: Path, _kg_cache: Path
) -> None:
    """A workspace path of the test's own (its folder is made by whatever first writes there:
    most tests never open a workspace, and a folder made for each of thousands of tests cost
    0.7 ms each), the session's empty settings file, no KGLENS_* variable of the user's."""
    workspace = _session_folder / f"test-{next(_TESTS)}" / "workspace.db"
    _isolate(monkeypatch, workspace, _session_folder / SETTINGS, _names_cache, _kg_cache)
    _keep_notices(monkeypatch)


def _keep_notices(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every app keeps each notice told to it, in order (`tui_support.notices_of`): the ones on
    screen expire after seconds, which a loaded machine can outlast before a test looks. Only
    where the test's module imported Textual (the rest never make an app)."""
    app_module = sys.modules.get("textual.app")
    if app_module is None:
        return
    app_class = app_module.App
    shown = app_class._on_notify

    def keep(app, event) -> None:
        app.__dict__.setdefault("_told", []).append(event.notification)
        shown(app, event)

    keep.keeps_notices = True  # what `tui_support.notices_of` checks
    monkeypatch.setattr(app_class, "_on_notify", keep)


SETTINGS = "empty-settings.toml"
"""The session's empty settings file, in `_session_folder`."""


@pytest.fixture(scope="session")
def _session_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The session's folder (per xdist worker): its empty settings file, the tests' workspaces."""
    folder = tmp_path_factory.mktemp("session")
    (folder / SETTINGS).write_text("")
    return folder


@pytest.fixture(scope="session", autouse=True)
def _isolated_session(_session_folder: Path, _names_cache: Path, _kg_cache: Path) -> Iterator[None]:
    """What `_isolated_workspace` gives each test, from the session's start: a fixture of a
    wider scope (a workspace made once a module), which pytest makes before any test's own
    fixtures, never sees the user's settings, variables or caches either."""
    with pytest.MonkeyPatch.context() as mp:
        workspace = _session_folder / "workspace.db"
        _isolate(mp, workspace, _session_folder / SETTINGS, _names_cache, _kg_cache)
        yield


@pytest.fixture(scope="session")
def rivals() -> Rivals:
    """The names of every bundled KG's entities as the verdict tests look them up, loaded once a
    worker: its name tables and subject lookups, built on first use, are a function of the KG
    alone, so a test's verdicts are those a `Rivals` of its own gives (each module built its own:
    the tables of the bundled KGs again in each of eleven modules)."""
    return Rivals(bundled_names())


@pytest.fixture(scope="module")
def country_kg() -> KGIndex:
    """The bundled Country KG as a run loads it (read-only: shared by a module's tests)."""
    c = connect(":memory:")
    try:
        ensure_kg(c, "country")
        return load_kg(c, "country")
    finally:
        c.close()


@pytest.fixture(scope="session")
def _empty_workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty workspace as `connect` makes one (every migration applied, stamped), made once a
    worker and never written: `conn` opens a copy of the file, as `connect` would open one it had
    made, without applying the migrations again (13 ms a test, against 2)."""
    path = tmp_path_factory.mktemp("empty-workspace") / "w.db"
    connect(path).close()  # the last connection's close folds the WAL back into the file
    return path


@pytest.fixture
def conn(tmp_path: Path, _empty_workspace: Path):
    target = tmp_path / "test.db"
    shutil.copyfile(_empty_workspace, target)
    c = connect(target)
    yield c
    c.close()


async def wait_for(
    pilot: Pilot | None,
    predicate: Callable[[], object],
    timeout: float = 120.0,
    describe: str | Callable[[], object] | None = None,
) -> None:
    """Let the event loop run until ``predicate()`` holds (a state, never a fixed wait): a
    Textual app through its ``pilot``, or with ``pilot`` None a plain asyncio loop (a server, a
    run). The ceiling is generous for a loaded machine and only turns a hang into a failure; on
    a timeout, ``describe`` (or what ``describe()`` returns then) says what was awaited."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        await (asyncio.sleep(0.02) if pilot is None else pilot.pause(0.02))
    detail = describe() if callable(describe) else describe
    detail = f": {detail}" if detail is not None else ""
    raise AssertionError(f"condition not reached in time{detail}")


def cli_child_code(argv: list[str]) -> str:
    """`python -c` code running ``kglens argv`` as a terminal's foreground command: with Ctrl-C
    (SIGINT) at its default, even when the tests run where it is ignored (a shell's background
    job, `nohup`), which the child would inherit."""
    return (
        "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
        f"from kglens_tui.cli.main import main; raise SystemExit(main({argv!r}))"
    )


def write_jsonl(path: Path, rows: list[dict | str]) -> Path:
    """Write rows (dicts, or raw strings for broken lines) as JSONL."""
    with path.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write((row if isinstance(row, str) else json.dumps(row)) + "\n")
    return path


@pytest.fixture
def tiny_kg_dir(tmp_path: Path) -> Path:
    """A hand-made KG: three countries, their capitals, languages and driving sides."""
    d = tmp_path / "tiny"
    d.mkdir()
    write_jsonl(
        d / "entities.jsonl",
        [
            {
                "id": "c:AT",
                "label": "Austria",
                "aliases": ["AT", "Österreich"],
                "type": "country",
                "groups": ["region:Europe", "member:EU"],
            },
            {
                "id": "c:DE",
                "label": "Germany",
                "aliases": ["DE"],
                "type": "country",
                "groups": ["region:Europe", "member:EU"],
            },
            {
                "id": "c:TO",
                "label": "Tonga",
                "aliases": ["TO"],
                "type": "country",
                "groups": ["region:Oceania"],
            },
            {"id": "city:vienna", "label": "Vienna", "type": "city"},
            {"id": "city:berlin", "label": "Berlin", "type": "city"},
            {"id": "city:nukualofa", "label": "Nukuʻalofa", "type": "city"},
            {"id": "lang:de", "label": "German", "type": "language"},
            {"id": "lang:en", "label": "English", "type": "language"},
            {"id": "lang:to", "label": "Tongan", "type": "language"},
            {"id": "side:left", "label": "left", "type": "side"},
            {"id": "side:right", "label": "right", "type": "side"},
            {"id": "org:UN", "label": "United Nations", "aliases": ["UN"], "type": "organization"},
        ],
    )
    write_jsonl(
        d / "predicates.jsonl",
        [
            {
                "id": "capital",
                "label": "capital",
                "templates": {
                    "yes_no": [
                        "Is {object} the capital of {subject}?",
                        "Is the capital of {subject} {object}?",
                    ],
                    "wh": "What is the capital of {subject}?",
                },
            },
            {"id": "official_language", "label": "official language"},
            {"id": "driving_side", "label": "driving side"},
            {"id": "member_of", "label": "member of", "active": False},
        ],
    )
    write_jsonl(
        d / "triples.jsonl",
        [
            {"subject": "c:AT", "predicate": "capital", "object": "city:vienna"},
            {"subject": "c:DE", "predicate": "capital", "object": "city:berlin"},
            {"subject": "c:TO", "predicate": "capital", "object": "city:nukualofa"},
            {"subject": "c:AT", "predicate": "official_language", "object": "lang:de"},
            {"subject": "c:DE", "predicate": "official_language", "object": "lang:de"},
            {"subject": "c:TO", "predicate": "official_language", "object": "lang:to"},
            {"subject": "c:TO", "predicate": "official_language", "object": "lang:en"},
            {"subject": "c:AT", "predicate": "driving_side", "object": "side:right"},
            {"subject": "c:DE", "predicate": "driving_side", "object": "side:right"},
            {"subject": "c:TO", "predicate": "driving_side", "object": "side:left"},
            {
                "subject": "c:AT",
                "predicate": "member_of",
                "object": "org:UN",
                "start": "1955-12-14",
            },
            {"subject": "c:DE", "predicate": "member_of", "object": "org:UN", "start": "1973"},
            {"subject": "c:TO", "predicate": "member_of", "object": "org:UN", "start": "1999"},
        ],
    )
    (d / "subsets.json").write_text(json.dumps({"europe": ["c:AT", "c:DE"]}))
    return d


def chain_truth(n: int = 40, seed: int = 0) -> GroundTruth:
    """A small graph whose error rates follow its subjects (structure a sampler can exploit):
    a chain of subjects, two edges each, with rates from 0 to 1."""
    rng = np.random.default_rng(seed)
    s = np.arange(n) // 2
    o = s + 1
    hard = rng.random(n // 2 + 1) < 0.3
    rates = np.where(hard[s], rng.uniform(0.6, 1.0, n), rng.uniform(0.0, 0.3, n))
    return GroundTruth(
        source="tiny",
        rates=rates,
        always_failed=rates >= 0.95,
        s=s,
        o=o,
        n_nodes=int(o.max()) + 1,
        edge_ids=np.arange(n),
        note="",
        p=np.arange(n) % 3,
    )


# Fixtures several test modules use: a test module never imports another
# (test_test_layout_rules.py). Their helpers are in the *_support modules, imported inside the
# fixtures because those modules import from this one.


@pytest.fixture
def hand(tmp_path: Path) -> sqlite3.Connection:
    """The hand-built KG (kontest_support.hand_kg) in a fresh workspace, for test_mode_compare
    and test_table5_interval (the test_modes_* modules have a `hand` of their own)."""
    from kontest_support import hand_kg

    conn = connect(tmp_path / "w.db")
    import_kg(conn, hand_kg(tmp_path), "hand")
    yield conn
    conn.close()


@pytest.fixture(scope="session")
def template_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two stored simulated runs (review_support._store_runs), built once a worker and never
    written: test_tui_review and test_drill_chance (`stored_db`), test_tui_charts and the layout
    `templates` copy it."""
    from review_support import _store_runs

    db = tmp_path_factory.mktemp("review") / "w.db"
    _store_runs(db)
    return db


def copy_db(src: Path, dst: Path) -> Path:
    """A copy of the SQLite database `src` at `dst` (a private one for a test that writes)."""
    source, target = sqlite3.connect(src), sqlite3.connect(dst)
    source.backup(target)
    source.close()
    target.close()
    return dst


@pytest.fixture
def stored_db(template_db: Path, tmp_path: Path) -> Path:
    """A private copy of two stored runs (the tests write triage). test_tui_charts has a
    `stored_db` of its own."""
    return copy_db(template_db, tmp_path / "w.db")


@pytest.fixture(scope="session")
def templates(
    template_db: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Path | ModeSnapshot]:
    """The databases the layout tests open (layout_support.SCREENS), built once a worker and
    never written (layout_support.app_for_screen opens a copy): test_tui_layout, test_tui_columns,
    test_tui_small_items."""
    from annotate_support import _hand_db
    from layout_support import _kontest_run

    folder = tmp_path_factory.mktemp("layout")
    runs = copy_db(template_db, folder / "runs.db")
    mode = _kontest_run(runs)
    _kontest_run(runs, "sim:5")  # a second model for the comparison
    _hand_db(folder / "hand.db")
    return {"runs": runs, "hand": folder / "hand.db", "mode": mode}
