"""A program that exits while its run goes on ends, and takes the run's process with it: the
run's process must not ignore SIGTERM, which multiprocessing sends a daemon child at exit before
waiting for it."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

BOUND_S = 120  # a hang is the failure; a loaded machine takes seconds


def test_a_program_leaving_a_run_going_exits(tmp_path: Path) -> None:
    script = textwrap.dedent(
        f"""
        import threading
        from kglens_tui.modes.kglens.config import RunConfig
        from kglens_tui.runs.session import RunSession

        config = RunConfig(kg="country", target="sim:1", batch_size=8, iterations=100000,
                           stop_on_convergence=False, sim_latency_s=0.05)
        session = RunSession({str(tmp_path / "w.db")!r}, "kglens", config=config)
        threading.Thread(target=session.run, daemon=True).start()
        assert session.wait_ready(60)
        print(session.pid, flush=True)
        """
    )
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=root,
        timeout=BOUND_S,
    )
    assert proc.returncode == 0, proc.stderr
    child = int(proc.stdout.split()[0])
    assert (
        not Path(f"/proc/{child}").exists()
        or "zombie" in Path(f"/proc/{child}/status").read_text().lower()
    )
