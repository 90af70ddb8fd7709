"""What a run command shows while a run goes (`RunProgressDisplay`): where it is (iterations or
units, requests, errors, time left, a bar where there is room) and under it the mode's figures
(`Mode.progress_lines`); nothing cut at any width."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.progress import Progress, Task, TimeRemainingColumn
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text

from kglens_tui.core.safetext import literal

MIN_BAR = 10
"""The narrowest progress bar the display draws; narrower, the line goes without it."""


def progress_lines(
    run: object, info: str | None, items: list[str], eta: str | None, width: int
) -> tuple[str, str, list[str]]:
    """The display ``width`` columns wide, as (head, info, lines): the first line is head
    ("run 5"), the progress bar when there is room for it, and ``info`` ("2/30 iterations ·
    640 req · 3 err") with the time left (``eta``; None once the run no longer goes: no time
    is left then) (``info`` None: "starting"); under it the mode's ``items``, on one line when
    that fits, else one line each. Nothing is cut: a line too long wraps."""
    head = f"run {run}"
    if info is None:
        return head, "starting", []
    where = info if eta is None else f"{info} · ETA {eta}"
    one = "  " + " · ".join(items)
    if not items:
        return head, where, []
    if cell_len(one) <= width:
        return head, where, [one]
    return head, where, [f"  {item}" for item in items]


class RunProgressDisplay(Progress):
    """A run command's live display: `progress_lines` of its one task, the bar drawn in the
    room the first line leaves (at least `MIN_BAR`, else none: a bar of Rich's progress
    columns cut the figures to "r… it…" at 80 columns). The task's fields: ``run`` (its id),
    ``info`` (None before the first snapshot), ``items`` (the mode's figures) and ``going``
    (false once the run has ended or paused: the time left is shown only while it goes)."""

    def get_renderables(self) -> Iterable[RenderableType]:
        for task in self.tasks:
            yield _RunDisplay(task)


@dataclass(frozen=True)
class _RunDisplay:
    task: Task

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        task = self.task
        eta = TimeRemainingColumn().render(task).plain if task.fields.get("going", True) else None
        head, info, lines = progress_lines(
            task.fields.get("run", "?"),
            task.fields.get("info"),
            list(task.fields.get("items", [])),
            eta,
            options.max_width,
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
