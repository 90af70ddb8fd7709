-- Human evaluation (paper 3.5, Table 4, A.5): rounds of sampled questions rated by annotators.
-- Labels are append-only revisions; the current label of (item, annotator) is its latest revision.
CREATE TABLE annotation_round (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    source     TEXT NOT NULL DEFAULT '{}',        -- JSON: {"runs": [..], "observation_ids": [..], "edge_ids": [..]}
    seed       INTEGER NOT NULL DEFAULT 0,
    settings   TEXT NOT NULL DEFAULT '{}',        -- JSON: per_kg, majority, raters_per_item, calibration_size
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE TABLE annotator (
    id       INTEGER PRIMARY KEY,
    round_id INTEGER NOT NULL REFERENCES annotation_round(id) ON DELETE CASCADE,
    name     TEXT NOT NULL CHECK (length(trim(name)) > 0),
    position INTEGER NOT NULL,
    UNIQUE (round_id, name)
);

-- One sampled question. app_verdict is the app's own category and is never shown to annotators.
CREATE TABLE annotation_item (
    id             INTEGER PRIMARY KEY,
    round_id       INTEGER NOT NULL REFERENCES annotation_round(id) ON DELETE CASCADE,
    position       INTEGER NOT NULL,
    observation_id INTEGER REFERENCES observation(id) ON DELETE SET NULL,
    run_id         INTEGER,
    edge_id        INTEGER,
    kg             TEXT NOT NULL,
    qtype          TEXT NOT NULL CHECK (qtype IN ('yes_no', 'wh')),
    question       TEXT NOT NULL,
    expected       TEXT NOT NULL DEFAULT '',      -- yes | no (yes_no)
    answers        TEXT NOT NULL DEFAULT '[]',    -- JSON [[label, alias...], ...] (wh)
    response       TEXT,                          -- the model's reply (wh only)
    app_verdict    TEXT NOT NULL,                 -- correct incorrect refused unparseable
    calibration    INTEGER NOT NULL DEFAULT 0,    -- 1 = rated by every annotator
    UNIQUE (round_id, position)
);
CREATE INDEX annotation_item_observation ON annotation_item(observation_id);

-- Which annotator rates which item, in that annotator's own (seeded) order.
CREATE TABLE annotation_assignment (
    item_id      INTEGER NOT NULL REFERENCES annotation_item(id) ON DELETE CASCADE,
    annotator_id INTEGER NOT NULL REFERENCES annotator(id) ON DELETE CASCADE,
    position     INTEGER NOT NULL,
    PRIMARY KEY (item_id, annotator_id)
) WITHOUT ROWID;
CREATE UNIQUE INDEX annotation_assignment_order ON annotation_assignment(annotator_id, position);

-- Append-only label revisions. Each revision holds the whole state after the action;
-- client_rev is supplied by the client so that a retried submission is stored once.
CREATE TABLE annotation_label (
    id               INTEGER PRIMARY KEY,
    item_id          INTEGER NOT NULL,
    annotator_id     INTEGER NOT NULL,
    revision         INTEGER NOT NULL CHECK (revision >= 1),
    client_rev       TEXT NOT NULL UNIQUE,
    action           TEXT NOT NULL CHECK (action IN ('label', 'skip', 'flag', 'undo', 'import')),
    undoes           INTEGER,                     -- the revision an undo reverted
    question_clear   TEXT CHECK (question_clear IN ('yes', 'no')),
    response_correct TEXT CHECK (response_correct IN ('correct', 'incorrect')),
    skipped          INTEGER NOT NULL DEFAULT 0 CHECK (skipped IN (0, 1)),
    flag             INTEGER NOT NULL DEFAULT 0 CHECK (flag IN (0, 1)),
    note             TEXT NOT NULL DEFAULT '',
    seconds          REAL NOT NULL DEFAULT 0 CHECK (seconds >= 0),
    created_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (item_id, annotator_id, revision),
    FOREIGN KEY (item_id, annotator_id)
        REFERENCES annotation_assignment(item_id, annotator_id) ON DELETE CASCADE
);

CREATE TRIGGER annotation_label_no_update BEFORE UPDATE ON annotation_label
BEGIN
    SELECT RAISE(ABORT, 'annotation labels are append-only');
END;

-- Deleting a round (cascade) removes its labels; deleting a single revision is refused.
CREATE TRIGGER annotation_label_no_delete BEFORE DELETE ON annotation_label
WHEN EXISTS (
    SELECT 1 FROM annotation_assignment a
    WHERE a.item_id = OLD.item_id AND a.annotator_id = OLD.annotator_id
)
BEGIN
    SELECT RAISE(ABORT, 'annotation labels are append-only');
END;

-- The current label per (item, annotator): the latest revision.
CREATE VIEW annotation_current AS
SELECT l.*
FROM annotation_label l
WHERE l.revision = (
    SELECT MAX(m.revision) FROM annotation_label m
    WHERE m.item_id = l.item_id AND m.annotator_id = l.annotator_id
);

-- Final decisions on disputed items; the latest per item wins.
CREATE TABLE annotation_adjudication (
    id               INTEGER PRIMARY KEY,
    item_id          INTEGER NOT NULL REFERENCES annotation_item(id) ON DELETE CASCADE,
    question_clear   TEXT CHECK (question_clear IN ('yes', 'no')),
    response_correct TEXT CHECK (response_correct IN ('correct', 'incorrect')),
    reason           TEXT NOT NULL CHECK (length(trim(reason)) > 0),
    adjudicator      TEXT NOT NULL CHECK (length(trim(adjudicator)) > 0),
    created_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX annotation_adjudication_item ON annotation_adjudication(item_id, id);
