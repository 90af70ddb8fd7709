"""A KGLens run's figures as files a paper takes (matplotlib, no display): the paper's rates over
the run with their 95% intervals as bands (Fig. 3's axes), the KG-wide win rate per predicate with
intervals and chance, and the subjects x predicates grid of zero-sense rates (Fig. 6).

Labels are data (`core.figure_files`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from kglens_tui.analysis.groups import cross_table
from kglens_tui.analysis.kgwide_render import predicate_kg_wide
from kglens_tui.analysis.rundata import RunData
from kglens_tui.core.figure_files import (
    figure_label,
    new_figure,
    plain,
    rate_bars,
    write_figure_files,
)
from kglens_tui.core.intervals import wilson

if TYPE_CHECKING:
    from matplotlib.figure import Figure

GRID_ROWS = 40
"""At most this many subjects in the grid (the most examined), so a label stays readable."""


def rates_figure(data: RunData) -> Figure | None:
    """Win, zero-sense and all-sense over the examined edges after each iteration, against
    requests, each with its 95% Wilson band (None before a committed iteration)."""
    rows = data.conn.execute(
        "SELECT iteration, requests, examined, win_rate, zero_sense_rate, all_sense_rate "
        "FROM iteration WHERE run_id = ? ORDER BY iteration",
        (data.run.id,),
    ).fetchall()
    rows = [r for r in rows if r[2]]
    if not rows:
        return None
    requests = np.cumsum([r[1] or 0 for r in rows])
    examined = [int(r[2]) for r in rows]
    fig = new_figure(6.4, 3.6)
    ax = fig.add_subplot()
    for index, name in ((3, "win"), (4, "zero-sense"), (5, "all-sense")):
        value = np.array([r[index] for r in rows], dtype=np.float64)
        bands = [wilson(round(v * n), n) for v, n in zip(value, examined, strict=True)]
        ax.plot(requests, 100 * value, label=name)
        ax.fill_between(
            requests,
            [100 * (b.low or 0.0) for b in bands],
            [100 * (b.high or 0.0) for b in bands],
            alpha=0.2,
        )
    ax.set_xlabel("requests")
    ax.set_ylabel("% of the examined edges")
    ax.set_ylim(0, 100)
    ax.set_title(figure_label(f"Run {data.run.id}: the paper's rates as the run went on", 80))
    ax.legend(loc="best", fontsize="small")
    return fig


def predicate_figure(data: RunData) -> Figure | None:
    """The KG-wide win rate per predicate with its 95% interval and chance, worst first (None
    without a KG-wide estimate)."""
    per = sorted(predicate_kg_wide(data).items(), key=lambda item: (item[1].rate.win, item[0]))
    if not per:
        return None
    fig = new_figure(6.4, max(2.0, 0.28 * len(per) + 1.0))
    ax = fig.add_subplot()
    rate_bars(
        ax,
        [name for name, _ in per],
        [(kw.rate.win, *kw.rate.win_interval()) for _, kw in per],
        [kw.chance_win for _, kw in per],
        "tab:blue",
        "chance",
    )  # worst on top
    ax.set_xlabel("KG-wide win rate (%), 95% interval")
    ax.set_title(f"Run {data.run.id}: KG-wide win rate per predicate, worst first")
    return fig


def grid_figure(data: RunData) -> Figure | None:
    """Subjects x predicates, each cell the zero-sense rate of its examined edges (Fig. 6); the
    GRID_ROWS most examined subjects (None before an edge was examined)."""
    table = cross_table(data)
    rows = sorted(table.rows, key=lambda r: -r.rates.examined)[:GRID_ROWS]
    rows = [r for r in rows if r.rates.examined]
    if not rows or not table.cols:
        return None
    cols = table.cols
    grid = np.full((len(rows), len(cols)), np.nan)
    for i, r in enumerate(rows):
        for j, c in enumerate(cols):
            cell = table.cells.get((r.key, c.key))
            if cell is not None and cell.rates.examined:
                grid[i, j] = 100 * (cell.rates.zero_sense.value or 0.0)
    fig = new_figure(max(4.0, 0.35 * len(cols) + 2.5), max(3.0, 0.22 * len(rows) + 1.5))
    ax = fig.add_subplot()
    from matplotlib import colormaps

    cmap = colormaps["Reds"].with_extremes(bad="#d9d9d9")
    image = ax.imshow(np.ma.masked_invalid(grid), aspect="auto", cmap=cmap, vmin=0, vmax=100)
    ax.set_xticks(
        np.arange(len(cols)),
        [figure_label(c.label, 24) for c in cols],
        rotation=90,
        parse_math=False,
    )
    ax.set_yticks(np.arange(len(rows)), [figure_label(r.label, 30) for r in rows], parse_math=False)
    for tick in (*ax.get_xticklabels(), *ax.get_yticklabels()):
        tick.set_fontsize("x-small")
    fig.colorbar(image, ax=ax, label="zero-sense (%) of the examined edges")
    ax.set_title(f"Run {data.run.id}: zero-sense per subject and predicate (grey: none examined)")
    return fig


FIGURES: dict[str, Callable[[RunData], Figure | None]] = {
    "rates": plain(rates_figure),
    "predicates": plain(predicate_figure),
    "grid": plain(grid_figure),
}


def write_figures(
    data: RunData, folder: Path, formats: Sequence[str], *, force: bool = True
) -> list[Path]:
    """Each figure the run has in each format, as ``run-N-NAME.ext`` in ``folder``."""
    made = {name: make(data) for name, make in FIGURES.items()}
    return write_figure_files(made, folder, f"run-{data.run.id}", formats, force=force)
