"""What the live screen shows of a KGLens run, headless: its help (`Mode.live_help`: its rates,
chance, blind spots, per-predicate rates and progress) and the panels it declares
(`Mode.live_panels`: the blind spots, from the run's snapshot)."""

from __future__ import annotations

from kglens_tui.core.safetext import visible
from kglens_tui.modes.kglens.engine import BlindSpot, ProbeSnapshot
from kglens_tui.runs.panels import Panel, PanelRow

LIVE_HELP = """\
**Win rate**: share of examined edges the model answers right more often than wrong (m > n).
**Zero-sense**: never right (m = 0). **All-sense**: never wrong (n = 0). Refused and
unparseable replies count as wrong; transport errors never do (the edge is asked again).
Beside each rate, *chance* with its subtitle saying which: *chance under this sampler*, what a
target answering at random scores when this run's sampler picks the edges it asks (replayed at
iterations 1, 2, 4, 8... and at the end; a constant answer on a Wh run), or, until the first
replay, *chance, independent asks*: blind guessing on the questions asked, each ask on its own
(the report shows both).
**Blind spots**: examined edges with the highest posterior error rate P(err) under a model
learned from the run's answers (predicate and entity effects): m right and n wrong answers of
the edge itself, and *pooled*, the share of P(err) that comes from its predicate and neighbours
rather than its own answers. **learned** (under the progress): how much of the variation of
error rates neighbours and predicates explain, and the predicates the model fails most.
**Per predicate** (paper Fig. 6): each predicate's examined of its edges, its zero-sense and
win rates with 95% intervals, and beside each what blind guessing scores on the questions the
run asked about it (as the analysis screen shows them with `o`: over the answers as logged).
**Progress**: *requests*, *failed*, *tokens* and *retries* count every request whose reply (or
failure) is in, also those of an iteration not committed yet (*+N not committed*); *dropped*:
requests that went with an iteration a stop or the failure rule dropped. A stored run's time
is what its committed iterations took.
"""
"""What the live screen's help says of a KGLens run's figures (`Mode.live_help`)."""

BLIND_KEY = "blind"
"""The blind-spot panel's key (the live screen's table for it is ``#blind``)."""
BLIND_TITLE = "Blind spots (pooled: share from its predicate and neighbours)"
BLIND_COLUMNS = ("P(err)", "m", "n", "pooled", "subject", "predicate", "object")
NAME_LIMIT = 18
"""Characters of a name in the live tables (the numbers come first)."""
FACT_LIMIT = 16
"""Characters of a blind spot's subject, predicate and object: with its figures they fit the
whole width of an 80-column screen."""


def live_panels(snapshot: object) -> list[Panel]:
    """The blind spots of a KGLens snapshot (`blind_panel`); none for another mode's."""
    return [blind_panel(snapshot)] if isinstance(snapshot, ProbeSnapshot) else []


def blind_panel(snap: ProbeSnapshot) -> Panel:
    """The examined edges with the highest posterior error rate, a row each keyed by its edge
    (the screen updates the row in place, its cursor on it; enter opens its drill-down)."""
    return Panel(
        BLIND_KEY,
        BLIND_TITLE,
        BLIND_COLUMNS,
        tuple(PanelRow(str(b.edge_id), blind_cells(b)) for b in snap.blind_spots),
    )


def blind_cells(spot: BlindSpot) -> tuple[str, ...]:
    """A blind spot's figures, then its names (literal, on one line, cut to FACT_LIMIT)."""
    return (
        f"{spot.mean_error:.2f}",
        str(spot.m),
        str(spot.n),
        f"{spot.from_neighbours:.0%}",
        visible(spot.subject, one_line=True, limit=FACT_LIMIT),
        visible(spot.predicate, one_line=True, limit=FACT_LIMIT),
        visible(spot.object, one_line=True, limit=FACT_LIMIT),
    )


def blind_spot_text(spot: BlindSpot) -> str:
    """A blind spot as one line to copy (the live screen's `c`): the edge and its figures."""
    return (
        f"{spot.subject} | {spot.predicate} | {spot.object} "
        f"(edge {spot.edge_id}: P(err) {spot.mean_error:.2f}, {spot.m} right, {spot.n} wrong)"
    )
