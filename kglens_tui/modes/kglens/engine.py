"""The probing loop (paper section 2), headless: sample, ask, verify, update, commit, repeat.

The engine never touches a UI. It keeps a `ProbeStats` object current (the target's counters
are the shared engine's, `RunEngine.counters`) and hands out immutable `ProbeSnapshot`s, each
headed by a `RunProgress`; a UI polls `snapshot()` a few times a second, a CLI passes
`on_progress`. The cost of one iteration, snapshots included, stays flat however long the run
gets: the per-iteration callback gets progress figures only, and a snapshot carries the last
SNAPSHOT_HISTORY rates.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from kglens_tui.answers.bias import Baseline, baseline_from_counts, constant_right
from kglens_tui.answers.judge import judge_wh, unjudged_label
from kglens_tui.answers.matcher import check_edge_wh, matcher_label
from kglens_tui.answers.mentions import TypeNames
from kglens_tui.answers.verify import (
    check_yes_no,
    first_word_answer,
)
from kglens_tui.core.json_text import to_json
from kglens_tui.core.question_type import WH, YES_NO
from kglens_tui.core.quick_frozen import quick_frozen
from kglens_tui.core.status import RunStatus
from kglens_tui.core.verdict import FAILURES, YES_NO_MATCHER, Verdict
from kglens_tui.kg.graph import KGIndex, Neighbourhood
from kglens_tui.llm.base import ChatClient, ChatRequest, LLMError
from kglens_tui.llm.failures import STOP_REASON
from kglens_tui.llm.pacing import complete_counted
from kglens_tui.llm.usage import Counters, HelperRole, Usage, UsageLedger, counted
from kglens_tui.modes.kglens.chance import chance_rates, guess_failure
from kglens_tui.modes.kglens.config import Difficulty, PropagationMode, RunConfig, Scheduling
from kglens_tui.modes.kglens.design import (
    RollingFloor,
    designed_sample,
    floor_visits,
    is_census,
    whole_iterations,
)
from kglens_tui.modes.kglens.estimates import DesignRate, census_rate
from kglens_tui.modes.kglens.learned import (
    ErrorModel,
    LearnedPropagation,
    learned_summary,
    rank_blind_spots,
)
from kglens_tui.modes.kglens.pkg import (
    RateCounts,
    Rates,
    apply_outcomes,
    converged,
    stable_iterations,
)
from kglens_tui.modes.kglens.plan import Plan, PlannedAsk
from kglens_tui.modes.kglens.questions import Question, QuestionFactory, rephrase_with_llm
from kglens_tui.modes.kglens.runstore import (
    FAILED,
    KGLensRun,
    ObservationRow,
    load_kglens_run,
    observed_counts,
    rebuild_state,
    stored_design_rate,
)
from kglens_tui.modes.kglens.runstore import (
    commit_iteration as commit_iteration,  # re-exported: bench.engine_bench times it here
)
from kglens_tui.modes.kglens.samplers import Sampler
from kglens_tui.modes.kglens.schedules import Batches, Continuous, in_order
from kglens_tui.modes.kglens.sense_rates import (
    ALL_SENSE,
    SENSES,
    ZERO_SENSE,
    census_pair_rate,
    settled,
)
from kglens_tui.runs.lifecycle import BUDGET_REASON, STOPPED_BY_USER, RunEngine
from kglens_tui.runs.manifest import build_manifest
from kglens_tui.runs.progress import RunProgress, WithProgress
from kglens_tui.runs.prompts import Prompt, load_prompt
from kglens_tui.runs.record import KGLENS, create_run
from kglens_tui.store.connection import retry_busy, transaction
from kglens_tui.store.helper_usage import load_usage
from kglens_tui.store.target_usage import add_target_usage, load_target_usage

MAX_CONSECUTIVE_ERRORS = 3
"""An edge whose request failed is retried first in the next iteration, at most this often."""
RECENT_REPLIES = 200
PROMPTS = ("answer_yes_no", "answer_generative", "generate_yes_no", "generate_wh", "verify_wh")
"""The prompt files a KGLens run's questions and verdicts use (their hashes go in the manifest)."""
SNAPSHOT_HISTORY = 120
"""Rates of this many latest iterations go into a snapshot (sparklines, the stability count)."""


@quick_frozen
@dataclass(frozen=True)
class ReplyView:
    """One question and reply as the live screen shows it."""

    iteration: int
    question: str
    reply: str
    category: str
    qtype: str
    expected: str


@dataclass(frozen=True)
class BlindSpot:
    """An examined edge with a high posterior mean error rate under the model learned from the
    run's answers (see `learned.rank_blind_spots`)."""

    edge_id: int
    subject: str
    predicate: str
    object: str
    mean_error: float
    m: int
    n: int
    from_neighbours: float = 0.0
    """Share of the estimate that comes from the edge's predicate and neighbours rather than
    its own m + n answers."""


@dataclass(frozen=True)
class LearnedView:
    """What the run's answers teach, with names: `learned.Learned` for a screen."""

    answers: int
    strength: float
    neighbour_weight: float
    predicate_share: float
    mean_error: float
    weakest_predicates: tuple[tuple[str, float, int], ...]
    """(predicate, expected error rate, answers)."""
    weakest_subjects: tuple[tuple[str, float, int], ...]


