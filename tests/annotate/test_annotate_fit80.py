"""At 80 columns the round list (`kglens annotate tui`) and `kglens annotate progress` show every
column and figure whole: was "0 of 500 lab", no source column, and a heading "annotat…"."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import wait_for
from textual.widgets import DataTable
from tui_support import make_default_app

from kglens_tui.annotate.labels import submit_label
from kglens_tui.annotate.rounds import ItemSpec, create_round_from_items
from kglens_tui.cli import main
from kglens_tui.core.console import console
from kglens_tui.store.connection import connect
from kglens_tui.tui.screens.annotate_home import ROUND_COLUMNS, RoundsScreen

NAMES = ("annotator-one", "ann2", "ann3", "ann4", "ann5")


@pytest.fixture
def big(tmp_path: Path) -> Path:
    """A round of 500 items, five annotators, 123 labels (time enough for three digits)."""
    db = tmp_path / "w.db"
    conn = connect(db)
    specs = [
        ItemSpec(kg="country", qtype="yes_no", app_verdict="correct", question=f"Is {n} even?")
        for n in range(500)
    ]
    rnd = create_round_from_items(conn, "round of five hundred", specs, annotators=NAMES)
    ids = [
        r[0] for r in conn.execute("SELECT id FROM annotation_item WHERE round_id = ?", (rnd.id,))
    ]
    for item_id in ids[:123]:
        submit_label(conn, item_id, "ann2", question_clear="yes", seconds=400.0)
    conn.close()
    return db


def test_cli_progress_fits_80_columns(big: Path, capsys, monkeypatch) -> None:
    monkeypatch.setattr(console, "width", 80)
    assert main(["--db", str(big), "annotate", "progress", "1"]) == 0
    out = capsys.readouterr().out
    assert "…" not in out
    assert all(len(line.rstrip()) <= 80 for line in out.splitlines())
    head = next(line for line in out.splitlines() if "annotator" in line)
    for heading in ("annotator", "done", "%", "labelled", "skipped", "flagged", "min", "s/item"):
        assert heading in head
    assert "123 of 500" in out and "820.0" in out and "annotator-one" in out


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
@pytest.mark.tui
async def test_the_round_list_fits(big: Path, size: tuple[int, int]) -> None:
    app = make_default_app(big)
    async with app.run_test(size=size) as pilot:
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, RoundsScreen))
        table = app.screen.query_one("#ann-rounds-table", DataTable)
        await wait_for(pilot, lambda: table.row_count == 1)
        row = [str(cell) for cell in table.get_row_at(0)]
        assert row[ROUND_COLUMNS.index("labels done")] == "123 of 2,500"
        assert row[ROUND_COLUMNS.index("source")] == "hand-built"
        assert row[ROUND_COLUMNS.index("items")] == "500"
        widths = sum(c.get_render_width(table) for c in table.columns.values())
        assert widths <= table.region.width
        if size[0] >= 160:  # room for every name whole
            assert row[ROUND_COLUMNS.index("annotators")] == ", ".join(NAMES)
