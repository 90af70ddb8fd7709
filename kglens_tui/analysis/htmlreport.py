"""A self-contained HTML report of one run: metrics raw and adjusted, convergence, the
distribution of expected error rates, group tables with heat colouring, error types, the worst
edges and the triage, with inline SVG plots (no scripts, no external files). Its header says
what `kglens report` does: requests with those failed and dropped, a failed run's cause, the
chance each rate is compared with, and the Yes/No answer bias with its warning."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from kglens_tui.analysis.blindspots import blind_spots, review_counts
from kglens_tui.analysis.coin_baseline import coin_baseline
from kglens_tui.analysis.colours import heat_hex, text_on
from kglens_tui.analysis.errortypes import error_type_summary
from kglens_tui.analysis.grid import grid_html, well_measured
from kglens_tui.analysis.groups import GroupRow, cross_table, group_table, overall
from kglens_tui.analysis.kgwide import kg_wide, kg_wide_sense
from kglens_tui.analysis.kgwide_render import (
    KG_WIDE_TITLE,
    SENSE_ROWS,
    TWO_ASKS,
    method_note,
    predicate_kg_wide,
)
from kglens_tui.analysis.rundata import RunData
from kglens_tui.analysis.svg import Bar, bar_chart, histogram, line_chart
from kglens_tui.analysis.triage import current_entries, triage_log
from kglens_tui.answers.bias import BLIND_GUESS, YesNoBias, run_yes_no_bias
from kglens_tui.core.intervals import Proportion
from kglens_tui.core.safetext import html_text
from kglens_tui.core.safewrite import write_text
from kglens_tui.core.status import RunStatus
from kglens_tui.modes.kglens.rate_text import (
    TOO_FEW_PAIRS,
    capped_note,
    chance_text,
    n_text,
    sense_text,
    win_text,
)
from kglens_tui.runs.verdict_rules import stale_verdicts_note
from kglens_tui.store.target_usage import COLUMNS as USAGE_COLUMNS
from kglens_tui.store.target_usage import load_target_usage
from kglens_tui.textfmt import counted, num, pct, sent_note

CSS = """
body{font-family:sans-serif;margin:2em;max-width:1100px;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}
th,td{border:1px solid #ccc;padding:3px 8px;text-align:right;font-size:13px}
th{background:#f3f3f3} td.l,th.l{text-align:left}
.sim{background:#ffd33d;padding:1px 6px;font-weight:bold}
.note{color:#555;font-size:13px}
.cause{color:#b00020}
.warn{background:#fff3c4;border-left:4px solid #e0a800;padding:4px 8px;font-weight:bold}
td.chance{color:#555}
"""


def _ci(p: Proportion) -> str:
    if p.value is None:
        return "—"
    return f"{pct(p.value)} <span class='note'>[{pct(p.low)}, {pct(p.high)}]</span>"


def _heat_td(p: Proportion, colour: bool = True) -> str:
    """A rate with its interval, on its heat colour when ``colour`` and it is over at least
    `SMALL_N` examined edges (as the grid's cells)."""
    if p.value is None or not colour or not well_measured(p):
        return f"<td>{_ci(p)}</td>"
    return (
        f"<td style='background:{heat_hex(p.value)};color:{text_on(p.value)}'>"
        f"{pct(p.value)} <small>[{pct(p.low)}, {pct(p.high)}]</small></td>"
    )


HTML_GROUP_CHANCE_NOTE = (
    "Rates over the group's examined edges with 95% Wilson intervals; chance: what blind "
    "guessing scores on the questions the run asked about the group, each ask independent ("
    + BLIND_GUESS
    + "), with triage as the rates."
)
"""What the chance column beside each rate of a group table means."""
HTML_GROUP_YES_NO_NOTE = (
    " Yes/No: the yes-rate of the group's Yes/No replies with its 95% Wilson interval and n, "
    "and their balanced accuracy (chance 0.50), over the same replies."
)
"""The rest of that note when the run has Yes/No replies (as `kglens analyze`'s caption)."""


def _yes_no_tds(bias: YesNoBias) -> str:
    """A group's yes-rate (with interval and n) and balanced accuracy cells."""
    if not bias.answered:
        return "<td>—</td><td>—</td>"
    return f"<td>{html_text(bias.yes_rate.text())}</td><td>{num(bias.balanced_accuracy)}</td>"


def _group_html(title: str, rows: list[GroupRow], limit: int = 60) -> str:
    """A group table: each rate with its interval (zero-sense heat-coloured) and beside it
    what chance scores on the group's questions (`GroupRow.chance`); with Yes/No replies in
    the run, each group's yes-rate and balanced accuracy (`GroupRow.yes_no`)."""
    if not rows:
        return ""
    yes_no = any(r.yes_no.answered for r in rows)
    head = (
        "<tr><th class='l'>group</th><th>edges</th><th>examined</th><th>win</th><th>chance</th>"
        "<th>zero-sense</th><th>chance</th><th>all-sense</th><th>chance</th>"
        "<th>mean expected error</th>"
        + ("<th>yes-rate [95% interval] (n)</th><th>balanced accuracy</th>" if yes_no else "")
        + "</tr>"
    )
    body = "".join(
        f"<tr><td class='l'>{html_text(r.label)}</td><td>{r.edges}</td><td>{r.rates.examined}</td>"
        f"{_heat_td(r.rates.win, colour=False)}{_chance_td(r.chance.win_rate)}"
        f"{_heat_td(r.rates.zero_sense)}{_chance_td(r.chance.zero_sense)}"
        f"{_heat_td(r.rates.all_sense, colour=False)}{_chance_td(r.chance.all_sense)}"
        f"<td>{pct(r.mean_error)}</td>{_yes_no_tds(r.yes_no) if yes_no else ''}</tr>"
        for r in rows[:limit]
    )
    more = (
        f"<p class='note'>{len(rows) - limit} more rows not shown.</p>" if len(rows) > limit else ""
    )
    note = HTML_GROUP_CHANCE_NOTE + (HTML_GROUP_YES_NO_NOTE if yes_no else "")
    return (
        f"<h2>{html_text(title)}</h2><table>{head}{body}</table>{more}"
        f"<p class='note'>{html_text(note)}</p>"
    )


def bias_warning_html(bias: YesNoBias) -> str:
    """The answer-bias warning as a paragraph; '' when the bias rule does not fire."""
    warning = bias.warning()
    return f"<p class='warn'>⚠ {html_text(warning)}</p>" if warning else ""


def _yes_no_html(bias: YesNoBias) -> str:
    """The run's Yes/No answers as `kglens report` gives them: the yes-rate with its 95%
    interval and n, per-class and balanced accuracy, kappa, and the answer-bias warning."""
    if not bias.answered and not bias.unparsed:
        return "<h2>Yes/No answers</h2><p>None: this run asked open questions only.</p>"
    rows = (
        ("yes-rate (replies starting with yes)", bias.yes_rate.text()),
        ("accuracy, expected answer Yes", bias.accuracy_expected_yes.text()),
        ("accuracy, expected answer No", bias.accuracy_expected_no.text()),
        ("accuracy, all", bias.accuracy.text()),
        ("balanced accuracy (chance = 0.50)", num(bias.balanced_accuracy)),
        ("Cohen's kappa, expected vs given (chance = 0)", num(bias.kappa)),
        ("replies without yes/no (not counted above)", f"{bias.unparsed:,}"),
    )
    return (
        "<h2>Yes/No answers: bias and bias-corrected scores</h2><table>"
        + "".join(
            f"<tr><td class='l'>{html_text(name)}</td><td>{html_text(value)}</td></tr>"
            for name, value in rows
        )
        + "</table><p class='note'>Over the run's Yes/No replies as logged (transport errors "
        "left out), as kglens report; intervals: 95% Wilson score intervals.</p>"
        + bias_warning_html(bias)
    )


def _chance_td(value: float | None) -> str:
    return f"<td class='chance'>{pct(value)}</td>"


def _run_head(data: RunData) -> str:
    """The run's settings, status with its reason, progress, requests (failed, dropped), for a
    failed run its cause, and whether its verdicts are from an earlier verifier, as `kglens
    report` gives them."""
    run, cfg = data.run, data.run.config
    status, reason = run.shown
    usage = dict(
        zip(
            USAGE_COLUMNS,
            load_target_usage(data.conn, run.id) or (0,) * len(USAGE_COLUMNS),
            strict=True,
        )
    )
    sent = f"{usage['requests']:,}{sent_note(usage['errors'], usage['dropped'])}"
    head = (
        "<p>"
        + ("<span class='sim'>SIMULATED TARGET</span> " if run.simulated else "")
        + f"{html_text(str(cfg.difficulty).upper())} · sampler {html_text(str(cfg.sampler))} · "
        f"verifier {html_text(cfg.verifier)} · status {html_text(status)}"
        f"{': ' + html_text(reason) if reason else ''} · "
        f"{run.iterations_done}/{counted(cfg.iterations, 'iteration')} · "
        f"{counted(data.n_edges, 'active edge')} · "
        f"requests {html_text(sent)}</p>"
    )
    if status == RunStatus.FAILED and run.error:
        head += f"<p class='cause'>cause: {html_text(run.error)}</p>"
    stale = stale_verdicts_note(data.conn, run)
    if stale:
        head += f"<p class='cause'>{html_text(stale)}</p>"
    return head


def _chance_rows(data: RunData, raw: GroupRow, adj: GroupRow) -> tuple[str, str]:
    """Metrics table rows with the chance each rate is compared with (as `kglens report`: the
    blind guesser under the run's own sampler, and on independent asks, as logged and with
    triage when triage changes it), and their note."""
    coin = coin_baseline(data.conn, data.run.id)
    keys = ("win", "zero_sense", "all_sense")
    sampler = "".join(f"<td>{html_text(coin.rates[k].text()) if coin else '—'}</td>" for k in keys)
    rows = f"<tr><td class='l'>chance under this sampler</td><td></td><td></td>{sampler}</tr>"
    independent = [("as logged", raw.chance), ("with triage", adj.chance)]
    if raw.chance == adj.chance:
        independent = [("", adj.chance)]
    for name, base in independent:
        cells = "".join(
            f"<td>{pct(v)}</td>" for v in (base.win_rate, base.zero_sense, base.all_sense)
        )
        label = f"chance, independent asks{f' ({name})' if name else ''}"
        rows += f"<tr><td class='l'>{label}</td><td></td><td></td>{cells}</tr>"
    note = (
        "Chance: what the blind guesser of kglens report scores when asked by this run's "
        "sampler, batch, propagation and number of answers ("
        + (
            f"mean and range of {coin.replicas} replays, where one guessing run falls "
            f"{coin.replicas - 1} times in {coin.replicas + 1})"
            if coin
            else "nothing answered to replay yet: —)"
        )
        + ", and on the questions the run asked with each ask independent ("
        + (
            f"{pct(adj.chance.per_question)} of questions right"
            if raw.chance.per_question == adj.chance.per_question
            else f"{pct(raw.chance.per_question)} of questions right as logged, "
            f"{pct(adj.chance.per_question)} with triage"
        )
        + "); the sampler re-asks edges the guesser failed, which moves its score away from that."
    )
    return rows, note


LOGGED_ADJUSTED = (("as logged", False), ("with triage", True))


def kg_wide_html(data: RunData) -> str:
    """The KG-wide win rate as logged and with triage, each with its interval, chance and
    answers, and per predicate (`analysis.kgwide`); a plain sentence for a run without it."""
    rows = []
    estimates = [(name, kg_wide(data, adjusted)) for name, adjusted in LOGGED_ADJUSTED]
    shown_rates = [kw.rate for _, kw in estimates if kw is not None]
    for name, kw in estimates:
        if kw is None:
            continue
        chance = kw.chance_win
        rows.append(
            f"<tr><td class='l'>{name}</td><td>{html_text(win_text(kw.rate))}</td>"
            f"<td>{html_text(chance_text(chance, kw.rate))}</td>"
            f"<td>{html_text(n_text(kw.rate))}</td></tr>"
        )
    for sense, label in SENSE_ROWS.items():
        two = kg_wide_sense(data, sense, adjusted=False)
        if two is None:
            if rows:  # a run with a KG-wide rate, whose two-ask rates are not settled yet
                rows.append(
                    f"<tr><td class='l'>{html_text(label)}, as logged</td>"
                    f"<td>{html_text(TOO_FEW_PAIRS)}"
                    "</td><td></td><td></td></tr>"
                )
            continue
        shown_rates.append(two.rate)
        rows.append(
            f"<tr><td class='l'>{html_text(label)}, as logged</td>"
            f"<td>{html_text(sense_text(two.rate))}</td>"
            f"<td>{pct(two.chance_error)}</td><td>{html_text(n_text(two.rate))}</td></tr>"
        )
    if not rows:
        return (
            f"<h2>{html_text(KG_WIDE_TITLE)}</h2><p>None: this run was drawn without the "
            "sampling design, or has no answer yet.</p>"
        )
    per = predicate_kg_wide(data)
    pred_rows = "".join(
        f"<tr><td class='l'>{html_text(name)}</td><td>{html_text(win_text(kw.rate))}</td>"
        f"<td>{html_text(chance_text(kw.chance_win, kw.rate))}</td>"
        f"<td>{kw.rate.answers:,}</td><td>{kw.rate.edges:,}</td></tr>"
        for name, kw in sorted(per.items(), key=lambda item: (*item[1].surely_worst(), item[0]))
    )
    note = capped_note(shown_rates)
    pred_note = capped_note(kw.rate for kw in per.values())
    return (
        f"<h2>{html_text(KG_WIDE_TITLE)}</h2><table><tr><th class='l'></th>"
        "<th>rate [95% interval]</th><th>chance</th><th>n</th></tr>" + "".join(rows) + "</table>"
        f"<p class='note'>{html_text(method_note(next(kw for _, kw in estimates if kw).rate, data))}"
        f" {html_text(TWO_ASKS)}.{html_text(f' {note}.' if note else '')}</p>"
        + (
            "<h3>KG-wide win rate per predicate, as logged, surely worst first</h3><table><tr><th class='l'>"
            "predicate</th><th>win [95% interval]</th><th>chance</th><th>answers</th><th>edges</th>"
            f"</tr>{pred_rows}</table>"
            + (f"<p class='note'>{html_text(pred_note)}.</p>" if pred_note else "")
            if pred_rows
            else ""
        )
    )


def render_html_report(data: RunData, *, top: int = 25) -> str:
    """The report as one HTML string (adjusted metrics unless noted)."""
    run, cfg = data.run, data.run.config
    ov = data.overrides
    parts = [
        "<!DOCTYPE html><html><head><meta charset='utf-8'>",
        f"<title>KGLens run {run.id}</title><style>{CSS}</style></head><body>",
        f"<h1>Run {run.id}: {html_text(run.target_label)} on {html_text(run.kg_name)}"
        f"{'/' + html_text(cfg.subset) if cfg.subset else ''}</h1>",
        _run_head(data),
    ]
    parts.append(kg_wide_html(data))
    raw, adj = overall(data, adjusted=False), overall(data, adjusted=True)
    chance_rows, chance_note = _chance_rows(data, raw, adj)
    parts.append(
        "<h2>Metrics (paper 3.2) over the edges this run examined (where its sampler looked, "
        "not the KG's rates)</h2><table><tr><th class='l'></th><th>edges</th>"
        "<th>examined</th><th>win</th><th>zero-sense</th><th>all-sense</th></tr>"
        + "".join(
            f"<tr><td class='l'>{name}</td><td>{g.edges}</td><td>{g.rates.examined}</td>"
            f"<td>{_ci(g.rates.win)}</td><td>{_ci(g.rates.zero_sense)}</td>"
            f"<td>{_ci(g.rates.all_sense)}</td></tr>"
            for name, g in (("as logged", raw), ("with triage", adj))
        )
        + chance_rows
        + "</table>"
        f"<p class='note'>With triage: {counted(len(ov.kg_error_edges), 'KG-error edge')} and "
        f"{counted(len(ov.kg_error_observations), 'KG-error reply', 'KG-error replies')} left out, "
        f"{counted(len(ov.verdicts), 'verdict')} overridden. Intervals: 95% Wilson score intervals over edges. "
        f"{html_text(chance_note)}</p>"
    )
    bias = run_yes_no_bias(data.conn, run.id)
    parts.append(_yes_no_html(bias))
    history = data.conn.execute(
        "SELECT iteration, win_rate, zero_sense_rate, all_sense_rate FROM iteration "
        "WHERE run_id = ? ORDER BY iteration",
        (run.id,),
    ).fetchall()
    if history:
        parts.append(
            line_chart(
                {
                    name: [(float(h[0]), h[k]) for h in history]
                    for k, name in ((1, "win"), (2, "zero-sense"), (3, "all-sense"))
                },
                "Rates after each iteration (as logged)",
            )
        )
    m, n = data.counts(True)
    seen = ((m + n) > 0) & data.included(True)
    if seen.any():
        parts.append(
            histogram(
                data.mean_error(True)[seen].tolist(),
                "Expected error rate alpha/(alpha+beta) of examined edges",
            )
        )
    per_pred = group_table(data, "predicate")
    parts.append(
        bar_chart(
            [
                Bar(
                    r.label,
                    r.rates.zero_sense.value,
                    r.rates.zero_sense.low,
                    r.rates.zero_sense.high,
                    f"({r.rates.examined})",
                )
                for r in per_pred
            ],
            "Zero-sense rate per predicate (95% Wilson interval; examined edges)",
        )
    )
    parts.append(_group_html("Per predicate", per_pred))
    parts.append(grid_html(cross_table(data, "subject", "predicate")))
    parts.append(_group_html("Per subject", group_table(data, "subject")))
    parts.append(_group_html("Per entity group (subject)", group_table(data, "group")))
    parts.append(_group_html("Per year of dated facts", group_table(data, "year")))
    summary = error_type_summary(data)
    parts.append(
        "<h2>Error types (paper Table 5)</h2><table><tr><th class='l'>type</th><th>replies</th>"
        "<th>edges</th><th>detected</th><th>tagged</th></tr>"
        + "".join(
            f"<tr><td class='l'>{html_text(t.label)}</td><td>{t.replies}</td><td>{t.edges}</td>"
            f"<td>{t.detected}</td><td>{t.tagged}</td></tr>"
            for t in summary.types
        )
        + f"</table><p class='note'>{summary.incorrect} incorrect, {summary.refused} refused, "
        f"{summary.unparseable} unparseable replies.</p>"
    )
    counts = review_counts(data)
    worst = blind_spots(data, limit=top)
    parts.append(
        f"<h2>Blind spots: top {len(worst)} by expected error rate</h2>"
        + bias_warning_html(bias)
        + f"<p class='note'>{counts['zero_sense']} zero-sense edges, {counts['flips']} flip between "
        f"phrasings, {counts['confirmed']} confirmed.</p><table><tr><th>edge</th>"
        "<th class='l'>subject</th><th class='l'>predicate</th><th class='l'>object</th>"
        "<th>m</th><th>n</th><th>expected error [95% credible]</th><th class='l'>flags</th></tr>"
        + "".join(
            f"<tr><td>{r.edge_id}</td><td class='l'>{html_text(r.subject)}</td>"
            f"<td class='l'>{html_text(r.predicate)}</td><td class='l'>{html_text(r.object)}</td>"
            f"<td>{r.m}</td><td>{r.n}</td><td style='background:{heat_hex(r.mean)};"
            f"color:{text_on(r.mean)}'>{pct(r.mean)} [{pct(r.low)}, {pct(r.high)}]</td>"
            f"<td class='l'>{html_text(_flags(r.zero_sense, r.flips, r.confirmed))}</td></tr>"
            for r in worst
        )
        + "</table>"
    )
    log = triage_log(data.conn, run_id=run.id)
    actions = Counter(e.action for e in current_entries(log))
    parts.append(
        f"<h2>Triage</h2><p>{counted(len(log), 'entry', 'entries')} in the audit trail; in force: "
        + (", ".join(f"{v} {k}" for k, v in sorted(actions.items())) or "none")
        + ".</p>"
    )
    parts.append("</body></html>")
    return "\n".join(p for p in parts if p)


def _flags(zero: bool, flips: bool, confirmed: bool) -> str:
    return " ".join(
        name
        for name, on in (("zero-sense", zero), ("flips", flips), ("confirmed", confirmed))
        if on
    )


def write_html_report(data: RunData, path: Path, *, top: int = 25, force: bool = False) -> Path:
    """Write the report to a file (see core.safewrite)."""
    return write_text(path, render_html_report(data, top=top), force=force)
