"""Answer-name tables kept on disk (`kglens_tui.kg.names_store`): read back as built, built again
when the file is torn, never stored when switched off."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from lock_support import tell_waits

from kglens_tui.kg import names_store
from kglens_tui.kg.names_store import STORE_ENV, stored


class Builds:
    """A table builder that counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> dict[str, tuple[str, ...]]:
        self.calls += 1
        return {"AT": ("Austria", "Österreich"), "CZ": ("Czechia", "Чехия")}


def _table(builds: Builds):
    def sample_names() -> dict[str, tuple[str, ...]]:
        return builds()

    return stored(sample_names)


def test_a_table_is_built_once_and_read_back_by_the_next_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(STORE_ENV, str(tmp_path))
    builds = Builds()
    first = _table(builds)()
    assert builds.calls == 1 and len(list(tmp_path.glob("sample_names-*.json"))) == 1
    again = _table(builds)()  # a new process: nothing in memory
    assert builds.calls == 1
    assert again == first and all(isinstance(v, tuple) for v in again.values())


def test_a_torn_file_is_built_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(STORE_ENV, str(tmp_path))
    builds = Builds()
    _table(builds)()
    (path,) = tmp_path.glob("sample_names-*.json")
    path.write_text('{"AT": ["Austr', encoding="utf-8")
    assert _table(builds)()["AT"] == ("Austria", "Österreich")
    assert builds.calls == 2
    assert json.loads(path.read_text(encoding="utf-8"))["CZ"] == ["Czechia", "Чехия"]


def test_a_new_key_replaces_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(STORE_ENV, str(tmp_path))
    builds = Builds()
    _table(builds)()
    monkeypatch.setattr(names_store, "_today", lambda: "2999-01-01")
    _table(builds)()
    assert builds.calls == 2
    assert [p.name.split("-")[1] for p in tmp_path.glob("sample_names-*.json")] == ["2999"]


def test_a_process_starting_while_another_builds_reads_its_table_instead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes starting together (here two threads, each with a table of its own, as two
    processes have) build the table once: the second waits for the first's lock, then reads."""
    monkeypatch.setenv(STORE_ENV, str(tmp_path))
    started, release = threading.Event(), threading.Event()
    waiting, second_done = threading.Event(), threading.Event()
    first_builds, second_builds = Builds(), Builds()

    def first_build() -> dict[str, tuple[str, ...]]:
        started.set()
        assert release.wait(120), "the test never let the first build end"
        return first_builds()

    tell_waits(monkeypatch, waiting)
    results: dict[str, dict[str, tuple[str, ...]]] = {}

    def second() -> None:
        results["second"] = _table(second_builds)()
        second_done.set()

    first = threading.Thread(target=lambda: results.update(first=_table(first_build)()))
    first.start()
    assert started.wait(120)
    other = threading.Thread(target=second)
    other.start()
    for _ in range(12_000):  # until the second waits for the lock or (without one) has built
        if waiting.wait(0.01) or second_done.is_set():
            break
    release.set()
    first.join()
    other.join()
    assert waiting.is_set() and second_builds.calls == 0, "the second process built it too"
    assert first_builds.calls == 1 and results["second"] == results["first"]
    assert [p.name for p in tmp_path.glob("sample_names*.lock")] == ["sample_names.lock"]


@pytest.mark.parametrize("value", ["off", ""])
def test_switched_off_nothing_is_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv(STORE_ENV, value)
    monkeypatch.chdir(tmp_path)
    builds = Builds()
    _table(builds)()
    _table(builds)()
    assert names_store.store_dir() is None
    assert builds.calls == 2 and not list(tmp_path.rglob("*.json"))


@pytest.mark.parametrize("name", ["territory_names", "zone_cities"])
def test_the_stored_tables_are_the_built_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    from kglens_tui.kg import answer_names

    build = getattr(answer_names, name).__wrapped__
    monkeypatch.setenv(STORE_ENV, str(tmp_path))
    built = build()
    write = stored(build)
    assert write() == built
    read = stored(build)
    assert read() == built and list(tmp_path.glob(f"{name}-*.json"))
