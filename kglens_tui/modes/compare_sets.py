"""What runs compared side by side have in common: KONTEST compares the relations every run
answered, fact-eval the questions every run answered. Which runs to compare a run with by
default, and how to say that runs share too little."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence, Set

from rich.text import Text

from kglens_tui.core.safetext import LABEL_LIMIT, visible
from kglens_tui.modes.kontest.ensemble import MIN_RELATIONS
from kglens_tui.runs.config import ModeConfig
from kglens_tui.runs.record import RunRecord
from kglens_tui.textfmt import counted

MIN_SHARED = MIN_RELATIONS
"""A further partner is taken only when the units all chosen runs share stay at least this many
(or all of them, when they are fewer)."""


def choose_partners(
    own: Set[Hashable], others: Mapping[int, Set[Hashable]]
) -> tuple[list[int], list[int]]:
    """The runs to compare a run (whose answered units are ``own``) with by default, and those
    left out. Runs sharing the most units with it come first (then the latest); the first that
    shares any is taken, a further one only when the units all taken runs share stay at least
    `MIN_SHARED` (or all, when fewer). When none shares a unit, every run is taken (the
    comparison then says there is nothing to compare)."""
    ranked = sorted(others, key=lambda r: (len(own & others[r]), r), reverse=True)
    common: Set[Hashable] = own
    chosen: list[int] = []
    for r in ranked:
        shared = common & others[r]
        if shared and (not chosen or len(shared) >= min(MIN_SHARED, len(common))):
            chosen.append(r)
            common = shared
    if not chosen:
        return sorted(others), []
    return sorted(chosen), sorted(set(others) - set(chosen))


def runs_text(run_ids: Sequence[int]) -> str:
    """'run 3', 'runs 1 and 2', 'runs 1, 2 and 3'."""
    ids = [str(r) for r in run_ids]
    if len(ids) == 1:
        return f"run {ids[0]}"
    return f"runs {', '.join(ids[:-1])} and {ids[-1]}"


def _counts(runs: Sequence[RunRecord[ModeConfig]], counts: Sequence[int], verb: str) -> str:
    """'run 1 (model a) answered 40, run 2 (model b) 40', each model shown literally."""
    said = [
        f"run {r.id} ({visible(r.target_label, one_line=True, limit=LABEL_LIMIT)})"
        + (f" {verb}" if i == 0 else "")
        + f" {n:,}"
        for i, (r, n) in enumerate(zip(runs, counts, strict=True))
    ]
    return ", ".join(said)


def shared_notes(
    runs: Sequence[RunRecord[ModeConfig]], counts: Sequence[int], shared: int, unit: str, same: str
) -> Text | None:
    """What runs with ``counts`` answered units each (``unit``: 'relation', 'question') share:
    None when every run answered the same ones; else how many are compared, or (none shared)
    that there is nothing to compare, with ``same`` (how to make runs on the same units)."""
    run_ids = [r.id for r in runs]
    answered = _counts(runs, counts, "answered")
    if not shared:
        return Text(
            f"{runs_text(run_ids)[:1].upper()}{runs_text(run_ids)[1:]} share no {unit} every "
            f"run answered ({answered}): nothing to compare; compare runs made on the same "
            f"{unit}s, e.g. {same}.",
            style="bold yellow",
        )
    if all(n == shared for n in counts):
        return None
    return Text(
        f"Compared over the {counted(shared, unit)} every run answered "
        f"({answered}); the others are left out. Runs made on the same {unit}s ({same}) share "
        "all of them.",
        style="yellow",
    )


def left_out_note(run_id: int, left_out: Sequence[int], unit: str, command: str) -> Text | None:
    """Why some runs of the mode and KG are not in run ``run_id``'s comparison, or None."""
    if not left_out:
        return None
    return Text(
        f"Not compared: {runs_text(left_out)} (too few {unit}s answered in common with the runs "
        f"shown); `kglens {command} {run_id} RUN` compares run {run_id} with one of them.",
        style="yellow",
    )
