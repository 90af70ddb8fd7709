"""One run driver behind every command that starts a run: `probe`, `consistency run`,
`facteval run` and `run MODE` (the toy mode of tests/toy_mode.py too, with no CLI edit) end
with the same final line, refuse another mode's run in one line, and leave a Ctrl-C'd run
resumable by the command the mode declares."""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from conftest import cli_child_code
from runs_support import _wait
from toy_mode import TOY

import kglens_tui.cli.run as driver
from kglens_tui.cli.main import build_parser, main
from kglens_tui.runs.control import ask_run
from kglens_tui.runs.lifecycle import INTERRUPTED_IN_CLI
from kglens_tui.runs.messages import RunSnapshot, Stop
from kglens_tui.runs.registry import AnyMode, get_mode, mode_names
from kglens_tui.store.connection import connect

TESTS = Path(__file__).resolve().parents[1]
REPO = TESTS.parent

NEW = {
    "kglens": ["probe", "--no-tui", "--iterations", "2", "--batch-size", "4"],
    "kontest": ["consistency", "run", "--relations", "2"],
    "facteval": ["facteval", "run", "--facts", "2"],
    TOY: ["run", TOY, "--set", "kg=country", "--set", "edges=3"],
}
"""A tiny simulated run of each mode, through each entry point."""

RESUME = {
    "kglens": ["probe", "--no-tui"],
    "kontest": ["consistency", "run"],
    "facteval": ["facteval", "run"],
    TOY: ["run", TOY],
}
"""Each entry point, to resume (`--resume RUN` follows)."""

FINAL = re.compile(
    r"run (?P<run>\d+) finished \((?P<why>[^)]+)\): (?P<done>\d+)/(?P<total>\d+) (?P<unit>\w+), "
    r"(?P<requests>\d+) requests?; the results:\n  kglens --db \S+ (?P<command>.+)\n"
)
"""Every mode's final line (a finished run), then the command to copy on a line of its own."""

STORED = (
    "SELECT (SELECT group_concat(id || status || stop_reason || updated_at || iterations_done) "
    "FROM run), (SELECT COUNT(*) FROM observation), (SELECT COUNT(*) FROM unit_answer), "
    "(SELECT group_concat(requests) FROM target_usage)"
)
"""What a refused resume must leave as it was."""


def _stored(db: Path) -> tuple[object, ...]:
    conn = sqlite3.connect(db)
    try:
        return tuple(conn.execute(STORED).fetchone())
    finally:
        conn.close()


def test_every_entry_point_runs_through_the_one_driver_and_ends_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "w.db"
    ended: list[str] = []
    tell_end = driver.tell_end

    def spy(mode: AnyMode, snap: RunSnapshot) -> tuple[int, int | None]:
        ended.append(mode.name)
        return tell_end(mode, snap)

    monkeypatch.setattr(driver, "tell_end", spy)
    shown = {}
    for mode, argv in NEW.items():
        assert main(["--db", str(db), *argv, "--quiet"]) == 0, capsys.readouterr().err
        out = capsys.readouterr().out
        found = FINAL.fullmatch(out)
        assert found is not None, out
        shown[mode] = found.groupdict()
    assert ended == list(NEW), "each entry point ended its run through the driver"
    assert [s["run"] for s in shown.values()] == ["1", "2", "3", "4"]
    assert {mode: (s["unit"], s["command"]) for mode, s in shown.items()} == {
        "kglens": ("iterations", "report 1"),
        "kontest": ("relations", "consistency report 2"),
        "facteval": ("questions", "facteval report 3"),
        TOY: ("units", "runs"),  # the toy has no report: the runs list has its headline
    }
    assert all(s["done"] == s["total"] for s in shown.values())


@pytest.mark.parametrize(
    ("stored", "entry"), [("kontest", "kglens"), (TOY, "kontest"), ("kglens", "facteval")]
)
def test_resuming_another_modes_run_is_one_line_and_stores_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], stored: str, entry: str
) -> None:
    db = tmp_path / "w.db"
    assert main(["--db", str(db), *NEW[stored], "--quiet"]) == 0
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("UPDATE run SET status = 'stopped'")
    conn.close()
    before = _stored(db)
    capsys.readouterr()
    assert main(["--db", str(db), *RESUME[entry], "--resume", "1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    own = " ".join(RESUME[stored]).replace(" --no-tui", "")
    assert f"`kglens --db {db} {own} --resume 1` continues it" in err
    assert err.startswith("error: run 1 is a ") and ", not a " in err
    assert _stored(db) == before


@pytest.mark.parametrize("mode", list(NEW))
def test_ctrl_c_leaves_a_run_its_own_command_resumes(tmp_path: Path, mode: str) -> None:
    """SIGINT to a `python -m kglens_tui.cli`-like child once the run has committed: stored as
    interrupted, the command to continue it (the mode's own) on the last line; that command
    then goes on from the run's commits until a `kglens stop` ends it."""
    db = tmp_path / "w.db"
    big = {
        "kglens": ["probe", "--no-tui", "--iterations", "1000", "--batch-size", "8"],
        "kontest": ["consistency", "run", "--relations", "400"],
        "facteval": ["facteval", "run", "--facts", "400"],
        TOY: ["run", TOY, "--set", "kg=country", "--set", "edges=none"],
    }[mode]
    flags = ["--set", "concurrency=2"] if mode == TOY else ["--concurrency", "2"]
    code = f"import sys; sys.path.insert(0, {str(TESTS)!r}); import toy_mode; "
    code += cli_child_code(["--db", str(db), *big, *flags, "--quiet"])
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={
            **os.environ,
            "PYTHONPATH": str(REPO),
            "KGLENS_SIM_LATENCY_S": "0.02",
            "COLUMNS": "300",
        },
    )

    def done() -> int:
        if not db.exists():
            return 0
        conn = sqlite3.connect(db)
        try:
            row = conn.execute("SELECT iterations_done FROM run").fetchone()
        except sqlite3.OperationalError:  # the schema is still being written
            return 0
        finally:
            conn.close()
        return row[0] if row else 0

    try:
        _wait(lambda: done() >= 1 or proc.poll() is not None, "a first commit", 120)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    own = " ".join(RESUME[mode]).replace(" --no-tui", "")
    assert err.endswith(f"; continue with:\n  kglens --db {db} {own} --resume 1\n"), err
    assert "Traceback" not in err, err
    assert err.splitlines()[-2].startswith("run 1 interrupted (interrupted from the command line)")
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT status, stop_reason FROM run").fetchone() == (
        "interrupted",
        INTERRUPTED_IN_CLI,
    )
    kept = done()

    def stop_once_it_goes_on() -> None:
        _wait(lambda: done() > kept, "the resumed run commits more", 120)
        owner = connect(db)
        try:
            ask_run(owner, 1, Stop())
        finally:
            owner.close()

    stopper = threading.Thread(target=stop_once_it_goes_on)
    stopper.start()
    try:
        assert main(["--db", str(db), *RESUME[mode], "--resume", "1", "--quiet"]) == 0
    finally:
        stopper.join(120)
    assert conn.execute("SELECT status FROM run").fetchone() == ("stopped",)
    assert done() > kept and conn.execute("SELECT COUNT(*) FROM run").fetchone() == (1,)


