"""A KGLens run's figures as files a paper takes (matplotlib, no display): the paper's rates over
the run with their 95% intervals as bands and their chance (Fig. 3's axes), the KG-wide win rate
per predicate with intervals, chance and n, and the subjects x predicates grid of zero-sense
rates (Fig. 6). Each title names the run and its target, marked when simulated.

Labels are data (`core.figure_files`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from textwrap import fill
from typing import TYPE_CHECKING

import numpy as np

from kglens_tui.analysis.compare import run_chance
from kglens_tui.analysis.grid import SMALL_N
from kglens_tui.analysis.groups import cross_table
from kglens_tui.analysis.kgwide import kg_wide
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
from kglens_tui.modes.kglens.rate_text import CAPPED, capped_note
from kglens_tui.textfmt import counted, simulated_mark

if TYPE_CHECKING:
    from matplotlib.figure import Figure

GRID_ROWS = 40
"""At most this many subjects in the grid (the most examined), so a label stays readable."""


def _run_title(data: RunData, what: str) -> str:
    """A figure's title: the run and its target (marked when simulated), then what it shows."""
    run = data.run
    target = figure_label(run.target_label, 40) + simulated_mark(run.target_label, run.simulated)
    return f"Run {run.id}, {target}:\n{what}"


RATE_STYLES = (
    (3, "win", "win_rate", "tab:blue", "-", 2.6),
    (4, "zero-sense", "zero_sense", "tab:orange", "-", 1.6),
    (5, "all-sense", "all_sense", "tab:green", "--", 1.6),
)
"""The rates figure's lines: (iteration column, label, `Baseline` field of its chance, colour,
line style, width). All-sense is dashed over a wider win line: with each edge asked once the two
coincide, and both stay visible."""


def rates_figure(data: RunData) -> Figure | None:
    """Win, zero-sense and all-sense over the examined edges after each iteration, against
    requests, each with its 95% Wilson band and its chance (blind guessing on the questions the
    run asked) as a dotted line, the examined edges at the end, and the KG-wide win rate with its
    interval at the right (None before a committed iteration)."""
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
    chance = run_chance(data, adjusted=False)
    fig = new_figure(6.4, 3.8)
    ax = fig.add_subplot()
    for index, name, field, colour, style, width in RATE_STYLES:
        value = np.array([r[index] for r in rows], dtype=np.float64)
        bands = [wilson(round(v * n), n) for v, n in zip(value, examined, strict=True)]
        ax.plot(requests, 100 * value, label=name, color=colour, linestyle=style, linewidth=width)
        ax.fill_between(
            requests,
            [100 * (b.low or 0.0) for b in bands],
            [100 * (b.high or 0.0) for b in bands],
            color=colour,
            alpha=0.15,
        )
        level = getattr(chance, field)
        if level is not None:
            ax.axhline(100 * level, color=colour, linestyle=":", linewidth=0.8 * width)
    ax.plot([], [], color="grey", linestyle=":", label="chance (dotted, the rate's colour)")
    wide = kg_wide(data, adjusted=False)
    if wide is not None:
        low, high = wide.rate.win_interval()
        mark = CAPPED if wide.rate.capped else ""
        ax.errorbar(
            [requests[-1]],
            [100 * wide.rate.win],
            yerr=[[100 * (wide.rate.win - low)], [100 * (high - wide.rate.win)]],
            fmt="D",
            color="black",
            capsize=3,
            label=f"KG-wide win{mark}, 95% interval (n={counted(wide.rate.answers, 'answer')})",
        )
    ax.set_xlabel(f"requests (n = {examined[-1]:,} edges examined at the end)")
    ax.set_ylabel("% of the examined edges")
    ax.set_ylim(0, 100)
    ax.set_title(_run_title(data, "the paper's rates as the run went on"), fontsize="medium")
    ax.legend(loc="best", fontsize="x-small")
    return fig


