"""Build a KG from Wikidata with the paper's forward and backward random walks (appendix A.2, A.7).

A walk of `steps` steps starts at the seed entities. Each step sends the forward and backward walk
queries for the frontier (in chunks of `chunk_size` ids, each LIMIT `limit` rows in random order),
filters the entities it finds (English aliases, label languages, sitelinks), and a seeded random
sample of the new entities that passed, up to `frontier_cap`, becomes the next frontier. Seeds are
always kept. Then predicate analysis marks dead predicates, and every kept (subject, active
predicate) pair is completed with all its objects, so hard negatives are really false. Last, the
edges get the dates of their statements (see `dates`) and the entities their types and group tags
(see `facets`). Nothing is written until the whole graph is built; `write_kg` stores it in one
transaction.
"""

from __future__ import annotations

import hashlib
import json
import random
import sqlite3
import time
from collections.abc import Callable, Iterator, Set
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from kglens_tui.kg.bundled import kg_exists
from kglens_tui.kg.importers import KGExistsError, write_kg
from kglens_tui.kg.parsed import (
    EntityRow,
    ParsedKG,
    PredicateRow,
    clean_aliases,
    default_templates,
    finish_parsed,
)
from kglens_tui.kg.wikidata.client import SparqlClient
from kglens_tui.kg.wikidata.dates import Dates, dates_query, edge_dates, latest
from kglens_tui.kg.wikidata.errors import WikidataError
from kglens_tui.kg.wikidata.facets import Facets, facets_query, group_tags, nearest_seeds
from kglens_tui.kg.wikidata.predicates import (
    DEFAULT_DEAD_PREDICATES,
    PredicateRule,
    dead_predicates,
)
from kglens_tui.kg.wikidata.queries import (
    Binding,
    aliases_query,
    backward_query,
    chunks,
    completion_query,
    forward_query,
    int_value,
    item_id,
    languages_query,
    normalize_pid,
    normalize_qid,
    property_id,
    text,
    walk_rows,
)
from kglens_tui.kg.wikidata.state import (
    BACKWARD,
    COMPLETION,
    FORWARD,
    Edge,
    WalkState,
    load_state,
    save_state,
)

ProgressFn = Callable[[str, int, int], None]
"""Called with (stage, queries done, queries in the stage), e.g. ('step 1/3 forward walk', 0, 2)."""

NO_ALIAS = "no English alias"
FEW_SITELINKS = "sitelinks"
"""The end of the reason an entity with too few sitelinks was left out."""


def _qnum(qid: str) -> int:
    return int(qid[1:])


@dataclass(frozen=True)
class WalkConfig:
    """What to walk and how to filter; `fingerprint()` names the walk for resuming."""

    seeds: tuple[str, ...]
    steps: int = 3
    limit: int = 500
    frontier_cap: int = 100
    chunk_size: int = 50
    seed: int = 0
    require_aliases: bool = True
    min_languages: int = 10
    min_sitelinks: int = 0
    dead_predicates: tuple[str, ...] = tuple(DEFAULT_DEAD_PREDICATES)
    max_object_degree: float = 10.0
    max_subject_share: float = 0.8
    min_subjects_for_share: int = 20

    def validate(self) -> WalkConfig:
        """A normalized copy (Q-ids, P-ids); ValueError names the bad setting."""
        seeds = tuple(dict.fromkeys(normalize_qid(s) for s in self.seeds))
        if not seeds:
            raise ValueError("give at least one seed entity, e.g. --seeds Q30,Q183")
        for name, value, low in (
            ("steps", self.steps, 1),
            ("limit", self.limit, 1),
            ("frontier cap", self.frontier_cap, 1),
            ("chunk size", self.chunk_size, 1),
            ("min languages", self.min_languages, 0),
            ("min sitelinks", self.min_sitelinks, 0),
        ):
            if value < low:
                raise ValueError(f"{name} must be at least {low}, got {value}")
        if self.chunk_size > 500:
            raise ValueError(f"chunk size must be at most 500 ids, got {self.chunk_size}")
        if not 0 < self.max_subject_share <= 1:
            raise ValueError("max subject share must be in (0, 1]")
        if self.max_object_degree <= 0:
            raise ValueError("max object degree must be positive")
        dead = tuple(dict.fromkeys(normalize_pid(p) for p in self.dead_predicates))
        return WalkConfig(**{**asdict(self), "seeds": seeds, "dead_predicates": dead})

    def fingerprint(self) -> str:
        """A hash of the settings that decide the walk (not the predicate analysis)."""
        walk = {
            k: v
            for k, v in asdict(self).items()
            if k
            in (
                "seeds",
                "steps",
                "limit",
                "frontier_cap",
                "chunk_size",
                "seed",
                "require_aliases",
                "min_languages",
                "min_sitelinks",
            )
        }
        return hashlib.sha256(json.dumps(walk, sort_keys=True).encode()).hexdigest()[:16]

    def rule(self) -> PredicateRule:
        return PredicateRule(
            dead_list=frozenset(self.dead_predicates),
            max_object_degree=self.max_object_degree,
            max_subject_share=self.max_subject_share,
            min_subjects=self.min_subjects_for_share,
        )


