"""What the live screen shows of a fact-eval run: F1 and abstention per question kind and
context beside what the best blind guess scores, and the true/false answer bias."""

from __future__ import annotations

from kglens_tui.answers.bias import leaning
from kglens_tui.core.safetext import visible
from kglens_tui.modes.chance import TFQ_WORDS
from kglens_tui.modes.facteval.engine import FactevalMetrics
from kglens_tui.runs.panels import Panel, PanelRow
from kglens_tui.runs.units import ModeSnapshot
from kglens_tui.textfmt import num, pct, rate_ci

COLUMNS = ("question", "context", "F1 [95%]", "chance", "abstained [95%]", "n")
"""The table's columns: each group's F1 and abstention rate with their intervals, what the best
blind guess scores, and the questions replied to."""


LIVE_HELP = """\
**Fact-eval**: true/false, multiple-choice and list questions; F1 (of precision over answered
questions and recall over all) with its 95% interval, beside what the best blind guess scores;
`kglens facteval report` gives precision and recall with theirs. The **chance** column is what
a guesser that ignores the question scores on the same questions; the box on the left shows the
CORRECT-rate of true/false statements and warns of a strong answer bias.
"""
"""What the live screen's help says of a fact-eval run's figures (`Mode.live_help`)."""


def live_panels(snapshot: object) -> list[Panel]:
    """The scores' table, with the CORRECT-rate of true/false statements and their balanced
    accuracy (and a warning on a strong answer bias) beside it; none for another mode's."""
    metrics = snapshot.metrics if isinstance(snapshot, ModeSnapshot) else None
    if not isinstance(metrics, FactevalMetrics):
        return []
    rows = []
    for s in metrics.scores:
        best = metrics.best_chance_of(s.qtype, s.format, s.context)
        cells = (
            "all" if s.qtype == "all" else f"{s.qtype} {s.format}",
            s.context,
            rate_ci(s.f1, *s.f1_ci),
            pct(best.value if best is not None else None),
            rate_ci(*s.abstention_ci.bounds),
            f"{s.total:,}",
        )
        rows.append(PanelRow(f"{s.qtype}/{s.format}/{s.context}", cells))
    notes: tuple[str, ...] = ()
    warning = ""
    if metrics.tfq_bias:
        context, b = next(((c, b) for c, b in metrics.tfq_bias if c == "none"), metrics.tfq_bias[0])
        notes = (
            f"TFQ {visible(context, one_line=True, limit=20)}: CORRECT-rate {b.yes_rate.text()}",
            f"balanced acc. {num(b.balanced_accuracy)} (chance 0.50)",
        )
        leans = leaning(b.yes_rate) if b.biased else None
        if leans is not None:
            warning = f"answer bias: near what always {TFQ_WORDS[leans]} scores"
    return [
        Panel(
            "scores",
            "F1 and abstention per question and context",
            COLUMNS,
            tuple(rows),
            shrink=((0, 8), (1, 8)),
            notes=notes,
            warning=warning,
        )
    ]
