"""LLM-facteval per relation as a file: each relation's F1 (every question type) with its 95%
interval and the best blind guess, per context where the run has several."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from kglens_tui.core.figure_files import figure_label, new_figure, plain, rate_bars
from kglens_tui.modes.config import CONTEXTS
from kglens_tui.modes.facteval.scoring import Scores
from kglens_tui.runs.config import ModeConfig
from kglens_tui.runs.record import RunRecord
from kglens_tui.textfmt import simulated_mark

if TYPE_CHECKING:
    from matplotlib.figure import Figure

PerRelation = tuple[
    Mapping[tuple[int, str], Scores], Mapping[int, str], Mapping[tuple[int, str], float]
]
"""(scores, relation labels, chance) per (predicate id, context), as `per_relation_panel`."""


def _relation_figure(run_per: tuple[RunRecord[ModeConfig], PerRelation]) -> Figure | None:
    """F1 per relation (and context), worst first, with its interval, chance and n (questions
    replied to), titled with the run and its target, marked when simulated (None when no
    question was replied to)."""
    run, (scores, labels, chance) = run_per
    rows = [(key, s) for key, s in scores.items() if s.total and s.f1 is not None]
    if not rows:
        return None
    several = len({context for (_, context), _ in rows}) > 1
    rows.sort(key=lambda r: (r[1].f1 or 0.0, labels.get(r[0][0], ""), CONTEXTS.index(r[0][1])))
    fig = new_figure(6.4, max(2.0, 0.28 * len(rows) + 1.2))
    ax = fig.add_subplot()
    names = [
        figure_label(labels.get(p, str(p)), 24)
        + (f" · {context}" if several else "")
        + f" (n={s.total:,})"
        for (p, context), s in rows
    ]
    rate_bars(
        ax,
        names,
        [_f1_with_interval(s) for _, s in rows],
        [chance.get(key) for key, _ in rows],
        "tab:green",
        "best blind guess",
    )  # worst on top
    ax.set_xlabel("F1 (%) of every question type, 95% interval\nn: questions replied to")
    target = figure_label(run.target_label, 40) + simulated_mark(run.target_label, run.simulated)
    ax.set_title(f"Run {run.id}, {target}:\nLLM-facteval F1 per relation, worst first")
    return fig


def _f1_with_interval(s: Scores) -> tuple[float, float, float]:
    """F1 and its interval as shares (an unknown bound: the F1 itself)."""
    f1 = s.f1 or 0.0
    low, high = s.f1_ci
    return f1, f1 if low is None else low, f1 if high is None else high


relation_figure = plain(_relation_figure)
"""`_relation_figure` with its texts as data."""
