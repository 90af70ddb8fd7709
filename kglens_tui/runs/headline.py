"""A stored run's headline figures as its mode declares them (`Mode.headline`): for a mode whose
figures are not the runs list's rate columns (KONTEST, fact-eval, a plugin's)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Headline:
    """Each rate with its interval, n and what chance scores on the same questions, twice laid
    out: one line for home's detail under the run list, a few short lines for the rates cell of
    `kglens runs`."""

    line: str
    lines: str
