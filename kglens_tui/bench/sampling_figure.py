"""The efficiency study's chart (Fig. 3) drawn by matplotlib, for PNG and PDF: the same panels
as its SVG (`sampling_svg.Panel`): lines with min-max bands, dashed lines, labelled marks."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from kglens_tui.bench.sampling_svg import Panel
from kglens_tui.core.figure_files import figure_label, new_figure, plain

if TYPE_CHECKING:
    from matplotlib.figure import Figure

COLUMNS = 2


def _panels_figure(chart: tuple[list[Panel], str]) -> Figure:
    panels, title = chart
    rows = max(1, math.ceil(len(panels) / COLUMNS))
    fig = new_figure(4.6 * COLUMNS, 3.0 * rows + 0.6)
    axes = fig.subplots(rows, COLUMNS, squeeze=False).ravel()
    for ax, panel in zip(axes, panels, strict=False):
        for s in panel.series:
            if s.lo is not None and s.hi is not None:
                ax.fill_between(panel.x, s.lo, s.hi, color=s.colour, alpha=0.15, linewidth=0)
            ax.plot(
                panel.x,
                s.y,
                color=s.colour,
                linestyle="--" if s.dashed else "-",
                linewidth=1.2,
                label=figure_label(s.name),
            )
        for x, text in panel.marks:
            ax.axvline(x, color="grey", linestyle=":", linewidth=0.8)
            ax.annotate(
                figure_label(text, 20),
                (x, 1.0),
                xycoords=("data", "axes fraction"),
                fontsize="xx-small",
                rotation=90,
                va="top",
                ha="right",
            )
        ax.set_title(figure_label(panel.title, 60), fontsize="small")
        ax.set_xlabel(figure_label(panel.x_label, 90), fontsize="x-small")
        ax.tick_params(labelsize="x-small")
    for ax in axes[len(panels) :]:
        ax.set_visible(False)
    if panels:
        handles, labels = axes[0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="outside lower center", ncols=4, fontsize="x-small")
    fig.suptitle(figure_label(title, 120), fontsize="small")
    return fig


def panels_figure(panels: list[Panel], title: str) -> Figure:
    """The chart of ``panels`` under ``title``, its texts as data."""
    return plain(_panels_figure)((panels, title))
