"""`kglens kg rm`, `kglens kg rename` and `kglens runs rm`: nothing that refers to a deleted KG
or run is left behind, nothing else is touched, the confirmation and the live-run refusal hold,
and hostile names are shown literally."""

from __future__ import annotations

import copy
import io
import json
import re
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from conftest import copy_db, write_jsonl
from kontest_support import PLANTED, hand_kg
from run_targets import ScriptedTarget

from kglens_tui.analysis import triage as tr
from kglens_tui.analysis.reverify import reverify_run
from kglens_tui.annotate.adjudication import adjudicate
from kglens_tui.annotate.labels import submit_label
from kglens_tui.annotate.rounds import ItemSpec, create_round, create_round_from_items
from kglens_tui.cli.main import main
from kglens_tui.core.safetext import visible
from kglens_tui.kg.importers import import_kg
from kglens_tui.modes import FactevalConfig, KontestConfig
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.record import RunBusyError, RunNotFoundError, load_run
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.runs.runner import run_blocking as run_mode
from kglens_tui.store.connection import connect
from kglens_tui.store.owner import _start_time
from kglens_tui.workspace.remove import (
    DeletionChangedError,
    delete,
    plan_kg_deletion,
    plan_runs_deletion,
)

HOSTILE = "v[/]ic[bold]tim\x1b]0;PWNED\x07\x1b[2J\nline2"
HOSTILE_ROUND = "r[/]a\x1b[31m"
SHOWN = visible(HOSTILE, one_line=True)

# Columns that refer to a row of another table by value, and what they refer to. Foreign keys
# are checked by PRAGMA foreign_key_check; these are checked against the deleted ids.
REFERENCES = {
    "run_id": "run",
    "seen_in_run": "run",
    "kg_id": "kg",
    "kg": "kg_name",
    "edge_id": "edge",
    "observation_id": "observation",
    "entity_id": "entity",
    "subject_id": "entity",
    "object_id": "entity",
    "candidate_id": "entity",
    "predicate_id": "predicate",
}
JSON_REFERENCES = {
    ("annotation_round", "source"): {"runs": "run", "observation_ids": "observation"},
    ("run", "config"): {"kg": "kg_name"},
}
MENTION = re.compile(
    r"(^|_)(run|runs|kg|edge|edges|observation|entity|subject|object|predicate|candidate)"
    r"(_id|_ids)?$|_in_run$"
)


def tables(conn: sqlite3.Connection) -> list[str]:
    """Stored tables; the full-text index and its shadow tables, whose row counts follow the
    index's segments rather than its contents, are checked by FTS5's own integrity check."""
    conn.execute("INSERT INTO observation_fts(observation_fts) VALUES ('integrity-check')")
    return [
        r[0]
        for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "AND name NOT LIKE 'observation_fts%' ORDER BY name"
        )
    ]


def counts(conn: sqlite3.Connection) -> dict[str, int]:
    return {t: conn.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0] for t in tables(conn)}


def gone_ids(conn: sqlite3.Connection, kg_id: int | None, run_ids: list[int]) -> dict:
    """What a deletion removes, read before it: ids per referenced table, and the KG name."""
    runs = json.dumps(run_ids)
    gone: dict[str, set] = {
        "run": set(run_ids),
        "observation": {
            r[0]
            for r in conn.execute(
                "SELECT id FROM observation WHERE run_id IN (SELECT value FROM json_each(?))",
                (runs,),
            )
        },
        "kg": set(),
        "kg_name": set(),
        "edge": set(),
        "entity": set(),
        "predicate": set(),
    }
    if kg_id is not None:
        gone["kg"] = {kg_id}
        gone["kg_name"] = {conn.execute("SELECT name FROM kg WHERE id = ?", (kg_id,)).fetchone()[0]}
        for table in ("edge", "entity", "predicate"):
            gone[table] = {
                r[0] for r in conn.execute(f"SELECT id FROM {table} WHERE kg_id = ?", (kg_id,))
            }
    return gone


