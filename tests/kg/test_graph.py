from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import write_jsonl

from kglens_tui.kg import graph
from kglens_tui.kg.graph import KGNotFoundError, Neighbourhood, load_kg, predicate_indexes
from kglens_tui.kg.importers import import_kg


@pytest.fixture
def kg(conn, tiny_kg_dir: Path):
    import_kg(conn, tiny_kg_dir, "tiny")
    return load_kg(conn, "tiny")


def labels(kg, nodes) -> set[str]:
    return {kg.labels[int(n)] for n in nodes}


def test_true_set_candidates_and_out_degree(kg) -> None:
    to, lang = kg.node("c:TO"), kg.pred_keys.index("official_language")
    assert labels(kg, kg.true_objects(to, lang)) == {"Tongan", "English"}
    assert kg.out_degree(to, lang) == 2
    assert labels(kg, kg.candidates(lang)) == {"German", "Tongan", "English"}
    assert kg.out_degree(kg.node("c:AT"), kg.pred_keys.index("capital")) == 1
    assert kg.out_degree(kg.node("city:vienna"), lang) == 0


def test_hard_negative_is_never_true_and_prefers_same_type(kg) -> None:
    rng = np.random.default_rng(0)
    for s in ("c:AT", "c:DE", "c:TO"):
        for p in range(len(kg.pred_keys)):
            true = set(kg.true_objects(kg.node(s), p).tolist())
            if not true:
                continue
            like = next(iter(true))
            for _ in range(50):
                neg = kg.hard_negative(kg.node(s), p, rng, like=like)
                if neg is None:
                    continue
                assert neg not in true
                assert kg.types[neg] == kg.types[like]


def test_hard_negative_draws_every_false_candidate_and_nothing_else(kg) -> None:
    """The rejection draws test a pick against the subject, the true objects and their names
    directly: what they return is exactly C_p minus `not_false` (for every subject and
    predicate of the tiny KG)."""
    rng = np.random.default_rng(1)
    for s in range(len(kg.labels)):
        for p in range(len(kg.pred_keys)):
            if not len(kg.true_objects(s, p)):
                continue
            false = set(kg.candidates(p).tolist()) - set(kg.not_false(s, p).tolist())
            drawn = {kg.hard_negative(s, p, rng) for _ in range(40 * len(kg.candidates(p)))}
            assert drawn == (false or {None}), (kg.labels[s], kg.pred_keys[p])


def _namesakes_kg(conn, tmp_path: Path) -> graph.KGIndex:
    """Countries bordering places, some of them namesakes (three Georgias, two Jordans)."""
    d = tmp_path / "namesakes"
    d.mkdir()
    places = [
        ("c:GE", "Georgia", "country"),
        ("us:GA", "Georgia", "state"),
        ("us:georgia-town", "georgia", "town"),
        ("c:JO", "Jordan", "country"),
        ("river:jordan", "Jordan River", "river"),
        ("c:TR", "Turkey", "country"),
        ("c:AM", "Armenia", "country"),
        ("c:AZ", "Azerbaijan", "country"),
    ]
    write_jsonl(
        d / "entities.jsonl",
        [{"id": key, "label": label, "type": kind} for key, label, kind in places]
        + [{"id": "x:river", "label": "River", "aliases": ["Jordan"], "type": "river"}],
    )
    write_jsonl(d / "predicates.jsonl", [{"id": "borders", "label": "borders"}])
    borders = [("c:GE", "c:TR"), ("c:TR", "c:GE"), ("c:AM", "us:GA"), ("c:AZ", "c:JO")]
    borders += [(key, "us:georgia-town") for key in ("c:TR", "c:JO")]
    borders += [("c:AM", "river:jordan"), ("c:GE", "x:river"), ("c:AZ", "c:AM")]
    write_jsonl(
        d / "triples.jsonl",
        [{"subject": s, "predicate": "borders", "object": o} for s, o in borders],
    )
    import_kg(conn, d, "namesakes")
    return load_kg(conn, "namesakes")


