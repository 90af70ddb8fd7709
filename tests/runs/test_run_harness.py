"""One harness for every mode: a mode added as one module plus registration (tests/toy_mode.py)
runs from the CLI (in the command's process) and the TUI (in its own process), with pause /
resume / stop and a resume after its process was killed, with no edit to the harness."""

from __future__ import annotations

import asyncio
import json
import os
import re
import sqlite3
import threading
from functools import partial
from pathlib import Path

import pytest
from conftest import wait_for
from run_targets import GatedYes, HangAfterThree, SlowYes, YesTarget
from runs_support import _answers, _status, _wait
from textual.widgets import DataTable, Static
from toy_mode import TOY, ToyConfig, ToyMetrics
from tui_support import SHORT, make_app, notices_of

from kglens_tui.cli.main import main
from kglens_tui.core.verdict import VERIFIER_RULES
from kglens_tui.runs.messages import Abort, Done, Pause, Ready
from kglens_tui.runs.options import apply_assignments
from kglens_tui.runs.registry import UnknownModeError, get_mode, mode_names
from kglens_tui.runs.session import RunSession
from kglens_tui.tui.screens.home import HomeScreen
from kglens_tui.tui.screens.live import LiveScreen
from kglens_tui.tui.screens.stored_run import StoredRun


def test_the_registry_knows_the_built_in_modes_and_the_toy() -> None:
    assert mode_names()[:3] == ["kglens", "kontest", "facteval"]
    assert TOY in mode_names()
    assert get_mode(TOY).config_type is ToyConfig
    with pytest.raises(UnknownModeError, match="known: kglens, kontest, facteval"):
        get_mode("nosuch")


def test_settings_are_typed_by_the_dataclass_fields() -> None:
    config = apply_assignments(ToyConfig(), ["kg=country", "edges=none", "temperature=0.5"])
    assert (config.kg, config.edges, config.temperature) == ("country", None, 0.5)
    with pytest.raises(ValueError, match="edges: 'many' is not a valid int"):
        apply_assignments(ToyConfig(), ["edges=many"])
    with pytest.raises(ValueError, match="--set colour: no such setting"):
        apply_assignments(ToyConfig(), ["colour=red"])


def test_the_toy_mode_runs_from_the_cli(tmp_path: Path, capsys) -> None:
    db = tmp_path / "w.db"
    code = main(["--db", str(db), "run", TOY, "--set", "kg=country", "--set", "edges=5"])
    out = capsys.readouterr()
    assert code == 0, out.err
    # a mode without a report of its own: the runs list shows its headline
    assert out.out == (
        "run 1 finished (all tests asked): 5/5 units, 5 requests; the results:\n"
        f"  kglens --db {db} runs\n"
    )
    answers = _answers(db, 1)
    assert [a[0] for a in answers] == [0, 1, 2, 3, 4]
    assert {a[2] for a in answers} == {"yes"}  # the simulated target knows these facts
    conn = sqlite3.connect(db)
    mode, status = conn.execute("SELECT mode, status FROM run WHERE id = 1").fetchone()
    assert (mode, status) == (TOY, "finished")
    assert main(["--db", str(db), "runs"]) == 0
    assert "toy" in capsys.readouterr().out


def test_a_bad_setting_is_one_line_and_stores_nothing(tmp_path: Path, capsys) -> None:
    db = tmp_path / "w.db"
    assert main(["--db", str(db), "run", TOY, "--set", "edges=lots"]) == 2
    assert capsys.readouterr().err.strip() == "error: edges: 'lots' is not a valid int"
    assert main(["--db", str(db), "run", "nosuch"]) == 2
    assert "no probing mode called 'nosuch'" in capsys.readouterr().err
    conn = sqlite3.connect(db) if db.exists() else None
    assert conn is None or conn.execute("SELECT COUNT(*) FROM run").fetchone()[0] == 0


def test_pause_resume_and_stop_reach_the_runs_process(tmp_path: Path) -> None:
    session = RunSession(
        tmp_path / "w.db",
        TOY,
        config=ToyConfig(kg="country", edges=200, concurrency=1),
        target_factory=SlowYes,
    )
    session.pause()  # given before the process started: applied before the first unit
    worker = threading.Thread(target=session.run)
    worker.start()
    assert session.wait_ready(60) and not session.error
    _wait(lambda: (s := session.snapshot()) is not None and s.status == "paused", "paused")
    assert session.snapshot().units_done == 0 and session.pid != os.getpid()
    session.resume()
    _wait(lambda: session.snapshot().units_done >= 2, "two units answered")
    session.stop()
    worker.join(60)
    final = session.snapshot()
    assert final.status == "stopped" and 2 <= final.units_done < 200
    assert isinstance(final.metrics, ToyMetrics) and final.metrics.yes == final.units_done
    assert len(_answers(tmp_path / "w.db", final.run_id)) == final.units_done


def test_a_killed_run_resumes_from_its_last_commit_from_the_cli(tmp_path: Path, capsys) -> None:
    db = tmp_path / "w.db"
    session = RunSession(
        db,
        TOY,
        config=ToyConfig(kg="country", edges=8, concurrency=1),
        target_factory=HangAfterThree,
    )
    worker = threading.Thread(target=session.run)
    worker.start()
    assert session.wait_ready(60)
    _wait(lambda: len(_answers(db, session.run_id)) == 3, "three answers committed")
    session.kill()  # a crash: the process ends without a word
    worker.join(60)
    assert "ended unexpectedly" in session.error
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT status FROM run").fetchone()[0] == "running"  # as left
    conn.close()
    assert main(["--db", str(db), "resume", str(session.run_id), "--quiet"]) == 0
    assert "finished (all tests asked): 8/8 units, 8 requests;" in capsys.readouterr().out
    answers = _answers(db, session.run_id)
    assert [a[0] for a in answers] == list(range(8))
    assert [a[1] for a in answers[:3]] == ["Yes."] * 3  # the first three were not asked again


def test_messages_are_typed_dataclasses() -> None:
    assert Ready(3).run_id == 3 and Abort("quit").reason == "quit"
    assert Pause() == Pause() and Done(None).snapshot is None


@pytest.mark.tui
async def test_the_toy_mode_runs_in_the_tui_and_reopens_as_stored(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    app = make_app(db)
    async with app.run_test(size=SHORT) as pilot:
        app.start_mode_run(ToyConfig(kg="country", edges=60, concurrency=1, sim_latency_s=0.05))
        await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen), 120)
        session = app.session
        assert isinstance(session, RunSession) and session.mode == TOY
        await wait_for(pilot, lambda: (s := session.snapshot()) is not None and s.units_done, 60)
        await pilot.press("p")
        await wait_for(pilot, lambda: session.snapshot().status == "paused", 60)
        await pilot.press("p")
        await wait_for(pilot, lambda: session.snapshot().status == "running", 60)
        await pilot.press("s")
        await wait_for(pilot, lambda: not app._busy(), 60)
        final = session.snapshot()
        assert final.status == "stopped" and 0 < final.units_done < 60
        await wait_for(pilot, lambda: bool(app.screen.query(".panel-table")))
        table = app.screen.query_one(".panel-table")
        row = ["yes", str(final.metrics.yes)]
        await wait_for(
            pilot, lambda: table.row_count == 3 and [str(c) for c in table.get_row_at(0)] == row, 60
        )
        await pilot.press("escape")
        app.open_run(final.run_id)
        await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen), 120)
        assert isinstance(app.screen.stored, StoredRun)
        stored = app.screen.stored  # read on a worker: the screen shows before the run
        await wait_for(pilot, lambda: stored.snapshot() is not None, 120)
        assert stored.snapshot().units_done == final.units_done
        await pilot.press("escape")
        app.resume_run(final.run_id)
        await wait_for(pilot, lambda: app.session is not session, 60)
        await wait_for(pilot, lambda: not app._busy(), 120)
        assert app.session.snapshot().status == "finished"
    assert len(_answers(db, final.run_id)) == 60


