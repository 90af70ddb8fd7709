"""`kglens bench verifier`: how often the verdict is the one a careful human gives.

The labelled set (tests/data/verifier_bench.jsonl, described in tests/data/verifier_bench.md)
holds real SmolLM2 replies to the product's own questions on both bundled KGs and hand-written
hard cases, each labelled by a person: correct / incorrect / refused / unparseable, and hedged.
Every reply is verified as a run verifies it (Wh replies against the names of every entity of
the object's type in the bundled KG) and, as the same-run baseline, by a plain case-insensitive
substring matcher. Rates come with n and a 95% Wilson interval.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

from kglens_tui.answers.mentions import NameTable, TypeNames, mentions, tokenize
from kglens_tui.answers.verify import Checked, check_wh, check_yes_no
from kglens_tui.core.errors import KGLensError
from kglens_tui.core.intervals import Proportion, wilson
from kglens_tui.core.question_type import WH, YES_NO
from kglens_tui.core.safetext import LiteralTable
from kglens_tui.core.verdict import Verdict
from kglens_tui.kg.answer_names import AnswerNames
from kglens_tui.kg.bundled import ensure_kg
from kglens_tui.kg.bundled_data import bundled_names
from kglens_tui.kg.graph import load_kg
from kglens_tui.store.connection import connect
from kglens_tui.textfmt import pct, rate_ci

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "tests" / "data" / "verifier_bench.jsonl"
LABELS = ("correct", "incorrect", "refused", "unparseable")
TARGETS = {WH: 0.98, YES_NO: 1.0}
"""Accuracy the verifier must reach on the labelled set, by question type."""
KIND_TARGET = 0.96
"""Accuracy the verifier must reach on each kind of hard reply (issue #34), gaps left out."""
KINDS = {
    "language": "right answer in another language or script",
    "old-name": "right old or alternative name not in the aliases",
    "symbol": "currency by symbol or code, time zones",
    "retraction": "right answer retracted for a wrong one, or the reverse",
    "echo": "question echoed back (capital named like its country)",
    "person": "partial person names",
    "refusal": "refusals without the usual keywords",
    "passing": "long explanations naming other entities in passing",
    "list": "lists of candidates",
    "number": "numbers in other formats",
    "near-miss": "near misses, empty, wrong subject, diacritics and punctuation",
}
"""The kinds of hard Wh replies the bench covers (`kind` of a record), in the order shown."""


class BenchDataError(KGLensError, ValueError):
    """A labelled record that cannot be used (the message names file, line and field)."""


@dataclass(frozen=True)
class Case:
    """One labelled reply."""

    id: str
    source: str
    kg: str
    object_type: str
    qtype: str
    question: str
    expected: str
    answers: tuple[tuple[str, ...], ...]
    reply: str
    label: str
    hedged: bool
    kg_gap: str = ""
    """Why no matcher can get it from the KG's names and the answer-name sources (the right
    name is missing there)."""
    predicate: str = ""
    kind: str = ""
    """Which of `KINDS` the reply is ("" for the replies labelled before them)."""

    @property
    def hand_written(self) -> bool:
        return self.source.startswith("hand-written")


def _field(record: dict[str, Any], name: str, kind: type, where: str) -> object:
    value = record.get(name)
    if not isinstance(value, kind):
        raise BenchDataError(f"{where}: field '{name}' must be a {kind.__name__}")
    return value


def load_cases(path: Path) -> list[Case]:
    """Every record of a labelled JSONL file; one clear error naming file, line and field."""
    cases = []
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            where = f"{path}:{lineno}"
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise BenchDataError(f"{where}: not JSON ({exc.msg})") from None
            if not isinstance(record, dict):
                raise BenchDataError(f"{where}: a record must be a JSON object")
            qtype = _field(record, "qtype", str, where)
            if qtype not in (WH, YES_NO):
                raise BenchDataError(f"{where}: field 'qtype' must be '{WH}' or '{YES_NO}'")
            label = _field(record, "label", str, where)
            if label not in LABELS:
                raise BenchDataError(f"{where}: field 'label' must be one of {', '.join(LABELS)}")
            expected = record.get("expected", "")
            if qtype == YES_NO and expected not in ("yes", "no"):
                raise BenchDataError(f"{where}: field 'expected' must be 'yes' or 'no'")
            answers = record.get("answers", [])
            if not isinstance(answers, list) or not all(
                isinstance(g, list) and all(isinstance(a, str) for a in g) for g in answers
            ):
                raise BenchDataError(f"{where}: field 'answers' must be a list of lists of names")
            if qtype == WH and not answers:
                raise BenchDataError(f"{where}: field 'answers' is empty for a Wh question")
            cases.append(
                Case(
                    id=str(_field(record, "id", str, where)),
                    source=str(_field(record, "source", str, where)),
                    kg=str(_field(record, "kg", str, where)),
                    object_type=str(_field(record, "object_type", str, where)),
                    qtype=str(qtype),
                    question=str(_field(record, "question", str, where)),
                    expected=str(expected),
                    answers=tuple(tuple(g) for g in answers),
                    reply=str(_field(record, "reply", str, where)),
                    label=label,
                    hedged=bool(_field(record, "hedged", bool, where)),
                    kg_gap=str(record.get("kg_gap", "")),
                    predicate=str(record.get("predicate", "")),
                    kind=_kind(record, where),
                )
            )
    return cases


def _kind(record: dict[str, Any], where: str) -> str:
    kind = record.get("kind", "")
    if kind and kind not in KINDS:
        raise BenchDataError(f"{where}: field 'kind' must be one of {', '.join(KINDS)}")
    return str(kind)


def substring_verdict(case: Case) -> str:
    """The baseline: a plain case-insensitive substring matcher. Wh: correct when any name of a
    true object occurs in the reply. Yes/No: whichever of "yes" and "no" occurs first."""
    text = case.reply.casefold()
    if not text.strip():
        return Verdict.UNPARSEABLE.value
    if case.qtype == WH:
        hit = any(name.casefold() in text for group in case.answers for name in group)
        return (Verdict.CORRECT if hit else Verdict.INCORRECT).value
    places = {word: text.find(word) for word in ("yes", "no") if word in text}
    if not places:
        return Verdict.UNPARSEABLE.value
    given = min(places, key=lambda w: places[w])
    return (Verdict.CORRECT if given == case.expected else Verdict.INCORRECT).value


class Rivals:
    """Names of every entity type of the bundled KGs, loaded once into a scratch database."""

    def __init__(self, kgs: Sequence[str]) -> None:
        known = set(bundled_names())
        conn = connect(":memory:")
        self._names: dict[str, TypeNames] = {}
        self._by_name: dict[tuple[str, str], dict[str, int]] = {}
        self._subjects: dict[tuple[str, str], NameTable] = {}
        self._subject_of: dict[tuple[str, str, str], tuple[str, ...]] = {}
        try:
            for kg in sorted(set(kgs)):
                if kg not in known:
                    raise BenchDataError(
                        f"KG '{kg}' in the labelled set is not bundled "
                        f"(bundled: {', '.join(sorted(known)) or 'none'})"
                    )
                ensure_kg(conn, kg)
                self._names[kg] = TypeNames(load_kg(conn, kg))
        finally:
            conn.close()

    def table(self, kg: str, object_type: str) -> NameTable:
        return self._names[kg].table(object_type)

    def answers(self, case: Case) -> tuple[tuple[str, ...], ...]:
        """The case's true answers with every name the bundled KG gives them now (a name added
        to the KG after the reply was labelled counts, as it does in a run)."""
        kg = self._names[case.kg].kg
        by_name = self._by_name.get((case.kg, case.object_type))
        if by_name is None:
            by_name = {
                name.casefold(): node
                for node, t in enumerate(kg.types)
                if t == case.object_type
                for name in kg.names(node)
            }
            self._by_name[(case.kg, case.object_type)] = by_name
        current = []
        for names in case.answers:
            node = next((by_name[n.casefold()] for n in names if n.casefold() in by_name), None)
            extra = () if node is None else kg.names(node)
            current.append(tuple(dict.fromkeys((*names, *extra))))
        return tuple(current)

    def answer_only(
        self, case: Case, answers: tuple[tuple[str, ...], ...]
    ) -> tuple[AnswerNames, ...]:
        """The answer-only names of the case's true answers, as a run finds them."""
        return self._names[case.kg].answer_only(case.object_type, answers)

    def subject(self, case: Case) -> tuple[str, ...]:
        """Every name of the entity the question asks about (a run knows it; the labelled set
        keeps only the question): the first subject of the case's predicate the question names,
        kept by KG, predicate and question (cases of several labelled sets share ids)."""
        key = (case.kg, case.predicate, case.question)
        known = self._subject_of.get(key)
        if known is None:
            known = self._subject_of[key] = self._find_subject(case)
        return known

    def _find_subject(self, case: Case) -> tuple[str, ...]:
        kg = self._names[case.kg].kg
        if case.predicate not in kg.pred_keys:
            return ()
        table = self._subjects.get((case.kg, case.predicate))
        if table is None:
            p = kg.pred_keys.index(case.predicate)
            table = NameTable(
                (name, node)
                for node in np.unique(kg.s[kg.p == p]).tolist()
                for name in kg.names(node)
            )
            self._subjects[(case.kg, case.predicate)] = table
        found = mentions(tokenize(case.question), table)
        if not found:
            return ()
        # the question's first word opens it, never its subject ("In" of "In what year was
        # Sodium discovered?" is no Indium)
        later = [m for m in found if m.start > 0] or found
        node = min(later, key=lambda m: m.start).owner
        return kg.names(node)


def matcher_verdict(case: Case, rivals: Rivals) -> Checked:
    """The verdict a run gives the reply (the alias matcher, or the first word)."""
    if case.qtype == WH:
        answers = rivals.answers(case)
        return check_wh(
            case.reply,
            answers,
            rivals.table(case.kg, case.object_type),
            rivals.subject(case),
            question=case.question,
            answer_only=rivals.answer_only(case, answers),
        )
    return check_yes_no(case.reply, case.expected)


@dataclass
class Tally:
    """Agreement with the labels over a group of cases."""

    n: int = 0
    matcher: int = 0
    baseline: int = 0

    def add(self, matcher_ok: bool, baseline_ok: bool) -> None:
        self.n += 1
        self.matcher += matcher_ok
        self.baseline += baseline_ok


@dataclass
class Miss:
    """A case the verifier got wrong."""

    case: Case
    got: Checked


@dataclass
class VerifierBench:
    """Everything `kglens bench verifier` prints."""

    by_qtype: dict[str, Tally] = field(default_factory=dict)
    by_label: dict[tuple[str, str], Tally] = field(default_factory=dict)
    by_source: dict[tuple[str, str], Tally] = field(default_factory=dict)
    hedged: Tally = field(default_factory=Tally)
    """Agreement on the hedged flag over answered replies (labelled correct or incorrect)."""
    without_gaps: dict[str, Tally] = field(default_factory=dict)
    by_kind: dict[str, Tally] = field(default_factory=dict)
    """Agreement per kind of hard Wh reply (`KINDS`), every case."""
    by_kind_matchable: dict[str, Tally] = field(default_factory=dict)
    """The same without the gaps (cases whose right name no source has)."""
    gaps: int = 0
    sure: dict[str, Tally] = field(default_factory=dict)
    """Agreement per question type over the verdicts the rules are sure of (not uncertain): what
    a run without a judge stands on."""
    unsure: dict[str, Tally] = field(default_factory=dict)
    """The same over the verdicts marked uncertain (a judge's or a person's to settle)."""
    sure_false_correct: int = 0
    """Sure "correct" verdicts of replies the person did not label correct: the worst miss."""
    misses: list[Miss] = field(default_factory=list)
    matcher_us: float = 0.0
    baseline_us: float = 0.0

    def accuracy(self, qtype: str) -> Proportion:
        t = self.by_qtype.get(qtype, Tally())
        return wilson(t.matcher, t.n)


def _per_reply_us(func: Callable[[], object], n: int, rounds: int = 3) -> float:
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - started)
    return best / max(n, 1) * 1e6


