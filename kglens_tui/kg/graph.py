"""A KG loaded for probing: numpy arrays of edges, true sets T(s, p), candidate sets C_p,
hard negatives and one-hop neighbourhoods fit for vectorised updates."""

from __future__ import annotations

import json
import shlex
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from kglens_tui.core.errors import KGLensError, NotFoundError
from kglens_tui.core.scalar_draws import ScalarDraws
from kglens_tui.kg.bundled import renamed_bundled

if TYPE_CHECKING:
    import networkx as nx


class KGNotFoundError(KGLensError, LookupError):
    """No KG of that name in the workspace."""


class UnknownPredicateError(KGLensError, ValueError):
    """A predicate name that is no key or label of the KG."""


@dataclass
class KGIndex:
    """Edges of one KG as parallel numpy arrays; nodes and predicates as dense indexes."""

    kg_id: int
    name: str
    content_hash: str
    entity_db_ids: np.ndarray
    entity_keys: list[str]
    labels: list[str]
    aliases: list[list[str]]
    types: list[str]
    groups: list[list[str]]
    pred_keys: list[str]
    pred_labels: list[str]
    pred_templates: list[dict[str, Any]]
    pred_active: npt.NDArray[np.bool_]
    edge_ids: npt.NDArray[np.int64]
    s: npt.NDArray[np.int64]
    p: npt.NDArray[np.int64]
    o: npt.NDArray[np.int64]
    start: list[str | None]
    end: list[str | None]
    point_in_time: list[str | None]
    _true: dict[tuple[int, int], np.ndarray] = field(default_factory=dict, repr=False)
    _cands: dict[int, np.ndarray] = field(default_factory=dict, repr=False)
    _key_index: dict[str, int] = field(default_factory=dict, repr=False)
    _edge_pos: dict[int, int] = field(default_factory=dict, repr=False)
    _type_code: np.ndarray = field(default_factory=lambda: np.empty(0, np.int64), repr=False)
    _typed_cands: dict[tuple[int, int], np.ndarray] = field(default_factory=dict, repr=False)
    _name_index: dict[int, dict[str, list[int]]] = field(default_factory=dict, repr=False)
    _not_false: dict[tuple[int, int], np.ndarray] = field(default_factory=dict, repr=False)
    _subject_true: dict[tuple[int, int], frozenset[int]] = field(default_factory=dict, repr=False)
    _true_names: dict[tuple[int, int], frozenset[str]] = field(default_factory=dict, repr=False)
    _folded: dict[int, frozenset[str]] = field(default_factory=dict, repr=False)
    _kept: _KeptKG | None = field(default=None, repr=False, compare=False)
    """The KG `load_kg` kept, for a KG it handed out: the arrays worked out from the rows alone
    (`_shares_a_name`, `_false_object`) are taken from it, worked out once for all its copies."""

    def __post_init__(self) -> None:
        order = np.lexsort((self.o, self.p, self.s))
        s, p, o = self.s[order], self.p[order], self.o[order]
        if len(s):
            breaks = np.flatnonzero((np.diff(s) != 0) | (np.diff(p) != 0)) + 1
            starts = np.concatenate(([0], breaks))
            ends = np.concatenate((breaks, [len(s)]))
            keys = zip(s[starts].tolist(), p[starts].tolist(), strict=True)
            for key, a, b in zip(keys, starts.tolist(), ends.tolist(), strict=True):
                self._true[key] = o[a:b]
        for pi in range(len(self.pred_keys)):
            self._cands[pi] = np.unique(self.o[self.p == pi])
        self._key_index = {k: i for i, k in enumerate(self.entity_keys)}
        codes = {t: i for i, t in enumerate(sorted(set(self.types)))}
        self._type_code = np.array([codes[t] for t in self.types], dtype=np.int64)
        self._edge_pos = {int(e): i for i, e in enumerate(self.edge_ids.tolist())}

    def copy(self) -> KGIndex:
        """A copy sharing nothing a caller could change, every field copied (`_copied`) rather
        than its indexes built again."""
        twin = object.__new__(KGIndex)
        for f in fields(self):
            setattr(twin, f.name, _copied(getattr(self, f.name)))
        return twin

    @property
    def active_mask(self) -> np.ndarray:
        """True for edges whose predicate is active (asked about); dead edges are False."""
        return self.pred_active[self.p]

    def node(self, key: str) -> int:
        """The node index of an entity key."""
        try:
            return self._key_index[key]
        except KeyError:
            raise NotFoundError(f"no entity '{key}' in KG '{self.name}'") from None

    @cached_property
    def node_of_entity(self) -> dict[int, int]:
        """Entity database id -> node index."""
        return {int(e): i for i, e in enumerate(self.entity_db_ids.tolist())}

    def edge_position(self, edge_id: int) -> int:
        """The array position of an edge's database id."""
        return self._edge_pos[edge_id]

    def has_edge(self, edge_id: int) -> bool:
        """Whether the KG holds an edge of this database id."""
        return edge_id in self._edge_pos

    def true_objects(self, s: int, p: int) -> np.ndarray:
        """T(s, p): every object the KG states for subject s and predicate p."""
        found = self._true.get((s, p))
        return np.empty(0, dtype=self.o.dtype) if found is None else found

    def out_degree(self, s: int, p: int) -> int:
        """How many objects subject s has for predicate p."""
        return len(self.true_objects(s, p))

    def candidates(self, p: int) -> np.ndarray:
        """C_p: every object that predicate p has for any subject."""
        found = self._cands.get(p)
        return np.empty(0, dtype=self.o.dtype) if found is None else found

    def hard_negative(
        self, s: int, p: int, rng: np.random.Generator | ScalarDraws, like: int | None = None
    ) -> int | None:
        """A random object from C_p minus T(s, p), of the same type as `like` when possible.

        Never the subject itself nor a namesake of it or of a true object (see `not_false`).
        Returns None when no candidate is false for this subject (nothing false to ask).
        Draws at random and rejects the excluded; falls back to the exact set difference when
        they cover most of the pool.
        """
        nodes = self._subject_and_true(s, p)
        shared = self._shares_a_name
        pools = []
        if like is not None and self.types[like]:
            pools.append(self._same_type_candidates(p, int(self._type_code[like])))
        pools.append(self.candidates(p))
        for pool in pools:
            if len(pool) == 0:
                continue
            for _ in range(16):
                pick = int(pool[int(rng.integers(len(pool)))])
                # a name of a node no other node has cannot be a name of the subject or of a
                # true object: their names are looked at only for a pick sharing one
                if pick not in nodes and (
                    not shared[pick] or self._true_names_of(s, p).isdisjoint(self._names(pick))
                ):
                    return pick  # a candidate of p: what `not_false` would not hold
            rest = np.setdiff1d(pool, self.not_false(s, p), assume_unique=True)
            if len(rest):
                return int(rest[int(rng.integers(len(rest)))])
        return None

    def not_false(self, s: int, p: int) -> np.ndarray:
        """Sorted nodes that are no wrong answer for (s, p): the true objects, the subject (no
        "Bolivia borders Bolivia") and every candidate sharing a name (label or alias, case
        aside) with one of them, since naming it would make the statement true."""
        key = (s, p)
        out = self._not_false.get(key)
        if out is None:
            index = self._names_of_candidates(p)
            nodes = set(self._subject_and_true(s, p))
            for name in self._true_names_of(s, p):
                nodes.update(index.get(name, ()))
            out = self._not_false[key] = np.array(sorted(nodes), dtype=self.o.dtype)
        return out

    def _subject_and_true(self, s: int, p: int) -> frozenset[int]:
        """The subject and its true objects for p (kept): what no wrong answer may be."""
        nodes = self._subject_true.get((s, p))
        if nodes is None:
            nodes = self._subject_true[(s, p)] = frozenset((s, *self.true_objects(s, p).tolist()))
        return nodes

    def has_false_object(self, positions: Sequence[int] | np.ndarray) -> npt.NDArray[np.bool_]:
        """For each edge position: whether `hard_negative` finds a false object for its subject
        and predicate. Where it does not, every Yes/No question about the edge asks about a true
        object and expects Yes (a constant Yes answers them all right). Worked out once for
        every edge of the KG (`_false_object`)."""
        return self._false_object[np.asarray(positions, dtype=np.int64)]

    @cached_property
    def _false_object(self) -> npt.NDArray[np.bool_]:
        """`has_false_object` of every edge position (read-only)."""
        if self._kept is not None:
            return self._kept.derived("_false_object")
        return _read_only(self._false_objects())

    def _false_objects(self) -> npt.NDArray[np.bool_]:
        if not len(self.s):
            return np.zeros(0, dtype=bool)
        n_preds = max(len(self.pred_keys), int(self.p.max()) + 1)
        pool = np.array([len(self.candidates(pi)) for pi in range(n_preds)], dtype=np.int64)
        shared = self._shares_a_name
        namesakes = np.array(
            [int(shared[self.candidates(pi)].sum()) for pi in range(n_preds)], dtype=np.int64
        )
        s, p = self.s, self.p
        _, pair, counts = np.unique(s * n_preds + p, return_inverse=True, return_counts=True)
        true_count = counts[pair]
        # what `not_false` leaves out of the pool is at most the true objects, the subject and
        # the pool's nodes that share a name: a larger pool surely has a false object
        out: npt.NDArray[np.bool_] = pool[p] > true_count + 1 + namesakes[p]
        unsure = np.flatnonzero(~out)
        if len(unsure):
            keys = np.unique(np.stack((s[unsure], p[unsure]), axis=1), axis=0)
            found = {
                (a, b): bool(len(np.setdiff1d(self.candidates(b), self.not_false(a, b))))
                for a, b in keys.tolist()
            }
            out[unsure] = [
                found[(a, b)] for a, b in zip(s[unsure].tolist(), p[unsure].tolist(), strict=True)
            ]
        return out

    def _true_names_of(self, s: int, p: int) -> frozenset[str]:
        """Every name of the subject and its true objects for p, case aside (kept): what no
        wrong answer may be called."""
        names = self._true_names.get((s, p))
        if names is None:
            names = self._true_names[(s, p)] = frozenset().union(
                *(self._names(n) for n in self._subject_and_true(s, p))
            )
        return names

    @cached_property
    def _shares_a_name(self) -> npt.NDArray[np.bool_]:
        """For each node: whether another node has one of its names, case aside (built at the
        first hard negative drawn; read-only)."""
        if self._kept is not None:
            return self._kept.derived("_shares_a_name")
        owner: dict[str, int] = {}
        shared: list[int] = []
        for node, (label, aliases) in enumerate(zip(self.labels, self.aliases, strict=True)):
            for name in (label, *aliases):
                first = owner.setdefault(name.casefold(), node)
                if first != node:
                    shared += (first, node)
        out = np.zeros(len(self.labels), dtype=bool)
        out[shared] = True
        return _read_only(out)

    def names(self, node: int) -> tuple[str, ...]:
        """An entity's label followed by its aliases."""
        return (self.labels[node], *self.aliases[node])

    def _names(self, node: int) -> frozenset[str]:
        """An entity's names, case aside (kept)."""
        folded = self._folded.get(node)
        if folded is None:
            folded = self._folded[node] = frozenset(n.casefold() for n in self.names(node))
        return folded

    def _names_of_candidates(self, p: int) -> dict[str, list[int]]:
        index = self._name_index.get(p)
        if index is None:
            index = self._name_index[p] = {}
            for node in self.candidates(p).tolist():
                for name in self._names(node):
                    index.setdefault(name, []).append(node)
        return index

    def _same_type_candidates(self, p: int, type_code: int) -> np.ndarray:
        key = (p, type_code)
        pool = self._typed_cands.get(key)
        if pool is None:
            cands = self.candidates(p)
            pool = cands[self._type_code[cands] == type_code]
            self._typed_cands[key] = pool
        return pool

    def to_networkx(self, positions: np.ndarray | None = None) -> nx.MultiDiGraph:
        """The KG (or the given edges) as a networkx multigraph keyed by entity keys."""
        import networkx as nx  # slow to import, and only needed here: not at CLI start-up

        graph = nx.MultiDiGraph(name=self.name)
        chosen = np.arange(len(self.s)) if positions is None else positions
        for i in chosen.tolist():
            s, o = int(self.s[i]), int(self.o[i])
            graph.add_node(self.entity_keys[s], label=self.labels[s], type=self.types[s])
            graph.add_node(self.entity_keys[o], label=self.labels[o], type=self.types[o])
            graph.add_edge(
                self.entity_keys[s],
                self.entity_keys[o],
                key=int(self.edge_ids[i]),
                predicate=self.pred_keys[int(self.p[i])],
            )
        return graph


