"""The paper's Fig. 6 grid (subjects x predicates, zero-sense rate per cell) from the CLI
(`analyze --grid`) and in the HTML report, on the hand-made run whose answers are worked out
in analysis_support:

  zero-sense  currency (1/2)  capital (1/3)  head of state (0/1)   all
  Caledonia   — (e6 unasked)  100% (e3 0/2)  no edge               100% of 1
  Borduria    100% (e5 0/1)   0% (e2 1/1)    — (e8 errors only)     50% of 2
  Aland       0% (e4 1/0)     0% (e1 2/0)    0% (e7 1/2)             0% of 3
"""

from __future__ import annotations

from pathlib import Path

import pytest
from analysis_support import RUN_A, import_mini, make_run

from kglens_tui.analysis.grid import DOTS, dot, grid_html, grid_tables
from kglens_tui.analysis.groups import cross_table
from kglens_tui.analysis.rundata import load_run_data
from kglens_tui.cli import analysis as commands
from kglens_tui.cli.main import main
from kglens_tui.store.connection import connect

EXPECTED = [
    "Caledonia 1 1/1 50% ● — ● 1/1",
    "Borduria 2 1/2 50% ● 1/1 ● 0/1 ● —",
    "Aland 3 0/3 29% ● 0/1 ● 0/1 ● 0/1",
]
"""Every group here has fewer than 5 examined edges, so its zero-sense rate shows as k/n."""
"""Chance is the blind guesser's zero-sense rate on the same questions: Aland's edges were asked
2, 1 and 3 Yes/No questions (e1, e4, e7), so (1/4 + 1/2 + 1/8) / 3 = 29%; Caledonia's e3 one Wh
and one Yes/No, where the Wh guess (the predicate's most common true object) is not Copolis, 50%;
Borduria's e2 likewise (not Bopolis) and e5 one Yes/No, 50%; all six edges (2.375 / 6) 39.6%."""


@pytest.fixture
def db(tmp_path: Path) -> tuple[str, int]:
    path = tmp_path / "grid.db"
    conn = connect(path)
    import_mini(conn, tmp_path)
    run = make_run(conn, RUN_A)
    conn.close()
    return str(path), run


def _grid(capsys, path: str, *argv: str) -> list[str]:
    assert main(["--db", path, "analyze", *argv, "--grid"]) == 0
    return [" ".join(line.split()) for line in capsys.readouterr().out.splitlines()]


def test_cli_grid_has_the_worked_out_cells(db, capsys, monkeypatch) -> None:
    monkeypatch.setattr(commands.console, "width", 200)
    path, run = db
    lines = _grid(capsys, path, str(run))
    assert "subject n all chance currency capital head of s…" in lines
    body = [line for line in lines if line.split(" ")[0] in ("Caledonia", "Borduria", "Aland")]
    assert body == EXPECTED
    assert (
        "All subjects: zero-sense 33.3% [9.7–70.0] of 6 examined edges; chance 39.6%."
        in " ".join(lines)
    )
    assert any("zero-sense rate" in line and "paper Fig. 6" in line for line in lines)
    # a filter narrows the grid to its edges
    lines = _grid(capsys, path, str(run), "--predicate", "capital")
    assert "subject n all chance capital" in lines
    body = [line for line in lines if line.split(" ")[0] in ("Caledonia", "Borduria", "Aland")]
    # ties in zero-sense go by name
    assert [line.split(" ")[:3] + line.split(" ")[4:] for line in body] == [
        ["Caledonia", "1", "1/1", "●", "1/1"],
        ["Aland", "1", "0/1", "●", "0/1"],
        ["Borduria", "1", "0/1", "●", "0/1"],
    ]


def test_cli_grid_splits_the_predicates_to_fit_the_width(db, capsys, monkeypatch) -> None:
    monkeypatch.setattr(commands.console, "width", 50)
    path, run = db
    lines = _grid(capsys, path, str(run))
    assert max(len(line) for line in lines) <= 50
    # every part says which it is and how many there are, the first one too (after the title)
    text = " ".join(lines)
    n = 3  # one predicate a part
    for i in range(1, n + 1):
        assert f"part {i} of {n}: predicate {i} of 3" in text
    assert text.index("paper Fig. 6") < text.index("part 1 of 3")
    headers = [line for line in lines if line.startswith("subject n all chance")]
    assert " ".join(h.removeprefix("subject n all chance ") for h in headers) == (
        "currency capital head of s…"
    )


