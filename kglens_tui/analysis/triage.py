"""Triage of results, stored append-only in the `triage` table (db/0004_triage.sql).

Actions and what they do to the metrics (see `Overrides` and `rundata.RunData`):

- confirm (edge, per run): marks a confirmed blind spot; no metric change.
- kg_error on an edge (KG-wide): the model was right, the KG is wrong or incomplete. In every run
  on the KG the edge's observations are dropped and the edge leaves every denominator; it goes to
  the KG-corrections export.
- kg_error on a reply: that one observation is dropped (neither success nor failure); it goes to
  the KG-corrections export.
- verifier_error on a reply: the observation counts with the corrected category (default: a
  failure becomes correct, correct becomes incorrect); the latest such entry wins.
- note, error_type: no metric change; error types feed the Table 5 summary.
- retract: withdraws an earlier entry (nothing is ever updated or deleted).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field

from kglens_tui.core.errors import KGLensError
from kglens_tui.core.verdict import ANSWERED
from kglens_tui.store.connection import retry_busy, transaction

ERROR_TYPES = ("factual_error", "obsolete_knowledge", "self_contradiction", "inconsistent_response")
"""The paper's Table 5 error types."""
ACTIONS = ("confirm", "kg_error", "verifier_error", "note", "error_type", "retract")
VERDICTS = tuple(str(v) for v in ANSWERED)


class TriageError(KGLensError, ValueError):
    """A triage request that cannot be stored; the message says why."""


@dataclass(frozen=True)
class TriageEntry:
    """One stored triage entry."""

    id: int
    kg_id: int
    run_id: int | None
    edge_id: int
    observation_id: int | None
    action: str
    value: str
    retracts: int | None
    reason: str
    author: str
    seen_in_run: int | None
    created_at: str

    @property
    def kg_wide(self) -> bool:
        """Whether the entry applies to every run on the KG."""
        return self.run_id is None


@dataclass
class Overrides:
    """The current (non-retracted) triage of one run, as used by the metrics."""

    kg_error_edges: set[int] = field(default_factory=set)
    kg_error_observations: set[int] = field(default_factory=set)
    verdicts: dict[int, str] = field(default_factory=dict)
    confirmed: set[int] = field(default_factory=set)
    edge_tags: dict[int, str] = field(default_factory=dict)
    observation_tags: dict[int, str] = field(default_factory=dict)
    notes: dict[int, list[TriageEntry]] = field(default_factory=dict)

    @property
    def changes_metrics(self) -> bool:
        """Whether any entry changes counts, rates or the PKG."""
        return bool(self.kg_error_edges or self.kg_error_observations or self.verdicts)


def _row(r: sqlite3.Row) -> TriageEntry:
    return TriageEntry(
        id=r["id"],
        kg_id=r["kg_id"],
        run_id=r["run_id"],
        edge_id=r["edge_id"],
        observation_id=r["observation_id"],
        action=r["action"],
        value=r["value"],
        retracts=r["retracts"],
        reason=r["reason"],
        author=r["author"],
        seen_in_run=r["seen_in_run"],
        created_at=r["created_at"],
    )


def _need(text: str, what: str) -> str:
    if not text or not text.strip():
        raise TriageError(f"{what} is required")
    return text.strip()


Target = tuple[int, int | None, int, int | None]
"""(kg_id, run_id, edge_id, observation_id) of an entry."""


def _insert(
    conn: sqlite3.Connection,
    target: Target,
    action: str,
    *,
    author: str,
    value: str = "",
    reason: str = "",
    retracts: int | None = None,
    seen_in_run: int | None = None,
) -> int:
    author = _need(author, "author")
    kg_id, run_id, edge_id, observation_id = target

    def write() -> int:
        with transaction(conn):
            cur = conn.execute(
                "INSERT INTO triage(kg_id, run_id, edge_id, observation_id, action, value, "
                "retracts, reason, author, seen_in_run) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (
                    kg_id,
                    run_id,
                    edge_id,
                    observation_id,
                    action,
                    value,
                    retracts,
                    reason.strip(),
                    author,
                    seen_in_run,
                ),
            )
        assert cur.lastrowid is not None  # an INSERT sets it
        return cur.lastrowid

    return retry_busy(write)


def _run_edge(conn: sqlite3.Connection, run_id: int, edge_id: int) -> int:
    """The run's KG id, checking that the edge belongs to it."""
    row = conn.execute(
        "SELECT r.kg_id, e.kg_id FROM run r LEFT JOIN edge e ON e.id = ? WHERE r.id = ?",
        (edge_id, run_id),
    ).fetchone()
    if row is None:
        raise TriageError(f"no run {run_id}")
    if row[1] != row[0]:
        raise TriageError(f"edge {edge_id} is not in run {run_id}'s KG")
    return int(row[0])


