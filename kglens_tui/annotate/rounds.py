"""Annotation rounds: a seeded, stratified sample of stored questions, its annotators and who
rates what (everyone everything, as in the paper, or an overlap plus a calibration set)."""

from __future__ import annotations

import json
import random
import sqlite3
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from kglens_tui.annotate.atomic import atomic
from kglens_tui.annotate.errors import AnnotationError
from kglens_tui.core.console import suggested
from kglens_tui.core.question_type import WH, YES_NO
from kglens_tui.core.safetext import unshown_char, visible
from kglens_tui.core.verdict import ANSWERED
from kglens_tui.textfmt import counted

DEFAULT_ANNOTATORS: tuple[str, ...] = ("ann1", "ann2", "ann3", "ann4", "ann5")
QTYPES = (YES_NO, WH)
APP_VERDICTS = tuple(str(v) for v in ANSWERED)
"""Stored categories an item may carry; 'error' observations are never sampled."""


SETTING_NAMES: Mapping[str, str] = {
    "majority": "majority",
    "raters_per_item": "raters_per_item",
    "calibration_size": "calibration_size",
    "per_kg": "per_kg",
}
"""How errors name the settings of a round; the CLI passes its flags instead."""


def strict_majority(raters: int) -> int:
    """The fewest votes that are more than half of `raters` (3 of 5, 2 of 2 or 3, 3 of 4): the
    default majority, which the votes still missing can never overturn."""
    return raters // 2 + 1


def check_name(name: str, what: str) -> str:
    """`name` (a round's or an annotator's, as `what` names it: a flag on the command line) if
    it holds no control character: no escape, NUL, newline, tab, DEL, C1 control, bidi
    override or line separator, the characters `visible` would show as stand-ins (the rule KG
    names follow). Markup-like text such as `[/]` is allowed: names are shown literally.

    Rounds made through the Python API are not checked (a workspace may hold such names from
    older versions, and every view shows them literally); the CLI checks what it is given."""
    bad = unshown_char(name)
    if bad is not None:
        shown = visible(name, one_line=True)
        raise AnnotationError(
            f"{what}: '{shown}' holds the control character U+{ord(bad):04X}; names may not "
            "hold escapes, NUL, newlines, tabs or bidi controls"
        )
    return name


def annotator_names(text: str, what: str) -> list[str]:
    """The comma-separated annotator names of ``text``, each stripped and checked by
    `check_name` (``what``: how errors name the field, a flag or a form's label)."""
    return [check_name(part.strip(), what) for part in text.split(",")]


def check_annotators(names: Sequence[str]) -> None:
    """At least one annotator, each named (no comma), none twice; else an AnnotationError."""
    if not names:
        raise AnnotationError("a round needs at least one annotator")
    for name in names:
        if not name or "," in name:
            raise AnnotationError(f"annotator name {name!r} must be non-empty without commas")
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise AnnotationError(f"annotator named twice: {', '.join(dupes)}")


def app_judgement(verdict: str) -> str:
    """The app's verdict as a human label: refused and unparseable replies count as incorrect."""
    return "correct" if verdict == "correct" else "incorrect"


@dataclass(frozen=True)
class RoundSettings:
    """How a round was sampled and is scored."""

    per_kg: int | None = 100
    """Items per KG (None = every matching observation)."""
    yes_no_share: float = 0.5
    majority: int = 3
    """Votes a value needs to become the majority label (paper: 3 of 5)."""
    raters_per_item: int | None = None
    """Annotators per item outside the calibration set (None = every annotator)."""
    calibration_size: int = 0
    """Items rated by every annotator when raters_per_item is below the annotator count."""


@dataclass(frozen=True)
class ItemSpec:
    """One question to put in a round."""

    kg: str
    qtype: str
    question: str
    app_verdict: str
    answers: list[list[str]] = field(default_factory=list)
    response: str | None = None
    expected: str = ""
    observation_id: int | None = None
    run_id: int | None = None
    edge_id: int | None = None


