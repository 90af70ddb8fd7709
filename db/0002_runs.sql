-- Probing runs. The observation log is the source of truth; alpha/beta/m/n arrays are
-- checkpointed as BLOBs now and then, and resume replays the log since the last checkpoint.
CREATE TABLE run (
    id              INTEGER PRIMARY KEY,
    kg_id           INTEGER NOT NULL REFERENCES kg(id) ON DELETE CASCADE,
    name            TEXT NOT NULL DEFAULT '',
    mode            TEXT NOT NULL DEFAULT 'kglens',
    status          TEXT NOT NULL DEFAULT 'created',  -- created running stopped finished failed
    stop_reason     TEXT NOT NULL DEFAULT '',
    error           TEXT NOT NULL DEFAULT '',
    config          TEXT NOT NULL,                    -- JSON RunConfig
    manifest        TEXT NOT NULL,                    -- JSON: KG hash, prompt hashes, versions...
    target_label    TEXT NOT NULL,
    simulated       INTEGER NOT NULL DEFAULT 0,
    edge_ids        BLOB NOT NULL,                    -- int64 array: array position -> edge id
    iterations_done INTEGER NOT NULL DEFAULT 0,
    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    updated_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE TABLE run_checkpoint (
    run_id    INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    iteration INTEGER NOT NULL,                       -- state after this iteration
    alpha     BLOB NOT NULL,                          -- float64 arrays, one value per run edge
    beta      BLOB NOT NULL,
    m         BLOB NOT NULL,                          -- int32: observed successes
    n         BLOB NOT NULL,                          -- int32: observed failures
    err       BLOB NOT NULL,                          -- int32: consecutive transport errors
    PRIMARY KEY (run_id, iteration)
) WITHOUT ROWID;

CREATE TABLE iteration (
    run_id            INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    iteration         INTEGER NOT NULL,
    finished_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    seconds           REAL NOT NULL DEFAULT 0,
    requests          INTEGER NOT NULL DEFAULT 0,
    errors            INTEGER NOT NULL DEFAULT 0,
    retries           INTEGER NOT NULL DEFAULT 0,
    prompt_tokens     INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0,
    latency_ms_mean   REAL,
    latency_ms_p95    REAL,
    examined          INTEGER NOT NULL DEFAULT 0,
    win_rate          REAL,
    zero_sense_rate   REAL,
    all_sense_rate    REAL,
    counts            TEXT NOT NULL DEFAULT '{}',     -- JSON: category -> count in this iteration
    PRIMARY KEY (run_id, iteration)
) WITHOUT ROWID;

CREATE TABLE observation (
    id                INTEGER PRIMARY KEY,
    run_id            INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    iteration         INTEGER NOT NULL,
    slot              INTEGER NOT NULL,               -- order inside the iteration
    pos               INTEGER NOT NULL,               -- the edge's position in run.edge_ids
    edge_id           INTEGER NOT NULL REFERENCES edge(id) ON DELETE CASCADE,
    qtype             TEXT NOT NULL,                  -- yes_no | wh
    generator         TEXT NOT NULL,                  -- template | llm:MODEL
    question          TEXT NOT NULL,
    candidate_id      INTEGER REFERENCES entity(id),  -- object asked about (yes_no)
    expected          TEXT NOT NULL DEFAULT '',       -- yes | no (yes_no)
    expected_answers  TEXT NOT NULL DEFAULT '[]',     -- JSON [[label, alias...], ...] (wh)
    reply             TEXT NOT NULL DEFAULT '',
    category          TEXT NOT NULL,                  -- correct incorrect refused unparseable error
    verifier          TEXT NOT NULL DEFAULT '',       -- how the verdict was reached
    prompt_tokens     INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0,
    latency_ms        REAL,
    retries           INTEGER NOT NULL DEFAULT 0,
    error             TEXT NOT NULL DEFAULT '',
    UNIQUE (run_id, iteration, slot)
);
CREATE INDEX observation_run_edge ON observation(run_id, edge_id);
