"""SimulatedClient: deterministic per key, calibrated error rates, graph-correlated knowledge."""

from __future__ import annotations

import asyncio
import hashlib
import random
import time

import numpy as np
import pytest

from kglens_tui.answers.verify import verify_wh, verify_yes_no
from kglens_tui.core.verdict import Verdict
from kglens_tui.llm.base import ChatClient, ChatRequest, QuestionMeta
from kglens_tui.llm.factory import make_client
from kglens_tui.llm.sim_effects import SimEffects
from kglens_tui.llm.simulated import SimulatedClient, stable_hash


def make_edges(n_entities: int = 60, n_predicates: int = 8, n_edges: int = 400, seed: int = 1):
    rng = random.Random(seed)
    edges = []
    for edge_id in range(n_edges):
        s, o = rng.sample(range(n_entities), 2)
        edges.append((edge_id, f"e:{s}", f"p:{rng.randrange(n_predicates)}", f"e:{o}"))
    return edges


EDGES = make_edges()


def meta(edge, key: str, qtype: str = "yes_no", expected: str = "yes") -> QuestionMeta:
    edge_id, s, p, o = edge
    return QuestionMeta(
        key=key,
        edge_id=edge_id,
        subject=s,
        predicate=p,
        object=o,
        qtype=qtype,
        expected=expected if qtype == "yes_no" else "",
        candidate_label=f"Label {o}",
        true_labels=(f"Label {o}", f"Alias {o}"),
        wrong_labels=("Wrongville", "Falsetown"),
    )


def request(m: QuestionMeta) -> ChatRequest:
    return ChatRequest(messages=({"role": "user", "content": "Is it so?"},), meta=m)


def verdict(reply: str, m: QuestionMeta) -> Verdict:
    if m.qtype == "wh":
        return verify_wh(reply, [m.true_labels])
    return verify_yes_no(reply, m.expected)


def test_protocol_label_and_rates() -> None:
    client = SimulatedClient(EDGES, seed=7)
    assert isinstance(client, ChatClient)
    assert client.label == "simulated (seed 7)" and client.simulated
    rates = np.array(list(client.true_error_rate.values()))
    assert len(rates) == len(EDGES)
    assert ((rates > 0) & (rates < 1)).all()
    assert rates.std() > 0.05
    assert np.allclose(client.error_rates, rates)
    assert client.edge_ids.tolist() == [e[0] for e in EDGES]


def test_rates_do_not_depend_on_edge_order_and_differ_by_seed() -> None:
    a = SimulatedClient(EDGES, seed=3).true_error_rate
    b = SimulatedClient(list(reversed(EDGES)), seed=3).true_error_rate
    c = SimulatedClient(EDGES, seed=4).true_error_rate
    assert a == b
    assert a != c


def test_deterministic_by_key_regardless_of_order() -> None:
    metas = [meta(EDGES[i % 50], f"run1:it{i}:edge{i % 50}:0", expected="no") for i in range(200)]

    async def answers(order: list[int], concurrent: bool) -> dict[str, str]:
        client = SimulatedClient(EDGES, seed=11, latency_fn=lambda rng: rng.uniform(0, 0.002))
        if concurrent:
            results = await asyncio.gather(*(client.complete(request(metas[i])) for i in order))
        else:
            results = [await client.complete(request(metas[i])) for i in order]
        return {metas[i].key: r.text for i, r in zip(order, results, strict=True)}

    forward = asyncio.run(answers(list(range(200)), concurrent=False))
    shuffled = list(range(200))
    random.Random(5).shuffle(shuffled)
    backward = asyncio.run(answers(shuffled, concurrent=True))
    assert forward == backward
    other_seed = SimulatedClient(EDGES, seed=12)
    assert any(other_seed.answer(m) != forward[m.key] for m in metas)


def test_stable_hash_is_stable() -> None:
    assert stable_hash("run3:it7:edge42:0") == stable_hash("run3:it7:edge42:0")
    assert stable_hash("a") != stable_hash("b")
    digest = hashlib.sha256(b"abc").digest()[:8]
    assert stable_hash("abc") == int.from_bytes(digest, "little")