@dataclass
class BuildResult:
    """The graph in memory, and what the build decided on the way."""

    parsed: ParsedKG
    dead: dict[str, str]
    rejected: dict[str, str]
    steps_walked: int
    warnings: list[str] = field(default_factory=list)
    dated_edges: int = 0


@dataclass
class BuildReport:
    """What `build_wikidata` stored."""

    name: str
    entities: int
    predicates: int
    edges: int
    active_edges: int
    dead: dict[str, str]
    predicate_labels: dict[str, str]
    no_alias: int
    few_languages: int
    few_sitelinks: int
    min_sitelinks: int
    dated_edges: int
    steps_walked: int
    requests: int
    cache_hits: int
    seconds: float
    warnings: list[str] = field(default_factory=list)

    def summary(self) -> str:
        """One paragraph for the terminal."""
        rare = (
            f", {self.few_sitelinks:,} with fewer than {self.min_sitelinks:,} sitelinks"
            if self.min_sitelinks
            else ""
        )
        return (
            f"built '{self.name}' from Wikidata in {self.steps_walked} steps: "
            f"{self.entities:,} entities, {self.predicates:,} predicates ({len(self.dead):,} dead), "
            f"{self.edges:,} edges ({self.active_edges:,} active, {self.dated_edges:,} dated); "
            f"left out {self.no_alias:,} entities without an English alias, "
            f"{self.few_languages:,} labelled in too few languages{rare}; "
            f"{self.requests:,} requests, {self.cache_hits:,} answered from the cache, "
            f"{self.seconds:.1f}s"
        )


