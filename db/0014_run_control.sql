-- A request to the process that owns a running run, written by any process on the workspace
-- (home's p and s, `kglens stop`, `kglens pause`, `kglens resume` of a paused run): '' for none,
-- else 'pause', 'resume', 'stop' or 'stop now'. The owner reads and clears it while the run goes.
ALTER TABLE run ADD COLUMN control TEXT NOT NULL DEFAULT '';
