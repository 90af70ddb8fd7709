"""The run harness every probing mode shares: the mode registry, run records and status,
settings, the child-process session and its typed messages, and the unit-by-unit engine the
KONTEST, fact-eval and plugin modes build on. Headless; imports no mode."""
