"""Question generation (paper 2.2): Yes/No with true objects or hard negatives, Wh only for
subjects with few objects, from per-predicate templates or the paper's few-shot LLM prompts."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import numpy as np

from kglens_tui.answers.generated import rejected_source, rejection
from kglens_tui.core.question_type import WH, YES_NO
from kglens_tui.core.quick_frozen import quick_frozen
from kglens_tui.core.scalar_draws import ScalarDraws
from kglens_tui.kg.graph import KGIndex
from kglens_tui.kg.templates import fill, named, templates_for
from kglens_tui.llm.base import ChatClient, ChatRequest, LLMError, QuestionMeta
from kglens_tui.modes.kglens.config import Difficulty
from kglens_tui.runs.prompts import load_prompt


@quick_frozen
@dataclass(frozen=True)
class Question:
    """One question about one run edge, with what a correct answer is."""

    iteration: int
    slot: int
    pos: int
    edge_id: int
    qtype: str
    text: str
    generator: str
    candidate: int | None
    """Node asked about in a Yes/No question (the true object or a hard negative)."""
    expected: str
    """'yes' or 'no' for Yes/No; '' for Wh."""
    expected_answers: tuple[tuple[str, ...], ...]
    """Wh: every true object as (label, alias, ...)."""
    meta: QuestionMeta


CODE = re.compile(r"[^\W\d_]{1,3}")
"""An alias of at most three letters ('IT', 'ITA', 'Fe'): a code, no help to a reader."""


def _fold(text: str) -> str:
    """Case and accents aside: 'Repubblica Italiana' -> 'repubblica italiana'."""
    folded = text.casefold()
    if folded.isascii():  # no accents to take off (NFKD leaves ASCII as it is)
        return folded
    norm = unicodedata.normalize("NFKD", folded)
    return "".join(c for c in norm if not unicodedata.combining(c))


def _gives_away(folded_alias: str, name: str) -> bool:
    """Whether an alias contains a name as a whole word or, for names of four or more
    characters, as the start of a word ('Italian' in 'Repubblica Italiana')."""
    needle = _folded_name(name)
    whole_word = len(name) < 4
    start = folded_alias.find(needle)
    while start >= 0:
        end = start + len(needle)
        if not (start and _word_char(folded_alias[start - 1])) and not (
            whole_word and end < len(folded_alias) and _word_char(folded_alias[end])
        ):
            return True
        start = folded_alias.find(needle, start + 1)
    return False


@lru_cache(maxsize=1 << 15)
def _folded_name(name: str) -> str:
    """`_fold` of a name or alias, kept (at most 32,768): a subject's true objects and its own
    aliases recur."""
    return _fold(name)


def _word_char(c: str) -> bool:
    """What `re`'s \\w matches: a letter, digit or underscore of any script."""
    return c.isalnum() or c == "_"


def shown_alias(kg: KGIndex, s: int, true_nodes: np.ndarray) -> str | None:
    """The subject's first alias that is no code and contains no name or alias of a true
    object ("Italian Republic" would give away Italy's demonym); None if there is none."""
    names: list[str] | None = None
    for alias in kg.aliases[s]:
        if CODE.fullmatch(alias):
            continue
        if names is None:
            names = [n for t in true_nodes.tolist() for n in kg.names(t)]
        folded = _folded_name(alias)
        for name in names:
            # a name can give the alias away only if the alias holds it somewhere
            # (`_gives_away` then looks at where)
            if _folded_name(name) in folded and _gives_away(folded, name):
                break
        else:
            return alias
    return None


def subject_display(kg: KGIndex, s: int, true_nodes: np.ndarray) -> str:
    """The subject as a question shows it: its label and, as in the paper, an alias."""
    alias = shown_alias(kg, s, true_nodes)
    name = named(kg.labels[s], kg.types[s])  # "the Netherlands"
    return f"{name} (also known as {alias})" if alias else name


def iteration_rng(seed: int, iteration: int) -> np.random.Generator:
    """The random stream of one iteration's questions, drawn in slot order: the same run, seed
    and iteration always give the same questions (which is what makes resume exact)."""
    return np.random.default_rng([seed, 104729, iteration])


def wh_allowed(kg: KGIndex, positions: np.ndarray, wh_max_objects: int) -> np.ndarray:
    """For each KG edge position: whether the paper allows a Wh question about it (its predicate
    has a Wh template and the subject has fewer than `wh_max_objects` objects for it)."""
    positions = np.asarray(positions, dtype=np.int64)
    has_wh = np.array([bool(t.get("wh")) for t in kg.pred_templates], dtype=bool)
    ok = has_wh[kg.p[positions]] if len(has_wh) else np.zeros(len(positions), dtype=bool)
    for i in np.flatnonzero(ok).tolist():
        e = int(positions[i])
        ok[i] = kg.out_degree(int(kg.s[e]), int(kg.p[e])) < wh_max_objects
    return ok


