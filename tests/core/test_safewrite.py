"""Writes to a user's path: all or nothing, an existing file only with --force, never through a
symbolic link; the helper itself and every command that writes a file."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import networkx as nx
import pytest
from analysis_support import RUN_A, edge_ids, import_mini, make_run

from kglens_tui.analysis import exports
from kglens_tui.annotate.rounds import ItemSpec, create_round_from_items
from kglens_tui.cli import analysis as commands
from kglens_tui.cli.main import main
from kglens_tui.core.safewrite import ExportError, atomic_output, check_destination, write_text
from kglens_tui.store.connection import connect

OLD = "previous content\n"


def _leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


def test_new_file_is_written_whole(tmp_path: Path) -> None:
    target = write_text(tmp_path / "out.txt", "hello\n")
    assert target.read_text(encoding="utf-8") == "hello\n"
    assert _leftovers(tmp_path) == []


def test_new_file_gets_the_usual_permissions(tmp_path: Path) -> None:
    umask = os.umask(0o022)
    try:
        target = write_text(tmp_path / "out.txt", "x")
    finally:
        os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o644


def test_existing_file_is_refused_without_force_and_replaced_with_it(tmp_path: Path) -> None:
    target = tmp_path / "out.csv"
    target.write_text(OLD, encoding="utf-8")
    with pytest.raises(ExportError) as info:
        write_text(target, "new\n")
    message = str(info.value)
    assert "\n" not in message and str(target) in message and "--force" in message
    assert target.read_text(encoding="utf-8") == OLD
    write_text(target, "new\n", force=True)
    assert target.read_text(encoding="utf-8") == "new\n"
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize("dangling", [False, True])
def test_symlink_at_the_destination_is_refused_even_with_force(
    tmp_path: Path, dangling: bool
) -> None:
    elsewhere = tmp_path / "elsewhere.txt"
    if not dangling:
        elsewhere.write_text(OLD, encoding="utf-8")
    link = tmp_path / "out.txt"
    link.symlink_to(elsewhere)
    for force in (False, True):
        with pytest.raises(ExportError, match="symbolic link"):
            write_text(link, "new\n", force=force)
    assert link.is_symlink()
    assert elsewhere.exists() is not dangling
    if not dangling:
        assert elsewhere.read_text(encoding="utf-8") == OLD
    assert _leftovers(tmp_path) == []


def test_directory_or_missing_parent_is_refused(tmp_path: Path) -> None:
    (tmp_path / "dir").mkdir()
    with pytest.raises(ExportError, match="not a regular file"):
        check_destination(tmp_path / "dir", force=True)
    with pytest.raises(ExportError, match="does not exist"):
        check_destination(tmp_path / "nowhere" / "out.csv")


@pytest.mark.parametrize("error", [OSError(errno.ENOSPC, "No space left on device"), KeyError])
def test_failure_mid_write_keeps_the_previous_file_and_leaves_no_temp(
    tmp_path: Path, error: BaseException
) -> None:
    target = tmp_path / "out.csv"
    target.write_text(OLD, encoding="utf-8")
    expected = ExportError if isinstance(error, OSError) else KeyError
    with pytest.raises(expected) as info, atomic_output(target, force=True) as fh:
        fh.write("half of the new")
        fh.flush()
        raise error
    if expected is ExportError:
        assert "No space left on device" in str(info.value)
        assert "previous file is unchanged" in str(info.value)
    assert target.read_text(encoding="utf-8") == OLD
    assert _leftovers(tmp_path) == []


def test_failure_at_the_final_flush_keeps_the_previous_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk often shows only when the data is forced out (fsync), after every write."""
    target = tmp_path / "out.csv"
    target.write_text(OLD, encoding="utf-8")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(ExportError, match="No space left"):
        write_text(target, "new\n", force=True)
    assert target.read_text(encoding="utf-8") == OLD
    assert _leftovers(tmp_path) == []


# every command that writes a file -------------------------------------------------------------


@pytest.fixture
def workspace(tmp_path: Path) -> tuple[str, int, int]:
    path = tmp_path / "ws.db"
    conn = connect(path)
    import_mini(conn, tmp_path)
    run_id = make_run(conn, RUN_A)
    edge = edge_ids(conn)["e7"]
    create_round_from_items(
        conn,
        "remote",
        [ItemSpec(kg="country", qtype="yes_no", question="Q?", app_verdict="correct")],
        annotators=("ann1", "ann2", "ann3"),
    )
    conn.close()
    return str(path), run_id, edge


