"""Output of `kglens bench sampling`: terminal tables, CSV of the curves, the SVG chart, and the
curves as plain data for a TUI chart."""

from __future__ import annotations

import csv
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.text import Text

from kglens_tui.analysis.efficiency import requests_to_reach
from kglens_tui.bench.sampling_study import (
    BRUTE_FORCE,
    CONTINUOUS,
    Method,
    Reach,
    StudyResult,
    default_method,
)
from kglens_tui.bench.sampling_svg import PALETTE, Panel, Series, render_svg
from kglens_tui.core.safetext import LiteralTable, markup_literal
from kglens_tui.core.safewrite import atomic_output, write_text
from kglens_tui.modes.kglens.samplers import Sampler

SAMPLER_COLOURS = {
    Sampler.BRUTE_FORCE: "#222222",
    Sampler.THOMPSON: "#d62728",
    Sampler.EPSILON_GREEDY: "#2ca02c",
    Sampler.MONTE_CARLO: "#1f77b4",
}


_METRIC_LABELS = (
    ("g_top", "top-{} blind-spot gain G", "G@{}"),
    ("mse_examined", "examined MSE", "MSE exam."),
    ("mse_top", "top-{} MSE", "MSE@{}"),
    ("recall_failed_top", "always-failed recall@{}", "failed@{}"),
    ("recall_top", "top-{} recall", "recall@{}"),
)
"""Metric name prefix -> (chart label, table header); {} is the k after the prefix."""


def _label(metric: str, which: int) -> str:
    for prefix, *labels in _METRIC_LABELS:
        if metric.startswith(prefix):
            return labels[which].format(metric[len(prefix) :])
    return metric


def metric_label(metric: str) -> str:
    """``mse_top200`` -> ``top-200 MSE`` and so on."""
    return _label(metric, 0)


def short_label(metric: str) -> str:
    """``mse_top200`` -> ``MSE@200`` and so on, for table headers."""
    return _label(metric, 1)


@dataclass(frozen=True)
class CurveData:
    """One method's seed mean and min-max spread of one metric over requests (for a chart)."""

    method: str
    requests: np.ndarray
    mean: np.ndarray
    low: np.ndarray
    high: np.ndarray


def curve_data(result: StudyResult, metric: str) -> list[CurveData]:
    """Every method's curve of one metric."""
    out = []
    for method in result.methods:
        values = result.curves[method.name][metric]
        out.append(
            CurveData(
                method.name,
                result.requests,
                result.mean_curve(method.name, metric),
                _column_reduce(values, np.min),
                _column_reduce(values, np.max),
            )
        )
    return out


def _column_reduce(values: np.ndarray, reduce: Callable[[np.ndarray], float]) -> np.ndarray:
    """Reduce seeds x points over seeds, ignoring NaN; NaN where a column has no value."""
    out = np.full(values.shape[1], np.nan)
    ok = np.isfinite(values).any(axis=0)
    if ok.any():
        filled = np.where(np.isfinite(values), values, np.nan)[:, ok]
        out[ok] = [reduce(col[np.isfinite(col)]) for col in filled.T]
    return out


def method_colours(result: StudyResult) -> dict[str, str]:
    """Paper methods: one colour per sampler; methods past the paper: their own colours."""
    spare = iter(PALETTE[4:])
    return {
        m.name: SAMPLER_COLOURS[m.sampler] if m.paper else next(spare, "#7f7f7f")
        for m in result.methods
    }


def _reach_text(reach: Reach) -> Text:
    got = reach.reached
    n = len(reach.fractions)
    if not got:
        return Text("—", "dim")
    if len(got) < n:
        return Text.assemble(f"{np.mean(got):.0%} ", (f"{len(got)}/{n}", "dim"))
    if n == 1:
        return Text(f"{got[0]:.0%}")
    return Text(f"{np.mean(got) * 100:.0f}±{np.std(got, ddof=1) * 100:.0f}%")


def value_text(values: np.ndarray, percent: bool) -> str:
    """The mean of the finite ``values`` ± their standard deviation, as a percentage with one
    decimal or with four decimals; a mean that rounds to zero reads 0, never -0."""
    values = values[np.isfinite(values)]
    if len(values) == 0:
        return "—"
    scale, digits = (100.0, 1) if percent else (1.0, 4)
    mean = round(float(np.mean(values)) * scale, digits) + 0.0
    unit = "%" if percent else ""
    if len(values) == 1:
        return f"{mean:.{digits}f}{unit}"
    sd = float(np.std(values, ddof=1)) * scale
    return f"{mean:.{digits}f}±{sd:.{digits}f}{unit}"


