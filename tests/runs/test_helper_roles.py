"""The local model serves in every helper role of every mode, and a run whose clients cannot be
built stores nothing (no run left as `created`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kglens_tui.llm.local_llama import LocalLlamaClient, local_available
from kglens_tui.modes import FactevalConfig, KontestConfig
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs import clients
from kglens_tui.runs.clients import helper_client
from kglens_tui.runs.runner import prepare
from kglens_tui.store.connection import connect

LOCAL = "local:smollm2"
needs_local = pytest.mark.skipif(
    not local_available(), reason="the local model is not installed (the `local` extra)"
)


@needs_local
def test_the_local_model_is_built_as_a_helper_without_the_remote_settings() -> None:
    config = RunConfig(kg="country", target="sim", generator=LOCAL, verifier=LOCAL, timeout_s=7.0)
    built = helper_client(LOCAL, config)
    assert isinstance(built, LocalLlamaClient)  # no TypeError for timeout_s / max_retries
    assert built.label == LOCAL
    assert helper_client("alias", config) is None


@needs_local
@pytest.mark.parametrize(
    "config",
    [
        RunConfig(kg="country", subset="paper16", target="sim", generator=LOCAL, verifier=LOCAL),
        KontestConfig(kg="country", subset="paper16", target="sim", generator=LOCAL),
        FactevalConfig(kg="country", subset="paper16", target="sim", facts=6, generator=LOCAL),
    ],
    ids=["kglens", "kontest", "facteval"],
)
def test_every_mode_takes_the_local_model_as_its_helpers(tmp_path: Path, config: Any) -> None:
    conn = connect(tmp_path / "w.db")
    engine = prepare(conn, config=config)
    helpers = [engine.generator] + ([engine.judge] if hasattr(engine, "judge") else [])
    assert [h.label for h in helpers] == [LOCAL] * len(helpers)  # built, the model not loaded


@pytest.mark.parametrize(
    "config",
    [
        RunConfig(kg="country", subset="paper16", target="sim", verifier=LOCAL),
        KontestConfig(kg="country", subset="paper16", target="sim", generator=LOCAL),
        FactevalConfig(kg="country", subset="paper16", target="sim", facts=6, generator=LOCAL),
    ],
    ids=["kglens", "kontest", "facteval"],
)
def test_a_run_whose_helper_cannot_be_built_stores_nothing(
    tmp_path: Path, config: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(spec: str, settings: Any) -> None:
        raise TypeError(f"cannot build {spec}")

    import kglens_tui.modes.kglens.mode as kglens_mode
    import kglens_tui.runs.unit_mode as unit_mode

    for module in (clients, kglens_mode, unit_mode):
        monkeypatch.setattr(module, "helper_client", broken)
    conn = connect(tmp_path / "w.db")
    with pytest.raises(TypeError, match="cannot build"):
        prepare(conn, config=config)
    assert conn.execute("SELECT COUNT(*) FROM run").fetchone()[0] == 0


def test_a_run_whose_local_model_is_missing_stores_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kglens_tui.llm import local_llama

    monkeypatch.setattr(local_llama, "local_available", lambda model_path="": False)
    conn = connect(tmp_path / "w.db")
    config = RunConfig(kg="country", subset="paper16", target="sim", verifier=LOCAL)
    with pytest.raises(local_llama.LocalModelUnavailable, match="not installed"):
        prepare(conn, config=config)
    assert conn.execute("SELECT COUNT(*) FROM run").fetchone()[0] == 0
