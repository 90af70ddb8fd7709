"""What a fact-eval run's report shows of its metrics (`FactevalMode.report_figures`): the
true/false answer bias and F1 beside the best guesser that ignores the question, first, so that
a bias is never read as knowledge; then precision, recall and abstention per question type and
context, the answers by category, and per relation, as panels of literal text."""

from __future__ import annotations

import sqlite3

from kglens_tui.modes.chance import TFQ_WORDS
from kglens_tui.modes.config import CONTEXTS
from kglens_tui.modes.facteval.compare import run_per_relation_panel
from kglens_tui.modes.facteval.engine import FactevalMetrics
from kglens_tui.modes.facteval.scoring import Scores
from kglens_tui.modes.facteval.similarity import diversity_panel, similarity_panel
from kglens_tui.runs.panels import Panel, numbered_rows
from kglens_tui.runs.unit_report import answered_line
from kglens_tui.textfmt import num, pct, rate_ci


def facteval_run_panels(conn: sqlite3.Connection, run_id: int, m: FactevalMetrics) -> list[Panel]:
    """`facteval_panels`, then per relation and, where a generator wrote questions, how close
    they are to the templates (Table 6) and how varied (Table 7)."""
    extra = (similarity_panel(conn, run_id), diversity_panel(conn, run_id))
    return [
        *facteval_panels(m),
        run_per_relation_panel(conn, run_id),
        *(p for p in extra if p is not None),
    ]


def facteval_panels(m: FactevalMetrics) -> list[Panel]:
    """The chance head, then precision, recall and abstention with contexts side by side, the
    answers by category and the questions answered."""
    lines = [
        answered_line(
            m.questions_done, m.questions, m.questions_failed, "questions (every context)"
        ),
        *(
            f"SAQ, {n.context}: the replies name {n.named:,} of {n.total:,} correct answers "
            f"({pct(n.rate)})"
            for n in m.saq_named
        ),
        "Precision is over non-abstained answers, recall over all answered questions; failed "
        "requests are left out of both.",
    ]
    return [*chance_panels(m), scores_panel(m), counts_panel(m, tuple(lines))]


def _context(name: str) -> str:
    return "no context" if name == "none" else name


def _question(s: Scores) -> str:
    return "all" if s.qtype == "all" else f"{s.qtype.upper()} {s.format}"


def chance_panels(m: FactevalMetrics) -> list[Panel]:
    """True/false bias and bias-corrected scores, a warning per biased context, and F1 next to
    chance."""
    order = {c: i for i, c in enumerate(CONTEXTS)}
    biases = sorted(m.tfq_bias, key=lambda cb: order.get(cb[0], len(order)))
    out: list[Panel] = []
    if biases:
        rows = [
            (
                _context(context),
                b.yes_rate.text(),
                num(b.balanced_accuracy),
                num(b.kappa),
                f"{pct(b.accuracy_expected_yes.value)} · {pct(b.accuracy_expected_no.value)}",
                f"{b.unparsed:,}",
            )
            for context, b in biases
        ]
        out.append(
            Panel(
                "bias",
                "True/false answers: bias and bias-corrected scores",
                (
                    "context",
                    "CORRECT-rate [95%] (n)",
                    "balanced acc. (chance 0.50)",
                    "kappa (chance 0)",
                    "acc. true · false",
                    "no verdict",
                ),
                numbered_rows(rows),
                align="lRrrrr",
            )
        )
        out += [
            Panel(
                f"bias-{context}", "", warning=f"TFQ, {_context(context)}: {b.warning(**TFQ_WORDS)}"
            )
            for context, b in biases
            if b.biased
        ]
    rows = []
    for s in m.scores:
        best = m.best_chance_of(s.qtype, s.format, s.context)
        rows.append(
            (
                _question(s),
                _context(s.context),
                rate_ci(s.f1, *s.f1_ci),
                pct(best.value if best else None),
                f"{s.total:,}",
                best.guesser if best else "—",
            )
        )
    out.append(
        Panel(
            "chance",
            "Against chance: F1 next to the best guesser that ignores the question",
            ("question", "context", "F1 [95%]", "chance", "n", "best blind guess"),
            numbered_rows(rows),
            caption="F1 [95%]: credible interval under a Jeffreys prior on the shares of right, "
            "wrong and abstained replies; n: questions replied to (failed requests excluded). A "
            "guesser never abstains, so its precision, recall and F1 all equal its accuracy; "
            "'all' lets it pick the best guess per question type.",
            align="llrrrl",
        )
    )
    return out


def scores_panel(m: FactevalMetrics) -> Panel:
    """Precision, recall and abstention per question kind (and context, when the run asked in
    several), with the best blind guess's accuracy."""
    several = len({s.context for s in m.scores}) > 1
    rows = []
    for s in m.scores:
        best = m.best_chance_of(s.qtype, s.format, s.context)
        context = s.context if s.context != "none" else "no context"
        rows.append(
            (
                f"{_question(s)} · {context}" if several else _question(s),
                rate_ci(*s.precision_ci.bounds),
                rate_ci(*s.recall_ci.bounds),
                pct(best.value if best else None),
                rate_ci(*s.abstention_ci.bounds),
                f"{s.total:,}",
            )
        )
    question = "question · context" if several else "question"
    return Panel(
        "scores",
        "LLM-facteval: precision · recall · abstention rate per context",
        (question, "precision", "recall", "chance", "abstained", "n"),
        numbered_rows(rows),
        caption="Wilson 95% intervals; chance: the best blind guess's accuracy, which is its "
        "precision and recall (it never abstains).",
        align="lrrrrr",
    )


def counts_panel(m: FactevalMetrics, notes: tuple[str, ...] = ()) -> Panel:
    """Each question kind's and context's answers by category, ``notes`` under them."""
    rows = [
        (
            _question(s),
            s.context,
            *(f"{v:,}" for v in (s.correct, s.incorrect, s.unparseable, s.abstained, s.errors)),
        )
        for s in m.scores
    ]
    return Panel(
        "counts",
        "Answers by category",
        ("question", "context", "correct", "incorrect", "unparseable", "abstained", "failed"),
        numbered_rows(rows),
        align="llrrrrr",
        notes=notes,
    )
