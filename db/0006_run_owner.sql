-- The process probing a run, as 'host:pid:start' (start: the process start time in clock ticks
-- since boot on Linux, '' elsewhere); NULL when no process holds the run. A run whose status is
-- 'running' but whose owner is gone was killed: it is listed as interrupted and may be resumed.
ALTER TABLE run ADD COLUMN owner TEXT;
