"""Under which verifier rules a run's verdicts stand (`kglens_tui.core.verdict.VERIFIER_RULES`),
and what a report says when they are older than today's."""

from __future__ import annotations

import sqlite3

from kglens_tui.core.console import suggested
from kglens_tui.core.verdict import VERIFIER_RULES
from kglens_tui.runs.config import ModeConfig
from kglens_tui.runs.record import RunRecord, manifest_count
from kglens_tui.runs.registry import stores_observations


def verdict_rules(conn: sqlite3.Connection, run: RunRecord[ModeConfig]) -> int:
    """The verifier rules a run's verdicts stand under: its manifest's (0 when it has none), or
    a later stored re-check's (`kglens triage reverify`)."""
    made = manifest_count(run, "verifier_rules")
    row = conn.execute(
        "SELECT MAX(rules) FROM verifier_recheck WHERE run_id = ?", (run.id,)
    ).fetchone()
    return max(made, int(row[0] or 0))


def stale_verdicts_note(conn: sqlite3.Connection, run: RunRecord[ModeConfig]) -> str | None:
    """What to do about a run whose verdicts stand under older verifier rules than today's (a
    KGLens run: re-check them; another mode's: run it again); None when they are current."""
    rules = verdict_rules(conn, run)
    if rules >= VERIFIER_RULES:
        return None
    given = "before rules were numbered" if rules == 0 else f"rules {rules}"
    remedy = (
        f"`{suggested(f'triage reverify {run.id}')}` re-checks them (as triage)"
        if stores_observations(run.mode)
        else "a new run judges its replies by today's"
    )
    return (
        f"This run's verdicts were given by an earlier verifier ({given}; today's: rules "
        f"{VERIFIER_RULES}), which may judge some replies differently: {remedy}."
    )