def test_hard_negative_skips_namesakes_of_the_subject_and_true_objects(conn, tmp_path) -> None:
    """Picks are tested by their names only where another node shares one (`_shares_a_name`):
    with namesakes among the candidates, the draws are still exactly C_p minus `not_false`."""
    kg = _namesakes_kg(conn, tmp_path)
    georgias = {kg.node(key) for key in ("c:GE", "us:GA", "us:georgia-town")}
    jordans = {kg.node(key) for key in ("c:JO", "x:river")}
    assert set(np.flatnonzero(kg._shares_a_name).tolist()) == georgias | jordans
    rng = np.random.default_rng(3)
    for s in range(len(kg.labels)):
        if not len(kg.true_objects(s, 0)):
            continue
        false = set(kg.candidates(0).tolist()) - set(kg.not_false(s, 0).tolist())
        drawn = {kg.hard_negative(s, 0, rng) for _ in range(60 * len(kg.candidates(0)))}
        assert drawn == (false or {None}), kg.labels[s]
    # Georgia borders Turkey: no Georgia is a wrong answer about it, however spelt
    turkey = kg.node("c:TR")
    assert georgias.isdisjoint({kg.hard_negative(turkey, 0, rng) for _ in range(200)})


def test_hard_negative_none_when_every_candidate_is_true(kg) -> None:
    rng = np.random.default_rng(0)
    member = kg.pred_keys.index("member_of")  # everybody is a member of the UN
    assert kg.hard_negative(kg.node("c:AT"), member, rng) is None


def test_dead_edges_are_masked(kg) -> None:
    member = kg.pred_keys.index("member_of")
    assert not kg.active_mask[kg.p == member].any()
    assert kg.active_mask.sum() == 10


def test_unknown_kg_names_known_ones(conn, kg) -> None:
    with pytest.raises(KGNotFoundError, match="known: tiny; bundled: country, "):
        load_kg(conn, "nope")


def test_an_empty_workspace_names_the_bundled_kgs(conn) -> None:
    with pytest.raises(KGNotFoundError, match="none imported yet; bundled: country, "):
        load_kg(conn, "nope")


def test_many_unknown_predicates_make_one_short_line(kg) -> None:
    names = [f"nosuch{i}" for i in range(60)]
    with pytest.raises(ValueError) as raised:
        predicate_indexes(kg, ["capital", *names])
    message = str(raised.value)
    assert "'nosuch4' and 55 more in KG 'tiny'" in message and "nosuch5'" not in message


def test_neighbourhood_on_hand_made_graph() -> None:
    # nodes 0..4; edges: e0 0->1, e1 1->2, e2 2->3, e3 0->2 (shares 0 with e0, 2 with e1/e2), e4 4->4?no
    s = np.array([0, 1, 2, 0, 3])
    o = np.array([1, 2, 3, 2, 4])
    nb = Neighbourhood(s, o, n_nodes=5)
    assert sorted(nb.neighbours(0).tolist()) == [1, 3]
    assert sorted(nb.neighbours(3).tolist()) == [0, 1, 2]
    assert sorted(nb.neighbours(4).tolist()) == [2]
    # e0 and e3 share node 0 only; e1 and e3 share node 2 only: counted once each.
    m, n = nb.propagate(np.array([0, 1]), failed=np.array([1, 0]), succeeded=np.array([0, 1]))
    # e0 failed: neighbours e1, e3 get M += 1. e1 succeeded: neighbours e0, e2, e3 get N += 1.
    assert m.tolist() == [0, 1, 0, 1, 0]
    assert n.tolist() == [1, 0, 1, 1, 0]


def test_parallel_edges_count_once() -> None:
    s = np.array([0, 0])
    o = np.array([1, 1])
    nb = Neighbourhood(s, o, n_nodes=2)
    m, _ = nb.propagate(np.array([0]), failed=np.array([1]), succeeded=np.array([0]))
    assert m.tolist() == [0, 1]


