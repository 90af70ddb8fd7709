"""The PKG around an entity (paper Fig. 2) drawn in the terminal: a radial picture with edges
coloured by expected error rate, and the neighbours listed by predicate."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from kglens_tui.analysis.colours import heat_hex
from kglens_tui.analysis.ego import EgoGraph, ego_graph
from kglens_tui.analysis.rundata import RunData
from kglens_tui.core.safetext import LABEL_LIMIT, markup_literal, visible
from kglens_tui.textfmt import counted, pct
from kglens_tui.tui.format import BREAKPOINTS
from kglens_tui.tui.screens.run_text import short
from kglens_tui.tui.widgets.title_header import TitleHeader

EGO_HELP = """\
## Ego graph

| key | action |
| --- | --- |
| `1` / `2` | radius: direct neighbours, or two hops |
| `escape` | back |

Edges are coloured by the expected error rate alpha / (alpha + beta) of the run's PKG: green
(0) through amber (0.5) to red (1); only edges of the run are drawn, at most 60. The list on the right groups
the edges by predicate, worst first.
"""

UNPROBED = "#6e6e6e"
CANVAS = (84, 36)
MAX_EDGES = 60
"""Edges drawn at most (probed edges, worst first within a hop)."""


def draw(graph: EgoGraph, width: int, height: int) -> Text:
    """A character picture of the graph: coloured edge dots, then node labels on top."""
    cells: list[list[tuple[str, str]]] = [[(" ", "")] * width for _ in range(height)]
    where = {n.key: (round(n.x * (width - 1)), round(n.y * (height - 1))) for n in graph.nodes}
    for e in sorted(graph.edges, key=lambda e: (e.mean is not None, e.mean or 0.0)):
        if e.source not in where or e.target not in where:
            continue
        (x0, y0), (x1, y1) = where[e.source], where[e.target]
        steps = max(abs(x1 - x0), abs(y1 - y0), 1)
        colour = heat_hex(e.mean) if e.in_run else UNPROBED
        for k in range(steps + 1):
            x = round(x0 + (x1 - x0) * k / steps)
            y = round(y0 + (y1 - y0) * k / steps)
            cells[y][x] = ("·", colour)
    taken = [[False] * width for _ in range(height)]
    for n in sorted(graph.nodes, key=lambda n: (n.depth, -(n.mean_error or 0.0))):
        x, y = where[n.key]
        style = "bold reverse" if n.key == graph.center else f"bold {heat_hex(n.mean_error)}"
        label = short(n.label, 16 if n.depth else 24)
        if n.key == graph.center:
            start = min(max(0, x - len(label) // 2), width - len(label))
        elif x >= width // 2:
            start = min(x, width - len(label))
        else:
            start = max(0, x - len(label) + 1)
        span = range(max(0, start - 1), min(width, start + len(label) + 1))
        if any(taken[y][i] for i in span):
            if not taken[y][x]:
                cells[y][x], taken[y][x] = ("●", style), True
            continue
        for i, ch in enumerate(label):
            cells[y][start + i] = (ch, style)
        for i in span:
            taken[y][i] = True
    text = Text()
    for row in cells:
        for ch, style in row:
            text.append(ch, style=style or None)
        text.append("\n")
    return text


def neighbour_list(graph: EgoGraph) -> Text:
    """The edges grouped by predicate, each coloured by its expected error."""
    labels = {n.key: n.label for n in graph.nodes}
    by_pred: dict[str, list[Any]] = {}
    for e in graph.edges:
        by_pred.setdefault(e.predicate, []).append(e)
    text = Text()
    order = sorted(
        by_pred.items(), key=lambda kv: (-max((e.mean or 0.0) for e in kv[1]), kv[0].casefold())
    )
    for pred, edges in order:
        text.append(f"{visible(pred)}\n", style="bold")
        for e in sorted(edges, key=lambda e: -(e.mean or 0.0)):
            other = e.target if e.source == graph.center else e.source
            arrow = "→" if e.source == graph.center else "←"
            rate = f"{pct(e.mean)} m{e.m} n{e.n}" if e.in_run else "not asked"
            flag = " KG error" if e.kg_error else (" zero-sense" if e.zero_sense else "")
            text.append(
                f"  {arrow} {short(labels.get(other, other), 28)}  {rate}{flag}\n",
                style=heat_hex(e.mean) if e.in_run else UNPROBED,
            )
    return text


class EgoScreen(Screen[Any]):
    """An entity's neighbourhood in the run's PKG."""

    BINDINGS = [
        Binding("1", "radius(1)", "Radius 1"),
        Binding("2", "radius(2)", "Radius 2"),
        Binding("escape", "app.pop_screen", "Back"),
        Binding("question_mark", "app.help", "Help"),
    ]
    HELP = EGO_HELP

    HORIZONTAL_BREAKPOINTS = BREAKPOINTS

    def __init__(self, data: RunData, entity: str, radius: int = 1) -> None:
        super().__init__()
        self.data = data
        self.entity = entity
        self.radius = radius

    def compose(self) -> ComposeResult:
        yield TitleHeader()
        yield Static("", id="ego-title")
        with Horizontal(id="ego"):
            yield Static("", id="ego-picture")
            with VerticalScroll(id="ego-list-box"):
                yield Static("", id="ego-list")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_view()

    def refresh_view(self) -> None:
        """Recompute and redraw the graph."""
        graph = ego_graph(
            self.data, self.entity, radius=self.radius, max_edges=MAX_EDGES, include_unprobed=False
        )
        centre = next((n.label for n in graph.nodes if n.key == graph.center), self.entity)
        asked = sum(1 for e in graph.edges if e.in_run)
        self.query_one("#ego-title", Static).update(
            f"[b]{markup_literal(centre, limit=LABEL_LIMIT)}[/] · radius {self.radius} · {counted(len(graph.nodes), 'entity', 'entities')}, "
            f"{counted(len(graph.edges), 'edge')} ({asked} in run {self.data.run.id})"
            f"{' · truncated' if graph.truncated else ''}"
        )
        self.query_one("#ego-picture", Static).update(draw(graph, *CANVAS))
        self.query_one("#ego-list", Static).update(neighbour_list(graph))

    def action_radius(self, radius: int) -> None:
        self.radius = radius
        self.refresh_view()