def assert_nothing_refers_to(conn: sqlite3.Connection, gone: dict) -> None:
    """Walk every table and column: no foreign key dangles, no reference column holds a deleted
    id or name, and every column that looks like a reference is one this test knows."""
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    for table in tables(conn):
        columns = [r[1] for r in conn.execute(f'PRAGMA table_info("{table}")')]
        for parent in {r[2] for r in conn.execute(f'PRAGMA foreign_key_list("{table}")')}:
            assert parent in tables(conn), f"{table} refers to a missing table {parent}"
        for col in columns:
            kind = REFERENCES.get(col)
            if kind is None:
                json_kinds = JSON_REFERENCES.get((table, col))
                if json_kinds is not None:
                    for (text,) in conn.execute(f'SELECT "{col}" FROM "{table}"'):
                        data = json.loads(text)
                        for key, what in json_kinds.items():
                            values = data.get(key, [])
                            values = values if isinstance(values, list) else [values]
                            assert not set(values) & gone[what], (table, col, key)
                    continue
                if (table, col) == ("run", "edge_ids"):
                    for (blob,) in conn.execute("SELECT edge_ids FROM run"):
                        ids = set(np.frombuffer(blob, dtype="<i8").tolist())
                        assert not ids & gone["edge"], "a run probes a deleted edge"
                    continue
                assert not MENTION.search(col), f"{table}.{col} looks like a reference: check it"
                continue
            if table == kind:  # the table's own id column is not a reference
                continue
            hits = [
                r[0]
                for r in conn.execute(f'SELECT "{col}" FROM "{table}" WHERE "{col}" IS NOT NULL')
                if r[0] in gone[kind]
            ]
            assert hits == [], f"{table}.{col} still refers to deleted {kind}: {hits[:5]}"


def populate(conn: sqlite3.Connection, kg_dir: Path, name: str) -> dict:
    """A KG with a KGLens run, a KONTEST run, a fact-eval run and triage entries of each kind."""
    import_kg(conn, kg_dir, "importing")
    conn.execute("UPDATE kg SET name = ? WHERE name = 'importing'", (name,))  # an old name
    probe = prepare(
        conn,
        config=RunConfig(
            kg=name, target="sim", batch_size=4, iterations=2, stop_on_convergence=False
        ),
    )
    run_blocking(probe)
    kontest = run_mode(
        prepare(
            conn,
            config=KontestConfig(kg=name, relations=None, transitive=["located_in"]),
            target=ScriptedTarget(**PLANTED),
        )
    )
    facteval = run_mode(
        prepare(
            conn,
            config=FactevalConfig(kg=name, facts=None, predicates=["capital"]),
            target=ScriptedTarget(reply_fn=lambda users: "I don't know."),
        )
    )
    run = probe.run.id
    obs, edge = conn.execute(
        "SELECT id, edge_id FROM observation WHERE run_id = ? ORDER BY id LIMIT 1", (run,)
    ).fetchone()
    tr.confirm_blind_spot(conn, run, edge, author="ann")
    fixed = tr.mark_verifier_error(conn, obs, author="ann", reason="alias")
    tr.retract(conn, fixed, author="ann", reason="not an alias after all")
    tr.add_note(conn, "KG-wide note", author="ann", edge_id=edge)
    tr.mark_kg_error(conn, author="ann", reason="outdated", edge_id=edge, seen_in_run=run)
    reverify_run(conn, run, author="ann")
    return {"kg": name, "probe": run, "runs": [run, kontest.run_id, facteval.run_id]}


def label_round(conn: sqlite3.Connection, round_id: int) -> None:
    item = conn.execute(
        "SELECT id FROM annotation_item WHERE round_id = ? AND qtype = 'yes_no' ORDER BY id",
        (round_id,),
    ).fetchone()[0]
    submit_label(conn, item, "ann1", question_clear="yes")
    submit_label(conn, item, "ann2", question_clear="no")
    adjudicate(conn, item, reason="tie", adjudicator="lead", question_clear="yes")