def _has_values(result: StudyResult, metric: str) -> bool:
    """False for metrics without a value (no always-failed edge) or trivial ones (recall with a
    k that covers every edge)."""
    if metric.startswith(("recall", "g_")) and int(metric.rsplit("top", 1)[1]) >= result.n_edges:
        return False
    return bool(np.isfinite(result.curves[BRUTE_FORCE.name][metric]).any())


def _percent(metric: str) -> bool:
    return metric.startswith("recall")


def _named(result: StudyResult, prefix: str) -> list[str]:
    return [m for m in result.metric_names if m.startswith(prefix)]


def _name(method: Method) -> Text:
    if method.name == default_method().name:
        return Text.assemble(method.name, (" (default)", "bold"))
    return Text(method.name) if method.paper else Text.assemble(method.name, (" (new)", "dim"))


def reach_table(result: StudyResult) -> LiteralTable:
    """The headline: requests to match brute force at the reference epochs, per metric."""
    ref = result.reference_requests
    metrics = [
        m
        for m in result.metric_names
        if not m.startswith("recall_failed") and _has_values(result, m)
    ]
    table = LiteralTable(
        title=f"Requests to match brute force after {result.reference_epochs:g} epochs "
        f"({ref:,.0f} requests), as a share of them (mean±sd over {len(result.seeds)} seeds; "
        "lower is better)",
        title_justify="left",
        caption="Reached = at least as good as the target from then on to the end of the budget; "
        "— = not reached; n/N = reached with n of N seeds. "
        "Brute force's targets: "
        + ", ".join(
            f"{short_label(m)} {result.target(m):.4g}±{result.target_error(m):.2g}" for m in metrics
        )
        + " (± its standard error over the seeds: coming within it counts as matching).",
    )
    table.add_column("method", no_wrap=True)
    for metric in metrics:
        table.add_column(short_label(metric), justify="right")
    for method in result.methods:
        table.add_row(_name(method), *(_reach_text(result.reach(method.name, m)) for m in metrics))
    return table


def values_tables(result: StudyResult) -> list[LiteralTable]:
    """Every metric at the reference request count: errors, then rankings."""
    ref = result.reference_requests
    groups = (
        ("blind-spot gain G@k (higher is better)", _named(result, "g_")),
        ("MSE (lower is better)", [m for m in result.metric_names if m.startswith("mse")]),
        ("recall (higher is better)", [m for m in result.metric_names if m.startswith("recall")]),
    )
    tables = []
    for what, metrics in groups:
        metrics = [m for m in metrics if _has_values(result, m)]
        table = LiteralTable(
            title=f"{what} after {ref:,.0f} requests ({result.reference_epochs:g} brute-force "
            f"epochs), mean±sd over {len(result.seeds)} seeds",
            title_justify="left",
        )
        table.add_column("method", no_wrap=True)
        for metric in metrics:
            table.add_column(short_label(metric), justify="right")
        table.add_row(
            Text("prior Beta(1,1), no request", "dim"),
            *(value_text(result.curves[BRUTE_FORCE.name][m][:, 0], _percent(m)) for m in metrics),
        )
        for method in result.methods:
            table.add_row(
                _name(method),
                *(value_text(result.at(method.name, m, ref), _percent(m)) for m in metrics),
            )
        tables.append(table)
    return tables


def prior_note(result: StudyResult) -> str:
    """How long brute force takes to beat the prior mean 0.5 on the paper's MSE."""
    parts = []
    for metric in (m for m in result.metric_names if m.startswith("mse_top")):
        curve = result.mean_curve(BRUTE_FORCE.name, metric)
        prior = float(curve[0])
        got = requests_to_reach(result.requests, curve, prior * (1 - 1e-9))
        when = "never" if got is None else f"for good after {got / result.epoch:.2f} epochs"
        parts.append(
            f"{metric_label(metric)} of the prior {prior:.4f}: brute force beats it {when}"
        )
    return "; ".join(parts)