@dataclass(frozen=True)
class ProbeSnapshot(WithProgress):
    """An immutable copy of the run's progress, safe to hand to another thread."""

    run_id: int
    progress: RunProgress[ReplyView]
    """Status, the target's counters (committed iterations' requests, and those dropped with
    theirs) and the latest replies."""
    iteration: int
    iterations_total: int
    elapsed_s: float
    counts: dict[str, int]
    history: tuple[Rates, ...]
    converged: bool
    stop_reason: str
    target_label: str
    simulated: bool
    error: str
    uncommitted: Counters = Counters()
    """Replies in (answers and failures) whose iteration is not committed yet: not in
    `progress.counters`, which count committed iterations (and requests dropped with theirs).
    Empty once the run has ended."""
    replies_total: int = 0
    yes_no: dict[tuple[str, str], int] = field(default_factory=dict)
    baseline: Baseline | None = None
    """What random guessing would score on the questions asked so far."""
    blind_spots: tuple[BlindSpot, ...] = ()
    insights_iteration: int | None = None
    """The iteration that baseline and blind spots describe (None: never computed); older than
    `iteration` in a snapshot taken without insights."""
    stable_iterations: int = 0
    """Of the last `convergence_window` iterations, how many the rates stayed within the
    run's tolerance (the engine's own convergence rule; converged at the full window)."""
    convergence_window: int = 5
    stop_on_convergence: bool = True
    session_requests: int = 0
    """Requests sent since this engine started (`progress.counters` counts every stored one)."""
    session_elapsed_s: float = 0.0
    """Seconds since this engine started (`elapsed_s` adds the stored iterations' time)."""
    loading: bool = False
    """The target is loading its model (a local model); no request is sent yet."""
    learned: LearnedView | None = None
    """What the answers so far teach (neighbour weight, weakest predicates and subjects)."""
    helpers: dict[str, Counters] = field(default_factory=dict)
    """Calls of the generator and the judge by role, apart from the target's
    (`progress.counters`)."""
    kg_wide: DesignRate | None = None
    """The KG-wide error rate (`probe.estimates`) over the committed iterations; None before
    an answer of the design (or for a run drawn without it)."""
    kg_wide_chance: float | None = None
    """Blind guessing's KG-wide error rate, exact over the run's edges (`probe.chance`)."""
    kg_wide_senses: dict[str, DesignRate | None] = field(default_factory=dict)
    """The KG-wide two-ask zero-sense and all-sense rates by name (computed with the insights:
    blind spots and baseline), empty before."""
    kg_wide_sense_chance: dict[str, float | None] = field(default_factory=dict)
    """Blind guessing's two-ask rates on the same estimand, by name."""
    spend: str = ""
    """What the run has cost so far (`runs.spend.spend_text`; "" for free models)."""

    @property
    def rates(self) -> Rates | None:
        return self.history[-1] if self.history else None

    @property
    def requests_per_s(self) -> float:
        """Requests per second over this session's requests and time (a resumed run's stored
        requests were sent in another session)."""
        if self.session_elapsed_s <= 0:
            return 0.0
        return self.session_requests / self.session_elapsed_s


@dataclass
class ProbeStats:
    """Mutable progress, updated by the engine only."""

    run_id: int
    iterations_total: int
    target_label: str
    simulated: bool
    iteration: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    history: list[Rates] = field(default_factory=list)
    recent: deque[ReplyView] = field(default_factory=lambda: deque(maxlen=RECENT_REPLIES))
    converged: bool = False
    started: float = field(default_factory=time.monotonic)
    elapsed_before: float = 0.0
    uncommitted: Counters = Counters()
    """Replies in whose iteration is not committed yet (both schedules; see `ProbeSnapshot`)."""
    replies_total: int = 0
    blind_spots: tuple[BlindSpot, ...] = ()
    learned: LearnedView | None = None
    yes_no: Counter[tuple[str, str]] = field(default_factory=Counter)
    """(expected, given) counts of Yes/No replies that start with yes or no."""
    baseline: Baseline | None = None
    insights_iteration: int | None = None
    requests_before: int = 0
    """Requests stored before this engine started."""
    convergence_window: int = 5
    convergence_tolerance: float = 0.005
    stop_on_convergence: bool = True
    helpers: UsageLedger = field(default_factory=UsageLedger)
    """Calls of the generator and the judge (stored and since the last commit)."""
    kg_wide: DesignRate | None = None
    kg_wide_chance: float | None = None
    kg_wide_senses: dict[str, DesignRate | None] = field(default_factory=dict)
    """The two-ask zero-sense and all-sense rates (`probe.sense_rates`), as of the last
    insights."""
    kg_wide_sense_chance: dict[str, float | None] = field(default_factory=dict)

    def snapshot(
        self, progress: RunProgress[ReplyView], stop_reason: str, error: str, spend: str = ""
    ) -> ProbeSnapshot:
        """The engine's header (status, counters, feed), the progress and why it stopped (and
        spend), as a snapshot."""
        session_elapsed = time.monotonic() - self.started
        return ProbeSnapshot(
            run_id=self.run_id,
            progress=progress,
            iteration=self.iteration,
            iterations_total=self.iterations_total,
            elapsed_s=self.elapsed_before + session_elapsed,
            counts=dict(self.counts),
            history=tuple(self.history[-SNAPSHOT_HISTORY:]),
            converged=self.converged,
            stop_reason=stop_reason,
            target_label=self.target_label,
            simulated=self.simulated,
            error=error,
            uncommitted=self.uncommitted,
            replies_total=self.replies_total,
            yes_no=dict(self.yes_no),
            baseline=self.baseline,
            blind_spots=self.blind_spots,
            insights_iteration=self.insights_iteration,
            stable_iterations=stable_iterations(
                self.history, self.convergence_window, self.convergence_tolerance
            ),
            convergence_window=self.convergence_window,
            stop_on_convergence=self.stop_on_convergence,
            session_requests=progress.counters.requests - self.requests_before,
            session_elapsed_s=session_elapsed,
            loading=progress.status == RunStatus.LOADING_MODEL,
            learned=self.learned,
            helpers=self.helpers.totals(),
            kg_wide=self.kg_wide,
            kg_wide_chance=self.kg_wide_chance,
            kg_wide_senses=dict(self.kg_wide_senses),
            kg_wide_sense_chance=dict(self.kg_wide_sense_chance),
            spend=spend,
        )


@dataclass(slots=True)  # one per question: no instance dict to make
class Outcome:
    """One asked question: its reply and verdict, who gave the verdict, and its token counts."""

    question: Question
    reply: str
    verdict: Verdict
    verifier: str
    usage: Usage = Usage()
    kind: str = ""
    """The failure's kind (an LLMError kind, or "verifier") when the verdict is an error."""
    hedged: bool = False
    matcher: str = ""
    """The alias matcher's verdict when the LLM judge gave the final one."""

    @property
    def failed(self) -> bool:
        """The request or its verification failed: no answer of the model, never a wrong one."""
        return self.verdict is Verdict.ERROR


_SUCCEEDED, _FAILED, _ERRORED = 0, 1, 2
"""What a reply did to its edge, as `_Read.states` holds it: answered right, answered wrong (or
refused, or unparseable: `FAILURES`), or no answer (a failed request)."""


