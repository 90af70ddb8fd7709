"""How the review, analysis and compare screens write a run's rates, labels and cells."""

from __future__ import annotations

from rich.text import Text

from kglens_tui.analysis.colours import heat_hex
from kglens_tui.analysis.filters import EdgeFilter
from kglens_tui.analysis.groups import overall
from kglens_tui.analysis.report import rates_line
from kglens_tui.analysis.rundata import RunData
from kglens_tui.core.safetext import LABEL_LIMIT, markup_literal, visible
from kglens_tui.textfmt import simulated_mark


def run_metrics(data: RunData, flt: EdgeFilter | None = None) -> str:
    """The run's rates with triage overrides, and without them (raw)."""
    adj, raw = overall(data, flt, adjusted=True), overall(data, flt, adjusted=False)
    return f"with overrides: {rates_line(adj)}\nraw:            {rates_line(raw)}"


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
