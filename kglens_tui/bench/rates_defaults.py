"""`kglens bench rates`' defaults, apart from the study (`bench.rates_bench`) so that building the
command line does not import it (and SciPy with it)."""

SETTINGS = "as-is,shuffled,base=0.05,base=0.85,blind=0.1"
"""The truths the study reports by default (a simulated truth reshaped; see `bench.truths`)."""
FRONTIER = "0.25,0.5,0.75,1"
"""The floors at which the default method is replayed for the frontier."""
METHODS = "thompson + prop, thompson, epsilon-greedy, monte carlo, top-k + learned"
"""The samplers the study replays at the run's floor (brute force is always the reference)."""
