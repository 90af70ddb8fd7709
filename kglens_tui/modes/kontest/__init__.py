"""KONTEST mode: consistency oracles over paired questions, its plan, metrics, comparisons,
figures and the weighted ensemble (Table 5)."""
