"""`kglens kg rename` and the bundled KGs: a bundled KG keeps its name (renamed away, its next
use would import a second copy), one renamed away earlier takes its own name back, and while it
is away it is not imported again unnoticed."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from kglens_tui.cli.main import main
from kglens_tui.kg.bundled import ensure_kg
from kglens_tui.kg.bundled_data import bundled_source
from kglens_tui.kg.graph import KGNotFoundError, load_kg
from kglens_tui.kg.importers import import_kg
from kglens_tui.store.connection import connect

BUNDLED = "elements"  # the smallest bundled KG; `country` behaves the same
AWAY = "[x]"


def cli(db: Path, *argv: str) -> int:
    return main(["--db", str(db), *argv])


def kgs(conn: sqlite3.Connection) -> list[tuple[int, str, str]]:
    return [tuple(r) for r in conn.execute("SELECT id, name, source FROM kg ORDER BY id")]


def dump(conn: sqlite3.Connection) -> list[str]:
    return list(conn.iterdump())


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A workspace holding the bundled KG, imported on first use."""
    path = tmp_path / "a.db"
    conn = connect(path)
    assert ensure_kg(conn, BUNDLED) is not None
    conn.close()
    return path


@pytest.fixture
def renamed_away(db: Path) -> Path:
    """The bundled KG under another name, as `kg rename` left it before it refused to."""
    conn = connect(db)
    with conn:
        conn.execute("UPDATE kg SET name = ? WHERE name = ?", (AWAY, BUNDLED))
    conn.close()
    return db


def test_renaming_a_bundled_kg_away_is_refused_with_one_line(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    conn = connect(db)
    before = dump(conn)
    assert cli(db, "kg", "rename", BUNDLED, AWAY) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1, err
    assert err.startswith(f"error: KG '{BUNDLED}' is a bundled KG and keeps its name")
    assert "second copy" in err and "kglens kg import " in err and f"--name '{AWAY}'" in err
    assert dump(conn) == before
    # so the next use of the name finds the one copy
    assert ensure_kg(conn, BUNDLED) is None
    assert [name for _, name, _ in kgs(conn)] == [BUNDLED]


def test_a_bundled_kg_renamed_away_takes_its_name_back(
    renamed_away: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = renamed_away
    assert cli(db, "kg", "rename", AWAY, BUNDLED) == 0
    assert capsys.readouterr().out == f"renamed KG '{AWAY}' to '{BUNDLED}'\n"
    conn = connect(db)
    assert [(name, source) for _, name, source in kgs(conn)] == [(BUNDLED, bundled_source(BUNDLED))]
    assert ensure_kg(conn, BUNDLED) is None
    assert load_kg(conn, BUNDLED).name == BUNDLED


def test_a_bundled_kg_renamed_away_is_not_imported_again(renamed_away: Path) -> None:
    """The next use of the name does not silently import a second copy: loading it fails with
    a line saying where the KG is and how to give it its name back."""
    conn = connect(renamed_away)
    before = dump(conn)
    assert ensure_kg(conn, BUNDLED) is None
    assert dump(conn) == before
    with pytest.raises(KGNotFoundError) as info:
        load_kg(conn, BUNDLED)
    message = str(info.value)
    assert "\n" not in message
    assert f"the bundled KG '{BUNDLED}' is in it as '{AWAY}' (renamed)" in message
    assert f"`kglens kg rename '{AWAY}' {BUNDLED}`" in message


def test_a_default_run_after_a_rename_away_says_where_the_kg_is(
    renamed_away: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    conn = connect(renamed_away)
    before = dump(conn)
    argv = ["probe", "--no-tui", "--kg", BUNDLED, "--target", "sim", "--iterations", "1"]
    assert cli(renamed_away, *argv) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1, err
    assert f"is in it as '{AWAY}' (renamed)" in err
    assert dump(conn) == before


def test_only_its_own_bundled_name_is_open_to_a_kg(
    renamed_away: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    conn = connect(renamed_away)
    path = tmp_path / "mine.csv"
    path.write_text("subject,predicate,object\nA,p,B\n", encoding="utf-8")
    import_kg(conn, path, "mine")
    before = dump(conn)
    for old, new in ((AWAY, "country"), ("mine", BUNDLED), ("mine", "country")):
        assert cli(renamed_away, "kg", "rename", old, new) == 2
        err = capsys.readouterr().err
        assert err == (
            f"error: '{new}' is the name of a bundled KG (imported on first use): choose another\n"
        )
    assert dump(conn) == before


def test_a_kg_imported_under_a_bundled_name_may_be_renamed_away(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only the bundled KG itself keeps its name: another KG that took it (an older version
    allowed that) frees it on rename, and the bundled KG is then imported when next named."""
    db = tmp_path / "w.db"
    path = tmp_path / "mine.csv"
    path.write_text("subject,predicate,object\nA,p,B\n", encoding="utf-8")
    assert cli(db, "kg", "import", str(path), "--name", "old") == 0
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE kg SET name = ? WHERE name = 'old'", (BUNDLED,))
    assert cli(db, "kg", "rename", BUNDLED, "mine") == 0
    conn = connect(db)
    assert ensure_kg(conn, BUNDLED) is not None
    assert [(n, s) for _, n, s in kgs(conn)] == [
        ("mine", str(path)),
        (BUNDLED, bundled_source(BUNDLED)),
    ]


@pytest.mark.parametrize("replace", [False, True])
def test_no_kg_may_be_imported_under_a_bundled_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], replace: bool
) -> None:
    """A file imported as `country` would stand in for the default KG of every new run."""
    db = tmp_path / "w.db"
    path = tmp_path / "mine.csv"
    path.write_text("subject,predicate,object\nA,p,B\n", encoding="utf-8")
    conn = connect(db)
    ensure_kg(conn, BUNDLED)
    before = kgs(conn)
    argv = ["kg", "import", str(path), "--name", BUNDLED] + (["--replace"] if replace else [])
    assert cli(db, *argv) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        f"error: '{BUNDLED}' is the name of a bundled KG (imported on first use): choose another"
    )
    assert kgs(conn) == before
    assert cli(tmp_path / "fresh.db", "kg", "import", str(path), "--name", BUNDLED) == 2
    assert kgs(connect(tmp_path / "fresh.db")) == []


def test_an_import_from_a_path_named_like_a_bundled_source_is_not_taken_for_it(
    tmp_path: Path, tiny_kg_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A directory called `bundled:elements` must not pose as the bundled KG."""
    monkeypatch.chdir(tmp_path)
    Path(bundled_source(BUNDLED)).mkdir()
    for file in tiny_kg_dir.iterdir():
        (Path(bundled_source(BUNDLED)) / file.name).write_bytes(file.read_bytes())
    conn = connect(tmp_path / "w.db")
    import_kg(conn, Path(bundled_source(BUNDLED)), "mine")
    ((_, _, source),) = kgs(conn)
    assert source == str(tmp_path / bundled_source(BUNDLED))
    assert ensure_kg(conn, BUNDLED) is not None, "the real one is still imported on first use"