def _observation(conn: sqlite3.Connection, observation_id: int) -> sqlite3.Row:
    row: sqlite3.Row | None = conn.execute(
        "SELECT o.id, o.run_id, o.edge_id, o.category, r.kg_id FROM observation o "
        "JOIN run r ON r.id = o.run_id WHERE o.id = ?",
        (observation_id,),
    ).fetchone()
    if row is None:
        raise TriageError(f"no reply (observation) {observation_id}")
    return row


def _target(
    conn: sqlite3.Connection,
    run_id: int | None,
    edge_id: int | None,
    observation_id: int | None,
) -> Target:
    """The target of an entry on a reply, a run's edge, or an edge KG-wide."""
    if observation_id is not None:
        obs = _observation(conn, observation_id)
        return obs["kg_id"], obs["run_id"], obs["edge_id"], observation_id
    if edge_id is None:
        raise TriageError("give an edge or a reply")
    if run_id is not None:
        return _run_edge(conn, run_id, edge_id), run_id, edge_id, None
    row = conn.execute("SELECT kg_id FROM edge WHERE id = ?", (edge_id,)).fetchone()
    if row is None:
        raise TriageError(f"no edge {edge_id}")
    return row[0], None, int(edge_id), None


def confirm_blind_spot(
    conn: sqlite3.Connection, run_id: int, edge_id: int, *, author: str, reason: str = ""
) -> int:
    """Confirm an edge as a blind spot of the run's model; returns the entry id."""
    target = _target(conn, run_id, edge_id, None)
    return _insert(conn, target, "confirm", author=author, reason=reason)


def mark_kg_error(
    conn: sqlite3.Connection,
    *,
    author: str,
    reason: str,
    edge_id: int | None = None,
    observation_id: int | None = None,
    seen_in_run: int | None = None,
) -> int:
    """The model was right and the KG wrong: on an edge (KG-wide) or on one reply
    (`seen_in_run` is recorded for an edge only)."""
    reason = _need(reason, "a reason")
    if (edge_id is None) == (observation_id is None):
        raise TriageError("mark a KG error on an edge or on a reply, not both")
    target = _target(conn, None, edge_id, observation_id)
    if observation_id is not None:
        seen_in_run = None
    return _insert(conn, target, "kg_error", author=author, reason=reason, seen_in_run=seen_in_run)


def mark_verifier_error(
    conn: sqlite3.Connection,
    observation_id: int,
    *,
    author: str,
    reason: str,
    category: str | None = None,
) -> int:
    """Override one reply's verdict. Without `category` the verdict flips: a failure
    (incorrect, refused, unparseable) becomes correct and correct becomes incorrect."""
    reason = _need(reason, "a reason")
    obs = _observation(conn, observation_id)
    if obs["category"] == "error":
        raise TriageError("a transport error has no verdict to override")
    if category is None:
        category = "incorrect" if obs["category"] == "correct" else "correct"
    if category not in VERDICTS:
        raise TriageError(f"category must be one of {', '.join(VERDICTS)} (got {category!r})")
    target = (obs["kg_id"], obs["run_id"], obs["edge_id"], observation_id)
    return _insert(conn, target, "verifier_error", author=author, value=category, reason=reason)


REVERIFY_REASON = "re-checked by the current verifier"
"""How a verdict entry from `kglens triage reverify` words its reason: this, then "(was X)"."""
_REVERIFIED = re.compile(rf"{REVERIFY_REASON} \(was (?:{'|'.join(VERDICTS)})\)")


def reverified(entry: TriageEntry) -> bool:
    """Whether a verdict entry is one `kglens triage reverify` stored (its exact reason)."""
    return entry.action == "verifier_error" and _REVERIFIED.fullmatch(entry.reason) is not None


def check_author(author: str) -> str:
    """The author of an entry, stripped; TriageError when blank."""
    return _need(author, "author")


def add_reverified(
    conn: sqlite3.Connection,
    kg_id: int,
    run_id: int,
    changes: Sequence[tuple[int, int, str, str]],
    *,
    author: str,
) -> list[int]:
    """Store today's verifier's verdicts for replies of one run, (reply, its edge, verdict in
    force, new verdict) each, as `verifier_error` entries inside the caller's transaction
    (`kglens_tui.analysis.reverify`); returns the entry ids."""
    author = check_author(author)
    ids = []
    for observation_id, edge_id, before, after in changes:
        if after not in VERDICTS:
            raise TriageError(f"category must be one of {', '.join(VERDICTS)} (got {after!r})")
        cur = conn.execute(
            "INSERT INTO triage(kg_id, run_id, edge_id, observation_id, action, value, reason, "
            "author) VALUES (?,?,?,?,'verifier_error',?,?,?)",
            (
                kg_id,
                run_id,
                edge_id,
                observation_id,
                after,
                f"{REVERIFY_REASON} (was {before})",
                author,
            ),
        )
        assert cur.lastrowid is not None  # an INSERT sets it
        ids.append(cur.lastrowid)
    return ids


