"""KONTEST across runs: each model's consistency errors (inconsistent metamorphic tests), unique
to one model, shared by some or by all (KONTEST Fig. 4); for two runs of one model, which errors repeat and
which change (stability, RQ1); template 3 for the ensemble (Table 5)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text

from kglens_tui.answers.bias import Rate
from kglens_tui.core.intervals import stored_rate
from kglens_tui.core.safetext import LiteralTable
from kglens_tui.modes.chance import metamorphic_chance
from kglens_tui.modes.compare_sets import choose_partners, shared_notes
from kglens_tui.modes.config import KONTEST, KontestConfig
from kglens_tui.modes.kontest.ensemble import MIN_RELATIONS, weighted_ensemble
from kglens_tui.modes.kontest.metrics import RelationKey, answered_relations, ensemble_inputs
from kglens_tui.modes.kontest.oracles import (
    CONSISTENT,
    INCONSISTENT,
    RelationAnswers,
    metamorphic_tests,
)
from kglens_tui.runs.record import RunRecord, load_run_as
from kglens_tui.textfmt import counted, pct, rate_ci


@dataclass(frozen=True)
class ErrorOverlap:
    """Metamorphic errors of several runs over the relations every run answered."""

    relations: int
    """Relations every run answered (the only ones compared)."""
    errors: tuple[frozenset[tuple[RelationKey, int]], ...]
    """Per run, its errors: (relation, metamorphic test 0-4) pairs that found an inconsistency,
    as KONTEST Fig. 4 counts them (one relation can hold up to five)."""
    valid: tuple[int, ...]
    """Per run, its valid metamorphic tests over those relations (both answers yes or no): the
    errors' n, as `consistency report` counts them."""
    yes_rates: tuple[float | None, ...]
    """Per run, its yes-rate over the answers to those relations (None without a yes or no),
    for what a coin saying Yes as often scores on the same tests."""
    answered: tuple[int, ...]
    """Per run, the relations it answered (those compared and the others)."""

    def unique(self, i: int) -> int:
        """Errors of run i that no other run makes."""
        others = frozenset().union(*(e for j, e in enumerate(self.errors) if j != i))
        return len(self.errors[i] - others)

    def shared_by(self, k: int) -> int:
        """Errors exactly k runs make."""
        union = frozenset().union(*self.errors)
        return sum(sum(key in e for e in self.errors) == k for key in union)

    @property
    def union(self) -> int:
        return len(frozenset().union(*self.errors))


def error_overlap(
    answered: Sequence[Sequence[tuple[RelationKey, RelationAnswers]]],
) -> ErrorOverlap:
    """From each run's answered relations (`answered_relations`), over the relations every run
    answered: each run's inconsistent tests, its valid tests and its yes-rate on them."""
    by_run = [dict(run) for run in answered]
    common = set(by_run[0]).intersection(*by_run[1:]) if by_run else set()
    errors, valid, rates = [], [], []
    for run in by_run:
        outcomes = {k: metamorphic_tests(run[k]) for k in common}
        errors.append(
            frozenset(
                (k, t)
                for k, tests in outcomes.items()
                for t, (_, o) in enumerate(tests)
                if o == INCONSISTENT
            )
        )
        valid.append(
            sum(o in (CONSISTENT, INCONSISTENT) for tests in outcomes.values() for _, o in tests)
        )
        said = [a for k in common for a in _answers(run[k])]
        yes, no = said.count("yes"), said.count("no")
        rates.append(Rate(yes, yes + no).value)
    return ErrorOverlap(
        len(common), tuple(errors), tuple(valid), tuple(rates), tuple(len(r) for r in by_run)
    )


def _answers(r: RelationAnswers) -> tuple[str, ...]:
    return (r.atomic1, r.atomic2, *r.seq12, *r.seq21)


def add_template3(
    conn: sqlite3.Connection,
    answers: Sequence[dict[RelationKey, dict[int, str]]],
    run_ids: Sequence[int],
    template3_runs: Sequence[int],
) -> None:
    """Put each model's template-3 answers (the atomic answer in template 2's place of its
    `--template3` run, given in the same order as ``run_ids``) under template 3 of ``answers``."""
    if len(template3_runs) != len(run_ids):
        raise ValueError(
            f"--template3 needs one run per model: {counted(len(run_ids), 'run')}, "
            f"{counted(len(template3_runs), 'template-3 run')}"
        )
    for run_id, t3_id in zip(run_ids, template3_runs, strict=True):
        run, t3 = (
            load_run_as(conn, run_id, KONTEST, KontestConfig),
            load_run_as(conn, t3_id, KONTEST, KontestConfig),
        )
        if not t3.config.template3:
            raise ValueError(f"run {t3_id} was not made with --template3")
        if run.config.template3:
            raise ValueError(f"run {run_id} is a template-3 run: name it after --template3")
        if t3.kg_name != run.kg_name:
            raise ValueError(f"runs {run_id} and {t3_id} probe different KGs")
    t3_answers, _errors = ensemble_inputs(conn, template3_runs)
    for model, got in zip(answers, t3_answers, strict=True):
        for key, by_template in got.items():
            if key in model:
                model[key][3] = by_template[2]


