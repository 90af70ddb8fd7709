-- How many units a unit-mode run (KONTEST, fact-eval, a plugin's) plans, stored when it starts
-- and as it commits, so lists show "8/203 units" without loading the run; NULL for KGLens runs
-- (their total is the iterations setting) and for runs stored before this column.
ALTER TABLE run ADD COLUMN units_total INTEGER;