def _commands(run_id: int, edge: int, out: Path) -> dict[str, list[str]]:
    """Command lines that write `out`, by name."""
    r = str(run_id)
    return {
        "export --csv": ["export", r, "--csv", str(out)],
        "export --gexf": ["export", r, "--gexf", str(out)],
        "export --graphml": ["export", r, "--graphml", str(out)],
        "export --jsonl": ["export", r, "--jsonl", str(out)],
        "export --replies": ["export", r, "--replies", str(out)],
        "export --groups": ["export", r, "--groups", str(out), "--by", "predicate"],
        "export --html": ["export", r, "--html", str(out)],
        "review --json": ["review", r, "--edge", str(edge), "--json", str(out)],
        "analyze --csv": ["analyze", r, "--by", "predicate", "--csv", str(out)],
        "triage corrections": ["triage", "corrections", "mini", "--out", str(out)],
        "ego --json": ["ego", r, "Aland", "--json", str(out)],
        "annotate export": ["annotate", "export", "remote", "--annotator", "ann1", "-o", str(out)],
        "bench sampling --csv": [
            "bench",
            "sampling",
            "--kg",
            "country",
            "--seeds",
            "1",
            "--no-throughput",
            "--csv",
            str(out),
        ],  # fmt: skip
        "bench sampling --plot": [
            "bench",
            "sampling",
            "--kg",
            "country",
            "--seeds",
            "1",
            "--no-throughput",
            "--settings",
            "shuffled",  # one truth setting: one plot at exactly this path
            "--plot",
            str(out.with_suffix(".svg")),
        ],  # fmt: skip
    }


COMMANDS = list(_commands(1, 1, Path("x")))


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(commands.console, "width", 220)


def _destination(argv: list[str]) -> Path:
    return Path(next(a for a in argv if a.endswith((".out", ".svg"))))


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_refuses_an_existing_file_and_a_symlink(
    workspace, tmp_path: Path, capsys, name: str
) -> None:
    db, run_id, edge = workspace
    argv = _commands(run_id, edge, tmp_path / "result.out")[name]
    target = _destination(argv)
    target.write_text(OLD, encoding="utf-8")
    assert main(["--db", db, *argv]) == 2
    out = capsys.readouterr()
    err = out.err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "already exists" in lines[0] and "--force" in lines[0], err
    assert out.out == ""  # refused before any work: nothing printed first
    assert target.read_text(encoding="utf-8") == OLD
    target.unlink()
    secret = tmp_path / "secret.txt"
    secret.write_text(OLD, encoding="utf-8")
    target.symlink_to(secret)
    assert main(["--db", db, *argv, "--force"]) == 2
    assert "symbolic link" in capsys.readouterr().err
    assert secret.read_text(encoding="utf-8") == OLD and target.is_symlink()
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize(
    "name", [n for n in COMMANDS if not n.startswith("bench")]
)  # the study takes a while: its --force is the same flag through the same helper
def test_every_command_replaces_with_force(workspace, tmp_path: Path, capsys, name: str) -> None:
    db, run_id, edge = workspace
    argv = _commands(run_id, edge, tmp_path / "result.out")[name]
    target = _destination(argv)
    target.write_text(OLD, encoding="utf-8")
    assert main(["--db", db, *argv, "--force"]) == 0, capsys.readouterr().err
    assert target.read_text(encoding="utf-8") != OLD and target.stat().st_size > 0
    assert _leftovers(tmp_path) == []


def test_export_refuses_every_output_before_writing_any(workspace, tmp_path: Path, capsys) -> None:
    db, run_id, _ = workspace
    first, taken = tmp_path / "edges.csv", tmp_path / "report.html"
    taken.write_text(OLD, encoding="utf-8")
    argv = ["--db", db, "export", str(run_id), "--csv", str(first), "--html", str(taken)]
    assert main(argv) == 2
    assert not first.exists() and taken.read_text(encoding="utf-8") == OLD


