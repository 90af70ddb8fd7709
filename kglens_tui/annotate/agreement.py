"""Results of a round: majority votes, the paper's Table 4 (QG, QAV, QG+QAV accuracy per KG),
Krippendorff's alpha, pairwise Cohen's kappa (with the items each pair labelled; none shown over
fewer than KAPPA_MIN_ITEMS), percent agreement and the disputed items.

Majority: a value is the human label when at least `majority` annotators chose it and no other
value has as many votes (paper: 3 of 5); an adjudication overrides the majority. An item without
a final label (majority or adjudication) on a question is left out of the rates that need it
until it has one: every rate is over the items that have their final label, with its n and 95%
Wilson interval, and the report says how many items are not counted yet."""

from __future__ import annotations

import itertools
import json
import math
import sqlite3
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import krippendorff
import numpy as np

from kglens_tui.annotate.adjudication import Adjudication, latest_adjudications
from kglens_tui.annotate.errors import item_ref
from kglens_tui.annotate.labels import LabelState, state_from_row
from kglens_tui.annotate.rounds import Round, app_judgement, get_round
from kglens_tui.core.intervals import Proportion, wilson
from kglens_tui.core.question_type import WH, YES_NO
from kglens_tui.textfmt import counted, num, pct, rate_ci

QUESTIONS = ("question_clear", "response_correct")

KAPPA_MIN_ITEMS = 10
"""Fewest items two annotators must both have labelled for their Cohen's kappa to be shown.
Over fewer, one label more or less typically moves kappa by 0.2 or more (over 3 items it jumps
between values like -0.500 and 1.000), so the report shows the count and no kappa.
docs/annotation.md, "Human evaluation", documents this threshold."""


def majority(votes: Iterable[str], threshold: int) -> str | None:
    """The value with at least `threshold` votes and strictly more than any other, else None."""
    ranked = Counter(votes).most_common()
    if not ranked or ranked[0][1] < threshold:
        return None
    if len(ranked) > 1 and ranked[1][1] == ranked[0][1]:
        return None
    return ranked[0][0]


def cohen_kappa(a: Sequence[str | None], b: Sequence[str | None]) -> float | None:
    """Cohen's kappa over the items both raters labelled (None = no label); None if undefined."""
    pairs = [(x, y) for x, y in zip(a, b, strict=True) if x is not None and y is not None]
    if not pairs:
        return None
    cats = sorted({v for p in pairs for v in p})
    index = {c: i for i, c in enumerate(cats)}
    table = np.zeros((len(cats), len(cats)))
    for x, y in pairs:
        table[index[x], index[y]] += 1
    n = table.sum()
    observed = np.trace(table) / n
    expected = float(table.sum(axis=1) @ table.sum(axis=0)) / n**2
    if expected >= 1.0:
        return None  # both raters used one and the same value throughout
    return float((observed - expected) / (1.0 - expected))


def percent_agreement(units: Iterable[Sequence[str]]) -> float | None:
    """Share of agreeing pairs of annotators over all items (each unit: the values given)."""
    agree = pairs = 0
    for values in units:
        for x, y in itertools.combinations(values, 2):
            pairs += 1
            agree += x == y
    return agree / pairs if pairs else None


def nominal_alpha(matrix: Sequence[Sequence[str | None]]) -> float | None:
    """Krippendorff's alpha (nominal) over annotators x items; None where undefined."""
    values = sorted({v for row in matrix for v in row if v is not None})
    if len(values) < 2:
        return None  # a single value in the data: alpha is 0/0
    code = {v: float(i) for i, v in enumerate(values)}
    data = np.array([[np.nan if v is None else code[v] for v in row] for row in matrix])
    try:
        alpha = float(krippendorff.alpha(reliability_data=data, level_of_measurement="nominal"))
    except ValueError:
        return None
    return alpha if math.isfinite(alpha) else None