def evaluate(cases: Sequence[Case], rivals: Rivals, *, timed: bool = True) -> VerifierBench:
    """Verify every case with the matcher and the baseline and tally agreement with the labels;
    ``timed``: then time both over the cases again (three rounds each) for the time per reply,
    which stays 0 without it."""
    bench = VerifierBench()
    for case in cases:
        got = matcher_verdict(case, rivals)
        ok = got.verdict.value == case.label
        base_ok = substring_verdict(case) == case.label
        bench.by_qtype.setdefault(case.qtype, Tally()).add(ok, base_ok)
        for key, table in (
            ((case.qtype, case.label), bench.by_label),
            ((case.qtype, "hand-written" if case.hand_written else "model"), bench.by_source),
        ):
            table.setdefault(key, Tally()).add(ok, base_ok)
        (bench.unsure if got.uncertain else bench.sure).setdefault(case.qtype, Tally()).add(
            ok, base_ok
        )
        if (
            not got.uncertain
            and got.verdict is Verdict.CORRECT
            and case.label != Verdict.CORRECT.value
        ):
            bench.sure_false_correct += 1
        if case.kg_gap:
            bench.gaps += 1
        else:
            bench.without_gaps.setdefault(case.qtype, Tally()).add(ok, base_ok)
        if case.kind:
            bench.by_kind.setdefault(case.kind, Tally()).add(ok, base_ok)
            if not case.kg_gap:
                bench.by_kind_matchable.setdefault(case.kind, Tally()).add(ok, base_ok)
        if case.label in ("correct", "incorrect"):
            bench.hedged.add(got.hedged == case.hedged, not case.hedged)
        if not ok or (case.label in ("correct", "incorrect") and got.hedged != case.hedged):
            bench.misses.append(Miss(case, got))
    if timed:
        bench.matcher_us = _per_reply_us(
            lambda: [matcher_verdict(c, rivals) for c in cases], len(cases)
        )
        bench.baseline_us = _per_reply_us(lambda: [substring_verdict(c) for c in cases], len(cases))
    return bench