@pytest.mark.parametrize("fmt", ["csv", "gexf", "html"])
def test_export_failing_mid_write_keeps_the_previous_file(
    workspace, tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    db, run_id, _ = workspace
    target = tmp_path / f"out.{fmt}"
    target.write_text(OLD, encoding="utf-8")

    def full_disk(*args: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    calls = {"n": 0}
    real_csv_value = exports.csv_cell

    def csv_value_then_full(value: object) -> object:
        calls["n"] += 1
        if calls["n"] > 30:  # some rows are out already
            full_disk()
        return real_csv_value(value)

    if fmt == "csv":
        monkeypatch.setattr(exports, "csv_cell", csv_value_then_full)
    elif fmt == "gexf":

        def half_then_full(graph: nx.Graph, fh) -> None:
            fh.write(b"<?xml version='1.0'?><gexf")
            full_disk()

        monkeypatch.setattr(nx, "write_gexf", half_then_full)
    else:  # the whole report is written, then forcing it out to disk fails
        monkeypatch.setattr(os, "fsync", full_disk)
    assert main(["--db", db, "export", str(run_id), f"--{fmt}", str(target), "--force"]) == 2
    err = capsys.readouterr().err
    assert "No space left on device" in err and "previous file is unchanged" in err
    assert len([line for line in err.splitlines() if line.strip()]) == 1
    assert target.read_text(encoding="utf-8") == OLD
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize("second", ["--html", "--jsonl", "--replies"])
def test_export_refuses_one_path_for_two_outputs_before_writing_any(
    workspace, tmp_path: Path, capsys, second: str
) -> None:
    db, run_id, _ = workspace
    same = tmp_path / "out.csv"
    argv = ["--db", db, "export", str(run_id), "--csv", str(same), second]
    assert main([*argv, str(tmp_path / "." / "out.csv")]) == 2
    out = capsys.readouterr()
    assert out.out == "" and not same.exists()
    assert out.err.strip().splitlines() == [
        f"error: {tmp_path / '.' / 'out.csv'} is named by both --csv and {second}: give each "
        "output its own file"
    ]


def test_an_export_removes_the_temporary_files_a_killed_one_left(
    tmp_path: Path,
) -> None:
    """SIGKILL runs no code: the next export to the same file removes what it left (a dead
    process's temporary files, and an older version's over an hour old), not a live one's."""
    import subprocess
    import sys
    import time

    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    dead_pid = int(dead.stdout)
    target = tmp_path / "out.csv"
    killed = tmp_path / f".out.csv.{dead_pid}.0123abcd.tmp"
    running = tmp_path / f".out.csv.{os.getpid()}.89abcdef.tmp"  # an export going on now
    old = tmp_path / ".out.csv.deadbeef.tmp"  # an older version's, two hours old
    fresh = tmp_path / ".out.csv.cafebabe.tmp"  # an older version's, maybe still writing
    other = tmp_path / f".other.csv.{dead_pid}.0123abcd.tmp"  # another file's: not this export's
    for leftover in (killed, running, old, fresh, other):
        leftover.write_text("half", encoding="utf-8")
    two_hours_ago = time.time() - 7200
    os.utime(old, (two_hours_ago, two_hours_ago))
    write_text(target, "whole\n")
    assert target.read_text(encoding="utf-8") == "whole\n"
    assert _leftovers(tmp_path) == sorted(p.name for p in (running, fresh, other))


HALF_WRITTEN = r"""
import sys
from pathlib import Path
from kglens_tui.core.interrupt import terminate_as_interrupt
from kglens_tui.core.safewrite import atomic_output
terminate_as_interrupt()  # as the CLI does for `kglens export`
with atomic_output(Path(sys.argv[1])) as fh:
    fh.write("half of it")
    print("writing", flush=True)
    sys.stdin.readline()  # until the test is done with it: SIGTERM comes first
    fh.write(" and the rest")
"""


def test_sigterm_during_an_export_leaves_no_temporary_file(tmp_path: Path) -> None:
    """SIGTERM (handled as Ctrl-C by the CLI) ends an export mid-write: the temporary file is
    removed and the destination never appears."""
    import signal
    import subprocess
    import sys

    repo = Path(__file__).resolve().parents[2]
    target = tmp_path / "edges.csv"
    child = subprocess.Popen(
        [sys.executable, "-c", HALF_WRITTEN, str(target)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(repo)},
    )
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "writing"
        assert len(_leftovers(tmp_path)) == 1  # the half-written temporary file
        child.send_signal(signal.SIGTERM)
        _, err = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode != 0 and "KeyboardInterrupt" in err
    assert _leftovers(tmp_path) == [] and not target.exists()