@dataclass(frozen=True)
class ItemResult:
    """One item with everybody's labels side by side and the decisions drawn from them."""

    item_id: int
    position: int
    kg: str
    qtype: str
    question: str
    answers: list[list[str]]
    response: str | None
    app_verdict: str
    labels: dict[str, LabelState]
    """annotator -> current label (assigned annotators who stored something)."""
    assigned: tuple[str, ...]
    clear_majority: str | None
    correct_majority: str | None
    adjudication: Adjudication | None
    question_clear: bool
    """Final: the majority (or the adjudicator) says the question's intent is clear."""
    human_correct: str | None
    """Final human judgement of the response (Wh only)."""
    app_agrees: bool | None
    """Wh only: the app's verdict matches the final human judgement; None while the humans have
    no judgement on the response (no majority yet)."""

    threshold: int = 3
    """Votes a majority needs (the round's setting)."""

    @property
    def accurate(self) -> bool:
        """QG+QAV: the question is clear and (Wh) the app's verdict agrees with the humans."""
        return self.question_clear and (self.qtype != WH or self.app_agrees is True)

    @property
    def complete(self) -> bool:
        """Every assigned annotator has labelled or skipped the item."""
        return all(a in self.labels and self.labels[a].done for a in self.assigned)

    @property
    def undecided(self) -> bool:
        """No majority on a question this item needs, and no adjudication settling it."""
        clear = self.clear_majority or (self.adjudication and self.adjudication.question_clear)
        if not clear:
            return True
        if self.qtype != WH:
            return False
        return not (
            self.correct_majority or (self.adjudication and self.adjudication.response_correct)
        )

    @property
    def clarity_decided(self) -> bool:
        """The question's clarity has its final label (a majority or an adjudication)."""
        return self.clarity != "undecided"

    @property
    def response_decided(self) -> bool:
        """Wh: the response has its final human judgement (a majority or an adjudication)."""
        return self.human_correct is not None

    @property
    def decided(self) -> bool:
        """Every question the item asks has its final label (counted in QG+QAV)."""
        return not self.undecided

    @property
    def settled(self) -> bool:
        """Every question the item needs has a majority that the labels still missing cannot
        change (always so once the item is complete and has its majorities)."""
        if self.undecided:
            return False
        remaining = sum(not (a in self.labels and self.labels[a].done) for a in self.assigned)
        questions = QUESTIONS if self.qtype == WH else QUESTIONS[:1]
        return all(
            _beyond_reach([getattr(s, q) for s in self.labels.values()], remaining)
            for q in questions
        )

    @property
    def clarity(self) -> str:
        """The final word on the question's intent: 'clear', 'not clear' or 'undecided'."""
        final = (
            self.adjudication.question_clear if self.adjudication else None
        ) or self.clear_majority
        return {"yes": "clear", "no": "not clear"}.get(final or "", "undecided")

    @property
    def status(self) -> str:
        """Why the item needs a decision, or its state: decided (adjudicated), disagrees (the
        human majority on the response differs from the app), no majority (all labels in),
        flagged, ok (majorities settled, agreeing with the app) or pending (labels missing
        that could still change the outcome)."""
        if self.adjudication is not None:
            return "decided"
        if self.app_agrees is False:
            return "disagrees"
        if self.undecided and self.complete:
            return "no majority"
        if any(s.flag for s in self.labels.values()):
            return "flagged"
        return "ok" if self.settled else "pending"

    @property
    def app_judgement(self) -> str:
        return app_judgement(self.app_verdict)


def _beyond_reach(votes: Sequence[str | None], remaining: int) -> bool:
    """True when the leading value's lead over the runner-up exceeds the votes still to come."""
    ranked = Counter(v for v in votes if v is not None).most_common(2)
    if not ranked:
        return False
    second = ranked[1][1] if len(ranked) > 1 else 0
    return ranked[0][1] > second + remaining


TABLE4_RATES = ("qg", "qg_wh", "qg_yes_no", "qav", "qg_qav")
"""The rates of a Table 4 column, in the paper's row order."""


@dataclass(frozen=True)
class Table4Column:
    """One column of the paper's Table 4. Each rate is k of n over the items that have the final
    labels it needs (a majority or an adjudication): QG and its Wh / Yes/No rows over the items
    whose question clarity is decided, QAV over the Wh items whose response judgement is decided,
    QG+QAV over the items with every final label they need. Items still without one are not
    counted (never as 'not clear' or 'not agreed'). `qg`, `qav`... are the rates' values, None
    when n is 0."""

    name: str
    items: int
    wh: int
    yes_no: int
    rates: dict[str, Proportion]
    """Rate name (TABLE4_RATES) -> k of n with its 95% Wilson interval. In the 'Average' column
    the value is the mean of the KG columns' values, n (and k) their sums, and there is no
    interval (low and high are None)."""
    averaged: bool = False
    """The 'Average' column: a mean of the KG columns, not a rate over items."""

    def cell(self, rate: str) -> str:
        """A rate with its 95% Wilson interval and n, "66.7% [20.8–93.9] n=3"; the 'Average'
        column's mean has no interval ("83.3% n=6", n summing the KG columns')."""
        p = self.rates[rate]
        shown = pct(p.value) if self.averaged else rate_ci(*p.bounds)
        return f"{shown} n={p.n:,}"

    @property
    def qg(self) -> float | None:
        return self.rates["qg"].value

    @property
    def qg_wh(self) -> float | None:
        return self.rates["qg_wh"].value

    @property
    def qg_yes_no(self) -> float | None:
        return self.rates["qg_yes_no"].value

    @property
    def qav(self) -> float | None:
        return self.rates["qav"].value

    @property
    def qg_qav(self) -> float | None:
        return self.rates["qg_qav"].value


