-- The sampling design (kglens_tui.probe.design): every answer of a KGLens run drawn by it keeps
-- its inclusion probability and the control prediction of its edge's error rate made before its
-- draw; every draw keeps the sum of those predictions over the run's edges (and per predicate).
-- With them a reader recomputes the run's KG-wide error rate from these rows alone
-- (kglens_tui.probe.estimates.design_rate): per draw,
--   (total + SUM((failed - prediction) / incl_prob)) / population,
-- averaged over the draws with weights floor_size. NULL probability: drawn without the design
-- (a run stored before it, or brute force's census).
ALTER TABLE observation ADD COLUMN draw_slot INTEGER;   -- first slot of the answer's draw
ALTER TABLE observation ADD COLUMN incl_prob REAL;
ALTER TABLE observation ADD COLUMN prediction REAL;

CREATE TABLE design_draw (
    run_id           INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    iteration        INTEGER NOT NULL,
    first_slot       INTEGER NOT NULL,
    floor_size       INTEGER NOT NULL,                -- edges the uniform floor drew
    eligible         INTEGER NOT NULL,                -- edges it drew them from
    population       INTEGER NOT NULL,                -- the run's edges (how many)
    total            REAL NOT NULL,                   -- sum of predictions over them
    predicate_totals TEXT NOT NULL DEFAULT '{}',      -- JSON: predicate key -> that sum
    PRIMARY KEY (run_id, iteration, first_slot)
) WITHOUT ROWID;
