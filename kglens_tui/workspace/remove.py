"""Delete a KG or runs with every row that refers to them, and rename a KG.

A deletion is counted first (`plan_kg_deletion`, `plan_runs_deletion`), shown, then carried out
by `delete` in one transaction that counts again and refuses if anything changed meanwhile or a
live process probes one of the runs. Foreign keys are switched off for it: several references to
entities and edges have no index, and a cascade would scan those tables once per deleted row. So
every table that refers to a KG or a run is cleared here, children first:

- annotation rounds holding an item of the deleted runs or KG (by run, observation or edge id,
  or by KG name), or sampled from them: whole rounds, since their items, labels and agreement
  figures belong together;
- the runs' observations, iterations, checkpoints, KONTEST relations, paths and queries, and
  fact-eval questions and answers; their triage entries; KG-wide triage entries keep their place
  but forget a deleted run they were seen in;
- for a KG, its edges, triage entries, entities (with their groups), predicates and subsets.
"""

from __future__ import annotations

import json
import shlex
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from kglens_tui.core.console import suggested
from kglens_tui.core.errors import KGLensError
from kglens_tui.kg.bundled_data import (
    bundled_names,
    bundled_root,
    bundled_source,
    check_not_bundled,
)
from kglens_tui.kg.graph import KGNotFoundError
from kglens_tui.kg.names import check_kg_name
from kglens_tui.runs.record import RunBusyError, RunNotFoundError, shown_status
from kglens_tui.store.connection import retry_busy, transaction
from kglens_tui.store.owner import is_alive, owner_pid


class DeletionChangedError(KGLensError, RuntimeError):
    """What was to be deleted changed between counting it and deleting it."""


class KGNameTakenError(KGLensError, ValueError):
    """The new name of a KG is already used."""


class KGRenameRefusedError(KGLensError, ValueError):
    """A bundled KG renamed away from its name (it would be imported again, a second copy)."""


@dataclass(frozen=True)
class RunSummary:
    """A run about to be deleted."""

    id: int
    mode: str
    kg: str
    status: str
    owner: str | None


@dataclass(frozen=True)
class RoundSummary:
    """An annotation round about to be deleted."""

    id: int
    name: str
    items: int
    labels: int


@dataclass(frozen=True)
class Deletion:
    """What deleting a KG (kg_id set) or some runs removes, counted before anything goes."""

    kg_id: int | None
    kg_name: str
    entities: int
    edges: int
    runs: tuple[RunSummary, ...]
    observations: int
    mode_answers: int
    """KONTEST queries and fact-eval answers."""
    triage: int
    rounds: tuple[RoundSummary, ...]

    @property
    def run_ids(self) -> list[int]:
        return [r.id for r in self.runs]


def _ids(values: Sequence[int]) -> str:
    return json.dumps(sorted({int(v) for v in values}))


IN_JSON = "IN (SELECT value FROM json_each(?))"


def _runs(
    conn: sqlite3.Connection, where: str, params: tuple[object, ...]
) -> tuple[RunSummary, ...]:
    rows = conn.execute(
        "SELECT r.id, r.mode, k.name, r.status, r.stop_reason, r.owner FROM run r "
        f"JOIN kg k ON k.id = r.kg_id WHERE {where} ORDER BY r.id",
        params,
    ).fetchall()
    return tuple(
        RunSummary(r[0], r[1], r[2], shown_status(r[3], r[4], r[5])[0], r[5]) for r in rows
    )


def _rounds(
    conn: sqlite3.Connection, runs: str, kg_id: int | None, kg_name: str
) -> tuple[RoundSummary, ...]:
    """Rounds with an item from the runs (JSON id list) or the KG, or sampled from them."""
    observations = f"SELECT id FROM observation WHERE run_id {IN_JSON}"
    clauses = [
        f"SELECT round_id FROM annotation_item WHERE run_id {IN_JSON}",
        f"SELECT round_id FROM annotation_item WHERE observation_id IN ({observations})",
        f"SELECT r.id FROM annotation_round r, json_each(r.source, '$.runs') j "
        f"WHERE j.value {IN_JSON}",
        f"SELECT r.id FROM annotation_round r, json_each(r.source, '$.observation_ids') j "
        f"WHERE j.value IN ({observations})",
    ]
    params: list[object] = [runs, runs, runs, runs]
    if kg_id is not None:
        edges = "SELECT id FROM edge WHERE kg_id = ?"
        clauses += [
            "SELECT round_id FROM annotation_item WHERE kg = ?",
            f"SELECT round_id FROM annotation_item WHERE edge_id IN ({edges})",
            "SELECT r.id FROM annotation_round r, json_each(r.source, '$.edge_ids') j "
            f"WHERE j.value IN ({edges})",
        ]
        params += [kg_name, kg_id, kg_id]
    rows = conn.execute(
        "SELECT r.id, r.name, (SELECT COUNT(*) FROM annotation_item i WHERE i.round_id = r.id), "
        "(SELECT COUNT(*) FROM annotation_label l JOIN annotation_item i ON i.id = l.item_id "
        "WHERE i.round_id = r.id) FROM annotation_round r "
        f"WHERE r.id IN ({' UNION '.join(clauses)}) ORDER BY r.id",
        params,
    ).fetchall()
    return tuple(RoundSummary(*r) for r in rows)


