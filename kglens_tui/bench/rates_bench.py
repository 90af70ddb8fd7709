"""`kglens bench rates`: print the KG-wide rates' bias, coverage and width for every sampler and
truth, and the frontier of the rolling-census floor (`bench.rates_study`)."""

from __future__ import annotations

import sqlite3

from rich.console import Console

from kglens_tui.bench.rates_defaults import FRONTIER, METHODS, SETTINGS
from kglens_tui.bench.rates_study import (
    EPOCHS,
    SENSES,
    RatesResult,
    rates_study,
    study_methods,
)
from kglens_tui.bench.replay_progress import replay_progress
from kglens_tui.bench.sampling_study import (
    BRUTE_FORCE,
    default_method,
    load_ground_truth,
    methods_named,
)
from kglens_tui.bench.truths import apply_setting, parse_settings
from kglens_tui.core.safetext import LiteralTable, markup_literal
from kglens_tui.modes.kglens.design import DEFAULT_FLOOR
from kglens_tui.textfmt import pct


def parse_floats(text: str, what: str) -> list[float]:
    """A comma list of numbers (e.g. ``--floors``)."""
    try:
        return [float(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise ValueError(f"{what} must be numbers separated by commas (got {text!r})") from None


def run_rates_bench(
    conn: sqlite3.Connection,
    console: Console,
    *,
    kg: str = "country",
    subset: str | None = "paper16",
    ground_truth: str = "sim",
    predicates: str | None = None,
    settings: str = SETTINGS,
    methods: str = METHODS,
    floor: float = DEFAULT_FLOOR,
    floors: str = FRONTIER,
    replays: int = 200,
    batch_size: int = 16,
    k: int = 25,
) -> list[RatesResult]:
    """The whole study, once per truth setting; ValueError on bad options."""
    default = default_method()
    chosen = study_methods(
        methods_named(methods)[1:], floor, parse_floats(floors, "--floors"), default
    )
    truth = load_ground_truth(conn, ground_truth, kg, subset, predicates)
    truths = [apply_setting(truth, s) for s in parse_settings(settings)]
    results = []
    with replay_progress("replaying", "replays", len(truths), len(chosen) * replays) as for_truth:
        for i, dealt in enumerate(truths):
            results.append(
                rates_study(
                    dealt,
                    chosen,
                    replays=replays,
                    batch_size=batch_size,
                    k=k,
                    progress=for_truth(i),
                )
            )
    for result in results:
        console.print(*result_tables(result, console.width))
        console.print(*sense_tables(result, console.width))
    console.print(frontier_table(results, default.name))
    return results


METHOD_ROOM = 12
"""Cells a method's name keeps when a table is narrowed (it wraps; the figures do not)."""


def result_tables(result: RatesResult, width: int) -> list[LiteralTable]:
    """One truth: every method at every checkpoint, in one table where its figures fit
    ``width`` cells unwrapped, else in two (the estimates, then the tests)."""
    title = (
        f"KG-wide error rate, truth {result.setting} ({result.truth_source}; "
        f"{result.n_edges:,} edges, true rate {pct(result.truth_error)}), {result.replays} "
        f"replays, batches of {result.batch_size}"
    )
    caption = (
        "bias: mean estimate minus the truth, in points, ± its Monte Carlo error; "
        "coverage: share of replays whose 95% interval holds the truth; width and RMSE: "
        "multiples of brute force's at the same requests (brute force: its own, in points); "
        "equal: pairs of replays (two equally accurate targets) whose difference tests "
        "significant at 5% (goal: at most 5%); one plan: replays in which a second, equally "
        "accurate target asked the same questions (`--plan-of`) differs significantly by the "
        "paired test (goal: at most 5%; — brute force); drift, at 4.5 epochs: pairs of replays in "
        "which `kglens compare`'s tests find any predicate / any edge that changed (Benjamini-"
        "Hochberg at 5%; goal: at most 5%); "
        f"G@{result.k}: requests the seed-mean G@{result.k} curve needs to reach brute "
        "force's at 4.5 epochs, as a share of them (— never)."
    )
    columns = (
        "method",
        "epochs",
        "bias ± MC",
        "coverage",
        "width",
        "RMSE",
        "equal",
        "one plan",
        "drift",
        f"G@{result.k}",
    )
    rows: list[tuple[str, ...]] = []
    for name in result.methods:
        share = result.g_share.get(name)
        for e in EPOCHS:
            cell = result.cells[(name, e)]
            brute = name == BRUTE_FORCE.name
            rows.append(
                (
                    name if e == EPOCHS[0] else "",
                    f"{e:g}",
                    f"{100 * cell.bias:+.2f} ± {100 * cell.bias_mc:.2f}",
                    f"{cell.coverage:.1%}",
                    f"{100 * cell.width:.2f} pt"
                    if brute
                    else f"{result.ratio(name, e, 'width'):.2f}x",
                    f"{100 * cell.rmse:.2f} pt"
                    if brute
                    else f"{result.ratio(name, e, 'rmse'):.2f}x",
                    f"{cell.false_difference:.1%}",
                    "—" if cell.false_paired is None else f"{cell.false_paired:.1%}",
                    "" if cell.drift is None else f"{cell.drift[0]:.0%} / {cell.drift[1]:.0%}",
                    ("—" if share is None else f"{share:.0%}") if e == EPOCHS[0] else "",
                )
            )
    parts: list[tuple[str, list[int]]] = [(title, list(range(len(columns))))]
    if _needs(columns, rows) > width:
        parts = [(f"{title}: estimates", list(range(6))), (f"{title}: tests", [0, 1, 6, 7, 8, 9])]
    return [
        _table(part_title, caption if n == len(parts) else "", columns, rows, picked)
        for n, (part_title, picked) in enumerate(parts, start=1)
    ]


def sense_tables(result: RatesResult, width: int) -> list[LiteralTable]:
    """One truth: the two-ask zero-sense and all-sense rates of every method at every
    checkpoint (`probe.sense_rates`), in one table where its figures fit ``width`` cells
    unwrapped, else one per rate."""
    truths = " / ".join(f"{sense} {pct(result.sense_truths[sense])}" for sense in SENSES)
    title = (
        f"KG-wide two-ask rates, truth {result.setting} (true {truths}), {result.replays} replays"
    )
    caption = (
        "zero-sense: the chance that an edge asked twice fails both times; all-sense: "
        "that it is answered right both times. bias ± its Monte Carlo error, in points; "
        "coverage of the 95% interval; width: a multiple of brute force's at the same "
        "requests (brute force: its own, in points; — where brute force has no estimate: "
        "before two epochs an edge is asked twice only by chance)."
    )
    columns = [
        "method",
        "epochs",
        *(f"{sense} {col}" for sense in SENSES for col in ("bias ± MC", "coverage", "width")),
    ]
    rows: list[tuple[str, ...]] = []
    for name in result.methods:
        brute = name == BRUTE_FORCE.name
        for e in EPOCHS:
            cells: list[str] = []
            for sense in SENSES:
                cell = result.senses.get((name, e, sense))
                if cell is None:
                    cells += ["—", "—", "—"]
                    continue
                ratio = result.sense_ratio(name, e, sense)
                shown = f"{100 * cell.width:.2f} pt" if brute or ratio is None else f"{ratio:.2f}x"
                cells += [
                    f"{100 * cell.bias:+.2f} ± {100 * cell.bias_mc:.2f}",
                    f"{cell.coverage:.1%}",
                    shown,
                ]
            rows.append((name if e == EPOCHS[0] else "", f"{e:g}", *cells))
    if _needs(columns, rows) <= width:
        return [_table(title, caption, columns, rows, list(range(len(columns))))]
    tables = []
    for n, sense in enumerate(SENSES):
        picked = [0, 1, *range(2 + 3 * n, 5 + 3 * n)]
        named = [c.removeprefix(f"{sense} ") for c in columns]
        last = n == len(SENSES) - 1
        tables.append(_table(f"{title}: {sense}", caption if last else "", named, rows, picked))
    return tables


def _needs(columns: tuple[str, ...] | list[str], rows: list[tuple[str, ...]]) -> int:
    """Cells a table of ``rows`` needs with every figure unwrapped and the method's name in
    `METHOD_ROOM` (it wraps)."""
    from kglens_tui.analysis.report import table_width

    rest = table_width(list(columns[1:]), [row[1:] for row in rows])
    return rest + 3 + METHOD_ROOM


def _table(
    title: str,
    caption: str,
    columns: tuple[str, ...] | list[str],
    rows: list[tuple[str, ...]],
    picked: list[int],
) -> LiteralTable:
    """The ``picked`` columns of ``rows`` as a table, the method's name on the left."""
    table = LiteralTable(
        title=title, title_justify="left", caption=caption or None, caption_justify="left"
    )
    for i in picked:
        table.add_column(columns[i], justify="left" if i == 0 else "right")
    for row in rows:
        table.add_row(*(row[i] for i in picked))
    return table


def frontier_table(results: list[RatesResult], default: str) -> LiteralTable:
    """The floor's price: the default method's G@k share against its interval width at 4.5
    epochs (a multiple of brute force's), per truth."""
    table = LiteralTable(
        title=f"Frontier of the floor, {markup_literal(default)}: G@k share of brute "
        "force's requests / interval width at 4.5 epochs (x brute force's)",
        title_justify="left",
    )
    table.add_column("floor")
    for result in results:
        table.add_column(result.setting, justify="right")
    floors = [name for name in results[0].methods if name.startswith(default + " · floor ")]
    for name in floors:
        cells = []
        for result in results:
            share = result.g_share.get(name)
            width = result.ratio(name, max(EPOCHS), "width")
            cells.append(f"{'—' if share is None else f'{share:.0%}'} / {width:.2f}x")
        table.add_row(name.rsplit("floor ", 1)[1], *cells)
    return table
