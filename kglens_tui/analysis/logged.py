"""What a run's screens need of the workspace beyond `load_run_data`, whatever the triage: read
on the thread that read the run (a TUI worker), so its screens never query afterwards."""

from __future__ import annotations

from kglens_tui.analysis.kgwide import load_design, said_yes
from kglens_tui.analysis.rundata import RunData
from kglens_tui.answers.bias import run_bias_warning


def bias_warning_of(data: RunData) -> str:
    """The run's answer-bias warning (`answers.bias.run_bias_warning`: over the replies as
    logged), '' when the bias rule does not fire."""
    return data.memo(
        ("bias_warning",), lambda: run_bias_warning(data.conn, data.run.id), logged=True
    )


def read_logged(data: RunData) -> RunData:
    """``data`` with its results of the log as stored read through its connection: the raw
    PKG, the answer-bias warning, the sampling design, the Yes/No replies' first words."""
    data.state(adjusted=False)
    bias_warning_of(data)
    load_design(data)
    said_yes(data)
    return data