def hand_built(conn: sqlite3.Connection, name: str, kg: str) -> None:
    item = ItemSpec(kg=kg, qtype="yes_no", question="Is it so?", app_verdict="correct")
    label_round(conn, create_round_from_items(conn, name, [item, item]).id)


def keep_rounds(conn: sqlite3.Connection, keep: dict) -> None:
    label_round(conn, create_round(conn, "keep-only", runs=[keep["probe"]]).id)
    hand_built(conn, "keep-by-name", "keep")


def workspace(path: Path, kg_dir: Path, *, victim: bool = True) -> tuple:
    conn = connect(path)
    keep = populate(conn, kg_dir, "keep")
    keep_rounds(conn, keep)
    vic = None
    if victim:
        vic = populate(conn, kg_dir, HOSTILE)
        label_round(conn, create_round(conn, HOSTILE_ROUND, runs=[vic["probe"]]).id)
        label_round(conn, create_round(conn, "mixed", runs=[keep["probe"], vic["probe"]]).id)
        hand_built(conn, "victim-by-name", HOSTILE)
    return conn, keep, vic


def _kg_dir(parent: Path) -> Path:
    """The KONTEST test graph, with entity groups and a subset."""
    d = hand_kg(parent)
    rows = [json.loads(line) for line in (d / "entities.jsonl").read_text().splitlines()]
    write_jsonl(d / "entities.jsonl", [{**r, "groups": [f"type:{r['type']}"]} for r in rows])
    (d / "subsets.json").write_text(json.dumps({"villages": ["kinawley", "dromore"]}))
    return d


@pytest.fixture
def kg_dir(tmp_path: Path) -> Path:
    return _kg_dir(tmp_path)


@pytest.fixture(scope="module")
def full_template(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict, dict]:
    """`full`'s workspace, built once a module and never written (six runs, rounds and triage:
    a third of a second each time)."""
    folder = tmp_path_factory.mktemp("full")
    conn, keep, vic = workspace(folder / "full.db", _kg_dir(folder))
    conn.close()
    return folder / "full.db", keep, vic


@pytest.fixture
def full(tmp_path: Path, full_template: tuple[Path, dict, dict]) -> Iterator[tuple]:
    """A private copy of `full_template`'s workspace: (its path, a connection, the kept KG's
    and the victim's names and run ids)."""
    template, keep, vic = full_template
    db = copy_db(template, tmp_path / "full.db")
    conn = connect(db)
    yield db, conn, copy.deepcopy(keep), copy.deepcopy(vic)
    conn.close()


@pytest.fixture
def sleeper() -> Iterator[subprocess.Popen]:
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        yield proc
    finally:
        proc.kill()
        proc.wait()


def _kg_id(conn: sqlite3.Connection, name: str) -> int:
    return conn.execute("SELECT id FROM kg WHERE name = ?", (name,)).fetchone()[0]


class Terminal(io.StringIO):
    """Standard input that is a terminal, with the user's answer typed in."""

    def isatty(self) -> bool:
        return True


def cli(db: Path, *argv: str) -> int:
    return main(["--db", str(db), *argv])