def test_empirical_error_rate_matches_true_rate() -> None:
    client = SimulatedClient(EDGES, seed=2, effects=SimEffects(refusal_rate=0.2, wh_penalty=0.0))
    picked = [EDGES[i] for i in (0, 1, 2, 3, 4, 5)]
    n = 2000
    for edge in picked:
        failures = 0
        for k in range(n):
            expected = "yes" if k % 2 else "no"
            qtype = "wh" if k % 3 == 0 else "yes_no"
            m = meta(edge, f"r:{edge[0]}:{k}", qtype=qtype, expected=expected)
            failures += verdict(client.answer(m), m).is_failure
        rate = client.true_error_rate[edge[0]]
        tolerance = 4 * np.sqrt(rate * (1 - rate) / n) + 0.005
        assert abs(failures / n - rate) < tolerance, (edge, failures / n, rate)


def test_wrong_answers_include_refusals_and_wrong_labels() -> None:
    client = SimulatedClient(EDGES, seed=0, base_skill=-3.0, effects=SimEffects(refusal_rate=0.3))
    verdicts = []
    for k in range(300):
        m = meta(EDGES[k % 40], f"w:{k}", qtype="wh")
        verdicts.append(verdict(client.answer(m), m))
    assert Verdict.REFUSED in verdicts and Verdict.INCORRECT in verdicts
    ynv = [
        verdict(client.answer(meta(EDGES[0], f"y:{k}")), meta(EDGES[0], f"y:{k}"))
        for k in range(50)
    ]
    assert Verdict.UNPARSEABLE not in ynv


def test_neighbouring_edges_correlate() -> None:
    edges = make_edges(n_entities=150, n_predicates=12, n_edges=1500, seed=9)
    client = SimulatedClient(edges, seed=0)
    logit = {eid: np.log(r / (1 - r)) for eid, r in client.true_error_rate.items()}
    by_node: dict[str, list[int]] = {}
    for eid, s, _p, o in edges:
        by_node.setdefault(s, []).append(eid)
        by_node.setdefault(o, []).append(eid)
    rng = random.Random(0)
    neighbour_pairs = []
    for ids in by_node.values():
        for _ in range(5):
            a, b = rng.sample(ids, 2)
            neighbour_pairs.append((a, b))
    random_pairs = [tuple(rng.sample(range(len(edges)), 2)) for _ in range(len(neighbour_pairs))]

    def corr(pairs) -> float:
        x = np.array([logit[a] for a, _ in pairs])
        y = np.array([logit[b] for _, b in pairs])
        return float(np.corrcoef(x, y)[0, 1])

    assert corr(neighbour_pairs) > corr(random_pairs) + 0.15
    assert corr(neighbour_pairs) > 0.2


def test_latency_and_tokens() -> None:
    client = SimulatedClient(EDGES, seed=0, latency_s=0.05)
    m = meta(EDGES[0], "lat:0")
    started = time.perf_counter()
    reply = asyncio.run(client.complete(request(m)))
    assert time.perf_counter() - started >= 0.05
    assert reply.latency_s >= 0.05
    assert reply.prompt_tokens == 3
    assert reply.completion_tokens == len(reply.text.split()) > 0


def test_meta_required() -> None:
    client = SimulatedClient(EDGES)
    with pytest.raises(ValueError, match="meta"):
        asyncio.run(client.complete(ChatRequest(messages=({"role": "user", "content": "?"},))))


def test_factory_sim_specs() -> None:
    client = make_client("sim:5", edges=EDGES)
    assert isinstance(client, SimulatedClient) and client.label == "simulated (seed 5)"
    assert make_client("sim", edges=EDGES).label == "simulated (seed 0)"
    with pytest.raises(ValueError, match="edges"):
        make_client("sim")
    with pytest.raises(ValueError, match="integer"):
        make_client("sim:x", edges=EDGES)