class QuestionFactory:
    """Turns sampled run edges into questions with templates (no LLM needed)."""

    def __init__(
        self,
        kg: KGIndex,
        positions: np.ndarray,
        difficulty: Difficulty,
        seed: int,
        wh_max_objects: int = 10,
        wrong_labels: bool = False,
    ) -> None:
        self.kg = kg
        self.positions = positions
        self.difficulty = Difficulty(difficulty)
        self.seed = seed
        self.wh_max_objects = wh_max_objects
        self.wrong_labels = wrong_labels
        """Attach false candidates to each question (a simulated target answers with them)."""
        self._rngs: dict[int, ScalarDraws] = {}
        self._pairs: dict[tuple[int, int], _Pair] = {}

    def _rng(self, iteration: int) -> ScalarDraws:
        """The iteration's stream (`iteration_rng`), its scalar draws made in Python (the same
        values, without numpy's cost per call)."""
        rng = self._rngs.get(iteration)
        if rng is None:
            if len(self._rngs) > 8:
                self._rngs.pop(min(self._rngs))
            rng = self._rngs[iteration] = ScalarDraws(iteration_rng(self.seed, iteration))
        return rng

    def make(self, pos: int, slot: int, iteration: int) -> Question:
        """A templated question about run edge `pos`."""
        return self.make_batch(np.array([pos]), slot, iteration)[0]

    def make_batch(self, batch: np.ndarray, first_slot: int, iteration: int) -> list[Question]:
        """Templated questions about run edges `batch` in slot order from `first_slot` (the
        iteration's stream is drawn in that order: the same questions as one `make` each)."""
        kg = self.kg
        edges = self.positions[np.asarray(batch, dtype=np.int64)]
        rng = self._rng(iteration)
        hard = self.difficulty is Difficulty.HARD
        wh_only = self.difficulty is Difficulty.WH
        pairs = self._pairs
        out = []
        for slot, (pos, s, p, o, edge_id) in enumerate(
            zip(
                np.asarray(batch).tolist(),
                kg.s[edges].tolist(),
                kg.p[edges].tolist(),
                kg.o[edges].tolist(),
                kg.edge_ids[edges].tolist(),
                strict=True,
            ),
            first_slot,
        ):
            templates = kg.pred_templates[p]
            want_wh = wh_only or (hard and rng.random() < 0.5)
            wh_template = (templates.get("wh") or "") if want_wh else ""
            pair = pairs.get((s, p)) or self._pair(s, p)
            if want_wh and wh_template and len(pair.true_nodes) < self.wh_max_objects:
                out.append(self._wh(iteration, slot, pos, edge_id, s, p, o, wh_template, pair, rng))
            else:
                out.append(
                    self._yes_no(iteration, slot, pos, edge_id, s, p, o, templates, pair, rng)
                )
        return out

    def replay(
        self,
        iteration: int,
        slot: int,
        pos: int,
        qtype: str,
        text: str,
        generator: str,
        candidate: int | None,
        expected: str,
        expected_answers: tuple[tuple[str, ...], ...],
    ) -> Question:
        """A question another run asked about run edge `pos`, as it was worded (`probe.plan`),
        with what a simulated target needs to answer it."""
        kg = self.kg
        e = int(self.positions[pos])
        s, p, o = int(kg.s[e]), int(kg.p[e]), int(kg.o[e])
        edge_id = int(kg.edge_ids[e])
        meta = self._meta(
            iteration,
            slot,
            edge_id,
            (s, p, o),
            qtype,
            expected=expected if qtype == YES_NO else "",
            candidate_label=kg.labels[candidate] if candidate is not None else "",
            true_labels=self._pair(s, p).labels
            if qtype == YES_NO
            else tuple(a for group in expected_answers for a in group),
            wrong_labels=() if qtype == YES_NO else self._wrong_labels(s, p, self._rng(iteration)),
            llm_written=generator.startswith("llm:"),
        )
        return Question(
            iteration,
            slot,
            pos,
            edge_id,
            qtype,
            text,
            generator,
            candidate,
            expected,
            expected_answers,
            meta,
        )

    def _meta(
        self,
        iteration: int,
        slot: int,
        edge_id: int,
        spo: tuple[int, int, int],
        qtype: str,
        **asked: Any,
    ) -> QuestionMeta:
        """What a simulated target is told of a question: the ask's key, the edge (subject,
        predicate and true object keys), the question type and what ``asked`` adds."""
        kg = self.kg
        s, p, o = spo
        return QuestionMeta(
            key=f"it{iteration}:s{slot}:e{edge_id}",
            edge_id=edge_id,
            subject=kg.entity_keys[s],
            predicate=kg.pred_keys[p],
            object=kg.entity_keys[o],
            qtype=qtype,
            **asked,
        )

    def _pair(self, s: int, p: int) -> _Pair:
        """What questions about (s, p) share, built once per pair."""
        pair = self._pairs.get((s, p))
        if pair is None:
            pair = self._pairs[(s, p)] = _Pair(self.kg, s, p)
        return pair

    def _wrong_labels(self, s: int, p: int, rng: ScalarDraws, k: int = 3) -> tuple[str, ...]:
        if not self.wrong_labels:
            return ()
        out = []
        for _ in range(k):
            neg = self.kg.hard_negative(s, p, rng)
            if neg is not None:
                out.append(self.kg.labels[neg])
        return tuple(dict.fromkeys(out))

    def _yes_no(
        self,
        iteration: int,
        slot: int,
        pos: int,
        edge_id: int,
        s: int,
        p: int,
        o: int,
        templates: dict[str, Any],
        pair: _Pair,
        rng: ScalarDraws,
    ) -> Question:
        kg = self.kg
        candidate, expected = o, "yes"
        if rng.random() < 0.5:
            negative = kg.hard_negative(s, p, rng, like=o)
            if negative is not None:
                candidate, expected = negative, "no"
        options = templates.get("yes_no") or templates_for(kg.pred_labels[p])["yes_no"][:1]
        template = options[rng.integers(len(options))]
        label = kg.labels[candidate]
        text = fill(template, pair.display, named(label, kg.types[candidate]))
        # as `_meta` makes it, without its call and by position (the most frequent kind): key,
        # edge, subject, predicate and object keys, type, expected answer, candidate's label,
        # true labels, no wrong labels (a simulated target answers Yes/No by flipping it)
        meta = QuestionMeta(
            f"it{iteration}:s{slot}:e{edge_id}",
            edge_id,
            kg.entity_keys[s],
            kg.pred_keys[p],
            kg.entity_keys[o],
            YES_NO,
            expected,
            label,
            pair.labels,
            (),
        )
        return Question(
            iteration, slot, pos, edge_id, YES_NO, text, "template", candidate, expected, (), meta
        )

    def _wh(
        self,
        iteration: int,
        slot: int,
        pos: int,
        edge_id: int,
        s: int,
        p: int,
        o: int,
        template: str,
        pair: _Pair,
        rng: ScalarDraws,
    ) -> Question:
        kg = self.kg
        answers = tuple(kg.names(int(t)) for t in pair.true_nodes)
        text = fill(template, pair.display)
        meta = self._meta(
            iteration,
            slot,
            edge_id,
            (s, p, o),
            WH,
            true_labels=tuple(a for group in answers for a in group),
            wrong_labels=self._wrong_labels(s, p, rng),
        )
        return Question(
            iteration, slot, pos, edge_id, WH, text, "template", None, "", answers, meta
        )


