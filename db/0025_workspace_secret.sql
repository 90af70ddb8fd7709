-- This workspace's secrets, never shown, printed or written to a file: 'pack_key' signs the
-- annotation packs it exports (HMAC-SHA256 over the round, the annotator and the items' digest,
-- kglens_tui.annotate.signing), so a pack imports only into the workspace that exported it and
-- only as the annotator it was exported for. randomblob() draws from SQLite's PRNG, seeded from
-- the operating system's random source; each workspace gets its own key when it is created or
-- migrated (a copy of the database file shares its key).
CREATE TABLE workspace_secret (
    name  TEXT PRIMARY KEY,
    value BLOB NOT NULL CHECK (length(value) >= 32)
) WITHOUT ROWID;
INSERT INTO workspace_secret(name, value) VALUES ('pack_key', randomblob(32));