@dataclass(frozen=True)
class Round:
    id: int
    name: str
    seed: int
    settings: RoundSettings
    source: dict[str, Any]
    annotators: tuple[str, ...]
    items: int
    created_at: str

    @property
    def raters(self) -> int:
        """Annotators per item outside the calibration set (every annotator when unset)."""
        return self.settings.raters_per_item or len(self.annotators)


def _check_settings(
    settings: RoundSettings,
    annotators: Sequence[str],
    setting_names: Mapping[str, str] = SETTING_NAMES,
) -> None:
    said = {**SETTING_NAMES, **setting_names}
    names = [a.strip() for a in annotators]
    check_annotators(names)
    raters = settings.raters_per_item or len(names)
    if not 1 <= raters <= len(names):
        raise AnnotationError(
            f"{said['raters_per_item']} must be between 1 and {counted(len(names), 'annotator')} "
            f"(got {raters})"
        )
    if not 1 <= settings.majority <= raters:
        raise AnnotationError(
            f"{said['majority']} must be between 1 and the {counted(raters, 'rater')} per item "
            f"(got {settings.majority})"
        )
    if settings.calibration_size < 0:
        raise AnnotationError(
            f"{said['calibration_size']} must be 0 or more (got {settings.calibration_size})"
        )
    if settings.per_kg is not None and settings.per_kg < 1:
        raise AnnotationError(f"{said['per_kg']} must be at least 1 (got {settings.per_kg})")
    if not 0.0 <= settings.yes_no_share <= 1.0:
        raise AnnotationError(f"yes_no_share must be between 0 and 1 (got {settings.yes_no_share})")


def _check_item(n: int, item: ItemSpec) -> None:
    where = f"item {n}"
    if item.qtype not in QTYPES:
        raise AnnotationError(f"{where}: qtype must be yes_no or wh (got {item.qtype!r})")
    if item.app_verdict not in APP_VERDICTS:
        raise AnnotationError(
            f"{where}: app_verdict must be one of {', '.join(APP_VERDICTS)} (got {item.app_verdict!r})"
        )
    if not item.question.strip():
        raise AnnotationError(f"{where}: empty question")
    if item.qtype == WH and item.response is None:
        raise AnnotationError(f"{where}: a Wh item needs the model's response")


def _assignments(
    n_items: int, annotators: Sequence[str], settings: RoundSettings, seed: int
) -> tuple[set[int], dict[int, list[int]]]:
    """(calibration item indexes, annotator index -> item indexes in that annotator's order)."""
    n = len(annotators)
    raters = settings.raters_per_item or n
    order = list(range(n_items))
    random.Random(f"{seed}:assign").shuffle(order)
    calibration = set(order[: settings.calibration_size]) if raters < n else set()
    rated: dict[int, list[int]] = {a: [] for a in range(n)}
    k = 0
    for idx in order:
        chosen: Sequence[int]
        if idx in calibration or raters == n:
            chosen = range(n)
        else:
            chosen = [(k * raters + j) % n for j in range(raters)]
            k += 1
        for a in chosen:
            rated[a].append(idx)
    for a, name in enumerate(annotators):
        calib = sorted(i for i in rated[a] if i in calibration)
        rest = sorted(i for i in rated[a] if i not in calibration)
        rng = random.Random(f"{seed}:order:{name}")
        rng.shuffle(calib)
        rng.shuffle(rest)
        rated[a] = calib + rest  # calibration items first
    return calibration, rated


