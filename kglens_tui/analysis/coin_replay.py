"""The coin target's chance band computed in a child process, for screens that show it live:
a replay takes seconds on a big run, so it must not hold the UI's thread (or its GIL), and a
screen that closes ends it at once.

A band is kept (in this process) under what determines it, `band_key`: the KG's content, the
run's settings and sampled edges, and the answers it was replayed at. Opening the same run
again, or a copy of it, takes the kept band instead of replaying; a run with more answers has
another key, so a kept band is never shown for answers it was not replayed at."""

from __future__ import annotations

import hashlib
import multiprocessing
import sqlite3
import threading
from collections import OrderedDict
from multiprocessing.connection import Connection
from pathlib import Path

from kglens_tui.analysis.coin_baseline import CoinBaseline, answered_count, coin_baseline
from kglens_tui.core.spawn import start_resource_tracker
from kglens_tui.runs.record import run_row

KEPT_BANDS = 64
"""Bands kept in this process (the least recently used go first)."""
WAIT_S = 0.1
"""How often the replay's thread looks whether the child answered or was stopped."""

BandKey = tuple[str, str, str, int]
"""(KG content hash, run settings, sampled edges' hash, answered questions)."""

_bands: OrderedDict[BandKey, CoinBaseline] = OrderedDict()
_bands_lock = threading.Lock()


def band_key(conn: sqlite3.Connection, run_id: int) -> BandKey:
    """What run ``run_id``'s coin band depends on, as stored now (RunNotFoundError: no run)."""
    row = run_row(conn, run_id)
    kg_hash = conn.execute("SELECT content_hash FROM kg WHERE id = ?", (row["kg_id"],)).fetchone()
    answered = answered_count(conn, run_id)
    edges = hashlib.sha256(bytes(row["edge_ids"])).hexdigest()
    return (str(kg_hash[0] if kg_hash else ""), str(row["config"]), edges, int(answered))


def kept_band(key: BandKey) -> CoinBaseline | None:
    """The band kept under ``key``, if any."""
    with _bands_lock:
        band = _bands.get(key)
        if band is not None:
            _bands.move_to_end(key)
        return band


def keep_band(key: BandKey, band: CoinBaseline) -> None:
    """Keep a replayed band under its key (the answers it was replayed at are the key's)."""
    with _bands_lock:
        _bands[(*key[:3], band.answered)] = band
        while len(_bands) > KEPT_BANDS:
            _bands.popitem(last=False)


class CoinReplay:
    """One replay of run `run_id` under way: a thread reads the band's key and takes a kept
    band, else replays in a child process (none is started for a kept band)."""

    def __init__(self, db_path: Path | str, run_id: int) -> None:
        self.band: CoinBaseline | None = None
        self.error = ""
        self.finished = False
        self.kept = False
        """The band was a kept one (no replay ran)."""
        self._lock = threading.Lock()
        self._stopped = False
        self._process: multiprocessing.process.BaseProcess | None = None
        self._outcome: tuple[str, object] | None = None
        self._thread = threading.Thread(
            target=self._run, args=(str(db_path), run_id), name="kglens-coin", daemon=True
        )
        self._thread.start()

    def poll(self) -> bool:
        """Whether the replay has finished (then `band` or `error` holds what it gave)."""
        if self.finished:
            return True
        with self._lock:
            outcome = self._outcome
        if outcome is None:
            return False
        kind, payload = outcome
        if kind == "ok":
            self.band = payload if isinstance(payload, CoinBaseline) else None
        else:
            self.error = str(payload)
        self.finished = True
        return True

    def terminate(self) -> None:
        """Stop a replay that is no longer wanted (it then gives no band)."""
        if self.finished:
            return
        with self._lock:
            self._stopped = True
            if self._process is not None and self._process.is_alive():
                self._process.terminate()
        self.finished = True

    def _run(self, db_path: str, run_id: int) -> None:
        try:
            outcome = self._replay(db_path, run_id)
        except Exception as exc:  # reported to the screen as one line
            outcome = ("error", f"{type(exc).__name__}: {exc}")
        with self._lock:
            self._outcome = outcome

    def _replay(self, db_path: str, run_id: int) -> tuple[str, object]:
        from kglens_tui.store.connection import connect

        conn = connect(db_path, migrate_schema=False)
        try:
            key = band_key(conn, run_id)
        finally:
            conn.close()
        band = kept_band(key)
        if band is not None:
            self.kept = True
            return ("ok", band)
        kind, payload = self._in_child(db_path, run_id)
        if kind == "ok" and isinstance(payload, CoinBaseline):
            keep_band(key, payload)
        return kind, payload

    def _in_child(self, db_path: str, run_id: int) -> tuple[str, object]:
        start_resource_tracker()
        ctx = multiprocessing.get_context("spawn")
        recv, send = ctx.Pipe(duplex=False)
        with self._lock:
            if self._stopped:
                return ("error", "stopped")
            process = ctx.Process(
                target=_replay_child, args=(db_path, run_id, send), name="kglens-coin", daemon=True
            )
            process.start()
            self._process = process
        send.close()
        try:
            while not recv.poll(WAIT_S):
                if not process.is_alive() and not recv.poll(0):  # (sent as it ended)
                    return (
                        "error",
                        f"the replay process ended unexpectedly (exit code {process.exitcode})",
                    )
            try:
                kind, payload = recv.recv()
            except EOFError:
                return ("error", "the replay process ended without a result")
            return str(kind), payload
        finally:
            process.join(1)
            recv.close()


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
