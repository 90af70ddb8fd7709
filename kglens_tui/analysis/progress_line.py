"""What `kglens probe --no-tui` shows while a run goes: where it is (iteration, requests,
errors, time left, a bar where there is room) and each rate with its 95% interval, what chance
scores on the questions asked so far and n; nothing cut at any width."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.progress import Progress, Task, TimeRemainingColumn
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text

from kglens_tui.analysis.groups import RATES
from kglens_tui.answers.bias import Baseline
from kglens_tui.core.intervals import stored_rate
from kglens_tui.core.safetext import literal
from kglens_tui.core.status import RunStatus
from kglens_tui.llm.usage import calls_text
from kglens_tui.textfmt import pct, rate_ci

if TYPE_CHECKING:
    from kglens_tui.modes.kglens.engine import ProbeSnapshot


@dataclass(frozen=True)
class ProbeFigures:
    """What `kglens probe --no-tui` shows of a run after an iteration: where it is and, for each
    rate, its value, 95% interval and what chance scores on the questions asked so far."""

    iteration: int
    iterations: int
    requests: str
    errors: int
    status: str
    examined: int
    rates: tuple[tuple[str, str, str], ...]
    """(name, "46.6% [41.0–52.3]", chance "50.0%") of each rate; empty before any edge is
    examined."""


def probe_figures(snap: ProbeSnapshot, baseline: Baseline | None) -> ProbeFigures:
    """A probe snapshot's figures: each rate's interval over the edges examined
    (`core.intervals.stored_rate`) and chance (``baseline``: the engine's, blind guessing on
    the questions asked, each ask independent, as `kglens report` gives it)."""
    r = snap.rates
    shown = []
    if r is not None and r.examined:
        for name, field, chance_field in RATES:
            value = getattr(r, field)
            p = stored_rate(value, r.examined) if value is not None else None
            shown.append(
                (
                    name,
                    rate_ci(*p.bounds) if p is not None else "—",
                    pct(getattr(baseline, chance_field) if baseline is not None else None),
                )
            )
    return ProbeFigures(
        iteration=snap.iteration,
        iterations=snap.iterations_total,
        requests=calls_text(snap.progress.counters.requests, snap.helpers),
        errors=snap.progress.counters.errors,
        status="" if snap.status == RunStatus.RUNNING else str(snap.status),
        examined=r.examined if r is not None else 0,
        rates=tuple(shown),
    )


MIN_BAR = 10
"""The narrowest progress bar `probe --no-tui` draws; narrower, the line goes without it."""


def probe_lines(
    figures: ProbeFigures | None, run: object, eta: str, width: int
) -> tuple[str, str, list[str]]:
    """`probe --no-tui`'s display ``width`` columns wide, as (head, info, lines): the first line
    is head ("run 5"), the progress bar when there is room for it (`ProbeProgress`), and info
    ("it 2/30 · 640 req · 3 err · ETA 0:00:41"); under it the three rates, each with its 95%
    interval and what chance scores, and n: on one line when that fits, else one line per
    rate. Nothing is cut: a line too long for the terminal wraps."""
    head = f"run {run}"
    if figures is None:
        return head, "starting", []
    info = (
        f"it {figures.iteration}/{figures.iterations} · {figures.requests} req · "
        f"{figures.errors:,} err · ETA {eta}" + (f" · {figures.status}" if figures.status else "")
    )
    if not figures.rates:
        return head, info, ["  no edge examined yet"]
    n = f"n={figures.examined:,} edges examined"
    one = " · ".join(f"{name} {rate} (chance {chance})" for name, rate, chance in figures.rates)
    if cell_len(f"  {one} · {n}") <= width:
        return head, info, [f"  {one} · {n}"]
    wide = max(len(name) for name, _, _ in figures.rates)
    rows = [f"  {name:<{wide}} {rate} · chance {chance}" for name, rate, chance in figures.rates]
    if cell_len(f"{rows[0]} · {n}") <= width:
        rows[0] += f" · {n}"
    else:
        rows.append(f"  {n}")
    return head, info, rows


class ProbeProgress(Progress):
    """`kglens probe --no-tui`'s live display: `probe_lines` of its one task, the bar drawn in
    the room the first line leaves (at least `MIN_BAR`, else none: a bar of Rich's progress
    columns cut the figures to "r… it…" at 80 columns). The task's fields: ``run`` (its id)
    and ``figures`` (`ProbeFigures`, None before the first iteration)."""

    def get_renderables(self) -> Iterable[RenderableType]:
        for task in self.tasks:
            yield _ProbeDisplay(task)


@dataclass(frozen=True)
class _ProbeDisplay:
    task: Task

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        task = self.task
        eta = TimeRemainingColumn().render(task).plain
        head, info, lines = probe_lines(
            task.fields.get("figures"), task.fields.get("run", "?"), eta, options.max_width
        )
        room = options.max_width - cell_len(head) - cell_len(info) - 2
        if room >= MIN_BAR:
            grid = Table.grid(padding=(0, 1))
            grid.add_column(no_wrap=True)
            grid.add_column(width=room, no_wrap=True)
            grid.add_column(no_wrap=True)
            bar = ProgressBar(total=task.total, completed=task.completed, width=room)
            grid.add_row(literal(head, "bold"), bar, literal(info))
            yield grid
        else:
            yield Text.assemble(literal(head, "bold"), " ", literal(info))
        for line in lines:
            yield literal(line)