def test_settings_file_then_environment_then_set(tmp_path: Path, monkeypatch, capsys) -> None:
    """A new run of any mode starts from the settings: file < KGLENS_* variable < --set."""
    config_file = tmp_path / "config.toml"
    config_file.write_text('kg = "no such kg"\nconcurrency = 3\nsim_latency_s = 0.001\n')
    monkeypatch.setenv("KGLENS_CONFIG", str(config_file))
    monkeypatch.setenv("KGLENS_KG", "country")
    db = tmp_path / "w.db"
    assert main(["--db", str(db), "run", TOY, "--quiet", "--set", "edges=2"]) == 0
    assert main(["--db", str(db), "run", TOY, "--quiet", "--set", "concurrency=2"]) == 0, (
        capsys.readouterr().err
    )
    conn = sqlite3.connect(db)
    stored = [json.loads(c) for (c,) in conn.execute("SELECT config FROM run ORDER BY id")]
    assert [(c["kg"], c["concurrency"], c["sim_latency_s"]) for c in stored] == [
        ("country", 3, 0.001),
        ("country", 2, 0.001),
    ]
    monkeypatch.delenv("KGLENS_KG")
    assert main(["--db", str(db), "run", TOY, "--quiet"]) == 2
    assert "no such kg" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("command", "size"), [(["consistency", "run"], "--relations"), (["facteval", "run"], "--facts")]
)
def test_mode_commands_start_from_the_settings_too(
    tmp_path: Path, monkeypatch, capsys, command: list[str], size: str
) -> None:
    config_file = tmp_path / "config.toml"
    config_file.write_text('concurrency = 3\ntarget = "sim:1"\n')
    monkeypatch.setenv("KGLENS_CONFIG", str(config_file))
    monkeypatch.setenv("KGLENS_TARGET", "sim:5")
    db = tmp_path / "w.db"
    base = ["--db", str(db), *command, "--quiet", size, "2"]
    assert main(base) == 0, capsys.readouterr().err
    assert main([*base, "--concurrency", "2", "--target", "sim:7"]) == 0
    conn = sqlite3.connect(db)
    stored = [json.loads(c) for (c,) in conn.execute("SELECT config FROM run ORDER BY id")]
    assert [(c["concurrency"], c["target"], c["kg"]) for c in stored] == [
        (3, "sim:5", "country"),
        (2, "sim:7", "country"),
    ]


def test_kglens_probe_never_resumes_another_modes_run(tmp_path: Path, capsys) -> None:
    db = tmp_path / "w.db"
    assert main(["--db", str(db), "run", "kontest", "--quiet", "--set", "relations=2"]) == 0
    conn = sqlite3.connect(db)
    before = conn.execute("SELECT status, stop_reason, updated_at FROM run").fetchone()
    capsys.readouterr()
    assert main(["--db", str(db), "probe", "--no-tui", "--resume", "1"]) == 2
    err = capsys.readouterr().err
    # a finished run: its own mode's report, the workspace given named
    assert (
        f"run 1 is a KONTEST run, not a KGLens one: `kglens --db {db} consistency report 1`" in err
    )
    assert conn.execute("SELECT status, stop_reason, updated_at FROM run").fetchone() == before
    assert conn.execute("SELECT COUNT(*) FROM observation").fetchone()[0] == 0


def test_a_setting_given_at_its_built_in_default_still_applies(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    """concurrency = 16 is the settings' own default but not KONTEST's (8): given, it wins."""
    config_file = tmp_path / "config.toml"
    config_file.write_text("concurrency = 16\n")
    monkeypatch.setenv("KGLENS_CONFIG", str(config_file))
    db = tmp_path / "w.db"
    assert main(["--db", str(db), "run", "kontest", "--quiet", "--set", "relations=2"]) == 0
    conn = sqlite3.connect(db)
    assert json.loads(conn.execute("SELECT config FROM run").fetchone()[0])["concurrency"] == 16


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["run", "kontest", "--set", "generator=bogus"], "generator: unknown target 'bogus'"),
        (["run", "facteval", "--set", "requests_per_minute=0"], "requests_per_minute must be"),
        (["run", "kglens", "--set", "verifier=nosuch:x"], "verifier: unknown target"),
        (["run", "kglens", "--set", "sim_latency_s=-1"], "sim_latency_s must not be negative"),
        (["probe", "--no-tui", "--temperature", "-1"], "temperature must be between 0 and 2"),
        (["probe", "--no-tui", "--generator", "bogus"], "generator: unknown target 'bogus'"),
    ],
)
def test_bad_client_settings_are_one_line_and_leave_no_run(
    tmp_path: Path, capsys, argv: list[str], message: str
) -> None:
    db = tmp_path / "w.db"
    assert main(["--db", str(db), *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err and "Error:" not in err
    conn = sqlite3.connect(db) if db.exists() else None  # a flag refused before it is opened
    assert conn is None or conn.execute("SELECT COUNT(*) FROM run").fetchone()[0] == 0


def test_runs_stay_readable_on_an_80_column_terminal(tmp_path: Path, monkeypatch, capsys) -> None:
    from kglens_tui.core.console import console

    db = tmp_path / "w.db"
    assert main(["--db", str(db), "run", "kontest", "--quiet", "--set", "relations=2"]) == 0
    assert main(["--db", str(db), "probe", "--no-tui", "--quiet", "--iterations", "1"]) == 0
    capsys.readouterr()
    monkeypatch.setattr(console, "width", 80)
    assert main(["--db", str(db), "runs"]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "KONTEST" in out and "KGLens" in out and "finished" in out and "…" not in out
    assert "win " in out and "zero-sense " in out and "examined" in out
    # the KG-wide win rate with its interval, then the rate over the examined edges
    assert re.search(r"win KG-wide \d+\.\d% \[\d+\.\d–\d+\.\d\]", out)
    assert re.search(r"examined \d+\.\d% \[\d+\.\d–\d+\.\d\]", out)


def test_a_mode_command_resuming_another_modes_run_points_to_the_right_report(
    tmp_path: Path, capsys
) -> None:
    db = tmp_path / "w.db"
    assert main(["--db", str(db), "facteval", "run", "--quiet", "--facts", "2"]) == 0
    capsys.readouterr()
    assert main(["--db", str(db), "consistency", "run", "--quiet", "--resume", "1"]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert (
        f"run 1 is a fact-eval run, not a KONTEST one: `kglens --db {db} facteval report 1`" in err
    )


@pytest.mark.tui
async def test_stop_on_a_finished_run_says_there_is_nothing_to_stop(tmp_path: Path) -> None:
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=SHORT) as pilot:
        app.start_mode_run(ToyConfig(kg="country", edges=3))
        await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen), 120)
        await wait_for(pilot, lambda: not app._busy(), 60)
        await wait_for(
            pilot, lambda: getattr(app.session.snapshot(), "status", "") == "finished", 60
        )
        await pilot.press("s")
        await wait_for(pilot, lambda: bool(notices_of(app)), 30)
        assert any(
            n.message.endswith("is finished: no process is running it") for n in notices_of(app)
        )
        assert not any("Stopping" in n.message for n in notices_of(app))


def test_a_unit_mode_stops_at_its_request_budget(tmp_path: Path, capsys) -> None:
    db = tmp_path / "w.db"
    argv = ["--db", str(db), "run", TOY, "--quiet", "--set", "kg=country", "--set", "edges=10"]
    argv += ["--set", "concurrency=1", "--set", "max_requests=3"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "run 1 finished (budget used up; 7 of 10 tests not asked): 3/10 units, 3 requests" in out
    assert len(_answers(db, 1)) == 3
    assert main(["--db", str(db), "resume", "1"]) == 0, "the same budget would ask nothing"
    assert "run 1 has finished (budget used up; 7 of 10" in capsys.readouterr().out
    assert len(_answers(db, 1)) == 3
    assert main(["--db", str(db), "run", TOY, "--set", "max_requests=0"]) == 2
    assert "max_requests must be at least 1 when set" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["resume", "1"], ["probe", "--no-tui", "--resume", "1"]])
