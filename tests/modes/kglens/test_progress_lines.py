"""`kglens probe`'s lines under its progress bar: the KG-wide rates first, a capped rate marked
and explained, and two-ask rates that are not settled yet said to be so, not left out."""

from __future__ import annotations

from types import SimpleNamespace

from kglens_tui.modes.kglens.estimates import DesignRate
from kglens_tui.modes.kglens.pkg import Rates
from kglens_tui.modes.kglens.progress import probe_figures, rate_items
from kglens_tui.modes.kglens.rate_text import CAPPED_NOTE, TOO_FEW_PAIRS
from kglens_tui.modes.kglens.sense_rates import ALL_SENSE, ZERO_SENSE

WIN = DesignRate(error=0.25, se=0.02, answers=640, edges=5038, method="design")
PAIR = DesignRate(error=0.1, se=0.02, answers=640, edges=5038, method="design pairs")


def _items(kg_wide: DesignRate, senses: dict[str, DesignRate | None]) -> list[str]:
    snap = SimpleNamespace(
        rates=Rates(examined=300, win=0.7, zero_sense=0.1, all_sense=0.6),
        kg_wide=kg_wide,
        kg_wide_chance=0.5,
        kg_wide_senses=senses,
        kg_wide_sense_chance={ZERO_SENSE: 0.25, ALL_SENSE: 0.25},
    )
    return rate_items(probe_figures(snap, None))  # type: ignore[arg-type]


def test_unsettled_two_ask_rates_are_said_to_be_so() -> None:
    items = _items(WIN, {ZERO_SENSE: None, ALL_SENSE: None})
    assert items[0].startswith("KG-wide win 75.0% [")
    assert f"KG-wide zero-sense and all-sense (2 asks) {TOO_FEW_PAIRS}" in items
    settled = _items(WIN, {ZERO_SENSE: PAIR, ALL_SENSE: PAIR})
    assert not any(TOO_FEW_PAIRS in item for item in settled)
    assert any(item.startswith("KG-wide zero-sense (2 asks) 10.0% [") for item in settled)
    # a run without two-ask rates (none computed yet) says nothing of them
    assert not any("2 asks" in item for item in _items(WIN, {}))
    # one settled, one not (a WH run's all-sense): the other is said to be unsettled
    half = _items(WIN, {ZERO_SENSE: PAIR, ALL_SENSE: None})
    assert any(item.startswith("KG-wide zero-sense (2 asks) 10.0% [") for item in half)
    assert f"KG-wide all-sense (2 asks) {TOO_FEW_PAIRS}" in half


def test_a_capped_rate_is_marked_and_the_mark_explained() -> None:
    capped = DesignRate(error=-0.02, se=0.05, answers=12, edges=40, method="design")
    items = _items(capped, {ZERO_SENSE: None, ALL_SENSE: None})
    assert items[0].startswith("KG-wide win 100.0% [") and "]† (chance" in items[0]
    assert CAPPED_NOTE in items
    assert CAPPED_NOTE not in _items(WIN, {ZERO_SENSE: None, ALL_SENSE: None})


def test_probe_progress_has_the_two_ask_rates_during_the_run(tmp_path) -> None:
    """`kglens probe` showed its two-ask line only in its final frame: the progress snapshot
    after each commit carries them (settled or not) from the first commit on."""
    from kglens_tui.modes.kglens.config import RunConfig
    from kglens_tui.runs.runner import prepare, run_blocking
    from kglens_tui.store.connection import connect

    conn = connect(tmp_path / "w.db")
    seen: list[list[str]] = []
    made: list = []

    def on_progress(_snap: object) -> None:
        if made:
            seen.append(rate_items(probe_figures(made[0].progress_snapshot(), None)))

    config = RunConfig(
        kg="country",
        subset="paper16",
        target="sim",
        iterations=4,
        batch_size=16,
        stop_on_convergence=False,
    )
    engine = prepare(conn, config=config, on_progress=on_progress)
    made.append(engine)
    run_blocking(engine)
    conn.close()
    during = [items for items in seen[:-1] if len(items) > 1]
    assert during and all(any("2 asks" in item for item in items) for items in during)


def test_probe_progress_computes_two_ask_rates_every_few_iterations_on_a_big_kg(
    tmp_path, monkeypatch
) -> None:
    """The two-ask rates cost O(edges): probe progress computes them after every commit of a
    run of up to `SENSES_EDGES_PER_ITERATION` edges, else every edges / that many iterations,
    and shows the last ones in between."""
    from kglens_tui.modes.kglens import engine as engine_module
    from kglens_tui.modes.kglens.config import RunConfig
    from kglens_tui.runs.runner import prepare, run_blocking
    from kglens_tui.store.connection import connect

    conn = connect(tmp_path / "w.db")
    config = RunConfig(
        kg="country", target="sim", iterations=7, batch_size=16, stop_on_convergence=False
    )
    made: list = []
    computed: list[int] = []

    def on_progress(_snap: object) -> None:
        if made:
            made[0].progress_snapshot()

    engine = prepare(conn, config=config, on_progress=on_progress)
    made.append(engine)
    senses = engine._senses

    def counted() -> object:
        computed.append(engine.stats.iteration)
        return senses()

    monkeypatch.setattr(engine, "_senses", counted)
    monkeypatch.setattr(engine_module, "SENSES_EDGES_PER_ITERATION", -(-len(engine.positions) // 3))
    run_blocking(engine)
    conn.close()
    every = len(engine.positions) // engine_module.SENSES_EDGES_PER_ITERATION
    assert every == 2
    assert computed == [1, 3, 5, 7]  # the final snapshot's insights come at 7 too
