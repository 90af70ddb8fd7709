-- Deleting a run (`kglens runs rm`, `kglens kg rm`) clears seen_in_run on the KG-wide triage
-- entries that name it: the entries stay (they are about the KG, not the run), and no row keeps
-- pointing at a run id that a later run may reuse. Every other column stays append-only, and
-- seen_in_run can only be cleared.
DROP TRIGGER triage_no_update;

CREATE TRIGGER triage_no_update BEFORE UPDATE OF
    id, kg_id, run_id, edge_id, observation_id, action, value, retracts, reason, author, created_at
ON triage
BEGIN
    SELECT RAISE(ABORT, 'triage entries are append-only: add a retract entry instead');
END;

CREATE TRIGGER triage_seen_in_run_clear_only BEFORE UPDATE OF seen_in_run ON triage
WHEN NEW.seen_in_run IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'triage entries are append-only: add a retract entry instead');
END;
