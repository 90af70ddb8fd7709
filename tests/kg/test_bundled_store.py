"""Bundled KGs kept stored on disk (`kglens_tui.kg.bundled_store`): a workspace that copies a
stored copy's rows holds the rows and ids an import of the files stores, next to other KGs as
well; a second workspace copies without parsing; a torn copy is stored again, and no copy is
kept when the store is off or cannot be written."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
from lock_support import tell_waits

from kglens_tui.kg import bundled, bundled_store
from kglens_tui.kg.bundled import ensure_kg
from kglens_tui.kg.bundled_data import bundled_names
from kglens_tui.kg.importers import import_kg
from kglens_tui.store.connection import connect

_QUERIES = {
    "kg": "SELECT id, name, description, source, snapshot_date, content_hash FROM kg ORDER BY id",
    "entity": "SELECT * FROM entity ORDER BY id",
    "entity_group": "SELECT * FROM entity_group ORDER BY entity_id, grp",
    "predicate": "SELECT * FROM predicate ORDER BY id",
    "edge": "SELECT * FROM edge ORDER BY id",
    "subset": "SELECT * FROM subset ORDER BY id",
    "subset_member": "SELECT * FROM subset_member ORDER BY subset_id, entity_id",
}


def _rows(db: Path) -> dict[str, list[tuple[object, ...]]]:
    conn = sqlite3.connect(db)
    try:
        return {table: conn.execute(sql).fetchall() for table, sql in _QUERIES.items()}
    finally:
        conn.close()


def _workspace(db: Path, tiny_kg_dir: Path, names: list[str]) -> Path:
    """A workspace holding the tiny KG, then the bundled KGs `names` in that order."""
    conn = connect(db)
    try:
        import_kg(conn, tiny_kg_dir, "tiny")
        for name in names:
            assert ensure_kg(conn, name) is not None
    finally:
        conn.close()
    return db


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "kg-cache"
    monkeypatch.setenv(bundled_store.STORE_ENV, str(where))
    return where


def test_a_copied_kg_has_the_rows_and_ids_an_import_of_its_files_has(
    tmp_path: Path, tiny_kg_dir: Path, store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = bundled_names()
    assert {"country", "elements", "places"} <= set(names)
    order = ["elements", *[n for n in names if n != "elements"]]
    copied = _rows(_workspace(tmp_path / "built.db", tiny_kg_dir, order))  # stores the copies
    assert sorted(p.name.split("-")[0] for p in store.glob("*.db")) == sorted(names)
    again = _rows(_workspace(tmp_path / "read.db", tiny_kg_dir, order))  # reads them back
    monkeypatch.setenv(bundled_store.STORE_ENV, "off")
    imported = _rows(_workspace(tmp_path / "imported.db", tiny_kg_dir, order))
    assert len(imported["kg"]) == len(names) + 1
    assert all(imported[t] for t in _QUERIES), "every table has rows to compare"
    for table in _QUERIES:
        assert copied[table] == imported[table], table
        assert again[table] == imported[table], table


def test_a_second_workspace_copies_without_parsing(
    tmp_path: Path, store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    conn = connect(tmp_path / "first.db")
    report = ensure_kg(conn, "country")
    conn.close()
    bundled._parsed.cache_clear()  # as in another process

    def no_parse(*_args: object) -> None:
        raise AssertionError("parsed again")

    monkeypatch.setattr(bundled, "parse_path", no_parse)
    conn = connect(tmp_path / "second.db")
    again = ensure_kg(conn, "country")
    conn.close()
    assert report is not None and again is not None
    assert (again.entities, again.predicates, again.edges) == (
        report.entities,
        report.predicates,
        report.edges,
    )
    assert (again.duplicates_merged, again.self_loops, again.warnings) == (
        report.duplicates_merged,
        report.self_loops,
        report.warnings,
    )
    assert _rows(tmp_path / "first.db")["edge"] == _rows(tmp_path / "second.db")["edge"]


def test_processes_starting_together_store_a_copy_once(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second of two processes (here threads) needing a copy that is being stored waits for
    the first's lock, then uses its copy without parsing the KG."""
    started, release, waiting = threading.Event(), threading.Event(), threading.Event()
    parses: list[str] = []

    def first_parse():
        parses.append("first")
        started.set()
        assert release.wait(120), "the test never let the first parse end"
        return bundled._parsed.__wrapped__("elements")

    def second_parse():
        parses.append("second")
        return bundled._parsed.__wrapped__("elements")

    tell_waits(monkeypatch, waiting)
    paths: dict[str, Path | None] = {}
    second_done = threading.Event()

    def second() -> None:
        paths["second"] = bundled_store.stored_copy("elements", second_parse)
        second_done.set()

    first = threading.Thread(
        target=lambda: paths.update(first=bundled_store.stored_copy("elements", first_parse))
    )
    first.start()
    assert started.wait(120)
    other = threading.Thread(target=second)
    other.start()
    for _ in range(12_000):  # until the second waits for the lock or (without one) has parsed
        if waiting.wait(0.01) or second_done.is_set():
            break
    release.set()
    first.join()
    other.join()
    assert waiting.is_set() and parses == ["first"], parses
    assert paths["first"] == paths["second"] == bundled_store.copy_path("elements")


def test_a_torn_copy_is_stored_again(tmp_path: Path, store: Path) -> None:
    path = bundled_store.copy_path("elements")
    assert path is not None and path.parent == store
    store.mkdir()
    path.write_bytes(b"SQLite format 3\0 torn")
    conn = connect(tmp_path / "w.db")
    assert ensure_kg(conn, "elements") is not None
    conn.close()
    assert bundled_store.stored_copy("elements", bundled._parsed.__wrapped__) == path
    assert _rows(tmp_path / "w.db")["edge"] == _rows(path)["edge"]


@pytest.mark.parametrize("setting", ["off", "", "file"])
def test_no_copy_is_kept_when_the_store_is_off_or_cannot_be_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, setting: str
) -> None:
    if setting == "file":  # a file where the folder should be
        blocker = tmp_path / "blocker"
        blocker.write_text("")
        setting = str(blocker / "kg-cache")
    monkeypatch.setenv(bundled_store.STORE_ENV, setting)
    conn = connect(tmp_path / "w.db")
    report = ensure_kg(conn, "elements")
    conn.close()
    assert report is not None and report.edges > 0
    assert _rows(tmp_path / "w.db")["edge"]
    assert not list(tmp_path.rglob("elements-*"))
