"""The replay studies' progress off a terminal: a line at every tenth of the work on stderr."""

from __future__ import annotations

import re

import pytest

from kglens_tui.bench.replay_progress import replay_progress


def test_a_study_off_a_terminal_says_its_progress_at_every_tenth(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Written to a file, a study of many minutes printed nothing until its tables: now one
    line per tenth of its replays, counted across truth settings, with the time so far; the
    replays' own output (stdout) gets none of it."""
    with replay_progress("replaying", "replays", 2, 50, extra=20) as for_truth:
        for i in range(2):
            advance = for_truth(i)
            for done in range(1, 51):
                advance(done, 50)
        for done in range(1, 21):
            for_truth(2)(done, 20)
    out = capsys.readouterr()
    lines = out.err.splitlines()
    assert out.out == ""
    assert len(lines) == 10
    assert re.fullmatch(r"replaying: 12 of 120 replays \(10%\), \d+m\d\ds", lines[0])
    assert lines[4].startswith("replaying: 60 of 120 replays (50%), ")
    assert lines[-1].startswith("replaying: 120 of 120 replays (100%), ")