class _Read:
    """What a commit reads from an iteration's replies (`ProbeEngine._read_outcomes`)."""

    __slots__ = (
        "asked",
        "categories",
        "floor_answers",
        "latencies",
        "rows",
        "said",
        "states",
        "tally",
        "wh_asked",
        "yes_no_asked",
    )

    def __init__(self) -> None:
        self.asked: list[int] = []
        """Each reply's edge position, in reply order."""
        self.states: list[int] = []
        """Each reply's `_SUCCEEDED`, `_FAILED` or `_ERRORED`."""
        self.categories: list[str] = []
        self.rows: list[ObservationRow] = []
        self.latencies: list[float] = []
        self.tally = Counters()
        self.wh_asked: list[int] = []
        self.yes_no_asked: list[int] = []
        self.said: list[tuple[str, str]] = []
        """(expected, given) of each Yes/No answer that opens with yes or no."""
        self.floor_answers: list[tuple[int, bool]] = []
        """The floor's answers (`probe.design`: what the KG-wide rates rest on): each one's
        edge position and whether it failed."""


def _p95(values: list[float]) -> float | None:
    """The 95th percentile (nearest rank) of a few values."""
    if not values:
        return None
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))])


SENSES_EDGES_PER_ITERATION = 100_000
"""Probe progress computes the two-ask rates (O(edges)) after every iteration of a run of up to
this many edges, else every edges / this iterations: about 3 ms at this size, which a 1,000,000
edge run would otherwise spend after each commit (35 ms of a 75-150 ms iteration)."""


