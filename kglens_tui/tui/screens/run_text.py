"""How the review, analysis and compare screens write a run's rates, labels and cells."""

from __future__ import annotations

from rich.text import Text

from kglens_tui.analysis.colours import heat_hex
from kglens_tui.analysis.filters import EdgeFilter
from kglens_tui.analysis.groups import RATES, overall
from kglens_tui.analysis.logged import bias_warning_of
from kglens_tui.analysis.rundata import RunData
from kglens_tui.core.safetext import LABEL_LIMIT, literal, markup_literal, visible
from kglens_tui.textfmt import pct, rate_ci, simulated_mark


def metrics_text(data: RunData, flt: EdgeFilter | None = None) -> Text:
    """The run's three rates (as filtered) with the triage overrides and without them (raw),
    side by side: a line a rate, each with its 95% interval and what chance scores on the same
    questions (`groups.overall`'s chance, with or without the triage as the rate), n in the
    column's title. Within 80 columns for all but rates and chance of 100% in both columns."""
    adj, raw = overall(data, flt, adjusted=True), overall(data, flt, adjusted=False)
    columns = [
        (f"with overrides, n={adj.rates.examined:,}", adj),
        (f"raw (triage ignored), n={raw.rates.examined:,}", raw),
    ]
    cells = [
        [
            f"{rate_ci(*row.rates.get(field).bounds)} chance {pct(getattr(row.chance, chance))}"
            for _, row in columns
        ]
        for _, field, chance in RATES
    ]
    name_width = max(len(name) for name, _, _ in RATES)
    first = max(len(columns[0][0]), *(len(line[0]) for line in cells))
    text = Text()
    text.append(f"{'':<{name_width}}  {columns[0][0]:<{first}}  {columns[1][0]}", style="bold")
    for (name, _, _), (adj_cell, raw_cell) in zip(RATES, cells, strict=True):
        text.append(f"\n{name:<{name_width}}  {adj_cell:<{first}}  {raw_cell}")
    return text


WARNING_STYLE = "bold yellow"


def bias_warning(data: RunData) -> Text:
    """The run's answer-bias warning on one line (`answers.bias.run_bias_warning`, as `kglens
    report`: over the replies as logged, whatever the triage), literal; empty when the bias
    rule does not fire."""
    warning = bias_warning_of(data)
    return literal(f"⚠ {warning} (replies as logged)" if warning else "", WARNING_STYLE)


def short(text: str, width: int) -> str:
    """Text on one line, cut to `width` characters with an ellipsis, control characters made
    visible (for a table cell or a literal Text)."""
    return visible(text, one_line=True, limit=width)


def run_label(data: RunData) -> str:
    """Run id, model, KG and difficulty on one line."""
    label = data.run.target_label + simulated_mark(data.run.target_label, data.run.simulated)
    return (
        f"[b]Run {data.run.id}[/] · {markup_literal(label, limit=LABEL_LIMIT)} · KG {markup_literal(data.run.kg_name, limit=LABEL_LIMIT)} · "
        f"{data.run.config.difficulty} · {data.n_edges:,} edges"
    )


def heat(value: float | None, text: str) -> Text:
    """Text coloured by the heat scale of an error rate."""
    return Text(text, style=heat_hex(value) if value is not None else "")
