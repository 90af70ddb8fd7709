"""KGLens declares its live blind spots as a panel of its snapshot (`Mode.live_panels`), as a
unit mode declares its tables: a row per edge keyed by its id, the names literal text."""

from __future__ import annotations

from kglens_tui.core.status import RunStatus
from kglens_tui.llm.usage import Counters
from kglens_tui.modes.kglens.engine import BlindSpot, ProbeSnapshot
from kglens_tui.modes.kglens.live import BLIND_COLUMNS, BLIND_KEY, FACT_LIMIT
from kglens_tui.runs.progress import RunProgress
from kglens_tui.runs.record import KGLENS
from kglens_tui.runs.registry import get_mode

HOSTILE = "[bold]x[/] \x1b[31mred"


def _snapshot(*spots: BlindSpot) -> ProbeSnapshot:
    return ProbeSnapshot(
        run_id=1,
        progress=RunProgress(RunStatus.RUNNING, Counters()),
        iteration=3,
        iterations_total=10,
        elapsed_s=1.0,
        counts={},
        history=(),
        converged=False,
        stop_reason="",
        target_label="t",
        simulated=True,
        error="",
        blind_spots=spots,
    )


def test_the_blind_spots_are_a_panel_keyed_by_edge_with_literal_names() -> None:
    long_name = "a" * (FACT_LIMIT + 10)
    spots = (
        BlindSpot(42, HOSTILE, "capital of", long_name, 0.875, 1, 7, 0.25),
        BlindSpot(7, "Paris", "located in\nFrance", "France", 0.5, 2, 2),
    )
    (panel,) = get_mode(KGLENS).live_panels(_snapshot(*spots))
    assert panel.key == BLIND_KEY and panel.columns == BLIND_COLUMNS
    assert [row.key for row in panel.rows] == ["42", "7"]
    first, second = (row.cells for row in panel.rows)
    assert first[:4] == ("0.88", "1", "7", "25%")
    assert first[4].startswith("[bold]x[/] ") and "\x1b" not in first[4]
    assert len(first[6]) == FACT_LIMIT and first[6].endswith("…")
    assert "\n" not in second[5] and second[5].startswith("located in")


def test_an_empty_panel_without_blind_spots_and_none_for_another_modes() -> None:
    (panel,) = get_mode(KGLENS).live_panels(_snapshot())
    assert panel.rows == () and panel.title
    assert get_mode(KGLENS).live_panels(object()) == []  # type: ignore[arg-type]
