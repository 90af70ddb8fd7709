"""The coin target's chance band computed in a child process, for screens that show it live:
a replay takes seconds on a big run, so it must not hold the UI's thread (or its GIL), and a
screen that closes ends it at once."""

from __future__ import annotations

import multiprocessing
from multiprocessing.connection import Connection
from pathlib import Path

from kglens_tui.analysis.coin_baseline import CoinBaseline, coin_baseline
from kglens_tui.core.spawn import start_resource_tracker


class CoinReplay:
    """One replay of run `run_id` under way in a child process."""

    def __init__(self, db_path: Path | str, run_id: int) -> None:
        start_resource_tracker()
        ctx = multiprocessing.get_context("spawn")
        self._recv, send = ctx.Pipe(duplex=False)
        self._process = ctx.Process(
            target=_replay_child, args=(str(db_path), run_id, send), name="kglens-coin", daemon=True
        )
        self._process.start()
        send.close()
        self.band: CoinBaseline | None = None
        self.error = ""
        self.finished = False

    def poll(self) -> bool:
        """Whether the replay has finished (then `band` or `error` holds what it gave)."""
        if self.finished:
            return True
        if self._recv.poll():
            try:
                kind, payload = self._recv.recv()
            except EOFError:
                kind, payload = "error", "the replay process ended without a result"
            if kind == "ok":
                self.band = payload
            else:
                self.error = str(payload)
            self._end()
        elif not self._process.is_alive() and not self._recv.poll():  # (sent as it ended)
            self.error = (
                f"the replay process ended unexpectedly (exit code {self._process.exitcode})"
            )
            self._end()
        return self.finished

    def terminate(self) -> None:
        """Stop a replay that is no longer wanted."""
        if not self.finished:
            self._process.terminate()
            self._end()

    def _end(self) -> None:
        self.finished = True
        self._process.join(1)
        self._recv.close()


def _replay_child(db_path: str, run_id: int, send: Connection) -> None:
    from kglens_tui.store.connection import connect

    try:
        conn = connect(db_path)
        try:
            send.send(("ok", coin_baseline(conn, run_id)))
        finally:
            conn.close()
    except Exception as exc:  # reported to the screen as one line
        send.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        send.close()
