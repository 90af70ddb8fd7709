"""Run rows every mode shares: create, claim for one process, record the status, load.

A run row holds the mode, its settings as JSON, the manifest, the target's label and the KG edges
the run asks about. One process owns a running run (`claim_run`); a running run whose owner is
gone reads as interrupted (`shown_status`).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

import numpy as np

from kglens_tui.core.console import suggested
from kglens_tui.core.errors import KGLensError
from kglens_tui.core.status import ASK_AGAIN_NOTES, RunStatus
from kglens_tui.llm.urls import redact_text
from kglens_tui.runs.config import ConfigT, ConfigT_co, ModeConfig
from kglens_tui.runs.registry import get_mode, mode_label
from kglens_tui.store.connection import retry_busy, transaction
from kglens_tui.store.owner import is_alive, owner_pid, this_process
from kglens_tui.store.search_index import index_pending

T = TypeVar("T")
Manifest = dict[str, object]
"""A run's manifest as stored (JSON): what makes it reproducible, and counts about its plan."""
KGLENS = "kglens"
"""The KGLens mode's name."""


class StoredConfig(Protocol):
    """A mode's settings as a run row stores them."""

    def to_json(self) -> str: ...


class RunNotFoundError(KGLensError, LookupError):
    """No run with that id."""


def create_run(
    conn: sqlite3.Connection,
    kg_id: int,
    config: StoredConfig,
    manifest: Manifest,
    target_label: str,
    simulated: bool,
    edge_ids: np.ndarray,
    name: str = "",
    mode: str = KGLENS,
) -> int:
    """Store a new run with its active edges (array position -> edge id)."""
    with transaction(conn):
        cur = conn.execute(
            "INSERT INTO run(kg_id, name, mode, config, manifest, target_label, simulated, edge_ids) "
            "VALUES (?,?,?,?,?,?,?,?)",
            (
                kg_id,
                name,
                mode,
                config.to_json(),
                json.dumps(manifest),
                target_label,
                int(simulated),
                np.asarray(edge_ids, dtype="<i8").tobytes(),
            ),
        )
    assert cur.lastrowid is not None
    return cur.lastrowid


class RunBusyError(KGLensError, RuntimeError):
    """Another live process is probing the run."""


STALE_REASON = "its process ended without stopping it (killed?): resume it to continue"


def set_status(
    conn: sqlite3.Connection, run_id: int, status: str, stop_reason: str = "", error: str = ""
) -> None:
    """Record a run's status (stopped, finished, failed, interrupted) and why. The owner process
        is released only when it is the caller: a UI that marks its probe child's run interrupted
        leaves the child owning it until the child stops. Use `claim_run` to mark a run running. The
    search index then takes the replies committed since it last did (`index_pending`)."""
    retry_busy(
        lambda: conn.execute(
            "UPDATE run SET status = ?, stop_reason = ?, error = ?, control = '', "
            "owner = CASE WHEN owner = ? THEN NULL ELSE owner END, "
            "updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?",
            (status, stop_reason, error, this_process(), run_id),
        )
    )
    index_pending(conn)


def claim_run(
    conn: sqlite3.Connection, run_id: int, load: Callable[[], T] | None = None
) -> T | None:
    """Mark a run running, owned by this process, and return `load()` read in the same
    transaction. Raises RunBusyError when another process that still lives holds it (two
    processes appending to one run would corrupt its log).

    The claim holds the write lock until `load` has read the run's state, so no other process
    can commit between the claim and the read: the state returned is the state this process now
    owns. An error in `load` rolls the claim back."""
    me = this_process()

    def claim() -> T | None:
        with transaction(conn):
            row = conn.execute("SELECT owner FROM run WHERE id = ?", (run_id,)).fetchone()
            if row is None:
                raise RunNotFoundError(f"no run {run_id} in this workspace (it was deleted?)")
            owner = row[0]
            if owner and owner != me and is_alive(owner):
                raise RunBusyError(
                    f"run {run_id} is being probed by process {owner_pid(owner)} on this "
                    f"machine: stop it first (`kglens stop {run_id}`, or s on home) or wait for "
                    "it to finish"
                )
            conn.execute(
                "UPDATE run SET status = 'running', stop_reason = '', error = '', control = '', "
                "owner = ?, "
                "updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?",
                (me, run_id),
            )
            return load() if load is not None else None

    return retry_busy(claim)


GOING = (RunStatus.RUNNING, RunStatus.PAUSED, RunStatus.PAUSING, RunStatus.STOPPING)
"""Stored statuses of a run its owner process is still going on with (paused: held by the user;
pausing and stopping: asked to, finishing what is in flight)."""


def mark_going(conn: sqlite3.Connection, run_id: int, status: str) -> None:
    """Store that this process's run is running, pausing, paused or stopping (another process
    can see it), keeping the ownership: unlike `set_status`, which ends it."""
    retry_busy(
        lambda: conn.execute(
            "UPDATE run SET status = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') "
            "WHERE id = ? AND owner = ?",
            (status, run_id, this_process()),
        )
    )


def shown_status(status: str, stop_reason: str, owner: str | None) -> tuple[str, str]:
    """(status, stop reason) as a list shows them: a run stored as going (`GOING`) whose owner
    process is gone was killed, and shows as interrupted."""
    if status in GOING and is_alive(owner) is False:
        return RunStatus.INTERRUPTED, STALE_REASON
    return status, stop_reason