def load_overlap(
    conn: sqlite3.Connection, run_ids: Sequence[int]
) -> tuple[list[RunRecord[KontestConfig]], ErrorOverlap]:
    """The runs and their error overlap; at least two KONTEST runs of one KG."""
    if len(run_ids) < 2 or len(set(run_ids)) != len(run_ids):
        raise ValueError("compare needs at least two different KONTEST runs")
    runs = [load_run_as(conn, r, KONTEST, KontestConfig) for r in run_ids]
    return runs, error_overlap(answered_relations(conn, run_ids))


SAME_RELATIONS = "same --relations and --seed"
"""How to make KONTEST runs on the same relations."""


def kontest_partners(
    conn: sqlite3.Connection, run_id: int, peers: Sequence[int]
) -> tuple[list[int], list[int]]:
    """Of ``peers`` (other KONTEST runs of run ``run_id``'s KG), those to compare it with by
    default and those left out (`choose_partners` over the relations each answered)."""
    own, *others = answered_relations(conn, [run_id, *peers])
    return choose_partners(
        {k for k, _ in own}, {p: {k for k, _ in o} for p, o in zip(peers, others, strict=True)}
    )


def overlap_renderables(
    runs: Sequence[RunRecord[KontestConfig]], o: ErrorOverlap
) -> list[LiteralTable | Text]:
    """`overlap_tables`, after a note when the runs answered different relations; only the note
    when they share none."""
    note = shared_notes(runs, o.answered, o.relations, "relation", SAME_RELATIONS)
    tables = overlap_tables(runs, o) if o.relations else []
    return [*([note] if note is not None else []), *tables]


def overlap_tables(runs: Sequence[RunRecord[KontestConfig]], o: ErrorOverlap) -> list[LiteralTable]:
    """Per run: errors and those unique to it; then errors shared by k runs; for two runs of one
    model, the stability table."""
    per = LiteralTable(
        title=f"Consistency errors (inconsistent metamorphic tests, 5 per relation) per run "
        f"over the {counted(o.relations, 'relation')} all answered "
        "(KONTEST Fig. 4)",
        title_justify="left",
        caption="errors: of the run's valid tests on those relations (both answers yes or no), "
        "with the 95% interval; chance: what a coin saying Yes as often as the model did on them "
        "scores (a coin: 50%; a constant answer: 0%).",
        caption_justify="left",
    )
    for col in ("run", "model", "errors [95%] (n)", "chance", "unique to it"):
        per.add_column(col, justify="left" if col == "model" else "right")
    for i, run in enumerate(runs):
        rate = Rate(len(o.errors[i]), o.valid[i])
        p_yes = o.yes_rates[i]
        per.add_row(
            str(run.id),
            run.target_label,
            f"{rate.k:,} · {rate.text()}",
            pct(None if p_yes is None else metamorphic_chance(p_yes)),
            f"{o.unique(i):,}",
        )
    shared = LiteralTable(title="Errors shared by k runs", title_justify="left")
    shared.add_column("made by")
    shared.add_column("errors", justify="right")
    shared.add_column("of all errors", justify="right")
    for k in range(1, len(runs) + 1):
        n = o.shared_by(k)
        name = "one run only" if k == 1 else ("all runs" if k == len(runs) else f"{k} runs")
        shared.add_row(name, f"{n:,}", pct(n / o.union if o.union else None))
    tables = [per, shared]
    if len(runs) == 2 and runs[0].target_label == runs[1].target_label:
        a, b = o.errors
        stable = LiteralTable(
            title="Stability: the same model run twice (KONTEST RQ1)", title_justify="left"
        )
        for col in ("errors that repeat", "only in the first", "only in the second", "repeat rate"):
            stable.add_column(col, justify="right")
        stable.add_row(
            f"{len(a & b):,}",
            f"{len(a - b):,}",
            f"{len(b - a):,}",
            pct(len(a & b) / o.union if o.union else None),
        )
        tables.append(stable)
    return tables


