"""What the live screen's help says of a KGLens run's figures (`Mode.live_help`): its rates,
chance, blind spots, per-predicate rates and progress."""

LIVE_HELP = """\
**Win rate**: share of examined edges the model answers right more often than wrong (m > n).
**Zero-sense**: never right (m = 0). **All-sense**: never wrong (n = 0). Refused and
unparseable replies count as wrong; transport errors never do (the edge is asked again).
Beside each rate, *chance* with its subtitle saying which: *chance under this sampler*, what a
target answering at random scores when this run's sampler picks the edges it asks (replayed at
iterations 1, 2, 4, 8... and at the end; a constant answer on a Wh run), or, until the first
replay, *chance, independent asks*: blind guessing on the questions asked, each ask on its own
(the report shows both).
**Blind spots**: examined edges with the highest posterior error rate P(err) under a model
learned from the run's answers (predicate and entity effects): m right and n wrong answers of
the edge itself, and *nbrs*, the share of P(err) that comes from its predicate and neighbours
rather than its own answers. **learned** (under the progress): how much of the variation of
error rates neighbours and predicates explain, and the predicates the model fails most.
**Per predicate** (paper Fig. 6): each predicate's examined of its edges, its zero-sense and
win rates with 95% intervals, and beside each what blind guessing scores on the questions the
run asked about it (as the analysis screen shows them with `o`: over the answers as logged).
**Progress**: *requests*, *failed*, *tokens* and *retries* count every request whose reply (or
failure) is in, also those of an iteration not committed yet (*+N not committed*); *dropped*:
requests that went with an iteration a stop or the failure rule dropped. A stored run's time
is what its committed iterations took.
"""