@dataclass(frozen=True)
class QuestionAgreement:
    """Inter-annotator agreement on one of the two questions."""

    question: str
    items: int
    """Items at least two annotators answered this question on: the ones compared (all labels
    count, majority or not; an item with fewer labels adds nothing to the figures)."""
    alpha: float | None
    percent: float | None
    annotators: tuple[str, ...]
    kappa: list[list[float | None]]
    """Pairwise Cohen's kappa, rows and columns in `annotators` order (None: undefined, or no
    item labelled by both); `shown_kappa` leaves out those over too few items."""
    shared: list[list[int]]
    """Items both annotators labelled on this question (the kappa's n), in the same order; on
    the diagonal, the items that annotator labelled."""
    one_value: bool = False
    """Every label given on this question is the same: alpha is undefined (0/0)."""

    def alpha_cell(self) -> str:
        """Alpha to three decimals; "— (all labels agree)" where it is undefined because every
        label is the same (`ALPHA_LEGEND`); "—" where nothing was compared."""
        if self.alpha is not None:
            return num(self.alpha, 3)
        return f"— ({ALL_AGREE})" if self.one_value else "—"

    def shown_kappa(self, a: int, b: int) -> float | None:
        """The pair's kappa if it is over at least KAPPA_MIN_ITEMS shared items, else None."""
        return self.kappa[a][b] if self.shared[a][b] >= KAPPA_MIN_ITEMS else None

    def kappa_cell(self, a: int, b: int) -> str:
        """One cell of the kappa matrix with its n: "0.571 n=24"; "— n=3" under
        KAPPA_MIN_ITEMS shared items; "n/a n=24" where kappa is undefined (both gave one and the
        same value throughout); "n=24" on the diagonal (the items that annotator labelled)."""
        n = self.shared[a][b]
        if a == b:
            return f"n={n:,}"
        value = self.shown_kappa(a, b)
        if value is None:
            return f"— n={n:,}" if n < KAPPA_MIN_ITEMS else f"n/a n={n:,}"
        return f"{value:.3f} n={n:,}"


ALL_AGREE = "all labels agree"
"""Why a question's alpha is undefined when every label given on it is the same."""

ALPHA_LEGEND = (
    f"Krippendorff's α — ({ALL_AGREE}): every label given on the question is the same, so "
    "there is no disagreement to weigh against chance and α is undefined (0/0); the percent "
    "agreement beside it says how often the annotators agree."
)
"""The note under the agreement table when some question's alpha is undefined that way."""

NO_DISAGREEMENT = (
    "Majority disagrees with the app: none (of the Wh items with a final human judgement)."
)
"""What the report says in place of an empty table of items whose majority disagrees."""

KAPPA_LEGEND = (
    "Cohen's κ cells: κ over the items both annotators labelled, with that n; — under "
    f"{KAPPA_MIN_ITEMS} such items (too few for κ to mean anything); n/a: κ undefined (both gave "
    "one value throughout); diagonal: the items each annotator labelled."
)
"""What the kappa matrices' cells mean (CLI and TUI)."""


