"""What every unit mode's report says around its own figures (`UnitMode.report_panels`): the
run's settings, status and requests, a note on verdicts given under older rules, and its
questions by who wrote them."""

from __future__ import annotations

import sqlite3

from kglens_tui.core.status import RunStatus
from kglens_tui.llm.usage import helpers_line
from kglens_tui.runs.config import ModeConfig
from kglens_tui.runs.panels import Panel
from kglens_tui.runs.record import RunRecord
from kglens_tui.runs.units import ModeSnapshot
from kglens_tui.runs.verdict_rules import stale_verdicts_note
from kglens_tui.textfmt import counted


def head_panels(
    conn: sqlite3.Connection, run: RunRecord[ModeConfig], snap: ModeSnapshot[object], label: str
) -> list[Panel]:
    """The run's settings and status (a failed run's cause as a warning), its units answered,
    requests and tokens (the helper LLMs' apart), and the stale-verdicts note when it has one."""
    cfg = run.config
    subset = "/" + cfg.subset if cfg.subset else ""
    status, stop_reason = run.shown
    title = (
        f"Run {run.id} · {label} · KG {run.kg_name}{subset} · target {run.target_label}"
        + (" SIMULATED TARGET" if run.simulated else "")
        + f" · generator {cfg.generator} · seed {cfg.seed} · status {status}"
        + (f": {stop_reason}" if stop_reason else "")
    )
    sent = snap.progress.counters
    requests = (
        f"{snap.units_done:,}/{counted(snap.units_total, 'unit')} answered · "
        f"{counted(sent.requests, 'request')} "
        f"({sent.errors:,} failed, never counted as model answers"
        + (f"; {sent.dropped:,} dropped with a stopped unit" if sent.dropped else "")
        + f") · tokens {sent.prompt_tokens:,} in / {sent.completion_tokens:,} out"
    )
    helpers = helpers_line(snap.helpers) if snap.helpers else ""
    cause = f"cause: {run.error}" if status == RunStatus.FAILED and run.error else ""
    head = Panel("run", title, notes=(requests, *([helpers] if helpers else ())), warning=cause)
    stale = stale_verdicts_note(conn, run)
    return [head, *([Panel("stale", "", warning=stale)] if stale else [])]


def sources_panels(sources: dict[str, int], written: str) -> list[Panel]:
    """'{written} (12) by who wrote them: 8 llm:MODEL · 4 template', when any was not a
    template's (`UnitMode.question_sources`)."""
    if all(source == "template" for source in sources):
        return []
    shown = " · ".join(f"{n:,} {source}" for source, n in sources.items())
    line = f"{written} ({sum(sources.values()):,}) by who wrote them: {shown}"
    return [Panel("sources", "", notes=(line,))]


def answered_line(done: int, total: int, failed: int, noun: str) -> str:
    """'12/20 relations answered (8 with a failed request: a resume asks them again)'."""
    note = f" ({failed:,} with a failed request: a resume asks them again)" if failed else ""
    return f"{done:,}/{total:,} {noun} answered{note}"
