"""Error types of the paper's Table 5 over a run's incorrect replies.

Two are detected: self-contradiction (a Yes/No reply whose explanation affirms the expected
answer while its first word denies it: `verify.self_contradiction`) and inconsistent response (an
incorrect reply on an edge that was answered correctly to a different question). Factual error and
obsolete knowledge need a person: they come from error_type tags. A reply's type is its own tag,
else its edge's tag, else its first detected type, else "untyped".
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from kglens_tui.analysis.rundata import RunData
from kglens_tui.analysis.triage import ERROR_TYPES
from kglens_tui.answers.verify import self_contradiction
from kglens_tui.core.question_type import YES_NO

UNTYPED = "untyped"
LABELS = {
    "factual_error": "Factual error",
    "obsolete_knowledge": "Obsolete knowledge",
    "self_contradiction": "Self-contradiction",
    "inconsistent_response": "Inconsistent response",
    UNTYPED: "Untyped",
}
DETECTABLE = ("self_contradiction", "inconsistent_response")


def detect(data: RunData, adjusted: bool = True) -> dict[int, tuple[str, ...]]:
    """Detected error types per observation index (incorrect replies only); cached per run."""
    return data.memo(("detect", adjusted), lambda: _detect(data, adjusted))


def _detect(data: RunData, adjusted: bool) -> dict[int, tuple[str, ...]]:
    cat = data.categories(adjusted)
    obs = data.obs
    correct_questions: dict[int, set[str]] = defaultdict(set)
    for i in np.flatnonzero(cat == "correct").tolist():
        correct_questions[int(obs.pos[i])].add(obs.question[i])
    out: dict[int, tuple[str, ...]] = {}
    for i in np.flatnonzero(cat == "incorrect").tolist():
        found = []
        if obs.qtype[i] == YES_NO and self_contradiction(
            obs.reply[i], obs.expected[i], data.candidate_label(i)
        ):
            found.append("self_contradiction")
        others = correct_questions.get(int(obs.pos[i]), set())
        if others - {obs.question[i]}:
            found.append("inconsistent_response")
        if found:
            out[i] = tuple(found)
    return out


def flip_mask(data: RunData, adjusted: bool = True) -> np.ndarray:
    """Per run position: the edge was answered correctly to one question and incorrectly to a
    different one (its verdicts flip between phrasings)."""
    mask = np.zeros(data.n_edges, dtype=bool)
    for i, types in detect(data, adjusted).items():
        if "inconsistent_response" in types:
            mask[int(data.obs.pos[i])] = True
    return mask


def error_type_of(data: RunData, i: int, detected: dict[int, tuple[str, ...]]) -> str:
    """The type of incorrect observation i: its tag, its edge's tag, its first detected type,
    or UNTYPED."""
    ov = data.overrides
    oid = int(data.obs.id[i])
    if oid in ov.observation_tags:
        return ov.observation_tags[oid]
    edge_id = int(data.obs.edge_id[i])
    if edge_id in ov.edge_tags:
        return ov.edge_tags[edge_id]
    found = detected.get(i)
    return found[0] if found else UNTYPED


@dataclass(frozen=True)
class ErrorTypeCount:
    """How many incorrect replies have one error type, and a few examples."""

    error_type: str
    label: str
    replies: int
    edges: int
    detected: int
    tagged: int
    examples: tuple[int, ...]


@dataclass(frozen=True)
class ErrorTypeSummary:
    """Table 5 for a run: incorrect replies by type, plus the failures that are not answers."""

    incorrect: int
    refused: int
    unparseable: int
    types: list[ErrorTypeCount]


def error_type_summary(
    data: RunData, adjusted: bool = True, mask: np.ndarray | None = None, examples: int = 5
) -> ErrorTypeSummary:
    """Count incorrect replies by error type, over the run positions in `mask` (default all
    included edges). `examples` observation ids are kept per type."""
    cat = data.categories(adjusted)
    keep_pos = data.included(adjusted) if mask is None else mask & data.included(adjusted)
    in_scope = keep_pos[data.obs.pos] if len(data.obs) else np.zeros(0, bool)
    detected = detect(data, adjusted)
    ov = data.overrides
    replies: dict[str, int] = defaultdict(int)
    edges: dict[str, set[int]] = defaultdict(set)
    det: dict[str, int] = defaultdict(int)
    tagged: dict[str, int] = defaultdict(int)
    ex: dict[str, list[int]] = defaultdict(list)
    for i in np.flatnonzero((cat == "incorrect") & in_scope).tolist():
        kind = error_type_of(data, i, detected)
        replies[kind] += 1
        edges[kind].add(int(data.obs.pos[i]))
        for t in detected.get(i, ()):
            det[t] += 1
        oid = int(data.obs.id[i])
        if oid in ov.observation_tags or int(data.obs.edge_id[i]) in ov.edge_tags:
            tagged[kind] += 1
        if len(ex[kind]) < examples:
            ex[kind].append(oid)
    types = [
        ErrorTypeCount(
            error_type=t,
            label=LABELS[t],
            replies=replies.get(t, 0),
            edges=len(edges.get(t, ())),
            detected=det.get(t, 0),
            tagged=tagged.get(t, 0),
            examples=tuple(ex.get(t, ())),
        )
        for t in (*ERROR_TYPES, UNTYPED)
    ]
    return ErrorTypeSummary(
        incorrect=int(np.count_nonzero((cat == "incorrect") & in_scope)),
        refused=int(np.count_nonzero((cat == "refused") & in_scope)),
        unparseable=int(np.count_nonzero((cat == "unparseable") & in_scope)),
        types=types,
    )