def _count(conn: sqlite3.Connection, sql: str, *params: object) -> int:
    return int(conn.execute(sql, params).fetchone()[0])


def _plan(
    conn: sqlite3.Connection, kg_id: int | None, kg_name: str, runs: tuple[RunSummary, ...]
) -> Deletion:
    ids = _ids([r.id for r in runs])
    mode_answers = _count(
        conn, f"SELECT COUNT(*) FROM kontest_query WHERE run_id {IN_JSON}", ids
    ) + _count(
        conn,
        "SELECT COUNT(*) FROM facteval_answer WHERE question_id IN "
        f"(SELECT id FROM facteval_question WHERE run_id {IN_JSON})",
        ids,
    )
    if kg_id is None:
        entities = edges = 0
        triage = _count(conn, f"SELECT COUNT(*) FROM triage WHERE run_id {IN_JSON}", ids)
    else:
        entities = _count(conn, "SELECT COUNT(*) FROM entity WHERE kg_id = ?", kg_id)
        edges = _count(conn, "SELECT COUNT(*) FROM edge WHERE kg_id = ?", kg_id)
        triage = _count(conn, "SELECT COUNT(*) FROM triage WHERE kg_id = ?", kg_id)
    return Deletion(
        kg_id=kg_id,
        kg_name=kg_name,
        entities=entities,
        edges=edges,
        runs=runs,
        observations=_count(conn, f"SELECT COUNT(*) FROM observation WHERE run_id {IN_JSON}", ids),
        mode_answers=mode_answers,
        triage=triage,
        rounds=_rounds(conn, ids, kg_id, kg_name),
    )


def plan_kg_deletion(conn: sqlite3.Connection, name: str) -> Deletion:
    """What deleting the KG `name` removes (KGNotFoundError if the workspace has none)."""
    row = conn.execute("SELECT id FROM kg WHERE name = ?", (name,)).fetchone()
    if row is None:
        raise KGNotFoundError(f"no KG named '{name}' in this workspace (see `kglens kg list`)")
    kg_id = int(row[0])
    return _plan(conn, kg_id, name, _runs(conn, "r.kg_id = ?", (kg_id,)))


def plan_runs_deletion(conn: sqlite3.Connection, run_ids: Sequence[int]) -> Deletion:
    """What deleting the runs removes (RunNotFoundError naming any unknown id)."""
    runs = _runs(conn, f"r.id {IN_JSON}", (_ids(run_ids),))
    missing = sorted(set(run_ids) - {r.id for r in runs})
    if missing:
        raise RunNotFoundError(
            f"no run {', '.join(map(str, missing))} in this workspace (see `{suggested('runs')}`)"
        )
    return _plan(conn, None, "", runs)


def check_not_live(plan: Deletion) -> None:
    """RunBusyError if a live process probes one of the runs."""
    for run in plan.runs:
        if is_alive(run.owner):
            what = f"KG '{plan.kg_name}': its run" if plan.kg_id is not None else "run"
            raise RunBusyError(
                f"{what} {run.id} is being probed by process {owner_pid(run.owner or '')} on "
                "this machine: stop it (or wait for it to finish) first; nothing deleted"
            )


def delete(conn: sqlite3.Connection, plan: Deletion) -> Deletion:
    """Delete what `plan` counted, in one transaction. Raises DeletionChangedError if the
    counts differ now, RunBusyError if a live process probes one of the runs; then nothing is
    deleted."""

    def run() -> Deletion:
        conn.execute("PRAGMA foreign_keys = OFF")
        try:
            with transaction(conn):
                now = _recount(conn, plan)
                check_not_live(now)
                if now != plan:
                    what = f"KG '{plan.kg_name}'" if plan.kg_id is not None else "the runs"
                    raise DeletionChangedError(
                        f"{what} changed since it was counted (a run started, an answer or a "
                        "label came in): nothing deleted; run the command again"
                    )
                _delete_rows(conn, now)
        finally:
            conn.execute("PRAGMA foreign_keys = ON")
        return plan

    return retry_busy(run)


def _recount(conn: sqlite3.Connection, plan: Deletion) -> Deletion:
    if plan.kg_id is None:
        return plan_runs_deletion(conn, plan.run_ids)
    row = conn.execute("SELECT name FROM kg WHERE id = ?", (plan.kg_id,)).fetchone()
    if row is None or row[0] != plan.kg_name:
        raise DeletionChangedError(
            f"KG '{plan.kg_name}' was deleted or renamed meanwhile: nothing deleted"
        )
    return plan_kg_deletion(conn, plan.kg_name)


