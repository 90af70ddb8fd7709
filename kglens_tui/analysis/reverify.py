"""Re-check a KGLens run's stored replies with today's verifier (`kglens triage reverify`).

The verifier's rules improve, and a run keeps the verdicts it was given when it ran. This reads
each answered reply the matcher judged (Wh by alias match, Yes/No by its first word) and, where
today's verdict differs from the one in force, appends a triage `verifier_error` entry with the
new verdict: the log stays as it was, the adjusted rates (review, analyze, compare, the report's
triage line) use the new verdict, and `kglens triage retract` withdraws it. Verdicts of an LLM
judge and verdicts a person set in triage are left alone.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from dataclasses import dataclass, field

from kglens_tui.analysis.triage import (
    add_reverified,
    check_author,
    current_entries,
    reverified,
    triage_log,
)
from kglens_tui.answers.matcher import check_edge_wh, given_by_matcher
from kglens_tui.answers.mentions import TypeNames
from kglens_tui.answers.verify import check_yes_no
from kglens_tui.core.question_type import WH
from kglens_tui.core.verdict import VERIFIER_RULES, Verdict
from kglens_tui.kg.graph import load_kg
from kglens_tui.modes.kglens.runstore import KGLensRun, load_kglens_run
from kglens_tui.runs.prices import uses_model
from kglens_tui.store.connection import retry_busy, transaction

EXAMPLES = 5
"""Changed replies kept as examples for the summary."""


@dataclass(frozen=True)
class Change:
    """One reply whose verdict today's verifier gives differently."""

    observation_id: int
    question: str
    reply: str
    before: str
    after: str


@dataclass
class Reverified:
    """What re-checking one run found (and stored, unless it was a dry run)."""

    run_id: int
    checked: int = 0
    changes: Counter[tuple[str, str]] = field(default_factory=Counter)
    examples: list[Change] = field(default_factory=list)
    judged: int = 0
    """Replies an LLM judge gave the verdict of, or would today (a judged run's Wh replies the
    matcher now answers for): left alone."""
    by_person: int = 0
    """Replies whose verdict a person set in triage (left alone)."""
    moved: int = 0
    """Replies whose verdict in force changed while they were re-checked (left alone)."""
    entries: list[int] = field(default_factory=list)

    @property
    def changed(self) -> int:
        return sum(self.changes.values())


def reverify_run(
    conn: sqlite3.Connection, run_id: int, *, author: str, store: bool = True
) -> Reverified:
    """Re-check run ``run_id``'s matcher verdicts; with ``store``, append a triage entry for each
    verdict that changes (one transaction). Running it again changes nothing more."""
    author = check_author(author)
    run = load_kglens_run(conn, run_id)
    kg = load_kg(conn, run.kg_name)
    names = TypeNames(kg)
    log = triage_log(conn, run_id=run_id, include_kg_wide=False)
    seen = max((e.id for e in log), default=0)
    in_force = {
        e.observation_id: e
        for e in current_entries(log)
        if e.action == "verifier_error" and e.observation_id is not None
    }
    judge = uses_model(run.config.verifier)
    out = Reverified(run_id)
    found: list[tuple[int, int, str, str]] = []
    rows = conn.execute(
        "SELECT id, edge_id, qtype, question, reply, expected, expected_answers, category, "
        "verifier FROM observation WHERE run_id = ? AND category != 'error' ORDER BY id",
        (run_id,),
    )
    for oid, edge_id, qtype, question, reply, expected, answers, category, verifier in rows:
        if not given_by_matcher(verifier):
            out.judged += 1
            continue
        entry = in_force.get(oid)
        if entry is not None and not reverified(entry):
            out.by_person += 1
            continue
        if qtype == WH:
            edge = kg.edge_position(int(edge_id))
            after = check_edge_wh(reply, json.loads(answers), names, edge, question).verdict.value
            if judge and after in (Verdict.CORRECT, Verdict.INCORRECT):
                out.judged += 1  # today's engine would ask the judge about it
                continue
        else:
            after = check_yes_no(reply, expected).verdict.value
        out.checked += 1
        before = category if entry is None else entry.value
        if after != before:
            out.changes[(before, after)] += 1
            found.append((oid, int(edge_id), before, after))
            if len(out.examples) < EXAMPLES:
                out.examples.append(Change(oid, question, reply, before, after))
    if store:
        out.entries = retry_busy(lambda: _store(conn, run, out, found, author, seen))
    return out


def _store(
    conn: sqlite3.Connection,
    run: KGLensRun,
    out: Reverified,
    found: list[tuple[int, int, str, str]],
    author: str,
    seen: int,
) -> list[int]:
    """The changed verdicts and the re-check itself, in one transaction; a reply that got a
    verdict entry since the scan (a person's, another re-check's) is left as it now is."""
    with transaction(conn):
        since = {
            int(r[0])
            for r in conn.execute(
                "SELECT observation_id FROM triage WHERE run_id = ? AND id > ? "
                "AND observation_id IS NOT NULL",
                (out.run_id, seen),
            )
        }
        keep = [c for c in found if c[0] not in since]
        entries = add_reverified(conn, run.kg_id, out.run_id, keep, author=author)
        conn.execute(
            "INSERT INTO verifier_recheck(run_id, rules, changed, author) VALUES (?,?,?,?)",
            (out.run_id, VERIFIER_RULES, len(keep), author),
        )
    out.moved = len(found) - len(keep)
    out.changes = Counter((before, after) for _, _, before, after in keep)
    return entries
