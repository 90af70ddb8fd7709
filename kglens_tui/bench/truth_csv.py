"""A ground truth made elsewhere: ``--ground-truth csv:PATH``, one fact per row with its true
error rate. Subjects and objects are entity keys or labels or aliases (as `kglens kg show` finds
them: key first, then label, then alias, case-insensitive), predicates keys or labels. The study
runs on the active edges the file covers."""

from __future__ import annotations

import csv
import math
import sqlite3
from collections import defaultdict
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from kglens_tui.bench.ground_truth import SIM_ALWAYS_FAILED, GroundTruth
from kglens_tui.core.errors import KGLensError
from kglens_tui.kg.graph import KGIndex, load_kg, predicate_lookup

COLUMNS = ("subject", "predicate", "object", "error_rate")


class TruthFileError(KGLensError, ValueError):
    """A row of a truth file that cannot be used; the message names file, line and field."""


class _Names:
    """Entity and predicate lookup by key, label or alias, as `kg show` resolves them."""

    def __init__(self, kg: KGIndex) -> None:
        self.keys = {k: i for i, k in enumerate(kg.entity_keys)}
        self.labels: dict[str, list[int]] = defaultdict(list)
        self.aliases: dict[str, list[int]] = defaultdict(list)
        for i, label in enumerate(kg.labels):
            self.labels[label.casefold()].append(i)
            for alias in kg.aliases[i]:
                self.aliases[alias.casefold()].append(i)
        self.preds = predicate_lookup(kg)

    def entities(self, text: str) -> list[int]:
        if text in self.keys:
            return [self.keys[text]]
        folded = text.casefold()
        return self.labels.get(folded) or self.aliases.get(folded, [])


def csv_truth(
    conn: sqlite3.Connection, path: Path, kg_name: str, positions: np.ndarray
) -> GroundTruth:
    """The truth of a CSV file over the given KG edge positions (a run's active edges)."""
    kg = load_kg(conn, kg_name)
    names = _Names(kg)
    by_fact: dict[tuple[int, int, int], list[int]] = defaultdict(list)
    for pos in np.asarray(positions).tolist():
        by_fact[(int(kg.s[pos]), int(kg.p[pos]), int(kg.o[pos]))].append(pos)
    rates: dict[int, float] = {}
    try:
        fh = path.open(newline="", encoding="utf-8")
    except OSError as exc:
        raise TruthFileError(f"{path}: cannot read the truth file ({exc.strerror})") from None
    with fh:
        reader = csv.DictReader(fh)
        missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise TruthFileError(
                f"{path}, line 1, field {missing[0]!r}: the header needs the columns "
                f"{', '.join(COLUMNS)}"
            )
        for row in reader:
            line = reader.line_num
            found = _edges(row, names, by_fact, kg, f"{path}, line {line}")
            rate = _rate(row.get("error_rate"), f"{path}, line {line}, field 'error_rate'")
            for pos in found:
                if pos in rates:
                    raise TruthFileError(
                        f"{path}, line {line}, field 'subject': this fact has a rate already"
                    )
                rates[pos] = rate
    if not rates:
        raise TruthFileError(f"{path}: the file has no rows")
    pos = np.array(sorted(rates), dtype=np.int64)
    values = np.array([rates[p] for p in pos.tolist()], dtype=np.float64)
    left = len(positions) - len(pos)
    return GroundTruth(
        source=f"{path.name} on {kg.name}",
        rates=values,
        always_failed=values >= SIM_ALWAYS_FAILED,
        s=kg.s[pos],
        o=kg.o[pos],
        n_nodes=len(kg.entity_keys),
        edge_ids=kg.edge_ids[pos],
        kg_name=kg.name,
        note=f"{len(pos):,} edges from the file"
        + (f" ({left:,} active edges it does not cover left out)" if left else "")
        + f"; always failed = true rate >= {SIM_ALWAYS_FAILED}",
        p=kg.p[pos],
    )


def _edges(
    row: Mapping[str, str | None],
    names: _Names,
    by_fact: Mapping[tuple[int, int, int], list[int]],
    kg: KGIndex,
    where: str,
) -> list[int]:
    """The active edges a row names: every (subject, predicate, object) its names resolve to."""
    texts = {c: (row.get(c) or "").strip() for c in ("subject", "predicate", "object")}
    for column, text in texts.items():
        if not text:
            raise TruthFileError(f"{where}, field {column!r}: empty")
    subjects = names.entities(texts["subject"])
    if not subjects:
        raise TruthFileError(f"{where}, field 'subject': no entity {texts['subject']!r}")
    pred = names.preds.get(texts["predicate"].casefold())
    if pred is None:
        raise TruthFileError(f"{where}, field 'predicate': no predicate {texts['predicate']!r}")
    objects = names.entities(texts["object"])
    if not objects:
        raise TruthFileError(f"{where}, field 'object': no entity {texts['object']!r}")
    found = [p for s in subjects for o in objects for p in by_fact.get((s, pred, o), [])]
    if not found:
        raise TruthFileError(
            f"{where}, field 'object': '{texts['subject']}' {kg.pred_keys[pred]} "
            f"'{texts['object']}' matches no active edge of KG '{kg.name}' in this selection"
        )
    facts = {(int(kg.s[p]), int(kg.o[p])) for p in found}
    if len(facts) > 1:
        raise TruthFileError(
            f"{where}, field 'subject': the names match {len(facts)} different facts; "
            "use entity keys"
        )
    return found


def _rate(text: str | None, where: str) -> float:
    try:
        value = float((text or "").strip())
    except ValueError:
        raise TruthFileError(f"{where}: not a number ({text!r})") from None
    if not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise TruthFileError(f"{where}: an error rate is between 0 and 1 (got {text!r})")
    return value