def write_csv(
    results: StudyResult | Sequence[StudyResult], path: Path, *, force: bool = False
) -> int:
    """One row per truth setting, method, seed and recorded point; returns the number of rows."""
    results = [results] if isinstance(results, StudyResult) else list(results)
    metrics = sorted({m for r in results for m in r.metric_names}, key=_metric_order)
    rows = 0
    with atomic_output(path, force=force, newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["truth", "method", "seed", "requests", "epochs", *metrics])
        for result in results:
            for method in result.methods:
                curves = result.curves[method.name]
                for s, seed in enumerate(result.seeds):
                    for i, req in enumerate(result.requests.tolist()):
                        values = (curves[m][s, i] if m in curves else float("nan") for m in metrics)
                        writer.writerow(
                            [
                                result.setting,
                                method.name,
                                seed,
                                req,
                                f"{req / result.epoch:.4f}",
                                *("" if not np.isfinite(v) else f"{v:.6g}" for v in values),
                            ]
                        )
                        rows += 1
    return rows


def _metric_order(metric: str) -> tuple[int, str]:
    prefixes = ("g_", "mse_top", "mse_exam", "recall_top", "recall_failed")
    return next(i for i, p in enumerate((*prefixes, "")) if metric.startswith(p)), metric


def chart_panels(result: StudyResult) -> tuple[list[Panel], str]:
    """Fig. 3 and more: one panel per metric, seed mean with min-max band, epoch marks; and the
    chart's title."""
    colours = method_colours(result)
    marks = [
        (float(e * result.epoch), f"epoch {e}")
        for e in range(1, int(result.budget // result.epoch) + 1)
    ]
    marks.append((result.reference_requests, f"{result.reference_epochs:g}"))
    panels = []
    for metric in (m for m in result.metric_names if _has_values(result, m)):
        series = [
            Series(
                c.method,
                c.mean,
                c.low if len(result.seeds) > 1 else None,
                c.high if len(result.seeds) > 1 else None,
                colours[c.method],
                dashed=not method.propagation and method.sampler is not Sampler.BRUTE_FORCE,
            )
            for c, method in zip(curve_data(result, metric), result.methods, strict=True)
        ]
        panels.append(
            Panel(
                metric_label(metric),
                result.requests,
                series,
                "requests · dotted: brute-force epochs"
                + (" · dashed: no propagation" if any(s.dashed for s in series) else ""),
                marks,
            )
        )
    title = (
        f"Efficiency study: {result.truth_source}, {result.n_edges:,} edges, batch "
        f"{result.batch_size}, {len(result.seeds)} seeds"
    )
    return panels, title


def chart_svg(result: StudyResult) -> str:
    """`chart_panels` as a light SVG of its own (no plotting dependency)."""
    return render_svg(*chart_panels(result))


def write_plot(result: StudyResult, path: Path, *, force: bool = False) -> None:
    """Write the chart: SVG drawn here (`chart_svg`), PNG or PDF by matplotlib from the same
    panels (`sampling_figure`); the suffix says which."""
    fmt = check_plot_path(path)
    if fmt == "svg":
        write_text(path, chart_svg(result), force=force)
        return
    from kglens_tui.bench.sampling_figure import panels_figure
    from kglens_tui.core.figure_files import save_figure

    save_figure(panels_figure(*chart_panels(result)), path, fmt, force=force)


def check_plot_path(path: Path) -> str:
    """The format of ``--plot PATH`` by its suffix (svg, png or pdf); ValueError otherwise."""
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in ("svg", "png", "pdf"):
        raise ValueError(f"--plot writes SVG, PNG or PDF (got {path.name}): name it so")
    return fmt


METRICS_NOTE = (
    "G@k: mean true error rate of the method's top k, rescaled so that a constant estimate "
    "scores 0 and the true top k scores 1; MSE@k: over the k edges with the highest true error "
    "rate (the paper's); MSE exam.: over the edges the method asked about; recall@k: share of the "
    "method's top k in the true top k; failed@k: share of the always-failed edges in the "
    "method's top k."
)


def truth_line(result: StudyResult) -> str:
    """The truth's setting, mean rate and neighbour correlation, as markup."""
    corr = "—" if not np.isfinite(result.neighbour_corr) else f"{result.neighbour_corr:.2f}"
    return (
        f"[bold]truth {markup_literal(result.setting)}[/]: mean error rate "
        f"{result.base_rate:.0%}, neighbour correlation {corr} · "
        f"{markup_literal(result.truth_note)}"
    )


def print_result(result: StudyResult, console: Console, details: bool = True) -> None:
    """The truth, the headline table and, with `details`, every metric side by side."""
    console.print(
        f"[bold]Efficiency study[/] · ground truth {markup_literal(result.truth_source)} · "
        f"{result.n_edges:,} edges · budget {result.budget:,} requests "
        f"({result.budget / result.epoch:g} epochs) · batch {result.batch_size} · seeds "
        f"{', '.join(map(str, result.seeds))} · {result.seconds:.0f} s"
    )
    console.print(truth_line(result))
    too_big = [k for k in result.ks if k >= result.n_edges]
    if too_big:
        console.print(
            f"[yellow]note:[/] k = {', '.join(map(str, too_big))} covers every edge of this "
            "graph: its top-k MSE is the MSE over all edges; its recall and G (trivial) are left "
            "out"
        )
    console.print(reach_table(result))
    if details:
        for table in values_tables(result):
            console.print(table)
        console.print(f"[dim]{markup_literal(METRICS_NOTE)}[/]")
        console.print(f"[dim]{markup_literal(prior_note(result))}[/]")


def suite_table(results: Sequence[StudyResult], metric: str) -> LiteralTable:
    """Every method (rows) at every truth setting (columns): the share of brute force's
    reference requests needed to reach its value of one metric."""
    first = results[0]
    table = LiteralTable(
        title=f"Requests to reach brute force's {first.reference_epochs:g}-epoch "
        f"{short_label(metric)}, as a share of them, per truth (seed-mean curves over "
        f"{len(first.seeds)} seeds; lower is better)",
        title_justify="left",
        caption="Where the mean over the seeds comes within the standard error of brute force's "
        "mean and stays there to the end of the budget; — = never; n/N = only n of N seeds get "
        "there on their own (per seed: the per-truth tables above).",
    )
    table.add_column("method", no_wrap=True)
    for result in results:
        table.add_column(result.setting.replace("=", " ").replace("+", " + "), justify="right")
    for method in first.methods:
        cells = []
        for result in results:
            known = method.name in result.curves and metric in result.curves[method.name]
            cells.append(_share_text(result.reach(method.name, metric)) if known else "")
        table.add_row(method.name, *cells)
    return table


def _share_text(reach: Reach) -> Text:
    """The seed-mean curve's share, and how many seeds reach the target on their own when not
    all do."""
    got, n = len(reach.reached), len(reach.fractions)
    share = "—" if reach.mean_curve is None else f"{reach.mean_curve:.0%}"
    text = Text(share, "dim" if reach.mean_curve is None else "")
    if got < n:
        text.append(f" {got}/{n}", "dim")
    return text


def continuous_table(result: StudyResult) -> LiteralTable:
    """Each method under synchronous and continuous scheduling at the same requests: G@k at the
    reference, and the share of brute force's requests needed to reach its G@k."""
    metrics = [m for m in result.metric_names if m.startswith("g_") and _has_values(result, m)]
    ref = result.reference_requests
    table = LiteralTable(
        title=f"Continuous scheduling's cost: G@k after {ref:,.0f} requests and requests to "
        f"reach brute force's {result.reference_epochs:g}-epoch G@k, synchronous → continuous "
        f"(mean over {len(result.seeds)} seeds; truth {result.setting})",
        title_justify="left",
        caption="Continuous scheduling draws from a posterior up to two iterations old (it "
        "dispatches at most two iterations past the last commit) and skips edges in flight.",
    )
    table.add_column("method", no_wrap=True)
    for metric in metrics:
        table.add_column(short_label(metric), justify="right")
        table.add_column(f"{short_label(metric)} reach", justify="right")
    for method in result.methods:
        if method.lag or method.name == BRUTE_FORCE.name:
            continue
        late = method.name + CONTINUOUS
        if late not in result.curves:
            continue
        cells: list[Text] = []
        for metric in metrics:
            sync = float(np.mean(result.at(method.name, metric, ref)))
            cont = float(np.mean(result.at(late, metric, ref)))
            cells.append(Text(f"{sync:.3f} → {cont:.3f}"))
            cells.append(
                Text.assemble(
                    _share_text(result.reach(method.name, metric)),
                    " → ",
                    _share_text(result.reach(late, metric)),
                )
            )
        table.add_row(method.name, *cells)
    return table


def print_suite(results: Sequence[StudyResult], console: Console) -> None:
    """The summary over truth settings: G@k for every k, then the notes."""
    for metric in (m for m in results[0].metric_names if m.startswith("g_")):
        if all(_has_values(r, metric) for r in results):
            console.print(suite_table(results, metric))
    console.print(f"[dim]{markup_literal(METRICS_NOTE)}[/]")
