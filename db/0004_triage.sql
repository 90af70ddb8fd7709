-- Triage of a run's results (reviewing blind spots): append-only, auditable entries on an edge
-- or on one reply (observation). The current state is every entry not retracted by a later one.
--   confirm        the edge is a confirmed blind spot of the run's model (no metric change)
--   kg_error       the model was right, the KG is wrong or incomplete. On an edge: KG-wide
--                  (run_id NULL), the edge leaves the metrics of every run on the KG. On a reply:
--                  that reply leaves its run's metrics. Both go to the KG-corrections export.
--   verifier_error the verdict of one reply is wrong; value holds the corrected category
--   note           free text in reason (no metric change)
--   error_type     value is a paper Table 5 error type (no metric change)
--   retract        withdraws the entry `retracts`
CREATE TABLE triage (
    id             INTEGER PRIMARY KEY,
    kg_id          INTEGER NOT NULL REFERENCES kg(id) ON DELETE CASCADE,
    run_id         INTEGER REFERENCES run(id) ON DELETE CASCADE,   -- NULL = KG-wide
    edge_id        INTEGER NOT NULL REFERENCES edge(id) ON DELETE CASCADE,
    observation_id INTEGER REFERENCES observation(id) ON DELETE CASCADE,
    action         TEXT NOT NULL CHECK (action IN
                       ('confirm', 'kg_error', 'verifier_error', 'note', 'error_type', 'retract')),
    value          TEXT NOT NULL DEFAULT '',
    retracts       INTEGER REFERENCES triage(id) ON DELETE CASCADE,
    reason         TEXT NOT NULL DEFAULT '',
    author         TEXT NOT NULL CHECK (length(trim(author)) > 0),
    seen_in_run    INTEGER,                                        -- run on screen (KG-wide entries)
    created_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    CHECK (observation_id IS NULL OR run_id IS NOT NULL),
    CHECK (action != 'confirm' OR (run_id IS NOT NULL AND observation_id IS NULL)),
    CHECK (action != 'kg_error' OR ((observation_id IS NULL) = (run_id IS NULL))),
    CHECK (action != 'verifier_error' OR (observation_id IS NOT NULL
           AND value IN ('correct', 'incorrect', 'refused', 'unparseable'))),
    CHECK (action != 'error_type' OR value IN
           ('factual_error', 'obsolete_knowledge', 'self_contradiction', 'inconsistent_response')),
    CHECK (action != 'retract' OR retracts IS NOT NULL),
    CHECK (action NOT IN ('kg_error', 'verifier_error', 'note', 'retract')
           OR length(trim(reason)) > 0)
);
CREATE INDEX triage_run ON triage(run_id, edge_id);
CREATE INDEX triage_kg_edge ON triage(kg_id, edge_id);
CREATE INDEX triage_observation ON triage(observation_id);

CREATE TRIGGER triage_no_update BEFORE UPDATE ON triage
BEGIN
    SELECT RAISE(ABORT, 'triage entries are append-only: add a retract entry instead');
END;

-- Cascades (deleting a KG or a run) remove entries; deleting a single entry is refused.
CREATE TRIGGER triage_no_delete BEFORE DELETE ON triage
WHEN EXISTS (SELECT 1 FROM edge WHERE id = OLD.edge_id)
     AND (OLD.run_id IS NULL OR EXISTS (SELECT 1 FROM run WHERE id = OLD.run_id))
     AND (OLD.observation_id IS NULL
          OR EXISTS (SELECT 1 FROM observation WHERE id = OLD.observation_id))
     AND (OLD.retracts IS NULL OR EXISTS (SELECT 1 FROM triage WHERE id = OLD.retracts))
BEGIN
    SELECT RAISE(ABORT, 'triage entries are append-only: add a retract entry instead');
END;
