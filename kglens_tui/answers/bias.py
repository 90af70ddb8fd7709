"""Numbers people can trust: answer bias of Yes/No replies, bias-corrected scores, blind-guess
baselines for the actual mix of questions, and intervals on every rate.

The blind guesser flips a coin on Yes/No questions (says Yes where the KG has no false object to
ask about, so every such question expects Yes) and answers every Wh question of a predicate
with the predicate's most common true object (`constant_answers`): "United Nations" names a
true organisation of every member state, so a Wh chance of 0% would flatter any model.

A model that always answers "No" scores about 100% on questions whose answer is No and 0% on the
others; its accuracy and win rate then say more about the question mix than about knowledge.
Balanced accuracy (the mean of the two per-class accuracies) and Cohen's kappa between the
expected and the given answers correct for that: both sit at chance (0.5 and 0) for such a model.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from kglens_tui.answers.verify import first_word_answer
from kglens_tui.core.intervals import wilson
from kglens_tui.core.question_type import WH, YES_NO
from kglens_tui.kg.graph import KGIndex, load_kg
from kglens_tui.textfmt import pct

BIAS_YES_RATE = (0.2, 0.8)
"""A yes-rate outside this range is a strong answer bias."""
BIAS_BALANCED_ACCURACY = 0.6
"""Below this balanced accuracy, with a strong bias, results are explained by the bias."""


RATES = (
    ("win", "win", "win_rate"),
    ("zero-sense", "zero_sense", "zero_sense"),
    ("all-sense", "all_sense", "all_sense"),
)
"""The paper's three rates: each one's name, its field in a rate set (`analysis.groups.RateSet`,
a probe snapshot's rates) and its chance's field in `Baseline`."""


@dataclass(frozen=True)
class Rate:
    """A proportion with its count and a 95% Wilson score interval."""

    k: int
    n: int

    @property
    def value(self) -> float | None:
        return self.k / self.n if self.n else None

    @property
    def interval(self) -> tuple[float, float] | None:
        p = wilson(self.k, self.n)
        return None if p.low is None or p.high is None else (p.low, p.high)

    def text(self) -> str:
        """'62.5% [48.1–75.0] (n=40)' or '— (n=0)'."""
        interval = self.interval
        if not self.n or interval is None:
            return "— (n=0)"
        lo, hi = interval
        return f"{pct(self.value)} [{lo * 100:.1f}–{hi * 100:.1f}] (n={self.n})"


@dataclass(frozen=True)
class YesNoBias:
    """How a model's Yes/No answers lean, and scores that correct for it."""

    answered: int
    """Yes/No questions whose reply starts with yes or no."""
    unparsed: int
    """Yes/No questions whose reply has neither (refused, unparseable, error excluded)."""
    yes_rate: Rate
    accuracy_expected_yes: Rate
    accuracy_expected_no: Rate
    accuracy: Rate

    @property
    def balanced_accuracy(self) -> float | None:
        a, b = self.accuracy_expected_yes.value, self.accuracy_expected_no.value
        if a is None or b is None:
            return None
        return (a + b) / 2

    @property
    def kappa(self) -> float | None:
        """Cohen's kappa between expected and given answers (chance-corrected agreement)."""
        n = self.answered
        if n == 0:
            return None
        p_obs = self.accuracy.k / n
        exp_yes = self.accuracy_expected_yes.n / n
        given_yes = self.yes_rate.k / n
        p_exp = exp_yes * given_yes + (1 - exp_yes) * (1 - given_yes)
        if p_exp >= 1.0:
            return 0.0
        return (p_obs - p_exp) / (1 - p_exp)

    @property
    def biased(self) -> bool:
        """True when the yes-rate is extreme and the balanced accuracy near chance."""
        balanced = self.balanced_accuracy
        if leaning(self.yes_rate) is None or balanced is None:
            return False
        return balanced < BIAS_BALANCED_ACCURACY

    def warning(self, yes: str = "Yes", no: str = "No", kind: str = "Yes/No") -> str:
        """A one-line warning, or '' when the answers are not explained by bias. ``yes`` / ``no``
        name the two answers and ``kind`` the questions (e.g. CORRECT / INCORRECT, true/false)."""
        rate = self.yes_rate.value
        if not self.biased or rate is None:
            return ""
        side = yes if rate > 0.5 else no
        return (
            f"answer bias: the model says {side} to {max(rate, 1 - rate):.0%}"
            f" of {kind} questions; its balanced accuracy is {self.balanced_accuracy:.2f} "
            f"(0.5 = chance), so its {kind} scores are explained by the bias, not by knowledge"
        )


def leaning(yes_rate: Rate) -> str | None:
    """'yes' or 'no' when a yes-rate lies outside BIAS_YES_RATE (a strong answer bias), else None."""
    rate = yes_rate.value
    lo, hi = BIAS_YES_RATE
    if rate is None or lo <= rate <= hi:
        return None
    return "yes" if rate > hi else "no"


def yes_no_bias(pairs: Iterable[tuple[str, str]]) -> YesNoBias:
    """Bias figures from (expected 'yes'/'no', reply text) pairs of Yes/No questions."""
    counts: dict[tuple[str, str], int] = {}
    unparsed = 0
    for expected, reply in pairs:
        given = first_word_answer(reply or "")
        if given is None:
            unparsed += 1
        else:
            counts[(expected, given)] = counts.get((expected, given), 0) + 1
    return bias_from_counts(counts, unparsed)


def bias_from_counts(counts: Mapping[tuple[str, str], int], unparsed: int = 0) -> YesNoBias:
    """Bias figures from counts of (expected, given) answers, each 'yes' or 'no'."""
    yy, yn = counts.get(("yes", "yes"), 0), counts.get(("yes", "no"), 0)
    ny, nn = counts.get(("no", "yes"), 0), counts.get(("no", "no"), 0)
    n = yy + yn + ny + nn
    return YesNoBias(
        answered=n,
        unparsed=unparsed,
        yes_rate=Rate(yy + ny, n),
        accuracy_expected_yes=Rate(yy, yy + yn),
        accuracy_expected_no=Rate(nn, ny + nn),
        accuracy=Rate(yy + nn, n),
    )


def win_probability(p_success: Sequence[float]) -> float:
    """P(successes > failures) for independent asks with the given success probabilities.

    The distribution of the successes is built one ask at a time, each step one vectorised update
    in the floating-point order of the plain double loop it replaced (so the result is the same
    to the last bit), and its upper tail is summed in order."""
    dist = np.ones(1)
    for p in p_success:
        dist = _add_ask(dist, float(p))
    return _upper_tail(dist, len(p_success))


def _add_ask(dist: np.ndarray, p: float) -> np.ndarray:
    """The successes after one more ask that succeeds with probability p."""
    nxt = np.zeros(len(dist) + 1)
    nxt[1:] = dist * p
    nxt[:-1] += dist * (1 - p)
    return nxt


def _upper_tail(dist: np.ndarray, asks: int, shift: int = 0) -> float:
    """P(k + shift > asks - k - shift) from dist[k] (``shift`` asks always right), summed from the
    lowest such k up; k beyond dist has mass 0."""
    return float(sum(dist[max(asks // 2 + 1 - shift, 0) :].tolist()))


class _GuessWins:
    """win_probability of `yes_no` fair-coin guesses, `wh` never-right and `wh_right` always-right
    ones, per count triple, memoised (a run asks the same triples again and again). A never-right
    ask only appends a zero to the distribution and an always-right one shifts it, so one
    fair-coin row serves every Wh count; rows are built from the nearest kept smaller row, which
    for a growing run is the last one built."""

    ROWS_KEPT = 64
    WINS_KEPT = 1 << 16

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rows: OrderedDict[int, np.ndarray] = OrderedDict()
        self._wins: dict[tuple[int, int, int], float] = {}

    def __call__(self, yes_no: int, wh: int, wh_right: int = 0) -> float:
        with self._lock:
            key = (yes_no, wh, wh_right)
            win = self._wins.get(key)
            if win is None:
                if len(self._wins) >= self.WINS_KEPT:
                    self._wins.clear()
                asks = yes_no + wh + wh_right
                win = self._wins[key] = _upper_tail(self._row(yes_no), asks, wh_right)
            return win

    def _row(self, asks: int) -> np.ndarray:
        start = max((k for k in self._rows if k <= asks), default=0)
        dist = self._rows.get(start, np.ones(1))
        for _ in range(asks - start):
            dist = _add_ask(dist, 0.5)
        self._rows[asks] = dist
        self._rows.move_to_end(asks)
        while len(self._rows) > self.ROWS_KEPT:
            self._rows.popitem(last=False)
        return dist


guess_win_probability = _GuessWins()
"""win_probability([0.5] * yes_no + [0.0] * wh + [1.0] * wh_right), as
guess_win_probability(yes_no, wh, wh_right)."""


def constant_answers(kg: KGIndex) -> dict[int, int]:
    """The best constant Wh answer of each predicate with active edges: the object true for the
    most subjects over the KG's active edges (the lowest node index on a tie). Answering every
    Wh question of the predicate with it is the blind guesser's Wh answer."""
    active = kg.active_mask
    triples = np.unique(np.stack((kg.p[active], kg.o[active], kg.s[active]), axis=1), axis=0)
    if not len(triples):
        return {}
    pairs, subjects = np.unique(triples[:, :2], axis=0, return_counts=True)
    best: dict[int, int] = {}
    most: dict[int, int] = {}
    # pairs are sorted by predicate, then object: the first maximum is the lowest node index
    for (p, o), count in zip(pairs.tolist(), subjects.tolist(), strict=True):
        if count > most.get(p, 0):
            best[p], most[p] = o, count
    return best


def constant_right(kg: KGIndex, positions: Sequence[int] | np.ndarray) -> np.ndarray:
    """For each KG edge position: whether its predicate's constant answer (`constant_answers`) is
    a true object of its subject, i.e. answers a Wh question about the edge right."""
    answers = constant_answers(kg)
    pos = np.asarray(positions, dtype=np.int64)
    if not answers or not len(pos):
        return np.zeros(len(pos), dtype=bool)
    best = np.full(int(kg.p.max()) + 1, -1, dtype=np.int64)
    best[list(answers)] = list(answers.values())
    nodes, preds = len(kg.labels), len(best)

    def key(
        s: npt.NDArray[np.int64], p: npt.NDArray[np.int64], o: npt.NDArray[np.int64]
    ) -> npt.NDArray[np.int64]:
        return (s.astype(np.int64) * preds + p) * nodes + o

    s, p = kg.s[pos].astype(np.int64), kg.p[pos].astype(np.int64)
    asked = best[p]  # as `true_objects`: every edge the KG states for (s, p)
    stated = np.isin(key(s, p, np.maximum(asked, 0)), key(kg.s, kg.p, kg.o.astype(np.int64)))
    return (asked >= 0) & stated


BLIND_GUESS = (
    "Yes/No a coin, or Yes where the KG has no false object to ask about; Wh the predicate's "
    "most common true object"
)
"""The blind guesser, in the words every caption gives (`guess_error`)."""


def guess_error(wh: np.ndarray, right: np.ndarray, yes_only: np.ndarray) -> np.ndarray:
    """Per question: how likely blind guessing fails it. Yes/No: a coin, 0.5, but a constant
    Yes, never wrong, where its edge has no false object to ask about (``yes_only``:
    `KGIndex.has_false_object` false); Wh (``wh``): the predicate's constant answer, wrong
    unless ``right`` (`constant_right` at its edge)."""
    return np.where(wh, np.where(right, 0.0, 1.0), np.where(yes_only, 0.0, 0.5))


@dataclass(frozen=True)
class Baseline:
    """What blind guessing would score on the questions actually asked, each ask independent."""

    per_question: float | None
    """Share of questions the guesser gets right (Yes/No 1/2, or 1 where the edge has no false
    object to ask about; Wh 1 where the predicate's constant answer is true of the subject,
    else 0)."""
    win_rate: float | None
    """Expected win rate (m > n) of the guesser over the examined edges."""
    zero_sense: float | None
    all_sense: float | None


def random_baseline(
    asks_per_edge: Iterable[Sequence[str]],
    wh_right: Iterable[bool] | None = None,
    yes_only: Iterable[bool] | None = None,
) -> Baseline:
    """The blind-guess baseline for edges asked the given question types ('yes_no' / 'wh').

    A Yes/No guess is right half the time, and always on the edges ``yes_only`` marks (no false
    object to ask about: a constant Yes); a Wh guess (the predicate's constant answer) is right
    on the edges ``wh_right`` marks (both parallel to ``asks_per_edge``; None: on none). With
    one ask per edge and no constant right this gives the paper's 50% (EASY) and 25% (HARD) win
    rates.
    """
    edges = [list(types) for types in asks_per_edge]
    right = [False] * len(edges) if wh_right is None else list(wh_right)
    only = [False] * len(edges) if yes_only is None else list(yes_only)
    return baseline_from_counts(
        np.array([t.count(YES_NO) for t in edges], dtype=np.int64),
        np.array([t.count(WH) for t in edges], dtype=np.int64),
        np.array(right, dtype=bool),
        np.array(only, dtype=bool),
    )


@dataclass(frozen=True)
class RunTrust:
    """A run's bias figures and baselines, for reports and screens."""

    bias: YesNoBias
    baseline: Baseline
    bias_by_predicate: dict[str, YesNoBias]
    bias_by_group: dict[str, YesNoBias]
    """By the subject's entity groups with the given prefix (e.g. region:Europe)."""


RUN_YES_NO = """
    SELECT expected, reply FROM observation
    WHERE run_id = ? AND qtype = 'yes_no' AND category != 'error' ORDER BY id
"""
"""A run's Yes/No replies that count for its answer bias: every one but transport errors."""


def run_yes_no_bias(conn: sqlite3.Connection, run_id: int) -> YesNoBias:
    """A run's answer bias over its logged Yes/No replies (`RUN_YES_NO`): what `kglens report`,
    the review, the analysis and compare screens and the HTML report give for the run."""
    return yes_no_bias(conn.execute(RUN_YES_NO, (run_id,)))


def run_bias_warning(conn: sqlite3.Connection, run_id: int) -> str:
    """The run's one-line answer-bias warning (`YesNoBias.warning`), '' when the bias rule does
    not fire."""
    return run_yes_no_bias(conn, run_id).warning()


def run_trust(
    conn: sqlite3.Connection,
    run_id: int,
    group_prefix: str = "region:",
    kg: KGIndex | None = None,
) -> RunTrust:
    """Bias (overall, per predicate, per subject group) and the blind-guess baseline of one run;
    ``kg``: the run's KG (loaded when the run asked Wh questions and none is given)."""
    rows = conn.execute(
        """
        SELECT o.edge_id, o.qtype, o.expected, o.reply, o.category, p.label
        FROM observation o JOIN edge e ON e.id = o.edge_id
        JOIN predicate p ON p.id = e.predicate_id
        WHERE o.run_id = ? ORDER BY o.id
        """,
        (run_id,),
    ).fetchall()
    asks: dict[int, list[str]] = {}
    by_pred: dict[str, list[tuple[str, str]]] = {}
    for edge_id, qtype, expected, reply, category, pred in rows:
        if category == "error":
            continue
        asks.setdefault(edge_id, []).append(qtype)
        if qtype == YES_NO:
            by_pred.setdefault(pred, []).append((expected, reply))
    by_group: dict[str, list[tuple[str, str]]] = {}
    for grp, expected, reply in conn.execute(
        """
        SELECT g.grp, o.expected, o.reply
        FROM observation o JOIN edge e ON e.id = o.edge_id
        JOIN entity_group g ON g.entity_id = e.subject_id
        WHERE o.run_id = ? AND o.qtype = 'yes_no' AND o.category != 'error' AND g.grp LIKE ?
        """,
        (run_id, group_prefix + "%"),
    ):
        by_group.setdefault(grp[len(group_prefix) :], []).append((expected, reply))
    right = yes_only = None
    if asks:
        if kg is None:
            (name,) = conn.execute(
                "SELECT k.name FROM run r JOIN kg k ON k.id = r.kg_id WHERE r.id = ?", (run_id,)
            ).fetchone()
            kg = load_kg(conn, name)
        positions = [kg.edge_position(e) for e in asks]
        if any(WH in types for types in asks.values()):
            right = constant_right(kg, positions).tolist()
        if any(YES_NO in types for types in asks.values()):
            yes_only = (~kg.has_false_object(positions)).tolist()
    return RunTrust(
        bias=run_yes_no_bias(conn, run_id),
        baseline=random_baseline(asks.values(), right, yes_only),
        bias_by_predicate={p: yes_no_bias(v) for p, v in sorted(by_pred.items())},
        bias_by_group={g: yes_no_bias(v) for g, v in sorted(by_group.items())},
    )


def baseline_from_counts(
    yes_no_asks: np.ndarray,
    wh_asks: np.ndarray,
    wh_right: np.ndarray | None = None,
    yes_only: np.ndarray | None = None,
) -> Baseline:
    """The blind-guess baseline for edges given how many Yes/No and Wh asks each had, whether
    the constant Wh answer is right for each (`constant_right`; None: for none) and whether its
    Yes/No questions all expect Yes (`KGIndex.has_false_object` false; None: for none), where a
    constant Yes answers them right. Vectorised: edges with the same counts share one
    computation."""
    seen = (yes_no_asks + wh_asks) > 0
    if not seen.any():
        return Baseline(None, None, None, None)
    right_mask = np.zeros(len(wh_asks), dtype=bool) if wh_right is None else wh_right
    yes_mask = np.zeros(len(wh_asks), dtype=bool) if yes_only is None else yes_only
    yn_all = yes_no_asks[seen].astype(np.int64)
    wh_all = wh_asks[seen].astype(np.int64)
    # asks a guess surely answers right: constant Wh answers that are true, Yes/No questions
    # that can only expect Yes; the other Yes/No asks are a coin's
    yn_seen = np.where(yes_mask[seen], 0, yn_all)
    wh_hit = np.where(right_mask[seen], wh_all, 0)
    hit = wh_hit + (yn_all - yn_seen)
    wh_seen = wh_all - wh_hit
    width = int(max(wh_all.max(), hit.max())) + 1
    keys, freq = np.unique((yn_seen * width + wh_seen) * width + hit, return_counts=True)
    total = int(freq.sum())
    rest, hits = np.divmod(keys, width)
    yn, wh = np.divmod(rest, width)
    wins = [
        guess_win_probability(y, w, r)
        for y, w, r in zip(yn.tolist(), wh.tolist(), hits.tolist(), strict=True)
    ]
    # summed triple by triple in order, as a loop over the triples would
    win = sum((freq * np.array(wins)).tolist())
    zero = sum((freq * np.where(hits == 0, 0.5**yn, 0.0)).tolist())
    all_sense = sum((freq * np.where(wh == 0, 0.5**yn, 0.0)).tolist())
    asks = int(yes_no_asks.sum() + wh_asks.sum())
    right = 0.5 * int(yn_seen.sum()) + int(hit.sum())
    return Baseline(right / asks, win / total, zero / total, all_sense / total)
