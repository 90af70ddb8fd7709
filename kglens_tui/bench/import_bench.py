"""`kglens bench import`: import synthetic triples, print triples/s and peak memory.

The import runs in a child process so its peak resident memory is its own. As a baseline, the
same rows are inserted with a bare sqlite3 executemany (no parsing, validation or indexes beyond
the schema's), in the same run, so the figure reads as a ratio against the machine's floor.
"""

from __future__ import annotations

import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console

from kglens_tui.core.safetext import LiteralTable


def write_synthetic(directory: Path, n_triples: int, n_entities: int, seed: int = 0) -> None:
    """Write entities.jsonl and triples.jsonl with zipf-like hubs and 20 predicates."""
    rng = random.Random(seed)
    with (directory / "entities.jsonl").open("w", encoding="utf-8") as fh:
        for i in range(n_entities):
            fh.write(
                json.dumps(
                    {
                        "id": f"e{i}",
                        "label": f"Entity {i}",
                        "aliases": [f"E{i}"],
                        "type": f"t{i % 7}",
                    }
                )
                + "\n"
            )
    with (directory / "triples.jsonl").open("w", encoding="utf-8") as fh:
        for _ in range(n_triples):
            s = rng.randrange(n_entities)
            o = int(n_entities * rng.random() ** 3)
            if o == s:
                o = (o + 1) % n_entities
            fh.write(
                f'{{"subject": "e{s}", "predicate": "p{rng.randrange(20)}", "object": "e{o}"}}\n'
            )


def _child(directory: str, db: str) -> None:
    from kglens_tui.kg.importers import import_kg
    from kglens_tui.store.connection import connect

    conn = connect(db)
    started = time.perf_counter()
    report = import_kg(conn, Path(directory), "synthetic")
    seconds = time.perf_counter() - started
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        json.dumps(
            {
                "edges": report.edges,
                "seconds": seconds,
                "peak_mib": peak_kib / 1024,
                "merged": report.duplicates_merged,
            }
        )
    )


def _baseline(directory: Path, db: Path) -> float:
    """Seconds for a bare executemany of the same (subject, predicate, object) strings."""
    import sqlite3

    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE t (s TEXT, p TEXT, o TEXT)")
    started = time.perf_counter()
    with (directory / "triples.jsonl").open(encoding="utf-8") as fh:
        rows = ((d["subject"], d["predicate"], d["object"]) for d in map(json.loads, fh))
        conn.execute("BEGIN")
        conn.executemany("INSERT INTO t VALUES (?, ?, ?)", rows)
        conn.execute("COMMIT")
    seconds = time.perf_counter() - started
    conn.close()
    return seconds


def run_import_bench(n_triples: int, n_entities: int, console: Console) -> dict[str, Any]:
    """Run the benchmark and print a table; returns the figures."""
    with tempfile.TemporaryDirectory(prefix="kglens-bench-") as tmp:
        root = Path(tmp)
        console.print(f"writing {n_triples:,} synthetic triples over {n_entities:,} entities…")
        write_synthetic(root, n_triples, n_entities)
        base_s = _baseline(root, root / "baseline.db")
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "kglens_tui.bench.import_bench",
                str(root),
                str(root / "bench.db"),
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            raise RuntimeError(f"the import child failed:\n{proc.stderr}")
        result = json.loads(proc.stdout.strip().splitlines()[-1])
    rate = n_triples / result["seconds"]
    base_rate = n_triples / base_s
    table = LiteralTable(title="kglens bench import", title_justify="left")
    for col in ("measure", "value"):
        table.add_column(col)
    table.add_row("triples in file", f"{n_triples:,}")
    table.add_row("edges stored (duplicates merged)", f"{result['edges']:,} ({result['merged']:,})")
    table.add_row("import time", f"{result['seconds']:.2f} s")
    table.add_row("triples per second", f"{rate:,.0f}  (target ≥ 50,000)")
    table.add_row("peak resident memory", f"{result['peak_mib']:,.0f} MiB  (target < 1,024)")
    table.add_row("baseline: bare executemany", f"{base_rate:,.0f} triples/s")
    table.add_row("ratio import / baseline", f"{rate / base_rate:.2f}")
    console.print(table)
    return {"triples_per_s": rate, "peak_mib": result["peak_mib"], "baseline_per_s": base_rate}


if __name__ == "__main__":
    _child(sys.argv[1], sys.argv[2])
