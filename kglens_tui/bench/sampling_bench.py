"""`kglens bench sampling`: run the efficiency study, print it, write CSV and SVG, then measure
throughput with synchronous against continuous scheduling."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from kglens_tui.bench.sampling_report import print_result, write_csv, write_plot
from kglens_tui.bench.sampling_study import StudyResult, load_ground_truth, methods_named, run_study
from kglens_tui.core.console import console, err_console
from kglens_tui.core.safetext import markup_literal
from kglens_tui.core.safewrite import check_destination


def parse_ints(text: str, what: str) -> list[int]:
    """'200,600' -> [200, 600]; every value at least 1."""
    try:
        values = [int(part.strip().replace("_", "")) for part in text.split(",") if part.strip()]
    except ValueError:
        raise ValueError(
            f"{what} must be a comma-separated list of integers (got {text!r})"
        ) from None
    if not values or min(values) < 1:
        raise ValueError(f"{what} must be a comma-separated list of integers of at least 1")
    return values


def run_sampling_bench(
    conn: sqlite3.Connection,
    *,
    kg: str = "country",
    subset: str | None = None,
    ground_truth: str = "sim",
    shuffle: bool = False,
    methods: str = "all",
    budget_epochs: float = 6.0,
    reference_epochs: float = 4.5,
    batch_size: int = 64,
    seeds: int = 3,
    ks: str = "200,600",
    csv_path: Path | None = None,
    plot_path: Path | None = None,
    throughput: bool = True,
    throughput_iterations: int = 10,
    force: bool = False,
) -> StudyResult:
    """The whole benchmark; returns the study's curves. Raises ValueError on bad options and
    ExportError on an output path it may not write (checked before the study runs)."""
    if seeds < 1:
        raise ValueError("--seeds must be at least 1")
    if plot_path is not None and plot_path.suffix.lower() != ".svg":
        raise ValueError(f"--plot writes SVG only (got {plot_path.name}); name it *.svg")
    for path in (csv_path, plot_path):
        if path is not None:
            check_destination(path, force)
    k_values = parse_ints(ks, "--k")
    chosen = methods_named(methods)
    truth = load_ground_truth(conn, ground_truth, kg, subset)
    if shuffle:
        truth = truth.shuffled()
    progress = Progress(
        TextColumn("[bold]simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("method × seed runs"),
        TimeElapsedColumn(),
        console=err_console,
        transient=True,
    )
    task = progress.add_task("study", total=len(chosen) * seeds)
    with progress:
        result = run_study(
            truth,
            chosen,
            budget_epochs=budget_epochs,
            batch_size=batch_size,
            seeds=tuple(range(seeds)),
            ks=tuple(k_values),
            reference_epochs=reference_epochs,
            progress=lambda done, total: progress.update(task, completed=done, total=total),
        )
    print_result(result, console)
    if csv_path is not None:
        rows = write_csv(result, csv_path, force=force)
        console.print(f"curves: {rows:,} rows written to {markup_literal(csv_path)}")
    if plot_path is not None:
        write_plot(result, plot_path, force=force)
        console.print(f"chart written to {markup_literal(plot_path)}")
    if throughput:
        from kglens_tui.bench.sampling_throughput import run_throughput

        console.print("[dim]throughput: synchronous then continuous scheduling…[/]")
        run_throughput(console, iterations=throughput_iterations)
    return result
