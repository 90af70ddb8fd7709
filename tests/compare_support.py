"""Helpers the analyses-across-runs tests share (not a test module): the hand graph's capitals,
a KONTEST run with scripted answers on it, and rich renderables as plain text. The `hand` fixture
(this graph in a fresh workspace) is in conftest.py."""

from __future__ import annotations

import io
import sqlite3

from rich.console import Console
from run_targets import ScriptedTarget

from kglens_tui.modes import KontestConfig
from kglens_tui.runs.runner import prepare, run_blocking

CAPITALS = {"France": "Paris", "Germany": "Berlin", "Ireland": "Dublin"}


def text(*renderables) -> str:
    out = io.StringIO()
    console = Console(file=out, width=300, color_system=None)
    for r in renderables:
        console.print(r)
    return out.getvalue()


def _kontest(conn: sqlite3.Connection, no: set[str], label: str) -> int:
    """A run answering 'No.' to the questions in ``no`` and 'Yes.' to every other."""
    target = ScriptedTarget(reply_fn=lambda u: "No." if u[-1] in no else "Yes.", label=label)
    config = KontestConfig(kg="hand", relations=None, predicates=["capital"])
    return run_blocking(prepare(conn, config=config, target=target)).run_id