@dataclass(frozen=True)
class RoundResults:
    round: Round
    items: list[ItemResult]
    table4: list[Table4Column]
    """One column per KG, then 'Average' (mean of the KG columns, as in the paper) if there are
    several KGs, then 'Overall' (pooled over all items)."""
    agreement: dict[str, QuestionAgreement]
    disagreements: list[ItemResult]
    """Wh items whose final human judgement differs from the app's verdict."""
    undecided: list[ItemResult]
    """Items every assigned annotator has handled that still lack a needed majority."""
    flagged: list[tuple[int, str, str]]
    """(item id, annotator, note) for every current flag."""

    @property
    def pending(self) -> int:
        """Items some assigned annotator has not labelled or skipped yet."""
        return sum(not i.complete for i in self.items)

    @property
    def awaiting(self) -> int:
        """Items still being labelled that lack a final label they need (not counted yet)."""
        return sum(i.undecided and not i.complete for i in self.items)

    @property
    def not_counted(self) -> int:
        """Items lacking a final label they need: left out of the rates that need it."""
        return sum(i.undecided for i in self.items)

    def not_counted_note(self) -> str | None:
        """One sentence saying how many items Table 4 does not count yet and why; None when every
        item has its final labels."""
        if not self.not_counted:
            return None
        parts = []
        if self.awaiting:
            parts.append(f"{self.awaiting:,} still being labelled")
        if self.undecided:
            parts.append(
                f"{len(self.undecided):,} with every label in but no majority (adjudicate them)"
            )
        return (
            f"Not counted yet: {self.not_counted:,} of {counted(len(self.items), 'item')} without a final "
            f"label (a majority or an adjudication): {', '.join(parts)}."
        )


def _rate(items: Iterable[ItemResult], counted: str, hit: str) -> Proportion:
    """Share of `items` with `counted` true that have `hit` true, with its Wilson interval."""
    hits = [bool(getattr(i, hit)) for i in items if getattr(i, counted)]
    return wilson(sum(hits), len(hits))


def table4_column(name: str, items: Sequence[ItemResult]) -> Table4Column:
    """Table 4 figures over the items of `items` with the final labels each rate needs."""
    wh = [i for i in items if i.qtype == WH]
    yes_no = [i for i in items if i.qtype == YES_NO]
    return Table4Column(
        name=name,
        items=len(items),
        wh=len(wh),
        yes_no=len(yes_no),
        rates={
            "qg": _rate(items, "clarity_decided", "question_clear"),
            "qg_wh": _rate(wh, "clarity_decided", "question_clear"),
            "qg_yes_no": _rate(yes_no, "clarity_decided", "question_clear"),
            "qav": _rate(wh, "response_decided", "app_agrees"),
            "qg_qav": _rate(items, "decided", "accurate"),
        },
    )


def _average(columns: Sequence[Table4Column]) -> Table4Column:
    def mean(attr: str) -> Proportion:
        rates = [c.rates[attr] for c in columns if c.rates[attr].value is not None]
        values = [r.value for r in rates if r.value is not None]
        return Proportion(
            k=sum(r.k for r in rates),
            n=sum(r.n for r in rates),
            value=sum(values) / len(values) if values else None,
            low=None,
            high=None,
        )

    return Table4Column(
        name="Average",
        items=sum(c.items for c in columns),
        wh=sum(c.wh for c in columns),
        yes_no=sum(c.yes_no for c in columns),
        rates={attr: mean(attr) for attr in TABLE4_RATES},
        averaged=True,
    )


def _item_results(
    conn: sqlite3.Connection, rnd: Round, only_item: int | None = None
) -> list[ItemResult]:
    threshold = rnd.settings.majority
    adjudications = latest_adjudications(conn, rnd.id)
    where = "i.round_id = ?" + (" AND i.id = ?" if only_item is not None else "")
    params: tuple[int, ...] = (rnd.id, only_item) if only_item is not None else (rnd.id,)
    items = conn.execute(
        f"SELECT i.* FROM annotation_item i WHERE {where} ORDER BY i.position", params
    ).fetchall()
    assigned: dict[int, list[str]] = {}
    for r in conn.execute(
        "SELECT s.item_id, a.name FROM annotation_assignment s "
        "JOIN annotator a ON a.id = s.annotator_id JOIN annotation_item i ON i.id = s.item_id "
        f"WHERE {where} ORDER BY a.position",
        params,
    ):
        assigned.setdefault(r[0], []).append(r[1])
    labels: dict[int, dict[str, LabelState]] = {}
    for r in conn.execute(
        "SELECT c.*, a.name FROM annotation_current c JOIN annotator a ON a.id = c.annotator_id "
        f"JOIN annotation_item i ON i.id = c.item_id WHERE {where} ORDER BY a.position",
        params,
    ):
        labels.setdefault(r["item_id"], {})[r["name"]] = state_from_row(r)
    return [
        judge_item(
            item_id=it["id"],
            position=it["position"],
            kg=it["kg"],
            qtype=it["qtype"],
            question=it["question"],
            answers=json.loads(it["answers"]),
            response=it["response"],
            app_verdict=it["app_verdict"],
            labels=labels.get(it["id"], {}),
            assigned=tuple(assigned.get(it["id"], ())),
            threshold=threshold,
            adjudication=adjudications.get(it["id"]),
        )
        for it in items
    ]