class _Builder:
    def __init__(
        self,
        client: SparqlClient,
        config: WalkConfig,
        progress: ProgressFn | None,
        state_path: Path | None,
    ) -> None:
        self.client, self.config, self.progress = client, config, progress
        self.state_path = state_path
        fingerprint = config.fingerprint()
        self.state = load_state(state_path, fingerprint) or WalkState(
            fingerprint=fingerprint, frontier=list(config.seeds), seen=set(config.seeds)
        )

    def run(self) -> BuildResult:
        cfg, state = self.config, self.state
        while state.next_step <= cfg.steps and state.frontier:
            self._step(state.next_step)
        steps_walked = min(state.next_step - 1, cfg.steps)
        edges = self._kept_edges()
        forward = [e for e in edges if state.edges[e] == FORWARD]
        dead = dead_predicates({p for _, p, _ in edges}, forward, cfg.rule())
        self._complete(edges, dead)
        edges = self._kept_edges()
        if not edges:
            raise WikidataError(
                "the walk found no edges between entities that pass the filters "
                "(check the seeds, or lower --min-languages)"
            )
        nodes = {e[0] for e in edges} | {e[2] for e in edges}
        warnings = [
            f"seed {s} has no edge in the graph (it needs an English label and description)"
            for s in cfg.seeds
            if s not in nodes
        ]
        dates = self._dates(edges)
        facets = self._facets(nodes)
        parsed = self._parsed(edges, dead, dates, facets)
        return BuildResult(parsed, dead, state.rejected, steps_walked, warnings, len(dates))

    def _run(self, stage: str, queries: list[str]) -> Iterator[tuple[str, list[Binding]]]:
        total = len(queries)
        for i, query in enumerate(queries, start=1):
            if self.progress is not None:
                self.progress(stage, i - 1, total)
            label = stage if total == 1 else f"{stage}, chunk {i}/{total}"
            yield label, self.client.select(query, label)
        if self.progress is not None and total:
            self.progress(stage, total, total)

    def _step(self, step: int) -> None:
        cfg, state = self.config, self.state
        stage = f"step {step}/{cfg.steps}"
        groups = chunks(state.frontier, cfg.chunk_size)
        found: set[str] = set()
        for direction, make in ((FORWARD, forward_query), (BACKWARD, backward_query)):
            queries = [make(group, cfg.limit) for group in groups]
            for label, bindings in self._run(f"{stage} {direction} walk", queries):
                for row in walk_rows(bindings, label):
                    state.add_entity(row.subject, row.subject_label, row.subject_desc)
                    state.add_entity(row.object, row.object_label, row.object_desc)
                    state.predicates.setdefault(
                        row.predicate, (row.predicate_label, row.predicate_desc)
                    )
                    state.add_edge((row.subject, row.predicate, row.object), direction)
                    found.update((row.subject, row.object))
        new = found - state.seen
        state.seen |= new
        force = set(cfg.seeds) if step == 1 else set()
        self._filter(new | force, stage, force)
        passed = sorted((q for q in new if q in state.kept), key=_qnum)
        rng = random.Random(f"{cfg.seed}:{step}")
        sample = rng.sample(passed, min(cfg.frontier_cap, len(passed)))
        state.frontier = sorted(sample, key=_qnum)
        state.next_step = step + 1
        save_state(self.state_path, state)

    def _filter(self, ids: set[str], stage: str, force: Set[str] = frozenset()) -> None:
        """Fetch aliases (and label language counts) and decide which entities stay."""
        cfg, state = self.config, self.state
        todo = sorted(
            (q for q in ids if q not in state.kept and q not in state.rejected), key=_qnum
        )
        if not todo:
            return
        queries = [aliases_query(group) for group in chunks(todo, cfg.chunk_size)]
        for label, bindings in self._run(f"{stage} aliases", queries):
            for row in bindings:
                qid = item_id(row.get("item"))
                alias = text(row, "alias", label)
                if qid is not None and alias:
                    state.aliases.setdefault(qid, []).append(alias)
        for qid in todo:
            if cfg.require_aliases and qid not in force and not state.aliases.get(qid):
                state.rejected[qid] = NO_ALIAS
        counted = [q for q in todo if q not in state.rejected]
        if (cfg.min_languages > 1 or cfg.min_sitelinks > 0) and counted:
            queries = [languages_query(group) for group in chunks(counted, cfg.chunk_size)]
            what = "languages" if cfg.min_languages > 1 else "sitelinks"
            for label, bindings in self._run(f"{stage} {what}", queries):
                for row in bindings:
                    qid = item_id(row.get("item"))
                    if qid is not None:
                        state.languages[qid] = int_value(row, "languages", label)
                        if "sitelinks" in row:
                            state.sitelinks[qid] = int_value(row, "sitelinks", label)
            for qid in counted:
                if qid not in force:
                    self._judge(qid)
        state.kept.update(q for q in todo if q not in state.rejected)

    def _judge(self, qid: str) -> None:
        """Reject an entity labelled in too few languages or with too few sitelinks."""
        cfg, state = self.config, self.state
        n = state.languages.get(qid, 0)
        links = state.sitelinks.get(qid, 0)
        if cfg.min_languages > 1 and n < cfg.min_languages:
            state.rejected[qid] = f"labels in {n} languages (< {cfg.min_languages})"
        elif links < cfg.min_sitelinks:
            state.rejected[qid] = f"{links} {FEW_SITELINKS} (< {cfg.min_sitelinks})"

    def _complete(self, edges: list[Edge], dead: dict[str, str]) -> None:
        """Fetch every object of each kept (subject, active predicate) pair."""
        state = self.state
        pairs = sorted({(s, p) for s, p, _ in edges if p not in dead})
        wanted = set(pairs)
        queries = [completion_query(group) for group in chunks(pairs, self.config.chunk_size)]
        found: set[str] = set()
        for label, bindings in self._run("completing T(s, p)", queries):
            for row in bindings:
                s, p = item_id(row.get("subject")), property_id(row.get("predicate"))
                o = item_id(row.get("object"))
                if s is None or p is None or o is None or (s, p) not in wanted:
                    continue
                object_label = text(row, "objectLabel", label, required=False) or o
                state.add_entity(o, object_label, text(row, "objectDesc", label, required=False))
                state.add_edge((s, p, o), COMPLETION)
                found.add(o)
        new = found - state.seen
        state.seen |= new
        self._filter(new, "completion")

    def _dates(self, edges: list[Edge]) -> dict[Edge, Dates]:
        """The dates of each edge with dated statements (see `dates`)."""
        wanted = set(edges)
        found: dict[Edge, list[Dates]] = {}
        queries = [dates_query(group) for group in chunks(edges, self.config.chunk_size)]
        for _, bindings in self._run("dates of statements", queries):
            for edge, dates in edge_dates(bindings, wanted):
                found.setdefault(edge, []).append(dates)
        return {edge: latest(statements) for edge, statements in found.items()}

    def _facets(self, nodes: set[str]) -> Facets:
        """Classes and countries of the KG's entities (see `facets`)."""
        facets = Facets()
        ordered = sorted(nodes, key=_qnum)
        queries = [facets_query(group) for group in chunks(ordered, self.config.chunk_size)]
        for label, bindings in self._run("types and countries", queries):
            facets.add(bindings, label)
        return facets

    def _kept_edges(self) -> list[Edge]:
        state = self.state
        return sorted(
            e for e in state.edges if e[0] in state.kept and e[2] in state.kept and e[0] != e[2]
        )

    def _parsed(
        self, edges: list[Edge], dead: dict[str, str], dates: dict[Edge, Dates], facets: Facets
    ) -> ParsedKG:
        state, cfg = self.state, self.config
        parsed = ParsedKG()
        nearest = nearest_seeds(cfg.seeds, edges)
        for qid in sorted({e[0] for e in edges} | {e[2] for e in edges}, key=_qnum):
            label, description = state.entities[qid]
            seeds = [state.entities[s][0] for s in nearest.get(qid, [])]
            parsed.add_entity(
                EntityRow(
                    key=qid,
                    label=label,
                    aliases=clean_aliases(
                        label, sorted(state.aliases.get(qid, []), key=lambda a: (a.casefold(), a))
                    ),
                    type=facets.type_of(qid),
                    groups=group_tags(qid, facets, seeds),
                    description=description,
                )
            )
        temporal = {p for _, p, _ in dates}
        for pid in sorted({e[1] for e in edges}, key=_qnum):
            label, description = state.predicates[pid]
            parsed.add_predicate(
                PredicateRow(
                    key=pid,
                    label=label,
                    description=description,
                    active=pid not in dead,
                    temporal=pid in temporal,
                    templates=default_templates(label),
                )
            )
        eidx, pidx = parsed.entity_index, parsed.predicate_index
        for s, p, o in edges:
            source = f"wikidata:{state.edges[(s, p, o)]}"
            when = list(dates.get((s, p, o), [None, None, None]))
            parsed.add_triple(eidx[s], pidx[p], eidx[o], when, source, 0)
        finish_parsed(parsed)
        parsed.subsets["seeds"] = [eidx[s] for s in cfg.seeds if s in eidx]
        parsed.meta = {
            "description": f"Wikidata random walk of {cfg.steps} steps from {', '.join(cfg.seeds)}",
            "snapshot_date": datetime.now(UTC).date().isoformat(),
        }
        return parsed


