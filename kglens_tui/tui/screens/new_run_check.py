"""The new-run form's checks that read the workspace (the KG, a unit mode's plan): made on a
worker thread through a connection of their own, so the form never waits for them."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kglens_tui.kg.bundled import ensure_kg
from kglens_tui.kg.graph import load_kg, predicate_indexes
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.config import ConfigError
from kglens_tui.runs.one_plan import on_one_plan
from kglens_tui.runs.spend import cost_check
from kglens_tui.settings import Settings
from kglens_tui.store.connection import connect


def check_in_kg(conn: sqlite3.Connection, config: RunConfig, mode_config: Any) -> None:
    """The predicates the form names are the KG's and asked (ValueError naming the unknown
    and dead ones), and so are a KONTEST run's transitive predicates (ConfigError "transitive:
    ..."); the KG is loaded only when either names some (a bundled one imported first)."""
    transitive: list[str] = list(getattr(mode_config, "transitive", None) or [])
    if not config.predicates and not transitive:
        return
    ensure_kg(conn, config.kg)
    kg = load_kg(conn, config.kg)
    if config.predicates:
        predicate_indexes(kg, config.predicates, active=True)
    if transitive:
        try:
            predicate_indexes(kg, transitive)
        except ValueError as exc:
            raise ConfigError(f"transitive: {exc}") from None


def checked_estimate(
    db_path: Path,
    settings: Settings,
    config: RunConfig,
    mode_config: Any,
    more: Sequence[str] = (),
) -> tuple[list[str], bool]:
    """`check_in_kg`, then `cost_check` of each run the form starts (its mode's config, else
    the KGLens one, for the target and each of ``more``), through a connection of the calling
    thread (closed after): the estimates said (each named by its target when there are
    several) and whether any asks for confirmation."""
    conn = connect(db_path, migrate_schema=False)
    try:
        check_in_kg(conn, config, mode_config)
        first = config if mode_config is None else mode_config
        said, asks = [], False
        for target in [first.target, *more]:
            found, over = cost_check(on_one_plan(first, target, None), settings, conn)
            if found is not None:
                said.append(f"{target}: {found.text()}" if more else found.text())
            asks = asks or over
        return said, asks
    finally:
        conn.close()
