-- No query reads observations by (run, edge): every read of a run's replies goes by run (the
-- UNIQUE (run_id, iteration, slot) index) or by id. The index cost each committed iteration
-- most of its WAL pages, since a batch's random edges scatter over its leaves.
DROP INDEX IF EXISTS observation_run_edge;