def _delete_rows(conn: sqlite3.Connection, plan: Deletion) -> None:
    """Every row of the plan, children before parents (foreign keys are off)."""
    rounds = _ids([r.id for r in plan.rounds])
    items = f"SELECT id FROM annotation_item WHERE round_id {IN_JSON}"
    # assignments first: a label may only go once its assignment is gone (append-only trigger)
    for sql in (
        f"DELETE FROM annotation_assignment WHERE item_id IN ({items})",
        f"DELETE FROM annotation_label WHERE item_id IN ({items})",
        f"DELETE FROM annotation_adjudication WHERE item_id IN ({items})",
        f"DELETE FROM annotation_item WHERE round_id {IN_JSON}",
        f"DELETE FROM annotator WHERE round_id {IN_JSON}",
        f"DELETE FROM annotation_round WHERE id {IN_JSON}",
    ):
        conn.execute(sql, (rounds,))
    runs = _ids(plan.run_ids)
    for sql in (
        "DELETE FROM facteval_answer WHERE question_id IN "
        f"(SELECT id FROM facteval_question WHERE run_id {IN_JSON})",
        f"DELETE FROM facteval_question WHERE run_id {IN_JSON}",
        f"DELETE FROM kontest_query WHERE run_id {IN_JSON}",
        f"DELETE FROM kontest_relation WHERE run_id {IN_JSON}",
        f"DELETE FROM kontest_path WHERE run_id {IN_JSON}",
        f"DELETE FROM unit_answer WHERE run_id {IN_JSON}",
        f"DELETE FROM helper_usage WHERE run_id {IN_JSON}",
        f"DELETE FROM target_usage WHERE run_id {IN_JSON}",
        f"DELETE FROM verifier_recheck WHERE run_id {IN_JSON}",
        f"DELETE FROM observation WHERE run_id {IN_JSON}",
        f"DELETE FROM iteration WHERE run_id {IN_JSON}",
        f"DELETE FROM run_checkpoint WHERE run_id {IN_JSON}",
        f"DELETE FROM design_draw WHERE run_id {IN_JSON}",
        f"DELETE FROM run WHERE id {IN_JSON}",
        # a triage entry may only go once what it refers to is gone (append-only trigger)
        f"DELETE FROM triage WHERE run_id {IN_JSON}",
        f"UPDATE triage SET seen_in_run = NULL WHERE seen_in_run {IN_JSON}",
    ):
        conn.execute(sql, (runs,))
    if plan.kg_id is None:
        return
    for sql in (
        "DELETE FROM edge WHERE kg_id = ?",
        "DELETE FROM triage WHERE kg_id = ?",
        "DELETE FROM entity_group WHERE entity_id IN (SELECT id FROM entity WHERE kg_id = ?)",
        "DELETE FROM subset_member WHERE subset_id IN (SELECT id FROM subset WHERE kg_id = ?)",
        "DELETE FROM subset WHERE kg_id = ?",
        "DELETE FROM predicate WHERE kg_id = ?",
        "DELETE FROM entity WHERE kg_id = ?",
        "DELETE FROM kg WHERE id = ?",
    ):
        conn.execute(sql, (plan.kg_id,))


def rename_kg(conn: sqlite3.Connection, old: str, new: str) -> None:
    """Rename a KG, with the KG name its annotation items and its runs' settings carry.

    Refuses a name that is invalid, taken in the workspace or a bundled KG's, except the bundled
    KG's own name for that KG (source `bundled:NEW`: one renamed away before this was refused
    takes its name back). Refuses to rename a bundled KG away from its name: the next use of
    that name (`country` is the default KG) would import it again, a second copy beside the
    renamed one."""
    check_kg_name(new)

    def run() -> None:
        with transaction(conn):
            row = conn.execute("SELECT id, source FROM kg WHERE name = ?", (old,)).fetchone()
            if row is None:
                raise KGNotFoundError(
                    f"no KG named '{old}' in this workspace (see `kglens kg list`)"
                )
            kg_id, source = int(row[0]), row[1]
            if conn.execute("SELECT 1 FROM kg WHERE name = ?", (new,)).fetchone() is not None:
                raise KGNameTakenError(f"a KG named '{new}' already exists")
            check_not_bundled(new, source)
            if source == bundled_source(old) and old in bundled_names():
                raise KGRenameRefusedError(
                    f"KG '{old}' is a bundled KG and keeps its name: renamed, it would be "
                    f"imported again the next time '{old}' is named, a second copy beside "
                    f"'{new}'; for a copy under another name, `kglens kg import "
                    f"{shlex.quote(str(bundled_root() / old))} --name {shlex.quote(new)}`"
                )
            conn.execute("UPDATE kg SET name = ? WHERE id = ?", (new, kg_id))
            conn.execute("UPDATE annotation_item SET kg = ? WHERE kg = ?", (new, old))
            for run_id, config in conn.execute(
                "SELECT id, config FROM run WHERE kg_id = ?", (kg_id,)
            ).fetchall():
                settings = json.loads(config)
                if settings.get("kg") == old:
                    settings["kg"] = new
                    conn.execute(
                        "UPDATE run SET config = ? WHERE id = ?", (json.dumps(settings), run_id)
                    )

    retry_busy(run)
