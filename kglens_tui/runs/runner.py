"""Start, drive and look at a run of any mode in this process (the CLI's `--no-tui` paths,
benches and tests; a UI runs it in a child process through `kglens_tui.runs.session`)."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from typing import Any, TypeVar, cast

from kglens_tui.runs.messages import RunSnapshot
from kglens_tui.runs.record import run_row
from kglens_tui.runs.registry import Engine, get_mode, mode_of_config

SnapshotT = TypeVar("SnapshotT", bound=RunSnapshot)


def prepare(
    conn: sqlite3.Connection,
    *,
    config: Any = None,
    resume: int | None = None,
    name: str = "",
    on_progress: Callable[[Any], None] | None = None,
    mode_name: str | None = None,
    **clients: Any,
) -> Engine[RunSnapshot]:
    """An engine for a new run (``config``: its type names the mode) or a stored one
    (``resume``: the run's mode; ``mode_name`` insists on one, a run of another mode is then
    an error that names it). ``clients`` (target=, generator=...) replace the clients the
    settings name; ``on_progress`` gets a snapshot after each commit."""
    if mode_name is not None:
        mode = get_mode(mode_name)
    elif config is not None:
        mode = mode_of_config(config)
    elif resume is not None:
        mode = get_mode(run_row(conn, resume)["mode"])
    else:
        raise ValueError("prepare needs a config (a new run) or resume (a stored one)")
    return mode.prepare(
        conn, config=config, resume=resume, name=name, on_progress=on_progress, **clients
    )


def run_blocking(engine: Engine[SnapshotT]) -> SnapshotT:
    """Run an engine to its end on a fresh event loop, closing its clients after; returns its
    final snapshot."""

    async def drive() -> SnapshotT:
        # a mode's drive returns a snapshot of its own engine's
        return cast(SnapshotT, await get_mode(engine.mode).drive(engine))

    return asyncio.run(drive())


def open_snapshot(conn: sqlite3.Connection, run_id: int) -> Any:
    """A stored run's progress and metrics, without contacting its target: a `RunSnapshot` of
    the run's mode, typed Any (callers read their mode's own fields)."""
    return get_mode(run_row(conn, run_id)["mode"]).open_snapshot(conn, run_id)
