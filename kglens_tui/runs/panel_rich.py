"""A report's panels (`Mode.report_panels`) as rich renderables, for the command line and the
results screen: each panel's table (title and caption above and under it) and its notes and
warning, every text literal (never markup)."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console, RenderableType

from kglens_tui.core.console import console
from kglens_tui.core.safetext import LiteralTable, literal
from kglens_tui.runs.panels import Panel

WARNING_STYLE = "bold yellow"


def panel_renderables(panels: Iterable[Panel]) -> list[RenderableType]:
    """Each panel in order: its table (or, with no columns, its title and caption as lines),
    then its notes, then its warning marked "⚠"."""
    out: list[RenderableType] = []
    for panel in panels:
        if panel.columns:
            out.append(_table(panel))
        else:
            out += [literal(panel.title, "bold")] if panel.title else []
            out += [literal(panel.caption, "dim")] if panel.caption else []
        out += [literal(note) for note in panel.notes]
        if panel.warning:
            out.append(literal(f"⚠ {panel.warning}", WARNING_STYLE))
    return out


def _table(panel: Panel) -> LiteralTable:
    table = LiteralTable(
        title=panel.title or None,
        title_justify="left",
        caption=panel.caption or None,
        caption_justify="left",
    )
    for i, column in enumerate(panel.columns):
        align = panel.align[i : i + 1]
        table.add_column(
            column, justify="right" if align in ("r", "R") else "left", no_wrap=align in ("L", "R")
        )
    for row in panel.rows:
        table.add_row(*row.cells)
    return table


def print_panels(panels: Iterable[Panel], out: Console = console) -> None:
    """Print `panel_renderables` (a report on the command line)."""
    for renderable in panel_renderables(panels):
        out.print(renderable)