def state_file(cache_dir: Path, config: WalkConfig) -> Path:
    """Where the walk state of this configuration is saved between steps."""
    return Path(cache_dir) / "walks" / f"{config.fingerprint()}.json"


def build_wikidata(
    conn: sqlite3.Connection,
    name: str,
    config: WalkConfig,
    client: SparqlClient,
    *,
    replace: bool = False,
    progress: ProgressFn | None = None,
    cache_dir: Path | None = None,
) -> BuildReport:
    """Build a KG from Wikidata and store it under `name`; nothing is written on any error.

    With `cache_dir`, the walk state is saved there after every step (and removed once the KG
    is stored), so a rerun after an interruption resumes; give the client a ResponseCache in the
    same directory to skip finished queries too.
    """
    started = time.perf_counter()
    config = config.validate()
    if not replace and kg_exists(conn, name):
        raise KGExistsError(f"a KG named '{name}' already exists (use --replace to overwrite)")
    path = state_file(cache_dir, config) if cache_dir is not None else None
    result = _Builder(client, config, progress, path).run()
    parsed = result.parsed
    if progress is not None:
        progress("writing", 0, 1)
    source = f"wikidata:{client.endpoint} seeds={','.join(config.seeds)} steps={config.steps}"
    write_kg(conn, parsed, name, source=source, replace=replace)
    if progress is not None:
        progress("writing", 1, 1)
    if path is not None:
        path.unlink(missing_ok=True)
    rejected = list(result.rejected.values())
    return BuildReport(
        name=name,
        entities=len(parsed.entities),
        predicates=len(parsed.predicates),
        edges=parsed.edge_count,
        active_edges=sum(1 for p in parsed.preds if parsed.predicates[p].active),
        dead=result.dead,
        predicate_labels={p.key: p.label for p in parsed.predicates},
        no_alias=sum(1 for r in rejected if r == NO_ALIAS),
        few_languages=sum(1 for r in rejected if r.startswith("labels in")),
        few_sitelinks=sum(1 for r in rejected if FEW_SITELINKS in r),
        min_sitelinks=config.min_sitelinks,
        dated_edges=result.dated_edges,
        steps_walked=result.steps_walked,
        requests=client.requests,
        cache_hits=client.cache_hits,
        seconds=time.perf_counter() - started,
        warnings=result.warnings,
    )