def create_round_from_items(
    conn: sqlite3.Connection,
    name: str,
    items: Sequence[ItemSpec],
    *,
    annotators: Sequence[str] = DEFAULT_ANNOTATORS,
    settings: RoundSettings | None = None,
    seed: int = 0,
    source: dict[str, Any] | None = None,
    setting_names: Mapping[str, str] = SETTING_NAMES,
) -> Round:
    """Store a round of the given items (in this order) with its annotators and assignments.
    `setting_names` says how errors name the settings (the CLI passes its flags)."""
    settings = settings or RoundSettings(per_kg=None)
    name = name.strip()
    if not name:
        raise AnnotationError("a round needs a name")
    annotators = [a.strip() for a in annotators]
    _check_settings(settings, annotators, setting_names)
    if not items:
        raise AnnotationError(f"round '{name}' would have no items")
    for n, item in enumerate(items, start=1):
        _check_item(n, item)
    calibration, rated = _assignments(len(items), annotators, settings, seed)

    def write(c: sqlite3.Connection) -> int:
        if c.execute("SELECT 1 FROM annotation_round WHERE name = ?", (name,)).fetchone():
            raise AnnotationError(f"a round named '{name}' already exists")
        cur = c.execute(
            "INSERT INTO annotation_round(name, source, seed, settings) VALUES (?,?,?,?)",
            (name, json.dumps(source or {}), seed, json.dumps(asdict(settings))),
        )
        assert cur.lastrowid is not None  # set by the INSERT just run
        round_id = cur.lastrowid
        annotator_ids = [
            c.execute(
                "INSERT INTO annotator(round_id, name, position) VALUES (?,?,?)",
                (round_id, a, pos),
            ).lastrowid
            for pos, a in enumerate(annotators)
        ]
        item_ids = [
            c.execute(
                "INSERT INTO annotation_item(round_id, position, observation_id, run_id, edge_id, "
                "kg, qtype, question, expected, answers, response, app_verdict, calibration) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    round_id,
                    pos,
                    it.observation_id,
                    it.run_id,
                    it.edge_id,
                    it.kg,
                    it.qtype,
                    it.question,
                    it.expected,
                    json.dumps(it.answers, ensure_ascii=False),
                    it.response if it.qtype == WH else None,
                    it.app_verdict,
                    int(pos in calibration),
                ),
            ).lastrowid
            for pos, it in enumerate(items)
        ]
        c.executemany(
            "INSERT INTO annotation_assignment(item_id, annotator_id, position) VALUES (?,?,?)",
            [
                (item_ids[idx], annotator_ids[a], pos)
                for a, idxs in rated.items()
                for pos, idx in enumerate(idxs)
            ],
        )
        return round_id

    return get_round(conn, atomic(conn, write))


def _id_list(values: Sequence[int]) -> str:
    return json.dumps(sorted({int(v) for v in values}))


def _check_runs(conn: sqlite3.Connection, runs: Sequence[int]) -> None:
    """Every run exists and is of a mode that stores its replies as observations (KGLens: the
    questions, answers and verdicts a round holds); else one error naming the runs that are
    not."""
    from kglens_tui.runs.record import mode_of
    from kglens_tui.runs.registry import mode_label, observing_modes, stores_observations

    modes: dict[int, str] = {}
    for run_id in sorted(set(runs)):
        mode = mode_of(conn, run_id)
        if mode is None:
            raise AnnotationError(f"no run {run_id} in this workspace (see `{suggested('runs')}`)")
        modes[run_id] = mode
    others = [
        f"run {r} is a {mode_label(m)} run" for r, m in modes.items() if not stores_observations(m)
    ]
    if others:
        can = " or ".join(mode_label(m) for m in observing_modes())
        raise AnnotationError(
            f"only {can} runs can be annotated: {'; '.join(others)} (see `{suggested('runs')}`)"
        )


def _pool(
    conn: sqlite3.Connection,
    runs: Sequence[int],
    observation_ids: Sequence[int],
    edge_ids: Sequence[int],
) -> list[sqlite3.Row]:
    _check_runs(conn, runs)
    if observation_ids:
        found = {
            r[0]
            for r in conn.execute(
                "SELECT id FROM observation WHERE id IN (SELECT value FROM json_each(?))",
                (_id_list(observation_ids),),
            )
        }
        missing = sorted(set(observation_ids) - found)
        if missing:
            shown = ", ".join(map(str, missing[:5])) + (" ..." if len(missing) > 5 else "")
            raise AnnotationError(f"no observation with id {shown}")
    where, params = ["o.category != 'error'"], []
    for column, values in (("o.run_id", runs), ("o.id", observation_ids), ("o.edge_id", edge_ids)):
        if values:
            where.append(f"{column} IN (SELECT value FROM json_each(?))")
            params.append(_id_list(values))
    rows = conn.execute(
        "SELECT o.id, o.run_id, o.edge_id, o.qtype, o.question, o.expected, o.expected_answers, "
        "o.reply, o.category, k.name AS kg FROM observation o JOIN run r ON r.id = o.run_id "
        f"JOIN kg k ON k.id = r.kg_id WHERE {' AND '.join(where)} ORDER BY o.id",
        params,
    ).fetchall()
    seen: set[tuple[str, str, str, str]] = set()
    unique = []
    for r in rows:  # the same question with the same reply is rated once
        key = (r["kg"], r["qtype"], r["question"], r["reply"])
        if key not in seen:
            seen.add(key)
            unique.append(r)
    return unique