def judge_item(
    *,
    item_id: int,
    qtype: str,
    app_verdict: str,
    labels: dict[str, LabelState],
    assigned: Sequence[str],
    threshold: int,
    adjudication: Adjudication | None = None,
    position: int = 0,
    kg: str = "",
    question: str = "",
    answers: list[list[str]] | None = None,
    response: str | None = None,
) -> ItemResult:
    """One item's majorities and final judgements from its annotators' labels."""
    wh = qtype == WH
    clear_majority = majority(
        (s.question_clear for s in labels.values() if s.question_clear), threshold
    )
    correct_majority = (
        majority((s.response_correct for s in labels.values() if s.response_correct), threshold)
        if wh
        else None
    )
    adj = adjudication
    final_clear = (adj.question_clear if adj else None) or clear_majority
    human_correct = ((adj.response_correct if adj else None) or correct_majority) if wh else None
    return ItemResult(
        item_id=item_id,
        position=position,
        kg=kg,
        qtype=qtype,
        question=question,
        answers=answers or [],
        response=response,
        app_verdict=app_verdict,
        labels=labels,
        assigned=tuple(assigned),
        clear_majority=clear_majority,
        correct_majority=correct_majority,
        adjudication=adj,
        question_clear=final_clear == "yes",
        human_correct=human_correct,
        app_agrees=(
            human_correct == app_judgement(app_verdict)
            if wh and human_correct is not None
            else None
        ),
        threshold=threshold,
    )


def _agreement(
    question: str, items: Sequence[ItemResult], names: Sequence[str]
) -> QuestionAgreement:
    matrix: list[list[str | None]] = [
        [getattr(i.labels.get(a), question, None) for i in items] for a in names
    ]
    units = [[v for row in matrix if (v := row[k]) is not None] for k in range(len(items))]
    kappa = [
        [1.0 if a == b else cohen_kappa(matrix[a], matrix[b]) for b in range(len(names))]
        for a in range(len(names))
    ]
    shared = [
        [
            sum(x is not None and y is not None for x, y in zip(matrix[a], matrix[b], strict=True))
            for b in range(len(names))
        ]
        for a in range(len(names))
    ]
    return QuestionAgreement(
        question=question,
        items=sum(len(values) >= 2 for values in units),
        alpha=nominal_alpha(matrix),
        percent=percent_agreement(units),
        annotators=tuple(names),
        kappa=kappa,
        shared=shared,
        one_value=len({v for row in matrix for v in row if v is not None}) == 1,
    )


def item_result(conn: sqlite3.Connection, round_ref: int | str, item_id: int) -> ItemResult:
    """One item with all labels side by side, majorities and adjudication (for adjudicating)."""
    found = _item_results(conn, get_round(conn, round_ref), only_item=item_id)
    if not found:
        raise LookupError(f"no item {item_ref(item_id)} in round {round_ref}")
    return found[0]


def round_results(conn: sqlite3.Connection, round_ref: int | str) -> RoundResults:
    """Everything `kglens annotate report` shows for a round."""
    rnd = get_round(conn, round_ref)
    items = _item_results(conn, rnd)
    kgs = sorted({i.kg for i in items})
    table = [table4_column(kg, [i for i in items if i.kg == kg]) for kg in kgs]
    if len(table) > 1:
        table.append(_average(table))
    table.append(table4_column("Overall", items))
    names = rnd.annotators
    agreement = {
        "question_clear": _agreement("question_clear", items, names),
        "response_correct": _agreement(
            "response_correct", [i for i in items if i.qtype == WH], names
        ),
    }
    return RoundResults(
        round=rnd,
        items=items,
        table4=table,
        agreement=agreement,
        disagreements=[i for i in items if i.human_correct is not None and i.app_agrees is False],
        undecided=[i for i in items if i.undecided and i.complete],
        flagged=[
            (i.item_id, name, state.note)
            for i in items
            for name, state in i.labels.items()
            if state.flag
        ],
    )
