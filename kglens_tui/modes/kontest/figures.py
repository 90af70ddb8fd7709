"""KONTEST's Fig. 4 as a file: each run's consistency errors with their 95% intervals and what a
coin scores, and how many errors one run, some runs or all runs make."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from kglens_tui.answers.bias import Rate
from kglens_tui.core.figure_files import figure_label, new_figure, plain, rate_bars
from kglens_tui.modes.chance import metamorphic_chance
from kglens_tui.modes.kontest.compare import ErrorOverlap
from kglens_tui.runs.config import ModeConfig
from kglens_tui.runs.record import RunRecord
from kglens_tui.textfmt import counted, simulated_mark

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def _overlap_figure(
    compared: tuple[Sequence[RunRecord[ModeConfig]], ErrorOverlap],
) -> Figure | None:
    """Left: each run's errors (of its valid tests, n) with the 95% interval and chance, its
    legend under it; right: errors made by exactly k of the runs, of all the runs' distinct
    errors (None when the runs share no relation)."""
    runs, o = compared
    if not o.relations:
        return None
    fig = new_figure(9.0, max(2.6, 0.45 * len(runs) + 1.6))
    left, right = fig.subplots(1, 2, width_ratios=(3, 2))
    rates = [Rate(len(o.errors[i]), o.valid[i]) for i in range(len(runs))]
    rate_bars(
        left,
        [
            f"run {r.id}: {figure_label(r.target_label, 28)}"
            f"{simulated_mark(r.target_label, r.simulated)} (n={n:,})"
            for r, n in zip(runs, o.valid, strict=True)
        ],
        [(r.value or 0.0, *(r.interval or (0.0, 0.0))) for r in rates],
        [None if p is None else metamorphic_chance(p) for p in o.yes_rates],
        "tab:red",
        "coin at the run's yes-rate",
        legend_side="left",
    )
    left.set_xlabel("errors (% of n valid metamorphic tests), 95% interval")
    ks = np.arange(1, len(runs) + 1)
    right.bar(ks, [o.shared_by(int(k)) for k in ks], color="tab:gray")
    right.set_xticks(ks, [str(k) for k in ks])
    right.set_xlabel("runs making the error")
    right.set_ylabel("errors")
    right.set_title(f"n = {len(frozenset().union(*o.errors)):,} distinct errors", fontsize="small")
    fig.suptitle(
        f"KONTEST Fig. 4: consistency errors over the {counted(o.relations, 'relation')} all runs answered"
    )
    return fig


overlap_figure = plain(_overlap_figure)
"""`_overlap_figure` with its texts as data."""