@dataclass
class RunRecord(Generic[ConfigT_co]):
    """A stored run of any mode: its settings (of the mode's type ``ConfigT``), manifest,
    progress and owner, as stored (a running run whose process is gone still says running: see
    `shown`)."""

    id: int
    kg_id: int
    kg_name: str
    mode: str
    status: str
    config: ConfigT_co
    manifest: Manifest
    target_label: str
    simulated: bool
    edge_ids: np.ndarray
    """The KG edges the run asks about (array position -> edge id)."""
    iterations_done: int
    """KGLens: committed iterations; a unit mode: units done (for listings)."""
    stop_reason: str
    error: str
    created_at: str
    updated_at: str
    owner: str | None = None
    """The process running it ('host:pid:start'), None when none holds it."""

    @property
    def shown(self) -> tuple[str, str]:
        """(status, stop reason) as lists show them (see `shown_status`)."""
        return shown_status(self.status, self.stop_reason, self.owner)


def manifest_count(run: RunRecord[ModeConfig], key: str) -> int:
    """A count the run's manifest keeps under ``key``; 0 when it keeps none (an older run)."""
    value = run.manifest.get(key)
    return int(value) if isinstance(value, int | float | str) and value != "" else 0


def mode_of(conn: sqlite3.Connection, run_id: int) -> str | None:
    """The mode of a stored run, or None when there is no such run."""
    row = conn.execute("SELECT mode FROM run WHERE id = ?", (run_id,)).fetchone()
    return str(row[0]) if row is not None else None


def run_row(conn: sqlite3.Connection, run_id: int) -> sqlite3.Row:
    """A run's row with its KG's name (``kg_name``); RunNotFoundError when there is none."""
    row = conn.execute(
        "SELECT r.*, k.name AS kg_name FROM run r JOIN kg k ON k.id = r.kg_id WHERE r.id = ?",
        (run_id,),
    ).fetchone()
    if row is None:
        raise RunNotFoundError(f"no run {run_id} in this workspace (see `{suggested('runs')}`)")
    found: sqlite3.Row = row  # fetchone() is untyped
    return found


def nothing_to_resume(conn: sqlite3.Connection, run_id: int) -> str | None:
    """Why resuming a run would do nothing (it has finished), as one line; None when it can go
    on. RunNotFoundError when there is no such run."""
    row = run_row(conn, run_id)
    if row["status"] != RunStatus.FINISHED or any(
        note in row["stop_reason"] for note in ASK_AGAIN_NOTES
    ):
        return None
    reason = f" ({row['stop_reason']})" if row["stop_reason"] else ""
    return f"run {run_id} has finished{reason}: nothing to resume (start a new run for more)"


def load_run(
    conn: sqlite3.Connection, run_id: int, mode: str | None = None
) -> RunRecord[ModeConfig]:
    """A run of any mode (``mode`` checks which); RunNotFoundError when there is none, or when
    it is a run of another mode."""
    return load_run_as(conn, run_id, mode, ModeConfig)


def load_run_as(
    conn: sqlite3.Connection, run_id: int, mode: str | None, config_type: type[ConfigT]
) -> RunRecord[ConfigT]:
    """`load_run` typed by the mode's settings type ``config_type`` (TypeError when the run's
    settings are of another type)."""
    row = run_row(conn, run_id)
    if mode is not None and row["mode"] != mode:
        raise RunNotFoundError(
            f"run {run_id} is a {mode_label(row['mode'])} run, not a {mode_label(mode)} one"
        )
    config = get_mode(row["mode"]).config_type.from_json(row["config"])
    if not isinstance(config, config_type):
        raise TypeError(
            f"run {run_id}'s settings are {type(config).__name__}, not {config_type.__name__}"
        )
    return RunRecord(
        id=row["id"],
        kg_id=row["kg_id"],
        kg_name=row["kg_name"],
        mode=row["mode"],
        status=row["status"],
        config=config,
        manifest=json.loads(row["manifest"]),
        target_label=redact_text(row["target_label"]),
        simulated=bool(row["simulated"]),
        edge_ids=np.frombuffer(row["edge_ids"], dtype="<i8").astype(np.int64),
        iterations_done=row["iterations_done"],
        stop_reason=row["stop_reason"],
        error=redact_text(row["error"]),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        owner=row["owner"],
    )


def load_run_to_resume(
    conn: sqlite3.Connection, run_id: int, mode: str, config_type: type[ConfigT]
) -> RunRecord[ConfigT]:
    """`load_run` for resuming a run of ``mode`` (settings of ``config_type``): a run of another
    mode names the command that resumes any run."""
    try:
        return load_run_as(conn, run_id, mode, config_type)
    except RunNotFoundError as exc:
        if run_row(conn, run_id)["mode"] == mode:
            raise
        raise RunNotFoundError(
            f"{exc} (`{suggested(f'resume {run_id}')}` continues a run of any mode)"
        ) from None


def mode_runs(conn: sqlite3.Connection, mode: str) -> list[int]:
    """Ids of every run of a mode, newest first."""
    return [
        r[0] for r in conn.execute("SELECT id FROM run WHERE mode = ? ORDER BY id DESC", (mode,))
    ]


def set_units_done(conn: sqlite3.Connection, run_id: int, done: int, total: int) -> None:
    """Record progress in run.iterations_done and run.units_total (units done of planned, for
    listings)."""
    retry_busy(
        lambda: conn.execute(
            "UPDATE run SET iterations_done = ?, units_total = ?, "
            "updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?",
            (done, total, run_id),
        )
    )