def add_note(
    conn: sqlite3.Connection,
    text: str,
    *,
    author: str,
    run_id: int | None = None,
    edge_id: int | None = None,
    observation_id: int | None = None,
) -> int:
    """A free-text note on a reply, on an edge in a run, or on an edge KG-wide (no run)."""
    text = _need(text, "the note")
    target = _target(conn, run_id, edge_id, observation_id)
    return _insert(conn, target, "note", author=author, reason=text)


def tag_error_type(
    conn: sqlite3.Connection,
    error_type: str,
    *,
    author: str,
    reason: str = "",
    run_id: int | None = None,
    edge_id: int | None = None,
    observation_id: int | None = None,
) -> int:
    """Tag a reply, or an edge in a run, with a Table 5 error type (the latest tag wins)."""
    if error_type not in ERROR_TYPES:
        raise TriageError(f"error type must be one of {', '.join(ERROR_TYPES)}")
    if observation_id is None and run_id is None:
        raise TriageError("tag a reply, or an edge within a run")
    target = _target(conn, run_id, edge_id, observation_id)
    return _insert(conn, target, "error_type", author=author, value=error_type, reason=reason)


def retract(conn: sqlite3.Connection, entry_id: int, *, author: str, reason: str) -> int:
    """Withdraw an earlier entry (itself not a retraction, not retracted yet)."""
    reason = _need(reason, "a reason")
    old = get_entry(conn, entry_id)
    if old.action == "retract":
        raise TriageError("a retraction cannot be retracted; add the entry again instead")
    if conn.execute("SELECT 1 FROM triage WHERE retracts = ?", (entry_id,)).fetchone():
        raise TriageError(f"entry {entry_id} is already retracted")
    target = (old.kg_id, old.run_id, old.edge_id, old.observation_id)
    return _insert(conn, target, "retract", author=author, reason=reason, retracts=entry_id)


def get_entry(conn: sqlite3.Connection, entry_id: int) -> TriageEntry:
    """One entry by id."""
    row = conn.execute("SELECT * FROM triage WHERE id = ?", (entry_id,)).fetchone()
    if row is None:
        raise TriageError(f"no triage entry {entry_id}")
    return _row(row)


def triage_log(
    conn: sqlite3.Connection,
    *,
    kg_id: int | None = None,
    run_id: int | None = None,
    edge_id: int | None = None,
    observation_id: int | None = None,
    include_kg_wide: bool = True,
) -> list[TriageEntry]:
    """The audit trail, oldest first. With run_id, the run's entries plus (unless
    include_kg_wide is False) the KG-wide entries of its KG."""
    where, args = [], []
    if run_id is not None:
        if include_kg_wide:
            where.append(
                "(t.run_id = ? OR (t.run_id IS NULL AND t.kg_id = "
                "(SELECT kg_id FROM run WHERE id = ?)))"
            )
            args += [run_id, run_id]
        else:
            where.append("t.run_id = ?")
            args.append(run_id)
    for column, value in (
        ("kg_id", kg_id),
        ("edge_id", edge_id),
        ("observation_id", observation_id),
    ):
        if value is not None:
            where.append(f"t.{column} = ?")
            args.append(value)
    sql = "SELECT t.* FROM triage t" + (" WHERE " + " AND ".join(where) if where else "")
    return [_row(r) for r in conn.execute(sql + " ORDER BY t.id", args)]


def current_entries(entries: list[TriageEntry]) -> list[TriageEntry]:
    """The entries in force: not retractions and not retracted."""
    gone = {e.retracts for e in entries if e.action == "retract"}
    return [e for e in entries if e.action != "retract" and e.id not in gone]


def overrides_of(log: list[TriageEntry]) -> Overrides:
    """The triage in force by a run's audit trail (`triage_log` with its run_id)."""
    out = Overrides()
    for e in current_entries(log):
        if e.action == "kg_error":
            if e.observation_id is None:
                out.kg_error_edges.add(e.edge_id)
            else:
                out.kg_error_observations.add(e.observation_id)
        elif e.action == "verifier_error" and e.observation_id is not None:
            out.verdicts[e.observation_id] = e.value
        elif e.action == "confirm":
            out.confirmed.add(e.edge_id)
        elif e.action == "error_type":
            if e.observation_id is None:
                out.edge_tags[e.edge_id] = e.value
            else:
                out.observation_tags[e.observation_id] = e.value
        elif e.action == "note":
            out.notes.setdefault(e.edge_id, []).append(e)
    return out
