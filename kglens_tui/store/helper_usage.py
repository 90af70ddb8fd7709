"""Helper LLM usage stored per run and role (table helper_usage)."""

from __future__ import annotations

import sqlite3

from kglens_tui.llm.usage import Counters


def add_usage(conn: sqlite3.Connection, run_id: int, usage: dict[str, Counters]) -> None:
    """Add usage to the run's stored counts (inside the caller's transaction)."""
    conn.executemany(
        "INSERT INTO helper_usage(run_id, role, requests, errors, prompt_tokens, "
        "completion_tokens) VALUES (?,?,?,?,?,?) ON CONFLICT(run_id, role) DO UPDATE SET "
        "requests = requests + excluded.requests, errors = errors + excluded.errors, "
        "prompt_tokens = prompt_tokens + excluded.prompt_tokens, "
        "completion_tokens = completion_tokens + excluded.completion_tokens",
        [
            (run_id, role, u.requests, u.errors, u.prompt_tokens, u.completion_tokens)
            for role, u in usage.items()
            if u.requests
        ],
    )


def load_usage(conn: sqlite3.Connection, run_id: int) -> dict[str, Counters]:
    """The run's stored helper usage by role."""
    rows = conn.execute(
        "SELECT role, requests, errors, prompt_tokens, completion_tokens FROM helper_usage "
        "WHERE run_id = ? ORDER BY role",
        (run_id,),
    ).fetchall()
    return {
        str(role): Counters(
            requests=int(requests),
            errors=int(errors),
            prompt_tokens=int(prompt),
            completion_tokens=int(completion),
        )
        for role, requests, errors, prompt, completion in rows
    }