def stratified_sample(
    rows: Sequence[sqlite3.Row], per_kg: int | None, yes_no_share: float, seed: int
) -> list[sqlite3.Row]:
    """Per KG, yes_no_share of per_kg Yes/No rows and the rest Wh, seeded; a scarce type is
    topped up from the other. Rows must carry kg, qtype and id."""
    groups: dict[str, dict[str, list[sqlite3.Row]]] = defaultdict(lambda: {q: [] for q in QTYPES})
    for r in rows:
        groups[r["kg"]][r["qtype"]].append(r)
    chosen = []
    for kg in sorted(groups):
        pools = {q: sorted(groups[kg][q], key=lambda r: r["id"]) for q in QTYPES}
        if per_kg is None:
            want = {q: len(pools[q]) for q in QTYPES}
        else:
            yes_no = round(per_kg * yes_no_share)
            want = {YES_NO: min(yes_no, len(pools[YES_NO]))}
            want[WH] = min(per_kg - want[YES_NO], len(pools[WH]))
            want[YES_NO] = min(per_kg - want[WH], len(pools[YES_NO]))
        for q in QTYPES:
            rng = random.Random(f"{seed}:{kg}:{q}")
            chosen.extend(rng.sample(pools[q], want[q]))
    return chosen


def create_round(
    conn: sqlite3.Connection,
    name: str,
    *,
    runs: Sequence[int] = (),
    observation_ids: Sequence[int] = (),
    edge_ids: Sequence[int] = (),
    per_kg: int | None = 100,
    yes_no_share: float = 0.5,
    seed: int = 0,
    annotators: Sequence[str] = DEFAULT_ANNOTATORS,
    majority: int | None = None,
    raters_per_item: int | None = None,
    calibration_size: int = 0,
    setting_names: Mapping[str, str] = SETTING_NAMES,
) -> Round:
    """Sample a round from stored observations of the given KGLens runs and/or filters
    (observation ids, edge ids), stratified per KG and question type, seeded; 'error' replies
    are skipped, and a run of another mode (KONTEST, fact-eval) is refused.
    `majority` defaults to a strict majority of the raters per item (3 of 5, as in the paper;
    2 of 2); `setting_names` says how errors name the settings (the CLI passes its flags)."""
    if not (runs or observation_ids or edge_ids):
        raise AnnotationError("choose the runs, observation ids or edge ids to sample from")
    if majority is None:
        majority = strict_majority(raters_per_item or len(annotators))
    settings = RoundSettings(
        per_kg=per_kg,
        yes_no_share=yes_no_share,
        majority=majority,
        raters_per_item=raters_per_item,
        calibration_size=calibration_size,
    )
    _check_settings(settings, annotators, setting_names)
    pool = _pool(conn, runs, observation_ids, edge_ids)
    if not pool:
        raise AnnotationError("no usable observations to sample from ('error' replies are skipped)")
    sample = stratified_sample(pool, per_kg, yes_no_share, seed)
    random.Random(f"{seed}:positions").shuffle(sample)
    items = [
        ItemSpec(
            kg=r["kg"],
            qtype=r["qtype"],
            question=r["question"],
            app_verdict=r["category"],
            answers=json.loads(r["expected_answers"]) if r["qtype"] == WH else [],
            response=r["reply"] if r["qtype"] == WH else None,
            expected=r["expected"],
            observation_id=r["id"],
            run_id=r["run_id"],
            edge_id=r["edge_id"],
        )
        for r in sample
    ]
    source = {
        "runs": sorted(set(runs)),
        "observation_ids": sorted(set(observation_ids)),
        "edge_ids": sorted(set(edge_ids)),
    }
    return create_round_from_items(
        conn,
        name,
        items,
        annotators=annotators,
        settings=settings,
        seed=seed,
        source=source,
        setting_names=setting_names,
    )