def test_grid_tables_and_html_use_cross_table(db) -> None:
    path, run = db
    conn = connect(path)
    cross = cross_table(load_run_data(conn, run), "subject", "predicate")
    (table,) = grid_tables(cross, 200)
    assert table.row_count == 3 and len(table.columns) == 4 + 3
    html = grid_html(cross)
    assert html.count("<tr>") == 4 and html.count("<td></td>") == 1
    assert "Caledonia × capital: zero-sense 100.0% [20.7–100.0] (chance 50.0%)" in html
    assert "Aland × all predicates: zero-sense 0.0% [0.0–56.1] (chance 29.2%)" in html
    assert "<td>29%</td>" in html
    assert "n=1 examined of 1 edge (50% of the row)" in html
    conn.close()


def test_a_rate_over_few_edges_shows_its_count() -> None:
    from kglens_tui.analysis.grid import SMALL_N, rate_text
    from kglens_tui.core.intervals import wilson

    assert [rate_text(wilson(k, n)) for k, n in ((1, 1), (0, 4), (3, SMALL_N), (0, 0))] == [
        "1/1",
        "0/4",
        "60%",
        "—",
    ]


def test_dots_grow_with_the_share() -> None:
    assert [dot(s) for s in (0.05, 0.1, 0.2, 0.25, 1.0)] == ["·", "•", "•", "●", "●"]
    assert DOTS[-1][0] > 1.0


def test_html_export_includes_the_grid(db, tmp_path: Path) -> None:
    path, run = db
    out = tmp_path / "r.html"
    assert main(["--db", path, "export", str(run), "--html", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "Subjects × predicates (paper Fig. 6)" in text
    assert "Borduria × currency: zero-sense 100.0% [20.7–100.0] (chance 50.0%) · win 0.0%" in text


def test_every_part_of_a_split_grid_is_labelled() -> None:
    from kglens_tui.analysis.grid import part_label

    assert part_label(0, [3]) == ""
    assert [part_label(i, [2, 2, 1]) for i in range(3)] == [
        "part 1 of 3: predicates 1–2 of 5",
        "part 2 of 3: predicates 3–4 of 5",
        "part 3 of 3: predicate 5 of 5",
    ]


def test_a_cell_over_few_edges_is_not_heat_coloured() -> None:
    """A rate over fewer than SMALL_N edges shows muted: no background colour claims its rate;
    from SMALL_N edges on it shows on its heat colour (terminal and HTML alike)."""
    import numpy as np

    from kglens_tui.analysis.colours import heat_hex
    from kglens_tui.analysis.grid import SMALL_HTML, SMALL_N, cell_text, heat_css, total_text
    from kglens_tui.analysis.groups import CrossCell, rate_set
    from kglens_tui.answers.bias import Baseline

    chance = Baseline(0.5, 0.5, 0.25, 0.25)

    def cell(k: int, n: int) -> CrossCell:
        m = np.array([0] * k + [1] * (n - k))  # k zero-sense edges of n examined
        return CrossCell(n, 1.0, rate_set(m, np.ones(n, dtype=int)), chance)

    for n in (0, 1, SMALL_N - 1):
        small = cell(n, n)
        text = cell_text(small)
        assert text.style and "on" not in str(text.style), (n, text.style)
        assert total_text(small.rates.zero_sense).style == text.style
        assert heat_css(small.rates.zero_sense) == SMALL_HTML
    big = cell(SMALL_N, SMALL_N)
    assert str(cell_text(big).style).endswith(f"on {heat_hex(1.0)}")
    assert f"background:{heat_hex(1.0)}" in heat_css(big.rates.zero_sense)


def test_the_analysis_table_and_html_groups_follow_the_grids_small_n_rule() -> None:
    """The analysis table's rate cells and the HTML report's group cells colour a rate as the
    grid does: a rate over fewer than SMALL_N examined edges is muted, without a heat colour."""
    from kglens_tui.analysis.colours import heat_hex
    from kglens_tui.analysis.grid import SMALL_N, SMALL_STYLE
    from kglens_tui.analysis.htmlreport import _heat_td
    from kglens_tui.core.intervals import wilson
    from kglens_tui.tui.screens.analysis import heat_cell, heat_rate

    for n, coloured in ((1, False), (SMALL_N - 1, False), (SMALL_N, True), (40, True)):
        p = wilson(n, n)  # every examined edge zero-sense: the reddest rate there is
        for cell in (heat_cell(p, 1.0), heat_rate(p, 1.0)):
            assert (str(cell.style) != SMALL_STYLE) is coloured, (n, cell.style)
            assert str(cell.style).endswith(f"on {heat_hex(1.0)}") is coloured, (n, cell.style)
        assert (f"background:{heat_hex(1.0)}" in _heat_td(p)) is coloured, n