def test_each_mode_s_declared_command_starts_and_resumes_its_runs() -> None:
    """`Mode.command` is what the final lines suggest: parsed, it is the driver's command for
    that mode (the toy's default, `run toy`, with no CLI edit)."""
    parser = build_parser()
    assert TOY in mode_names()
    for name in mode_names():
        args = parser.parse_args([*get_mode(name).command.split(), "--resume", "1"])
        assert (getattr(args, "run_mode", None) or args.mode) == name
        assert args.resume == 1
    assert get_mode(TOY).command == "run toy"


def test_the_start_line_names_what_the_run_asks_about_and_the_modes_own_settings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "w.db"
    argv = [*NEW["kglens"], "--subset", "paper16", "--difficulty", "hard", "--quiet"]
    assert main(["--db", str(db), *argv]) == 0
    start = " ".join(capsys.readouterr().err.split())  # the one line, wrapped at 80 columns
    blob = sqlite3.connect(db).execute("SELECT edge_ids FROM run WHERE id = 1").fetchone()[0]
    edges = len(blob) // 8  # int64 array
    assert 0 < edges < 1000  # the subset's, not the KG's 5,038
    assert start == (
        f"run 1 (KGLens): KG 'country/paper16', {edges:,} edges, target simulated (seed 0), "
        "hard, top-k, 0/2 iterations"
    )
    assert main(["--db", str(db), *NEW["kontest"], "--quiet"]) == 0
    assert " ".join(capsys.readouterr().err.split()) == (
        "run 2 (KONTEST): KG 'country', 2 edges, target simulated (seed 0), 0/2 relations"
    )


def test_every_progress_frame_of_a_probe_has_what_chance_scores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each rate under the progress line is shown beside chance from the first frame on, not
    only once the run ends (`Engine.progress_snapshot`)."""
    frames: list[RunSnapshot] = []
    fields = driver._progress_fields

    def spy(mode: AnyMode, snap: RunSnapshot) -> dict[str, object]:
        frames.append(snap)
        return fields(mode, snap)

    monkeypatch.setattr(driver, "_progress_fields", spy)
    argv = ["probe", "--no-tui", "--iterations", "3", "--batch-size", "4"]
    assert main(["--db", str(tmp_path / "w.db"), *argv]) == 0
    capsys.readouterr()
    committed = [f for f in frames if f.progress.counters.requests]
    assert len(committed) >= 3  # one a commit, and the last
    assert all(getattr(f, "baseline", None) is not None for f in committed)


def test_a_failure_raised_out_of_the_run_is_told_once_on_the_final_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A helper's LLMError that ends the run (here: while writing questions) is stored with the
    run and told by the one `error:` line, not also as the target's failure before it."""
    from kglens_tui.llm.base import LLMError
    from kglens_tui.modes.kglens.engine import ProbeEngine

    async def down(self: ProbeEngine, *args: object, **kwargs: object) -> None:
        raise LLMError("connection", "the generator is down")

    monkeypatch.setattr(ProbeEngine, "questions_for", down)
    assert main(["--db", str(tmp_path / "w.db"), *NEW["kglens"], "--quiet"]) == 1
    err = capsys.readouterr().err
    assert err.count("the generator is down") == 1, err
    assert "the target failed" not in err
    assert "\nerror: run 1 failed (LLMError: the generator is down): " in err, err


def test_settings_given_with_resume_are_refused_alike_by_every_entry_point(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "w.db")
    assert main(["--db", db, *NEW[TOY], "--quiet"]) == 0
    capsys.readouterr()
    for argv, named in (
        (["run", TOY, "--resume", "1", "--set", "edges=4"], "--set edges"),
        (["run", TOY, "--resume", "1", "--target", "sim:1"], "--target"),
        (["probe", "--no-tui", "--resume", "1", "--iterations", "9"], "--iterations"),
    ):
        assert main(["--db", db, *argv]) == 2
        assert capsys.readouterr().err.strip() == (
            f"error: --resume continues run 1 with its own settings, but these were given too: "
            f"{named} (drop them, or start a new run)"
        )