def test_resuming_a_finished_run_says_so_and_asks_nothing(
    tmp_path: Path, capsys, command: list[str]
) -> None:
    db = tmp_path / "w.db"
    probe = ["probe", "--no-tui", "--quiet", "--iterations", "2", "--batch-size", "4"]
    assert main(["--db", str(db), *probe]) == 0
    conn = sqlite3.connect(db)
    before = conn.execute("SELECT status, updated_at, iterations_done FROM run").fetchone()
    asked = conn.execute("SELECT COUNT(*) FROM observation").fetchone()[0]
    capsys.readouterr()
    assert main(["--db", str(db), *command]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out == [
        "run 1 has finished (iteration limit): nothing to resume (start a new run for more); "
        f"`kglens --db {db} report 1` shows it"
    ]
    assert conn.execute("SELECT status, updated_at, iterations_done FROM run").fetchone() == before
    assert conn.execute("SELECT COUNT(*) FROM observation").fetchone()[0] == asked


@pytest.mark.tui
def test_r_on_a_finished_run_says_there_is_nothing_to_resume(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    assert main(["--db", str(db), "probe", "--no-tui", "--quiet", "--iterations", "1"]) == 0
    app = make_app(db)

    async def press_r() -> None:
        async with app.run_test(size=SHORT, notifications=True) as pilot:
            # home reads its runs on a worker: r acts on the selected run once it is listed
            await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.loaded)
            await pilot.press("r")
            await wait_for(pilot, lambda: bool(notices_of(app)), 30)
            assert any("nothing to resume" in n.message for n in notices_of(app))
            assert not app._busy() and app.session is None

    asyncio.run(press_r())


def test_probe_resume_refuses_settings_it_would_ignore(tmp_path: Path, capsys) -> None:
    db = tmp_path / "w.db"
    probe = ["probe", "--no-tui", "--quiet", "--iterations", "3", "--batch-size", "4"]
    assert main(["--db", str(db), *probe, "--max-requests", "4"]) == 0
    conn = sqlite3.connect(db)
    before = conn.execute("SELECT status, updated_at, config FROM run").fetchone()
    capsys.readouterr()
    assert main(["--db", str(db), "probe", "--resume", "1", "--iterations", "9", "--rpm", "5"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        "error: --resume continues run 1 with its own settings, but these were given too: "
        "--iterations, --rpm (drop them, or start a new run)"
    )
    assert conn.execute("SELECT status, updated_at, config FROM run").fetchone() == before


def test_a_run_stored_with_the_old_ask_again_note_stays_resumable(tmp_path: Path) -> None:
    from kglens_tui.runs.record import nothing_to_resume

    db = tmp_path / "w.db"
    assert main(["--db", str(db), "probe", "--no-tui", "--quiet", "--iterations", "1"]) == 0
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    assert nothing_to_resume(conn, 1) is not None
    old = "all tests asked; 2 with a failed request (resume to ask them again)"
    conn.execute("UPDATE run SET stop_reason = ? WHERE id = 1", (old,))
    conn.commit()
    assert nothing_to_resume(conn, 1) is None
    conn.close()


@pytest.mark.parametrize("mode", ["kglens", "kontest", "toy"])
def test_every_mode_s_manifest_has_the_shared_fields_and_a_changed_kg_stops_resume(
    tmp_path: Path, capsys, mode: str
) -> None:
    db = tmp_path / "w.db"
    argv = ["--db", str(db), "run", mode, "--quiet", "--set", "max_requests=6"]
    assert main(argv) == 0
    conn = sqlite3.connect(db)
    manifest = json.loads(conn.execute("SELECT manifest FROM run").fetchone()[0])
    assert manifest["mode"] == mode and manifest["prompts"] is not None
    for key in ("kg", "kg_content_hash", "target", "target_simulated", "seed", "kglens_version"):
        assert key in manifest, key
    assert manifest["verifier_rules"] == VERIFIER_RULES
    if mode == "kglens":
        assert set(manifest["prompts"]) >= {"answer_yes_no", "verify_wh"}
        assert "kontest_yes_no" not in manifest["prompts"], "only the prompts KGLens uses"
    manifest["kg_content_hash"] = "0" * 64
    with conn:
        conn.execute("UPDATE run SET manifest = ?, status = 'stopped'", (json.dumps(manifest),))
    before = conn.execute("SELECT status, stop_reason, updated_at FROM run").fetchone()
    capsys.readouterr()
    assert main(["--db", str(db), "resume", "1", "--quiet"]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "changed since run 1 started" in err and "start a new run" in err
    assert conn.execute("SELECT status, stop_reason, updated_at FROM run").fetchone() == before


@pytest.mark.parametrize(
    ("new", "resume", "shown"),
    [
        (
            ["run", "kglens", "--set", "iterations=1"],
            ["consistency", "run"],
            "run 1 is a KGLens run, not a KONTEST one: `kglens --db {db} probe --resume 1` "
            "continues it",
        ),
        (
            ["consistency", "run", "--kg", "places", "--relations", "4"],
            ["facteval", "run"],
            "run 1 is a KONTEST run, not a fact-eval one: `kglens --db {db} consistency run "
            "--resume 1` continues it",
        ),
    ],
)
def test_a_mode_command_never_resumes_a_run_of_another_mode(
    tmp_path: Path, capsys, new: list[str], resume: list[str], shown: str
) -> None:
    db = tmp_path / "w.db"
    assert main(["--db", str(db), *new, "--quiet"]) == 0
    conn = sqlite3.connect(db)
    conn.execute("UPDATE run SET status = 'stopped'")
    conn.commit()
    stored = "SELECT status, iterations_done, stop_reason, updated_at FROM run"
    before = conn.execute(stored).fetchone()
    capsys.readouterr()
    assert main(["--db", str(db), *resume, "--quiet", "--resume", "1"]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert shown.format(db=db) in err
    assert conn.execute(stored).fetchone() == before


class FailsEveryThird(YesTarget):
    """Answers Yes, except that every third request fails (an API error, not an answer)."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    async def complete(self, request):
        from kglens_tui.llm.base import LLMError

        self.calls += 1
        if self.calls % 3 == 0:
            raise LLMError("server", "503 from the test target")
        return await super().complete(request)


@pytest.mark.parametrize("budget", [None, 12])
def test_a_finished_run_with_failed_requests_is_resumable_only_with_budget_left(
    tmp_path: Path, budget: int | None
) -> None:
    from kglens_tui.modes.kglens.config import RunConfig
    from kglens_tui.runs.record import nothing_to_resume
    from kglens_tui.runs.runner import prepare, run_blocking
    from kglens_tui.store.connection import connect

    conn = connect(tmp_path / "w.db")
    config = RunConfig(
        kg="country", subset="paper16", iterations=2, batch_size=6, max_requests=budget
    )
    snap = run_blocking(prepare(conn, config=config, target=FailsEveryThird()))
    assert snap.status == "finished" and "whose last request failed" in snap.stop_reason
    if budget is None:
        assert "resume the run to ask them again" in snap.stop_reason
        assert nothing_to_resume(conn, snap.run_id) is None
    else:
        assert "no budget left to ask them again" in snap.stop_reason
        assert "has finished" in (nothing_to_resume(conn, snap.run_id) or "")


@pytest.mark.parametrize("mode", [TOY, "kglens"])
def test_a_second_stop_ends_the_run_without_waiting_for_what_is_in_flight(
    tmp_path: Path, mode: str, capsys
) -> None:
    from kglens_tui.modes.kglens.config import RunConfig

    db = tmp_path / "w.db"
    config = (
        ToyConfig(kg="country", edges=50, concurrency=2)
        if mode == TOY
        else RunConfig(kg="country", subset="paper16", batch_size=8, iterations=5)
    )
    session = RunSession(db, mode, config=config, target_factory=HangAfterThree)
    worker = threading.Thread(target=session.run)
    worker.start()
    assert session.wait_ready(60) and not session.error
    _wait(lambda: session.snapshot() is not None, "the first snapshot")
    conn = sqlite3.connect(db)
    if mode == TOY:
        _wait(lambda: len(_answers(db, session.run_id)) == 3, "three units committed")
    session.stop()  # the requests in flight never come back: this stop alone would wait forever
    session.stop(now=True)
    worker.join(60)
    assert not worker.is_alive()
    final = session.snapshot()
    assert (final.status, final.stop_reason) == ("stopped", "stopped by user")
    status, reason = conn.execute("SELECT status, stop_reason FROM run").fetchone()
    assert (status, reason) == ("stopped", "stopped by user")
    if mode == TOY:
        assert len(_answers(db, session.run_id)) == 3, "what was committed stays"
        sent = conn.execute("SELECT requests, errors, dropped FROM target_usage").fetchone()
        assert sent == (5, 0, 2), "the two requests in flight were sent: they count, as dropped"
    else:
        assert conn.execute("SELECT COUNT(*) FROM observation").fetchone()[0] == 0
        assert final.iteration == 0, "the iteration in flight is dropped whole"
        assert final.uncommitted.requests == 0, "no count of dropped replies stays on screen"
        sent = conn.execute("SELECT requests, errors, dropped FROM target_usage").fetchone()
        assert sent == (8, 0, 8), "the dropped iteration's 8 requests were sent: as dropped"
        assert (
            final.progress.counters.requests,
            final.progress.counters.errors,
            final.progress.counters.dropped,
        ) == (8, 0, 8)
        assert conn.execute("SELECT requests, failed, dropped FROM run_rates").fetchone() == (
            8,
            0,
            8,
        )
        capsys.readouterr()
        assert main(["--db", str(db), "report", str(session.run_id)]) == 0
        report = " ".join(capsys.readouterr().out.split())
        assert "requests 8 (8 dropped) (retries 0)" in report
        assert "8 of the requests were in iterations dropped whole" in report
        assert main(["--db", str(db), "runs"]) == 0
        listed = capsys.readouterr().out  # the status cell (requests under it) may wrap
        status = " ".join(line.split("│")[4] for line in listed.splitlines() if "│" in line)
        assert "8 (8 dropped)" in " ".join(status.split())


@pytest.mark.tui
async def test_s_twice_on_a_live_screen_stops_now(tmp_path: Path) -> None:
    from kglens_tui.modes import KontestConfig
    from kglens_tui.runs.session import STOP_NOW

    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=SHORT) as pilot:
        app.start_mode_run(KontestConfig(kg="country", relations=3, sim_latency_s=600.0))
        await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen), 120)
        await wait_for(pilot, lambda: getattr(app.session.snapshot(), "status", "") == "running")
        await pilot.press("s")
        await wait_for(pilot, lambda: any("s again" in n.message for n in notices_of(app)))
        await pilot.press("s")  # every request takes ten minutes: only a stop now ends it
        await wait_for(pilot, lambda: any(n.message == STOP_NOW for n in notices_of(app)))
        await wait_for(pilot, lambda: not app._busy(), 60)
        final = app.session.snapshot()
        assert (final.status, final.stop_reason) == ("stopped", "stopped by user")


class Gated(YesTarget):
    """Holds every request until the test lets one through."""

    def __init__(self) -> None:
        super().__init__()
        self.waiting = 0
        self.passes = asyncio.Semaphore(0)

    async def complete(self, request):
        self.waiting += 1
        await self.passes.acquire()
        self.waiting -= 1
        return await super().complete(request)


def test_status_says_pausing_and_stopping_until_nothing_is_in_flight(tmp_path: Path) -> None:
    from kglens_tui.runs.runner import prepare
    from kglens_tui.store.connection import connect

    conn = connect(tmp_path / "w.db")
    target = Gated()
    engine = prepare(conn, config=ToyConfig(kg="country", edges=20, concurrency=2), target=target)

    def stored() -> str:
        return conn.execute("SELECT status FROM run WHERE id = ?", (engine.run.id,)).fetchone()[0]

    async def go() -> None:
        task = asyncio.ensure_future(engine.run_to_end())
        await wait_for(None, lambda: target.waiting == 2, describe="two units in flight")
        engine.pause()
        assert engine.snapshot().status == "pausing"
        target.passes.release()  # one unit finishes; the other is still in flight
        await wait_for(
            None,
            lambda: engine.snapshot().progress.counters.requests == 1 and target.waiting == 1,
            describe="one",
        )
        await asyncio.sleep(0.05)
        assert engine.snapshot().status == "pausing", "a unit is still in flight"
        target.passes.release()
        await wait_for(
            None, lambda: engine.snapshot().status == "paused", describe="paused once idle"
        )
        assert target.waiting == 0 and engine.snapshot().progress.counters.requests == 2
        assert stored() == "paused", "another process (kglens runs, home) sees the pause"
        engine.resume()
        await wait_for(None, lambda: target.waiting == 2, describe="going again")
        assert stored() == "running"
        engine.request_stop()
        assert engine.snapshot().status == "stopping"
        engine.pause()
        assert engine.snapshot().status == "stopping", "a pause does not undo a stop"
        target.passes.release()
        target.passes.release()
        final = await task
        assert (final.status, final.units_done) == ("stopped", 4)

    asyncio.run(go())


def test_pause_and_resume_while_the_model_loads_keep_saying_loading(tmp_path: Path) -> None:
    from kglens_tui.runs.runner import prepare
    from kglens_tui.store.connection import connect

    class Loading(YesTarget):
        def __init__(self) -> None:
            super().__init__()
            self.loaded = asyncio.Event()

        async def aload(self) -> None:
            await self.loaded.wait()

    conn = connect(tmp_path / "w.db")
    target = Loading()
    engine = prepare(conn, config=ToyConfig(kg="country", edges=3), target=target)

    async def go() -> None:
        task = asyncio.ensure_future(engine.run_to_end())
        await wait_for(
            None, lambda: engine.snapshot().status == "loading model", describe="loading"
        )
        engine.pause()
        assert engine.snapshot().status == "loading model"
        engine.resume()
        engine.pause()
        assert engine.snapshot().status == "loading model"
        target.loaded.set()
        await wait_for(
            None, lambda: engine.snapshot().status == "paused", describe="paused after the load"
        )
        assert engine.snapshot().progress.counters.requests == 0
        engine.resume()
        final = await task
        assert (final.status, final.units_done) == ("finished", 3)
        for late in (engine.pause, engine.resume, engine.request_stop):
            late()  # a control call that arrives after the end changes nothing
            assert engine.snapshot().status == "finished"

    asyncio.run(go())


def test_a_mode_command_says_a_finished_run_has_nothing_to_resume(tmp_path: Path, capsys) -> None:
    db = tmp_path / "w.db"
    argv = ["--db", str(db), "run", "kontest", "--quiet", "--set", "relations=30"]
    assert main([*argv, "--set", "max_requests=5", "--set", "concurrency=1"]) == 0
    conn = sqlite3.connect(db)
    before = conn.execute("SELECT status, stop_reason, updated_at FROM run").fetchone()
    assert before[0] == "finished" and before[1].startswith("budget used up;")
    capsys.readouterr()
    assert main(["--db", str(db), "consistency", "run", "--quiet", "--resume", "1"]) == 0
    assert "run 1 has finished (budget used up;" in capsys.readouterr().out
    assert conn.execute("SELECT status, stop_reason, updated_at FROM run").fetchone() == before


def test_a_unit_mode_counts_every_request_across_resumes_and_budgets_them(
    tmp_path: Path,
) -> None:
    """A unit whose request failed is asked again on resume and its answer row replaced; the
    failed attempt still counts (toward the totals and the budget)."""
    from kglens_tui.runs.runner import open_snapshot, prepare, run_blocking
    from kglens_tui.store.connection import connect

    conn = connect(tmp_path / "w.db")
    flaky = FailsEveryThird()
    first = run_blocking(
        prepare(conn, config=ToyConfig(kg="country", edges=12, concurrency=1), target=flaky)
    )
    assert first.status == "finished" and first.progress.counters.errors == 4 and flaky.calls == 12
    steady = YesTarget()
    calls = {"n": 0}
    original = steady.complete

    async def counted(request):
        calls["n"] += 1
        return await original(request)

    steady.complete = counted
    second = run_blocking(prepare(conn, resume=first.run_id, target=steady))
    assert calls["n"] == 4 and second.units_done == 12
    assert (second.progress.counters.requests, second.progress.counters.errors) == (16, 4), (
        "the 4 failed attempts still count"
    )
    assert open_snapshot(conn, first.run_id).progress.counters.requests == 16
    view = conn.execute("SELECT requests FROM run_rates WHERE run_id = ?", (first.run_id,))
    assert view.fetchone()[0] == 16

    budgeted = run_blocking(
        prepare(
            conn,
            config=ToyConfig(kg="country", edges=12, concurrency=1, max_requests=14),
            target=FailsEveryThird(),
        )
    )
    assert budgeted.status == "finished" and budgeted.progress.counters.requests == 12
    again = YesTarget()
    resumed = run_blocking(prepare(conn, resume=budgeted.run_id, target=again))
    assert resumed.progress.counters.requests == 14, "a resume spends only what the budget has left"


def test_a_unit_mode_budget_counts_the_units_in_flight(tmp_path: Path) -> None:
    from kglens_tui.runs.runner import prepare, run_blocking
    from kglens_tui.store.connection import connect

    conn = connect(tmp_path / "w.db")
    config = ToyConfig(kg="country", edges=40, concurrency=4, max_requests=6)
    snap = run_blocking(prepare(conn, config=config, target=YesTarget(delay_s=0.01)))
    assert snap.status == "finished" and snap.stop_reason.startswith("budget used up")
    assert snap.progress.counters.requests == 6, (
        "four units in flight, each expected to cost one request"
    )


def test_a_kontest_budget_holds_with_many_tests_in_flight(tmp_path: Path, capsys) -> None:
    db = tmp_path / "w.db"
    argv = ["--db", str(db), "run", "kontest", "--set", "max_requests=10"]
    assert main([*argv, "--set", "concurrency=16", "--set", "relations=20"]) == 0
    conn = sqlite3.connect(db)
    (requests,) = conn.execute("SELECT requests FROM target_usage").fetchone()
    assert 0 < requests <= 10, "each test is several requests: none starts that would not fit"
    assert "budget used up; " in capsys.readouterr().out


def test_a_suggested_command_names_the_workspace_quoted_and_literal(tmp_path: Path, capsys) -> None:
    import shlex

    folder = tmp_path / "my [bold]runs"
    folder.mkdir()
    db = folder / "w.db"
    argv = ["--db", str(db), "probe", "--no-tui", "--quiet", "--iterations", "2"]
    argv += ["--target", "openai:m", "--base-url", "http://127.0.0.1:9/v1", "--max-retries", "0"]
    assert main(argv) == 1
    err = " ".join(capsys.readouterr().err.split())
    assert (
        f"fix that, then continue with: kglens --db {shlex.quote(str(db))} probe --resume 1" in err
    )


def test_a_pause_holds_workers_that_waited_for_room_in_the_budget(tmp_path: Path) -> None:
    from kglens_tui.runs.runner import prepare
    from kglens_tui.store.connection import connect

    conn = connect(tmp_path / "w.db")
    target = Gated()
    config = ToyConfig(kg="country", edges=20, concurrency=4, max_requests=100)
    engine = prepare(conn, config=config, target=target)

    async def go() -> None:
        task = asyncio.ensure_future(engine.run_to_end())
        await wait_for(None, lambda: target.waiting == 1, describe="the first unit runs alone")
        engine.pause()
        target.passes.release()
        await wait_for(None, lambda: engine.snapshot().status == "paused", describe="paused")
        for _ in range(20):
            await asyncio.sleep(0)
        assert target.waiting == 0 and engine.snapshot().progress.counters.requests == 1, (
            "no unit started"
        )
        engine.request_stop()
        final = await task
        assert (final.status, final.progress.counters.requests) == ("stopped", 1)

    asyncio.run(go())


@pytest.mark.parametrize("mode", [TOY, "kglens"])
def test_a_run_cancelled_from_outside_keeps_what_is_whole_and_counts_what_it_sent(
    tmp_path: Path, mode: str
) -> None:
    """Ctrl-C in a command that runs the engine in its own process cancels the run's task (as
    asyncio.run does): the run ends interrupted, whole work kept, every sent request counted."""
    from kglens_tui.modes.kglens.config import RunConfig
    from kglens_tui.runs.runner import prepare
    from kglens_tui.store.connection import connect

    conn = connect(tmp_path / "w.db")
    config = (
        ToyConfig(kg="country", edges=50, concurrency=2)
        if mode == TOY
        else RunConfig(kg="country", subset="paper16", batch_size=8, iterations=5)
    )
    target = HangAfterThree()
    engine = prepare(conn, config=config, target=target)
    # every request the run sends before it hangs: toy, 2 in flight after 3 answers (concurrency
    # 2); kglens, the rest of its iteration of 8. Waiting for that state, not for a moment in
    # between, makes what is sent the same on a busy machine.
    hanging = 2 if mode == TOY else 5

    async def go() -> None:
        task = asyncio.ensure_future(engine.run_to_end())
        await wait_for(
            None,
            lambda: target.answered == 3 and target.hanging == hanging,
            describe="three answered, rest sent",
        )
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(go())
    row = conn.execute("SELECT status, stop_reason FROM run").fetchone()
    assert tuple(row) == ("interrupted", "interrupted")
    sent = conn.execute("SELECT requests, errors, dropped FROM target_usage").fetchone()
    if mode == TOY:  # three units answered and stored, two sent and never answered
        assert len(_answers(tmp_path / "w.db", engine.run.id)) == 3
        assert tuple(sent) == (5, 0, 2)
    else:  # the iteration in flight is dropped whole: its 8 requests count, as dropped
        assert tuple(sent) == (8, 0, 8)


def test_a_mode_that_raises_keeps_its_whole_answers_and_counts_its_requests(
    tmp_path: Path, monkeypatch
) -> None:
    from toy_mode import ToyEngine

    from kglens_tui.runs.runner import prepare, run_blocking
    from kglens_tui.store.connection import connect

    answer = ToyEngine.run_unit

    async def broken(self, unit):
        result = await answer(self, unit)
        if unit == 6:
            raise RuntimeError("a bug in the mode")
        return result

    monkeypatch.setattr(ToyEngine, "run_unit", broken)
    conn = connect(tmp_path / "w.db")
    engine = prepare(conn, config=ToyConfig(kg="country", edges=12, concurrency=1))
    with pytest.raises(RuntimeError, match="a bug in the mode"):
        run_blocking(engine)
    status, error = conn.execute("SELECT status, error FROM run").fetchone()
    assert (status, error) == ("failed", "RuntimeError: a bug in the mode")
    assert len(_answers(tmp_path / "w.db", engine.run.id)) == 6, "units 0-5 were answered"
    assert conn.execute("SELECT requests FROM target_usage").fetchone()[0] == 7


class _LatePipe:
    """A pipe whose last message arrives just after a wait for it timed out."""

    def __init__(self, message: object) -> None:
        self.polls = [False, True, True]
        self.message = message

    def poll(self, timeout: float = 0.0) -> bool:
        return self.polls.pop(0)

    def recv(self) -> object:
        return self.message


class _EndedProcess:
    exitcode = 0

    def is_alive(self) -> bool:
        return False


def test_a_run_s_last_message_sent_just_before_its_process_ended_is_received() -> None:
    session = RunSession("unused.db", TOY)
    final = ToyMetrics(yes=2, answered=3)
    got = session._receive(_LatePipe(Done(final)), _EndedProcess())  # type: ignore[arg-type]
    assert got == final and not session.crashed


def _run_elsewhere(db: Path) -> tuple[RunSession, threading.Thread]:
    """A toy run driven by a session this test does not touch again: for the control
    requests, another process drives it."""
    session = RunSession(
        db, TOY, config=ToyConfig(kg="country", edges=200, concurrency=1), target_factory=SlowYes
    )
    worker = threading.Thread(target=session.run)
    worker.start()
    assert session.wait_ready(60) and not session.error
    # ready is sent once the run is made; a process runs it once it is claimed (a control
    # request before that is refused: "no process is running it", as a full run saw under load)
    _wait(lambda: _status(db, session.run_id) == "running", "the run claimed by its process")
    return session, worker


def test_another_process_pauses_resumes_and_stops_a_run_through_the_workspace(
    tmp_path: Path, capsys
) -> None:
    db = tmp_path / "w.db"
    session, worker = _run_elsewhere(db)
    run_id = session.run_id
    assert main(["--db", str(db), "pause", str(run_id)]) == 0
    assert f"asked process {session.pid} to pause run {run_id}" in capsys.readouterr().out
    _wait(lambda: _status(db, run_id) == "paused", "paused")
    _wait(lambda: session.held, "its UI sees the engine held")  # the engine's state, not a copy
    held_at = len(_answers(db, run_id))
    assert main(["--db", str(db), "resume", str(run_id)]) == 0  # goes on in its own process
    _wait(lambda: len(_answers(db, run_id)) > held_at + 1, "answers after the resume")
    assert not session.held
    assert main(["--db", str(db), "stop", str(run_id)]) == 0
    worker.join(60)
    assert session.snapshot().status == "stopped" and not session.error
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT status, control FROM run").fetchone() == ("stopped", "")
    conn.close()
    capsys.readouterr()
    assert main(["--db", str(db), "stop", str(run_id)]) == 2
    err = capsys.readouterr().err
    assert f"run {run_id} is stopped: no process is running it" in err and "\n" not in err.strip()


def _gated_run(db: Path, gate: Path) -> tuple[RunSession, threading.Thread]:
    """A toy run in its own process whose first answer is in and whose second request waits
    until the file ``gate`` exists (a pause or stop stays pausing or stopping until then)."""
    session = RunSession(
        db,
        TOY,
        config=ToyConfig(kg="country", edges=200, concurrency=1),
        target_factory=partial(GatedYes, str(gate)),
    )
    worker = threading.Thread(target=session.run)
    worker.start()
    assert session.wait_ready(60) and not session.error
    _wait(lambda: len(_answers(db, session.run_id)) > 0, "a first answer")
    return session, worker


def test_a_run_asked_to_stop_shows_stopping_until_what_is_in_flight_ends(
    tmp_path: Path, capsys
) -> None:
    db, gate = tmp_path / "w.db", tmp_path / "gate"
    session, worker = _gated_run(db, gate)
    run_id = session.run_id
    assert main(["--db", str(db), "stop", str(run_id)]) == 0
    _wait(lambda: _status(db, run_id) == "stopping", "stored as stopping")
    capsys.readouterr()
    assert main(["--db", str(db), "runs"]) == 0
    assert "stopping" in capsys.readouterr().out
    assert main(["--db", str(db), "pause", str(run_id)]) == 2
    assert f"run {run_id} is stopping (stop it again to drop" in capsys.readouterr().err
    assert main(["--db", str(db), "resume", str(run_id)]) == 0
    assert "is stopping in process" in capsys.readouterr().out
    done = len(_answers(db, run_id))
    assert main(["--db", str(db), "stop", str(run_id)]) == 0  # a second stop drops it
    assert f"to stop run {run_id} now" in capsys.readouterr().out
    worker.join(60)
    assert session.snapshot().status == "stopped" and not session.error
    assert _status(db, run_id) == "stopped" and len(_answers(db, run_id)) == done


@pytest.mark.tui
async def test_home_pauses_and_stops_a_run_another_process_drives(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    session, worker = await asyncio.to_thread(_run_elsewhere, db)
    app = make_app(db)
    async with app.run_test(size=SHORT) as pilot:
        runs = lambda: app.screen.query_one("#runs", DataTable)  # noqa: E731
        banner = lambda: str(app.screen.query_one("#banner", Static).content)  # noqa: E731
        await wait_for(pilot, lambda: app.screen.query("#runs") and runs().row_count == 1, 120)
        await wait_for(pilot, lambda: "1 run, 1 active" in banner(), 120)
        await pilot.press("p")
        await wait_for(pilot, lambda: _status(db, session.run_id) == "paused", 120)
        await pilot.press("p")
        await wait_for(pilot, lambda: _status(db, session.run_id) == "running", 120)
        await pilot.press("s")
        await wait_for(pilot, lambda: not worker.is_alive(), 120)
        assert session.snapshot().status == "stopped"
        asked = [n.message for n in notices_of(app) if n.message.startswith("Asked process")]
        assert f"Asked process {session.pid} to stop run {session.run_id}" in asked[-1]
        assert "then finishes what is in flight (s again: stop now)." in asked[-1]
        await wait_for(pilot, lambda: "stopped" in str(runs().get_row_at(0)), 120)
        await wait_for(pilot, lambda: "1 run, 0 active" in banner(), 120)


def test_a_missing_settings_file_named_by_the_variable_is_one_line(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    missing = tmp_path / "typo.toml"
    monkeypatch.setenv("KGLENS_CONFIG", str(missing))
    assert main(["runs"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(
        f"error: $KGLENS_CONFIG names the settings file {missing}, which is missing (unset "
    )


def test_a_workspace_flag_starting_with_a_tilde_is_the_home_directory(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    argv = ["probe", "--no-tui", "--quiet", "--subset", "paper16", "--iterations", "1"]
    assert main(["--db", "~/w.db", *argv]) == 0
    assert (tmp_path / "w.db").is_file() and not Path("~").exists()


@pytest.mark.parametrize(
    "command",
    [["stop", "1"], ["report", "1"], ["resume", "1"], ["review", "1"], ["compare", "1", "2"]],
)
def test_a_command_about_runs_in_a_workspace_that_does_not_exist_creates_none(
    tmp_path: Path, capsys, command: list[str]
) -> None:
    typo = tmp_path / "sub" / "typo.db"
    assert main(["--db", str(typo), *command]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"error: no workspace at {typo}, so no run 1 (named by --db)"
    assert not typo.exists() and not typo.parent.exists()


def test_the_headless_progress_line_says_over_how_many_edges_its_rates_are(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    from kglens_tui.core.console import err_console

    monkeypatch.setattr(err_console, "width", 200)
    db = tmp_path / "w.db"
    argv = ["--db", str(db), "probe", "--no-tui", "--subset", "paper16", "--iterations", "1"]
    assert main(argv) == 0
    err = capsys.readouterr().err
    examined = sqlite3.connect(db).execute("SELECT examined FROM iteration").fetchone()[0]
    rate = r"\d+\.\d% \[\d+\.\d–\d+\.\d\] \(chance \d+\.\d%\)"
    assert re.search(rf"over the {examined} edges this run examined: win {rate}", err), err
    assert re.search(rf"all-sense {rate}", err), err


def test_listing_runs_of_a_workspace_that_does_not_exist_creates_none(
    tmp_path: Path, capsys
) -> None:
    typo = tmp_path / "sub" / "typo.db"
    assert main(["--db", str(typo), "runs"]) == 0
    assert capsys.readouterr().out.strip() == f"No runs: no workspace at {typo} yet."
    assert not typo.parent.exists()


@pytest.mark.parametrize(
    "argv",
    [
        ["probe", "--no-tui", "--quiet", "--target", "openai:M\nX"],
        ["probe", "--no-tui", "--quiet", "--generator", "openai:g\x1b[31m"],
        ["run", "kontest", "--quiet", "--set", "target=sim\r2"],
        ["probe", "--no-tui", "--quiet", "--target", "openai:gpt\u202e4"],  # a bidi override
    ],
)
def test_a_new_runs_names_may_not_hold_control_characters(
    tmp_path: Path, capsys, argv: list[str]
) -> None:
    assert main(["--db", str(tmp_path / "w.db"), *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert "holds the control character U+" in err and "\n" not in err
    assert "\x1b" not in err and "\r" not in err


def test_a_unit_mode_run_is_listed_with_its_planned_units_while_it_goes(
    tmp_path: Path, capsys
) -> None:
    db = tmp_path / "w.db"
    session, worker = _run_elsewhere(db)
    assert main(["--db", str(db), "pause", str(session.run_id)]) == 0
    _wait(lambda: _status(db, session.run_id) == "paused", "paused")
    capsys.readouterr()
    assert main(["--db", str(db), "runs"]) == 0
    done = sqlite3.connect(db).execute("SELECT iterations_done FROM run").fetchone()[0]
    assert done < 200 and f"{done}/200 units" in capsys.readouterr().out
    assert main(["--db", str(db), "stop", str(session.run_id)]) == 0
    worker.join(60)


def test_a_run_s_process_writes_nothing_to_the_terminal_when_its_run_ends(
    tmp_path: Path, capfd
) -> None:
    """The run's process shares the TUI's terminal: when the UI closes its end of the pipe
    after the last message, nothing (no traceback of a late abort) may be written there."""
    for _ in range(3):
        session = RunSession(
            tmp_path / "w.db",
            TOY,
            config=ToyConfig(kg="country", edges=3),
            target_factory=YesTarget,
        )
        session.run()
        assert session.snapshot().status == "finished" and not session.error
    err = capfd.readouterr().err
    assert "Traceback" not in err and "Exception in callback" not in err, err


@pytest.mark.parametrize(
    "command",
    # a bundled KG's stats are read without a workspace (tests/core/test_first_steps.py): a KG
    # only a workspace can hold is the typo case
    [["kg", "stats", "my-kg"], ["search", "foo"], ["annotate", "rounds"]],
)
def test_a_command_reading_a_named_workspace_that_does_not_exist_creates_none(
    tmp_path: Path, capsys, command: list[str]
) -> None:
    typo = tmp_path / "sub" / "typo.db"
    assert main(["--db", str(typo), *command]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"error: no workspace at {typo} (named by --db)"
    assert not typo.parent.exists()


def test_one_iteration_and_one_request_are_not_plural(tmp_path: Path, capsys) -> None:
    csv_path = tmp_path / "two.csv"
    csv_path.write_text("subject,predicate,object\nA,capital,B\n", encoding="utf-8")
    db = str(tmp_path / "w.db")
    assert main(["--db", db, "kg", "import", str(csv_path), "--name", "two"]) == 0
    assert "'two': 2 entities, 1 predicate, 1 edge in" in capsys.readouterr().out
    argv = ["--db", db, "probe", "--no-tui", "--kg", "two", "--iterations", "1"]
    assert main([*argv, "--batch-size", "1"]) == 0
    out, err = capsys.readouterr()
    assert "run 1 finished (iteration limit): 1/1 iteration, 1 request;" in out
    shown = " ".join(err.split())  # the start line is wrapped at the terminal's width
    assert "KG 'two', 1 edge, target simulated (seed 0), easy, top-k, 0/1 iteration run 1" in shown


def test_a_run_asked_to_pause_shows_pausing_until_what_is_in_flight_ends(
    tmp_path: Path, capsys
) -> None:
    db, gate = tmp_path / "w.db", tmp_path / "gate"
    session, worker = _gated_run(db, gate)
    run_id = session.run_id
    assert main(["--db", str(db), "pause", str(run_id)]) == 0
    _wait(lambda: _status(db, run_id) == "pausing", "stored as pausing")
    capsys.readouterr()
    assert main(["--db", str(db), "runs"]) == 0
    assert "pausing" in capsys.readouterr().out
    assert main(["--db", str(db), "pause", str(run_id)]) == 2
    assert f"run {run_id} is pausing already" in capsys.readouterr().err
    assert main(["--db", str(db), "resume", str(run_id)]) == 0  # goes on in its own process
    _wait(lambda: _status(db, run_id) == "running", "running again before it ever held")
    gate.touch()  # the request in flight is answered, then every other one
    worker.join(60)
    assert session.snapshot().status == "finished" and not session.error
    assert len(_answers(db, run_id)) == 200


@pytest.mark.parametrize("where", ["variable", "file"])
def test_a_missing_workspace_is_named_with_where_its_path_came_from(
    tmp_path: Path, capsys, monkeypatch, where: str
) -> None:
    typo = tmp_path / "sub" / "typo.db"
    config = tmp_path / "config.toml"
    config.write_text(f'db = "{typo}"\n' if where == "file" else "", encoding="utf-8")
    monkeypatch.setenv("KGLENS_CONFIG", str(config))
    if where == "variable":
        monkeypatch.setenv("KGLENS_DB", str(typo))
    else:
        monkeypatch.delenv("KGLENS_DB", raising=False)
    assert main(["report", "1"]) == 2
    named = "$KGLENS_DB" if where == "variable" else f"db in {config}, line 1"
    err = capsys.readouterr().err.strip()
    assert err == f"error: no workspace at {typo}, so no run 1 (named by {named})"
    assert not typo.parent.exists()


@pytest.mark.parametrize("width", [80, 120, 140, 160, 220])
def test_the_runs_list_shows_every_cell_whole_at_any_width(
    tmp_path: Path, capsys, monkeypatch, width: int
) -> None:
    """Where every column does not fit unwrapped the list takes its narrow layout: Rich would
    squeeze the wrappable columns (KG, status, target) to an ellipsis."""
    from kglens_tui.core.console import console

    db = str(tmp_path / "w.db")
    argv = ["--db", db, "probe", "--no-tui", "--quiet", "--subset", "paper16", "--iterations", "1"]
    assert main(argv) == 0
    monkeypatch.setattr(console, "width", width)
    capsys.readouterr()
    assert main(["--db", db, "runs"]) == 0
    out = capsys.readouterr().out
    assert "…" not in out
    assert max(len(line) for line in out.splitlines()) <= width
    for header in ("run", "mode", "KG", "status"):
        assert f" {header} " in out.splitlines()[2]
    assert "settings" in out or "target" in out  # narrow: over the rates
    assert ("settings, rates" in out) == (width < 110)


def test_listing_kgs_of_a_workspace_that_does_not_exist_lists_the_bundled_ones(
    tmp_path: Path, capsys
) -> None:
    typo = tmp_path / "sub" / "new.db"
    assert main(["--db", str(typo), "kg", "list"]) == 0
    out, err = capsys.readouterr()
    assert err.strip() == f"No workspace at {typo} yet."
    assert "bundled:country" in out and "on first use" in out
    assert not typo.parent.exists()


def test_an_empty_workspace_variable_is_not_named_as_the_origin(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    monkeypatch.setenv("KGLENS_DB", "")
    monkeypatch.delenv("KGLENS_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert main(["report", "1"]) == 2
    err = capsys.readouterr().err
    assert "$KGLENS_DB" not in err and "the default one; --db names another" in err


def test_the_runs_list_measures_wide_characters_in_terminal_cells() -> None:
    from kglens_tui.analysis.report import RUN_COLUMNS, runs_table

    row = tuple("中国知识图谱" * 3 if c == "KG" else "x" for c in RUN_COLUMNS)
    plain = tuple("abcdefghijklmnopqr" if c == "KG" else "x" for c in RUN_COLUMNS)
    width = 150  # every column of the plain row fits (142); the wide KG takes 36 cells, not 18
    assert runs_table([plain], width)[0] == list(RUN_COLUMNS)
    assert runs_table([row], width)[0] != list(RUN_COLUMNS)


@pytest.mark.parametrize(
    ("setting", "said"),
    [
        ("prompt_order=x", "prompt_order must be one of paper, reversed, shuffled (got 'x')"),
        ("propagation_mode=y", "propagation_mode must be one of sum, degree, learned (got 'y')"),
        ("difficulty=z", "difficulty must be one of easy, hard, wh (got 'z')"),
    ],
)
def test_a_bad_choice_names_the_choices_not_a_class(
    tmp_path: Path, capsys, setting: str, said: str
) -> None:
    db = tmp_path / "w.db"
    assert main(["--db", str(db), "run", "kglens", "--set", setting]) == 2
    assert capsys.readouterr().err.strip() == f"error: {said}"
