"""The transient progress bar of the replay studies (`bench sampling`, `bench rates`): one bar
over truth settings x methods x replays, on stderr."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from kglens_tui.core.console import err_console

Advance = Callable[[int, int], None]
"""A study's progress callback: (replays done, replays in all) of one truth setting."""


@contextmanager
def replay_progress(
    verb: str, unit: str, truths: int, per_truth: int, extra: int = 0
) -> Iterator[Callable[[int], Advance]]:
    """A bar over ``truths`` settings of ``per_truth`` replays each (and ``extra`` after them);
    yields, for a setting's index, the callback that moves the bar through that setting (the
    index equal to ``truths``: through the extra ones)."""
    progress = Progress(
        TextColumn(f"[bold]{verb}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(unit),
        TimeElapsedColumn(),
        console=err_console,
        transient=True,
    )
    task = progress.add_task(verb, total=truths * per_truth + extra)

    def for_truth(i: int) -> Advance:
        def advance(done: int, _total: int) -> None:
            progress.update(task, completed=i * per_truth + done)

        return advance

    with progress:
        yield for_truth
