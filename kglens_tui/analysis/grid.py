"""The paper's Fig. 6 grid: subjects x predicates, each cell coloured by its zero-sense rate (the
paper's error measure) with a dot sized by the cell's share of the subject's edges. One cell
format for the terminal (CLI table and TUI screen) and one for the HTML report."""

from __future__ import annotations

from rich import box
from rich.text import Text

from kglens_tui.analysis.colours import heat_hex, text_on
from kglens_tui.analysis.groups import CHANCE_FIELD, RATES, CrossCell, CrossTable, GroupRow
from kglens_tui.answers.bias import Baseline
from kglens_tui.core.intervals import Proportion
from kglens_tui.core.safetext import LiteralTable, html_text, literal, visible
from kglens_tui.textfmt import counted, pct, rate_ci

GRID_METRIC = "zero_sense"
ROW_LABEL_LIMIT = 24
COL_LABEL_LIMIT = 10
DOTS = ((0.1, "·"), (0.25, "•"), (1.01, "●"))
"""Share of the subject's edges below which a cell gets this dot (Fig. 6's dot size)."""
SMALL_N = 5
"""Below this many examined edges a cell shows its count (k/n), not a percent: "100%" of one
edge would read as a finding."""
SMALL_STYLE = "dim"
"""A cell over fewer than `SMALL_N` examined edges (none included): muted, without a heat colour
(a colour would claim a rate its n cannot support)."""
SMALL_HTML = "background:#f2f2f2;color:#6e6e6e"
"""`SMALL_STYLE` in the HTML report."""
LEGEND = (
    "colour: zero-sense rate (green 0% .. red 100%); dot: share of the subject's edges "
    f"(· < 10% ≤ • < 25% ≤ ●); k/n, uncoloured: fewer than {SMALL_N} edges examined; —: "
    "none examined; blank: no edge; chance: a blind guess's rate on the same questions"
)


def dot(share: float) -> str:
    """The Fig. 6 dot for a cell holding `share` of its row's edges."""
    return next(d for limit, d in DOTS if share < limit)


def well_measured(p: Proportion) -> bool:
    """Whether a rate is over enough examined edges (`SMALL_N`) to show as a percent and on a
    heat colour."""
    return p.n >= SMALL_N


def rate_text(p: Proportion) -> str:
    """A rate as a whole percent, as k/n when fewer than `SMALL_N` edges were examined, or an
    em dash when none was."""
    if p.value is None:
        return "—"
    return f"{p.value * 100:.0f}%" if well_measured(p) else f"{p.k}/{p.n}"


def heat_style(p: Proportion) -> str:
    """A grid rate's terminal style: text on its heat colour, muted (`SMALL_STYLE`) below
    `SMALL_N` examined edges."""
    return f"{text_on(p.value)} on {heat_hex(p.value)}" if well_measured(p) else SMALL_STYLE


def heat_css(p: Proportion) -> str:
    """`heat_style` as an HTML style attribute's value."""
    return (
        f"background:{heat_hex(p.value)};color:{text_on(p.value)}"
        if well_measured(p)
        else SMALL_HTML
    )


def cell_text(cell: CrossCell | None) -> Text:
    """A grid cell: dot and zero-sense rate in `heat_style`; empty when there is no edge."""
    if cell is None:
        return Text("")
    p = cell.rates.get(GRID_METRIC)
    return Text(f"{dot(cell.share)}{rate_text(p):>5}", style=heat_style(p))


def total_text(p: Proportion) -> Text:
    """A row's or column's overall zero-sense rate in `heat_style`, without a dot."""
    return Text(f"{rate_text(p):>5}", style=heat_style(p))


def cell_detail(row_label: str, col_label: str, cell: CrossCell | None) -> str:
    """One plain line on a cell: each rate with its interval and what chance scores on the same
    questions, and n (labels made visible)."""
    head = f"{visible(row_label, one_line=True)} × {visible(col_label, one_line=True)}: "
    if cell is None:
        return head + "no edge"
    r, chance = cell.rates, cell.chance
    rates = " · ".join(
        f"{name} {rate_ci(r.get(field).value, r.get(field).low, r.get(field).high)}"
        f" (chance {pct(getattr(chance, CHANCE_FIELD[field]))})"
        for name, field, _ in sorted(RATES, key=lambda rate: rate[1] != GRID_METRIC)
    )
    return (
        f"{head}{rates} · n={r.examined:,} examined of {counted(cell.edges, 'edge')}"
        f" ({cell.share * 100:.0f}% of the row)"
    )


def row_cell(row: GroupRow) -> CrossCell:
    """A subject's whole row as a cell (all its edges, share 1)."""
    return CrossCell(row.edges, 1.0, row.rates, row.chance)


