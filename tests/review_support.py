"""Stored simulated runs for the review, analysis and layout tests (not a test module). The
`template_db` and `stored_db` fixtures (these runs, built once a module, and a private copy for a
test) are in conftest.py."""

from __future__ import annotations

from pathlib import Path

from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.store.connection import connect


def _store_runs(db: Path) -> None:
    conn = connect(db)
    # no Wh penalty: the HARD runs these snapshots and reviews were made with, before the
    # simulator had one (its answers, Wh or Yes/No, as they were)
    for target, seed in (("sim:3,wh_penalty=0", 5), ("sim:7,wh_penalty=0", 9)):
        engine = prepare(
            conn,
            config=RunConfig(
                kg="country",
                subset="paper16",
                target=target,
                difficulty="hard",
                iterations=6,
                batch_size=16,
                seed=seed,
                # the paper's sampling: these runs feed screen snapshots, not a sampler test
                sampler="thompson",
                propagation_mode="sum",
            ),
        )
        run_blocking(engine)
    conn.execute("UPDATE iteration SET seconds = 2.0")
    conn.close()