def predicate_figure(data: RunData) -> Figure | None:
    """The KG-wide win rate per predicate with its 95% interval, chance and answers (n), worst
    first; a rate held at 0% or 100% marked "†" and the mark explained (None without a KG-wide
    estimate)."""
    per = sorted(
        predicate_kg_wide(data).items(), key=lambda item: (*item[1].surely_worst(), item[0])
    )
    if not per:
        return None
    fig = new_figure(6.4, max(2.0, 0.28 * len(per) + 1.2))
    ax = fig.add_subplot()
    names = [
        f"{figure_label(name, 24)}{CAPPED if kw.rate.capped else ''} (n={kw.rate.answers:,})"
        for name, kw in per
    ]
    rate_bars(
        ax,
        names,
        [(kw.rate.win, *kw.rate.win_interval()) for _, kw in per],
        [kw.chance_win for _, kw in per],
        "tab:blue",
        "chance",
    )  # worst on top
    note = capped_note(kw.rate for _, kw in per)
    ax.set_xlabel(
        "KG-wide win rate (%), 95% interval; n: answers" + (f"\n{fill(note, 60)}" if note else "")
    )
    ax.set_title(
        _run_title(data, "KG-wide win rate per predicate, surely worst first"), fontsize="medium"
    )
    return fig


def grid_figure(data: RunData) -> Figure | None:
    """Subjects x predicates, each cell the zero-sense rate of its examined edges (Fig. 6), a
    cell of fewer than `grid.SMALL_N` examined edges as its count (zero-sense of examined) on
    white instead of a colour; the GRID_ROWS most examined subjects (None before an edge was
    examined)."""
    table = cross_table(data)
    rows = sorted(table.rows, key=lambda r: -r.rates.examined)[:GRID_ROWS]
    rows = [r for r in rows if r.rates.examined]
    if not rows or not table.cols:
        return None
    cols = table.cols
    grid = np.full((len(rows), len(cols)), np.nan)
    few = np.full((len(rows), len(cols)), np.nan)
    counts = []
    for i, r in enumerate(rows):
        for j, c in enumerate(cols):
            cell = table.cells.get((r.key, c.key))
            if cell is None or not cell.rates.examined:
                continue
            zero = cell.rates.zero_sense
            if zero.n < SMALL_N:
                few[i, j] = 1.0
                counts.append((j, i, f"{zero.k}/{zero.n}"))
            else:
                grid[i, j] = 100 * (zero.value or 0.0)
    fig = new_figure(max(4.0, 0.35 * len(cols) + 2.5), max(3.0, 0.22 * len(rows) + 1.5))
    ax = fig.add_subplot()
    from matplotlib import colormaps
    from matplotlib.colors import ListedColormap

    ax.set_facecolor(NONE_EXAMINED)
    reds = colormaps["Reds"]
    cmap = ListedColormap(reds(np.linspace(0.12, 1.0, 256))).with_extremes(bad=(0, 0, 0, 0))
    image = ax.imshow(np.ma.masked_invalid(grid), aspect="auto", cmap=cmap, vmin=0, vmax=100)
    white = ListedColormap(["white"]).with_extremes(bad=(0, 0, 0, 0))
    ax.imshow(np.ma.masked_invalid(few), aspect="auto", cmap=white, vmin=0, vmax=1)
    for x, y, text in counts:
        ax.text(x, y, text, ha="center", va="center", fontsize=5)
    ax.set_xticks(
        np.arange(len(cols)),
        [figure_label(c.label, 24) for c in cols],
        rotation=90,
        parse_math=False,
    )
    ax.set_yticks(np.arange(len(rows)), [figure_label(r.label, 30) for r in rows], parse_math=False)
    for tick in (*ax.get_xticklabels(), *ax.get_yticklabels()):
        tick.set_fontsize("x-small")
    fig.colorbar(image, ax=ax, label=f"zero-sense (%) of the examined edges, n ≥ {SMALL_N}")
    ax.set_title(
        _run_title(data, "zero-sense per subject and predicate")
        + f"; grey: none examined;\nk/n on white: k zero-sense of n < {SMALL_N} examined edges",
        fontsize="small",
    )
    return fig


NONE_EXAMINED = "#a6a6a6"
"""The grid's colour for a cell none of whose edges was examined (darker than the palest red)."""


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
