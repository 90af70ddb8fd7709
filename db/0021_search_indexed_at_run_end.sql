-- The search index (0010) is caught up when a run ends, not by a trigger on every insert:
-- indexing each reply as it was committed cost the probing loop more than the rest of its
-- commit (kglens bench engine). `search_indexed.upto` is the last observation id the index
-- holds; rows above it are "pending", and search matches them by words until the index takes
-- them (kglens_tui.store.search_index). Deletes and text updates reach the index only for rows
-- it holds, and a delete lowers `upto` below any id SQLite could hand out again.
DROP TRIGGER observation_ai;
DROP TRIGGER observation_ad;
DROP TRIGGER observation_au;

CREATE TABLE search_indexed (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    upto INTEGER NOT NULL
);
INSERT INTO search_indexed(id, upto) VALUES (1, COALESCE((SELECT MAX(id) FROM observation), 0));

CREATE TRIGGER observation_ad AFTER DELETE ON observation
WHEN old.id <= (SELECT upto FROM search_indexed) BEGIN
    INSERT INTO observation_fts(observation_fts, rowid, question, reply)
    VALUES ('delete', old.id, old.question, old.reply);
    UPDATE search_indexed
    SET upto = MIN(upto, COALESCE((SELECT MAX(id) FROM observation), 0));
END;

CREATE TRIGGER observation_au AFTER UPDATE OF question, reply ON observation
WHEN old.id <= (SELECT upto FROM search_indexed) BEGIN
    INSERT INTO observation_fts(observation_fts, rowid, question, reply)
    VALUES ('delete', old.id, old.question, old.reply);
    INSERT INTO observation_fts(rowid, question, reply) VALUES (new.id, new.question, new.reply);
END;