def _round_from_row(conn: sqlite3.Connection, row: sqlite3.Row) -> Round:
    names = tuple(
        r[0]
        for r in conn.execute(
            "SELECT name FROM annotator WHERE round_id = ? ORDER BY position", (row["id"],)
        )
    )
    n_items = conn.execute(
        "SELECT COUNT(*) FROM annotation_item WHERE round_id = ?", (row["id"],)
    ).fetchone()[0]
    return Round(
        id=row["id"],
        name=row["name"],
        seed=row["seed"],
        settings=RoundSettings(**json.loads(row["settings"])),
        source=json.loads(row["source"]),
        annotators=names,
        items=int(n_items),
        created_at=row["created_at"],
    )


def get_round(conn: sqlite3.Connection, ref: int | str) -> Round:
    """A round by id or by name."""
    row = None
    if isinstance(ref, int) or str(ref).isdigit():
        row = conn.execute("SELECT * FROM annotation_round WHERE id = ?", (int(ref),)).fetchone()
    if row is None:
        row = conn.execute("SELECT * FROM annotation_round WHERE name = ?", (str(ref),)).fetchone()
    if row is None:
        raise AnnotationError(f"no annotation round {ref!r} (see `kglens annotate rounds`)")
    return _round_from_row(conn, row)


def list_rounds(conn: sqlite3.Connection) -> list[Round]:
    """Every round, oldest first."""
    rows = conn.execute("SELECT * FROM annotation_round ORDER BY id").fetchall()
    return [_round_from_row(conn, r) for r in rows]


def round_mix(conn: sqlite3.Connection, round_id: int) -> str:
    """A round's items per KG and question type: "country: 50 Yes/No + 50 Wh, ..."."""
    mix = conn.execute(
        "SELECT kg, SUM(qtype = 'yes_no'), SUM(qtype = 'wh') FROM annotation_item "
        "WHERE round_id = ? GROUP BY kg ORDER BY kg",
        (round_id,),
    ).fetchall()
    return ", ".join(f"{r[0]}: {r[1]} Yes/No + {r[2]} Wh" for r in mix)


@dataclass(frozen=True)
class SourceRun:
    """A KGLens run a round can be sampled from: one with answered (not 'error') observations."""

    id: int
    label: str
    """The run's name, else its target (credentials redacted, a simulated one marked)."""
    kg: str
    answered: int


def source_runs(conn: sqlite3.Connection) -> list[SourceRun]:
    """Every run with answered observations (what `create_round` samples), newest first: runs of
    modes that store no observations are refused by `create_round`, runs with no answer would
    give nothing."""
    from kglens_tui.llm.urls import redact_text  # the run layer: loaded when needed
    from kglens_tui.runs.registry import observing_modes
    from kglens_tui.textfmt import simulated_mark

    modes = observing_modes()
    rows = conn.execute(
        "SELECT r.id, r.name, r.target_label, r.simulated, k.name AS kg, "
        "(SELECT COUNT(*) FROM observation o WHERE o.run_id = r.id AND o.category != 'error') "
        "AS answered FROM run r JOIN kg k ON k.id = r.kg_id "
        f"WHERE r.mode IN ({', '.join('?' * len(modes))}) ORDER BY r.id DESC",
        modes,
    ).fetchall()
    out = []
    for r in rows:
        if not r["answered"]:
            continue
        target = redact_text(r["target_label"])
        label = r["name"] or target + simulated_mark(target, bool(r["simulated"]))
        out.append(SourceRun(id=r["id"], label=label, kg=r["kg"], answered=int(r["answered"])))
    return out