DENSE_EDGES = 4096
"""On a graph of up to this many edges `Neighbourhood` finds and counts a batch's neighbours (a
batch of up to 64 edges) in arrays over all the edges instead of sorting the pairs: the same
result, up to twice as fast (a batch of 16 on the 446 edges of paper16: 43 us against 66); on
bigger graphs the arrays cost more than the sort."""


class Neighbourhood:
    """One-hop neighbourhoods among a set of edges: two edges are neighbours when they share a
    node (subject or object, incoming or outgoing). Stored as a node -> edges CSR incidence."""

    def __init__(self, s: np.ndarray, o: np.ndarray, n_nodes: int) -> None:
        self.s = np.asarray(s, dtype=np.int64)
        self.o = np.asarray(o, dtype=np.int64)
        n_edges = len(self.s)
        ends = np.concatenate((self.s, self.o))
        owner = np.concatenate((np.arange(n_edges), np.arange(n_edges)))
        loops = self.s == self.o
        keep = np.concatenate((np.ones(n_edges, bool), ~loops))
        ends, owner = ends[keep], owner[keep]
        order = np.argsort(ends, kind="stable")
        self.incident = owner[order]
        self.indptr = np.zeros(n_nodes + 1, dtype=np.int64)
        np.add.at(self.indptr, ends + 1, 1)
        np.cumsum(self.indptr, out=self.indptr)
        self.n_edges = n_edges

    def degree(self, nodes: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """How many edges touch each node."""
        return self.indptr[nodes + 1] - self.indptr[nodes]

    def pairs(self, edges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(i, neighbour) pairs: neighbour shares a node with edges[i]; each pair once."""
        edges = np.asarray(edges, dtype=np.int64)
        if len(edges) == 0:
            empty = np.empty(0, dtype=np.int64)
            return empty, empty
        nodes = np.concatenate((self.s[edges], self.o[edges]))
        slot = np.tile(np.arange(len(edges), dtype=np.int64), 2)
        starts, counts = self.indptr[nodes], self.degree(nodes)
        total = int(counts.sum())
        rep_slot = np.repeat(slot, counts)
        offsets = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
        nbr = self.incident[np.repeat(starts, counts) + offsets]
        keep = nbr != edges[rep_slot]
        pair_keys = rep_slot[keep] * self.n_edges + nbr[keep]
        cells = len(edges) * self.n_edges
        if self.n_edges <= DENSE_EDGES and cells <= 64 * DENSE_EDGES:  # as np.unique gives them
            marked = np.zeros(cells, dtype=bool)
            marked[pair_keys] = True
            combined = np.flatnonzero(marked)
        else:
            combined = np.unique(pair_keys)
        return combined // self.n_edges, combined % self.n_edges

    def neighbour_counts(self, chunk: int = 4096) -> npt.NDArray[np.float64]:
        """How many edges share a node with each edge (computed in chunks to bound memory)."""
        counts = np.zeros(self.n_edges, dtype=np.float64)
        for start in range(0, self.n_edges, chunk):
            edges = np.arange(start, min(start + chunk, self.n_edges))
            idx, _ = self.pairs(edges)
            counts[start : start + len(edges)] = np.bincount(idx, minlength=len(edges))
        return counts

    def neighbours(self, edge: int) -> np.ndarray:
        """Positions of the edges sharing a node with one edge."""
        _, nbr = self.pairs(np.array([edge]))
        return nbr

    def propagate_sparse(
        self, edges: np.ndarray, failed: np.ndarray, succeeded: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(touched edges, M, N) for the edges that have an evaluated neighbour only."""
        idx, nbr = self.pairs(np.asarray(edges, dtype=np.int64))
        fail_w = np.asarray(failed, dtype=np.float64)[idx]
        succ_w = np.asarray(succeeded, dtype=np.float64)[idx]
        if self.n_edges <= DENSE_EDGES:  # each edge's sums in the same order, without a sort
            touched = np.flatnonzero(np.bincount(nbr, minlength=self.n_edges))
            m = np.bincount(nbr, weights=fail_w, minlength=self.n_edges)[touched]
            n = np.bincount(nbr, weights=succ_w, minlength=self.n_edges)[touched]
            return touched, m, n
        touched, inverse = np.unique(nbr, return_inverse=True)
        m = np.bincount(inverse, weights=fail_w, minlength=len(touched))
        n = np.bincount(inverse, weights=succ_w, minlength=len(touched))
        return touched, m, n

    def propagate(
        self, edges: np.ndarray, failed: np.ndarray, succeeded: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """M and N of the paper's eq. 2-3: for every edge, how many of the evaluated `edges` that
        are its neighbours failed (M) and succeeded (N)."""
        touched, m_touched, n_touched = self.propagate_sparse(edges, failed, succeeded)
        m = np.zeros(self.n_edges, dtype=np.float64)
        n = np.zeros(self.n_edges, dtype=np.float64)
        m[touched], n[touched] = m_touched, n_touched
        return m, n


def _json_lists(texts: Iterable[str]) -> list[list[str]]:
    """`json.loads` of each text (a column of JSON lists of names, most of them "[]" or shared
    by many entities), decoding each distinct list of strings once: every entity still gets a
    list of its own."""
    decoded: dict[str, list[str]] = {}
    out: list[list[str]] = []
    for text in texts:
        known = decoded.get(text)
        if known is not None:
            out.append(known.copy())
            continue
        value = json.loads(text)
        if type(value) is list and all(type(x) is str for x in value):
            decoded[text] = value
        out.append(value)
    return out


def _renamed_note(conn: sqlite3.Connection, name: str) -> str:
    """Where the bundled KG `name` is if it was renamed away (not imported again: see
    bundled.ensure_kg), as the tail of a not-found line; empty otherwise."""
    copy = renamed_bundled(conn, name)
    if copy is None:
        return ""
    return (
        f"; the bundled KG '{name}' is in it as '{copy}' (renamed): "
        f"`kglens kg rename {shlex.quote(copy)} {shlex.quote(name)}` gives it its name back"
    )


def _copied(value: Any) -> Any:
    """A copy of a KGIndex field: arrays, dicts and lists copied all the way down (a list's
    items, and those of the lists in it, are all of one kind), strings and other immutable
    values shared. The common shapes (a dict of immutable values or of arrays, a list of lists
    of immutable values) are copied without a call per item."""
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, dict):
        kinds = set(map(type, value.values()))
        if _immutable(kinds):
            return value.copy()
        if kinds == {np.ndarray}:
            return {key: item.copy() for key, item in value.items()}
        return {key: _copied(item) for key, item in value.items()}
    if isinstance(value, list):
        if not value or not isinstance(value[0], (list, dict, np.ndarray)):
            return list(value)
        if type(value[0]) is list:  # lists of lists: the inner lists' items of one kind too
            first = next((inner[0] for inner in value if inner), None)
            if not isinstance(first, (list, dict, np.ndarray)):
                return [item.copy() for item in value]
        return [_copied(item) for item in value]
    return value


def _immutable(kinds: set[type]) -> bool:
    """Whether values of these types are shared by a copy (none is a list, dict or array)."""
    return not any(issubclass(kind, (list, dict, np.ndarray)) for kind in kinds)


def _read_only(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """`array`, made read-only (shared by a KG's copies: none of them may change it)."""
    array.setflags(write=False)
    return array


class _KeptKG:
    """A KG `load_kg` built lately, never handed out: it hands out copies of it. What a copy
    works out from the rows alone (`KGIndex._shares_a_name`, `KGIndex._false_object`: read-only
    arrays) is worked out once, on a copy of its own that no caller sees (and changes), and
    shared by every copy: each copy worked them out again (11 ms of the Country KG's loads)."""

    def __init__(self, index: KGIndex) -> None:
        self.index = index
        self._lock = threading.Lock()
        self._own: KGIndex | None = None

    def copy(self) -> KGIndex:
        """A copy of the KG for a caller (KGIndex.copy), sharing the derived arrays."""
        twin = self.index.copy()
        twin._kept = self
        return twin

    def derived(self, name: str) -> npt.NDArray[Any]:
        """The read-only array KGIndex's cached property `name` gives on the KG as built."""
        with self._lock:  # worked out once, by the first thread asking
            if self._own is None:
                self._own = self.index.copy()
            found: npt.NDArray[Any] = getattr(self._own, name)
            return found


_LOADED_KEPT = 4
"""KGs `load_kg` keeps, with the rows each was built from."""
_LOADED_MAX_EDGES = 200_000
"""Larger KGs are not kept: their rows and a copy would hold hundreds of MB for the process's
life, to save a build that is a small part of what a command on them does."""
_loaded: dict[tuple[Any, ...], tuple[tuple[list[Any], ...], _KeptKG]] = {}
_loaded_lock = threading.Lock()


def load_kg(conn: sqlite3.Connection, name: str) -> KGIndex:
    """Load every edge of a KG with labels, aliases, types and templates. Its rows are read
    each time; a KG whose rows are those of one built lately (another command or run on the
    same KG, in any workspace) is a copy of it, not built again: building is half the load."""
    row = conn.execute("SELECT id, name, content_hash FROM kg WHERE name = ?", (name,)).fetchone()
    if row is None:
        from kglens_tui.kg.bundled_data import bundled_names

        names = [r[0] for r in conn.execute("SELECT name FROM kg ORDER BY name")]
        bundled = [b for b in bundled_names() if b not in names]
        known = ", ".join(names) if names else "none imported yet"
        if bundled:  # imported on first use
            known += f"; bundled: {', '.join(bundled)}"
        raise KGNotFoundError(
            f"no KG named '{name}' in this workspace (known: {known}){_renamed_note(conn, name)}"
        )
    kg_id = int(row[0])
    rows = conn.cursor()
    rows.row_factory = None  # plain tuples: a sqlite3.Row each costs a quarter of the load
    ents = rows.execute(
        "SELECT id, key, label, aliases, type, groups FROM entity WHERE kg_id = ? ORDER BY id",
        (kg_id,),
    ).fetchall()
    preds = rows.execute(
        "SELECT id, key, label, templates, active FROM predicate WHERE kg_id = ? ORDER BY id",
        (kg_id,),
    ).fetchall()
    edges = rows.execute(
        "SELECT id, subject_id, predicate_id, object_id, start_time, end_time, point_in_time "
        "FROM edge WHERE kg_id = ? ORDER BY id",
        (kg_id,),
    ).fetchall()
    key, read = tuple(row), (ents, preds, edges)
    with _loaded_lock:
        kept = _loaded.get(key)
    if kept is not None and kept[0] == read:
        return kept[1].copy()
    built = _build_index(kg_id, row, ents, preds, edges)
    if len(edges) > _LOADED_MAX_EDGES:
        return built
    keep = _KeptKG(built.copy())
    built._kept = keep
    with _loaded_lock:
        _loaded.pop(key, None)
        _loaded[key] = (read, keep)
        while len(_loaded) > _LOADED_KEPT:
            del _loaded[next(iter(_loaded))]
    return built


def _build_index(
    kg_id: int,
    row: Sequence[Any],
    ents: list[Any],
    preds: list[Any],
    edges: list[Any],
) -> KGIndex:
    """The KGIndex of a KG's rows as `load_kg` reads them."""
    ent_db = np.array([e[0] for e in ents], dtype=np.int64)
    node_of = {int(e[0]): i for i, e in enumerate(ents)}
    pred_of = {int(p[0]): i for i, p in enumerate(preds)}
    n = len(edges)
    return KGIndex(
        kg_id=kg_id,
        name=row[1],
        content_hash=row[2],
        entity_db_ids=ent_db,
        entity_keys=[e[1] for e in ents],
        labels=[e[2] for e in ents],
        aliases=_json_lists(e[3] for e in ents),
        types=[e[4] for e in ents],
        groups=_json_lists(e[5] for e in ents),
        pred_keys=[p[1] for p in preds],
        pred_labels=[p[2] for p in preds],
        pred_templates=[json.loads(p[3]) for p in preds],
        pred_active=np.array([bool(p[4]) for p in preds], dtype=bool),
        edge_ids=np.fromiter((e[0] for e in edges), dtype=np.int64, count=n),
        s=np.fromiter((node_of[e[1]] for e in edges), dtype=np.int64, count=n),
        p=np.fromiter((pred_of[e[2]] for e in edges), dtype=np.int64, count=n),
        o=np.fromiter((node_of[e[3]] for e in edges), dtype=np.int64, count=n),
        start=[e[4] for e in edges],
        end=[e[5] for e in edges],
        point_in_time=[e[6] for e in edges],
    )


def predicate_lookup(kg: KGIndex) -> dict[str, int]:
    """Predicate index by casefolded key or label; a key wins over another predicate's label,
    and the first of several predicates sharing a label wins."""
    preds: dict[str, int] = {}
    for i, label in enumerate(kg.pred_labels):
        preds.setdefault(label.casefold(), i)
    for i, key in enumerate(kg.pred_keys):
        preds[key.casefold()] = i
    return preds


SHOWN_KEYS = 8
"""An error about predicate names lists at most this many of the KG's keys."""


def _some_keys(kg: KGIndex) -> str:
    keys = kg.pred_keys
    shown = ", ".join(keys[:SHOWN_KEYS])
    if len(keys) <= SHOWN_KEYS:
        return f"keys: {shown}"
    return (
        f"keys: {shown}… and {len(keys) - SHOWN_KEYS} more; `kglens kg stats {kg.name}` lists them"
    )


def predicate_index(kg: KGIndex, name: str) -> int:
    """The index of a predicate named by key or label (case-insensitive)."""
    return predicate_indexes(kg, [name])[0]


SHOWN_UNKNOWN = 5
"""Unknown predicate names an error quotes; the rest it counts."""


def predicate_indexes(kg: KGIndex, names: Sequence[str], *, active: bool = False) -> list[int]:
    """The indexes of predicates named by key or label (case-insensitive), each once, in the
    order given. Every name that is no predicate is named in one error; with ``active``, so is
    every dead predicate (its edges are kept but never asked)."""
    lookup = predicate_lookup(kg)
    unknown = [name for name in names if name.strip().casefold() not in lookup]
    if unknown:
        which = ", ".join(repr(name) for name in unknown[:SHOWN_UNKNOWN])
        if len(unknown) > SHOWN_UNKNOWN:  # one readable line, however many were given
            which += f" and {len(unknown) - SHOWN_UNKNOWN:,} more"
        plural = "s" if len(unknown) > 1 else ""
        raise UnknownPredicateError(
            f"no predicate{plural} {which} in KG '{kg.name}' ({_some_keys(kg)})"
        )
    out: list[int] = []
    for name in names:
        index = lookup[name.strip().casefold()]
        if index not in out:
            out.append(index)
    dead = [kg.pred_keys[i] for i in out if active and not kg.pred_active[i]]
    if dead:
        which = ", ".join(repr(key) for key in dead)
        raise UnknownPredicateError(
            f"predicate{'s' if len(dead) > 1 else ''} {which} of KG '{kg.name}' "
            f"{'are' if len(dead) > 1 else 'is'} dead: kept in the KG, never asked "
            f"(`kglens kg stats {kg.name}` lists the active ones)"
        )
    return out


def predicate_keys(kg: KGIndex, names: Sequence[str]) -> list[str]:
    """The keys of the active predicates named by key or label (what a run stores, so the same
    selection is stored the same way however it was typed)."""
    return [kg.pred_keys[i] for i in predicate_indexes(kg, names, active=True)]


def subset_nodes(conn: sqlite3.Connection, kg_id: int, subset: str) -> np.ndarray:
    """Database ids of the entities in a named subset."""
    row = conn.execute(
        "SELECT id FROM subset WHERE kg_id = ? AND name = ?", (kg_id, subset)
    ).fetchone()
    if row is None:
        names = [r[0] for r in conn.execute("SELECT name FROM subset WHERE kg_id = ?", (kg_id,))]
        raise KGNotFoundError(
            f"no subset '{subset}' in this KG (known: {', '.join(names) or 'none'})"
        )
    ids = [
        r[0]
        for r in conn.execute("SELECT entity_id FROM subset_member WHERE subset_id = ?", (row[0],))
    ]
    return np.array(ids, dtype=np.int64)