@pytest.mark.parametrize("n_edges", [40, 3000])
def test_small_graphs_neighbours_are_the_sorted_pairs_ones(
    n_edges: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The arrays over every edge of a small graph (graph.DENSE_EDGES) give the pairs and sums
    of sorting them, in the same order and to the bit: parallel, reversed and looped edges,
    repeated batch edges, weights that are no whole numbers."""
    rng = np.random.default_rng(n_edges)
    s = rng.integers(0, n_edges // 3, n_edges)
    o = np.where(rng.random(n_edges) < 0.1, s, rng.integers(0, n_edges // 3, n_edges))
    s[:4], o[:4] = [0, 0, 1, 2], [1, 1, 0, 2]
    nb = Neighbourhood(s, o, n_edges // 3)
    for batch in (0, 1, 16, 64, 200):
        edges = rng.integers(0, n_edges, batch)
        edges[: min(batch, 4)] = [0, 1, 2, 0][: min(batch, 4)]
        failed, succeeded = rng.random(batch), rng.random(batch) * 3
        got = [*nb.pairs(edges), *nb.propagate_sparse(edges, failed, succeeded)]
        monkeypatch.setattr(graph, "DENSE_EDGES", 0)
        sorted_ = [*nb.pairs(edges), *nb.propagate_sparse(edges, failed, succeeded)]
        monkeypatch.undo()
        assert len(got) == len(sorted_) == 5
        for a, b in zip(got, sorted_, strict=True):
            assert a.dtype == b.dtype and a.tobytes() == b.tobytes()
        assert batch == 0 or len(got[3])


def test_networkx_export(kg) -> None:
    g = kg.to_networkx()
    assert g.number_of_edges() == 13
    assert g.nodes["c:AT"]["label"] == "Austria"


def test_a_kg_loaded_again_is_its_rows_of_the_time_and_its_own(conn, tiny_kg_dir: Path) -> None:
    """A KG loaded again is built from the rows it has then (a label changed since is seen), and
    what a caller changes in one loaded KG is not in the next: each load is a KG of its own."""
    import_kg(conn, tiny_kg_dir, "tiny")
    first = load_kg(conn, "tiny")
    at, capital = first.node("c:AT"), first.pred_keys.index("capital")
    first.labels[at] = "changed"
    first.aliases[at].append("changed")
    first.pred_templates[capital]["wh"] = "changed"
    first.true_objects(at, capital)[:] = -1
    again = load_kg(conn, "tiny")
    assert again.labels[at] == "Austria" and again.aliases[at] == ["AT", "Österreich"]
    assert again.pred_templates[capital]["wh"] == "What is the capital of {subject}?"
    assert labels(again, again.true_objects(at, capital)) == {"Vienna"}
    conn.execute("UPDATE entity SET label = 'Österreich' WHERE key = 'c:AT'")
    assert load_kg(conn, "tiny").labels[at] == "Österreich"


def test_a_copy_has_every_field_of_its_own(kg) -> None:
    """`KGIndex.copy` sets every field (a field added to KGIndex must be copied too), none of
    them the original's mutable object."""
    import dataclasses

    twin = kg.copy()
    for f in dataclasses.fields(kg):
        value = getattr(twin, f.name)
        if isinstance(value, list | dict | np.ndarray):
            assert value is not getattr(kg, f.name), f.name
            _shares_nothing(value, getattr(kg, f.name), f.name)
    assert twin.labels == kg.labels and twin.true_objects(0, 0).tolist() == (
        kg.true_objects(0, 0).tolist()
    )
    nested = [
        *zip(twin.aliases, kg.aliases, strict=True),
        *zip(twin.groups, kg.groups, strict=True),
        *zip(twin._true.values(), kg._true.values(), strict=True),
        *zip(twin._cands.values(), kg._cands.values(), strict=True),
        *zip(twin.pred_templates, kg.pred_templates, strict=True),
    ]
    for copied, original in nested:  # inside the fields too, the copy shares nothing mutable
        assert (
            copied == original
            if isinstance(copied, list | dict)
            else (copied.tolist() == original.tolist())
        )
        assert copied is not original
    for copied, original in zip(twin.pred_templates, kg.pred_templates, strict=True):
        for key, value in original.items():
            assert copied[key] == value
            assert not isinstance(value, list | dict) or copied[key] is not value
    # what a caller changes inside a copy's nested values stays in the copy
    twin.aliases[kg.node("c:AT")].append("Austrian Republic")
    twin._true[next(iter(kg._true))][0] = -1
    assert "Austrian Republic" not in kg.aliases[kg.node("c:AT")]
    assert -1 not in kg._true[next(iter(kg._true))]


def test_a_copys_derived_arrays_are_a_fresh_loads_and_worked_out_once(
    conn, tmp_path, monkeypatch
) -> None:
    """A KG loaded again (a copy of the one kept) takes `_shares_a_name` and `has_false_object`
    from the kept KG, worked out once for all its copies, read-only: the same arrays as a KG
    built afresh from the rows, even when an earlier copy changed its own names first."""
    monkeypatch.setattr(graph, "_loaded", {})
    first = _namesakes_kg(conn, tmp_path)
    first.labels[first.node("c:TR")] = "Georgia"  # a caller's change stays in its copy
    every = np.arange(len(first.s))
    copies = [load_kg(conn, "namesakes") for _ in range(3)]
    monkeypatch.setattr(graph, "_loaded", {})
    fresh = load_kg(conn, "namesakes")
    assert fresh._kept is not None and copies[0]._kept is not fresh._kept  # built again
    for kg in (first, *copies):
        assert kg._shares_a_name.tolist() == fresh._shares_a_name.tolist()
        assert kg.has_false_object(every).tolist() == fresh.has_false_object(every).tolist()
        assert not kg._shares_a_name.flags.writeable and not kg._false_object.flags.writeable
    assert fresh.has_false_object(every).tolist() == _has_a_hard_negative(fresh, every).tolist()
    assert copies[0]._shares_a_name is copies[2]._shares_a_name  # worked out once
    assert copies[0]._false_object is copies[1]._false_object


def _shares_nothing(copied: object, original: object, where: str) -> None:
    """No list, dict or array inside `copied` is the object at the same place in `original`."""
    if isinstance(copied, list | dict | np.ndarray):
        assert copied is not original, where
    if isinstance(copied, dict) and isinstance(original, dict):
        for key, item in copied.items():
            _shares_nothing(item, original[key], f"{where}[{key!r}]")
    elif isinstance(copied, list) and isinstance(original, list):
        for i, (item, before) in enumerate(zip(copied, original, strict=True)):
            _shares_nothing(item, before, f"{where}[{i}]")


def _has_a_hard_negative(kg: graph.KGIndex, positions: np.ndarray) -> np.ndarray:
    rng = np.random.default_rng(0)
    return np.array(
        [kg.hard_negative(int(kg.s[i]), int(kg.p[i]), rng) is not None for i in positions]
    )


def test_has_false_object_is_whether_a_hard_negative_exists(conn, tmp_path, kg) -> None:
    """`has_false_object` says, for every edge, what `hard_negative` finds: on the tiny KG
    (everybody is a member of the UN: no false object) and on namesakes, where the quick count
    cannot decide and the exact set difference does."""
    member = kg.pred_keys.index("member_of")
    positions = np.arange(len(kg.s))
    found = kg.has_false_object(positions)
    assert found.tolist() == _has_a_hard_negative(kg, positions).tolist()
    assert not found[kg.p == member].any() and found[kg.p != member].any()
    names = _namesakes_kg(conn, tmp_path)
    every = np.arange(len(names.s))
    assert names.has_false_object(every).tolist() == _has_a_hard_negative(names, every).tolist()
    assert (
        names.has_false_object(every[::-1]).tolist() == names.has_false_object(every)[::-1].tolist()
    )
    assert names.has_false_object(np.empty(0, dtype=np.int64)).tolist() == []


def test_has_false_object_when_the_true_objects_and_namesakes_fill_the_pool(conn, tmp_path):
    """A subject whose true objects, itself and their namesakes are the whole pool has no false
    object; a subject with a candidate left over has one."""
    d = tmp_path / "full"
    d.mkdir()
    write_jsonl(
        d / "entities.jsonl",
        [
            {"id": "a", "label": "A", "type": "t"},
            {"id": "b", "label": "B", "type": "t"},
            {"id": "b2", "label": "b", "type": "t"},
            {"id": "c", "label": "C", "type": "t"},
        ],
    )
    write_jsonl(d / "predicates.jsonl", [{"id": "likes", "label": "likes"}])
    pairs = [("a", "b"), ("c", "b2"), ("b", "a")]
    write_jsonl(
        d / "triples.jsonl", [{"subject": s, "predicate": "likes", "object": o} for s, o in pairs]
    )
    import_kg(conn, d, "full")
    kg = load_kg(conn, "full")
    every = np.arange(len(kg.s))
    by_subject = dict(
        zip(
            [kg.entity_keys[int(kg.s[i])] for i in every],
            kg.has_false_object(every).tolist(),
            strict=True,
        )
    )
    # the pool is {a, b, b2}, b and b2 namesakes. a likes b: b2 is b's namesake, nothing is
    # false for a; b likes a: b2 is the subject's namesake, nothing is false for b either;
    # c likes b2: a is false for c
    assert by_subject == {"a": False, "b": False, "c": True}
    assert kg.has_false_object(every).tolist() == _has_a_hard_negative(kg, every).tolist()
