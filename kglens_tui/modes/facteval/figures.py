"""LLM-facteval per relation as a file: each relation's F1 (every question type) with its 95%
interval and the best blind guess, per context where the run has several."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from kglens_tui.core.figure_files import new_figure, plain, rate_bars
from kglens_tui.modes.config import CONTEXTS
from kglens_tui.modes.facteval.scoring import Scores

if TYPE_CHECKING:
    from matplotlib.figure import Figure

PerRelation = tuple[
    Mapping[tuple[int, str], Scores], Mapping[int, str], Mapping[tuple[int, str], float]
]
"""(scores, relation labels, chance) per (predicate id, context), as `per_relation_panel`."""


def _relation_figure(per: PerRelation) -> Figure | None:
    """F1 per relation (and context), worst first, with its interval and chance (None when no
    question was replied to)."""
    scores, labels, chance = per
    rows = [(key, s) for key, s in scores.items() if s.total and s.f1 is not None]
    if not rows:
        return None
    several = len({context for (_, context), _ in rows}) > 1
    rows.sort(key=lambda r: (r[1].f1 or 0.0, labels.get(r[0][0], ""), CONTEXTS.index(r[0][1])))
    fig = new_figure(6.4, max(2.0, 0.28 * len(rows) + 1.2))
    ax = fig.add_subplot()
    names = [
        labels.get(p, str(p)) + (f" · {context}" if several else "") for (p, context), _ in rows
    ]
    rate_bars(
        ax,
        names,
        [_f1_with_interval(s) for _, s in rows],
        [chance.get(key) for key, _ in rows],
        "tab:green",
        "best blind guess",
    )  # worst on top
    ax.set_xlabel("F1 (%) of every question type, 95% interval")
    ax.set_title("LLM-facteval per relation, worst first")
    return fig


def _f1_with_interval(s: Scores) -> tuple[float, float, float]:
    """F1 and its interval as shares (an unknown bound: the F1 itself)."""
    f1 = s.f1 or 0.0
    low, high = s.f1_ci
    return f1, f1 if low is None else low, f1 if high is None else high


relation_figure = plain(_relation_figure)
"""`_relation_figure` with its texts as data."""
