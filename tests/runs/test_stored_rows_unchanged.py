"""Behaviour unchanged (#36): a fixed-seed simulated run of each mode stores the same rows as
when `tests/data/stored_rows.json` was recorded, so a restructuring that changes what a run asks,
answers or stores fails here. Columns of time (latencies, clocks) and versions are left out; floats
are compared to 9 significant digits, the checkpoint's float arrays too (NumPy's reductions and
SciPy's functions differ in the last bit between CPUs, AVX-512 or not, and those bits are not
behaviour).

A change that is meant to change what runs store (a new verifier rule, a sampler's fix) records the
new fingerprints with ``KGLENS_RECORD_STORED_ROWS=1 python -m pytest
tests/runs/test_stored_rows_unchanged.py`` and says why in its commit. The fingerprints hold under the
NumPy version they were recorded with (its random streams may change between versions)."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from kglens_tui.modes.config import FactevalConfig, KontestConfig
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.config import ModeConfig
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.store.connection import connect

RECORDED = Path(__file__).parents[1] / "data" / "stored_rows.json"
RECORD = os.environ.get("KGLENS_RECORD_STORED_ROWS") == "1"
RUNS: dict[str, ModeConfig] = {
    "kglens": RunConfig(kg="country", iterations=3, batch_size=16, seed=5),
    "kglens-wh": RunConfig(kg="elements", iterations=2, batch_size=16, seed=7, difficulty="wh"),
    "kontest": KontestConfig(kg="country", relations=6, seed=5),
    "facteval": FactevalConfig(kg="elements", seed=5),
}
TIMING = {"latency_ms", "finished_at", "seconds", "latency_ms_mean", "latency_ms_p95"}
"""Columns that hold clock readings, left out."""
TABLES = {
    "observation": "run_id = ?",
    "iteration": "run_id = ?",
    "run_checkpoint": "run_id = ?",
    "design_draw": "run_id = ?",
    "target_usage": "run_id = ?",
    "kontest_relation": "run_id = ?",
    "kontest_query": "run_id = ?",
    "facteval_question": "run_id = ?",
    "facteval_answer": "question_id IN (SELECT id FROM facteval_question WHERE run_id = ?)",
}


FLOAT_BLOBS = {("run_checkpoint", "alpha"), ("run_checkpoint", "beta")}
"""Columns that hold little-endian float64 arrays (`runstore.write_checkpoint`)."""


def _value(v: object) -> object:
    if isinstance(v, float):
        return float(f"{v:.9g}")
    if isinstance(v, bytes):
        return hashlib.sha256(v).hexdigest()
    return v


def _floats(v: bytes) -> str:
    """A float64 array's digest to 9 significant digits."""
    values = np.frombuffer(v, dtype="<f8")
    return hashlib.sha256(" ".join(f"{x:.9g}" for x in values).encode()).hexdigest()


def stored_rows(conn: sqlite3.Connection, run_id: int) -> dict[str, list[list[object]]]:
    """What the run stored, table by table, in a stable order, without clock readings."""
    out: dict[str, list[list[object]]] = {}
    for table, where in TABLES.items():
        columns = [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]
        kept = [c for c in columns if c not in TIMING]
        rows = conn.execute(
            f"SELECT {', '.join(kept)} FROM {table} WHERE {where} ORDER BY {', '.join(kept)}",
            (run_id,),
        ).fetchall()
        floats = [(table, c) in FLOAT_BLOBS for c in kept]
        if rows:
            out[table] = [
                [_floats(v) if f else _value(v) for v, f in zip(row, floats, strict=True)]
                for row in rows
            ]
    run = conn.execute(
        "SELECT mode, status, stop_reason, config, manifest, target_label, edge_ids, "
        "iterations_done, units_total FROM run WHERE id = ?",
        (run_id,),
    ).fetchone()
    manifest = json.loads(run[4])
    for version in ("kglens_version", "numpy_version"):
        manifest.pop(version, None)
    out["run"] = [[run[0], run[1], run[2], run[3], manifest, run[5], _value(run[6]), *run[7:]]]
    return out


def fingerprint(rows: dict[str, list[list[object]]]) -> str:
    return hashlib.sha256(json.dumps(rows, sort_keys=True).encode()).hexdigest()


@pytest.fixture(scope="module")
def recorded() -> dict[str, object]:
    data: dict[str, object] = json.loads(RECORDED.read_text()) if RECORDED.exists() else {}
    return data


@pytest.mark.parametrize("name", sorted(RUNS))
def test_a_fixed_seed_run_stores_the_rows_it_stored_when_recorded(
    name: str, tmp_path: Path, recorded: dict[str, object]
) -> None:
    conn = connect(tmp_path / "w.db")
    snap = run_blocking(prepare(conn, config=RUNS[name]))
    rows = stored_rows(conn, snap.run_id)
    conn.close()
    assert snap.status == "finished" and rows
    got = fingerprint(rows)
    if RECORD:
        data = json.loads(RECORDED.read_text()) if RECORDED.exists() else {}
        data["numpy"] = np.__version__
        data.setdefault("runs", {})[name] = {
            "fingerprint": got,
            "rows": {t: len(r) for t, r in rows.items()},
        }
        RECORDED.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        return
    if recorded.get("numpy") != np.__version__:
        pytest.skip(f"recorded under NumPy {recorded.get('numpy')}, this is {np.__version__}")
    runs = recorded["runs"]
    assert isinstance(runs, dict)
    want = runs[name]
    assert {t: len(r) for t, r in rows.items()} == want["rows"]
    assert got == want["fingerprint"], f"{name}: the rows differ from the recorded ones"


@pytest.mark.parametrize("towards", [np.inf, -np.inf])
def test_a_last_bit_of_difference_in_the_floats_leaves_the_fingerprint(
    towards: float, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What another CPU's arithmetic changes (the last bit of learned propagation's logistic)
    changes the stored checkpoint's bytes but not the fingerprint."""
    import kglens_tui.modes.kglens.learned as learned

    def fingerprint_of(db: str) -> tuple[str, dict[str, list[list[object]]]]:
        conn = connect(tmp_path / db)
        snap = run_blocking(prepare(conn, config=RUNS["kglens"]))
        rows = stored_rows(conn, snap.run_id)
        blob = conn.execute(
            "SELECT alpha FROM run_checkpoint WHERE run_id = ?", (snap.run_id,)
        ).fetchone()[0]
        conn.close()
        return fingerprint(rows), {"alpha": [[hashlib.sha256(blob).hexdigest()]]}

    exact, exact_blob = fingerprint_of("exact.db")
    expit = learned._expit
    monkeypatch.setattr(learned, "_expit", lambda x: np.nextafter(expit(x), towards))
    nudged, nudged_blob = fingerprint_of("nudged.db")
    assert nudged_blob != exact_blob, "the nudge no longer reaches the checkpoint"
    assert nudged == exact
