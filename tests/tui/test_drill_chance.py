"""The drill-down's header gives what chance scores beside each rate it shows: the edge's
expected error beside how often blind guessing errs on the edge's questions, and the run's rates
(with the triage and raw) beside what it scores on the run's questions, as the review does."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import wait_for
from textual.widgets import Static
from tui_support import HUGE, make_app

from kglens_tui.analysis.groups import RATES, chance_of, overall
from kglens_tui.analysis.rundata import load_run_data
from kglens_tui.store.connection import connect
from kglens_tui.textfmt import pct, rate_ci
from kglens_tui.tui.screens.review_drill import DrillDownScreen

pytestmark = pytest.mark.tui


async def test_drill_down_rates_come_with_chance(stored_db: Path) -> None:
    conn = connect(stored_db)
    data = load_run_data(conn, 1)
    m, n = data.counts(True)
    asked = int(np.flatnonzero((m + n) > 0)[0])  # an edge asked about
    app = make_app(stored_db)
    async with app.run_test(size=HUGE) as pilot:
        await pilot.pause()
        app.push_screen(DrillDownScreen(load_run_data(app.db(), 1), int(data.run.edge_ids[asked])))
        await wait_for(pilot, lambda: isinstance(app.screen, DrillDownScreen))
        drill = app.screen
        await wait_for(pilot, lambda: drill.detail is not None)
        head = str(drill.query_one("#dd-head", Static).render())
        run = str(drill.query_one("#dd-run", Static).render())
    assert drill.detail.edge.pos == asked
    edge, raw = head.split(" · raw: ")
    for line, adjusted in ((edge, True), (raw, False)):
        right = chance_of(data, np.array([asked]), adjusted).per_question
        assert right is not None
        assert f"] chance {pct(1.0 - right)}" in line  # after the expected error's interval
    for adjusted in (True, False):
        row = overall(data, adjusted=adjusted)
        assert f"{row.rates.examined:,} edges" in run  # n: the examined edges
        for _, field, chance in RATES:
            rate = rate_ci(*row.rates.get(field).bounds)
            assert f"{rate} chance {pct(getattr(row.chance, chance))}" in run
    assert run.count("chance") == 2 * (len(RATES) + 1)  # the KG-wide win rate's too
    conn.close()
