"""A tiny ground truth for the efficiency study's tests (not a test module)."""

from __future__ import annotations

import numpy as np

from kglens_tui.bench.sampling_study import GroundTruth


def tiny_truth(n_nodes: int = 12, n_edges: int = 40, seed: int = 0) -> GroundTruth:
    """A random graph whose error rates come from node effects, as the simulated target's."""
    rng = np.random.default_rng(seed)
    s = rng.integers(0, n_nodes, n_edges)
    o = (s + 1 + rng.integers(0, n_nodes - 1, n_edges)) % n_nodes
    effect = rng.normal(0, 1.2, n_nodes)
    rates = 1 / (1 + np.exp(-(-1.0 + effect[s] + effect[o])))
    return GroundTruth(
        source="tiny",
        rates=rates,
        always_failed=rates >= 0.9,
        s=s,
        o=o,
        n_nodes=n_nodes,
        edge_ids=np.arange(n_edges),
    )
