"""The progress of the replay studies (`bench sampling`, `bench rates`) over truth settings x
methods x replays, on stderr: a transient bar on a terminal, else a line at every tenth of the
work (a study written to a file runs for many minutes)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from time import monotonic

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
    index equal to ``truths``: through the extra ones). Off a terminal, `progress_lines`."""
    total = truths * per_truth + extra
    if not err_console.is_terminal:
        yield progress_lines(verb, unit, per_truth, total)
        return
    progress = Progress(
        TextColumn(f"[bold]{verb}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(unit),
        TimeElapsedColumn(),
        console=err_console,
        transient=True,
    )
    task = progress.add_task(verb, total=total)

    def for_truth(i: int) -> Advance:
        def advance(done: int, _total: int) -> None:
            progress.update(task, completed=i * per_truth + done)

        return advance

    with progress:
        yield for_truth


def progress_lines(verb: str, unit: str, per_truth: int, total: int) -> Callable[[int], Advance]:
    """For a setting's index, the callback that prints "verb: done of total unit (share),
    elapsed" on stderr each time the work passes another tenth of ``total``."""
    start = monotonic()
    shown = [0]

    def for_truth(i: int) -> Advance:
        def advance(done: int, _total: int) -> None:
            completed = i * per_truth + done
            tenth = completed * 10 // max(total, 1)
            if tenth > shown[0]:
                shown[0] = tenth
                minutes, seconds = divmod(int(monotonic() - start), 60)
                err_console.print(
                    f"{verb}: {completed:,} of {total:,} {unit} ({completed / total:.0%}), "
                    f"{minutes}m{seconds:02d}s",
                    markup=False,
                )

        return advance

    return for_truth
