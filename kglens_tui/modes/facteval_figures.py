"""LLM-facteval per relation as a file: each relation's F1 (every question type) with its 95%
interval and the best blind guess, per context where the run has several."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np

from kglens_tui.core.figure_files import figure_label, new_figure, plain
from kglens_tui.modes.config import CONTEXTS
from kglens_tui.modes.facteval_scoring import Scores

if TYPE_CHECKING:
    from matplotlib.figure import Figure

PerRelation = tuple[
    Mapping[tuple[int, str], Scores], Mapping[int, str], Mapping[tuple[int, str], float]
]
"""(scores, relation labels, chance) per (predicate id, context), as `per_relation_table`."""


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
    y = np.arange(len(rows))
    f1 = np.array([100 * (s.f1 or 0.0) for _, s in rows])
    low = np.array([100 * (s.f1_ci[0] if s.f1_ci[0] is not None else s.f1 or 0.0) for _, s in rows])
    high = np.array(
        [100 * (s.f1_ci[1] if s.f1_ci[1] is not None else s.f1 or 0.0) for _, s in rows]
    )
    ax.barh(y, f1, xerr=[f1 - low, high - f1], capsize=2, color="tab:green", alpha=0.8)
    blind = [chance.get(key) for key, _ in rows]
    ax.scatter(
        [100 * c for c in blind if c is not None],
        [i for i, c in enumerate(blind) if c is not None],
        marker="|",
        color="black",
        s=120,
        label="best blind guess",
        zorder=3,
    )
    names = [
        figure_label(labels.get(p, str(p)) + (f" · {context}" if several else ""))
        for (p, context), _ in rows
    ]
    ax.set_yticks(y, names, fontsize="small")
    ax.invert_yaxis()  # worst on top
    ax.set_xlim(0, 100)
    ax.set_xlabel("F1 (%) of every question type, 95% interval")
    ax.set_title("LLM-facteval per relation, worst first")
    ax.legend(loc="lower right", fontsize="x-small")
    return fig


relation_figure = plain(_relation_figure)
"""`_relation_figure` with its texts as data."""
