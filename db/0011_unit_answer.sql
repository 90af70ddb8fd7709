-- Answers of unit modes that keep no table of their own (a plugin's mode): one row per planned
-- unit, replaced when a unit whose request failed is asked again on resume.
CREATE TABLE unit_answer (
    run_id            INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    unit              INTEGER NOT NULL,
    question          TEXT NOT NULL,
    reply             TEXT NOT NULL DEFAULT '',
    label             TEXT NOT NULL DEFAULT '',   -- the mode's score of the reply; '' when failed
    error             TEXT NOT NULL DEFAULT '',   -- the API failure ('' = the model answered)
    prompt_tokens     INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0,
    latency_ms        REAL,
    retries           INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, unit)
) WITHOUT ROWID;
