"""A report's panels (`Mode.report_panels`) as rich renderables, for the command line and the
results screen: each panel's table (title and caption above and under it) and its notes and
warning, every text literal (never markup)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from rich.console import Console, RenderableType
from rich.text import Text

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
            out.append(warning_text(panel.warning))
    return out


def warning_text(warning: str) -> Text:
    """A panel's warning, marked "⚠"."""
    return literal(f"⚠ {warning}", WARNING_STYLE)


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
    """Print `panel_renderables` (a report on the command line); a warning on one line that the
    terminal wraps, so that what it quotes (a failed run's cause, its address) stays whole to
    copy."""
    for panel in panels:
        for renderable in panel_renderables([replace(panel, warning="")]):
            out.print(renderable)
        if panel.warning:
            out.print(warning_text(panel.warning), soft_wrap=True)
