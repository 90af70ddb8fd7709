"""A report's panels (`Mode.report_panels`) as HTML, for the HTML report of a run whose mode
declares them: each panel's table with its title and caption, its notes and warning, every text
escaped (`html_text`: data, never a tag or an entity)."""

from __future__ import annotations

from collections.abc import Iterable

from kglens_tui.core.safetext import html_text
from kglens_tui.runs.panels import Panel

CSS = """
body{font-family:sans-serif;margin:2em;max-width:1100px;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}
caption{caption-side:top;text-align:left;font-weight:bold;padding:4px 0}
th,td{border:1px solid #ccc;padding:3px 8px;font-size:13px;text-align:left}
th{background:#f3f3f3} td.r,th.r,td.R,th.R{text-align:right}
td.L,th.L,td.R,th.R{white-space:nowrap}
.note{color:#555;font-size:13px}
.warn{background:#fff3c4;border-left:4px solid #e0a800;padding:4px 8px;font-weight:bold}
"""


def panels_html(panels: Iterable[Panel]) -> str:
    """The panels in order as HTML elements: a table (the title its caption, the panel's caption
    in a note under it), or a heading for a panel without columns; then notes and warning."""
    out: list[str] = []
    for panel in panels:
        if panel.columns:
            out.append(_table(panel))
        elif panel.title:
            out.append(f"<h2>{html_text(panel.title)}</h2>")
        if panel.caption:
            out.append(f"<p class='note'>{html_text(panel.caption)}</p>")
        out += [f"<p>{html_text(note)}</p>" for note in panel.notes]
        if panel.warning:
            out.append(f"<p class='warn'>⚠ {html_text(panel.warning)}</p>")
    return "\n".join(out)


def panels_page(title: str, panels: Iterable[Panel]) -> str:
    """A self-contained HTML document of the panels (no scripts, no external files)."""
    return (
        "<!DOCTYPE html>\n<html><head><meta charset='utf-8'>"
        f"<title>{html_text(title)}</title><style>{CSS}</style></head><body>\n"
        f"<h1>{html_text(title)}</h1>\n{panels_html(panels)}\n</body></html>\n"
    )


def _table(panel: Panel) -> str:
    def cls(i: int) -> str:
        align = panel.align[i : i + 1]
        return f" class='{align}'" if align in ("r", "L", "R") else ""

    head = "".join(f"<th{cls(i)}>{html_text(c)}</th>" for i, c in enumerate(panel.columns))
    body = "".join(
        "<tr>"
        + "".join(f"<td{cls(i)}>{html_text(c)}</td>" for i, c in enumerate(row.cells))
        + "</tr>\n"
        for row in panel.rows
    )
    caption = f"<caption>{html_text(panel.title)}</caption>" if panel.title else ""
    return f"<table>{caption}<thead><tr>{head}</tr></thead>\n<tbody>\n{body}</tbody></table>"
