"""`kglens bench sampling`: run the efficiency study, print it, write CSV and SVG, then measure
throughput with synchronous against continuous scheduling."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from kglens_tui.bench.replay_progress import replay_progress
from kglens_tui.bench.sampling_report import (
    check_plot_path,
    continuous_table,
    print_result,
    print_suite,
    write_csv,
    write_plot,
)
from kglens_tui.bench.sampling_study import (
    BRUTE_FORCE,
    CONTINUOUS_METHODS,
    StudyResult,
    load_ground_truth,
    methods_named,
    run_study,
)
from kglens_tui.bench.truths import (
    SUITE_SIM,
    SUITE_STORED,
    UnreachableSetting,
    apply_setting,
    parse_settings,
)
from kglens_tui.core.console import console
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
    predicates: str | None = None,
    settings: str = "auto",
    shuffle: bool = False,
    methods: str = "all",
    budget_epochs: float = 6.0,
    reference_epochs: float = 4.5,
    batch_size: int = 64,
    seeds: int = 5,
    ks: str = "100,200",
    csv_path: Path | None = None,
    plot_path: Path | None = None,
    throughput: bool = True,
    throughput_iterations: int = 10,
    force: bool = False,
    continuous: str | None = None,
) -> list[StudyResult]:
    """The whole benchmark, once per truth setting; returns the studies' curves. Raises
    ValueError on bad options and ExportError on an output path it may not write (checked before
    the study runs). `settings` ``auto`` is the suite for the kind of truth (`SUITE_SIM` or
    `SUITE_STORED`); `shuffle` is ``--settings shuffled``; `predicates` keeps the truth's edges of
    those predicates only (``--predicates``)."""
    if seeds < 1:
        raise ValueError("--seeds must be at least 1")
    if throughput_iterations < 0:
        raise ValueError(
            f"--throughput-iterations must be 0 (skip) or more (got {throughput_iterations})"
        )
    if plot_path is not None:
        check_plot_path(plot_path)
    if csv_path is not None:  # before the truth is loaded and dealt (seconds on a big KG)
        check_destination(csv_path, force)
    k_values = parse_ints(ks, "--k")
    chosen = methods_named(methods)
    truth = load_ground_truth(conn, ground_truth, kg, subset, predicates)
    if shuffle:
        if settings.strip() not in ("auto", "shuffled"):
            raise ValueError("--shuffle-truth is --settings shuffled: give one of them")
        settings = "shuffled"
    suite = settings.strip() == "auto"
    if suite:
        settings = SUITE_SIM if truth.simulated else SUITE_STORED
    truths = []
    for setting in parse_settings(settings):
        try:
            truths.append(apply_setting(truth, setting))
        except UnreachableSetting as exc:
            if not suite:
                raise
            console.print(f"[yellow]left out:[/] {markup_literal(exc)}")
    # the first truth's chart at the given path, the others' beside it
    plots = (
        []
        if plot_path is None
        else [plot_path, *(setting_path(plot_path, t.setting) for t in truths[1:])]
    )
    for path in plots:
        check_destination(path, force)
    continuous = CONTINUOUS_METHODS if continuous is None else continuous
    late = methods_named(continuous)[1:] if continuous.strip() else []
    extra = 2 * len(late) * seeds + seeds if late else 0
    results = []
    with replay_progress(
        "simulating", "truth × method × seed runs", len(truths), len(chosen) * seeds, extra
    ) as for_truth:
        for i, dealt in enumerate(truths):
            results.append(
                run_study(
                    dealt,
                    chosen,
                    budget_epochs=budget_epochs,
                    batch_size=batch_size,
                    seeds=tuple(range(seeds)),
                    ks=tuple(k_values),
                    reference_epochs=reference_epochs,
                    progress=for_truth(i),
                )
            )
        if late:
            cost = run_study(
                truths[0],
                [BRUTE_FORCE, *(x for m in late for x in (m, m.continuous()))],
                budget_epochs=budget_epochs,
                batch_size=batch_size,
                seeds=tuple(range(seeds)),
                ks=tuple(k_values),
                reference_epochs=reference_epochs,
                progress=for_truth(len(truths)),
            )
    for result in results:
        print_result(result, console, details=len(results) == 1)
    if len(results) > 1:
        print_suite(results, console)
    if late:
        console.print(continuous_table(cost))
    if csv_path is not None:
        rows = write_csv(results, csv_path, force=force)
        console.print(f"curves: {rows:,} rows written to {markup_literal(csv_path)}")
    for result, path in zip(results, plots, strict=False):
        write_plot(result, path, force=force)
        console.print(f"chart written to {markup_literal(path)}")
    if throughput and throughput_iterations:
        from kglens_tui.bench.sampling_throughput import run_throughput

        console.print("[dim]throughput: synchronous then continuous scheduling…[/]")
        run_throughput(console, iterations=throughput_iterations)
    return results


def setting_path(path: Path, setting: str) -> Path:
    """sampling.svg -> sampling-corr0.4.svg: one chart per truth setting."""
    slug = re.sub(r"[^a-z0-9.]+", "", setting.lower().replace("as-is", "asis"))
    return path.with_name(f"{path.stem}-{slug}{path.suffix}")