def test_kg_rm_leaves_exactly_a_workspace_that_never_had_the_kg(
    full, tmp_path: Path, kg_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, conn, keep, vic = full
    reference, *_ = workspace(tmp_path / "reference.db", kg_dir, victim=False)
    before = counts(conn)
    kg_id = _kg_id(conn, HOSTILE)
    gone = gone_ids(conn, kg_id, vic["runs"])
    differ = {t for t in before if before[t] != counts(reference)[t]}
    assert differ >= {
        "kg", "entity", "entity_group", "subset", "subset_member", "predicate", "edge", "run", "run_checkpoint",
        "iteration", "observation", "triage", "kontest_relation", "kontest_path",
        "kontest_query", "facteval_question", "facteval_answer", "annotation_round",
        "annotator", "annotation_item", "annotation_assignment", "annotation_label",
        "annotation_adjudication",
    }  # fmt: skip
    assert cli(db, "kg", "rm", HOSTILE, "--yes") == 0
    out = capsys.readouterr().out
    assert counts(conn) == counts(reference)
    assert_nothing_refers_to(conn, gone)
    assert f"deleted KG '{SHOWN}'" in out and "with 3 runs" in out
    assert f"'{visible(HOSTILE_ROUND)}'" in out and "'mixed'" in out and "victim-by-name" in out
    assert "\x1b" not in out and "\x07" not in out
    kept = {r[0] for r in conn.execute("SELECT name FROM annotation_round")}
    assert kept == {"keep-only", "keep-by-name"}
    status = "SELECT status FROM run WHERE id = ?"
    assert [conn.execute(status, (r,)).fetchone()[0] for r in keep["runs"]] == ["finished"] * 3


def test_runs_rm_deletes_the_run_s_rows_everywhere_and_nothing_else(
    full, capsys: pytest.CaptureFixture[str]
) -> None:
    db, conn, keep, vic = full
    run = vic["probe"]
    before = counts(conn)
    gone = gone_ids(conn, None, [run])
    rounds = [HOSTILE_ROUND, "mixed"]
    in_rounds = "(SELECT id FROM annotation_round WHERE name IN (?, ?))"
    items = f"(SELECT id FROM annotation_item WHERE round_id IN {in_rounds})"

    def n(sql: str, *params) -> int:
        return conn.execute(sql, params).fetchone()[0]

    removed = {
        "run": 1,
        "iteration": 2,
        "target_usage": 1,
        "observation": len(gone["observation"]),
        "run_checkpoint": n("SELECT COUNT(*) FROM run_checkpoint WHERE run_id = ?", run),
        "triage": 3,  # confirm, verifier error and its retraction; KG-wide entries stay
        "verifier_recheck": 1,
        "annotation_round": 2,
        "annotator": n(f"SELECT COUNT(*) FROM annotator WHERE round_id IN {in_rounds}", *rounds),
        "annotation_item": n(
            f"SELECT COUNT(*) FROM annotation_item WHERE round_id IN {in_rounds}", *rounds
        ),
        "annotation_assignment": n(
            f"SELECT COUNT(*) FROM annotation_assignment WHERE item_id IN {items}", *rounds
        ),
        "annotation_label": 4,
        "annotation_adjudication": 2,
    }
    assert cli(db, "runs", "rm", str(run), "-y") == 0
    after = counts(conn)
    assert {t: before[t] - after[t] for t in before if before[t] != after[t]} == removed
    assert_nothing_refers_to(conn, gone)
    kg_wide = conn.execute(
        "SELECT action, seen_in_run FROM triage WHERE kg_id = ? ORDER BY id",
        (_kg_id(conn, HOSTILE),),
    ).fetchall()
    assert [tuple(r) for r in kg_wide] == [("note", None), ("kg_error", None)]
    out = capsys.readouterr().out
    assert f"deleted run {run} (kglens on KG '{SHOWN}', finished)" in out
    assert "\x1b" not in out


def test_runs_rm_of_several_runs_and_unknown_ids(full, capsys: pytest.CaptureFixture[str]) -> None:
    db, conn, keep, vic = full
    before = counts(conn)
    assert cli(db, "runs", "rm", str(vic["runs"][1]), "999", "--yes") == 2
    assert "no run 999" in capsys.readouterr().err
    assert counts(conn) == before
    gone = gone_ids(conn, None, vic["runs"])
    assert cli(db, "runs", "rm", *map(str, vic["runs"]), "--yes") == 0
    out = capsys.readouterr().out
    assert all(f"{mode} on KG '{SHOWN}'" in out for mode in ("kglens", "kontest", "facteval"))
    assert_nothing_refers_to(conn, gone)
    assert counts(conn)["kontest_query"] == before["kontest_query"] // 2
    assert counts(conn)["facteval_answer"] == before["facteval_answer"] // 2
    # the next run reuses the first deleted id: nothing of the deleted run attaches to it
    again = prepare(
        conn,
        config=RunConfig(
            kg=HOSTILE, target="sim", batch_size=4, iterations=1, stop_on_convergence=False
        ),
    )
    run = again.run.id
    assert run == vic["probe"]
    assert (
        conn.execute(
            "SELECT COUNT(*) FROM triage WHERE run_id = ? OR seen_in_run = ?", (run, run)
        ).fetchone()[0]
        == 0
    )
    assert (
        conn.execute("SELECT COUNT(*) FROM annotation_item WHERE run_id = ?", (run,)).fetchone()[0]
        == 0
    )


@pytest.mark.parametrize("answer", ["n\n", "\n", "whatever\n", ""])
def test_anything_but_yes_at_the_prompt_deletes_nothing(
    full, answer: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db, conn, keep, vic = full
    before = counts(conn)
    monkeypatch.setattr(sys, "stdin", Terminal(answer))
    assert cli(db, "kg", "rm", HOSTILE) == 1
    err = capsys.readouterr().err
    assert f"delete KG '{SHOWN}' (" in err and "with 3 runs, " in err and "[y/N]" in err
    assert "3 annotation rounds (" in err and "nothing deleted" in err
    assert "\x1b" not in err
    assert counts(conn) == before


def test_yes_at_the_prompt_deletes(
    full, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db, conn, keep, vic = full
    monkeypatch.setattr(sys, "stdin", Terminal("y\n"))
    assert cli(db, "runs", "rm", str(keep["probe"])) == 0
    captured = capsys.readouterr()
    assert f"delete run {keep['probe']} (kglens on KG 'keep', finished) with " in captured.err
    assert captured.out.startswith(f"deleted run {keep['probe']} ")
    assert conn.execute("SELECT 1 FROM run WHERE id = ?", (keep["probe"],)).fetchone() is None


def test_without_a_terminal_or_yes_it_refuses_in_one_line(
    full, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db, conn, keep, vic = full
    before = counts(conn)
    monkeypatch.setattr(sys, "stdin", io.StringIO("y\n"))
    assert cli(db, "kg", "rm", "keep") == 2
    assert cli(db, "runs", "rm", str(keep["probe"])) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and all("no terminal to confirm on; pass --yes" in x for x in lines)
    assert lines[0].startswith("error: not deleting KG 'keep' (")
    assert counts(conn) == before


def _hold(conn: sqlite3.Connection, run_id: int, proc: subprocess.Popen) -> None:
    owner = f"{socket.gethostname()}:{proc.pid}:{_start_time(proc.pid)}"
    conn.execute("UPDATE run SET status = 'running', owner = ? WHERE id = ?", (owner, run_id))


def test_a_run_a_live_process_probes_is_not_deleted(
    full, sleeper: subprocess.Popen, capsys: pytest.CaptureFixture[str]
) -> None:
    db, conn, keep, vic = full
    _hold(conn, vic["runs"][1], sleeper)
    before = counts(conn)
    assert cli(db, "kg", "rm", HOSTILE, "--yes") == 2
    assert cli(db, "runs", "rm", str(keep["probe"]), str(vic["runs"][1]), "--yes") == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"error: KG '{SHOWN}': its run {vic['runs'][1]} is being probed by process "
        f"{sleeper.pid} on this machine: stop it (or wait for it to finish) first; "
        "nothing deleted",
        f"error: run {vic['runs'][1]} is being probed by process {sleeper.pid} on this "
        "machine: stop it (or wait for it to finish) first; nothing deleted",
    ]
    assert counts(conn) == before
    sleeper.kill()
    sleeper.wait()
    assert cli(db, "runs", "rm", str(vic["runs"][1]), "--yes") == 0, "a dead owner holds nothing"


def test_a_run_claimed_after_counting_is_not_deleted(full, sleeper: subprocess.Popen) -> None:
    _, conn, keep, _ = full
    plan = plan_runs_deletion(conn, [keep["probe"]])
    _hold(conn, keep["probe"], sleeper)
    with pytest.raises(RunBusyError, match=f"process {sleeper.pid}"):
        delete(conn, plan)
    assert load_run(conn, keep["probe"]).owner


def test_a_change_after_counting_deletes_nothing(full) -> None:
    _, conn, keep, _ = full
    plan = plan_kg_deletion(conn, "keep")
    run_blocking(
        prepare(
            conn,
            config=RunConfig(
                kg="keep", target="sim", batch_size=4, iterations=1, stop_on_convergence=False
            ),
        )
    )
    before = counts(conn)
    with pytest.raises(DeletionChangedError, match="nothing deleted"):
        delete(conn, plan)
    assert counts(conn) == before
    assert delete(conn, plan_kg_deletion(conn, "keep")).kg_name == "keep"
    assert conn.execute("SELECT 1 FROM kg WHERE name = 'keep'").fetchone() is None


def test_a_loaded_run_deleted_before_its_claim_stops_cleanly(full) -> None:
    _, conn, keep, _ = full
    engine = prepare(conn, resume=keep["probe"])
    delete(conn, plan_runs_deletion(conn, [keep["probe"]]))
    with pytest.raises(RunNotFoundError, match=f"no run {keep['probe']}"):
        run_blocking(engine)
    assert (
        conn.execute(
            "SELECT COUNT(*) FROM observation WHERE run_id = ?", (keep["probe"],)
        ).fetchone()[0]
        == 0
    )


def test_kg_rm_of_an_unknown_kg(full, capsys: pytest.CaptureFixture[str]) -> None:
    db, conn, _, _ = full
    before = counts(conn)
    assert cli(db, "kg", "rm", "elements", "--yes") == 2
    assert "no KG named 'elements' in this workspace" in capsys.readouterr().err
    assert counts(conn) == before, "a bundled KG is not imported just to be deleted"


def test_rename_carries_runs_and_annotations_along(
    full, capsys: pytest.CaptureFixture[str]
) -> None:
    db, conn, keep, vic = full
    new = "now [b]bold[/b] — renamed"
    assert cli(db, "kg", "rename", HOSTILE, new) == 0
    assert capsys.readouterr().out == f"renamed KG '{SHOWN}' to '{new}'\n"
    assert conn.execute("SELECT COUNT(*) FROM kg WHERE name = ?", (new,)).fetchone()[0] == 1
    assert {r[0] for r in conn.execute("SELECT DISTINCT kg FROM annotation_item")} == {
        "keep",
        new,
    }
    for run_id in vic["runs"]:
        (config,) = conn.execute("SELECT config FROM run WHERE id = ?", (run_id,)).fetchone()
        assert json.loads(config)["kg"] == new
    snap = run_blocking(prepare(conn, resume=vic["probe"]))
    assert snap.status == "finished"
    assert cli(db, "kg", "rm", new, "--yes") == 0
    gone = dict.fromkeys(("kg", "edge", "entity", "predicate", "observation"), set())
    assert_nothing_refers_to(conn, {**gone, "run": set(vic["runs"]), "kg_name": {new, HOSTILE}})


@pytest.mark.parametrize(
    ("new", "message"),
    [
        ("keep", "a KG named 'keep' already exists"),
        ("country", "'country' is the name of a bundled KG"),
        ("", "a KG name must not be empty"),
        ("   ", "a KG name must not be empty"),
        (" padded", "must not start or end with spaces"),
        ("bad\x1b[2Jname", "KG name 'bad␛[2Jname' has control characters"),
        ("two\nlines", "KG name 'two⏎lines' has control characters"),
        ("nul\x00", "KG name 'nul␀' has control characters"),
        (
            "ab\u202ecd",
            "KG name 'ab⇄cd' has control characters (escapes, NUL, newlines or tabs) or bidi",
        ),
        ("x" * 201, "a KG name has at most 200 characters (got 201)"),
    ],
)
def test_rename_refuses_taken_and_invalid_names(
    full, new: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    db, conn, _, _ = full
    before = conn.execute("SELECT id, name FROM kg ORDER BY id").fetchall()
    assert cli(db, "kg", "rename", HOSTILE, new) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and len(err.splitlines()) == 1
    assert "\x1b" not in err and "\x00" not in err
    assert conn.execute("SELECT id, name FROM kg ORDER BY id").fetchall() == before


def test_rename_of_an_unknown_kg(full, capsys: pytest.CaptureFixture[str]) -> None:
    db, _, _, _ = full
    assert cli(db, "kg", "rename", "nope", "other") == 2
    assert "no KG named 'nope'" in capsys.readouterr().err


def test_import_name_follows_the_same_rules(
    tmp_path: Path, kg_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "w.db"
    assert cli(db, "kg", "import", str(kg_dir), "--name", "a\x1b]0;x\x07b") == 2
    assert "KG name 'a␛]0;x␇b' has control characters" in capsys.readouterr().err
    assert connect(db).execute("SELECT COUNT(*) FROM kg").fetchone()[0] == 0
    assert cli(db, "kg", "import", str(kg_dir), "--name", "[/]ok") == 0


def test_a_deletion_that_fails_half_way_leaves_everything(full) -> None:
    _, conn, _, _ = full
    before = counts(conn)
    conn.execute(
        "CREATE TEMP TRIGGER fail_last BEFORE DELETE ON kg "
        "BEGIN SELECT RAISE(ABORT, 'disk on fire'); END"
    )
    with pytest.raises(sqlite3.IntegrityError, match="disk on fire"):
        delete(conn, plan_kg_deletion(conn, HOSTILE))
    assert counts(conn) == before
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    conn.execute("DROP TRIGGER fail_last")
    delete(conn, plan_kg_deletion(conn, HOSTILE))
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_runs_rm_leaves_no_row_of_the_run_in_any_table_that_refers_to_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every table with a foreign key to run(id) (a new one included) is emptied of the run:
    SQLite reuses the highest id, so a leftover answer would belong to the next run."""
    import toy_mode  # noqa: F401  (registers the toy mode, whose answers go in unit_answer)

    db = tmp_path / "w.db"
    assert main(["--db", str(db), "run", "toy", "--quiet", "--set", "kg=country"]) == 0
    first = capsys.readouterr().out
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("INSERT INTO helper_usage(run_id, role, requests) VALUES (1, 'generator', 3)")
    tables = [
        name
        for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        if any(fk[2] == "run" for fk in conn.execute(f"PRAGMA foreign_key_list({name})"))
    ]
    assert {"unit_answer", "helper_usage", "target_usage"} <= set(tables)
    assert conn.execute("SELECT COUNT(*) FROM unit_answer").fetchone()[0] > 0
    assert cli(db, "runs", "rm", "1", "-y") == 0
    for table in tables:
        left = conn.execute(f"SELECT COUNT(*) FROM {table} WHERE run_id = 1").fetchone()[0]
        assert left == 0, table
    capsys.readouterr()
    assert main(["--db", str(db), "run", "toy", "--quiet", "--set", "kg=country"]) == 0
    assert conn.execute("SELECT id FROM run").fetchall() == [(1,)], "the id is reused"
    assert capsys.readouterr().out == first, "the new run starts from nothing"
