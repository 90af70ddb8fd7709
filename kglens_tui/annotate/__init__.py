"""Human evaluation (paper 3.5, Table 4, A.5): rounds, blind labels, agreement, remote packs."""