class ProbeEngine(RunEngine[RunConfig, ProbeSnapshot]):
    """Runs one probing run to its end (iterations, convergence, budget or stop): each
    iteration plans a batch from the posterior (`sample`), asks and scores it (`ask`), and
    commits it with the posterior's update (`finish_iteration`)."""

    _senses_at: int | None
    """The iteration the two-ask rates were last computed at (None: not yet)."""

    mode = KGLENS
    stats: ProbeStats

    def __init__(
        self,
        conn: sqlite3.Connection,
        run: KGLensRun,
        kg: KGIndex,
        target: ChatClient,
        *,
        generator: ChatClient | None = None,
        judge: ChatClient | None = None,
        on_progress: Callable[[ProbeSnapshot], None] | None = None,
    ) -> None:
        super().__init__(conn, run, kg, target)
        self.generator = counted(generator, HelperRole.GENERATOR, self.helpers)
        self.judge = counted(judge, HelperRole.JUDGE, self.helpers)
        self.on_progress = on_progress
        positions = np.array([kg.edge_position(int(e)) for e in run.edge_ids], dtype=np.int64)
        self.positions = positions
        self._preds = kg.p[positions]
        used, self._pred_codes = np.unique(self._preds, return_inverse=True)
        self._pred_keys = [kg.pred_keys[int(p)] for p in used]
        """The run's predicates (keys) and each run edge's index among them."""
        self._entity_db_ids: list[int] = kg.entity_db_ids.tolist()
        """Each node's entity id (a stored row's candidate), read without numpy's scalars."""
        self._floor_slots: dict[tuple[int, int], int] = {}
        """(iteration, slot) of each floor visit not committed yet -> its pass (`probe.design`)."""
        learned = (
            self.config.propagation and self.config.propagation_mode == PropagationMode.LEARNED
        )
        self.neighbourhood = (
            Neighbourhood(kg.s[positions], kg.o[positions], len(kg.entity_keys))
            if self.config.propagation and not learned
            else None
        )
        self.learned = (
            LearnedPropagation(kg.p[positions], kg.s[positions], kg.o[positions])
            if learned
            else None
        )
        """Learned propagation, when the run uses it (refits the PKG state on schedule)."""
        self._panel_model: ErrorModel | None = None
        self._plan: Plan | None = None
        """The plan's run (`config.plan_of`), read when first asked."""
        self._planned: dict[int, list[PlannedAsk]] = {}
        """Per iteration sampled from the plan: its questions, until they are made."""
        self.factory = QuestionFactory(
            kg,
            positions,
            self.config.difficulty,
            self.config.seed,
            self.config.wh_max_objects,
            wrong_labels=bool(target.simulated),
        )
        self.names = TypeNames(kg)
        """Every entity name by type: what a Wh answer is told apart from (built per type, once)."""
        if self.config.difficulty in (Difficulty.HARD, Difficulty.WH):
            self.names.build(self._wh_object_types())
        self.scale = (
            1.0 / np.maximum(self.neighbourhood.neighbour_counts(), 1.0)
            if self.neighbourhood is not None
            and self.config.propagation_mode == PropagationMode.DEGREE
            else None
        )
        self._sent = [0]
        """Requests sent to the target in this session (`complete_counted` adds to it)."""
        self._constant_right: np.ndarray | None = None
        """Per run edge: whether its predicate's constant Wh answer is true (`constant_right`),
        worked out at the first snapshot after a Wh ask."""
        self._yes_only: np.ndarray | None = None
        """Per run edge: whether it has no false object to ask about, so that its Yes/No
        questions all expect Yes (`KGIndex.has_false_object`), worked out at the first snapshot
        after a Yes/No ask."""
        self._chance = chance_rates(guess_failure(self.kg, self.positions, self.config))
        """Blind guessing's KG-wide rates on the run's edges, exact (`probe.chance`)."""
        self._load_progress()
        # (question type, examples reversed) -> prompt, built once instead of per question
        self._prompts: dict[tuple[str, bool], Prompt] = {}
        for qtype, name in ((YES_NO, "answer_yes_no"), (WH, "answer_generative")):
            prompt = load_prompt(name)
            self._prompts[(qtype, False)] = prompt
            self._prompts[(qtype, True)] = prompt.examples_reversed()

    def _wh_object_types(self) -> set[str]:
        """Types of the objects a Wh question of this run can ask for."""
        kg = self.kg
        has_wh = np.array([bool(t.get("wh")) for t in kg.pred_templates], dtype=bool)
        asked = self.positions[has_wh[self._preds]] if len(has_wh) else self.positions[:0]
        return {kg.types[int(o)] for o in np.unique(kg.o[asked]).tolist()}

    def baseline(self) -> Baseline:
        """What blind guessing scores on the questions asked so far, each ask independent
        (`answers.bias.baseline_from_counts`); without the blind spots a snapshot computes."""
        if self._constant_right is None and self._wh_asks.any():
            self._constant_right = constant_right(self.kg, self.positions)
        if self._yes_only is None and self._yes_no_asks.any():
            self._yes_only = ~self.kg.has_false_object(self.positions)
        return baseline_from_counts(
            self._yes_no_asks, self._wh_asks, self._constant_right, self._yes_only
        )

    def snapshot(self, insights: bool = True) -> ProbeSnapshot:
        """The run's progress now. Blind spots and the random baseline are computed here, at
        most once per committed iteration, so a run nobody watches skips them; with
        insights=False they stay as last computed (see `insights_iteration`)."""
        s = self.stats
        if insights and s.insights_iteration != s.iteration:
            s.baseline = self.baseline()
            s.blind_spots, s.learned = self._blind_spots()
            if self._senses_at != s.iteration:
                s.kg_wide_senses, s.kg_wide_sense_chance = self._senses()
                self._senses_at = s.iteration
            s.insights_iteration = s.iteration
        return s.snapshot(
            self._progress(s.recent), self.stop_reason, self.error, self.spend_shown()
        )

    def progress_snapshot(self) -> ProbeSnapshot:
        """Without the blind spots, but with what chance scores on the questions asked so far
        (the command line shows each rate beside it) and the two-ask rates, settled or not."""
        s = self.stats
        every = max(1, len(self.positions) // SENSES_EDGES_PER_ITERATION)
        if s.insights_iteration != s.iteration and (
            self._senses_at is None or s.iteration - self._senses_at >= every
        ):
            s.kg_wide_senses, s.kg_wide_sense_chance = self._senses()
            self._senses_at = s.iteration
        return replace(self.snapshot(insights=False), baseline=self.baseline())

    def _load_progress(self) -> None:
        """The PKG state, counters and feed of `self.run` as stored."""
        self.state, history = rebuild_state(
            self.conn,
            self.run,
            self.neighbourhood,
            self.config.propagation_weight,
            self.scale,
            self.learned.after_iteration if self.learned is not None else None,
        )
        self.stats = ProbeStats(
            run_id=self.run.id,
            iterations_total=self.config.iterations,
            target_label=self.target.label,
            simulated=bool(self.target.simulated),
            iteration=self.run.iterations_done,
            history=history,
            convergence_window=self.config.convergence_window,
            convergence_tolerance=self.config.convergence_tolerance,
            stop_on_convergence=self.config.stop_on_convergence,
            helpers=self.helpers,
        )
        self._rate_counts = RateCounts.of(self.state.m, self.state.n)
        """What the rates after each iteration are computed from (`finish_iteration`)."""
        self._senses_at = None
        self._census = is_census(self.config.sampler, self.config.batch_size, len(self.positions))
        """Every iteration asks every edge: the KG-wide rates are a census's."""
        self._whole = self._load_whole() if self._whole_counted() else None
        """A batch as large as the run (not brute force): the right and wrong answers per run
        edge of the iterations that asked every edge (`kgwide.census_answers`: one a budget cut
        short asked the sampler's picks and a floor); None before such an iteration."""
        self._yes_no_asks = np.zeros(len(self.positions), dtype=np.int32)
        self._wh_asks = np.zeros(len(self.positions), dtype=np.int32)
        self._load_totals()
        self._load_recent()
        self._load_floor()
        self._update_kg_wide()

    def _reload(self) -> None:
        """Inside the claim: load the run again if another process committed iterations since
        this engine read it (continuing from a stale state would write them twice)."""
        stored = load_kglens_run(self.conn, self.run.id)
        if stored.iterations_done != self.run.iterations_done:
            self.run = stored
            self._load_progress()

    def _load_totals(self) -> None:
        """The run's stored counts: every request it sent (target_usage: those of iterations
        dropped whole too), the time its iterations took, its verdicts and yes/no answers."""
        s = self.stats
        self.counters = Counters(*(load_target_usage(self.conn, self.run.id) or ()))
        s.elapsed_before = float(
            self.conn.execute(
                "SELECT COALESCE(SUM(seconds), 0) FROM iteration WHERE run_id = ?", (self.run.id,)
            ).fetchone()[0]
        )
        s.requests_before = self.counters.requests
        self.helpers.stored = load_usage(self.conn, self.run.id)
        for cat, count in self.conn.execute(
            "SELECT category, COUNT(*) FROM observation WHERE run_id = ? GROUP BY category",
            (self.run.id,),
        ):
            s.counts[cat] = count
        for pos, qtype, count in self.conn.execute(
            "SELECT pos, qtype, COUNT(*) FROM observation WHERE run_id = ? AND category != 'error' "
            "GROUP BY pos, qtype",
            (self.run.id,),
        ):
            (self._wh_asks if qtype == WH else self._yes_no_asks)[pos] += count
        for expected, reply in self.conn.execute(
            "SELECT expected, reply FROM observation WHERE run_id = ? AND qtype = 'yes_no' "
            "AND category != 'error'",
            (self.run.id,),
        ):
            given = first_word_answer(reply)
            if given is not None:
                s.yes_no[(expected, given)] += 1

    def _senses(self) -> tuple[dict[str, DesignRate | None], dict[str, float | None]]:
        """The two-ask rates now (`sense_rates.settled`: None until precise enough to show) and
        blind guessing's exact ones beside them: the census of the answers the KG-wide rates rest
        on (`_census_counts`)."""
        counts = self._census_counts()
        rates: dict[str, DesignRate | None] = dict.fromkeys(SENSES)
        if counts is not None:
            m, n = counts
            rates = {
                ZERO_SENSE: settled(census_pair_rate(n, m + n)),
                ALL_SENSE: settled(census_pair_rate(m, m + n)),
            }
        chance = self._chance
        exact = {
            ZERO_SENSE: None if chance is None else chance.zero_sense,
            ALL_SENSE: None if chance is None else chance.all_sense,
        }
        return rates, {k: (exact[k] if v is not None else None) for k, v in rates.items()}

    def _load_floor(self) -> None:
        """The rolling census's place (`design.RollingFloor`) after the stored floor visits, and
        the right and wrong floor answers per run edge (`_floor_counts`). A brute-force run and
        a run on another's plan draw no floor of their own."""
        size, run_id = len(self.positions), self.run.id
        visits = dict(
            self.conn.execute(
                "SELECT floor_pass, COUNT(*) FROM observation WHERE run_id = ? "
                "AND floor_pass IS NOT NULL GROUP BY floor_pass",
                (run_id,),
            ).fetchall()
        )
        own = self.config.sampler != Sampler.BRUTE_FORCE and self.config.plan_of is None
        self.floor = (
            RollingFloor.resumed(size, self.config.seed, visits, self.config.batch_size)
            if own
            else None
        )
        right, wrong = observed_counts(self.conn, run_id, size, floor_only=True)
        self._floor_counts = (right, wrong)
        """The floor's right and wrong answers per run edge: a census in random order."""
        self._floor_answered = bool(right.any() or wrong.any())
        self._stored_design = (
            None if self._floor_answered else stored_design_rate(self.conn, self.run)
        )
        """A run drawn before the rolling floor: its KG-wide error rate from its design draws
        (it is never resumed: `runstore.refuse_before_rolling_floor`)."""

    def _whole_counted(self) -> bool:
        """Whether the census rests on the iterations that asked every edge (`_whole`)."""
        return self._census and self.config.sampler != Sampler.BRUTE_FORCE

    def _load_whole(self) -> tuple[np.ndarray, np.ndarray] | None:
        """`_whole` from the stored answers."""
        rows = self.conn.execute(
            "SELECT iteration, pos, category FROM observation WHERE run_id = ?", (self.run.id,)
        ).fetchall()
        if not rows:
            return None
        its = np.array([r[0] for r in rows], dtype=np.int64)
        pos = np.array([r[1] for r in rows], dtype=np.int64)
        category = np.array([r[2] for r in rows], dtype=object)
        whole = whole_iterations(its, pos, len(self.positions))
        if not whole.any():
            return None
        failed = np.isin(category, FAILED)
        right = whole & ~failed & (category != "error")
        size = len(self.positions)
        return (
            np.bincount(pos[right], minlength=size).astype(np.int64),
            np.bincount(pos[whole & failed], minlength=size).astype(np.int64),
        )

    def _census_counts(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The (right, wrong) answers per run edge the KG-wide rates rest on: all of brute
        force's, the whole iterations' of a batch as large as the run, else the floor's
        (`probe.design`); None before the first of them (or when a run as large as its batch
        has only an iteration a budget cut short, and no floor answer)."""
        if self._census and self.config.sampler == Sampler.BRUTE_FORCE:
            return self.state.m, self.state.n
        if self._census and self._whole is not None:
            return self._whole
        return self._floor_counts if self._floor_answered else None

    def _update_kg_wide(self) -> None:
        """The KG-wide error rate after the committed iterations, and chance's (exact)."""
        s = self.stats
        counts = self._census_counts()
        s.kg_wide = self._stored_design if counts is None else census_rate(*counts)
        s.kg_wide_chance = None if s.kg_wide is None or self._chance is None else self._chance.error

    def _load_recent(self) -> None:
        """The latest stored replies, so a resumed or reopened run shows its feed."""
        rows = self.conn.execute(
            "SELECT iteration, question, CASE WHEN reply = '' THEN error ELSE reply END, category, "
            "qtype, expected FROM observation WHERE run_id = ? ORDER BY id DESC LIMIT ?",
            (self.run.id, RECENT_REPLIES),
        ).fetchall()
        for row in reversed(rows):
            self.stats.recent.append(ReplyView(*row))

    def retry_edges(self) -> np.ndarray:
        """Edges whose last request failed (transport/API error), fewer than
        MAX_CONSECUTIVE_ERRORS times in a row: they go first into the next batch. Derived from
        the PKG state, so a resumed run retries exactly what the original would have."""
        err = self.state.err
        if self.config.plan_of is not None:  # asks what the plan asked, nothing else
            return np.empty(0, dtype=np.int64)
        failing = np.flatnonzero(err)  # one pass over every edge (err counts up from 0)
        return failing[err[failing] < MAX_CONSECUTIVE_ERRORS]

    def budget_left(self) -> int | None:
        """Questions the budgets still allow: each costs a target request and a call of each
        helper that serves it (generator, judge)."""
        return self._calls_left(1 + (self.generator is not None) + (self.judge is not None))

    def _stopped_by_user(self) -> bool:
        return self.stop_reason == STOPPED_BY_USER

    def _ended(self, stopped: bool) -> str:
        pending = len(self.pending_edges())
        if pending:
            self.stop_reason += self._failed_note(
                f"{pending:,} edge{'s' if pending > 1 else ''} whose last request failed"
            )
        return RunStatus.STOPPED if stopped else RunStatus.FINISHED

    async def _ask_until_done(self) -> None:
        """Load the target, then ask: the pending errors of a finished run (in extra iterations
        of at most batch_size edges, then it stops for the reason it had stopped), or new
        iterations, synchronous or continuous."""
        await self._load_target()
        schedule: Batches | Continuous
        if self._limit_reached() and len(self.pending_edges()):
            pick = in_order(self.pending_edges(), self.config.batch_size)
            schedule = Batches(self, pick, self._no_budget_left)
            await self._dispatch(schedule, 1)
            self._count_dropped()
            self.should_stop()
            return
        if self.config.scheduling is Scheduling.CONTINUOUS:
            schedule = Continuous(self)
            await self._dispatch(schedule, self.config.concurrency)
        else:
            schedule = Batches(self, self.sample, self.should_stop)
            await self._dispatch(schedule, 1)
        self._count_dropped()
        if not self.stop_reason and not self.should_stop():
            self.stop_reason = "no edges to ask"

    def _no_budget_left(self) -> bool:
        left = self.budget_left()
        return left is not None and left <= 0

    async def _keep_finished(self) -> None:
        """After `abort()`: commit the whole iterations whose replies are in."""
        await super()._keep_finished()
        self._count_dropped()

    def _count_dropped(self) -> None:
        """Store the requests this session sent that no committed iteration holds (their
        iteration was dropped whole: a stop now, quitting, the failure rule) as sent: those that
        failed (`uncommitted.errors`) as failed, the rest as dropped (in flight, or answered:
        not the target's failures), with the retries and tokens of the replies that came in,
        so the run's totals and its budget count them. The uncommitted replies are gone then."""
        s = self.stats  # this session's counted requests and failures, dropped ones included
        late, s.uncommitted = s.uncommitted, Counters()
        uncounted = self._sent[0] - (self.counters.requests - s.requests_before)
        if uncounted <= 0:
            return
        failed = min(late.errors, uncounted)
        counts = Counters(
            uncounted,
            failed,
            late.retries,
            late.prompt_tokens,
            late.completion_tokens,
            uncounted - failed,
        )

        def write() -> None:
            with transaction(self.conn):
                add_target_usage(self.conn, self.run.id, counts.values())

        retry_busy(write)
        self.counters += counts

    def pending_edges(self) -> np.ndarray:
        """Positions of the edges whose latest request failed (an API error, not an answer)."""
        return np.flatnonzero(self.state.err > 0)

    def _limit_reached(self) -> bool:
        """Whether the run already met its iteration limit or converged (a resumed run)."""
        return self.stats.iteration >= self.config.iterations or (
            self.config.stop_on_convergence
            and converged(
                self.stats.history,
                self.config.convergence_window,
                self.config.convergence_tolerance,
            )
        )

    def should_stop(self) -> bool:
        """Whether the run is done: failures past the guard's rule, a budget spent, or the rates
        converged (sets `stop_reason`)."""
        if self.guard.cause:
            self.stop_reason = STOP_REASON
            return True
        if self.stopping:
            self.stop_reason = STOPPED_BY_USER
            return True
        if self.stats.iteration >= self.config.iterations:
            self.stop_reason = "iteration limit"
            return True
        if self.config.stop_on_convergence and converged(
            self.stats.history, self.config.convergence_window, self.config.convergence_tolerance
        ):
            self.stats.converged = True
            self.stop_reason = "converged"
            return True
        left = self.budget_left()
        if left is not None and left <= 0:
            self.stop_reason = BUDGET_REASON
            return True
        return False

    def sample(
        self,
        iteration: int,
        k: int,
        busy: np.ndarray | None = None,
        slot: int = 0,
        with_floor: bool = True,
    ) -> np.ndarray:
        """k edges: failed requests to retry first, then the design's draw (the rolling census's
        floor and the sampler's picks, `probe.design`; without the floor when not
        ``with_floor``); no pick is `busy`. The floor's slots are noted with their pass until the
        iteration is committed."""
        if self.config.plan_of is not None:
            return self._planned_sample(iteration, k)
        busy = np.empty(0, dtype=np.int64) if busy is None else busy
        rng = np.random.default_rng(
            [self.config.seed, 15485863, iteration] + ([slot] if slot else [])
        )
        retry = self.retry_edges()
        if len(retry) and len(busy):
            retry = np.setdiff1d(retry, busy)
        retry = retry[:k]
        config = self.config
        fresh_k = k - len(retry)
        # an iteration that asks every edge is a census itself
        census = self.floor if with_floor and k < len(self.positions) else None
        fresh, count, pass_ = designed_sample(
            config.sampler,
            self.state,
            fresh_k,
            rng,
            iteration,
            config.seed,
            config.design_floor,
            census,
            exclude=busy,
            certain=retry,
            epsilon=config.epsilon,
            top_k=config.blind_spots,
        )
        if count and len(retry):
            # a floor visit of an edge being retried: the retry's answer is the visit's
            again = np.isin(fresh[:count], retry)
            for pos in fresh[:count][again].tolist():
                self._floor_slots[(iteration, slot + int(np.flatnonzero(retry == pos)[0]))] = pass_
            fresh = np.concatenate((fresh[:count][~again], fresh[count:]))
            count -= int(again.sum())
        self._note_floor(iteration, slot + len(retry), count, pass_)
        return np.concatenate((retry, fresh)).astype(np.int64)

    def take_floor(self, iteration: int, slot: int, k: int) -> np.ndarray:
        """The floor's share of k slots from `slot` on (continuous dispatch hands out its
        slots a few at a time: the census moves on only by what is handed out). Nothing for a run
        whose batch holds every edge: its whole iterations are the census."""
        if self._census:
            return np.empty(0, dtype=np.int64)
        rng = np.random.default_rng([self.config.seed, 15485863, iteration, slot, 1])
        visits, pass_ = floor_visits(self.floor, k, self.config.design_floor, rng)
        self._note_floor(iteration, slot, len(visits), pass_)
        return visits

    def _note_floor(self, iteration: int, first: int, count: int, pass_: int) -> None:
        """Slots ``first`` to ``first + count - 1`` of `iteration` are floor visits of ``pass_``."""
        for slot in range(first, first + count):
            self._floor_slots[(iteration, slot)] = pass_

    def _planned_sample(self, iteration: int, k: int) -> np.ndarray:
        """The edges the plan's run asked in this iteration (at most k: a budget may cut the
        last), its floor visits with their passes."""
        leader = self.config.plan_of
        if self._plan is None and leader is not None:
            self._plan = Plan(self.conn, load_kglens_run(self.conn, leader), self.kg)
        assert self._plan is not None
        asks = self._plan.asks(iteration)[:k]
        self._planned[iteration] = asks
        for ask in asks:
            if ask.floor_pass is not None:
                self._floor_slots[(iteration, ask.slot)] = ask.floor_pass
        return np.array([a.pos for a in asks], dtype=np.int64)

    async def questions_for(
        self, batch: np.ndarray, iteration: int, first_slot: int = 0
    ) -> list[Question]:
        """The questions to ask about a batch's edges in an iteration (slots from
        `first_slot`); a run on another's plan asks that run's questions as worded."""
        if self.config.plan_of is not None:
            return [
                self.factory.replay(
                    iteration,
                    a.slot,
                    a.pos,
                    a.qtype,
                    a.text,
                    a.generator,
                    a.candidate,
                    a.expected,
                    a.expected_answers,
                )
                for a in self._planned.pop(iteration, [])
            ]
        questions = self.factory.make_batch(batch, first_slot, iteration)
        if self.generator is not None:
            questions = list(
                await asyncio.gather(
                    *(rephrase_with_llm(q, self.kg, self.generator) for q in questions)
                )
            )
        return questions

    def _answer_prompt(self, question: Question) -> Prompt:
        order = self.config.prompt_order
        reverse = order == "reversed" or (
            order == "shuffled" and (question.slot + question.iteration + question.edge_id) % 2 == 1
        )
        return self._prompts[(WH if question.qtype == WH else YES_NO, reverse)]

    async def ask_all(self, questions: list[Question]) -> list[Outcome]:
        """Ask a batch concurrently; a target that answers without waiting (the zero-latency
        simulator) is asked in order instead, which saves a task per question and gives the same
        outcomes (its answers depend on each question only)."""
        if getattr(self.target, "answers_instantly", False) and self.judge is None:
            return [await self.ask(q) for q in questions]
        return list(await asyncio.gather(*(self.ask(q) for q in questions)))

    async def ask(self, question: Question) -> Outcome:
        """Ask one question and verify the reply; a transport or API error is an error
        outcome, never a wrong answer."""
        config = self.config
        # positional (messages, max_tokens, temperature, meta): this runs once per question
        request = ChatRequest(
            self._answer_prompt(question).render(question=question.text),
            config.max_tokens,
            config.temperature,
            question.meta,
        )
        try:
            reply = await complete_counted(self.target, request, self._sent)
        except LLMError as exc:
            errored = Outcome(question, "", Verdict.ERROR, "", Usage.failure(exc), exc.kind)
            self.guard.record(exc.kind, errored.usage.error)
            self._show(errored, True)
            return errored
        if question.qtype == WH:
            outcome = Outcome(question, reply.text, Verdict.ERROR, "", Usage.of(reply))
            await self._verify_wh(outcome)
        else:
            checked = check_yes_no(reply.text, question.expected)
            outcome = Outcome(
                question,
                reply.text,
                checked.verdict,
                YES_NO_MATCHER,
                Usage.of(reply),
                "",
                checked.hedged,
            )
        failed = outcome.failed
        self.guard.record(outcome.kind if failed else None, outcome.usage.error)
        self._show(outcome, failed)
        return outcome

    def _show(self, o: Outcome, failed: bool) -> None:
        """Count a reply (``failed``: its `Outcome.failed`) as soon as it is verified
        (`ProbeStats.uncommitted`) and put it on the live feed."""
        stats, q, usage = self.stats, o.question, o.usage
        stats.uncommitted = stats.uncommitted.plus_one(usage, failed)
        stats.replies_total += 1
        stats.recent.append(
            ReplyView(
                q.iteration,
                q.text,
                o.reply or usage.error,
                str(o.verdict),  # a StrEnum's str is its value, without the enum's lookup
                q.qtype,
                q.expected,
            )
        )

    async def _verify_wh(self, outcome: Outcome) -> None:
        """The matcher's verdict; with a judge, the judge's on what the matcher found correct,
        incorrect or could not decide (the matcher's kept beside it). A judge that fails or
        answers out of format leaves the matcher's verdict, marked unjudged: never an error of
        the model under test."""
        question = outcome.question
        edge = int(self.positions[question.pos])
        checked = check_edge_wh(
            outcome.reply, question.expected_answers, self.names, edge, question.text
        )
        outcome.verdict, outcome.hedged = checked.verdict, checked.hedged
        outcome.verifier = matcher_label(checked)
        if self.judge is None or (
            checked.verdict in (Verdict.REFUSED, Verdict.UNPARSEABLE) and not checked.uncertain
        ):
            return
        answers = [a for group in question.expected_answers for a in group]
        messages = load_prompt("verify_wh").render(
            question=question.text, answers=", ".join(answers), response=outcome.reply
        )
        judged = await judge_wh(self.judge, messages)
        if judged.verdict is None:
            outcome.verifier = unjudged_label(outcome.verifier, judged.failure)
            return
        outcome.verdict = judged.verdict
        outcome.verifier = f"llm judge ({self.judge.label}): {judged.said[:40]}"
        outcome.matcher = checked.verdict.value

    def finish_iteration(self, iteration: int, outcomes: list[Outcome], seconds: float) -> None:
        """Commit an iteration whole: its replies, the posterior's update and its metrics."""
        read = self._read_outcomes(iteration, outcomes)
        pos = np.array(read.asked, dtype=np.int64)
        state_of = np.array(read.states, dtype=np.int8)
        failed = state_of == _FAILED
        succeeded = state_of == _SUCCEEDED
        distinct = len(set(read.asked)) == len(read.asked)
        # the edges touched, each once (the counts below do not depend on their order)
        touched = pos if distinct else np.unique(pos)
        before = RateCounts.of(self.state.m[touched], self.state.n[touched])
        apply_outcomes(
            self.state,
            pos,
            failed,
            succeeded,
            self.neighbourhood,
            self.config.propagation_weight,
            self.scale,
        )
        if self.learned is not None:
            self.learned.after_iteration(self.state, iteration)
        if self._whole_counted() and len({o.question.pos for o in outcomes}) >= len(self.positions):
            size = len(self.positions)
            right = np.bincount(pos[succeeded], minlength=size).astype(np.int64)
            wrong = np.bincount(pos[failed], minlength=size).astype(np.int64)
            whole = self._whole
            self._whole = (right, wrong) if whole is None else (whole[0] + right, whole[1] + wrong)
        self._rate_counts += RateCounts.of(self.state.m[touched], self.state.n[touched]) - before
        current = self._rate_counts.rates()
        counts = Counter(read.categories)
        latencies = read.latencies
        tally = read.tally
        summary = {
            "seconds": seconds,
            "requests": tally.requests,
            "errors": tally.errors,
            "retries": tally.retries,
            "prompt_tokens": tally.prompt_tokens,
            "completion_tokens": tally.completion_tokens,
            "latency_ms_mean": sum(latencies) / len(latencies) if latencies else None,
            "latency_ms_p95": _p95(latencies),
            "examined": current.examined,
            "win_rate": current.win,
            "zero_sense_rate": current.zero_sense,
            "all_sense_rate": current.all_sense,
            "counts": dict(counts),
        }
        if read.floor_answers:
            right, wrong = self._floor_counts
            for floor_pos, floor_failed in read.floor_answers:
                (wrong if floor_failed else right)[floor_pos] += 1
            self._floor_answered = True
        checkpoint = (
            self.state
            if iteration % self.config.checkpoint_every == 0 or iteration >= self.config.iterations
            else None
        )
        commit_iteration(
            self.conn,
            self.run.id,
            iteration,
            read.rows,
            summary,
            checkpoint,
            self.helpers.take(),
        )
        s = self.stats
        s.iteration = iteration
        self.counters += tally
        s.uncommitted -= tally  # later iterations' replies stay (continuous scheduling)
        s.counts.update(counts)
        s.history.append(current)
        s.yes_no.update(read.said)
        for counts_of, asked_now in (
            (self._wh_asks, read.wh_asked),
            (self._yes_no_asks, read.yes_no_asked),
        ):
            if distinct:  # each edge once: a plain indexed add counts them all
                counts_of[np.array(asked_now, dtype=np.int64)] += 1
            else:
                np.add.at(counts_of, asked_now, 1)
        self._update_kg_wide()
        if self.on_progress is not None:
            self.on_progress(self.snapshot(insights=False))

    def _read_outcomes(self, iteration: int, outcomes: list[Outcome]) -> _Read:
        """Everything a commit reads from each reply, in one pass over them: the rows as
        stored (a floor visit with its pass), the request counts, the edges asked by question
        type, the Yes/No answers given and the floor's answers the KG-wide rates rest on."""
        read = _Read()
        floor_slots = self._floor_slots
        db_ids = self._entity_db_ids
        asked, states, categories = read.asked, read.states, read.categories
        rows, latencies, said = read.rows, read.latencies, read.said
        errors = retries = prompt_tokens = completion_tokens = 0
        for o in outcomes:
            q, verdict, usage = o.question, o.verdict, o.usage
            category = str(verdict)  # a StrEnum's str is its value, without the enum's lookup
            asked.append(q.pos)
            categories.append(category)
            retries += usage.retries
            prompt_tokens += usage.prompt_tokens
            completion_tokens += usage.completion_tokens
            if usage.latency_ms is not None:
                latencies.append(usage.latency_ms)
            floor_pass = floor_slots.pop((iteration, q.slot), None)
            candidate = q.candidate
            # positional: a named tuple's keywords cost four times its fields' (64 rows)
            rows.append(
                ObservationRow(
                    q.iteration,
                    q.slot,
                    q.pos,
                    q.edge_id,
                    q.qtype,
                    q.generator,
                    q.text,
                    db_ids[candidate] if candidate is not None else None,
                    q.expected,
                    to_json(q.expected_answers) if q.expected_answers else "[]",
                    o.reply,
                    category,
                    o.verifier,
                    usage,
                    o.hedged,
                    o.matcher,
                    floor_pass,
                )
            )
            if verdict is Verdict.ERROR:
                errors += 1
                states.append(_ERRORED)
                continue
            failed = verdict in FAILURES  # else the model answered right
            states.append(_FAILED if failed else _SUCCEEDED)
            if floor_pass is not None:
                read.floor_answers.append((q.pos, failed))
            if q.qtype == WH:
                read.wh_asked.append(q.pos)
                continue
            read.yes_no_asked.append(q.pos)
            # the verdict already says what the first word answered (None: refused, unparseable)
            expected = q.expected
            if verdict is Verdict.CORRECT:
                said.append((expected, expected))
            elif verdict is Verdict.INCORRECT:
                said.append((expected, "no" if expected == "yes" else "yes"))
        read.tally = Counters(len(outcomes), errors, retries, prompt_tokens, completion_tokens)
        return read

    def _blind_spots(
        self, k: int | None = None
    ) -> tuple[tuple[BlindSpot, ...], LearnedView | None]:
        """The k (default: the run's `blind_spots`) worst examined edges and what the answers
        teach, from the
        error model fitted to the answers so far (the run's own fit with learned propagation),
        whatever the run's propagation: an edge that failed itself outranks its neighbours."""
        if not (self.state.m + self.state.n).any():
            return (), None
        posterior = None
        if self.learned is not None:
            # the state is the learned posterior: its means are the ones review shows, and a
            # run opened from a checkpoint without a refit since gets a fit of its own for the
            # summary, leaving the state as the run left it
            model = self.learned.model
            fit = self.learned.fit or model.fit(self.state.m, self.state.n)
            posterior = (self.state.alpha, self.state.beta)
        else:
            if self._panel_model is None:
                kg, pos = self.kg, self.positions
                self._panel_model = ErrorModel(kg.p[pos], kg.s[pos], kg.o[pos])
            model = self._panel_model
            fit = model.fit(self.state.m, self.state.n)
        top, mean, share = rank_blind_spots(
            model, fit, self.state.m, self.state.n, k or self.config.blind_spots, posterior
        )
        kg = self.kg
        out = []
        for pos, est, nbr in zip(top.tolist(), mean.tolist(), share.tolist(), strict=True):
            e = int(self.positions[pos])
            out.append(
                BlindSpot(
                    edge_id=int(kg.edge_ids[e]),
                    subject=kg.labels[int(kg.s[e])],
                    predicate=kg.pred_labels[int(kg.p[e])],
                    object=kg.labels[int(kg.o[e])],
                    mean_error=est,
                    m=int(self.state.m[pos]),
                    n=int(self.state.n[pos]),
                    from_neighbours=nbr,
                )
            )
        summary = learned_summary(model, fit)
        view = LearnedView(
            answers=summary.answers,
            strength=summary.strength,
            neighbour_weight=summary.neighbour_weight,
            predicate_share=summary.predicate_share,
            mean_error=summary.mean_error,
            weakest_predicates=tuple(
                (kg.pred_labels[w.index], w.error, w.answers) for w in summary.weakest_predicates
            ),
            weakest_subjects=tuple(
                (kg.labels[w.index], w.error, w.answers) for w in summary.weakest_subjects
            ),
        )
        return tuple(out), view


def start_run(
    conn: sqlite3.Connection,
    config: RunConfig,
    target: ChatClient,
    kg: KGIndex,
    positions: np.ndarray,
    name: str = "",
    manifest_extra: dict[str, Any] | None = None,
) -> KGLensRun:
    """Create a run over the given edge positions of the loaded KG
    (`kglens_tui.kg.positions.run_edge_positions`)."""
    if len(positions) == 0:
        raise ValueError(f"KG '{config.kg}' has no active edges to probe in this selection")
    manifest = build_manifest(
        KGLENS,
        kg,
        config,
        target,
        PROMPTS,
        verifier=config.verifier,
        sampler=str(config.sampler),
        propagation=config.propagation,
        difficulty=str(config.difficulty),
        prompt_order=config.prompt_order,
        **(manifest_extra or {}),
    )
    run_id = create_run(
        conn,
        kg.kg_id,
        config,
        manifest,
        target.label,
        bool(target.simulated),
        kg.edge_ids[positions],
        name=name,
    )
    return load_kglens_run(conn, run_id)
