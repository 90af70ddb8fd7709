"""What `kglens report` shows: a run's three rates (paper Table 3, 6, 7), category counts,
tokens and latency, and the per-predicate breakdown (paper Fig. 6), each rate with its n, 95%
interval and what chance scores on the same questions."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, NamedTuple

import numpy as np
from rich.cells import cell_len

from kglens_tui.analysis.groups import (
    RATES,
    GroupRow,
    RateSet,
    chance_of,
    overall,
    rate_set,
)
from kglens_tui.analysis.kgwide import KGWide
from kglens_tui.analysis.rundata import RunData, load_run_data
from kglens_tui.answers.bias import Baseline
from kglens_tui.core.console import suggested
from kglens_tui.core.intervals import Proportion, stored_rate, worst_first
from kglens_tui.core.status import RunStatus
from kglens_tui.core.verdict import ALL, UNCERTAIN, WH_MATCHER
from kglens_tui.llm.pricing import Price
from kglens_tui.llm.urls import redact_text
from kglens_tui.llm.usage import Counters
from kglens_tui.modes.kglens.estimates import HOW_ESTIMATED
from kglens_tui.modes.kglens.pkg import Rates, rates
from kglens_tui.modes.kglens.rate_text import sense_text, win_text
from kglens_tui.modes.kglens.runstore import KGLensRun, load_kglens_run, observed_counts
from kglens_tui.modes.kglens.sense_rates import SENSES
from kglens_tui.runs.record import shown_status
from kglens_tui.runs.registry import mode_label
from kglens_tui.store.helper_usage import load_usage
from kglens_tui.store.target_usage import load_target_usage
from kglens_tui.textfmt import (
    counted,
    interval,
    pct,
    rate_ci,
    selection,
    sent_note,
    short_target,
    simulated_mark,
)

CATEGORIES = tuple(str(v) for v in ALL)


@dataclass(frozen=True)
class GroupRates:
    """Rates over the examined edges of one group (a predicate, a country...), each with its
    95% Wilson interval, and what chance scores on the questions asked about the group (the
    report's independent-asks baseline: `groups.chance_of`)."""

    name: str
    edges: int
    rates: RateSet
    chance: Baseline


@dataclass(frozen=True)
class RunReport:
    run: KGLensRun
    rates: Rates
    active_edges: int
    counts: dict[str, int]
    by_qtype: dict[str, dict[str, int]]
    target: Counters
    """The target's requests: ``errors`` it failed (never scored), ``dropped`` whose iteration
    was dropped whole, neither answered nor failed (migration 0018; a run stored before counted
    them as failed)."""
    latency_ms_mean: float | None
    seconds: float
    per_predicate: list[GroupRates]
    hedged: dict[str, int]
    """Replies that gave their answer with doubt, by category (correct, incorrect)."""
    judged: int
    """Wh replies an LLM judge decided (the alias matcher's verdict stored beside)."""
    judge_agrees: int
    """Of those, how many the alias matcher gave the same verdict."""
    question_sources: dict[str, int]
    """Questions by who wrote them: "llm:MODEL", "template", or "template (why the generated
    one was not used)"."""
    helpers: dict[str, Counters] = field(default_factory=dict)
    """Calls of the question generator and the judge, apart from the target's `requests`."""
    unjudged: int = 0
    """Wh replies the LLM judge failed to judge (it failed or answered out of format): they
    keep the matcher's verdict."""
    uncertain: int = 0
    """Wh verdicts the matcher's rules could not decide, left for human review (no judge)."""


def group_rates(m: np.ndarray, n: np.ndarray, labels: list[str], data: RunData) -> list[GroupRates]:
    """Rates per label (one per run position of ``data``, as logged) over edges examined at
    least once, with their chance, surely worst zero-sense first (`worst_first`), then by
    name."""
    out = []
    labels_arr = np.asarray(labels, dtype=object)
    for name in sorted(set(labels)):
        mask = labels_arr == name
        out.append(
            GroupRates(
                name,
                int(mask.sum()),
                rate_set(m[mask], n[mask]),
                chance_of(data, np.flatnonzero(mask), adjusted=False),
            )
        )
    return sorted(out, key=lambda g: (worst_first(g.rates.zero_sense), g.name))


def build_report(conn: sqlite3.Connection, run_id: int, data: RunData | None = None) -> RunReport:
    """Everything `kglens report` prints for a run, from the observation log; ``data``: the run
    loaded for analysis (loaded when not given)."""
    run = load_kglens_run(conn, run_id)
    if data is None:
        data = load_run_data(conn, run.id)
    m, n = observed_counts(conn, run.id, len(run.edge_ids))
    counts = dict.fromkeys(CATEGORIES, 0)
    by_qtype: dict[str, dict[str, int]] = {}
    for qtype, category, count in conn.execute(
        "SELECT qtype, category, COUNT(*) FROM observation WHERE run_id = ? GROUP BY 1, 2",
        (run.id,),
    ):
        counts[category] = counts.get(category, 0) + count
        by_qtype.setdefault(qtype, dict.fromkeys(CATEGORIES, 0))[category] = count
    seconds = conn.execute(
        "SELECT COALESCE(SUM(seconds), 0) FROM iteration WHERE run_id = ?", (run.id,)
    ).fetchone()[0]
    latency = conn.execute(
        "SELECT AVG(latency_ms) FROM observation WHERE run_id = ? AND latency_ms IS NOT NULL",
        (run.id,),
    ).fetchone()[0]
    hedged = dict(
        conn.execute(
            "SELECT category, COUNT(*) FROM observation WHERE run_id = ? AND hedged = 1 "
            "GROUP BY category",
            (run.id,),
        ).fetchall()
    )
    judged, judge_agrees = conn.execute(
        "SELECT COUNT(*), COALESCE(SUM(matcher = category), 0) FROM observation "
        "WHERE run_id = ? AND matcher != ''",
        (run.id,),
    ).fetchone()
    unjudged, uncertain = conn.execute(
        "SELECT COALESCE(SUM(verifier LIKE ?), 0), COALESCE(SUM(verifier = ?), 0) "
        "FROM observation WHERE run_id = ?",
        (f"{WH_MATCHER} (unjudged:%", f"{WH_MATCHER} ({UNCERTAIN})", run.id),
    ).fetchone()
    question_sources = dict(
        conn.execute(
            "SELECT generator, COUNT(*) FROM observation WHERE run_id = ? AND category != 'error' "
            "GROUP BY generator ORDER BY COUNT(*) DESC",
            (run.id,),
        ).fetchall()
    )
    pred_of_edge = dict(
        conn.execute(
            "SELECT e.id, p.label FROM edge e JOIN predicate p ON p.id = e.predicate_id "
            "WHERE e.kg_id = ?",
            (run.kg_id,),
        ).fetchall()
    )
    labels = [pred_of_edge[int(e)] for e in run.edge_ids]
    return RunReport(
        run=run,
        rates=rates(m, n),
        active_edges=len(run.edge_ids),
        counts=counts,
        by_qtype=by_qtype,
        target=Counters(*(load_target_usage(conn, run.id) or ())),
        latency_ms_mean=latency,
        seconds=float(seconds),
        per_predicate=group_rates(m, n, labels, data),
        hedged=hedged,
        judged=int(judged),
        judge_agrees=int(judge_agrees),
        question_sources=question_sources,
        helpers=load_usage(conn, run.id),
        unjudged=int(unjudged),
        uncertain=int(uncertain),
    )


def list_runs(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Every run with its KG, target, settings, progress, requests sent and latest rates (a run
    whose process was killed shows as interrupted)."""
    rows = conn.execute(
        """
        SELECT r.id, r.name, r.mode, k.name AS kg, r.status, r.stop_reason, r.error, r.owner,
               r.target_label,
               r.simulated,
               r.config, r.manifest, r.iterations_done, r.units_total, r.created_at,
               r.updated_at,
               i.win_rate, i.zero_sense_rate, i.all_sense_rate, i.examined,
               COALESCE(u.requests, 0) AS requests, COALESCE(u.errors, 0) AS failed,
               COALESCE(u.dropped, 0) AS dropped,
               COALESCE(u.prompt_tokens, 0) AS prompt_tokens,
               COALESCE(u.completion_tokens, 0) AS completion_tokens
        FROM run r JOIN kg k ON k.id = r.kg_id
        LEFT JOIN iteration i ON i.run_id = r.id AND i.iteration = r.iterations_done
        LEFT JOIN target_usage u ON u.run_id = r.id
        ORDER BY r.id DESC
        """
    ).fetchall()
    runs = [dict(r) for r in rows]
    for r in runs:
        r["status"], r["stop_reason"] = shown_status(r["status"], r["stop_reason"], r.pop("owner"))
    return runs


"""How each probing mode is named in lists."""

RUN_COLUMNS = (
    "run",
    "mode",
    "KG",
    "status",
    "iterations",
    "requests",
    "examined",
    "win",
    "zero-sense",
    "all-sense",
    "target",
    "difficulty",
    "sampler",
)
"""Column titles of `run_rows`: the three rates (KGLens runs) with 95% Wilson intervals over the
edges examined (what chance scores under a run's sampler: its report), before the settings."""
RATE_NAMES = tuple(name for name, _, _ in RATES)
RATES_NOTE = (
    "Win: KG-wide first (every edge of the run's selection asked once, "
    f"{HOW_ESTIMATED}; `kglens report RUN`), then over the edges examined. Zero-sense and all-sense: KG-wide at two asks first (the chance that an "
    "edge asked twice is wrong, or right, both times) where the run has enough pairs of asks, "
    "then over the edges examined. Rates over the edges examined, with 95% intervals, as logged (triage "
    "applied: `kglens review`); what chance scores under a run's own sampler: its report."
)

NARROW_RUNS = 110
"""Below this many columns a list of runs puts target, difficulty and sampler over the rates."""
SETTING_COLUMNS = ("target", "difficulty", "sampler")
"""The run settings a narrow list of runs puts in one column."""


def table_width(columns: list[str], rows: list[tuple[str, ...]]) -> int:
    """Columns a boxed table needs to show every cell unwrapped: each column's widest line,
    header included, plus two of padding and one of border, and the last border."""
    return 1 + sum(
        3
        + max(
            cell_len(line)
            for cell in (column, *(row[i] for row in rows))
            for line in cell.split("\n")
        )
        for i, column in enumerate(columns)
    )


def runs_table(rows: list[tuple[str, ...]], width: int) -> tuple[list[str], list[tuple[str, ...]]]:
    """(columns, rows) of `run_rows` as a list ``width`` cells wide shows them. Every column
    when they fit unwrapped; else progress goes under the status, the three rates share one
    column, one per line with n last, and the settings share one (the target in short form,
    `short_target`), below `NARROW_RUNS` as the first line of the rates column."""
    columns = list(RUN_COLUMNS)
    at = {c: i for i, c in enumerate(columns)}
    if table_width(columns, rows) <= width:
        return columns, rows
    wide = width >= NARROW_RUNS

    def settings(row: tuple[str, ...]) -> str:
        shown = (short_target(row[at[c]]) if c == "target" else row[at[c]] for c in SETTING_COLUMNS)
        return " · ".join(s for s in shown if s)

    narrow = [
        (
            *(row[at[c]] for c in ("run", "mode", "KG")),
            f"{row[at['status']]}\n{row[at['iterations']]} · requests {row[at['requests']]}",
            *(
                [rates_lines(dict(zip(columns, row, strict=True))), settings(row)]
                if wide
                else [f"{settings(row)}\n{rates_lines(dict(zip(columns, row, strict=True)))}"]
            ),
        )
        for row in rows
    ]
    return [
        "run",
        "mode",
        "KG",
        "status",
        *(["rates", "settings"] if wide else ["settings, rates"]),
    ], narrow


def rates_lines(row: dict[str, str]) -> str:
    """A listed run's three rates and n (a `run_rows` row by column), one per line; "—" for a
    run without them."""
    if row["win"] == "—":
        return "—"
    return "\n".join([*(f"{c} {row[c]}" for c in RATE_NAMES), f"n={row['examined']} examined"])


RATE_FIELDS = ("win_rate", "zero_sense_rate", "all_sense_rate")


def _rate(value: float | None, examined: int | None) -> str:
    """A stored rate over ``examined`` edges with its 95% Wilson interval."""
    if value is None or not examined:
        return "—"
    return rate_ci(*stored_rate(value, examined).bounds)


RUNS_CHANCE_NOTE = (
    "chance: what blind guessing scores on the questions the run asked, each ask independent, "
    "over the replies its rates count."
)
"""How `kglens runs` words the chance it shows beside each rate (`run_chances`)."""


def run_chances(
    conn: sqlite3.Connection, rows: list[tuple[str, ...]]
) -> dict[str, Baseline | None]:
    """What blind guessing scores on the questions each listed run with rates asked, each ask
    independent, over the replies its rates count, as logged like them
    (`analysis.groups.overall`), by the run's id as listed; None for a run that cannot be
    analysed (its KG lost edges)."""

    return {run_id: figures.chance for run_id, figures in run_figures(conn, rows).items()}


class RunFigures(NamedTuple):
    """A listed run's figures worked out from its rows (`run_figures`)."""

    chance: Baseline | None
    kg_wide: KGWide | None
    senses: dict[str, KGWide | None]
    """The KG-wide two-ask zero-sense and all-sense (`kg_wide_sense`), when asked for."""


def run_figures(
    conn: sqlite3.Connection, rows: list[tuple[str, ...]], senses: bool = False
) -> dict[str, RunFigures]:
    """`run_chances` and each listed run's KG-wide win rate (`analysis.kgwide`, as logged), and
    with ``senses`` its two-ask zero-sense and all-sense, loading each run once; all None for a
    run that cannot be analysed."""
    from kglens_tui.analysis.compare import load_runs
    from kglens_tui.analysis.kgwide import kg_wide, kg_wide_sense

    at = {c: i for i, c in enumerate(RUN_COLUMNS)}
    ids = [int(row[at["run"]]) for row in rows if row[at["win"]] != "—"]
    try:  # together, so that runs on one KG share its index
        loaded = {d.run.id: d for d in load_runs(conn, ids)}
    except LookupError:  # a run that cannot be analysed: the others one by one
        loaded = {}
        for run_id in ids:
            with contextlib.suppress(LookupError):
                loaded[run_id] = load_runs(conn, [run_id])[0]
    out: dict[str, RunFigures] = {}
    for run_id in ids:
        data = loaded.get(run_id)
        if data is None:
            out[str(run_id)] = RunFigures(None, None, {})
            continue
        two = {sense: kg_wide_sense(data, sense, False) for sense in SENSES} if senses else {}
        out[str(run_id)] = RunFigures(
            overall(data, adjusted=False).chance, kg_wide(data, False), two
        )
    return out


def with_chances(
    rows: list[tuple[str, ...]],
    chances: dict[str, Baseline | None],
    kg_wide: dict[str, KGWide | None] | None = None,
    senses: dict[str, dict[str, KGWide | None]] | None = None,
) -> list[tuple[str, ...]]:
    """`analysis.report.run_rows` rows with what chance scores under each rate: a rate cell
    becomes two lines, "77.1% [67.7–84.4]" and "  chance 50.0%" (`run_chances`: "—" for a run
    that cannot be analysed), so `runs_table`'s layouts keep each rate's chance beside it; with
    `kg_wide`, a run's win cell leads with its KG-wide win rate and that rate's chance and n (the
    answers it rests on), and with
    `senses` its zero-sense and all-sense cells with the two-ask KG-wide rates (where a run has
    them) and theirs."""
    at = {c: i for i, c in enumerate(RUN_COLUMNS)}
    out = []
    for row in rows:
        run_id = row[at["run"]]
        base = chances.get(run_id)
        cells = list(row)
        for name, _, chance_field in RATES:
            if row[at[name]] != "—":
                chance = pct(getattr(base, chance_field)) if base is not None else "—"
                cells[at[name]] = f"{row[at[name]]}\n  chance {chance}"
        wide = (kg_wide or {}).get(run_id)
        if wide is not None:
            chance = pct(wide.chance_win)
            n = f"n={wide.rate.answers:,}"
            cells[at["win"]] = (
                f"KG-wide {win_text(wide.rate)}\n  chance {chance} · {n}\n"
                f"examined {cells[at['win']]}"
            )
        for sense, two in (senses or {}).get(run_id, {}).items():
            if cells[at[sense]] == "—":
                continue
            head = (
                "2 asks —"
                if two is None
                else f"2 asks {sense_text(two.rate)}\n  chance {pct(two.chance_error)}"
            )
            cells[at[sense]] = f"{head}\nexamined {cells[at[sense]]}"
        out.append(tuple(cells))
    return out


def _spent(
    conn: sqlite3.Connection, r: dict[str, Any], cfg: dict[str, Any], prices: Mapping[str, Price]
) -> str:
    """ " · $0.42" after a listed run's requests: its spend (`runs.spend.spend_text`), nothing
    for a run that calls only free models."""
    from kglens_tui.runs.spend import stored_spend_text

    manifest = json.loads(r["manifest"] or "{}")
    tokens = (int(r["prompt_tokens"]), int(r["completion_tokens"]))
    settings = SimpleNamespace(**{"max_cost": None, **cfg})  # a run stored before max_cost
    text = stored_spend_text(conn, int(r["id"]), settings, manifest, prices, tokens)
    return f" · {text}" if text else ""


def run_rows(conn: sqlite3.Connection) -> list[tuple[str, ...]]:
    """Every run as display strings in RUN_COLUMNS order (for `kglens runs` and the TUI)."""
    from kglens_tui.runs.prices import configured_prices

    out: list[tuple[str, ...]] = []
    prices = configured_prices()
    for r in list_runs(conn):
        cfg = json.loads(r["config"])
        target = redact_text(r["target_label"])
        target += simulated_mark(target, bool(r["simulated"]))
        status = r["status"] + (f" · {r['stop_reason']}" if r["stop_reason"] else "")
        if r["status"] == RunStatus.FAILED and r["error"]:
            status += f": {redact_text(r['error'])}"
        out.append(
            (
                str(r["id"]),
                mode_label(r["mode"]),
                selection(r["kg"], cfg.get("subset"), cfg.get("predicates"), full=False),
                status,
                f"{r['iterations_done']}/{cfg['iterations']}"
                if "iterations" in cfg  # else a unit mode's units
                else f"{r['iterations_done']:,}"
                + ("" if r["units_total"] is None else f"/{r['units_total']:,}")
                + " units",
                f"{r['requests']:,}"
                + sent_note(r["failed"], r["dropped"])
                + _spent(conn, r, cfg, prices),
                "—" if r["examined"] is None else f"{r['examined']:,}",
                *(_rate(r[rate], r["examined"]) for rate in RATE_FIELDS),
                target,
                cfg.get("difficulty", ""),
                cfg.get("sampler", ""),
            )
        )
    return out


def prop_text(p: Proportion) -> str:
    """A rate with its interval and counts."""
    if p.value is None:
        return "—"
    return f"{pct(p.value)} {interval(p.low, p.high)} {p.k:,}/{p.n:,}"


def rate_line(name: str, rate: Proportion) -> str:
    """ "zero-sense  68.3% [57.6–77.4]": a rate's name, value and 95% interval, the values of
    one cell aligned."""
    return f"{name:<10} {pct(rate.value):>6} {interval(rate.low, rate.high)}"


def rates_line(row: GroupRow) -> str:
    """Win / zero-sense / all-sense of a group row on one line."""
    r = row.rates
    return (
        f"win {prop_text(r.win)} · zero-sense {prop_text(r.zero_sense)} · "
        f"all-sense {prop_text(r.all_sense)}"
    )


def triage_note(conn: sqlite3.Connection, run_id: int, data: RunData | None = None) -> str | None:
    """What triage changes of a run's figures, for reports that show them as logged: how many
    verdicts it overrides or drops and the rates with them applied; None when it changes
    none. ``data``: the run loaded for analysis (loaded when not given)."""
    if data is None:
        data = load_run_data(conn, run_id)
    changed = int(np.count_nonzero(data.categories(True) != data.categories(False)))
    if not changed:
        return None
    from kglens_tui.analysis.kgwide import kg_wide

    wide = kg_wide(data, True)
    wide_text = "" if wide is None else f"KG-wide win {win_text(wide.rate)}; over the examined, "
    return (
        f"Triage changes {counted(changed, 'verdict')} of this run (verifier errors, KG errors): "
        f"with them applied, {wide_text}{rates_line(overall(data, adjusted=True))}. The rates "
        f"above are as logged; `{suggested(f'review {run_id}')}` applies them."
    )
