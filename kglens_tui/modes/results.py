"""A KONTEST or fact-eval run's comparison as a screen shows it (`Mode.results` with compare,
`UnitMode.comparison`): with the other finished runs of its mode on its KG that it is compared
with by default."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence

from rich.console import RenderableType

from kglens_tui.modes.compare_sets import left_out_note
from kglens_tui.runs.record import load_run

Partners = Callable[[sqlite3.Connection, int, list[int]], tuple[list[int], list[int]]]
"""The peers a run is compared with by default and those left out (sharing too few units)."""
CompareTables = Callable[[sqlite3.Connection, Sequence[int]], list[RenderableType]]
"""The tables setting runs side by side (the compare command's)."""


def peer_runs(
    conn: sqlite3.Connection, run_id: int, partners: Partners
) -> tuple[list[int], list[int]]:
    """The run with the other finished runs of its mode and KG (not template-3 runs) it is
    compared with by default, oldest first, and those left out (`partners`)."""
    run = load_run(conn, run_id)
    rows = conn.execute(
        "SELECT id FROM run WHERE mode = ? AND kg_id = ? AND id != ? AND status = 'finished' "
        "ORDER BY id",
        (run.mode, run.kg_id, run_id),
    )
    peers = [r for (r,) in rows if not getattr(load_run(conn, r).config, "template3", False)]
    if not peers:
        return [run_id], []
    chosen, left_out = partners(conn, run_id, peers)
    return sorted([run_id, *chosen]), left_out


def unit_comparison(
    conn: sqlite3.Connection,
    run_id: int,
    *,
    label: str,
    compare: str,
    unit: str,
    partners: Partners,
    tables: CompareTables,
) -> tuple[str, list[RenderableType]]:
    """The title and tables of a run's comparison with its peers (``compare``'s command's) over
    the ``unit``s every compared run answered."""
    run = load_run(conn, run_id)
    runs, left_out = peer_runs(conn, run_id, partners)
    if len(runs) < 2:
        raise ValueError(
            f"no other finished {label} run on KG '{run.kg_name}' to compare run {run_id} with"
        )
    note = left_out_note(run_id, left_out, unit, compare)
    shown: list[RenderableType] = [note] if note is not None else []
    title = label[:1].upper() + label[1:]
    return f"{title} runs {', '.join(map(str, runs))}", shown + tables(conn, runs)


class UnitResults:
    """`UnitMode.comparison` of a KONTEST-like mode, from what it declares: the
    ``unit`` its runs are compared on, its ``partners`` rule and its ``compare_tables``."""

    label: str
    compare: str
    unit: str
    """What runs of the mode are compared on (relations, questions)."""
    partners: Partners
    compare_tables: CompareTables

    def comparison(self, conn: sqlite3.Connection, run_id: int) -> tuple[str, list[RenderableType]]:
        return unit_comparison(
            conn,
            run_id,
            label=self.label,
            compare=self.compare,
            unit=self.unit,
            partners=self.partners,
            tables=self.compare_tables,
        )
