"""What a run's figures say (`kglens export RUN --figures`), trial 2: the win line hidden under
all-sense, no chance, no n, no "simulated"; capped predicate rates drawn as plain 100% bars; grid
cells of one or two edges drawn as solid 0%/100%."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from kglens_tui.analysis import figures
from kglens_tui.analysis.grid import SMALL_N
from kglens_tui.analysis.groups import cross_table
from kglens_tui.analysis.kgwide_render import predicate_kg_wide
from kglens_tui.analysis.rundata import RunData, load_run_data
from kglens_tui.modes.kglens.rate_text import CAPPED, CAPPED_NOTE
from kglens_tui.store.connection import connect


@pytest.fixture
def run(stored_db: Path) -> Iterator[RunData]:
    """A stored simulated HARD run (sim:3)."""
    conn = connect(stored_db)
    yield load_run_data(conn, 1)
    conn.close()


def test_the_rates_figure_shows_every_line_chance_n_and_the_target(run: RunData) -> None:
    fig = figures.FIGURES["rates"](run)
    assert fig is not None
    ax = fig.axes[0]
    lines = {line.get_label(): line for line in ax.get_lines()}
    win, all_sense = lines["win"], lines["all-sense"]
    # where the two coincide, the dashed all-sense line leaves the wider win line visible
    assert win.get_linestyle() == "-" and all_sense.get_linestyle() == "--"
    assert win.get_linewidth() > all_sense.get_linewidth()
    flat = [
        line
        for line in ax.get_lines()
        if line.get_linestyle() == ":" and len(set(np.asarray(line.get_ydata()))) == 1
    ]
    assert len(flat) == 3  # each rate's chance
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(label.startswith("chance") for label in labels)
    assert any(label.startswith("KG-wide win") and "n=" in label for label in labels), labels
    examined = run.conn.execute(
        "SELECT examined FROM iteration WHERE run_id = 1 ORDER BY iteration DESC LIMIT 1"
    ).fetchone()[0]
    assert f"n = {examined:,} edges examined" in ax.get_xlabel()
    assert "simulated" in ax.get_title()


def test_the_predicates_figure_gives_n_and_marks_no_capped_census(run: RunData) -> None:
    """Each predicate's tick gives its n; the floor's census never leaves [0, 1], so no rate is
    capped and the figure says nothing of capping (a run stored before the rolling floor can
    be: `rate_text.capped_note`)."""
    per = predicate_kg_wide(run)
    capped = {name for name, kw in per.items() if kw.rate.capped}
    assert not capped and per
    fig = figures.FIGURES["predicates"](run)
    assert fig is not None
    ax = fig.axes[0]
    ticks = [t.get_text() for t in ax.get_yticklabels()]
    assert sorted(ticks) == sorted(
        f"{name}{CAPPED if name in capped else ''} (n={kw.rate.answers:,})"
        for name, kw in per.items()
    )
    assert CAPPED_NOTE not in " ".join(ax.get_xlabel().split())
    assert "simulated" in ax.get_title()


def test_grid_cells_of_few_edges_show_their_count_not_a_colour(run: RunData) -> None:
    fig = figures.FIGURES["grid"](run)
    assert fig is not None
    ax = fig.axes[0]
    table = cross_table(run)
    rows = sorted(table.rows, key=lambda r: -r.rates.examined)[: figures.GRID_ROWS]
    rows = [r for r in rows if r.rates.examined]
    few = {}
    for i, r in enumerate(rows):
        for j, c in enumerate(table.cols):
            cell = table.cells.get((r.key, c.key))
            if cell is not None and 0 < cell.rates.examined < SMALL_N:
                z = cell.rates.zero_sense
                few[(j, i)] = f"{z.k}/{z.n}"
    assert few  # the stored run has such cells
    shown = {
        (round(t.get_position()[0]), round(t.get_position()[1])): t.get_text() for t in ax.texts
    }
    assert shown == few
    colours = np.ma.getmaskarray(ax.images[0].get_array())
    assert all(colours[i, j] for j, i in few)  # no heat colour under a count
    assert "k/n on white" in ax.get_title()
