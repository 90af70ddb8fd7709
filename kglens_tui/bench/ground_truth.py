"""The study's ground truth: each edge's true error rate, with the graph that propagation and
the truth settings need."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import scipy.sparse as sp

from kglens_tui.kg.graph import Neighbourhood

SIM_ALWAYS_FAILED = 0.9
"""With a simulated truth, edges whose true error rate is at least this count as always failed."""


@dataclass
class GroundTruth:
    """True error rates of the study's edges, with the graph needed for propagation."""

    source: str
    rates: np.ndarray
    always_failed: np.ndarray
    s: np.ndarray
    o: np.ndarray
    n_nodes: int
    edge_ids: np.ndarray
    note: str = ""
    simulated: bool = False
    """True for the simulated target's rates (a latent logistic model that settings reshape)."""
    setting: str = "as-is"
    """The truth setting that dealt these rates (see kglens_tui.bench.truths)."""
    p: np.ndarray | None = None
    """Each edge's predicate (for learned propagation); None = one predicate."""
    kg_name: str = ""
    """The KG whose predicates `p` indexes ("" when the truth comes from no KG)."""
    answers: np.ndarray | None = None
    """Answers per edge behind each rate (a stored run's truth); None = known rates."""

    @property
    def predicates(self) -> np.ndarray:
        return np.zeros(self.n_edges, dtype=np.int64) if self.p is None else self.p

    @property
    def n_edges(self) -> int:
        return len(self.rates)

    def neighbourhood(self) -> Neighbourhood:
        return Neighbourhood(self.s, self.o, self.n_nodes)

    def neighbour_correlation(self) -> float:
        """Correlation of an edge's true rate with its neighbours' mean rate."""
        return neighbour_correlation(self.rates, neighbour_matrix(self))

    def shuffled(self, seed: int = 0) -> GroundTruth:
        """The same rates dealt to edges at random: no correlation through the graph left (the
        case where propagation can only mislead)."""
        order = np.random.default_rng([seed, 7727]).permutation(self.n_edges)
        return replace(
            self,
            source=f"{self.source}, shuffled",
            rates=self.rates[order],
            always_failed=self.always_failed[order],
            answers=None if self.answers is None else self.answers[order],
        )


def neighbour_matrix(truth: GroundTruth) -> sp.csr_matrix:
    """Edge x edge 0/1 matrix of one-hop neighbours (sharing a node)."""
    idx, nbr = truth.neighbourhood().pairs(np.arange(truth.n_edges))
    n = truth.n_edges
    return sp.csr_matrix((np.ones(len(idx)), (idx, nbr)), shape=(n, n))


def neighbour_correlation(rates: np.ndarray, adjacency: sp.csr_matrix) -> float:
    """Pearson correlation of each edge's rate with the mean rate of its neighbours (over edges
    with a neighbour); NaN when the rates do not vary."""
    degree = np.asarray(adjacency.sum(axis=1)).ravel()
    has = degree > 0
    if has.sum() < 3:
        return float("nan")
    mean = (adjacency @ rates)[has] / degree[has]
    own = rates[has]
    if own.std() == 0 or mean.std() == 0:
        return float("nan")
    return float(np.corrcoef(own, mean)[0, 1])