def _count(value: int, n: int) -> str:
    """A count of relations with its rate, interval and n."""
    return f"{value:,} · {Rate(value, n).text()}"


def _mean_count(mean: float, n: int, models: int) -> str:
    """The models' mean count of relations, with its rate over the n relations and its 95%
    Wilson interval over every model's n answers pooled (`stored_rate`), and that n."""
    if not n:
        return f"{mean:,.2f} · — (n=0)"
    return f"{mean:,.2f} · {rate_ci(*stored_rate(mean / n, models * n).bounds)} (n={models}×{n:,})"


def ensemble_renderables(
    conn: sqlite3.Connection,
    run_ids: Sequence[int],
    template3_runs: Sequence[int] = (),
    *,
    folds: int = 5,
    seed: int = 0,
) -> list[LiteralTable | Text]:
    """KONTEST Table 5 for the runs (one per model), with the template-3 row when each model's
    template-3 run is given; then the models' weights. Each run may be named once; with fewer
    shared relations than `MIN_RELATIONS` it says so instead of a gap reduction."""
    if len(set(run_ids)) != len(run_ids):
        raise ValueError("each run may be named once")
    answers, errors = ensemble_inputs(conn, run_ids)
    if template3_runs:
        add_template3(conn, answers, run_ids, template3_runs)
    templates = (1, 2, 3) if template3_runs else (1, 2)
    result = weighted_ensemble(answers, errors, templates=templates, folds=folds, seed=seed)
    n = result.relations
    capped = f" (capped at the {n:,} relations)" if n and result.folds < folds else ""
    models = len(run_ids)
    t = LiteralTable(
        title=f"Knowledge gap mitigation (KONTEST Table 5): relations left unaffirmed of {n:,} "
        f"relations every run answered validly, {result.folds} fold(s){capped}",
        title_justify="left",
        caption="95% Wilson intervals; models (mean): over the models' answers pooled "
        f"({counted(models, 'model')} × the relations).",
        caption_justify="left",
    )
    for col in ("template", "weighted ensemble", "majority vote", "models (mean)"):
        t.add_column(col, justify="right")
    for g in result.per_template:
        t.add_row(
            "3 (unseen)" if g.template == 3 else str(g.template),
            _count(g.weighted, n),
            _count(g.majority, n),
            _mean_count(g.models_mean, n, models),
        )
    every = n * len(result.per_template)
    t.add_row(
        Text("all", "bold"),
        _count(result.weighted, every),
        _count(result.majority, every),
        _mean_count(result.models_mean, every, models),
    )
    if not result.too_few:
        t.add_row(
            "gap reduction vs models",
            pct(result.improvement(result.weighted)),
            pct(result.improvement(result.majority)),
            "",
        )
    weights = ", ".join(
        f"run {r}: {sum(w[i] for w in result.weights) / len(result.weights):.3f}"
        for i, r in enumerate(run_ids)
    )
    out: list[LiteralTable | Text] = []
    if result.too_few:
        out.append(
            Text(
                f"Runs {', '.join(map(str, run_ids))} share only {counted(n, 'relation')} "
                "every run answered validly (fewer than "
                f"{MIN_RELATIONS}): too few to tell whether the ensemble narrows the gap; no "
                "gap reduction is given.",
                style="bold yellow",
            )
        )
    return [
        *out,
        t,
        Text(
            f"weights (mean over folds): {weights}. {counted(result.excluded, 'relation')} left out "
            "because some run's atomic answer was invalid; a relation with a failed request in "
            "some run is left out until that run is resumed."
        ),
    ]


def template3_partners(conn: sqlite3.Connection, run_ids: Sequence[int]) -> list[int]:
    """Each run's latest finished template-3 run of the same KG and target, or [] unless every
    run has one."""
    partners = []
    for run_id in run_ids:
        run = load_run_as(conn, run_id, KONTEST, KontestConfig)
        found = []
        for (r,) in conn.execute(
            "SELECT id FROM run WHERE mode = ? AND kg_id = ? AND status = 'finished' "
            "ORDER BY id DESC",
            (KONTEST, run.kg_id),
        ):
            other = load_run_as(conn, r, KONTEST, KontestConfig)
            if other.config.template3 and other.target_label == run.target_label:
                found.append(r)
        if not found:
            return []
        partners.append(found[0])
    return partners