class _Pair:
    """What the questions about one (subject, predicate) share: T(s, p), its labels, and the
    subject as shown (built at its first use)."""

    __slots__ = ("_display", "_kg", "_s", "labels", "true_nodes")

    def __init__(self, kg: KGIndex, s: int, p: int) -> None:
        self._kg, self._s = kg, s
        self.true_nodes = kg.true_objects(s, p)
        self.labels = tuple(map(kg.labels.__getitem__, self.true_nodes.tolist()))
        self._display: str | None = None

    @property
    def display(self) -> str:
        if self._display is None:
            self._display = subject_display(self._kg, self._s, self.true_nodes)
        return self._display


async def rephrase_with_llm(question: Question, kg: KGIndex, client: ChatClient) -> Question:
    """The paper's few-shot LLM question generator (appendix A.6); the template question stays
    when the generator fails or returns nothing, and the generator field says so."""
    e = kg.edge_position(question.edge_id)
    s, p = int(kg.s[e]), int(kg.p[e])
    if question.qtype == YES_NO:
        messages = load_prompt("generate_yes_no").render(
            subject=kg.labels[s],
            predicate=kg.pred_labels[p],
            object=kg.labels[question.candidate] if question.candidate is not None else "",
            subject_alias=shown_alias(kg, s, kg.true_objects(s, p)) or kg.labels[s],
        )
    else:
        messages = load_prompt("generate_wh").render(
            subject=kg.labels[s], predicate=kg.pred_labels[p], object=kg.labels[int(kg.o[e])]
        )
    try:
        reply = await client.complete(ChatRequest(messages=messages, max_tokens=80))
    except LLMError as exc:
        return replace(question, generator=f"template (generator failed: {exc.kind})")
    text = reply.text.strip().splitlines()[0].strip() if reply.text.strip() else ""
    if not text:
        return replace(question, generator="template (generator gave no question)")
    why = rejection(
        text,
        subject_names=kg.names(s),
        asked_names=_names(kg, question.candidate) if question.qtype == YES_NO else (),
        answer_names=question.expected_answers if question.qtype != YES_NO else (),
    )
    if why:
        return replace(question, generator=rejected_source(why))
    meta = replace(question.meta, llm_written=True)
    return replace(question, text=text, generator=f"llm:{client.label}", meta=meta)


def _names(kg: KGIndex, node: int | None) -> tuple[str, ...]:
    return () if node is None else kg.names(node)
