-- Knowledge graphs: several per workspace database.
CREATE TABLE kg (
    id            INTEGER PRIMARY KEY,
    name          TEXT NOT NULL UNIQUE,
    description   TEXT NOT NULL DEFAULT '',
    source        TEXT NOT NULL DEFAULT '',      -- where it came from: bundled:country, a file path...
    snapshot_date TEXT,                          -- date the facts were true (bundled KGs)
    content_hash  TEXT NOT NULL DEFAULT '',      -- sha256 over entities, predicates and edges
    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE TABLE entity (
    id          INTEGER PRIMARY KEY,
    kg_id       INTEGER NOT NULL REFERENCES kg(id) ON DELETE CASCADE,
    key         TEXT NOT NULL,                   -- stable id inside the KG, e.g. country:AUT
    label       TEXT NOT NULL,
    aliases     TEXT NOT NULL DEFAULT '[]',      -- JSON array of strings
    type        TEXT NOT NULL DEFAULT '',
    groups      TEXT NOT NULL DEFAULT '[]',      -- JSON array, e.g. ["region:Europe", "member:EU"]
    description TEXT NOT NULL DEFAULT '',
    UNIQUE (kg_id, key)
);

CREATE TABLE entity_group (
    entity_id INTEGER NOT NULL REFERENCES entity(id) ON DELETE CASCADE,
    grp       TEXT NOT NULL,
    PRIMARY KEY (entity_id, grp)
) WITHOUT ROWID;
CREATE INDEX entity_group_grp ON entity_group(grp);

CREATE TABLE predicate (
    id           INTEGER PRIMARY KEY,
    kg_id        INTEGER NOT NULL REFERENCES kg(id) ON DELETE CASCADE,
    key          TEXT NOT NULL,
    label        TEXT NOT NULL,
    description  TEXT NOT NULL DEFAULT '',
    active       INTEGER NOT NULL DEFAULT 1,     -- 0 = dead edges (paper 3.1): kept, never asked
    multi_valued INTEGER NOT NULL DEFAULT 0,
    temporal     INTEGER NOT NULL DEFAULT 0,
    object_type  TEXT NOT NULL DEFAULT '',
    templates    TEXT NOT NULL DEFAULT '{}',     -- JSON: {"yes_no": [..], "wh": "..", "statement": ".."}
    UNIQUE (kg_id, key)
);

CREATE TABLE edge (
    id            INTEGER PRIMARY KEY,
    kg_id         INTEGER NOT NULL REFERENCES kg(id) ON DELETE CASCADE,
    subject_id    INTEGER NOT NULL REFERENCES entity(id) ON DELETE CASCADE,
    predicate_id  INTEGER NOT NULL REFERENCES predicate(id) ON DELETE CASCADE,
    object_id     INTEGER NOT NULL REFERENCES entity(id) ON DELETE CASCADE,
    start_time    TEXT,
    end_time      TEXT,
    point_in_time TEXT,
    source        TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX edge_spo ON edge(kg_id, subject_id, predicate_id, object_id);
CREATE INDEX edge_object ON edge(object_id);
CREATE INDEX edge_predicate ON edge(predicate_id);

-- Named subsets of a KG's subjects (e.g. the paper's 16 countries).
CREATE TABLE subset (
    id    INTEGER PRIMARY KEY,
    kg_id INTEGER NOT NULL REFERENCES kg(id) ON DELETE CASCADE,
    name  TEXT NOT NULL,
    UNIQUE (kg_id, name)
);
CREATE TABLE subset_member (
    subset_id INTEGER NOT NULL REFERENCES subset(id) ON DELETE CASCADE,
    entity_id INTEGER NOT NULL REFERENCES entity(id) ON DELETE CASCADE,
    PRIMARY KEY (subset_id, entity_id)
) WITHOUT ROWID;