def chance_text(chance: Baseline) -> str:
    """What chance scores on the grid's rate, as a whole percent (an em dash with no question)."""
    value = getattr(chance, CHANCE_FIELD[GRID_METRIC])
    return "—" if value is None else f"{value * 100:.0f}%"


def _col_width(label: str) -> int:
    return max(len(visible(label, one_line=True, limit=COL_LABEL_LIMIT)), 6)


def part_label(i: int, sizes: list[int]) -> str:
    """The title of part ``i`` of a grid split into parts of ``sizes`` predicates: "part 1 of
    3: predicates 1–2 of 5", so that every part says more follows; '' for a grid in one part."""
    if len(sizes) < 2:
        return ""
    first = sum(sizes[:i]) + 1
    last = first + sizes[i] - 1
    shown = f"predicate {first}" if first == last else f"predicates {first}–{last}"
    return f"part {i + 1} of {len(sizes)}: {shown} of {sum(sizes)}"


def grid_tables(cross: CrossTable, width: int, *, title: str | None = None) -> list[LiteralTable]:
    """The grid as Rich tables for the CLI, the predicates split over as many tables as it takes
    to fit `width` columns: a row per subject with its examined edges and overall rate, a column
    per predicate; labels literal and truncated."""
    label_w = max(
        (len(visible(r.label, one_line=True, limit=ROW_LABEL_LIMIT)) for r in cross.rows),
        default=len(cross.row_by),
    )
    fixed = max(label_w, len(cross.row_by)) + 4 + 7 + 8 + 8
    chunks: list[list[GroupRow]] = [[]]
    used = fixed
    for col in cross.cols:
        need = _col_width(col.label) + 3
        if chunks[-1] and used + need > width:
            chunks.append([])
            used = fixed
        chunks[-1].append(col)
        used += need
    tables = []
    for i, cols in enumerate(chunks):
        last = i == len(chunks) - 1
        part = part_label(i, [len(c) for c in chunks])
        table = LiteralTable(
            title=" · ".join(t for t in (title if i == 0 else None, part) if t) or None,
            box=box.SIMPLE_HEAD,
            caption=LEGEND if last else None,
            title_justify="left",
            caption_justify="left",
        )
        table.add_column(cross.row_by, no_wrap=True, max_width=ROW_LABEL_LIMIT)
        table.add_column("n", justify="right", no_wrap=True, min_width=4)
        table.add_column("all", justify="right", no_wrap=True, min_width=5)
        table.add_column("chance", justify="right", no_wrap=True, min_width=6)
        for col in cols:
            table.add_column(
                literal(col.label, one_line=True, limit=COL_LABEL_LIMIT),
                no_wrap=True,
                min_width=_col_width(col.label),
            )
        for row in cross.rows:
            table.add_row(
                literal(row.label, one_line=True, limit=ROW_LABEL_LIMIT),
                str(row.rates.examined),
                total_text(row.rates.get(GRID_METRIC)),
                chance_text(row.chance),
                *(cell_text(cross.cells.get((row.key, col.key))) for col in cols),
            )
        tables.append(table)
    return tables


def grid_html(cross: CrossTable) -> str:
    """The grid as an HTML table: a row per subject with its overall rate and chance, then a
    column per predicate (cell title: the detail line)."""
    if not cross.rows:
        return ""
    head = "".join(f"<th>{html_text(c.label)}</th>" for c in cross.cols)
    body = []
    for row in cross.rows:
        cells = []
        for col in cross.cols:
            cell = cross.cells.get((row.key, col.key))
            if cell is None:
                cells.append("<td></td>")
                continue
            p = cell.rates.get(GRID_METRIC)
            cells.append(
                f"<td title='{html_text(cell_detail(row.label, col.label, cell), quote=True)}' "
                f"style='{heat_css(p)}'>{dot(cell.share)} {rate_text(p)}</td>"
            )
        total = row.rates.get(GRID_METRIC)
        detail = cell_detail(row.label, "all predicates", row_cell(row))
        body.append(
            f"<tr><td class='l'>{html_text(row.label)}</td>"
            f"<td title='{html_text(detail, quote=True)}' style='{heat_css(total)}'>"
            f"{rate_text(total)}</td><td>{chance_text(row.chance)}</td>{''.join(cells)}</tr>"
        )
    return (
        "<h2>Subjects × predicates (paper Fig. 6)</h2>"
        f"<table><tr><th class='l'>{html_text(cross.row_by)}</th><th>all</th><th>chance</th>"
        f"{head}</tr>{''.join(body)}</table>"
        f"<p class='note'>{html_text(LEGEND)}. Hover a cell for its intervals and n.</p>"
    )
