"""A target kind and a sampler added by a plugin module (tests/toy_plugins.py), with no edit to
the harness: found by name, offered by the CLI and the form, and used by a KGLens run in its own
process from the CLI and the TUI."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest
from conftest import wait_for
from toy_plugins import FIRST, PARROT, ParrotClient
from tui_support import SHORT, make_app

from kglens_tui.cli.main import build_parser, main
from kglens_tui.core.registry import plugin_modules
from kglens_tui.llm.factory import make_client
from kglens_tui.llm.targets import TargetSpec
from kglens_tui.modes.kglens.config import ConfigError, RunConfig
from kglens_tui.modes.kglens.pkg import PKGState
from kglens_tui.modes.kglens.samplers import sample_batch, sampler_names
from kglens_tui.runs.session import RunSession
from kglens_tui.tui.screens.live import LiveScreen


def _asked(db: Path, run_id: int) -> list[tuple[int, int, str]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(
            "SELECT iteration, pos, reply FROM observation WHERE run_id = ? ORDER BY iteration, pos",
            (run_id,),
        ).fetchall()
    finally:
        conn.close()


def test_a_target_kind_is_found_by_its_spec() -> None:
    client = make_client("Parrot: No")
    assert isinstance(client, ParrotClient) and client.word == "No"
    assert TargetSpec.parse(" OpenAI:gpt-4o ") == TargetSpec("openai", "gpt-4o")
    with pytest.raises(ValueError, match=r"unknown target 'nosuch:x'.*kinds: .*parrot"):
        make_client("nosuch:x")
    assert "toy_plugins" in plugin_modules()


def test_a_sampler_is_found_by_name_and_offered_everywhere() -> None:
    assert sampler_names()[:5] == [
        "thompson",
        "epsilon-greedy",
        "monte-carlo",
        "brute-force",
        "top-k",
    ]
    assert FIRST in sampler_names()
    state = PKGState.prior(10)
    batch = sample_batch(FIRST, state, 4, np.random.default_rng(0), 1, 0, exclude=np.array([1]))
    assert batch.tolist() == [0, 2, 3, 4]
    assert RunConfig(sampler=FIRST).validate().sampler == FIRST
    with pytest.raises(ConfigError, match="sampler must be one of .*first-unasked"):
        RunConfig(sampler="nosuch").validate()
    probe = next(
        a
        for a in build_parser()._subparsers._group_actions[0].choices["probe"]._actions
        if "--sampler" in a.option_strings
    )
    assert FIRST in probe.choices


def test_a_kglens_run_uses_both_from_the_cli_in_its_own_process(tmp_path: Path, capsys) -> None:
    db = tmp_path / "w.db"
    settings = {
        "kg": "country",
        "target": f"{PARROT}:Yes",
        "sampler": FIRST,
        "difficulty": "easy",
        "iterations": "2",
        "batch_size": "5",
        "seed": "1",
        # all but the smallest uniform floor to the plugin: its picks show in the order asked
        "design_floor": "0.01",
    }
    argv = ["--db", str(db), "run", "kglens", "--quiet"]
    for key, value in settings.items():
        argv += ["--set", f"{key}={value}"]
    assert main(argv) == 0, capsys.readouterr().err
    asked = _asked(db, 1)
    assert [(it, pos) for it, pos, _ in asked] == [(1, p) for p in range(5)] + [
        (2, p) for p in range(5, 10)
    ]
    assert {reply for *_, reply in asked} == {"Yes"}
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT target_label FROM run").fetchone()[0] == "parrot:Yes"


@pytest.mark.tui
async def test_a_kglens_run_uses_both_from_the_tui(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    app = make_app(db)
    config = RunConfig(
        kg="country",
        target=f"{PARROT}:No",
        sampler=FIRST,
        difficulty="easy",
        iterations=3,
        batch_size=4,
        design_floor=0.01,
    )
    async with app.run_test(size=SHORT) as pilot:
        app.start_run(config)
        await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen), 60)
        assert isinstance(app.session, RunSession)
        await wait_for(pilot, lambda: not app._busy(), 120)
        final = app.session.snapshot()
        assert final is not None, f"the run never reported: {app.session.error!r}"
        assert final.status == "finished"
    asked = _asked(db, 1)
    assert [pos for _, pos, _ in asked] == list(range(12))
    assert {reply for *_, reply in asked} == {"No"}


def test_kglens_probe_accepts_both(tmp_path: Path, capsys) -> None:
    db = tmp_path / "w.db"
    argv = ["--db", str(db), "probe", "--no-tui", "--quiet", "--target", f"{PARROT}:Yes"]
    argv += ["--sampler", FIRST, "--iterations", "1", "--batch-size", "3", "--difficulty", "easy"]
    assert main([*argv, "--design-floor", "0.01"]) == 0, capsys.readouterr().err
    assert [pos for _, pos, _ in _asked(db, 1)] == [0, 1, 2]
    assert main(["--db", str(db), "probe", "--no-tui", "--target", "nosuch:x"]) == 2
    assert "unknown target 'nosuch:x'" in capsys.readouterr().err
