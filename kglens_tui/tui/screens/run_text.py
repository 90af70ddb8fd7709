"""How the review, analysis and compare screens write a run's rates, labels and cells."""

from __future__ import annotations

from rich.text import Text

from kglens_tui.analysis.colours import heat_hex
from kglens_tui.analysis.filters import EdgeFilter
from kglens_tui.analysis.groups import RATES, overall
from kglens_tui.analysis.kgwide import KGWide
from kglens_tui.analysis.logged import bias_warning_of
from kglens_tui.analysis.rundata import RunData
from kglens_tui.core.safetext import LABEL_LIMIT, literal, markup_literal, visible
from kglens_tui.modes.kglens.rate_text import win_text, worth
from kglens_tui.textfmt import counted, pct, rate_ci, simulated_mark


def metrics_text(data: RunData, flt: EdgeFilter | None = None) -> Text:
    """The run's rates (as filtered) with the triage overrides and without them (raw), side by
    side: first its KG-wide win rate (`GroupRow.kg_wide`) with its 95% interval, chance on the
    same estimand and the answers it rests on, then the paper's three rates over the examined
    edges (how many in the "examined" line), each with its 95% interval and what chance scores
    on the same questions (`groups.overall`'s chance). Within 78 columns (a screen of 80) for
    all but a chance of 100% in both columns."""
    adj, raw = overall(data, flt, adjusted=True), overall(data, flt, adjusted=False)
    columns = (adj, raw)
    rows: list[tuple[str, list[str]]] = [
        ("", ["with overrides", "raw (triage ignored)"]),
        ("KG-wide", [_kg_wide_cell(row.kg_wide) for row in columns]),
        ("  answers", [_answers_cell(row.kg_wide) for row in columns]),
        ("examined", [counted(row.rates.examined, "edge") for row in columns]),
    ]
    rows += [
        (
            name,
            [
                f"{rate_ci(*row.rates.get(field).bounds)} chance {pct(getattr(row.chance, chance))}"
                for row in columns
            ],
        )
        for name, field, chance in RATES
    ]
    name_width = max(len(name) for name, _ in rows)
    first = max(len(cells[0]) for _, cells in rows)
    text = Text()
    for n, (name, (left, right)) in enumerate(rows):
        text.append("\n" if n else "")
        text.append(
            f"{name:<{name_width}}  {left:<{first}}  {right}".rstrip(), "bold" if not n else ""
        )
    return text


def _kg_wide_cell(wide: KGWide | None) -> str:
    """A KG-wide win rate with its interval and chance ("—": the run has none)."""
    if wide is None:
        return "—"
    return f"{win_text(wide.rate)} chance {pct(wide.chance_win)}"


def _answers_cell(wide: KGWide | None) -> str:
    """The answers a KG-wide rate rests on, and what they are worth as independent asks where
    weighting makes the count misleading."""
    if wide is None:
        return "—"
    asks = worth(wide.rate)
    return f"{wide.rate.answers:,}" + ("" if asks is None else f" (worth {asks:,.0f} asks)")


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
        f"{data.run.config.difficulty} · {counted(data.n_edges, 'edge')}"
    )


def heat(value: float | None, text: str) -> Text:
    """Text coloured by the heat scale of an error rate."""
    return Text(text, style=heat_hex(value) if value is not None else "")
