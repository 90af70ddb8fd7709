"""The typed mode contract (#36 step 4): a mode, its engine and a stored run are typed by the
mode's settings and snapshot, and where a value crosses from the untyped side (a registry, a
child process's pipe, a stored row) it is checked, not cast."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from toy_mode import ToyConfig

import kglens_tui
from kglens_tui.modes.config import FactevalConfig, KontestConfig
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.modes.kglens.engine import ProbeSnapshot
from kglens_tui.modes.kglens.runstore import load_kglens_run
from kglens_tui.runs.config import ConfigError, ModeConfig
from kglens_tui.runs.messages import snapshot_as
from kglens_tui.runs.record import load_run, load_run_as
from kglens_tui.runs.registry import get_mode
from kglens_tui.runs.runner import open_snapshot_as, prepare, run_blocking
from kglens_tui.runs.units import ModeEngine, ModeSnapshot
from kglens_tui.store.connection import connect

RUNS = Path(kglens_tui.__file__).parent / "runs"


def test_the_run_harness_names_no_any() -> None:
    found = [
        f"{path.name}:{node.lineno}"
        for path in sorted(RUNS.glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Name | ast.Attribute)
        and (node.id if isinstance(node, ast.Name) else node.attr) == "Any"
    ]
    assert found == []


def test_a_stored_run_is_typed_by_its_modes_settings(tmp_path: Path) -> None:
    conn = connect(tmp_path / "w.db")
    kontest = run_blocking(prepare(conn, config=KontestConfig(relations=4)))
    kglens = run_blocking(prepare(conn, config=RunConfig(iterations=1, batch_size=4)))
    assert isinstance(load_run(conn, kontest.run_id).config, KontestConfig)
    assert load_run_as(conn, kontest.run_id, "kontest", KontestConfig).config.relations == 4
    assert load_kglens_run(conn, kglens.run_id).config.batch_size == 4
    with pytest.raises(TypeError, match="KontestConfig, not FactevalConfig"):
        load_run_as(conn, kontest.run_id, None, FactevalConfig)


def test_a_snapshot_is_checked_where_it_is_typed(tmp_path: Path) -> None:
    conn = connect(tmp_path / "w.db")
    done = run_blocking(prepare(conn, config=KontestConfig(relations=3)))
    mode_snap = snapshot_as(done, ModeSnapshot)
    assert mode_snap is not None and mode_snap.units_total == 3
    assert snapshot_as(None, ProbeSnapshot) is None
    with pytest.raises(TypeError, match="ModeSnapshot, not a ProbeSnapshot"):
        snapshot_as(done, ProbeSnapshot)
    with pytest.raises(TypeError):
        open_snapshot_as(conn, done.run_id, ProbeSnapshot)
    assert open_snapshot_as(conn, done.run_id, ModeSnapshot).run_id == done.run_id


def test_a_mode_refuses_another_modes_settings_and_engine(tmp_path: Path) -> None:
    conn = connect(tmp_path / "w.db")
    with pytest.raises(
        ConfigError, match="KONTEST run takes KontestConfig settings, not ToyConfig"
    ):
        get_mode("kontest").prepare(conn, config=ToyConfig())
    with pytest.raises(ConfigError, match="KGLens run takes RunConfig settings, not ModeConfig"):
        get_mode("kglens").prepare(conn, config=ModeConfig())
    assert conn.execute("SELECT COUNT(*) FROM run").fetchone()[0] == 0
    assert isinstance(prepare(conn, config=KontestConfig(relations=2)), ModeEngine)


def test_settings_are_replaced_by_name_and_an_unknown_name_is_refused() -> None:
    config = RunConfig()
    changed = config.replaced({"batch_size": 8, "seed": 3})
    assert (changed.batch_size, changed.seed) == (8, 3)
    assert (config.batch_size, config.seed) == (RunConfig().batch_size, 0)
    with pytest.raises(ConfigError, match="no such setting: bogus, nope"):
        config.replaced({"nope": 1, "bogus": 2})
