"""The workspace opens cleanly in Datasette (docs/data.md, Workspace): every table and view loads,
`run_rates` lists every run of every mode with the status, requests and rates `kglens runs`
shows, and `observation_labelled` shows the labels of the facts asked about, as literal text
(markup in JSON, escaped HTML in the pages). Datasette runs in-process, with no network."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kglens_tui.analysis.report import RUN_COLUMNS, run_rows
from kglens_tui.cli.main import main
from kglens_tui.runs.registry import mode_label
from kglens_tui.store.connection import connect
from kglens_tui.textfmt import pct

datasette_app = pytest.importorskip("datasette.app", reason="the `test` extra installs datasette")

DB = "kglens"
"""The database's name in Datasette: the workspace file's stem, as `datasette kglens.db`."""

SCRIPT = '<script>alert("kglens")</script>'
ALPHA = f"Alpha {SCRIPT}"
BETA = "[bold]Beta[/bold] & <b>co</b>"
LOCATED = "located in [red]<i>"
HOSTILE_LABELS = (ALPHA, BETA, LOCATED)
"""Labels a KG may carry: HTML and Rich markup, shown as text everywhere."""


def _hostile_kg(root: Path) -> Path:
    d = root / "hostile"
    d.mkdir()
    entities = [
        {"id": "alpha", "label": ALPHA, "type": "place"},
        {"id": "beta", "label": BETA, "type": "place"},
        {"id": "gamma", "label": "Gamma", "type": "place"},
        {"id": "delta", "label": "Delta", "type": "place"},
    ]
    predicates = [
        {
            "id": "in",
            "label": LOCATED,
            "templates": {
                "yes_no": ["Is {subject} in {object}?"],
                "wh": "Where is {subject}?",
                "statement": "{subject} is in {object}.",
            },
        }
    ]
    triples = [
        {"subject": "alpha", "predicate": "in", "object": "beta"},
        {"subject": "beta", "predicate": "in", "object": "gamma"},
        {"subject": "gamma", "predicate": "in", "object": "delta"},
        {"subject": "delta", "predicate": "in", "object": "alpha"},
    ]
    for name, rows in (
        ("entities.jsonl", entities),
        ("predicates.jsonl", predicates),
        ("triples.jsonl", triples),
    ):
        (d / name).write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return d


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One workspace with a run of every mode, made through the CLI with the simulated target:
    KGLens over the bundled Country KG and over a KG with hostile labels, KONTEST, fact-eval."""
    root = tmp_path_factory.mktemp("datasette")
    db = root / f"{DB}.db"
    with pytest.MonkeyPatch.context() as mp:  # the user's settings must not shape these runs
        (root / "empty-settings.toml").write_text("")
        mp.setenv("KGLENS_CONFIG", str(root / "empty-settings.toml"))
        mp.setenv("KGLENS_DB", str(db))
        common = ["--target", "sim", "--quiet"]
        probe = ["probe", "--no-tui", *common, "--iterations", "3", "--batch-size", "8"]
        for args in (
            [*probe, "--kg", "country", "--subset", "paper16", "--seed", "1"],
            ["kg", "import", str(_hostile_kg(root)), "--name", "hostile"],
            [*probe, "--kg", "hostile", "--batch-size", "4", "--seed", "2"],
            ["consistency", "run", *common, "--relations", "3"],
            ["facteval", "run", *common, "--facts", "3"],
        ):
            assert main(["--db", str(db), *args]) == 0, args
    return db


async def _get(ds: Any, path: str) -> Any:
    response = await ds.client.get(path)
    assert response.status_code == 200, (path, response.status_code, response.text[:500])
    return response


async def _datasette(db: Path) -> Any:
    ds = datasette_app.Datasette([str(db)])
    await ds.invoke_startup()
    return ds


async def test_every_table_and_view_loads_in_datasette(workspace: Path) -> None:
    ds = await _datasette(workspace)
    info = (await _get(ds, f"/{DB}.json")).json()
    tables = {t["name"] for t in info["tables"]}
    views = {v["name"] for v in info["views"]}
    conn = connect(workspace)
    in_schema = {
        (kind, name)
        for kind, name in conn.execute(
            "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view') "
            "AND name NOT LIKE 'sqlite_%'"
        )
    }
    conn.close()
    assert tables == {n for k, n in in_schema if k == "table"}
    assert views == {n for k, n in in_schema if k == "view"}
    assert {"run_rates", "observation_labelled", "annotation_current"} <= views
    for name in sorted(tables | views):
        rows = (await _get(ds, f"/{DB}/{name}.json?_shape=array")).json()
        assert isinstance(rows, list), name
        await _get(ds, f"/{DB}/{name}")  # the HTML page too
    # Datasette finds the full-text index of the questions and replies (migration 0010)
    found = (await _get(ds, f"/{DB}/observation.json?_search=Gamma&_shape=array")).json()
    assert found and all("Gamma" in f"{r['question']} {r['reply']}" for r in found)