def rate_text(k: int, n: int) -> str:
    """'98.4% [96.3–99.3]', or '—' when n is 0 (the 95% Wilson interval in brackets)."""
    return rate_ci(*wilson(k, n).bounds)


def run_verifier_bench(
    console: Console, path: Path = DEFAULT_DATA, show_misses: bool = False
) -> VerifierBench:
    """Load the labelled set, evaluate it and print the figures."""
    if not path.is_file():
        raise BenchDataError(
            f"{path}: no labelled set there: the labelled sets come with the project's source "
            "(tests/data/ of a checkout), not with an installed package; run this from a "
            "checkout or pass --data PATH"
        )
    cases = load_cases(path)
    if not cases:
        raise BenchDataError(f"{path}: no labelled replies in the file")
    bench = evaluate(cases, Rivals([c.kg for c in cases]))
    table = Table(
        title=f"kglens bench verifier: {len(cases)} labelled replies; share whose verdict is "
        "the human label, with 95% intervals",
        title_justify="left",
    )
    for col in ("replies", "n", "verifier", "baseline: substring"):
        table.add_column(col, justify="left" if col == "replies" else "right")

    def row(name: str, t: Tally) -> None:
        table.add_row(name, f"{t.n:,}", rate_text(t.matcher, t.n), rate_text(t.baseline, t.n))

    for qtype in (WH, YES_NO):
        row(
            f"[bold]{qtype}[/] (target ≥ {pct(TARGETS[qtype])})", bench.by_qtype.get(qtype, Tally())
        )
        for label in LABELS:
            if (qtype, label) in bench.by_label:
                row(f"  labelled {label}", bench.by_label[(qtype, label)])
        for source, what in (("model", "SmolLM2 replies"), ("hand-written", "hand-written cases")):
            if (qtype, source) in bench.by_source:
                row(f"  {what}", bench.by_source[(qtype, source)])
        for tallies, what in (
            (bench.sure, "verdicts the rules are sure of"),
            (bench.unsure, "marked uncertain (judge or person)"),
        ):
            if qtype in tallies:
                row(f"  {what}", tallies[qtype])
    row("hedged flag (answered replies)", bench.hedged)
    table.add_row(
        "time per reply", "", f"{bench.matcher_us:,.0f} µs", f"{bench.baseline_us:,.1f} µs"
    )
    console.print(table)
    if bench.by_kind:
        kinds = Table(
            title=f"Hard Wh replies by kind (issue #34; target ≥ {pct(KIND_TARGET)} without gaps)",
            title_justify="left",
        )
        for col in ("kind", "n", "verifier", "without gaps", "baseline: substring"):
            kinds.add_column(col, justify="left" if col == "kind" else "right")
        for kind, what in KINDS.items():
            t = bench.by_kind.get(kind)
            if t is None:
                continue
            found = bench.by_kind_matchable.get(kind, Tally())
            kinds.add_row(
                what,
                f"{t.n:,}",
                rate_text(t.matcher, t.n),
                f"{rate_text(found.matcher, found.n)} (n={found.n})",
                rate_text(t.baseline, t.n),
            )
        console.print(kinds)
    unsure = bench.unsure.get(WH, Tally())
    wh_n = bench.by_qtype.get(WH, Tally()).n
    if wh_n:
        console.print(
            f"{unsure.n:,} of {wh_n:,} Wh verdicts ({rate_text(unsure.n, wh_n)}) are marked "
            "uncertain: a run sends them to its judge when it has one, and to human review; "
            f"{bench.sure_false_correct} sure verdicts say correct where the person did not.",
            soft_wrap=True,
        )
    wg = bench.without_gaps.get(WH, Tally())
    console.print(
        f"{bench.gaps} Wh replies name a true answer by a name the KG and the answer-name "
        "sources lack (kg_gap in the data): "
        f"without them the verifier scores {rate_text(wg.matcher, wg.n)} (n={wg.n}) on Wh. "
        "The baseline never says refused and reads any 'no' inside a word as No.",
        soft_wrap=True,
    )
    if show_misses and bench.misses:
        misses = LiteralTable(title="Misses", title_justify="left")
        for col in ("id", "label", "verdict", "hedged (label / verdict)", "reply"):
            misses.add_column(col)
        for m in bench.misses:
            misses.add_row(
                m.case.id,
                m.case.label,
                m.got.verdict.value,
                f"{m.case.hedged} / {m.got.hedged}",
                m.case.reply[:100],
            )
        console.print(misses)
    return bench