async def test_the_runs_view_agrees_with_kglens_runs(workspace: Path) -> None:
    ds = await _datasette(workspace)
    rows = (await _get(ds, f"/{DB}/run_rates.json?_shape=array&_size=max")).json()
    conn = connect(workspace)
    listed = {int(r[0]): dict(zip(RUN_COLUMNS, r, strict=True)) for r in run_rows(conn)}
    conn.close()
    assert [r["run_id"] for r in rows] == sorted(listed)
    assert [r["mode"] for r in rows] == ["kglens", "kglens", "kontest", "facteval"]
    assert [r["kg"] for r in rows] == ["country", "hostile", "country", "country"]
    for row in rows:
        shown = listed[row["run_id"]]
        assert mode_label(row["mode"]) == shown["mode"]
        assert row["status"] == "finished"
        assert f"{row['status']} · {row['stop_reason']}" == shown["status"]
        assert row["simulated"] == 1
        failed = f" ({row['failed']:,} failed)" if row["failed"] else ""
        assert f"{row['requests']:,}{failed}" == shown["requests"] and row["requests"] > 0
        rates = tuple(row[f"examined_{r}_rate"] for r in ("win", "zero_sense", "all_sense"))
        assert tuple(pct(r) for r in rates) == tuple(  # the list adds their intervals
            shown[c].partition(" ")[0] for c in ("win", "zero-sense", "all-sense")
        )
        assert shown["examined"] == ("—" if row["examined"] is None else f"{row['examined']:,}")
        if row["mode"] == "kglens":
            assert row["iterations_done"] == 3 and shown["iterations"] == "3/3"
            assert all(r is not None and 0 <= r <= 1 for r in rates)
        else:
            assert shown["iterations"] == f"{row['iterations_done']}/{row['units_total']} units"
            assert rates == (None, None, None)


async def test_the_observations_view_shows_labels_as_literal_text(workspace: Path) -> None:
    ds = await _datasette(workspace)
    conn = connect(workspace)
    run_id = conn.execute(
        "SELECT r.id FROM run r JOIN kg k ON k.id = r.kg_id WHERE k.name = 'hostile'"
    ).fetchone()[0]
    expected = {
        int(oid): (s, p, o, q)
        for oid, s, p, o, q in conn.execute(
            "SELECT ob.id, s.label, p.label, x.label, ob.question FROM observation ob "
            "JOIN edge e ON e.id = ob.edge_id JOIN entity s ON s.id = e.subject_id "
            "JOIN predicate p ON p.id = e.predicate_id JOIN entity x ON x.id = e.object_id "
            "WHERE ob.run_id = ?",
            (run_id,),
        )
    }
    asked = dict(
        conn.execute(
            "SELECT ob.id, COALESCE(c.label, '') || '|' || ob.expected FROM observation ob "
            "LEFT JOIN entity c ON c.id = ob.candidate_id WHERE ob.run_id = ?",
            (run_id,),
        ).fetchall()
    )
    keys = {k for (k,) in conn.execute("SELECT key FROM entity")}
    conn.close()
    assert len(expected) == 12  # 3 iterations of 4 questions

    path = f"/{DB}/observation_labelled.json?run_id={run_id}&_shape=array&_size=max"
    rows = (await _get(ds, path)).json()
    shown = {r["id"]: (r["subject"], r["predicate"], r["object"], r["question"]) for r in rows}
    assert shown == expected
    # a Yes/No question names the entity it asked about, the fact's object or another one
    assert {r["id"]: f"{r['asked_object'] or ''}|{r['expected']}" for r in rows} == asked
    assert {r["expected"] for r in rows} == {"yes", "no"}
    assert any(r["asked_object"] != r["object"] for r in rows if r["expected"] == "no")
    for subject, predicate, obj, question in shown.values():
        assert subject not in keys and obj not in keys  # labels, not the KG's ids
        assert predicate == LOCATED and subject in question
    labels = {r["subject"] for r in rows} | {r["object"] for r in rows}
    assert {ALPHA, BETA} <= labels  # the markup came back as it was stored
    assert any(SCRIPT in r["question"] for r in rows)

    page = (await _get(ds, f"/{DB}/observation_labelled?run_id={run_id}&_size=max")).text
    assert "<script>alert(" not in page and "<b>co</b>" not in page and "[red]<i>" not in page
    assert "&lt;script&gt;alert(" in page
    assert "[bold]Beta[/bold] &amp; &lt;b&gt;co&lt;/b&gt;" in page
